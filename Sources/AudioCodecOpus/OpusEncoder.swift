public import AudioCore
public import AudioCodecs
import COpus

/// Opus (`'opus'`) from Float32, through libopus's multistream (surround) encoder.
///
/// The stream is always 48 kHz, Opus's own rate, in which every container counts its frames
/// (Ogg granule positions, the `OpusHead` pre-skip, MPEG-4 and CAF packet tables): an output
/// description at another rate is completed to 48000 Hz, and the input is taken at 48 kHz — an
/// `AudioConverter` (and so `ExtAudioFile` and afconvert) resamples any other rate to it first,
/// as a Mac's converter does. The `OpusHead` records the rate asked for as the input rate
/// (informational). Packets are 20 ms (960 frames) unless the description asks for 2.5, 5, 10,
/// 40, 60, 80, 100 or 120 ms; they vary in size, so every packet gets a description.
///
/// Channels: one or two are mapping family 0; three to eight are family 1 (input in WAVE's
/// order, L R C LFE …, put in Vorbis order for the encoder, as ``OpusDecoder`` undoes); more
/// are family 255 (independent channels).
///
/// The defaults are opusenc's: variable bit rate (unconstrained), complexity 10, 20 ms frames,
/// the `audio` application, and a bit rate of 64 kb/s per stream plus 32 kb/s per coupled
/// stream (96 kb/s for stereo, 64 kb/s for mono).
///
/// Priming: the encoder's lookahead (`OPUS_GET_LOOKAHEAD`: 312 frames for the `audio` and `voip`
/// applications, 120 for `lowDelay`) is ``primingFrames`` and the `OpusHead` pre-skip. A
/// stream of N input frames is `ceil((N + priming) / framesPerPacket)` packets, the frames past
/// the last input frame the packet table's remainder (an Ogg file's end trimming), as opusenc
/// writes them. ``encode(_:frameCount:into:packetDescriptions:)`` writes every packet that
/// becomes complete and keeps the frames of a partial one; ``finish(into:packetDescriptions:)``
/// writes the rest.
///
/// The magic cookie is the stream's `OpusHead` packet (RFC 7845 §5.1), the form the package's
/// Ogg, CAF and MPEG-4 readers give and ``OpusDecoder`` reads; the MPEG-4 writer turns it
/// into a `dOps` box.
public final class OpusEncoder: AudioEncoder {
    /// What the encoder is tuned for (libopus's `OPUS_APPLICATION_*`). Apple's Opus encoder has
    /// no property for it; the C API's converter property `kAudioConverterOpusApplication`
    /// (this package's own) sets it.
    public enum Application: Int32, Sendable, CaseIterable {
        /// Speech (`OPUS_APPLICATION_VOIP`): high-pass filtered, formants and harmonics emphasized.
        case voip = 2048
        /// Music and mixed content (`OPUS_APPLICATION_AUDIO`), the default.
        case audio = 2049
        /// The lowest delay (`OPUS_APPLICATION_RESTRICTED_LOWDELAY`): CELT only, 2.5 ms of lookahead.
        case lowDelay = 2051
    }

    /// Interleaved native-endian Float32 at 48 kHz with the output's channel count.
    public let inputFormat: AudioStreamBasicDescription
    /// `'opus'` at 48 kHz: ``framesPerPacket`` frames per variable-size packet.
    public let outputFormat: AudioStreamBasicDescription
    /// 960 (20 ms), or the frames per packet the output description asked for.
    public let framesPerPacket: Int
    /// What opusenc allows a packet: three 1275-byte frames and their framing, per stream.
    public var maximumPacketSize: Int { (1275 * 3 + 7) * streams }
    /// The encoder's lookahead, the `OpusHead` pre-skip.
    public private(set) var primingFrames: Int = 0
    /// Packets trail their input by the lookahead: see ``finish(into:packetDescriptions:)``.
    public var hasDelay: Bool { true }
    /// The bit rate the encoder aims at, in bits per second.
    public private(set) var bitRate: Int
    /// 6 kb/s to 256 kb/s per channel (opusenc's bounds).
    public var applicableBitRates: [ClosedRange<Int>] { [(6000 * channels)...(256_000 * channels)] }
    /// libopus's complexity, 0–10 (10 unless ``setQuality(_:)`` or ``setComplexity(_:)`` set it).
    public private(set) var complexity = 10
    /// What the encoder is tuned for (``Application/audio`` unless ``setApplication(_:)`` set it).
    public private(set) var application = Application.audio
    /// True (the default) for variable bit rate, false for constant (every packet of a stream
    /// the same size at a given duration, what Safari decodes from CAF).
    public private(set) var variableBitRate = true
    /// The stream's identification header: channels, pre-skip, mapping.
    public private(set) var head: OpusHead

