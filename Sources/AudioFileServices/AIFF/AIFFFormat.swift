public import AudioCore

/// AIFF and AIFF-C files (`FORM`/`AIFF`, `FORM`/`AIFC`).
///
/// Reads COMM (80-bit extended sample rate; AIFC compression type and Pascal-string name),
/// SSND (offset and block size), chunks in any order with odd-length padding, and the text
/// chunks NAME, AUTH, ANNO and `(c) `, an `ID3 ` chunk's ID3v2 tag, and Apple's CHAN chunk (a channel layout with the body of
/// CAF's `chan`). Compression types: NONE, twos, sowt, in24, in32, 23ni,
/// 42ni, raw , fl32/FL32, fl64/FL64, alaw/ALAW, ulaw/ULAW and ima4; any other type is reported
/// by its code, for its properties and tags (decoding it fails, naming the format). A file whose
/// COMM counts 0 sample frames needs no SSND chunk (AIFF 1.3) and opens with no audio.
public struct AIFFFormat: AudioFileFormat, DescribedFormat, StoresAudioData, ArtworkLocated {
    /// AIFF and AIFF-C (Apple's `'AIFF'` and `'AIFC'`).
    public static let descriptor = declaring(
        AudioFileTypeDescriptor(
            .aiff, name: "AIFF", extensions: ["aiff", "aif"], utis: ["public.aiff-audio"], mimeTypes: mimeTypes, hfsTypeCodes: ["AIFF"],
            writes: [.linearPCM], pcmLayouts: [.integer(8, bigEndian: true)], .integers(bigEndian: true)),
        AudioFileTypeDescriptor(
            .aifc, name: "AIFC", extensions: ["aifc", "aiff", "aif"], utis: ["public.aifc-audio"], mimeTypes: mimeTypes, hfsTypeCodes: ["AIFC"],
            writes: [.linearPCM, .aLaw, .uLaw, .appleIMA4],
            pcmLayouts: [.integer(8, bigEndian: true), .integer(8, bigEndian: true, signed: false)], .integers(bigEndian: true),
            .integers(bigEndian: false), .floats(bigEndian: true)),
        otherExtensions: ["afc"], streamCutting: .chunks(.iff))

    private static let mimeTypes = ["audio/aiff", "audio/x-aiff"]

    public static func canRead(prefix: UnsafeRawBufferPointer) -> Bool {
        guard prefix.count >= 12 else { return false }
        let form = FourCharCode(prefix[0], prefix[1], prefix[2], prefix[3])
        let kind = FourCharCode(prefix[8], prefix[9], prefix[10], prefix[11])
        return form == "FORM" && (kind == "AIFF" || kind == "AIFC")
    }

    public let fileType: AudioFileType
    let audioData: AudioData
    public let info: [(key: String, value: String)]
    public let channelLayout: AudioChannelLayout?
    /// The AIFC compression type (`NONE` for plain AIFF).
    public let compressionType: FourCharCode
    /// The AIFC compression name, if any.
    public let compressionName: String?
    public let repairs: [AudioFileRepair]
    /// The `CHAP` frames of an `ID3 ` chunk's tag.
    public let chapters: [AudioFileChapter]
    /// Where the pictures lie (``artwork(reading:)`` reads them): the `APIC`/`PIC` frames of
    /// an `ID3 ` chunk's tag.
    let artworkLocations: [ArtworkLocation]

