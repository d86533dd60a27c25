public import AudioCore

/// Apple Lossless (`'alac'`), decoded in Swift from Apple's published ALAC specification.
///
/// Configured by the magic cookie's ``ALACSpecificConfig`` (bare, or in `'frma'`/`'alac'`
/// atoms). Without a cookie the stream description decides: the format flags
/// `kAppleLosslessFormatFlag_16BitSourceData` … `_32BitSourceData` (1…4) give the bit depth
/// (16 when the flags are 0), `framesPerPacket` the frame length (4096 when 0), and the Rice
/// parameters are Apple's defaults.
///
/// **Output.** Interleaved signed integer PCM, native (little) endian, at the stream's rate:
/// 16-bit sources as packed 16-bit samples; 20-, 24- and 32-bit sources as 32-bit samples,
/// left-justified (a 24-bit sample *s* is *s* · 2⁸), which is full scale for 32-bit PCM and
/// exactly what ffmpeg's ALAC decoder produces (`s16`, `s32`).
///
/// **Channel order.** A frame holds one element per channel group in ALAC's order —
/// 1: SCE (C); 2: CPE (L R); 3: SCE CPE (C, L R); 4: SCE CPE SCE (C, L R, Cs); 5: SCE CPE CPE
/// (C, L R, Ls Rs); 6: SCE CPE CPE SCE (C, L R, Ls Rs, LFE); 7: SCE CPE CPE SCE SCE (C, L R,
/// Ls Rs, Cs, LFE); 8: SCE CPE CPE CPE SCE (C, Lc Rc, L R, Ls Rs, LFE) — and, as Apple's
/// decoder does, the output keeps that order; ``outputChannelLayout`` names it with Apple's
/// layout tags (MPEG 3.0 B, 4.0 B, 5.0 D, 5.1 D, AAC 6.1, MPEG 7.1 B). ffmpeg reorders to its
/// own (WAVE) order instead.
///
/// Handled per frame: compressed elements (adaptive Rice residuals, the adaptive predictor of
/// any order 0…31, stereo un-mixing, low bytes stored uncompressed), escape (uncompressed)
/// elements, partial frames (the frame header's sample count), LFE elements as single
/// channels, DSE and FIL elements skipped, and the END tag. A packet that breaks any rule
/// (unknown elements, channel counts that disagree with the cookie, counts beyond the frame
/// length, reads past its end) appends silence for its frames — the container's `frames`, else
/// the frame length — and throws `badData`. All memory is allocated at creation, sized by the
/// validated cookie, and by the largest packet seen.
public final class ALACDecoder: AudioDecoder {
    /// Interleaved signed little-endian PCM: 16-bit for 16-bit sources, 32-bit left-justified
    /// for 20, 24 and 32.
    public let outputFormat: AudioStreamBasicDescription
    /// The config the decoder uses (from the cookie, or made from the stream description).
    public let config: ALACSpecificConfig
    /// The frame length: every packet but the last holds this many frames.
    public var maximumFramesPerPacket: Int { frameLength }

    /// ALAC's channel order as Apple's layout tags, for 3…8 channels; nil for mono and stereo
    /// (the container's layout applies).
    public var outputChannelLayout: AudioChannelLayout? {
        Self.channelLayoutTag(channels: channels).map { AudioChannelLayout(tag: $0) }
    }

    /// The layout tag of ALAC's channel order for `channels` (3…8), nil otherwise.
    public static func channelLayoutTag(channels: Int) -> AudioChannelLayoutTag? {
        switch channels {
        case 3: .mpeg_3_0_B
        case 4: .mpeg_4_0_B
        case 5: .mpeg_5_0_D
        case 6: .mpeg_5_1_D
        case 7: .aac_6_1
        case 8: .mpeg_7_1_B
        default: nil
        }
    }

    private let frameLength: Int
    private let channels: Int
    private let bitDepth: Int
    private let layout: PCMSampleLayout
    /// Work memory for one element (up to two channels), allocated once.
    private let residuals: UnsafeMutablePointer<Int32>
    private let samples: UnsafeMutablePointer<Int32>
    private let coefficients: UnsafeMutablePointer<Int32>
    /// The packet being decoded, followed by `ALACBitReader.padding` zero bytes.
    private var packetCopy: UnsafeMutableRawPointer
    private var packetCapacity: Int

