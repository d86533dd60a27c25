public import AudioCore
public import AudioCodecs
import CAVCodec

/// MPEG-4 AAC Low Complexity (`'aac '`) from Float32, through libavcodec's native `aac` encoder.
///
/// Packets are raw AAC access units (no ADTS headers) of 1024 frames each, of varying size
/// (`bytesPerPacket` 0, so every packet gets a packet description), at most 768 bytes per channel
/// (6144 bits, the standard's limit). The stream carries 1–8 channels at one of the AAC sampling
/// rates, 8000–96000 Hz. Channels come in the order of a WAVE file's (L R C LFE Ls Rs, …: the
/// MPEG order of libavcodec's default layout for the count, 3.0 for three channels), which
/// libavcodec reorders into AAC's own.
///
/// As Apple's encoder does, the stream starts with 2112 frames of priming (``primingFrames``):
/// libavcodec's own delay (1024 frames, its `initial_padding`) after 1088 frames of silence the
/// encoder feeds in first, so the first input frame decodes at frame 2112. ``encode(_:frameCount:into:packetDescriptions:)``
/// writes the packets libavcodec has ready (one per 1024 frames once the first is in), keeping
/// a partial packet's frames for the next call; ``finish(into:packetDescriptions:)`` completes
/// the last packet with silence and drains the encoder. A stream of N input frames is
/// `ceil((2112 + N) / 1024)` packets, the last `packets × 1024 − 2112 − N` frames of them
/// silence (the packet table's remainder), as Apple writes.
///
/// The magic cookie is what Apple's encoder returns and writes to a CAF `kuki` chunk: an MPEG-4
/// ES_Descriptor holding the AudioSpecificConfig (``AACEncoderCookie``).
///
/// Samples are clamped to [-1, 1] and NaN is taken as 0 before libavcodec sees them (it refuses
/// a frame holding NaN or infinity). Errors from libavcodec itself are `unspecified` (`'what'`).
/// The first encoder lowers libavutil's log level from its default (info) to errors, so that
/// libavcodec does not print its statistics to standard error; a level the program set is kept.
/// libavcodec is loaded when the first encoder is made, not when the program starts; an
/// encoder cannot be made (`unspecified`) when it cannot be loaded.
public final class AACEncoder: AudioEncoder {
    /// Interleaved native-endian Float32 at the output's rate and channel count.
    public let inputFormat: AudioStreamBasicDescription
    /// `'aac '`: 1024 frames per packet; bytes per packet, bytes per frame and bits per channel 0.
    public let outputFormat: AudioStreamBasicDescription
    /// 1024 frames per packet.
    public var framesPerPacket: Int { Self.frameLength }
    /// 768 bytes (6144 bits) per channel.
    public var maximumPacketSize: Int { 768 * channels }
    /// 2112 frames, as Apple's AAC encoder.
    public var primingFrames: Int { Self.priming }
    /// Packets trail their input: see ``finish(into:packetDescriptions:)``.
    public var hasDelay: Bool { true }
    /// The bit rate the encoder aims at (see ``AACEncoderBitRates``).
    public private(set) var bitRate: Int
    /// The rates ``setBitRate(_:)`` takes for this rate and channel count, each as a range of
    /// one value.
    public var applicableBitRates: [ClosedRange<Int>] { bitRates.values.map { $0...$0 } }
    /// An ES_Descriptor holding the stream's AudioSpecificConfig and bit rate.
    public var magicCookie: [UInt8]? {
        AACEncoderCookie.esDescriptor(
            audioSpecificConfig: audioSpecificConfig, bufferSize: maximumPacketSize, bitRate: bitRate)
    }
    /// The AudioSpecificConfig of the stream (AAC LC, the sampling frequency index and the
    /// channel configuration; a program config element for seven channels).
    public private(set) var audioSpecificConfig: [UInt8] = []

    /// libavutil's log level lowered to errors, once, unless the program set its own.
    private static let quietLog: Void = cavcodec_quiet_default_log()

    static let frameLength = 1024
    static let priming = 2112
    /// What libavcodec's encoder delays its output by (its `initial_padding`).
    static let libraryDelay = 1024

    let channels: Int
    let sampleRate: Int
    let bitRates: AACEncoderBitRates
    private var context: UnsafeMutablePointer<AVCodecContext>?
    private var frame: UnsafeMutablePointer<AVFrame>?
    private let packet: UnsafeMutablePointer<AVPacket>
    /// True when `packet` holds a packet received but not yet written (during finish).
    private var held = false
    /// Frames in `frame` not yet sent.
    private var pending = 0
    /// Frames sent to libavcodec since the stream started, priming silence included.
    private var framesSent = 0
    /// Input frames taken since the stream started.
    private var inputFrames = 0
    /// Packets written since the stream started.
    private var packetsWritten = 0
    /// True once finish has sent the last frame and the end of the stream.
    private var flushing = false

