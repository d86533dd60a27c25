import AudioCore

/// The first bytes of a stream a container parser reads as if they were the whole file: the
/// header that has arrived, inside a file of `size` bytes whose rest has not. Reads past the held
/// bytes come back short, so chunk and box walks end there.
struct StreamPrefixSource: AudioByteSource {
    let held: [UInt8]
    let size: Int64

    /// The size a stream's file is taken to have when the header does not bound it: large
    /// enough for any data chunk, small enough that sums of sizes and offsets cannot overflow.
    static let unboundedSize = Int64.max / 4

    func read(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) throws(AudioFileError) -> Int {
        guard offset >= 0 else { throw AudioFileError(.position, "negative offset \(offset)") }
        guard offset < Int64(held.count) else { return 0 }
        let n = min(buffer.count, held.count - Int(offset))
        held.withUnsafeBytes { src in
            buffer.baseAddress!.copyMemory(from: src.baseAddress! + Int(offset), byteCount: n)
        }
        return n
    }
}

/// Gathers a stream's first bytes until its container and where its audio data starts are known,
/// then parses the header with the container's ``AudioFileFormat`` conformer. The container's
/// descriptor says how (``AudioFileFormatDescriptor/streamCutting``).
struct HeaderGatherer {
    /// Bytes looked at to recognise the container.
    static let detectionBytes = 64

    enum Container {
        case undetected
        case chunks(any AudioFileFormat.Type, ChunkWalker.Layout)
        case boxes(any AudioFileFormat.Type)
        case flac
    }

    enum Result {
        /// The header needs this many bytes from the start of the stream.
        case needMore(Int)
        /// An ADTS or MPEG audio stream: frames are found by their headers.
        case frames(FrameCutter)
        /// A parsed container: what it says (nil: the cutter says it before its first packet,
        /// as for MPEG audio in WAVE, whose data format is the first frame's), the cutter for its
        /// packets, and where the bytes the cutter gets start.
        case container(facts: StreamProperties?, cutter: any StreamCutter, headerEnd: Int)
    }

    private var container = Container.undetected
    /// Chunk types seen before the audio data.
    private var seen: Set<FourCharCode> = []
    /// Where the next chunk or box header starts, once the walk has begun.
    private var nextHeader: Int64?
    private var sawMovie = false

    mutating func advance(_ held: UnsafeRawBufferPointer, typeHint: AudioFileType?) throws(AudioFileStreamError) -> Result {
        if case .undetected = container {
            let prefix = UnsafeRawBufferPointer(rebasing: held.prefix(Self.detectionBytes))
            let byMagic = AudioFileFormats.descriptors.first { $0.reader.canRead(prefix: prefix) }
            // Without magic bytes only frames can be found, after tags or junk: a type hint
            // picks which kind, and else either kind is looked for.
            let byHint = typeHint.flatMap(AudioFileFormats.descriptor(reading:)).flatMap { $0.streamCutting.followsTypeHint ? $0 : nil }
            guard let descriptor = byMagic ?? byHint else { return .frames(FrameCutter(kind: .either)) }
            switch descriptor.streamCutting {
            case .chunks(let layout): container = .chunks(descriptor.reader, layout)
            case .boxes: container = .boxes(descriptor.reader)
            case .flacFrames: container = .flac
            case .frames(let kind): return .frames(FrameCutter(kind: kind))
            case .fromStart(let makeCutter), .syncFrames(let makeCutter): return .container(facts: nil, cutter: makeCutter(), headerEnd: 0)
            }
        }
        let headerEnd: Int
        let format: any AudioFileFormat.Type
        switch container {
        case .undetected:
            return .needMore(Self.detectionBytes)
        case .chunks(let reader, let layout):
            format = reader
            switch try locateData(held, layout: layout) {
            case .needMore(let count): return .needMore(count)
            case .found(let end): headerEnd = end
            }
        case .boxes(let reader):
            format = reader
            switch try locateMovieData(held) {
            case .needMore(let count): return .needMore(count)
            case .found(let end): headerEnd = end
            }
        case .flac:
            var position = nextHeader ?? 0
            let located = try StreamFLACHeader.locateAudio(held, position: &position)
            nextHeader = position
            guard let end = located.end else { return .needMore(located.need) }
            let (facts, cutter) = try StreamFLACHeader.parse(Array(held[0..<end]))
            return .container(facts: facts, cutter: cutter, headerEnd: end)
        }
        return try parse(Array(held[0..<headerEnd]), with: format)
    }

