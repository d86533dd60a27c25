import AudioCore

/// A metadata item a header can hold as a chunk of its own (CAF `kuki`, `chan` and `info`,
/// AIFF `CHAN` and `ID3 `, WAVE `id3 `).
enum MetadataChunk: Hashable, Sendable, CaseIterable {
    case channelLayout
    case magicCookie
    /// The info dictionary: CAF `info`, WAVE `LIST` (`INFO`) where INFO has an ID for every key.
    case info
    /// An ID3v2 tag of the info dictionary and the pictures: WAVE `id3 `, AIFF `ID3 `.
    case id3
}

/// Metadata a writer records besides the data format.
struct WriterMetadata: Sendable {
    var magicCookie: [UInt8]?
    var channelLayout: AudioChannelLayout?
    /// The info dictionary to record (``AudioFileInfo/recordable`` entries).
    var info = AudioFileInfo([])
    /// The pictures to record.
    var pictures: [AudioFilePicture] = []

    /// True when there are tags to record.
    var hasTags: Bool { !info.entries.isEmpty || !pictures.isEmpty }

    /// The ID3v2.4 tag of the info and pictures, nil without any (or one too large, which
    /// setting them refused).
    var id3Tag: [UInt8]? { (try? ID3v2.tag(info: info, pictures: pictures)) ?? nil }

    /// The body of the channel layout's chunk (CAF `chan`, AIFF `CHAN`), nil without a layout.
    var channelLayoutBody: [UInt8]? {
        guard let channelLayout else { return nil }
        var body = BigEndianBytes()
        body.channelLayout(channelLayout)
        return body.bytes
    }
}

/// Bytes to put at a file offset.
struct HeaderPatch: Sendable {
    let offset: Int64
    let bytes: [UInt8]
}

/// Where a chunk lies in a header: its header's offset and its body's size.
struct ChunkSpan: Sendable {
    let offset: Int64
    let bodySize: Int
}

extension BigEndianBytes {
    /// Appends chunk `id` holding `body`, its size field 64 bits wide (CAF) or 32 (IFF), and
    /// returns where it lies.
    mutating func chunk(_ id: String, _ body: [UInt8], wideSize: Bool) -> ChunkSpan {
        let span = ChunkSpan(offset: Int64(bytes.count), bodySize: body.count)
        ascii(id)
        if wideSize { u64(UInt64(body.count)) } else { u32(UInt32(body.count)) }
        bytes += body
        return span
    }
}

/// The header of a file being written: its bytes, where the audio data starts, and where the
/// fields lie that change while writing and at close.
struct ContainerHeader: Sendable {
    enum Kind: Sendable {
        case caf, wave, aiff
        /// MPEG-4 (`m4af`, `m4bf`, `mp4f`): the `moov` box is written at close.
        case mp4
        /// ADTS: no header; each packet carries its own.
        case adts
        /// Native FLAC: `fLaC`, STREAMINFO (completed at close) and PADDING.
        case flac
        /// Ogg Opus: the `OpusHead` and `OpusTags` pages; the audio pages follow.
        case ogg
    }

    let kind: Kind
    let fileType: AudioFileType
    /// The header as first written.
    let bytes: [UInt8]
    /// File offset of the first byte of audio data.
    let dataOffset: Int64
    /// Metadata chunks in the header.
    var chunks: [MetadataChunk: ChunkSpan] = [:]
    /// CAF: the data chunk's size. WAVE: RIFF size. AIFF: FORM size.
    var sizeOffset: Int64 = 0
    /// WAVE: the data chunk's size. AIFF: the SSND chunk's size.
    var dataSizeOffset: Int64 = 0
    /// WAVE: the `fact` sample count. AIFF: COMM's frame count (packets for ima4).
    var countOffset: Int64?
    /// WAVE: the speaker mask of `WAVE_FORMAT_EXTENSIBLE`, nil when `fmt ` is not extensible.
    var maskOffset: Int64?
    /// WAVE: the speaker mask the header holds.
    var waveMask: UInt32?
    /// AIFF: zero bytes between SSND's offset field and the data (its `offset`).
    var ssndPad: Int64 = 0
    /// Ogg: the logical stream's serial number and the sequence number of the first audio page.
    var oggSerial: UInt32 = 0
    var oggSequence: UInt32 = 0