    /// An encoder to `'aac '` `output`; `formatNotSupported` for other format IDs, format flags
    /// other than 0 or `kMPEG4Object_AAC_LC`, 0 or more than 8 channels, fields that disagree with
    /// 1024 frames per variable-size packet (0 is filled in), or an input that is not Float32 at
    /// the output's rate and channel count; `outputSampleRateOutOfRange` for a rate that is not
    /// an AAC sampling frequency from 8000 to 96000 Hz.
    public init(input: AudioStreamBasicDescription, output: AudioStreamBasicDescription) throws(AudioCodecError) {
        guard output.formatID == .mpeg4AAC else {
            throw AudioCodecError(.formatNotSupported, "'\(output.formatID)' is not AAC")
        }
        guard output.formatFlags.rawValue == 0 || output.formatFlags.rawValue == MPEG4ObjectID.aacLC.rawValue else {
            throw AudioCodecError(.formatNotSupported, "AAC format flags \(output.formatFlags.rawValue): only AAC LC (2) is encoded")
        }
        let channels = Int(output.channelsPerFrame)
        guard (1...8).contains(channels) else {
            throw AudioCodecError(.formatNotSupported, "AAC with \(channels) channels (1–8 are encoded)")
        }
        guard output.bytesPerPacket == 0, [0, UInt32(Self.frameLength)].contains(output.framesPerPacket),
              output.bytesPerFrame == 0, output.bitsPerChannel == 0 else {
            throw AudioCodecError(.formatNotSupported, "AAC packets are 1024 frames of varying size; got \(output)")
        }
        guard let rate = Int(exactly: output.sampleRate), AACEncoderBitRates.sampleRates.contains(rate) else {
            throw AudioCodecError(.outputSampleRateOutOfRange, "AAC at \(output.sampleRate) Hz (8000–96000 Hz AAC rates are encoded)")
        }
        _ = try input.checkEncoderInput(for: output)
        inputFormat = input
        outputFormat = AudioStreamBasicDescription(
            sampleRate: output.sampleRate, formatID: .mpeg4AAC, formatFlags: output.formatFlags, bytesPerPacket: 0,
            framesPerPacket: UInt32(Self.frameLength), bytesPerFrame: 0, channelsPerFrame: output.channelsPerFrame, bitsPerChannel: 0)
        self.channels = channels
        sampleRate = rate
        bitRates = AACEncoderBitRates(sampleRate: rate, channels: channels)
        bitRate = bitRates.defaultRate
        guard cavcodec_load() != 0 else {
            throw AudioCodecError(.unspecified, "libavcodec could not be loaded: \(String(cString: cavcodec_load_error()))")
        }
        guard let packet = cavcodec_packet_alloc() else {
            throw AudioCodecError(.unspecified, "libavcodec could not allocate a packet")
        }
        self.packet = packet
        try open()
    }

    deinit {
        close()
        var packet: UnsafeMutablePointer<AVPacket>? = self.packet
        cavcodec_packet_free(&packet)
    }

    /// Encodes `frameCount` frames: writes the packets that become complete (a packet's frames
    /// that are not all here yet wait for the next call, or for ``finish(into:packetDescriptions:)``),
    /// with a description for each. `AudioEncodeResult/paddingFrames` is 0.
    ///
    /// Errors, with nothing written and no state changed: `invalidInputSize`, `invalidOutputSize`
    /// (the output must hold ``outputByteCount(forFrames:)``: a packet of ``maximumPacketSize``
    /// per 1024 frames, rounded up), `requiresPacketDescriptions` when `packetDescriptions` has
    /// fewer places than the packets the call completes, `operationNotSupported` while
    /// ``finish(into:packetDescriptions:)`` has packets left to write.
    public func encode(
        _ input: UnsafeRawBufferPointer, frameCount: Int, into output: UnsafeMutableRawBufferPointer,
        packetDescriptions: UnsafeMutableBufferPointer<AudioStreamPacketDescription>?
    ) throws(AudioCodecError) -> AudioEncodeResult {
        _ = try checkEncodeSizes(input, frameCount: frameCount, output: output)
        guard !flushing else {
            throw AudioCodecError(.operationNotSupported, "the stream is ending: call finish until it writes no packet")
        }
        let packets = (pending + frameCount) / Self.frameLength
        guard packets <= (packetDescriptions?.count ?? 0) else {
            throw AudioCodecError(
                .requiresPacketDescriptions, "\(frameCount) frames complete \(packets) packets; \(packetDescriptions?.count ?? 0) descriptions given")
        }
        guard frameCount > 0, let source = input.baseAddress else { return AudioEncodeResult(packetCount: 0, byteCount: 0) }
        var written = Written()
        var taken = 0
        while taken < frameCount {
            let n = min(Self.frameLength - pending, frameCount - taken)
            try store(source + taken * 4 * channels, frames: n)
            taken += n
            inputFrames += n
            if pending == Self.frameLength {
                try send()
                try drain(into: output, packetDescriptions, &written)
            }
        }
        return AudioEncodeResult(packetCount: written.packets, byteCount: written.bytes)
    }

