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
    /// How the decoder's state carries from packet to packet, which readers start it by after
    /// a seek or in pieces; ``AudioDecoderTraits/independent`` (packets decode on their own)
    /// unless the decoder says otherwise.
    var traits: AudioDecoderTraits { get }
}

extension AudioDecoder {
    public var outputChannelLayout: AudioChannelLayout? { nil }
    public var traits: AudioDecoderTraits { .independent }
}

/// What a reader needs to know to start a decoder anywhere in a stream: how many packets before
/// the first one wanted rebuild its state, and whether (and where) restarting it gives exactly
/// what decoding from the start gives.
public struct AudioDecoderTraits: Sendable, Equatable {
    /// Packets decoded, their frames discarded, before the first packet wanted (after a seek,
    /// at a reset, at a piece's start): what rebuilds the state carried between packets.
    public var preRollPackets: Int
    /// For state the pre-roll does not rebuild (a noise generator running through the stream),
    /// the packet interval at which readers reset the decoder and pre-roll again however the
    /// stream is read, so every packet decodes alike; nil: never.
    public var resetInterval: Int?
    /// Decoding starts at a multiple of this many packets (1: anywhere).
    public var startAlignment: Int
    /// Whether a decoder started after its pre-roll (at a reset point where there is an
    /// interval) gives exactly what one decoding from the start gives; when not, readers decode
    /// the stream in one piece.
    public var restartsExactly: Bool

    /// Traits with the given pre-roll, reset interval, alignment and exactness.
    public init(preRollPackets: Int = 0, resetInterval: Int? = nil, startAlignment: Int = 1, restartsExactly: Bool = true) {
        self.preRollPackets = preRollPackets
        self.resetInterval = resetInterval
        self.startAlignment = startAlignment
        self.restartsExactly = restartsExactly
    }

    /// Packets that decode on their own: no pre-roll, no resets, exact anywhere (PCM, G.711,
    /// ALAC, FLAC).
    public static let independent = AudioDecoderTraits()
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
