public import AudioCore

/// WAVE files (`RIFF`/`WAVE`), their 64-bit forms RF64 (EBU Tech 3306) and BW64 (ITU-R BS.2088).
///
/// Reads PCM (8-bit unsigned to 32-bit), IEEE float 32/64, A-law, µ-law and
/// `WAVE_FORMAT_EXTENSIBLE` (sub-format GUID, valid bits, channel mask as the channel layout).
/// MPEG audio (tags 0x0050 and 0x0055) is split into its frames as in an MP3 file. Other format
/// tags open and are reported by tag (ADPCM, GSM, AC-3), for their properties and tags; decoding
/// them fails, naming the format. A RIFF or data size of 0 or 0xFFFFFFFF means the data was
/// streamed and runs to the end of the file. A whole file without a `data` chunk opens with no
/// audio; one whose RIFF size runs past its end was cut before its data and does not.
public struct WAVEFormat: AudioFileFormat, DescribedFormat, StoresAudioData, ArtworkLocated {
    /// WAVE, and RF64 and BW64 read only (Apple's `'WAVE'`, `'RF64'`, `'BW64'`).
    public static let descriptor = declaring(
        AudioFileTypeDescriptor(
            .wave, name: "WAVE", extensions: ["wav"], utis: ["com.microsoft.waveform-audio"],
            mimeTypes: ["audio/wav", "audio/x-wav", "audio/vnd.wave", "audio/wave"], hfsTypeCodes: ["WAVE"], writes: [.linearPCM, .aLaw, .uLaw],
            pcmLayouts: [.integer(8, bigEndian: false, signed: false)], .integers(bigEndian: false), .floats(bigEndian: false)),
        AudioFileTypeDescriptor(.rf64, name: "RF64", extensions: ["rf64"]),
        AudioFileTypeDescriptor(.bw64, name: "BW64", extensions: ["bw64"]),
        otherExtensions: ["wave"], streamCutting: .chunks(.riff))

    public static func canRead(prefix: UnsafeRawBufferPointer) -> Bool {
        guard prefix.count >= 12 else { return false }
        let riff = FourCharCode(prefix[0], prefix[1], prefix[2], prefix[3])
        let wave = FourCharCode(prefix[8], prefix[9], prefix[10], prefix[11])
        return (riff == "RIFF" || riff == "RF64" || riff == "BW64") && wave == "WAVE"
    }

    public let fileType: AudioFileType
    let audioData: AudioData
    public let channelLayout: AudioChannelLayout?
    public let info: [(key: String, value: String)]
    public let frameCountHint: Int64?
    public let repairs: [AudioFileRepair]
    /// For AC-3 data: the `dac3` or `dec3` body its first packet implies, as the raw AC-3 reader gives.
    public let magicCookie: [UInt8]?
    /// From a LAME tag in MPEG audio data, as in an MP3 file.
    public let packetTableInfo: AudioFilePacketTableInfo?
    /// The WAVE format tag (`wFormatTag`, or the extensible sub-format's tag).
    public let formatTag: UInt16
    /// The `CHAP` frames of an `id3 ` chunk's tag.
    public let chapters: [AudioFileChapter]
    /// Where the pictures lie (``artwork(reading:)`` reads them): the `APIC`/`PIC` frames of
    /// an `id3 ` chunk's tag.
    let artworkLocations: [ArtworkLocation]

    /// Format tags this reader names.
    enum Tag {
        static let pcm: UInt16 = 0x0001
        static let msADPCM: UInt16 = 0x0002
        static let float: UInt16 = 0x0003
        static let aLaw: UInt16 = 0x0006
        static let uLaw: UInt16 = 0x0007
        static let imaADPCM: UInt16 = 0x0011
        static let gsm610: UInt16 = 0x0031
        static let mpeg: UInt16 = 0x0050
        static let mpegLayer3: UInt16 = 0x0055
        /// Raw AC-3 syncframes (`WAVE_FORMAT_DVM`, as ffmpeg writes AC-3).
        static let ac3: UInt16 = 0x2000
        static let extensible: UInt16 = 0xFFFE
    }