    public init(reading source: some AudioByteSource) throws(AudioFileError) {
        let header = try source.prefix(12)
        guard header.count == 12, FourCharCode(rawValue: header.be32(0)) == "FORM" else {
            throw AudioFileError(.invalidFile, "no FORM header", chunk: "FORM", offset: 0)
        }
        let kind = FourCharCode(rawValue: header.be32(8))
        guard kind == "AIFF" || kind == "AIFC" else {
            throw AudioFileError(.invalidFile, "FORM type '\(kind)' is not AIFF or AIFC", chunk: "FORM", offset: 0)
        }
        let isAIFC = kind == "AIFC"
        fileType = isAIFC ? .aifc : .aiff

        var walker = ChunkWalker(source, layout: .iff, start: 12)
        walker.setContainerEnd(8 + Int64(header.be32(4)), chunk: "FORM")
        var comm: (reader: ByteReader, header: ChunkHeader)?
        var ssnd: (header: ChunkHeader?, size: Int64, offset: Int64)?
        var metadata: [(key: String, value: String)] = []
        var id3 = ID3Chunks()
        var layout: AudioChannelLayout?
        while let chunk = try walker.next() {
            switch chunk.id {
            case "CHAN":
                var r = try chunk.body(source, minimum: 12)
                layout = try CAFFormat.channelLayout(&r)
            case "COMM":
                comm = (try chunk.body(source, minimum: 18), chunk)
            case "SSND":
                let size = walker.audioDataSize(chunk, declared: chunk.declaredSize)
                guard size >= 8 else {
                    throw AudioFileError(.invalidChunk, "SSND of \(size) bytes has no offset and block size", chunk: "SSND", offset: chunk.offset)
                }
                var r = ByteReader(try source.bytes(at: chunk.bodyOffset, count: 8, chunk: "SSND"), fileOffset: chunk.offset, chunk: "SSND")
                let offset = Int64(try r.u32be())
                _ = try r.u32be()  // block size
                guard offset <= size - 8 else {
                    throw AudioFileError(.invalidChunk, "SSND data offset \(offset) lies beyond its \(size - 8) data bytes", chunk: "SSND", offset: chunk.offset)
                }
                ssnd = (chunk, size - 8 - offset, chunk.bodyOffset + 8 + offset)
            case "ID3 ", "id3 ":
                try id3.add(chunk, source)
            case "NAME", "AUTH", "ANNO", "(c) ":
                guard try chunk.isReadableMetadata(fileSize: source.size) else { continue }
                let r = try chunk.body(source, minimum: 0)
                let key = ["NAME": "title", "AUTH": "artist", "ANNO": "comments", "(c) ": "copyright"][chunk.name]!
                metadata.append((key, metadataText(r.bytes)))
            default:
                _ = try chunk.checkedSize(fileSize: source.size)
            }
            walker.tolerant = comm != nil && ssnd != nil
        }
        guard var c = comm else { throw AudioFileError(.invalidFile, "no COMM chunk", chunk: "COMM", offset: nil) }
        let channels = Int(Int16(bitPattern: try c.reader.u16be()))
        let frames = Int64(try c.reader.u32be())
        // "The Sound Data Chunk is required unless the numSampleFrames field in the Common
        // Chunk is zero" (AIFF 1.3): such a file opens with no audio, its data empty at the end.
        let formEnd = 8 + Int64(header.be32(4))
        guard let ssnd = ssnd ?? (frames == 0 && formEnd <= source.size ? (nil, 0, min(formEnd, source.size)) : nil) else {
            throw AudioFileError(.invalidFile, "no SSND chunk, and COMM counts \(frames) sample frames", chunk: "SSND", offset: nil)
        }
        let sampleSize = Int(Int16(bitPattern: try c.reader.u16be()))
        let rate = try c.reader.extended80()
        var compression: FourCharCode = "NONE"
        var name: String?
        if isAIFC && c.reader.remaining >= 4 {
            compression = try c.reader.fourCC()
            if c.reader.remaining >= 1 {
                let length = Int(try c.reader.u8())
                name = metadataText(try c.reader.data(min(length, c.reader.remaining)))
            }
        }
        compressionType = compression
        compressionName = name
        try PCMCheck.basics(rate: rate, channels: channels, chunk: "COMM", offset: c.header.offset)
        let format = try Self.format(compression, channels: channels, sampleSize: sampleSize, rate: rate, offset: c.header.offset)
        let tags = id3.summary
        info = metadata + tags.info
        chapters = tags.chapters
        artworkLocations = id3.locations
        repairs = walker.repairs
        channelLayout = layout
        let packets: AudioFilePacketIndex
        if format.bytesPerPacket > 0 {
            let available = ssnd.size / Int64(format.bytesPerPacket)
            // COMM counts sample frames (packets for ima4); where it claims more than SSND
            // holds, the data decides.
            let declared = format.formatID == .appleIMA4 || format.framesPerPacket <= 1 ? frames : frames / Int64(format.framesPerPacket)
            packets = .constant(bytesPerPacket: Int(format.bytesPerPacket), count: declared > 0 ? min(declared, available) : available)
        } else {
            packets = .constant(bytesPerPacket: 1, count: 0)
        }
        audioData = AudioData(format: format, offset: ssnd.offset, byteCount: ssnd.size, packets: packets)
    }