    /// A decoder for `'alac'` input. `formatNotSupported` for other format IDs, an invalid or
    /// unsupported cookie (see ``ALACSpecificConfig/validate()``), or a stream description
    /// whose channel count disagrees with the cookie.
    public init(input: AudioStreamBasicDescription, magicCookie: [UInt8]?) throws(AudioCodecError) {
        guard input.formatID == .appleLossless else {
            throw AudioCodecError(.formatNotSupported, "\(input.formatID.messageName) is not Apple Lossless")
        }
        var config: ALACSpecificConfig
        if let magicCookie, !magicCookie.isEmpty {
            config = try ALACSpecificConfig(magicCookie: magicCookie)
            guard input.channelsPerFrame == 0 || input.channelsPerFrame == UInt32(config.numChannels) else {
                throw AudioCodecError(
                    .formatNotSupported, "the stream has \(input.channelsPerFrame) channels, its ALAC cookie \(config.numChannels)")
            }
        } else {
            let depth = input.formatFlags.isEmpty ? 16 : ALACSpecificConfig.bitDepth(formatFlags: input.formatFlags)
            guard let depth, input.channelsPerFrame <= 8 else {
                throw AudioCodecError(.formatNotSupported, "ALAC flags \(input.formatFlags.rawValue) with \(input.channelsPerFrame) channels")
            }
            config = ALACSpecificConfig(
                frameLength: input.framesPerPacket == 0 ? 4096 : input.framesPerPacket, bitDepth: depth,
                numChannels: UInt8(input.channelsPerFrame),
                sampleRate: input.sampleRate > 0 && input.sampleRate < 4e9 ? UInt32(input.sampleRate) : 0)
            try config.validate()
        }
        let rate = input.sampleRate > 0 ? input.sampleRate : Double(config.sampleRate)
        self.config = config
        frameLength = Int(config.frameLength)
        channels = Int(config.numChannels)
        bitDepth = Int(config.bitDepth)
        outputFormat = .linearPCM(sampleRate: rate, channels: UInt32(channels), bitsPerChannel: bitDepth == 16 ? 16 : 32)
        layout = try PCMSampleLayout(outputFormat)
        residuals = .allocate(capacity: 2 * frameLength)
        samples = .allocate(capacity: 2 * frameLength)
        coefficients = .allocate(capacity: 2 * 32)
        residuals.initialize(repeating: 0, count: 2 * frameLength)
        samples.initialize(repeating: 0, count: 2 * frameLength)
        coefficients.initialize(repeating: 0, count: 2 * 32)
        packetCapacity = 4096 + ALACBitReader.padding
        packetCopy = .allocate(byteCount: packetCapacity, alignment: 16)
    }

    deinit {
        residuals.deallocate()
        samples.deallocate()
        coefficients.deallocate()
        packetCopy.deallocate()
    }

    /// Decodes one packet (one ALAC frame) and appends its frames — the frame length, or the
    /// count a partial frame's header gives — to `buffer`. `frames` (the container's count) is
    /// used only for concealment. `formatNotSupported` when `buffer.format` is not
    /// ``outputFormat``; `invalidOutputSize` when the buffer has no room for
    /// ``maximumFramesPerPacket`` frames; `badData` after appending silence for a packet that
    /// cannot be decoded.
    @discardableResult
    public func decode(packet: UnsafeRawBufferPointer, frames: Int?, into buffer: PCMBuffer) throws(AudioCodecError) -> Int {
        try buffer.checkAppend(frameLength, as: outputFormat)
        guard let region = buffer.region(0).baseAddress else {
            throw AudioCodecError(.invalidOutputSize, "the buffer has no memory")
        }
        let concealment = min(max(frames ?? frameLength, 0), frameLength)
        guard let source = packet.baseAddress, packet.count > 0 else {
            buffer.appendSilence(frames: concealment, layout: layout)
            throw AudioCodecError(.badData, "an empty ALAC packet")
        }
        if packet.count + ALACBitReader.padding > packetCapacity {
            packetCopy.deallocate()
            packetCapacity = packet.count + ALACBitReader.padding
            packetCopy = .allocate(byteCount: packetCapacity, alignment: 16)
        }
        packetCopy.copyMemory(from: source, byteCount: packet.count)
        (packetCopy + packet.count).initializeMemory(as: UInt8.self, repeating: 0, count: ALACBitReader.padding)
        var reader = ALACBitReader(base: UnsafeRawPointer(packetCopy), byteCount: packet.count)
        switch decodeFrame(&reader, into: region + buffer.byteLength) {
        case .success(let count):
            buffer.frameLength += count
            return count
        case .failure(let error):
            buffer.appendSilence(frames: concealment, layout: layout)
            throw error
        }
    }