    public init(reading source: some AudioByteSource) throws(AudioFileError) {
        let header = try source.prefix(12)
        guard header.count == 12 else {
            throw AudioFileError(.invalidFile, "file of \(header.count) bytes is too short for a RIFF header", chunk: "RIFF", offset: 0)
        }
        let riffID = FourCharCode(rawValue: header.be32(0))
        guard riffID == "RIFF" || riffID == "RF64" || riffID == "BW64",
              FourCharCode(rawValue: header.be32(8)) == "WAVE"
        else {
            throw AudioFileError(.invalidFile, "not a RIFF WAVE file", chunk: "RIFF", offset: 0)
        }
        let is64 = riffID != "RIFF"
        // The RIFF size where a writer filled it in: 0 and 0xFFFFFFFF are streaming placeholders.
        let declaredRIFF = Int64(header.le32(4))
        let riffSize: Int64? = is64 || declaredRIFF == 0 || declaredRIFF == 0xFFFF_FFFF ? nil : declaredRIFF
        fileType = riffID == "RIFF" ? .wave : (riffID == "RF64" ? .rf64 : .bw64)

        // The RIFF size bounds the walk only when it is plausible; streamed writers leave 0 or
        // 0xFFFFFFFF, and a RIFF size past the end of the file (trailing chunks lost) is read as
        // far as the file goes.
        var walker = ChunkWalker(source, layout: .riff, start: 12)
        if let riffSize { walker.setContainerEnd(8 + riffSize, chunk: riffID.description) }
        var fmt: ByteReader?
        var fmtHeader: ChunkHeader?
        var ds64DataSize: Int64?
        var data: (header: ChunkHeader, size: Int64)?
        var factFrames: Int64?
        var metadata: [(key: String, value: String)] = []
        var id3 = ID3Chunks()

        chunkLoop: while let chunk = try walker.next() {
            switch chunk.id {
            case "ds64" where is64:
                var r = try chunk.body(source, minimum: 24)
                let riff64 = try r.u64le()
                if riff64 > 4, riff64 < UInt64(source.size) { walker.setContainerEnd(8 + Int64(riff64), chunk: riffID.description) }
                let size = try r.u64le()
                guard size <= UInt64(Int64.max) else { throw r.error("ds64 data size \(size) is out of range") }
                ds64DataSize = Int64(size)
            case "fmt ":
                fmt = try chunk.body(source, minimum: 16)
                fmtHeader = chunk
            case "fact":
                if var r = try? chunk.body(source, minimum: 4) { factFrames = Int64(try r.u32le()) }
            case "LIST":
                if try chunk.isReadableMetadata(fileSize: source.size) { metadata += try Self.listInfo(chunk, source) }
            case "id3 ", "ID3 ":
                try id3.add(chunk, source)
            case "data":
                let size: Int64
                if is64 && chunk.declaredSize == 0xFFFF_FFFF, let ds64DataSize {
                    size = walker.audioDataSize(chunk, declared: ds64DataSize)
                    // The walk goes on after the size ds64 gives, not the header's 0xFFFFFFFF.
                    walker.resume(after: chunk, bodySize: size)
                } else if chunk.declaredSize == 0xFFFF_FFFF || (chunk.declaredSize == 0 && riffSize.map { 8 + $0 <= chunk.bodyOffset } ?? true) {
                    // Streamed: the data runs to the end of the file, so nothing follows it. A data
                    // size of 0 inside a RIFF size that covers more chunks is an empty data chunk.
                    data = (chunk, source.size - chunk.bodyOffset)
                    break chunkLoop
                } else {
                    size = walker.audioDataSize(chunk, declared: chunk.declaredSize)
                }
                data = (chunk, size)
            default:
                if chunk.declaredSize > source.size - chunk.bodyOffset {
                    _ = try chunk.checkedSize(fileSize: source.size)
                }
            }
            walker.tolerant = data != nil && fmt != nil
            if walker.tolerant && walker.position >= source.size { break }
        }

        guard var f = fmt, let fmtHeader else {
            throw AudioFileError(.invalidFile, "no 'fmt ' chunk", chunk: "fmt ", offset: nil)
        }
        // A whole file without a data chunk holds no audio but opens for its format and tags (the
        // data lies, empty, at the end of the file); a file whose RIFF size says more than it
        // holds was cut before its data.
        let audioStart: Int64, audioSize: Int64
        if let data {
            (audioStart, audioSize) = (data.header.bodyOffset, data.size)
        } else if let riffSize, 8 + riffSize <= source.size {
            (audioStart, audioSize) = (min(8 + riffSize, source.size), 0)
        } else if is64, ds64DataSize == 0 {
            (audioStart, audioSize) = (source.size, 0)
        } else {
            throw AudioFileError(.invalidFile, "no 'data' chunk: the file ends before its audio data", chunk: "data", offset: nil)
        }
        let parsed = try Self.parseFormat(&f, header: fmtHeader)
        let mpeg = (parsed.tag == Tag.mpeg || parsed.tag == Tag.mpegLayer3) && audioSize > 0
            ? try Self.mpegPackets(source, format: parsed.format, data: audioStart, count: audioSize) : nil
        let ac3 = parsed.tag == Tag.ac3 && audioSize > 0 ? try Self.ac3Packets(source, data: audioStart, count: audioSize) : nil
        let dataFormat = mpeg?.format ?? ac3?.format ?? parsed.format
        packetTableInfo = mpeg?.info
        formatTag = parsed.tag
        channelLayout = ac3?.layout ?? parsed.layout
        magicCookie = ac3?.cookie
        let tags = id3.summary
        // A key both an INFO list and an ID3 tag hold is the ID3 tag's (UTF-8, and every key),
        // and an ICRD that repeats the tag's year is that year.
        info = metadata.filter { entry in
            !tags.info.contains { $0.key == entry.key || (entry.key == "recorded date" && $0.key == "year" && $0.value == entry.value) }
        } + tags.info
        chapters = tags.chapters
        artworkLocations = id3.locations
        repairs = walker.repairs
        frameCountHint = parsed.format.isPCM ? nil : factFrames
        let packets: AudioFilePacketIndex
        if let table = mpeg?.table ?? ac3?.table {
            packets = .table(table)
        } else if dataFormat.bytesPerPacket > 0 {
            packets = .constant(bytesPerPacket: Int(dataFormat.bytesPerPacket), count: audioSize / Int64(dataFormat.bytesPerPacket))
        } else {
            packets = .constant(bytesPerPacket: 1, count: 0)  // MPEG data without a whole frame
        }
        audioData = AudioData(format: dataFormat, offset: audioStart, byteCount: audioSize, packets: packets)
    }