    private static func format(
        _ compression: FourCharCode, channels: Int, sampleSize: Int, rate: Double, offset: Int64
    ) throws(AudioFileError) -> AudioStreamBasicDescription {
        func unsupported(_ reason: String) -> AudioFileError {
            AudioFileError(.unsupportedDataFormat, reason, chunk: "COMM", offset: offset)
        }
        let ch = UInt32(channels)
        func pcm(bits: Int, word: Int, float: Bool = false, little: Bool = false, unsigned: Bool = false) throws(AudioFileError) -> AudioStreamBasicDescription {
            guard bits > 0, bits <= word * 8 else { throw unsupported("\(bits)-bit samples for compression '\(compression)'") }
            var flags: AudioFormatFlags = bits == word * 8 ? [.isPacked] : [.isAlignedHigh]
            if float { flags.insert(.isFloat) } else if !unsigned { flags.insert(.isSignedInteger) }
            if !little { flags.insert(.isBigEndian) }
            let bytes = UInt32(word) * ch
            return AudioStreamBasicDescription(
                sampleRate: rate, formatID: .linearPCM, formatFlags: flags, bytesPerPacket: bytes,
                framesPerPacket: 1, bytesPerFrame: bytes, channelsPerFrame: ch, bitsPerChannel: UInt32(bits))
        }
        switch compression {
        case "NONE", "twos":
            guard sampleSize > 0, sampleSize <= 32 else { throw unsupported("\(sampleSize)-bit samples") }
            return try pcm(bits: sampleSize, word: (sampleSize + 7) / 8)
        case "sowt":
            guard sampleSize > 0, sampleSize <= 32 else { throw unsupported("\(sampleSize)-bit samples") }
            return try pcm(bits: sampleSize, word: (sampleSize + 7) / 8, little: sampleSize > 8)
        case "in24": return try pcm(bits: 24, word: 3)
        case "in32": return try pcm(bits: 32, word: 4)
        case "23ni": return try pcm(bits: 24, word: 3, little: true)
        case "42ni": return try pcm(bits: 32, word: 4, little: true)
        case "raw ": return try pcm(bits: 8, word: 1, unsigned: true)
        case "fl32", "FL32": return try pcm(bits: 32, word: 4, float: true)
        case "fl64", "FL64": return try pcm(bits: 64, word: 8, float: true)
        case "alaw", "ALAW", "ulaw", "ULAW":
            let id: AudioFormatID = compression == "alaw" || compression == "ALAW" ? .aLaw : .uLaw
            return AudioStreamBasicDescription(
                sampleRate: rate, formatID: id, bytesPerPacket: ch, framesPerPacket: 1, bytesPerFrame: ch,
                channelsPerFrame: ch, bitsPerChannel: 8)
        case "ima4":
            return AudioStreamBasicDescription(
                sampleRate: rate, formatID: .appleIMA4, bytesPerPacket: 34 * ch, framesPerPacket: 64, bytesPerFrame: 0,
                channelsPerFrame: ch, bitsPerChannel: 0)
        default:
            return AudioStreamBasicDescription(
                sampleRate: rate, formatID: AudioFormatID(compression), bytesPerPacket: 0, framesPerPacket: 0,
                bytesPerFrame: 0, channelsPerFrame: ch, bitsPerChannel: 0)
        }
    }
}
