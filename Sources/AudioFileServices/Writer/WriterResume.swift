import AudioCore

/// Resuming a file that was read: more packets appended to an existing CAF file.
extension WriterState {
    /// The state of a writer that appends to the CAF file `file` has read, written through
    /// `storage` (the same bytes). The chunks that follow the audio data — `pakt`, and a `kuki`,
    /// `chan` or `info` written after the data — are cut off and written again at close; any other
    /// chunk after the data fails with `notOptimized` (Apple's `kAudioFileNotOptimizedError`).
    /// Other containers fail with `operationNotSupported`. From the first change on, the data
    /// chunk's size is -1 (to the end of the file) until close, as in a file being created; a
    /// file closed unchanged is left as it was.
    init(resuming file: AudioFile, storage: any AudioByteSink) throws(AudioFileError) {
        guard file.fileType == .caf else {
            throw AudioFileError(.operationNotSupported, "appending to \(file.fileType) files is not supported; CAF files take more packets")
        }
        let source = file.source
        var chunks: [MetadataChunk: ChunkSpan] = [:]
        var deferred: Set<MetadataChunk> = []
        var dataHeader: Int64?
        var at: Int64 = 8
        while at <= source.size - 12 {
            let head = try source.bytes(at: at, count: 12, chunk: "caff")
            let type = String(decoding: head[0..<4], as: UTF8.self)
            let size = Int64(bitPattern: head[4..<12].reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
            if type == "data" {
                dataHeader = at
                if size == -1 { break }
            } else if dataHeader == nil {
                if type == "kuki" { chunks[.magicCookie] = ChunkSpan(offset: at, bodySize: Int(clamping: size)) }
                if type == "chan" { chunks[.channelLayout] = ChunkSpan(offset: at, bodySize: Int(clamping: size)) }
                if type == "info" { chunks[.info] = ChunkSpan(offset: at, bodySize: Int(clamping: size)) }
            } else {
                switch type {
                case "pakt", "free": break
                case "kuki": deferred.insert(.magicCookie)
                case "chan": deferred.insert(.channelLayout)
                case "info": deferred.insert(.info)
                default:
                    throw AudioFileError(
                        .notOptimized, "a '\(type)' chunk follows the audio data: the file must be optimized to take more packets",
                        chunk: type, offset: at)
                }
            }
            guard size >= 0, size <= source.size - at - 12 else { break }
            at += 12 + size
        }
        guard let dataHeader, dataHeader + 16 == file.dataOffset else {
            throw AudioFileError(.invalidFile, "the CAF data chunk is not where the reader found the audio data", chunk: "data")
        }
        let recorded = try ContainerHeader.cafFormat(file.dataFormat)
        var header = ContainerHeader(kind: .caf, fileType: .caf, bytes: [], dataOffset: file.dataOffset)
        header.chunks = chunks
        header.sizeOffset = dataHeader + 4

        self.header = header
        self.deferred = deferred
        format = recorded
        align = true
        metadata = WriterMetadata(magicCookie: file.magicCookie, channelLayout: file.channelLayout)
        metadata.info = file.info.recordable
        dataBytes = file.dataByteCount
        packets = file.packetCount
        maximumPacketSize = recorded.bytesPerPacket
        switch file.container.packets {
        case .constant:
            frames = packets * Int64(recorded.framesPerPacket)
        case .table(let table):
            frames = table.totalFrames
            if recorded.bytesPerPacket == 0 { sizes = table.sizes }
            if recorded.framesPerPacket == 0 { packetFrames = (0..<table.count).map(table.framesInPacket) }
            maximumPacketSize = max(maximumPacketSize, table.maximumSize)
        }
        if let info = file.packetTableInfo, info.primingFrames != 0 || info.remainderFrames != 0 {
            trims = (info.primingFrames, info.remainderFrames)
        }
        sink = FileSink(storage)
        lastHeaderUpdate = monotonicNanoseconds()
        // Nothing changes until the first write: then what follows the data is cut off (close
        // writes it again) and the data runs to the end of the file.
        resumePending = true
    }
}
