/// The magic cookie Apple's AAC encoder returns (`kAudioConverterCompressionMagicCookie`) and
/// writes to a CAF `kuki` chunk: an MPEG-4 ES_Descriptor (ISO/IEC 14496-1, 7.2.6.5), the body
/// of an `esds` box after its version and flags.
///
/// Every descriptor's length takes four bytes (`80 80 80 n`), as Apple writes them:
/// - ES_Descriptor (tag 0x03): ES_ID 0, flags 0;
/// - DecoderConfigDescriptor (0x04): objectTypeIndication 0x40 (MPEG-4 audio), streamType 5
///   (audio) with the reserved bit set (0x15), bufferSizeDB, maxBitrate and avgBitrate;
/// - DecoderSpecificInfo (0x05): the AudioSpecificConfig;
/// - SLConfigDescriptor (0x06): predefined 2 (MP4 files).
public enum AACEncoderCookie {
    /// The ES_Descriptor for `audioSpecificConfig`, with `bufferSize` as bufferSizeDB and
    /// `bitRate` as both the maximum and the average bit rate.
    public static func esDescriptor(audioSpecificConfig: [UInt8], bufferSize: Int, bitRate: Int) -> [UInt8] {
        let specificInfo = descriptor(0x05, audioSpecificConfig)
        let decoderConfig = descriptor(
            0x04,
            [0x40, 0x15] + bigEndian(bufferSize, bytes: 3) + bigEndian(bitRate, bytes: 4) + bigEndian(bitRate, bytes: 4) + specificInfo)
        let slConfig = descriptor(0x06, [0x02])
        return descriptor(0x03, [0x00, 0x00, 0x00] + decoderConfig + slConfig)
    }

    /// A descriptor: its tag, its length in four 7-bit bytes, its body.
    static func descriptor(_ tag: UInt8, _ body: [UInt8]) -> [UInt8] {
        let n = body.count
        return [tag, UInt8(0x80 | (n >> 21) & 0x7F), UInt8(0x80 | (n >> 14) & 0x7F), UInt8(0x80 | (n >> 7) & 0x7F), UInt8(n & 0x7F)] + body
    }

    private static func bigEndian(_ value: Int, bytes: Int) -> [UInt8] {
        let clamped = min(max(value, 0), (1 << (8 * bytes)) - 1)
        return (0..<bytes).reversed().map { UInt8(truncatingIfNeeded: clamped >> (8 * $0)) }
    }
}