    private enum Located {
        case needMore(Int)
        case found(Int)
    }

    /// Where the header of a RIFF, IFF or CAF file ends: after the data chunk's header (and
    /// CAF's edit count, AIFF's SSND offset and block size). The chunk headers are walked as
    /// ``ChunkWalker`` walks them, on the bytes held, from where the last call stopped.
    private mutating func locateData(_ held: UnsafeRawBufferPointer, layout: ChunkWalker.Layout) throws(AudioFileStreamError) -> Located {
        let headerSize: Int64 = layout == .caf ? 12 : 8
        var position = nextHeader ?? (layout == .caf ? 8 : 12)
        while position <= Int64(held.count) - headerSize {
            let p = Int(position)
            let id = FourCharCode(held[p], held[p + 1], held[p + 2], held[p + 3])
            let size: Int64
            switch layout {
            case .riff: size = Int64(UInt32(held[p + 4]) | UInt32(held[p + 5]) << 8 | UInt32(held[p + 6]) << 16 | UInt32(held[p + 7]) << 24)
            case .iff: size = Int64(held.be32(p + 4))
            case .caf: size = Int64(bitPattern: held.be64(p + 4))
            }
            nextHeader = position
            if layout == .iff ? id == "SSND" : id == "data" {
                let end = position + headerSize + (layout == .riff ? 0 : layout == .caf ? 4 : 8)
                return end <= Int64(held.count) ? .found(Int(end)) : .needMore(Int(end))
            }
            seen.insert(id)
            guard size >= 0 else {
                throw AudioFileStreamError(.invalidFile, "chunk '\(id)' of \(size) bytes before the audio data", offset: position)
            }
            // A chunk that ends past the header cap (or past Int64) cannot precede data a
            // stream can reach.
            let (end, overflow) = (position + headerSize + (layout != .caf && size & 1 == 1 ? 1 : 0)).addingReportingOverflow(size)
            guard !overflow, end <= Int64(AudioFileStream.maximumHeaderBytes) else {
                throw AudioFileStreamError(
                    .invalidFile, "chunk '\(id)' of \(size) bytes before the audio data runs past the \(AudioFileStream.maximumHeaderBytes)-byte header limit",
                    offset: position)
            }
            position = end
        }
        nextHeader = position
        return .needMore(Int(clamping: position + headerSize))
    }

    /// Where the header of an MPEG-4 file ends: at the body of the first `mdat`, which must come
    /// after the `moov`. The top-level boxes are walked from where the last call stopped.
    private mutating func locateMovieData(_ held: UnsafeRawBufferPointer) throws(AudioFileStreamError) -> Located {
        var position = nextHeader ?? 0
        while true {
            nextHeader = position
            guard Int64(held.count) - position >= 16 else { return .needMore(Int(clamping: position + 16)) }
            let box: MP4Box?
            do {
                box = try MP4Box.parse(held, at: Int(position), base: 0, limit: StreamPrefixSource.unboundedSize)
            } catch {
                throw AudioFileStreamError(error)
            }
            guard let box else { return .needMore(Int(clamping: position + 16)) }
            if box.type == "mdat" {
                guard sawMovie else {
                    throw AudioFileStreamError(
                        .notOptimized, "the audio data ('mdat') comes before the 'moov' box that describes it", offset: box.offset)
                }
                return .found(Int(box.bodyOffset))
            }
            if box.type == "moov" { sawMovie = true }
            if held.be32(Int(position)) == 0 {
                throw AudioFileStreamError(.invalidFile, "'\(box.name)' runs to the end of the file before any audio data", offset: box.offset)
            }
            position = box.end
        }
    }

