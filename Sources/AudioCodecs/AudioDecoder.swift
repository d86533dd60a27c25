public import AudioCore

/// Turns packets of one compressed (or PCM) format into linear PCM.
///
/// A decoder is made from the stream's `AudioStreamBasicDescription` and magic cookie, decodes
/// one packet per call, and is reset after a seek. Its ``outputFormat`` is fixed at creation —
/// for AAC with SBR or PS it already says the output rate and channel count before the first
/// packet. One decoder serves one stream on one thread at a time.
public protocol AudioDecoder: AnyObject {
    /// Makes a decoder for packets of `input`, configured by `magicCookie` where the format has one.
    init(input: AudioStreamBasicDescription, magicCookie: [UInt8]?) throws(AudioCodecError)
    /// The PCM format ``decode(packet:frames:into:)`` writes: interleaved linear PCM.
    var outputFormat: AudioStreamBasicDescription { get }
    /// The most frames one packet can decode to.
    var maximumFramesPerPacket: Int { get }
    /// Decodes one packet and appends its frames to `buffer` (whose format must be
    /// ``outputFormat`` and which must have room for ``maximumFramesPerPacket`` frames).
    /// `frames` is the packet's frame count where the container gives one (variable-duration
    /// formats). Returns the frames appended. A packet that cannot be decoded throws `badData`
    /// after appending concealment (silence) for it, so the stream keeps its timing.
    @discardableResult
    func decode(packet: UnsafeRawBufferPointer, frames: Int?, into buffer: PCMBuffer) throws(AudioCodecError) -> Int
    /// Forgets all state carried between packets (after a seek or an audio queue reset).
    func reset()
    /// The order of the channels in the output, where the codec defines it (AAC's channel
    /// configurations); nil where the container's layout applies.
    var outputChannelLayout: AudioChannelLayout? { get }
}

extension AudioDecoder {
    public var outputChannelLayout: AudioChannelLayout? { nil }
}

/// Makes decoders by format ID. Each codec target registers itself once; the registry is safe
/// to use from any thread.
public enum AudioDecoders {
    /// Builds a decoder for a format.
    public typealias Factory = @Sendable (AudioStreamBasicDescription, [UInt8]?) throws(AudioCodecError) -> any AudioDecoder

    private static let registry = CodecRegistry<Factory>(builtIn, kind: "decoder")

    private static var builtIn: [AudioFormatID: Factory] {
        [
            .linearPCM: { format, cookie throws(AudioCodecError) in try PCMDecoder(input: format, magicCookie: cookie) },
            .aLaw: { format, cookie throws(AudioCodecError) in try G711Decoder(input: format, magicCookie: cookie) },
            .uLaw: { format, cookie throws(AudioCodecError) in try G711Decoder(input: format, magicCookie: cookie) },
            .appleIMA4: { format, cookie throws(AudioCodecError) in try IMA4Decoder(input: format, magicCookie: cookie) },
            .appleLossless: { format, cookie throws(AudioCodecError) in try ALACDecoder(input: format, magicCookie: cookie) },
        ]
    }

    /// Registers `factory` for `formatID`, replacing any earlier one.
    public static func register(_ formatID: AudioFormatID, _ factory: @escaping Factory) {
        registry.register(formatID, factory)
    }

    /// Registers a decoder type for the format IDs it handles.
    public static func register<D: AudioDecoder & SendableMetatype>(_ type: D.Type, for formatIDs: [AudioFormatID]) {
        for id in formatIDs {
            register(id) { format, cookie throws(AudioCodecError) in try D(input: format, magicCookie: cookie) }
        }
    }

    /// True when a decoder is registered for `formatID`.
    public static func canDecode(_ formatID: AudioFormatID) -> Bool { registry.contains(formatID) }

    /// The format IDs a decoder is registered for, in ascending numeric order
    /// (`kAudioFormatProperty_DecodeFormatIDs`).
    public static var formatIDs: [AudioFormatID] { registry.formatIDs }

    /// A decoder for `format`, or `formatNotSupported` when none is registered.
    public static func make(for format: AudioStreamBasicDescription, magicCookie: [UInt8]?) throws(AudioCodecError) -> any AudioDecoder {
        try registry.factory(for: format.formatID)(format, magicCookie)
    }
}