    /// Bytes of page alignment: audio data starts on a 4096-byte boundary unless asked not to.
    static let pageSize: Int64 = 4096

    /// The filler bytes that put `offset + extra` on a page boundary, at least `minimum` bytes
    /// when there are any at all.
    static func alignment(after offset: Int, extra: Int, minimum: Int) -> Int {
        let page = Int(pageSize)
        var fill = (page - (offset + extra) % page) % page
        if fill > 0 && fill < minimum { fill += page }
        return fill
    }

    /// The header for `format` in a container of `type` (`'AIFF'` becomes `'AIFC'` where plain
    /// AIFF cannot hold the format) and the format as the file records it, which is what a reader
    /// of the file reports.
    static func make(
        type: AudioFileType, format: AudioStreamBasicDescription, metadata: WriterMetadata, align: Bool
    ) throws(AudioFileError) -> (header: ContainerHeader, recorded: AudioStreamBasicDescription) {
        guard format.channelsPerFrame > 0, format.channelsPerFrame <= 0xFFFF else {
            throw AudioFileError(.unsupportedDataFormat, "\(format.channelsPerFrame) channels")
        }
        guard format.sampleRate.isFinite, format.sampleRate >= 1, format.sampleRate < 1e9 else {
            throw AudioFileError(.unsupportedDataFormat, "a sample rate of \(format.sampleRate) Hz")
        }
        guard format.isInterleaved else {
            throw AudioFileError(.unsupportedDataFormat, "audio files hold interleaved data only: \(format)")
        }
        switch type {
        case .caf:
            let recorded = try cafFormat(format)
            return (caf(recorded, metadata, align: align), recorded)
        case .wave:
            let recorded = try waveFormat(format)
            return (try wave(recorded, metadata, align: align), recorded)
        case .aiff, .aifc:
            let (recorded, compression) = try aiffFormat(format, aifc: type == .aifc)
            return (aiff(recorded, compression, metadata, align: align), recorded)
        case .m4a, .m4b, .mpeg4:
            let check = FormatChecks(format: format, container: "MPEG-4")
            let recorded = switch format.formatID {
            case .appleLossless: try check.alac()
            case .flac: try check.flac()
            case .opus: try check.opus()
            default: try check.aac()
            }
            return (mp4(type: type), recorded)
        case .adts:
            let recorded = try FormatChecks(format: format, container: "ADTS").aac()
            guard let config = AACConfig(format: recorded) else {
                throw AudioFileError(.unsupportedDataFormat, "ADTS: AAC of \(recorded.channelsPerFrame) channels has no channel configuration")
            }
            if let problem = config.adtsProblem { throw AudioFileError(.unsupportedDataFormat, "\(problem): \(recorded)") }
            return (ContainerHeader(kind: .adts, fileType: .adts, bytes: [], dataOffset: 0), recorded)
        case .flac:
            let recorded = try FormatChecks(format: format, container: "FLAC").flac()
            return (flac(recorded), recorded)
        case .ogg:
            let recorded = try FormatChecks(format: format, container: "Ogg").opus()
            let header = ogg(recorded, head: placeholderOpusHead(recorded), fields: [], serial: UInt32.random(in: 1...UInt32.max))
            return (header, recorded)
        default:
            throw AudioFileError(.unsupportedFileType, "cannot write files of type '\(type)'")
        }
    }

    /// The same container rebuilt for new metadata (before any audio data is written).
    func rebuilt(format: AudioStreamBasicDescription, metadata: WriterMetadata, align: Bool) throws(AudioFileError) -> ContainerHeader {
        switch kind {
        case .caf: return Self.caf(format, metadata, align: align)
        case .wave: return try Self.wave(format, metadata, align: align)
        case .aiff:
            let (_, compression) = try Self.aiffFormat(format, aifc: fileType == .aifc)
            return Self.aiff(format, compression, metadata, align: align)
        case .mp4, .adts, .flac, .ogg: return self
        }
    }

    /// The largest file (header, data and what follows it) the container can describe.
    var maximumFileSize: Int64 {
        kind == .aiff ? 0xFFFF_FFFF + 8 : .max
    }