    /// Nothing to forget: ALAC packets are independent.
    public func reset() {}

    // MARK: - Frames and elements

    private enum Element: UInt32 {
        case sce = 0, cpe = 1, cce = 2, lfe = 3, dse = 4, pce = 5, fil = 6, end = 7
    }

    private func bad(_ reason: String) -> Result<Int, AudioCodecError> {
        .failure(AudioCodecError(.badData, "ALAC: " + reason))
    }

    /// Decodes the elements of one frame into `out` (interleaved output, `channels` wide);
    /// the frame count, or why the frame is bad.
    private func decodeFrame(_ reader: inout ALACBitReader, into out: UnsafeMutableRawPointer) -> Result<Int, AudioCodecError> {
        var channel = 0
        var frameSamples: Int?
        while channel < channels {
            guard reader.remaining >= 3 else { return bad("the packet ends after \(channel) of \(channels) channels") }
            let tag = Element(rawValue: reader.read(3))!
            switch tag {
            case .sce, .lfe, .cpe:
                let count = tag == .cpe ? 2 : 1
                guard channel + count <= channels else {
                    return bad("a frame with more than the cookie's \(channels) channels")
                }
                switch decodeElement(&reader, channelCount: count) {
                case .success(let n):
                    guard frameSamples == nil || frameSamples == n else { return bad("elements of one frame disagree on its length") }
                    frameSamples = n
                    write(count: n, channelCount: count, firstChannel: channel, to: out)
                case .failure(let error):
                    return .failure(error)
                }
                channel += count
            case .dse:
                _ = reader.read(4)  // element instance tag
                let aligned = reader.read(1) != 0
                var count = Int(reader.read(8))
                if count == 255 { count += Int(reader.read(8)) }
                if aligned { reader.alignToByte() }
                reader.skip(count * 8)
            case .fil:
                var count = Int(reader.read(4))
                if count == 15 { count += Int(reader.read(8)) - 1 }
                reader.skip(count * 8)
            case .end:
                return bad("the frame ends after \(channel) of \(channels) channels")
            case .cce, .pce:
                return bad("unsupported element \(tag)")
            }
            guard !reader.overrun else { return bad("an element runs past the end of the packet") }
        }
        return .success(frameSamples ?? 0)
    }