    private static func parseFormat(_ r: inout ByteReader, header: ChunkHeader) throws(AudioFileError) -> (
        format: AudioStreamBasicDescription, tag: UInt16, layout: AudioChannelLayout?
    ) {
        var tag = try r.u16le()
        let channels = Int(try r.u16le())
        let rate = Double(try r.u32le())
        _ = try r.u32le()  // average bytes per second
        let blockAlign = Int(try r.u16le())
        let bitsPerSample = Int(try r.u16le())
        var validBits = bitsPerSample
        var layout: AudioChannelLayout?
        var samplesPerBlock: Int?
        func unsupported(_ reason: String) -> AudioFileError {
            AudioFileError(.unsupportedDataFormat, reason, chunk: "fmt ", offset: header.offset)
        }
        try PCMCheck.basics(rate: rate, channels: channels, chunk: "fmt ", offset: header.offset)

        if r.remaining >= 2 {
            let extra = Int(try r.u16le())
            if tag == Tag.extensible {
                guard extra >= 22, r.remaining >= 22 else {
                    throw r.error("WAVE_FORMAT_EXTENSIBLE needs 22 extension bytes, has \(min(extra, r.remaining))")
                }
                let valid = Int(try r.u16le())
                let mask = try r.u32le()
                let guid = Array(try r.data(16))
                let base: [UInt8] = [0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71]
                if Array(guid[4...]) == base && guid[2] == 0 && guid[3] == 0 {
                    tag = UInt16(guid[0]) | UInt16(guid[1]) << 8
                }
                if valid > 0 { validBits = valid }
                if mask != 0 && mask.nonzeroBitCount == channels {
                    layout = AudioChannelLayout(bitmap: AudioChannelBitmap(rawValue: mask))
                }
                if tag != Tag.pcm && tag != Tag.float { samplesPerBlock = valid > 0 ? valid : nil }
            } else if extra >= 2, r.remaining >= 2 {
                samplesPerBlock = Int(try r.u16le())
            }
        }

        func flagsForPCM(_ bits: Int, _ word: Int) throws(AudioFileError) -> AudioStreamBasicDescription {
            guard bits > 0, word > 0, bits <= word * 8 else {
                throw unsupported("\(bits)-bit samples in \(word)-byte words")
            }
            var flags: AudioFormatFlags = bits == word * 8 ? [.isPacked] : [.isAlignedHigh]
            if tag == Tag.float {
                flags.insert(.isFloat)
            } else if word > 1 {
                flags.insert(.isSignedInteger)
            }
            return AudioStreamBasicDescription(
                sampleRate: rate, formatID: .linearPCM, formatFlags: flags,
                bytesPerPacket: UInt32(blockAlign), framesPerPacket: 1, bytesPerFrame: UInt32(blockAlign),
                channelsPerFrame: UInt32(channels), bitsPerChannel: UInt32(bits))
        }

        switch tag {
        case Tag.pcm, Tag.float:
            guard bitsPerSample > 0 else { throw unsupported("PCM with 0 bits per sample") }
            guard blockAlign > 0, blockAlign % channels == 0 else {
                throw unsupported("block align \(blockAlign) does not fit \(channels) channels")
            }
            let word = blockAlign / channels
            guard word == (bitsPerSample + 7) / 8 else {
                throw unsupported("block align \(blockAlign) does not fit \(channels) channels of \(bitsPerSample) bits")
            }
            guard word <= 8 else { throw unsupported("\(word)-byte samples") }
            if tag == Tag.float {
                guard validBits == 32 || validBits == 64, word * 8 == validBits else {
                    throw unsupported("\(validBits)-bit float")
                }
            } else if word > 4 {
                throw unsupported("\(word * 8)-bit integer PCM")
            }
            guard validBits <= word * 8 else { throw unsupported("\(validBits) valid bits in \(word)-byte samples") }
            return (try flagsForPCM(validBits, word), tag, layout)
        case Tag.aLaw, Tag.uLaw:
            guard blockAlign == channels else {
                throw unsupported("G.711 block align \(blockAlign) for \(channels) channels")
            }
            return (
                AudioStreamBasicDescription(
                    sampleRate: rate, formatID: tag == Tag.aLaw ? .aLaw : .uLaw,
                    bytesPerPacket: UInt32(channels), framesPerPacket: 1, bytesPerFrame: UInt32(channels),
                    channelsPerFrame: UInt32(channels), bitsPerChannel: 8),
                tag, layout
            )
        case Tag.mpegLayer3, Tag.mpeg:
            let id: AudioFormatID = tag == Tag.mpegLayer3 ? .mpegLayer3 : .mpegLayer2
            let frames: UInt32 = tag == Tag.mpegLayer3 && rate < 32000 ? 576 : 1152
            return (
                AudioStreamBasicDescription(
                    sampleRate: rate, formatID: id, bytesPerPacket: 0, framesPerPacket: frames,
                    bytesPerFrame: 0, channelsPerFrame: UInt32(channels), bitsPerChannel: 0),
                tag, layout
            )
        default:
            guard blockAlign > 0 else { throw unsupported("\(WAVEFormatTag.displayName(tag)) with block align 0") }
            var frames = samplesPerBlock ?? 0
            switch tag {
            case Tag.gsm610: frames = 320
            case Tag.imaADPCM where frames == 0 && blockAlign > 4 * channels:
                frames = (blockAlign - 4 * channels) * 8 / (4 * channels) + 1
            default: break
            }
            let id: AudioFormatID = tag == Tag.imaADPCM ? .dviIntelIMA : (tag == Tag.gsm610 ? .microsoftGSM : .waveFormatTag(tag))
            return (
                AudioStreamBasicDescription(
                    sampleRate: rate, formatID: id, bytesPerPacket: UInt32(blockAlign), framesPerPacket: UInt32(frames),
                    bytesPerFrame: 0, channelsPerFrame: UInt32(channels), bitsPerChannel: UInt32(bitsPerSample)),
                tag, layout
            )
        }
    }

