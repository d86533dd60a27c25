import AudioCore

/// Sequential reads through a window of the source, so walking many small headers costs one
/// system call per window rather than one per header.
struct WindowReader {
    let source: any AudioByteSource
    private(set) var window: [UInt8] = []
    private(set) var windowStart: Int64 = 0
    let windowSize: Int

    init(_ source: any AudioByteSource, windowSize: Int = 1 << 18) {
        self.source = source
        self.windowSize = windowSize
    }

    /// Makes `[offset, offset + count)` resident and returns the index of `offset` in ``window``,
    /// or nil when the source ends first. `count` must not exceed the window size.
    mutating func load(_ offset: Int64, _ count: Int) throws(AudioFileError) -> Int? {
        precondition(count <= windowSize)
        guard offset >= 0, offset <= source.size - Int64(count) else { return nil }
        if offset >= windowStart && offset + Int64(count) <= windowStart + Int64(window.count) {
            return Int(offset - windowStart)
        }
        let n = Int(min(Int64(windowSize), source.size - offset))
        if window.count != n { window = [UInt8](repeating: 0, count: n) }
        let source = self.source
        let got = try window.withMutableBytes { buffer throws(AudioFileError) in
            try source.read(at: offset, into: buffer)
        }
        windowStart = offset
        if got < n { window.removeLast(n - got) }
        return got >= count ? 0 : nil
    }
}

extension WindowReader {
    /// Up to `count` bytes at `offset` without moving the window: from the window where it holds
    /// them, else by a separate small read. For looking ahead while scanning.
    func peek(_ offset: Int64, _ count: Int) throws(AudioFileError) -> [UInt8] {
        guard offset >= 0, offset < source.size else { return [] }
        let n = Int(min(Int64(count), source.size - offset))
        if offset >= windowStart && offset + Int64(n) <= windowStart + Int64(window.count) {
            let i = Int(offset - windowStart)
            return Array(window[i..<(i + n)])
        }
        return try source.bytes(at: offset, count: n, chunk: "peek")
    }
}

/// A chunk header as found in the file.
struct ChunkHeader {
    /// The chunk's type, e.g. `'fmt '`.
    let id: FourCharCode
    /// Where the header starts.
    let offset: Int64
    /// Where the body starts.
    let bodyOffset: Int64
    /// The size the header declares for the body (CAF: may be -1; RIFF: 0xFFFFFFFF is kept as is).
    let declaredSize: Int64

    var name: String { id.description }

    /// The body's byte count once checked to lie inside a source of `fileSize` bytes, or
    /// `invalidChunk` naming the chunk when it runs past the end.
    func checkedSize(fileSize: Int64) throws(AudioFileError) -> Int64 {
        guard declaredSize >= 0, declaredSize <= fileSize - bodyOffset else {
            throw AudioFileError(
                .invalidChunk,
                "chunk declares \(declaredSize) bytes but the file has \(max(0, fileSize - bodyOffset)) after its header",
                chunk: name, offset: offset)
        }
        return declaredSize
    }

    /// True when the body is small enough to read for metadata (1 MiB); larger text chunks are
    /// checked and skipped rather than loaded.
    func isReadableMetadata(fileSize: Int64) throws(AudioFileError) -> Bool {
        try checkedSize(fileSize: fileSize) <= 1 << 20
    }

    /// Reads the whole body (after ``checkedSize(fileSize:)``) and checks it holds at least
    /// `minimum` bytes.
    func body(_ source: any AudioByteSource, minimum: Int) throws(AudioFileError) -> ByteReader {
        let size = try checkedSize(fileSize: source.size)
        guard size >= Int64(minimum) else {
            throw AudioFileError(
                .invalidChunk, "chunk of \(size) bytes is shorter than its \(minimum) fixed bytes",
                chunk: name, offset: offset)
        }
        let bytes = try source.bytes(at: bodyOffset, count: Int(size), chunk: name)
        return ByteReader(bytes, fileOffset: offset, chunk: name)
    }
}

/// Walks the chunks of a RIFF, IFF (AIFF) or CAF file from `start` to `end`.
struct ChunkWalker {
    enum Layout {
        /// 4-byte ID, 32-bit little-endian size, bodies padded to even length (RIFF/WAVE/RF64).
        case riff
        /// 4-byte ID, 32-bit big-endian size, bodies padded to even length (IFF/AIFF).
        case iff
        /// 4-byte ID, 64-bit big-endian signed size, no padding (CAF).
        case caf
    }

