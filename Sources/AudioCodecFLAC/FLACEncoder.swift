public import AudioCore
public import AudioCodecs

/// FLAC (`'flac'`) through libFLAC's stream encoder: lossless, one packet per FLAC frame.
///
/// The output is what Apple's FLAC encoder describes: 4096 frames per packet of varying size
/// (`bytesPerPacket` 0), the source's bit depth in the format flags as Apple Lossless has them
/// (1: 16-bit, 2: 20-bit, 3: 24-bit, 4: 32-bit source). Other depths libFLAC 1.4 writes (4 to
/// 32 bits) are named by `bitsPerChannel` with no flags; a description that sets neither is
/// 16-bit. 1–8 channels at whole rates from 1 to 655350 Hz. Each packet is a complete FLAC frame
/// (header, subframes and CRC), the last one shorter: as Apple's encoder reports it, the frames
/// missing from the last packet's 4096 are the stream's remainder
/// (`AudioEncodeResult.paddingFrames`); there is no priming.
///
/// The input is interleaved linear PCM at the output's rate and channel count: native-endian
/// Float32 (the input every encoder takes, rounded to the bit depth: exact for sources of up to
/// 24 bits) or signed integers of the output's bit depth in words of 1 to 4 bytes (packed, or
/// aligned high or low in their words), which are encoded as they are.
///
/// The magic cookie is Apple's: the ISO BMFF `dfLa` box (its header, version, flags, and the
/// STREAMINFO block; `FLACStreamInfo.magicCookie`), what CAF's `kuki` holds and whose
/// body MPEG-4's sample entry holds. Until the stream ends its frame sizes, sample count and MD5 are 0; after
/// ``finish(into:packetDescriptions:)`` it is libFLAC's final STREAMINFO (so a writer sets the
/// cookie again at close), until the next stream has input.
///
/// libFLAC holds up to one block of input back (it encodes a block once the next sample has
/// arrived): ``hasDelay`` is true and ``finish(into:packetDescriptions:)`` writes the rest.
/// The compression level (0–8, libFLAC's `-0`…`-8`) is 5 unless ``setQuality(_:)`` sets it.
public final class FLACEncoder: AudioEncoder {
    /// The input format the encoder was made with.
    public let inputFormat: AudioStreamBasicDescription
    /// `'flac'`: 4096 frames per variable-size packet, the bit depth in the flags.
    public let outputFormat: AudioStreamBasicDescription
    /// 4096, or the `framesPerPacket` the output description asked for (16–65535).
    public let framesPerPacket: Int
    /// The largest frame FLAC can write for a block: every channel verbatim, with one more bit
    /// per sample for a side channel, and the frame's header and CRC.
    public let maximumPacketSize: Int
    /// True: libFLAC holds input back until the next block starts.
    public var hasDelay: Bool { true }
    /// libFLAC's compression level, 0–8.
    public private(set) var compressionLevel = 5

    /// The bit depth of the samples encoded.
    public let bitDepth: Int
    private let channels: Int
    private let sampleRate: Int
    private let reader: FLACSampleReader
    /// Interleaved samples handed to libFLAC, one block at a time.
    private let scratch: UnsafeMutablePointer<Int32>
    /// The stream being written; nil before its first input.
    private var stream: FLACEncoderStream?
    /// Frames given to the stream, and frames libFLAC has written as packets.
    private var inputFrames = 0
    private var encodedFrames = 0
    /// True once the stream has been told to end and has packets left to hand out.
    private var flushing = false
    /// The STREAMINFO of the stream that ended last.
    private var finished: FLACStreamInfo?