    /// The `OpusHead` packet.
    public var magicCookie: [UInt8]? { head.packet }

    let channels: Int
    /// Input channel `c` (WAVE order) goes to position `order[c]` of the frame libopus reads.
    private let order: [Int]
    /// True when `order` changes nothing (mono, stereo, family 255).
    private let identityOrder: Bool
    private var streams: Int { head.streamCount }
    private var encoder: OpaquePointer?
    /// One packet of input in libopus's channel order, filled across calls.
    private let staging: UnsafeMutablePointer<Float>
    /// Frames in `staging`.
    private var pending = 0
    /// Input frames taken since the stream started.
    private var inputFrames = 0
    /// Packets written since the stream started.
    private var packetsWritten = 0
    /// True once finish has begun: the partial packet is complete with silence.
    private var flushing = false
    /// True once finish has written a stream's last packet, until the next input: finish then
    /// writes nothing.
    private var ended = false

    /// The packet durations Opus has, in frames at 48 kHz.
    public static let packetDurations = [120, 240, 480, 960, 1920, 2880, 3840, 4800, 5760]

    /// An encoder to `'opus'` `output`. `formatNotSupported` for another format ID, format flags
    /// other than 0, no channels or more than 255, frames per packet that are not an Opus
    /// duration (0 is taken as 960), fields of constant-size packets, or an input that is not
    /// Float32 with the output's channels at 48 kHz or at the output's rate.
    public init(input: AudioStreamBasicDescription, output: AudioStreamBasicDescription) throws(AudioCodecError) {
        guard output.formatID == .opus else {
            throw AudioCodecError(.formatNotSupported, "'\(output.formatID)' is not Opus")
        }
        guard output.formatFlags.rawValue == 0 else {
            throw AudioCodecError(.formatNotSupported, "Opus format flags \(output.formatFlags.rawValue): Opus has none")
        }
        let channels = Int(output.channelsPerFrame)
        guard (1...255).contains(channels) else {
            throw AudioCodecError(.formatNotSupported, "Opus with \(channels) channels (1–255 are encoded)")
        }
        let frames = output.framesPerPacket == 0 ? 960 : Int(output.framesPerPacket)
        guard Self.packetDurations.contains(frames), output.bytesPerPacket == 0, output.bytesPerFrame == 0, output.bitsPerChannel == 0 else {
            throw AudioCodecError(
                .formatNotSupported, "Opus packets are 2.5–120 ms (120–5760 frames at 48 kHz) of varying size; got \(output)")
        }
        var at48 = output
        at48.sampleRate = 48000
        if input.sampleRate == output.sampleRate {
            _ = try input.checkEncoderInput(for: output)
        } else {
            _ = try input.checkEncoderInput(for: at48)
        }
        inputFormat = AudioEncoders.inputFormat(for: at48)
        outputFormat = AudioStreamBasicDescription(
            sampleRate: 48000, formatID: .opus, formatFlags: [], bytesPerPacket: 0, framesPerPacket: UInt32(frames), bytesPerFrame: 0,
            channelsPerFrame: UInt32(channels), bitsPerChannel: 0)
        framesPerPacket = frames
        self.channels = channels
        let family = channels <= 2 ? 0 : channels <= 8 ? 1 : 255
        head = OpusHead(channelCount: channels, preSkip: 0, inputSampleRate: Self.inputRate(output.sampleRate))
        head.mappingFamily = family
        // WAVE order to Vorbis order: the inverse of the decoder's permutation.
        var vorbis = head
        vorbis.channelMapping = Array(repeating: 0, count: channels)
        let toCoreAudio = vorbis.vorbisToCoreAudioOrder
        var order = Array(0..<channels)
        for (wave, v) in toCoreAudio.enumerated() { order[wave] = v }
        self.order = order
        identityOrder = order == Array(0..<channels)
        bitRate = 0
        staging = .allocate(capacity: frames * channels)
        staging.initialize(repeating: 0, count: frames * channels)
        try open()
        bitRate = Self.defaultBitRate(streams: head.streamCount, coupled: head.coupledCount)
        try configure()
    }