    /// The ID a chunk that no longer holds anything is renamed to, so readers skip it.
    var fillerID: String { kind == .caf ? "free" : kind == .wave ? "JUNK" : "FLLR" }

    /// A complete chunk of this container holding `body` (sizes little-endian in WAVE, padded
    /// to an even size in WAVE and AIFF).
    func chunk(_ id: String, _ body: [UInt8]) -> [UInt8] {
        var out = BigEndianBytes()
        out.ascii(id)
        if kind == .caf {
            out.u64(UInt64(body.count))
            return out.bytes + body
        }
        if kind == .wave {
            out.bytes += LittleEndianBytes.u32(UInt32(truncatingIfNeeded: body.count))
        } else {
            out.u32(UInt32(truncatingIfNeeded: body.count))
        }
        return out.bytes + body + (body.count & 1 == 1 ? [0] : [])
    }

    /// The chunk ID of a metadata item in this container.
    func chunkID(_ item: MetadataChunk) -> String {
        switch item {
        case .channelLayout: kind == .caf ? "chan" : "CHAN"
        case .magicCookie: "kuki"
        case .info: kind == .wave ? "LIST" : "info"
        case .id3: kind == .wave ? "id3 " : "ID3 "
        }
    }

    /// The header's size fields for `dataBytes` bytes of data in `packets` packets of `frames`
    /// frames, in a file that ends at `fileEnd`. While writing (`final == false`) a CAF data
    /// chunk keeps its size of -1 (it runs to the end of the file).
    func sizePatches(dataBytes: Int64, packets: Int64, frames: Int64, fileEnd: Int64, final: Bool) throws(AudioFileError) -> [HeaderPatch] {
        switch kind {
        case .caf:
            return final ? [HeaderPatch(offset: sizeOffset, bytes: BigEndianBytes.u64(UInt64(dataBytes + 4)))] : []
        case .mp4:
            return final ? [mdatSizePatch(dataBytes: dataBytes)] : []
        case .adts, .flac, .ogg:
            return []
        case .wave:
            let riffSize = fileEnd - 8
            var patches: [HeaderPatch] = []
            if riffSize <= 0xFFFF_FFFF {
                patches.append(HeaderPatch(offset: sizeOffset, bytes: LittleEndianBytes.u32(UInt32(riffSize))))
                patches.append(HeaderPatch(offset: dataSizeOffset, bytes: LittleEndianBytes.u32(UInt32(dataBytes))))
            } else {
                // RF64 (EBU Tech 3306): the sizes move to a ds64 chunk in place of the JUNK chunk
                // reserved for it, and the 32-bit fields say -1.
                var ds64 = LittleEndianBytes()
                ds64.ascii("ds64"); ds64.u32(28)
                ds64.u64(UInt64(riffSize)); ds64.u64(UInt64(dataBytes)); ds64.u64(UInt64(frames)); ds64.u32(0)
                patches.append(HeaderPatch(offset: 0, bytes: Array("RF64".utf8) + LittleEndianBytes.u32(0xFFFF_FFFF)))
                patches.append(HeaderPatch(offset: 12, bytes: ds64.bytes))
                patches.append(HeaderPatch(offset: dataSizeOffset, bytes: LittleEndianBytes.u32(0xFFFF_FFFF)))
            }
            if let countOffset {
                patches.append(HeaderPatch(offset: countOffset, bytes: LittleEndianBytes.u32(UInt32(clamping: frames))))
            }
            return patches
        case .aiff:
            let formSize = fileEnd - 8
            guard formSize <= 0xFFFF_FFFF else {
                throw AudioFileError(.doesNotAllow64BitDataSize, "AIFF cannot hold \(dataBytes) bytes of audio")
            }
            var patches = [
                HeaderPatch(offset: sizeOffset, bytes: BigEndianBytes.u32(UInt32(formSize))),
                HeaderPatch(offset: dataSizeOffset, bytes: BigEndianBytes.u32(UInt32(8 + ssndPad + dataBytes))),
            ]
            if let countOffset {
                patches.append(HeaderPatch(offset: countOffset, bytes: BigEndianBytes.u32(UInt32(clamping: packets))))
            }
            return patches
        }
    }
}