    /// An encoder to `'flac'` `output` from `input`. `formatNotSupported` (`'fmt?'`) for another
    /// format ID, a bit depth outside 4–32, 0 or more than 8 channels, a rate that is not a
    /// whole number from 1 to 655350 Hz, packets that are not 16–65535 frames of varying size,
    /// or an input that is neither Float32 nor signed integers of the depth (see the type).
    public init(input: AudioStreamBasicDescription, output: AudioStreamBasicDescription) throws(AudioCodecError) {
        guard output.formatID == .flac else {
            throw AudioCodecError(.formatNotSupported, "\(output.formatID.messageName) is not FLAC")
        }
        let depth = FLACDataFormat.bitDepth(of: output) ?? (output.formatFlags.rawValue == 0 ? 16 : 0)
        guard (4...32).contains(depth), output.bitsPerChannel == 0 || output.formatFlags.rawValue == 0
            || FLACDataFormat.formatFlag(bitDepth: depth) == output.formatFlags.rawValue else {
            throw AudioCodecError(.formatNotSupported, "FLAC of \(output.bitsPerChannel)-bit samples, flags \(output.formatFlags.rawValue) (4–32 bits are encoded)")
        }
        let channels = Int(output.channelsPerFrame)
        guard (1...8).contains(channels) else {
            throw AudioCodecError(.formatNotSupported, "FLAC with \(channels) channels (1–8 are encoded)")
        }
        guard output.sampleRate.isFinite, output.sampleRate >= 1, output.sampleRate <= 655_350,
              output.sampleRate == output.sampleRate.rounded() else {
            throw AudioCodecError(.formatNotSupported, "FLAC at \(output.sampleRate) Hz (whole rates of 1–655350 Hz are encoded)")
        }
        let block = output.framesPerPacket == 0 ? FLACDataFormat.framesPerPacket : Int(output.framesPerPacket)
        guard (16...65535).contains(block), output.bytesPerPacket == 0, output.bytesPerFrame == 0 else {
            throw AudioCodecError(.formatNotSupported, "FLAC packets are 16–65535 frames of varying size; got \(output)")
        }
        reader = try FLACSampleReader(input: input, output: output, bitDepth: depth)
        inputFormat = input
        bitDepth = depth
        self.channels = channels
        sampleRate = Int(output.sampleRate)
        framesPerPacket = block
        outputFormat = FLACDataFormat.description(
            sampleRate: output.sampleRate, channels: output.channelsPerFrame, bitDepth: depth, framesPerPacket: block)
        maximumPacketSize = 18 + channels * (5 + (block * (depth + 1) + 7) / 8)
        scratch = .allocate(capacity: block * channels)
    }

    deinit { scratch.deallocate() }

    /// The `dfLa` box with the STREAMINFO: the final one after a stream ended, else one with
    /// the stream's shape and no sizes, count or MD5 yet.
    public var magicCookie: [UInt8]? {
        if inputFrames == 0, let finished { return finished.magicCookie }
        return FLACStreamInfo(
            minimumBlockSize: framesPerPacket, maximumBlockSize: framesPerPacket, sampleRate: sampleRate, channels: channels,
            bitsPerSample: bitDepth
        ).magicCookie
    }

    /// Sets the compression level from Apple's codec quality (`kAudioConverterCodecQuality`,
    /// 0–127). Apple does not document its FLAC encoder's levels; the five named qualities map
    /// to libFLAC levels so that the converter's default, High, is libFLAC's default: Min (0) → 0,
    /// Low (0x20) → 2, Medium (0x40) → 4, High (0x60) → 5, Max (0x7F) → 8, and values between
    /// them in proportion. `operationNotSupported` once the stream has had input.
    public func setQuality(_ quality: Int) throws(AudioCodecError) {
        guard inputFrames == 0, !flushing else {
            throw AudioCodecError(.operationNotSupported, "the compression level is set before the first frame of a stream")
        }
        compressionLevel = Self.level(forQuality: quality)
    }

    /// The libFLAC level for an Apple codec quality (see ``setQuality(_:)``).
    public static func level(forQuality quality: Int) -> Int {
        let q = Double(min(max(quality, 0), 0x7F))
        let anchors: [(Double, Double)] = [(0, 0), (0x20, 2), (0x40, 4), (0x60, 5), (0x7F, 8)]
        for i in 1..<anchors.count where q <= anchors[i].0 {
            let (q0, l0) = anchors[i - 1], (q1, l1) = anchors[i]
            return Int((l0 + (q - q0) * (l1 - l0) / (q1 - q0)).rounded())
        }
        return 8
    }

    /// The bytes `frameCount` frames of input hold.
    private func inputBytes(_ frameCount: Int) -> Int? {
        let (n, o) = frameCount.multipliedReportingOverflow(by: reader.bytesPerFrame)
        return o ? nil : n
    }