    deinit {
        if let encoder { opus_multistream_encoder_destroy(encoder) }
        staging.deallocate()
    }

    /// The `OpusHead` input rate for a description's rate: a whole rate as it is, else 48000.
    private static func inputRate(_ rate: Double) -> Int {
        rate.isFinite && rate >= 1 && rate <= 1_000_000 && rate == rate.rounded() ? Int(rate) : 48000
    }

    /// opusenc's default: 64 kb/s per stream and 32 kb/s per coupled stream, at 48 kHz.
    static func defaultBitRate(streams: Int, coupled: Int) -> Int { 64000 * streams + 32000 * coupled }

    /// Makes libopus's encoder for the channels and application, and the header from it.
    private func open() throws(AudioCodecError) {
        if let encoder { opus_multistream_encoder_destroy(encoder) }
        encoder = nil
        var streamCount: Int32 = 0, coupledCount: Int32 = 0, error: Int32 = 0
        var mapping = [UInt8](repeating: 0, count: channels)
        let made = mapping.withUnsafeMutableBufferPointer { table in
            opus_multistream_surround_encoder_create(
                48000, Int32(channels), Int32(head.mappingFamily), &streamCount, &coupledCount, table.baseAddress!,
                application.rawValue, &error)
        }
        guard let made, error == OPUS_OK else {
            if let made { opus_multistream_encoder_destroy(made) }
            throw AudioCodecError(.formatNotSupported, "libopus refuses to encode \(channels) channels: \(Self.message(error))")
        }
        encoder = made
        head.streamCount = Int(streamCount)
        head.coupledCount = Int(coupledCount)
        head.channelMapping = mapping
        var lookahead: Int32 = 0
        guard copus_mse_get_lookahead(made, &lookahead) == OPUS_OK else {
            throw AudioCodecError(.unspecified, "libopus did not give its lookahead")
        }
        primingFrames = Int(lookahead)
        head.preSkip = primingFrames
        pending = 0
        inputFrames = 0
        packetsWritten = 0
        flushing = false
    }

    /// Sets bit rate, complexity and VBR on libopus's encoder.
    private func configure() throws(AudioCodecError) {
        guard let encoder else { throw AudioCodecError(.unspecified, "the libopus encoder could not be made again") }
        var rc = copus_mse_set_bitrate(encoder, Int32(bitRate))
        if rc == OPUS_OK { rc = copus_mse_set_complexity(encoder, Int32(complexity)) }
        if rc == OPUS_OK { rc = copus_mse_set_vbr(encoder, variableBitRate ? 1 : 0, 0) }
        guard rc == OPUS_OK else { throw AudioCodecError(.unspecified, "libopus refused a setting: \(Self.message(rc))") }
    }

