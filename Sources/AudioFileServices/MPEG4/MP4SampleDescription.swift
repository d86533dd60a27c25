import AudioCore

/// The first entry of a track's `stsd`: the audio sample entry (ISO/IEC 14496-12, 12.2.3, with
/// QuickTime's version 1 and 2 extensions) and its codec box, turned into the stream description
/// and magic cookie ``AudioFile`` reports.
struct MP4SampleDescription {
    let format: AudioStreamBasicDescription
    let cookie: [UInt8]?
    /// The MPEG-4 channel configuration (AAC), for the channel layout.
    let channelConfiguration: Int?
    /// The channel layout the codec's configuration gives (AC-3 and E-AC-3).
    private(set) var channelLayout: AudioChannelLayout?
    /// Output frames per core frame: 2 for HE-AAC whose SBR doubles the core rate, else 1.
    /// iTunSMPB counts core frames (Apple writes HE-AAC's that way, and ffmpeg reads it so).
    private(set) var framesPerCoreFrame: Int64 = 1

    init(tree: MP4BoxTree, stsd: Int, mediaTimescale: UInt32) throws(AudioFileError) {
        let stsdBox = tree.box(stsd)
        guard stsdBox.bodySize <= 1 << 20 else {
            throw AudioFileError(.invalidChunk, "stsd of \(stsdBox.bodySize) bytes", chunk: "stsd", offset: stsdBox.offset)
        }
        let stsdBytes = try tree.body(stsd)
        var r = ByteReader(stsdBytes, fileOffset: stsdBox.offset, chunk: "stsd")
        _ = try r.u32be()  // version and flags
        let entries = try r.u32be()
        guard entries >= 1 else {
            throw AudioFileError(.invalidFile, "stsd has no sample description", chunk: "stsd", offset: stsdBox.offset)
        }
        let found: MP4Box? = try stsdBytes.withBytes { raw throws(AudioFileError) in
            try MP4Box.parse(raw, at: 8, base: stsdBox.bodyOffset, limit: stsdBox.end)
        }
        guard let entry = found else {
            throw AudioFileError(.invalidChunk, "stsd ends before its first sample description", chunk: "stsd", offset: stsdBox.offset)
        }
        let body = Array(stsdBytes[Int(entry.bodyOffset - stsdBox.bodyOffset)..<Int(entry.end - stsdBox.bodyOffset)])
        var e = ByteReader(body, fileOffset: entry.offset, chunk: entry.name)
        func unsupported(_ reason: String) -> AudioFileError {
            AudioFileError(.unsupportedDataFormat, reason, chunk: entry.name, offset: entry.offset)
        }
        switch entry.type {
        case "drms", "enca", "drmi":
            throw unsupported("the audio is encrypted ('\(entry.type)' sample entry: a protected file)")
        case "mp4a", "alac", ".mp3", "fLaC", "Opus", "ac-3", "ec-3":
            break
        default:
            break  // a codec the package does not decode: described by its sample entry (MP4Undecoded.swift)
        }
        // SampleEntry: 6 reserved, data_reference_index; AudioSampleEntry: version, revision,
        // vendor, channelcount, samplesize, compression ID, packet size, samplerate (16.16).
        try e.skip(8)
        let version = try e.u16be()
        try e.skip(6)
        var channels = UInt32(try e.u16be())
        _ = try e.u16be()  // sample size
        try e.skip(4)
        var rate = Double(try e.u32be() >> 16)
        switch version {
        case 0: break
        case 1: try e.skip(16)  // samples per packet, bytes per packet, bytes per frame, bytes per sample
        case 2:
            // QuickTime SoundDescriptionV2: struct size, rate (Float64), channels, …
            try e.skip(4)
            rate = try e.f64be()
            channels = try e.u32be()
            try e.skip(20)
        default:
            throw unsupported("sound sample description version \(version)")
        }
        if rate == 0 || !rate.isFinite || rate > 1e7 { rate = Double(mediaTimescale) }
        let children = Array(body[e.position...])
        let childBase = entry.bodyOffset + Int64(e.position)

        switch entry.type {
        case "alac":
            guard let alac = Self.findBox(children, base: childBase, type: "alac") else {
                throw AudioFileError(.invalidFile, "ALAC sample entry without its 'alac' configuration box", chunk: "alac", offset: entry.offset)
            }
            // The 'alac' box: size, type, version and flags, then ALACSpecificConfig (24 bytes).
            var c = ByteReader(alac.bytes, fileOffset: alac.offset, chunk: "alac")
            try c.skip(12)
            let frameLength = try c.u32be()
            _ = try c.u8()  // compatible version
            let bitDepth = try c.u8()
            try c.skip(3)  // pb, mb, kb
            let numChannels = try c.u8()
            try c.skip(10)  // maxRun, maxFrameBytes, avgBitRate
            let sampleRate = try c.u32be()
            let flag: UInt32
            switch bitDepth {
            case 16: flag = 1
            case 20: flag = 2
            case 24: flag = 3
            case 32: flag = 4
            default: throw unsupported("ALAC bit depth \(bitDepth)")
            }
            guard frameLength > 0, frameLength <= 1 << 16, numChannels > 0 else {
                throw unsupported("ALAC with \(frameLength) frames per packet and \(numChannels) channels")
            }
            format = AudioStreamBasicDescription(
                sampleRate: sampleRate > 0 ? Double(sampleRate) : rate, formatID: .appleLossless, formatFlags: AudioFormatFlags(rawValue: flag),
                bytesPerPacket: 0, framesPerPacket: frameLength, bytesPerFrame: 0, channelsPerFrame: UInt32(numChannels), bitsPerChannel: 0)
            cookie = alac.bytes
            channelConfiguration = nil
        case ".mp3":
            format = Self.mp3(rate: rate, channels: channels)
            cookie = nil
            channelConfiguration = nil
        case "fLaC":
            (format, cookie) = try MP4FLAC.describe(children, base: childBase, entry: entry)
            channelConfiguration = nil
        case "Opus":
            (format, cookie) = try Self.opus(children, base: childBase, entry: entry, frames: Self.opusPacketFrames(tree, stsd, mediaTimescale))
            channelConfiguration = nil
        case "ac-3", "ec-3":
            let described = try Self.ac3(children, base: childBase, entry: entry, rate: rate)
            (format, cookie, channelLayout) = (described.format, described.cookie, described.layout)
            channelConfiguration = nil
        case let type where type != "mp4a":
            format = Self.undecoded(type, rate: rate, channels: channels, frames: Self.firstPacketFrames(tree, stsd, mediaTimescale, rate: rate))
            cookie = nil
            channelConfiguration = nil
        default:
            // mp4a: an esds box, directly or inside QuickTime's 'wave'.
            var esds = Self.findBox(children, base: childBase, type: "esds")
            if esds == nil, let wave = Self.findBox(children, base: childBase, type: "wave") {
                esds = Self.findBox(Array(wave.bytes.dropFirst(8)), base: wave.offset + 8, type: "esds")
            }
            guard let esds, esds.bytes.count > 12 else {
                throw AudioFileError(.invalidFile, "mp4a sample entry without an 'esds' box", chunk: "mp4a", offset: entry.offset)
            }
            let descriptor = Array(esds.bytes[12...])  // after the header, version and flags
            let config: ESDescriptor
            do { config = try ESDescriptor(bytes: descriptor) } catch {
                throw AudioFileError(.invalidChunk, error.reason, chunk: "esds", offset: esds.offset)
            }
            switch config.objectTypeIndication {
            case let indication where ESDescriptor.aacObjectTypeIndications.contains(indication):
                guard let asc = config.decoderSpecificInfo, let parsed = AudioSpecificConfig.streamSummary(of: asc) else {
                    throw AudioFileError(.invalidFile, "AAC without a readable AudioSpecificConfig", chunk: "esds", offset: esds.offset)
                }
                if !Self.aacObjectTypes.contains(parsed.objectType) {
                    // An MPEG-4 audio object that is not AAC (ALS, SLS, CELP, …): 'mp4a', not decoded.
                    format = Self.undecoded("mp4a", rate: parsed.outputRate, channels: parsed.channels > 0 ? UInt32(parsed.channels) : channels,
                                            frames: Self.firstPacketFrames(tree, stsd, mediaTimescale, rate: parsed.outputRate))
                    cookie = descriptor
                    channelConfiguration = nil
                    break
                }
                let outChannels = parsed.channels > 0 ? UInt32(parsed.channels) : channels
                guard outChannels > 0 else { throw unsupported("AAC with no channels") }
                format = AudioStreamBasicDescription(
                    sampleRate: parsed.outputRate, formatID: parsed.formatID, formatFlags: AudioFormatFlags(rawValue: parsed.formatFlags),
                    bytesPerPacket: 0, framesPerPacket: parsed.framesPerPacket, bytesPerFrame: 0, channelsPerFrame: outChannels,
                    bitsPerChannel: 0)
                cookie = descriptor
                channelConfiguration = parsed.channelConfiguration
                if parsed.outputRate == 2 * parsed.coreRate { framesPerCoreFrame = 2 }
            case 0x69, 0x6B:
                format = Self.mp3(rate: rate, channels: channels)
                cookie = nil
                channelConfiguration = nil
            default:
                // An MPEG-4 audio object the package does not decode (DTS, Vorbis, …): 'mp4a'.
                format = Self.undecoded("mp4a", rate: rate, channels: channels, frames: Self.firstPacketFrames(tree, stsd, mediaTimescale, rate: rate))
                cookie = descriptor
                channelConfiguration = nil
            }
        }
        try PCMCheck.basics(rate: format.sampleRate, channels: Int(format.channelsPerFrame), chunk: entry.name, offset: entry.offset)
    }

    private static func mp3(rate: Double, channels: UInt32) -> AudioStreamBasicDescription {
        AudioStreamBasicDescription(
            sampleRate: rate, formatID: .mpegLayer3, formatFlags: [], bytesPerPacket: 0,
            framesPerPacket: rate < 32000 ? 576 : 1152, bytesPerFrame: 0, channelsPerFrame: channels, bitsPerChannel: 0)
    }

    /// The first box of `type` among the boxes in `bytes` (a sample entry's children), whole.
    static func findBox(_ bytes: [UInt8], base: Int64, type: FourCharCode) -> (bytes: [UInt8], offset: Int64)? {
        var p = 0
        while bytes.count - p >= 8 {
            let size = Int(bytes.be32(p))
            if size < 8 || size > bytes.count - p { return nil }
            if FourCharCode(rawValue: bytes.be32(p + 4)) == type { return (Array(bytes[p..<(p + size)]), base + Int64(p)) }
            p += size
        }
        return nil
    }
}