    /// Encodes `frameCount` frames and writes the packets libFLAC completes (it keeps up to a
    /// block back), each with a description. `paddingFrames` is 0.
    ///
    /// Errors, with nothing written and no state changed: `invalidInputSize`, `invalidOutputSize`
    /// (room for ``outputByteCount(forFrames:)`` is needed), `requiresPacketDescriptions` when
    /// `packetDescriptions` has fewer places than the packets the call completes,
    /// `operationNotSupported` while ``finish(into:packetDescriptions:)`` has packets to write.
    public func encode(
        _ input: UnsafeRawBufferPointer, frameCount: Int, into output: UnsafeMutableRawBufferPointer,
        packetDescriptions: UnsafeMutableBufferPointer<AudioStreamPacketDescription>?
    ) throws(AudioCodecError) -> AudioEncodeResult {
        guard frameCount >= 0, let needed = inputBytes(frameCount), needed <= input.count else {
            throw AudioCodecError(.invalidInputSize, "\(input.count) bytes do not hold \(frameCount) frames of \(inputFormat)")
        }
        guard let room = outputByteCount(forFrames: frameCount), room <= output.count else {
            throw AudioCodecError(.invalidOutputSize, "\(frameCount) frames need up to \(outputByteCount(forFrames: frameCount) ?? -1) bytes; the output has \(output.count)")
        }
        guard !flushing else {
            throw AudioCodecError(.operationNotSupported, "the stream is ending: call finish until it writes no packet")
        }
        // libFLAC encodes a block once the sample after it has arrived.
        let held = inputFrames - encodedFrames
        let total = held + frameCount
        let packets = total > framesPerPacket ? (total - 1) / framesPerPacket : 0
        guard packets <= (packetDescriptions?.count ?? 0) else {
            throw AudioCodecError(
                .requiresPacketDescriptions, "\(frameCount) frames complete \(packets) packets; \(packetDescriptions?.count ?? 0) descriptions given")
        }
        guard frameCount > 0, let source = input.baseAddress else { return AudioEncodeResult(packetCount: 0, byteCount: 0) }
        if stream == nil {
            stream = try FLACEncoderStream(
                channels: channels, bitsPerSample: bitDepth, sampleRate: sampleRate, blockSize: framesPerPacket, level: compressionLevel)
            finished = nil
        }
        guard let stream else { return AudioEncodeResult(packetCount: 0, byteCount: 0) }
        var done = 0
        while done < frameCount {
            let n = min(framesPerPacket, frameCount - done)
            reader.read(source + done * reader.bytesPerFrame, frames: n, into: scratch)
            try stream.process(scratch, frameCount: n)
            done += n
        }
        inputFrames += frameCount
        let written = try take(from: stream, into: output, packetDescriptions, limit: .max)
        return AudioEncodeResult(packetCount: written.packets, byteCount: written.bytes)
    }

    /// Ends the stream: libFLAC writes its last, shorter frame and the final STREAMINFO (the
    /// new ``magicCookie``); writes as many of the packets left as fit in `output` and
    /// `packetDescriptions`. The call that writes the last packet reports the frames that
    /// packet lacks of ``framesPerPacket`` in `paddingFrames` and starts a new stream. A stream
    /// that has had no input writes nothing.
    public func finish(
        into output: UnsafeMutableRawBufferPointer, packetDescriptions: UnsafeMutableBufferPointer<AudioStreamPacketDescription>?
    ) throws(AudioCodecError) -> AudioEncodeResult {
        guard let stream, inputFrames > 0 else { return AudioEncodeResult(packetCount: 0, byteCount: 0) }
        if !flushing {
            try stream.finish()
            flushing = true
        }
        let written = try take(from: stream, into: output, packetDescriptions, limit: output.count)
        guard stream.available == 0 else { return AudioEncodeResult(packetCount: written.packets, byteCount: written.bytes) }
        let padding = (framesPerPacket - inputFrames % framesPerPacket) % framesPerPacket
        let info = stream.streamInfo
        reset()
        finished = info
        return AudioEncodeResult(packetCount: written.packets, byteCount: written.bytes, paddingFrames: padding)
    }

    /// Copies the stream's packets into `output` with their descriptions, as many as fit.
    private func take(
        from stream: FLACEncoderStream, into output: UnsafeMutableRawBufferPointer,
        _ descriptions: UnsafeMutableBufferPointer<AudioStreamPacketDescription>?, limit: Int
    ) throws(AudioCodecError) -> (packets: Int, bytes: Int) {
        var packets = 0, bytes = 0
        while stream.available > 0 {
            let (packet, frames) = stream.next
            guard packet.count <= maximumPacketSize else {
                throw AudioCodecError(.unspecified, "libFLAC wrote a frame of \(packet.count) bytes (at most \(maximumPacketSize) were expected)")
            }
            guard let descriptions, packets < descriptions.count, packet.count <= output.count - bytes, let base = output.baseAddress else {
                if limit == .max {
                    throw AudioCodecError(.invalidOutputSize, "a FLAC frame of \(packet.count) bytes does not fit")
                }
                break
            }
            packet.withUnsafeBytes { if let from = $0.baseAddress { (base + bytes).copyMemory(from: from, byteCount: $0.count) } }
            descriptions[packets] = AudioStreamPacketDescription(
                startOffset: Int64(bytes), variableFramesInPacket: 0, dataByteSize: UInt32(packet.count))
            packets += 1
            bytes += packet.count
            encodedFrames += frames
            stream.takeNext()
        }
        return (packets, bytes)
    }

    /// Starts a new stream: what libFLAC held is dropped. The STREAMINFO of a stream that
    /// ended stays the cookie (a queue resets its converter after the last packet, before the
    /// recorder reads the cookie); one dropped unfinished leaves the stream's first cookie.
    public func reset() {
        if stream != nil { finished = nil }
        stream = nil
        inputFrames = 0
        encodedFrames = 0
        flushing = false
    }
}

extension FLACEncoder {
    /// Registers this encoder for FLAC (`'flac'`).
    public static func register() {
        AudioEncoders.register(FLACEncoder.self, for: [.flac])
    }
}