    /// Apple's info dictionary keys for RIFF INFO IDs.
    static let infoKeys: [FourCharCode: String] = [
        "INAM": "title", "IART": "artist", "ICMT": "comments", "ICOP": "copyright",
        "ICRD": "recorded date", "IGNR": "genre", "IPRD": "album", "ISFT": "encoding application",
        "ITRK": "track number", "IPRT": "track number", "ICMP": "composer", "IENG": "engineer",
        "ISBJ": "subject", "IKEY": "keywords", "ISRC": "source",
    ]

    private static func listInfo(_ chunk: ChunkHeader, _ source: some AudioByteSource) throws(AudioFileError) -> [(key: String, value: String)] {
        var r = try chunk.body(source, minimum: 4)
        guard try r.fourCC() == "INFO" else { return [] }
        var out: [(key: String, value: String)] = []
        while r.remaining >= 8 {
            let id = try r.fourCC()
            let size = Int(try r.u32le())
            guard size <= r.remaining else { throw r.error("INFO entry '\(id)' of \(size) bytes runs past the LIST chunk") }
            let text = metadataText(try r.data(size))
            if size & 1 == 1 && r.remaining > 0 { try r.skip(1) }
            out.append((infoKeys[id] ?? id.description, text))
        }
        return out
    }
}