    /// Parses the header with the container's conformer `format` and works out what it says.
    private func parse(_ header: [UInt8], with format: any AudioFileFormat.Type) throws(AudioFileStreamError) -> Result {
        let source = StreamPrefixSource(held: header, size: StreamPrefixSource.unboundedSize)
        let parsed: any AudioFileFormat
        do {
            parsed = try format.init(reading: source)
        } catch {
            // What describes the audio comes after it: a stream cannot go back for it.
            if let chunk = error.chunk, ["fmt ", "COMM", "desc", "pakt"].contains(chunk), !seen.contains(FourCharCode(chunk)) {
                throw AudioFileStreamError(.notOptimized, "the '\(chunk)' chunk comes after the audio data, if at all", offset: nil)
            }
            throw AudioFileStreamError(error)
        }
        if let mp4 = parsed as? MP4Format, mp4.isFragmented {
            throw AudioFileStreamError(.unsupportedFileType, "fragmented MPEG-4 streams are not supported", offset: nil)
        }
        let end = parsed.dataOffset.addingReportingOverflow(parsed.dataByteCount)
        let sized = !end.overflow && end.partialValue < StreamPrefixSource.unboundedSize

        var facts = StreamProperties()
        facts.fileType = parsed.fileType
        facts.dataFormat = parsed.dataFormat
        facts.magicCookie = parsed.magicCookie
        facts.dataOffset = parsed.dataOffset
        facts.channelLayout = parsed.channelLayout
        facts.info = parsed.info
        facts.packetTableInfo = parsed.packetTableInfo
        facts.maximumPacketSize = UInt32(clamping: AudioFile.maximumPacketSize(of: parsed))
        facts.packetSizeUpperBound = UInt32(clamping: AudioFile.packetSizeUpperBound(of: parsed))
        facts.ready = true
        if sized { facts.byteCount = UInt64(parsed.dataByteCount) }

        let cutter: any StreamCutter
        switch parsed.packets {
        case .constant(let bytesPerPacket, let count):
            if sized { facts.packetCount = UInt64(max(0, count)) }
            if let wave = parsed as? WAVEFormat, wave.formatTag == WAVEFormat.Tag.mpeg || wave.formatTag == WAVEFormat.Tag.mpegLayer3 {
                // The frames are walked as WAVEFormat walks them, up to the end of the data chunk.
                facts.packetCount = nil
                facts.maximumPacketSize = nil
                facts.packetSizeUpperBound = nil
                let cutter = FrameCutter(mpegIn: facts, dataEnd: sized ? parsed.dataOffset + parsed.dataByteCount : nil)
                return .container(facts: nil, cutter: cutter, headerEnd: header.count)
            }
            if let wave = parsed as? WAVEFormat, wave.formatTag == WAVEFormat.Tag.ac3 {
                // AC-3 frames, walked as WAVEFormat walks them, up to the end of the data chunk.
                facts.packetCount = nil
                facts.maximumPacketSize = nil
                facts.packetSizeUpperBound = nil
                let cutter = AC3Cutter(in: facts, dataEnd: sized ? parsed.dataOffset + parsed.dataByteCount : nil)
                return .container(facts: nil, cutter: cutter, headerEnd: header.count)
            }
            if parsed.dataFormat.bytesPerPacket == 0 {
                cutter = NoPacketsCutter()
                facts.packetCount = 0
            } else {
                // The packets the header counts (an AIFF COMM may count fewer than SSND holds).
                let counted = max(0, count).multipliedReportingOverflow(by: Int64(bytesPerPacket))
                let bytes = counted.overflow ? parsed.dataByteCount : min(parsed.dataByteCount, counted.partialValue)
                cutter = ConstantCutter(
                    bytesPerPacket: bytesPerPacket, dataOffset: parsed.dataOffset, dataEnd: sized ? parsed.dataOffset + bytes : nil)
            }
        case .table(let table):
            facts.packetCount = UInt64(table.count)
            cutter = try TableCutter(table: table, dataOffset: parsed.dataOffset)
        }
        return .container(facts: facts, cutter: cutter, headerEnd: header.count)
    }
}
