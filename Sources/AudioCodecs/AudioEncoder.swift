public import AudioCore

/// Turns interleaved Float32 PCM, as a sound device captures it, into packets of another format.
///
/// An encoder is made from its input and output descriptions and keeps what the format carries
/// from one packet to the next (IMA4's predictor and step index) until ``reset()``. Its
/// ``outputFormat`` is complete from the start: fields the caller left 0 (bytes and frames per
/// packet, bytes per frame, bits per channel) are filled in as Apple's audio queue and converter
/// fill them. One encoder serves one stream on one thread at a time.
///
/// ``encode(_:frameCount:into:packetDescriptions:)`` works on memory the caller owns and
/// allocates nothing, so it can run on a capture thread.
public protocol AudioEncoder: AnyObject {
    /// Makes an encoder from `input` (interleaved native-endian Float32 linear PCM at the rate and
    /// channel count of `output`; see ``AudioEncoders/inputFormat(for:)``) to `output`.
    /// `formatNotSupported` when the encoder cannot produce `output` or `input` is not that.
    init(input: AudioStreamBasicDescription, output: AudioStreamBasicDescription) throws(AudioCodecError)
    /// The PCM format ``encode(_:frameCount:into:packetDescriptions:)`` reads.
    var inputFormat: AudioStreamBasicDescription { get }
    /// The complete description of the packets the encoder writes.
    var outputFormat: AudioStreamBasicDescription { get }
    /// Frames in one output packet (1 for linear PCM and G.711, 64 for IMA4).
    var framesPerPacket: Int { get }
    /// The largest packet the encoder writes, in bytes (`kAudioQueueProperty_MaximumOutputPacketSize`,
    /// `kAudioConverterPropertyMaximumOutputPacketSize`); for a constant-size format, its size.
    /// For non-interleaved linear PCM, one channel's packet (the description's `bytesPerPacket`).
    var maximumPacketSize: Int { get }
    /// The magic cookie a file or stream of ``outputFormat`` needs, nil when the format has none.
    var magicCookie: [UInt8]? { get }
    /// The bytes ``encode(_:frameCount:into:packetDescriptions:)`` writes for `frameCount` frames:
    /// whole packets, the last one padded; nil when `frameCount` is negative or the size
    /// overflows.
    func outputByteCount(forFrames frameCount: Int) -> Int?
    /// Encodes `frameCount` frames of ``inputFormat`` from `input` into packets at the start of
    /// `output`.
    ///
    /// `frameCount` should be a whole number of packets (``framesPerPacket``). When it is not,
    /// the last packet is completed with silence and the call is taken as the end of the stream:
    /// ``AudioEncodeResult/paddingFrames`` says how many frames of silence were added (a file's
    /// `AudioFilePacketTableInfo.remainderFrames`). State carried between packets goes on to the
    /// next call either way.
    ///
    /// For a format whose packets vary in size (`bytesPerPacket` 0), each packet's place and size
    /// is written to `packetDescriptions`, which must hold a description per packet (else
    /// `requiresPacketDescriptions`); for constant-size formats, as Apple's input queue does,
    /// none are written and `packetDescriptions` may be nil.
    ///
    /// Non-interleaved linear PCM output holds one region per channel, back to back, each
    /// `frameCount` frames long.
    ///
    /// Errors, with nothing written and no state changed: `invalidInputSize` when `frameCount`
    /// is negative or `input` is shorter than `frameCount` frames; `invalidOutputSize` when
    /// `output` is shorter than ``outputByteCount(forFrames:)``.
    func encode(
        _ input: UnsafeRawBufferPointer, frameCount: Int, into output: UnsafeMutableRawBufferPointer,
        packetDescriptions: UnsafeMutableBufferPointer<AudioStreamPacketDescription>?
    ) throws(AudioCodecError) -> AudioEncodeResult
    /// Forgets all state carried between packets, so the next packet starts as a new stream's
    /// first (after an audio queue stops or resets).
    func reset()