    /// Ends the stream: completes the last packet with silence, drains libavcodec, and writes
    /// as many of the packets left as fit in `output` and `packetDescriptions` (a packet that
    /// does not fit waits for the next call). The call that writes the stream's last packet
    /// reports the remainder in `AudioEncodeResult/paddingFrames` and starts a new stream;
    /// a stream that has had no input writes nothing.
    public func finish(
        into output: UnsafeMutableRawBufferPointer, packetDescriptions: UnsafeMutableBufferPointer<AudioStreamPacketDescription>?
    ) throws(AudioCodecError) -> AudioEncodeResult {
        guard flushing || inputFrames > 0 else { return AudioEncodeResult(packetCount: 0, byteCount: 0) }
        guard let context else { throw AudioCodecError(.unspecified, "the libavcodec encoder could not be reopened") }
        if !flushing {
            if pending > 0 {
                try zeroPending()
                try send()
            }
            guard cavcodec_send_frame(context, nil) >= 0 else {
                throw AudioCodecError(.unspecified, "libavcodec refused the end of the stream")
            }
            flushing = true
        }
        var written = Written()
        var ended = false
        while true {
            if !held {
                let status = cavcodec_receive_packet(context, packet)
                if status == cavcodec_error_eof() {
                    ended = true
                    break
                }
                guard status >= 0 else { throw AudioCodecError(.unspecified, "libavcodec failed to encode (\(status))") }
                held = true
            }
            guard try put(into: output, packetDescriptions, &written) else { break }
        }
        var padding = 0
        if ended {
            padding = max(0, packetsWritten * Self.frameLength - Self.priming - inputFrames)
            reset()
        }
        return AudioEncodeResult(packetCount: written.packets, byteCount: written.bytes, paddingFrames: padding)
    }

    /// Sets the bit rate, taken as the nearest of ``applicableBitRates``; libavcodec is opened
    /// again with it. `operationNotSupported` once the stream has had input (set it before the
    /// first frame, or after ``reset()``).
    public func setBitRate(_ bitRate: Int) throws(AudioCodecError) {
        guard inputFrames == 0, !flushing else {
            throw AudioCodecError(.operationNotSupported, "the bit rate is set before the first frame of a stream")
        }
        self.bitRate = bitRates.nearest(to: bitRate)
        close()
        try open()
    }

    /// Starts a new stream: what was held back is dropped, and the next packet is a new stream's
    /// first, with its priming.
    public func reset() {
        close()
        // The same parameters opened before; should libavcodec fail now, encode and finish say so.
        try? open()
    }

    /// Opens libavcodec with the current rate, channels and bit rate, and feeds it the priming
    /// silence that comes before libavcodec's own delay.
    private func open() throws(AudioCodecError) {
        Self.quietLog
        guard let context = cavcodec_open_aac(Int32(sampleRate), Int32(channels), Int64(bitRate)) else {
            throw AudioCodecError(.unspecified, "libavcodec's AAC encoder did not open for \(channels) channels at \(sampleRate) Hz")
        }
        self.context = context
        guard let frame = cavcodec_frame(context) else {
            throw AudioCodecError(.unspecified, "libavcodec could not allocate a frame")
        }
        self.frame = frame
        audioSpecificConfig = Self.trimmedConfig(context.pointee.extradata, Int(context.pointee.extradata_size))
        pending = 0
        framesSent = 0
        inputFrames = 0
        packetsWritten = 0
        held = false
        flushing = false
        // 1088 frames of silence: one whole frame now (libavcodec's first gives no packet), the
        // rest waiting in the frame for the input after it.
        try zeroPending()
        pending = Self.frameLength
        try send()
        var none = Written()
        try drain(into: UnsafeMutableRawBufferPointer(start: nil, count: 0), nil, &none)
        try zeroPending()
        pending = Self.priming - Self.libraryDelay - Self.frameLength
    }

    private func close() {
        cavcodec_frame_free(&frame)
        cavcodec_free_context(&context)
        cavcodec_packet_unref(packet)
        held = false
    }

    /// libavcodec's AudioSpecificConfig without the SBR sync extension (`0x2B7`, SBR absent) it
    /// appends, which Apple's config does not carry.
    static func trimmedConfig(_ data: UnsafeMutablePointer<UInt8>?, _ count: Int) -> [UInt8] {
        guard let data, count > 0 else { return [] }
        let bytes = Array(UnsafeBufferPointer(start: data, count: count))
        if bytes.count > 3, bytes.suffix(3) == [0x56, 0xE5, 0x00] { return Array(bytes.dropLast(3)) }
        return bytes
    }