    private var reader: WindowReader
    let layout: Layout
    private(set) var position: Int64
    let end: Int64
    /// Where the container's header says it ends (RIFF, RF64 `ds64` or FORM size), when that is
    /// before the end of the file.
    private(set) var containerEnd: (offset: Int64, chunk: String)?
    /// Set by the reader once it holds the format chunk and the start of the audio data: from
    /// then on, bytes after ``containerEnd`` and a chunk running past the end of the file end the
    /// walk (recorded in ``repairs``) instead of being returned.
    var tolerant = false
    /// The damage the walk and the reader worked around.
    private(set) var repairs: [AudioFileRepair] = []
    /// Where the walk was when it became tolerant: a container end before it does not even cover
    /// the audio data, so it is a writer's placeholder, not where the container ends.
    private var toleratedFrom: Int64?

    init(_ source: any AudioByteSource, layout: Layout, start: Int64, end: Int64? = nil) {
        reader = WindowReader(source, windowSize: 1 << 16)
        self.layout = layout
        position = start
        self.end = min(end ?? source.size, source.size)
    }

    var headerSize: Int64 { layout == .caf ? 12 : 8 }

    /// Records that the container `chunk` declares it ends at `offset` (its header's size plus
    /// the header), where that is before the end of the file.
    mutating func setContainerEnd(_ offset: Int64, chunk: String) {
        containerEnd = offset >= 0 && offset < end ? (offset, chunk) : nil
    }

    /// The bytes of the audio data chunk `header` declaring `declared` bytes: all of them where the
    /// file holds them, else (a recording cut short) what the file holds after the header,
    /// recorded as ``AudioFileRepair/Kind/audioDataTruncated``.
    mutating func audioDataSize(_ header: ChunkHeader, declared: Int64) -> Int64 {
        let available = max(0, end - header.bodyOffset)
        guard declared > available else { return declared }
        repairs.append(AudioFileRepair(
            kind: .audioDataTruncated, chunk: header.name, offset: header.offset, declaredSize: declared, availableSize: available))
        return available
    }

    /// Continues the walk after `header`'s body of `bodySize` bytes (plus pad byte) rather than
    /// after the size its header declares: for RF64, whose data chunk size is in `ds64`. The walk
    /// still only moves forward: the next chunk starts after this one's header.
    mutating func resume(after header: ChunkHeader, bodySize: Int64) {
        let next = header.bodyOffset + bodySize + (layout != .caf && bodySize & 1 == 1 ? 1 : 0)
        position = bodySize < 0 || next > end ? end : next
    }

    /// The next chunk header, or nil when fewer bytes than a header remain. The walk moves past
    /// the declared body (plus pad byte); a size that cannot be skipped ends the walk after this
    /// chunk. The walk always moves forward, so a size of 0 cannot make it loop.
    mutating func next() throws(AudioFileError) -> ChunkHeader? {
        if tolerant && toleratedFrom == nil {
            toleratedFrom = position
            if let container = containerEnd, container.offset < position { containerEnd = nil }
        }
        if tolerant, let container = containerEnd, position >= container.offset {
            if position < end {
                repairs.append(AudioFileRepair(
                    kind: .bytesAfterContainer, chunk: container.chunk, offset: position, declaredSize: container.offset,
                    availableSize: end - position))
            }
            position = end
            return nil
        }
        guard position <= end - headerSize, let i = try reader.load(position, Int(headerSize)) else { return nil }
        let w = reader.window
        let id = FourCharCode(rawValue: w.be32(i))
        let size: Int64
        switch layout {
        case .riff: size = Int64(w.le32(i + 4))
        case .iff: size = Int64(w.be32(i + 4))
        case .caf: size = Int64(bitPattern: w.be64(i + 4))
        }
        let header = ChunkHeader(id: id, offset: position, bodyOffset: position + headerSize, declaredSize: size)
        if size < 0 || size > end - header.bodyOffset {
            position = end
            if tolerant && !(layout == .caf && size == -1 && id == "data") {
                repairs.append(AudioFileRepair(
                    kind: .chunkPastEndOfFile, chunk: header.name, offset: header.offset, declaredSize: size,
                    availableSize: end - header.bodyOffset))
                return nil
            }
        } else {
            position = header.bodyOffset + size + (layout != .caf && size & 1 == 1 ? 1 : 0)
        }
        return header
    }
}