    /// Encodes `frameCount` frames: writes the packets that become complete (the frames of a
    /// packet not yet complete wait for the next call, or for ``finish(into:packetDescriptions:)``),
    /// with a description for each. `AudioEncodeResult/paddingFrames` is 0.
    ///
    /// Errors, with nothing written and no state changed: `invalidInputSize`, `invalidOutputSize`
    /// (the output must hold ``outputByteCount(forFrames:)``), `requiresPacketDescriptions` when
    /// `packetDescriptions` has fewer places than the packets the call completes,
    /// `operationNotSupported` while ``finish(into:packetDescriptions:)`` has packets left.
    public func encode(
        _ input: UnsafeRawBufferPointer, frameCount: Int, into output: UnsafeMutableRawBufferPointer,
        packetDescriptions: UnsafeMutableBufferPointer<AudioStreamPacketDescription>?
    ) throws(AudioCodecError) -> AudioEncodeResult {
        _ = try checkEncodeSizes(input, frameCount: frameCount, output: output)
        guard !flushing else {
            throw AudioCodecError(.operationNotSupported, "the stream is ending: call finish until it writes no packet")
        }
        let packets = (pending + frameCount) / framesPerPacket
        guard packets <= (packetDescriptions?.count ?? 0) else {
            throw AudioCodecError(
                .requiresPacketDescriptions, "\(frameCount) frames complete \(packets) packets; \(packetDescriptions?.count ?? 0) descriptions given")
        }
        ended = false
        guard frameCount > 0, let source = input.baseAddress else { return AudioEncodeResult(packetCount: 0, byteCount: 0) }
        var written = 0, bytes = 0
        var taken = 0
        while taken < frameCount {
            let n = min(framesPerPacket - pending, frameCount - taken)
            store(source + taken * 4 * channels, frames: n)
            taken += n
            inputFrames += n
            if pending == framesPerPacket {
                let size = try encodeStaged(into: output, at: bytes)
                // Checked above: a call that completes a packet has a description for it.
                packetDescriptions?[written] = AudioStreamPacketDescription(
                    startOffset: Int64(bytes), variableFramesInPacket: 0, dataByteSize: UInt32(size))
                written += 1
                bytes += size
            }
        }
        return AudioEncodeResult(packetCount: written, byteCount: bytes)
    }

    /// Ends the stream: completes the partial packet with silence and adds packets of silence
    /// until the last input frame has passed the lookahead, writing as many as fit in `output`
    /// and `packetDescriptions` (the rest wait for the next call). The call that writes the last
    /// packet reports the frames past the input in `AudioEncodeResult/paddingFrames` and starts
    /// a new stream; once it has, finish writes nothing until the next input. A stream of no
    /// frames is one packet, the lookahead's, as opusenc writes it (so that the file has audio
    /// to say its pre-skip).
    public func finish(
        into output: UnsafeMutableRawBufferPointer, packetDescriptions: UnsafeMutableBufferPointer<AudioStreamPacketDescription>?
    ) throws(AudioCodecError) -> AudioEncodeResult {
        guard !ended else { return AudioEncodeResult(packetCount: 0, byteCount: 0) }
        flushing = true
        let total = (inputFrames + primingFrames + framesPerPacket - 1) / framesPerPacket
        var written = 0, bytes = 0
        while packetsWritten < total {
            guard let packetDescriptions, written < packetDescriptions.count, output.count - bytes >= maximumPacketSize else { break }
            if pending < framesPerPacket {
                (staging + pending * channels).update(repeating: 0, count: (framesPerPacket - pending) * channels)
                pending = framesPerPacket
            }
            let size = try encodeStaged(into: output, at: bytes)
            packetDescriptions[written] = AudioStreamPacketDescription(
                startOffset: Int64(bytes), variableFramesInPacket: 0, dataByteSize: UInt32(size))
            written += 1
            bytes += size
        }
        var padding = 0
        if packetsWritten >= total {
            padding = total * framesPerPacket - primingFrames - inputFrames
            reset()
            ended = true
        }
        return AudioEncodeResult(packetCount: written, byteCount: bytes, paddingFrames: padding)
    }