    /// Makes the frame's buffer writable (libavcodec may still hold the last one sent) and
    /// silences its samples from `pending` on.
    private func zeroPending() throws(AudioCodecError) {
        guard let frame, cavcodec_frame_make_writable(frame) >= 0, let planes = frame.pointee.extended_data else {
            throw AudioCodecError(.unspecified, "libavcodec could not provide a frame buffer")
        }
        for c in 0..<channels {
            guard let plane = planes[c] else { continue }
            let samples = UnsafeMutableRawPointer(plane).assumingMemoryBound(to: Float.self)
            (samples + pending).update(repeating: 0, count: Self.frameLength - pending)
        }
    }

    /// Copies `frames` interleaved frames from `source` into the frame's planes after `pending`.
    private func store(_ source: UnsafeRawPointer, frames: Int) throws(AudioCodecError) {
        guard let frame else { throw AudioCodecError(.unspecified, "the libavcodec encoder could not be reopened") }
        if pending == 0, cavcodec_frame_make_writable(frame) < 0 {
            throw AudioCodecError(.unspecified, "libavcodec could not provide a frame buffer")
        }
        guard let planes = frame.pointee.extended_data else { throw AudioCodecError(.unspecified, "frame without planes") }
        let stride = 4 * channels
        for c in 0..<channels {
            guard let plane = planes[c] else { continue }
            let samples = UnsafeMutableRawPointer(plane).assumingMemoryBound(to: Float.self) + pending
            let from = source + 4 * c
            for i in 0..<frames {
                let x = from.loadUnaligned(fromByteOffset: i * stride, as: Float.self)
                samples[i] = x.isNaN ? 0 : Swift.min(Swift.max(x, -1), 1)
            }
        }
        pending += frames
    }

    /// Sends the full frame to libavcodec.
    private func send() throws(AudioCodecError) {
        guard let context, let frame else { throw AudioCodecError(.unspecified, "the libavcodec encoder could not be reopened") }
        frame.pointee.pts = Int64(framesSent)
        let status = cavcodec_send_frame(context, frame)
        guard status >= 0 else { throw AudioCodecError(.unspecified, "libavcodec refused a frame (\(status))") }
        framesSent += Self.frameLength
        pending = 0
    }

    /// What a call has written so far.
    private struct Written {
        var packets = 0
        var bytes = 0
    }

    /// Writes every packet libavcodec has ready (during encode, the caller's sizes are checked
    /// to hold them all).
    private func drain(
        into output: UnsafeMutableRawBufferPointer, _ descriptions: UnsafeMutableBufferPointer<AudioStreamPacketDescription>?,
        _ written: inout Written
    ) throws(AudioCodecError) {
        guard let context else { return }
        while true {
            let status = cavcodec_receive_packet(context, packet)
            if status == cavcodec_error_again() { return }
            guard status >= 0 else { throw AudioCodecError(.unspecified, "libavcodec failed to encode (\(status))") }
            held = true
            guard try put(into: output, descriptions, &written) else {
                throw AudioCodecError(.unspecified, "libavcodec wrote a packet larger than \(maximumPacketSize) bytes")
            }
        }
    }

    /// Writes the held packet and its description after what the call has written; false when
    /// it does not fit (it stays held). A packet larger than ``maximumPacketSize`` is an error.
    private func put(
        into output: UnsafeMutableRawBufferPointer, _ descriptions: UnsafeMutableBufferPointer<AudioStreamPacketDescription>?,
        _ written: inout Written
    ) throws(AudioCodecError) -> Bool {
        let size = Int(packet.pointee.size)
        guard size <= maximumPacketSize else {
            cavcodec_packet_unref(packet)
            held = false
            throw AudioCodecError(.unspecified, "libavcodec wrote a packet of \(size) bytes (at most \(maximumPacketSize) are allowed)")
        }
        guard let descriptions, written.packets < descriptions.count, size <= output.count - written.bytes,
              let base = output.baseAddress else { return false }
        if size > 0, let data = packet.pointee.data {
            (base + written.bytes).copyMemory(from: data, byteCount: size)
        }
        descriptions[written.packets] = AudioStreamPacketDescription(
            startOffset: Int64(written.bytes), variableFramesInPacket: 0, dataByteSize: UInt32(size))
        written.packets += 1
        written.bytes += size
        packetsWritten += 1
        cavcodec_packet_unref(packet)
        held = false
        return true
    }
}

extension AACEncoder {
    /// Registers this encoder for AAC-LC (`'aac '`).
    public static func register() {
        AudioEncoders.register(AACEncoder.self, for: [.mpeg4AAC])
    }
}