    /// Frames of the encoder's own delay at the start of what it writes: the first packets
    /// decode to this many frames before the first input frame (AAC: 2112, as Apple's encoder).
    /// A file records them as `AudioFilePacketTableInfo.primingFrames`
    /// (`kAudioConverterPrimeInfo`'s `leadingFrames`). 0 for encoders without a delay.
    var primingFrames: Int { get }
    /// True when ``encode(_:frameCount:into:packetDescriptions:)`` may hold input back: it then
    /// writes the packets that are complete (fewer than the frames make, at first), a frame
    /// count that is not whole packets is not the end of the stream, and ``finish(into:packetDescriptions:)``
    /// ends it. False for encoders whose packets depend only on their own frames (PCM, G.711, IMA4).
    var hasDelay: Bool { get }
    /// Ends the stream: encodes what the encoder holds back, its last packet completed with
    /// silence, into `output`, as many whole packets as fit, and returns what it wrote. Call it
    /// again until it writes no packet. ``AudioEncodeResult/paddingFrames`` counts the frames of
    /// silence that end the stream (the packet table's remainder). Encoders without a delay
    /// hold nothing and write nothing. After the last packet the encoder starts a new stream,
    /// as after ``reset()``.
    func finish(
        into output: UnsafeMutableRawBufferPointer, packetDescriptions: UnsafeMutableBufferPointer<AudioStreamPacketDescription>?
    ) throws(AudioCodecError) -> AudioEncodeResult

    /// The bit rate the encoder aims at, in bits per second (`kAudioConverterEncodeBitRate`);
    /// 0 for formats whose rate follows from the format (PCM, G.711, IMA4).
    var bitRate: Int { get }
    /// Sets the bit rate (before the first packet). `formatNotSupported` for encoders whose
    /// rate is fixed; a rate outside ``applicableBitRates`` is taken as the nearest one there.
    func setBitRate(_ bitRate: Int) throws(AudioCodecError)
    /// The bit rates ``setBitRate(_:)`` takes for this format, ascending
    /// (`kAudioConverterApplicableEncodeBitRates`); empty when the rate is fixed.
    var applicableBitRates: [ClosedRange<Int>] { get }

    /// Takes Apple's codec quality (`kAudioConverterCodecQuality`, 0–127) before the first
    /// packet: what it means is the encoder's (FLAC: its compression level). Encoders without
    /// such a setting ignore it.
    func setQuality(_ quality: Int) throws(AudioCodecError)
}

extension AudioEncoder {
    /// No delay.
    public var primingFrames: Int { 0 }
    /// No delay.
    public var hasDelay: Bool { false }
    /// Nothing held back: writes nothing.
    public func finish(
        into output: UnsafeMutableRawBufferPointer, packetDescriptions: UnsafeMutableBufferPointer<AudioStreamPacketDescription>?
    ) throws(AudioCodecError) -> AudioEncodeResult {
        AudioEncodeResult(packetCount: 0, byteCount: 0)
    }
    /// A rate that follows from the format.
    public var bitRate: Int { 0 }
    /// The rate is fixed: `formatNotSupported`.
    public func setBitRate(_ bitRate: Int) throws(AudioCodecError) {
        throw AudioCodecError(.formatNotSupported, "\(outputFormat.formatID.messageName) has no bit rate to set")
    }
    /// None.
    public var applicableBitRates: [ClosedRange<Int>] { [] }
    /// No quality setting: ignored.
    public func setQuality(_ quality: Int) throws(AudioCodecError) {}
}

extension AudioEncoder {
    /// Whole packets of ``maximumPacketSize`` bytes.
    public func outputByteCount(forFrames frameCount: Int) -> Int? {
        guard frameCount >= 0 else { return nil }
        let packets = frameCount / framesPerPacket + (frameCount % framesPerPacket == 0 ? 0 : 1)
        let (bytes, overflow) = packets.multipliedReportingOverflow(by: maximumPacketSize)
        return overflow ? nil : bytes
    }

    /// The magic cookie: none.
    public var magicCookie: [UInt8]? { nil }
}

/// What one call of ``AudioEncoder/encode(_:frameCount:into:packetDescriptions:)`` wrote.
public struct AudioEncodeResult: Hashable, Sendable {
    /// Packets written.
    public var packetCount: Int
    /// Bytes written, from the start of the output.
    public var byteCount: Int
    /// Frames of silence added to complete the last packet: 0 unless the frame count was not a
    /// whole number of packets.
    public var paddingFrames: Int

    /// A result of `packetCount` packets in `byteCount` bytes, `paddingFrames` of them silence.
    public init(packetCount: Int, byteCount: Int, paddingFrames: Int = 0) {
        self.packetCount = packetCount
        self.byteCount = byteCount
        self.paddingFrames = paddingFrames
    }
}

/// Makes encoders by format ID. Linear PCM, G.711 A-law and µ-law, and Apple IMA4 are built in;
/// a codec target can register more. The registry is safe to use from any thread.
public enum AudioEncoders {
    /// Builds an encoder from an input and an output description.
    public typealias Factory =
        @Sendable (AudioStreamBasicDescription, AudioStreamBasicDescription) throws(AudioCodecError) -> any AudioEncoder