    /// Encodes the staged packet into `output` at `offset`; returns its size.
    private func encodeStaged(into output: UnsafeMutableRawBufferPointer, at offset: Int) throws(AudioCodecError) -> Int {
        guard let encoder, let base = output.baseAddress else {
            throw AudioCodecError(.unspecified, "the libopus encoder could not be made again")
        }
        let room = min(output.count - offset, maximumPacketSize)
        let rc = opus_multistream_encode_float(
            encoder, staging, Int32(framesPerPacket), (base + offset).assumingMemoryBound(to: UInt8.self), Int32(room))
        guard rc > 0 else { throw AudioCodecError(.unspecified, "libopus failed to encode: \(Self.message(rc))") }
        pending = 0
        packetsWritten += 1
        return Int(rc)
    }

    /// Copies `frames` interleaved frames from `source` into the staging packet after
    /// `pending`, in libopus's channel order; NaN becomes 0.
    private func store(_ source: UnsafeRawPointer, frames: Int) {
        let stride = 4 * channels
        let destination = staging + pending * channels
        if identityOrder {
            // One run of samples: a loop the compiler vectorizes.
            for i in 0..<(frames * channels) {
                let x = source.loadUnaligned(fromByteOffset: 4 * i, as: Float.self)
                destination[i] = x.isNaN ? 0 : x
            }
            pending += frames
            return
        }
        for i in 0..<frames {
            let from = source + i * stride
            let to = destination + i * channels
            for c in 0..<channels {
                let x = from.loadUnaligned(fromByteOffset: 4 * c, as: Float.self)
                to[order[c]] = x.isNaN ? 0 : x
            }
        }
        pending += frames
    }

    /// Sets the bit rate, clamped to ``applicableBitRates``; libopus takes it at once (between
    /// packets too).
    public func setBitRate(_ bitRate: Int) throws(AudioCodecError) {
        let range = applicableBitRates[0]
        self.bitRate = min(max(bitRate, range.lowerBound), range.upperBound)
        try configure()
    }

    /// Sets the complexity from Apple's codec quality (`kAudioConverterCodecQuality`, 0–127),
    /// in proportion up to the converter's default, High (0x60), which is opusenc's and
    /// libopus's highest complexity, 10: Min (0) → 0, Low (0x20) → 3, Medium (0x40) → 7,
    /// High (0x60) and Max (0x7F) → 10.
    public func setQuality(_ quality: Int) throws(AudioCodecError) {
        try setComplexity(Self.complexity(forQuality: quality))
    }

    /// The complexity ``setQuality(_:)`` takes for `quality`.
    public static func complexity(forQuality quality: Int) -> Int {
        min(10, (max(0, quality) * 10 + 48) / 96)
    }

    /// Sets libopus's complexity, 0–10 (clamped), at once.
    public func setComplexity(_ complexity: Int) throws(AudioCodecError) {
        self.complexity = min(max(complexity, 0), 10)
        try configure()
    }

    /// Chooses variable (true) or constant bit rate, at once.
    public func setVariableBitRate(_ variable: Bool) throws(AudioCodecError) {
        variableBitRate = variable
        try configure()
    }

    /// Sets what the encoder is tuned for. It changes the lookahead (and so ``primingFrames``
    /// and the cookie's pre-skip), so only before the first frame of a stream:
    /// `operationNotSupported` after.
    public func setApplication(_ application: Application) throws(AudioCodecError) {
        guard inputFrames == 0, !flushing else {
            throw AudioCodecError(.operationNotSupported, "the Opus application is set before the first frame of a stream")
        }
        guard application != self.application else { return }
        self.application = application
        try open()
        try configure()
    }

    /// Starts a new stream: frames held back are dropped, and the next packet is a new stream's
    /// first, with its priming. The settings stay.
    public func reset() {
        if let encoder { _ = copus_mse_reset(encoder) }
        pending = 0
        inputFrames = 0
        packetsWritten = 0
        flushing = false
    }

    /// Registers this encoder for `'opus'`.
    public static func register() {
        AudioEncoders.register(OpusEncoder.self, for: [.opus])
    }

    private static func message(_ code: Int32) -> String {
        opus_strerror(code).map { String(cString: $0) } ?? "error \(code)"
    }
}
