public import AudioCore

/// ITU-T G.711 A-law and µ-law: Float32 in, one byte per sample out.
///
/// Each sample is first rounded to 16 bits as ``PCMConverter`` rounds (× 32768, to nearest, ties
/// to even, clipped), then compressed with G.711's decision values, as the ITU's reference
/// implementation (ITU-T G.191, `alaw_compress` / `ulaw_compress`) does it: A-law from the
/// 13 most significant bits, µ-law from the 14 most significant bits, and a negative value `x`
/// coded as the mirror image of `-x - 1` (its ones' complement), so the codes are symmetric
/// about the middle of the 16-bit range. A packet is one frame, one byte per channel.
public final class G711Encoder: AudioEncoder {
    /// Interleaved native-endian Float32 at the output's rate and channel count.
    public let inputFormat: AudioStreamBasicDescription
    /// `'alaw'` or `'ulaw'`: 8 bits per channel, one frame of one byte per channel per packet.
    public let outputFormat: AudioStreamBasicDescription
    /// One frame per packet.
    public var framesPerPacket: Int { 1 }
    /// One byte per channel.
    public var maximumPacketSize: Int { channels }

    private let channels: Int
    private let isALaw: Bool

    /// An encoder to `'alaw'` or `'ulaw'` `output`; `formatNotSupported` for other format IDs, no
    /// channels, fields that disagree with one byte per channel and one frame per packet (0 is
    /// filled in), or an input that is not Float32 at the output's rate and channel count.
    public init(input: AudioStreamBasicDescription, output: AudioStreamBasicDescription) throws(AudioCodecError) {
        switch output.formatID {
        case .aLaw: isALaw = true
        case .uLaw: isALaw = false
        default: throw AudioCodecError(.formatNotSupported, "\(output.formatID.messageName) is not G.711")
        }
        let channels = output.channelsPerFrame
        guard channels > 0, channels <= 1 << 16 else {
            throw AudioCodecError(.formatNotSupported, "G.711 with \(channels) channels")
        }
        guard [0, channels].contains(output.bytesPerPacket), [0, channels].contains(output.bytesPerFrame),
              [0, 1].contains(output.framesPerPacket), [0, 8].contains(output.bitsPerChannel) else {
            throw AudioCodecError(.formatNotSupported, "G.711 packets are one frame of one byte per channel; got \(output)")
        }
        self.channels = try input.checkEncoderInput(for: output)
        inputFormat = input
        outputFormat = AudioStreamBasicDescription(
            sampleRate: output.sampleRate, formatID: output.formatID, formatFlags: [], bytesPerPacket: channels,
            framesPerPacket: 1, bytesPerFrame: channels, channelsPerFrame: channels, bitsPerChannel: 8)
    }

    /// Compresses `frameCount` frames, one byte per sample in the input's order; never padded.
    /// Packet descriptions are not written (the packets are all one frame).
    public func encode(
        _ input: UnsafeRawBufferPointer, frameCount: Int, into output: UnsafeMutableRawBufferPointer,
        packetDescriptions: UnsafeMutableBufferPointer<AudioStreamPacketDescription>?
    ) throws(AudioCodecError) -> AudioEncodeResult {
        _ = try checkEncodeSizes(input, frameCount: frameCount, output: output)
        let count = frameCount * channels
        guard count > 0, let source = input.baseAddress, let destination = output.baseAddress else {
            return AudioEncodeResult(packetCount: 0, byteCount: 0)
        }
        // Unaligned loads: the caller's memory need not be aligned.
        @inline(__always) func sample(_ i: Int) -> Int16 { roundClip16(source.loadUnaligned(fromByteOffset: 4 * i, as: Float.self) * 32768) }
        let bytes = destination.assumingMemoryBound(to: UInt8.self)
        if isALaw {
            for i in 0..<count { bytes[i] = G711.aLawCode(sample(i)) }
        } else {
            for i in 0..<count { bytes[i] = G711.muLawCode(sample(i)) }
        }
        return AudioEncodeResult(packetCount: frameCount, byteCount: count)
    }

    /// Nothing to forget: G.711 carries no state between samples.
    public func reset() {}
}

/// G.711 compression (ITU-T Rec. G.711, tables 1a and 2a).
extension G711 {
    /// The A-law byte for a 16-bit sample. The magnitude's 12 most significant bits (ones'
    /// complement for negative values) fall in segment 0 (0–15, steps of 1) or in segment s (1–7)
    /// covering 16·2^(s−1) up to twice that, in 16 steps; the code is the sign (1 = positive),
    /// the segment and the step, with the even bits inverted on the line.
    @inline(__always)
    static func aLawCode(_ sample: Int16) -> UInt8 {
        let x = Int32(sample)
        let negative = x >> 31  // all ones for a negative sample
        let magnitude = UInt32(bitPattern: (x ^ negative) >> 4)  // 0...2047
        // The segment is the position of the leading 1 above bit 3 (bit 4 → 1 ... bit 10 → 7).
        let top = 31 - (magnitude | 1).leadingZeroBitCount  // 0...10
        let segment = max(top - 3, 0)
        let step = segment == 0 ? magnitude : (magnitude >> UInt32(segment - 1)) & 0x0F
        let code = UInt32(segment << 4) | step
        let sign: UInt32 = negative == 0 ? 0x80 : 0
        return UInt8(truncatingIfNeeded: (code | sign) ^ 0x55)
    }

    /// The µ-law byte for a 16-bit sample. The magnitude's 14 most significant bits (ones'
    /// complement for negative values) are biased by 33 and limited to 8191, so segment s (0–7)
    /// covers 32·2^s up to twice that, in 16 steps; the code is the sign (1 = positive), the
    /// segment and the step, all bits but the sign inverted.
    @inline(__always)
    static func muLawCode(_ sample: Int16) -> UInt8 {
        let x = Int32(sample)
        let negative = x >> 31
        let biased = UInt32(min(((x ^ negative) >> 2) + 33, 0x1FFF))  // 33...8191
        let segment = 31 - biased.leadingZeroBitCount - 5  // the leading 1 at bit 5 → 0 ... bit 12 → 7
        let step = (biased >> UInt32(segment + 1)) & 0x0F
        let code = UInt32(segment << 4) | step
        let flip: UInt32 = negative == 0 ? 0xFF : 0x7F
        return UInt8(truncatingIfNeeded: code ^ flip)
    }
}