    private static let registry = CodecRegistry<Factory>(builtIn, kind: "encoder")

    private static var builtIn: [AudioFormatID: Factory] {
        [
            .linearPCM: { input, output throws(AudioCodecError) in try PCMEncoder(input: input, output: output) },
            .aLaw: { input, output throws(AudioCodecError) in try G711Encoder(input: input, output: output) },
            .uLaw: { input, output throws(AudioCodecError) in try G711Encoder(input: input, output: output) },
            .appleIMA4: { input, output throws(AudioCodecError) in try IMA4Encoder(input: input, output: output) },
        ]
    }

    /// Registers `factory` for `formatID`, replacing any earlier one.
    public static func register(_ formatID: AudioFormatID, _ factory: @escaping Factory) {
        registry.register(formatID, factory)
    }

    /// Registers an encoder type for the format IDs it writes.
    public static func register<E: AudioEncoder & SendableMetatype>(_ type: E.Type, for formatIDs: [AudioFormatID]) {
        for id in formatIDs {
            register(id) { input, output throws(AudioCodecError) in try E(input: input, output: output) }
        }
    }

    /// True when an encoder is registered for `formatID`.
    public static func canEncode(_ formatID: AudioFormatID) -> Bool { registry.contains(formatID) }

    /// The format IDs an encoder is registered for, in ascending numeric order
    /// (`kAudioFormatProperty_EncodeFormatIDs`).
    public static var formatIDs: [AudioFormatID] { registry.formatIDs }

    /// An encoder from `input` to `output`: `formatNotSupported` (`'fmt?'`) naming the format
    /// when none is registered for `output.formatID`, or the encoder's own error.
    public static func make(from input: AudioStreamBasicDescription, to output: AudioStreamBasicDescription)
        throws(AudioCodecError) -> any AudioEncoder
    {
        try registry.factory(for: output.formatID)(input, output)
    }

    /// The input every encoder takes for `output`: interleaved, packed, native-endian 32-bit
    /// float linear PCM at its sample rate and channel count (what sound devices capture).
    public static func inputFormat(for output: AudioStreamBasicDescription) -> AudioStreamBasicDescription {
        .linearPCM(sampleRate: output.sampleRate, channels: output.channelsPerFrame, bitsPerChannel: 32, isFloat: true)
    }
}

extension AudioStreamBasicDescription {
    /// Checks that `self` (an encoder's input) is interleaved native-endian Float32 linear PCM at
    /// the sample rate and channel count of `output`; returns the channel count.
    public func checkEncoderInput(for output: AudioStreamBasicDescription) throws(AudioCodecError) -> Int {
        let layout = try PCMSampleLayout(self)
        guard layout.kind == .float, layout.wordSize == 4, !layout.bigEndian, layout.interleaved else {
            throw AudioCodecError(.formatNotSupported, "an encoder's input is interleaved native-endian 32-bit float; got \(self)")
        }
        guard output.sampleRate.isFinite, output.sampleRate > 0, sampleRate == output.sampleRate else {
            throw AudioCodecError(
                .formatNotSupported, "input rate \(sampleRate) Hz and output rate \(output.sampleRate) Hz must be equal and positive")
        }
        guard channelsPerFrame == output.channelsPerFrame else {
            throw AudioCodecError(
                .formatNotSupported, "input has \(channelsPerFrame) channels and output \(output.channelsPerFrame)")
        }
        return layout.channels
    }
}

extension AudioEncoder {
    /// Checks the sizes an encode call is given: `frameCount` frames of ``inputFormat`` (Float32)
    /// in `input`, and room in `output` for ``outputByteCount(forFrames:)``, which it returns.
    public func checkEncodeSizes(
        _ input: UnsafeRawBufferPointer, frameCount: Int, output: UnsafeMutableRawBufferPointer
    ) throws(AudioCodecError) -> Int {
        let channels = Int(inputFormat.channelsPerFrame)
        let needed = outputByteCount(forFrames: frameCount)
        let (samples, o1) = frameCount.multipliedReportingOverflow(by: channels)
        let (inBytes, o2) = samples.multipliedReportingOverflow(by: 4)
        guard frameCount >= 0, !o1, !o2, inBytes <= input.count else {
            throw AudioCodecError(.invalidInputSize, "\(input.count) bytes do not hold \(frameCount) frames of \(channels)-channel Float32")
        }
        guard let needed, needed <= output.count else {
            throw AudioCodecError(.invalidOutputSize, "\(frameCount) frames need \(needed.map(String.init) ?? "too many") bytes; the output has \(output.count)")
        }
        return needed
    }
}