    /// Decodes one SCE/LFE (`channelCount` 1) or CPE (2) into `samples` (the second channel at
    /// `frameLength`); its sample count.
    private func decodeElement(_ reader: inout ALACBitReader, channelCount: Int) -> Result<Int, AudioCodecError> {
        _ = reader.read(4)  // element instance tag
        guard reader.read(12) == 0 else { return bad("non-zero reserved bits in an element header") }
        let header = reader.read(4)
        let partial = header & 8 != 0
        let bytesShifted = Int(header >> 1 & 3)
        let escape = header & 1 != 0
        guard bytesShifted != 3 else { return bad("3 uncompressed low bytes") }
        var count = frameLength
        if partial {
            let n = reader.read(32)
            guard n >= 1, n <= frameLength else { return bad("a partial frame of \(n) samples (frame length \(frameLength))") }
            count = Int(n)
        }
        guard !reader.overrun else { return bad("an element header runs past the end of the packet") }
        if escape {
            guard reader.remaining >= count * channelCount * bitDepth else { return bad("an escape frame longer than its packet") }
            let v = samples + frameLength
            if channelCount == 1 {
                for i in 0..<count { samples[i] = reader.readSigned(bitDepth) }
            } else {
                for i in 0..<count {
                    samples[i] = reader.readSigned(bitDepth)
                    v[i] = reader.readSigned(bitDepth)
                }
            }
            return .success(count)
        }
        let shiftBits = bytesShifted * 8
        let chanBits = bitDepth - shiftBits + channelCount - 1
        guard (1...32).contains(chanBits) else { return bad("\(chanBits)-bit channels") }
        let mixBits = Int(reader.read(8))
        let mixWeight = Int32(Int8(truncatingIfNeeded: reader.read(8)))
        var modes = (0, 0), shifts = (0, 0), factors = (UInt32(0), UInt32(0)), orders = (0, 0)
        for c in 0..<channelCount {
            let h1 = reader.read(8)
            let h2 = reader.read(8)
            let order = Int(h2 & 31)
            let coefs = coefficients + 32 * c
            for k in 0..<order { coefs[k] = Int32(Int16(truncatingIfNeeded: reader.read(16))) }
            if c == 0 {
                modes.0 = Int(h1 >> 4); shifts.0 = Int(h1 & 15); factors.0 = h2 >> 5; orders.0 = order
            } else {
                modes.1 = Int(h1 >> 4); shifts.1 = Int(h1 & 15); factors.1 = h2 >> 5; orders.1 = order
            }
        }
        // The low bytes come first, interleaved per sample; the Rice-coded residuals follow.
        let lowBytesStart = reader.position
        if shiftBits > 0 { reader.skip(shiftBits * channelCount * count) }
        guard !reader.overrun else { return bad("uncompressed low bytes run past the end of the packet") }
        let pb = UInt32(config.pb)
        for c in 0..<channelCount {
            let ok = ALACRice.decode(
                &reader, into: residuals + frameLength * c, count: count, mb: UInt32(config.mb),
                pb: (pb * (c == 0 ? factors.0 : factors.1)) / 4, kb: Int(config.kb), escapeBits: chanBits)
            guard ok else { return bad("Rice-coded residuals do not fit the frame or the packet") }
        }
        for c in 0..<channelCount {
            let input = residuals + frameLength * c
            let output = samples + frameLength * c
            let coefs = coefficients + 32 * c
            let (mode, shift, order) = c == 0 ? (modes.0, shifts.0, orders.0) : (modes.1, shifts.1, orders.1)
            if mode != 0 {
                // Any other mode runs a first-order pass before the filter, as Apple's decoder does.
                ALACPredictor.run(input, input, count: count, coefs: coefs, order: 31, chanBits: chanBits, shift: 0)
            }
            ALACPredictor.run(input, output, count: count, coefs: coefs, order: order, chanBits: chanBits, shift: shift)
        }
        if channelCount == 2 {
            ALACPredictor.unmix(samples, samples + frameLength, count: count, bits: mixBits, weight: mixWeight)
        }
        if shiftBits > 0 {
            var low = reader
            low.position = lowBytesStart
            let v = samples + frameLength
            let shift = Int32(shiftBits)
            for i in 0..<count {
                samples[i] = samples[i] &<< shift | Int32(bitPattern: low.read(shiftBits))
                if channelCount == 2 { v[i] = v[i] &<< shift | Int32(bitPattern: low.read(shiftBits)) }
            }
        }
        return .success(count)
    }

    /// Writes `count` samples of the element's channels to the interleaved output.
    private func write(count: Int, channelCount: Int, firstChannel: Int, to out: UnsafeMutableRawPointer) {
        let stride = channels
        for c in 0..<channelCount {
            let source = samples + frameLength * c
            if bitDepth == 16 {
                var o = out.assumingMemoryBound(to: Int16.self) + firstChannel + c
                for i in 0..<count {
                    o.pointee = Int16(truncatingIfNeeded: source[i])
                    o += stride
                }
            } else {
                let shift = Int32(32 - bitDepth)
                var o = out.assumingMemoryBound(to: Int32.self) + firstChannel + c
                for i in 0..<count {
                    o.pointee = source[i] &<< shift
                    o += stride
                }
            }
        }
    }
}
