import AudioCore

/// One box (QuickTime: atom) of an ISO base media file (ISO/IEC 14496-12, 4.2): a 32-bit size and
/// a type, a 64-bit `largesize` when the size is 1, and a size of 0 for a box that runs to the end
/// of its container (the file, at the top level).
struct MP4Box {
    /// The box type.
    let type: FourCharCode
    /// Where the box header starts, in the file.
    let offset: Int64
    /// 8, or 16 with a `largesize`.
    let headerSize: Int64
    /// Where the box ends (header included), after the size has been checked.
    let end: Int64

    var bodyOffset: Int64 { offset + headerSize }
    var bodySize: Int64 { end - bodyOffset }
    var name: String { type.description }

    /// Reads the header at `offset` from `bytes` (indices relative to `base` in the file) and
    /// checks the size against `limit`, the end of the enclosing box. Returns nil when fewer than
    /// 8 bytes remain (the walk ends there); throws `invalidChunk` for a size smaller than the
    /// header or one that runs past the container.
    static func parse(_ bytes: UnsafeRawBufferPointer, at index: Int, base: Int64, limit: Int64) throws(AudioFileError) -> MP4Box? {
        let offset = base + Int64(index)
        guard limit - offset >= 8, bytes.count - index >= 8 else { return nil }
        let size32 = bytes.be32(index)
        let type = FourCharCode(rawValue: bytes.be32(index + 4))
        var header: Int64 = 8
        var size = Int64(size32)
        if size32 == 1 {
            guard limit - offset >= 16, bytes.count - index >= 16 else {
                throw AudioFileError(.invalidChunk, "box with a 64-bit size ends inside its header", chunk: type.description, offset: offset)
            }
            header = 16
            let large = bytes.be64(index + 8)
            guard large <= UInt64(Int64.max) else {
                throw AudioFileError(.invalidChunk, "box size \(large) is out of range", chunk: type.description, offset: offset)
            }
            size = Int64(large)
        } else if size32 == 0 {
            size = limit - offset  // runs to the end of the container
        }
        guard size >= header else {
            throw AudioFileError(.invalidChunk, "box size \(size) is smaller than its \(header)-byte header", chunk: type.description, offset: offset)
        }
        guard size <= limit - offset else {
            throw AudioFileError(
                .invalidChunk, "box of \(size) bytes runs past its container, which ends \(limit - offset) bytes on",
                chunk: type.description, offset: offset)
        }
        return MP4Box(type: type, offset: offset, headerSize: header, end: offset + size)
    }
}

extension UnsafeRawBufferPointer {
    @inline(__always) func be16(_ p: Int) -> UInt16 { UInt16(self[p]) << 8 | UInt16(self[p + 1]) }
    @inline(__always) func be32(_ p: Int) -> UInt32 {
        UInt32(self[p]) << 24 | UInt32(self[p + 1]) << 16 | UInt32(self[p + 2]) << 8 | UInt32(self[p + 3])
    }
    @inline(__always) func be64(_ p: Int) -> UInt64 { UInt64(be32(p)) << 32 | UInt64(be32(p + 4)) }
}

/// The boxes of one `moov`, indexed as a tree by reading their headers through a window (the
/// bodies stay in the file until a parser asks for one, so cover art is never read). Only known
/// container boxes are descended into, at most ``maximumDepth`` levels deep; each walk moves
/// forward by at least a header, and every size is checked against its container.
struct MP4BoxTree {
    /// A box and its children (indices into ``nodes``).
    struct Node {
        let box: MP4Box
        var children: [Int] = []
    }

    /// Nesting deeper than this is refused: no real file comes near it.
    static let maximumDepth = 16
    /// At most this many boxes are indexed.
    static let maximumBoxes = 1 << 16

    /// Boxes whose bodies are nothing but boxes.
    static let containers: Set<FourCharCode> = [
        "moov", "trak", "mdia", "minf", "stbl", "udta", "edts", "dinf", "mvex", "tref", "ilst", "sinf", "wave", "moof", "traf",
    ]

    let source: any AudioByteSource
    private(set) var nodes: [Node] = []

    init(source: some AudioByteSource, root: MP4Box) throws(AudioFileError) {
        self.source = source
        nodes.append(Node(box: root))
        // A window no larger than the box: a fragmented file has thousands of small moofs.
        var reader = WindowReader(source, windowSize: Int(max(16, min(root.end - root.offset, 1 << 16))))
        try index(&reader, parent: 0, depth: 1)
    }

    private mutating func index(_ reader: inout WindowReader, parent: Int, depth: Int) throws(AudioFileError) {
        let box = nodes[parent].box
        guard depth <= Self.maximumDepth else {
            throw AudioFileError(.invalidChunk, "boxes nested more than \(Self.maximumDepth) deep", chunk: box.name, offset: box.offset)
        }
        var position = box.bodyOffset
        if box.type == "meta" { position += try metaHeaderSkip(&reader, box: box) }
        let isList = box.type == "ilst"
        while box.end - position >= 8 {
            let want = Int(min(16, box.end - position))
            guard let i = try reader.load(position, want) else {
                throw AudioFileError(.invalidChunk, "the file ends inside the box", chunk: box.name, offset: box.offset)
            }
            let found: MP4Box? = try reader.window.withBytes { raw throws(AudioFileError) in
                try MP4Box.parse(UnsafeRawBufferPointer(rebasing: raw[i..<(i + want)]), at: 0, base: position, limit: box.end)
            }
            guard let child = found else { break }
            guard nodes.count < Self.maximumBoxes else {
                throw AudioFileError(.invalidChunk, "more than \(Self.maximumBoxes) boxes", chunk: child.name, offset: child.offset)
            }
            let index = nodes.count
            nodes.append(Node(box: child))
            nodes[parent].children.append(index)
            if Self.containers.contains(child.type) || child.type == "meta" || isList {
                try self.index(&reader, parent: index, depth: depth + 1)
            }
            position = child.end  // at least a header on: the walk always advances
        }
    }

    /// `meta` is a full box in ISO files (4 bytes of version and flags before its children) but
    /// a plain container in QuickTime files, where a box header comes first.
    private func metaHeaderSkip(_ reader: inout WindowReader, box: MP4Box) throws(AudioFileError) -> Int64 {
        guard box.bodySize >= 12, let i = try reader.load(box.bodyOffset, 8) else { return min(4, box.bodySize) }
        let type = FourCharCode(rawValue: reader.window.be32(i + 4))
        return type == "hdlr" || type == "keys" || type == "ilst" ? 0 : 4
    }

    var root: Int { 0 }

    /// The children of `node` of type `type`.
    func children(_ node: Int, _ type: FourCharCode) -> [Int] {
        nodes[node].children.filter { nodes[$0].box.type == type }
    }

    /// The first child of `node` of type `type`.
    func child(_ node: Int, _ type: FourCharCode) -> Int? {
        nodes[node].children.first { nodes[$0].box.type == type }
    }

    /// The first box along `path` below `node`.
    func find(_ node: Int, _ path: [FourCharCode]) -> Int? {
        var current = node
        for type in path {
            guard let next = child(current, type) else { return nil }
            current = next
        }
        return current
    }

    func box(_ node: Int) -> MP4Box { nodes[node].box }

    /// The body of `node`, read with one call (its size was checked against its container, and
    /// the containers' against the file, when the tree was built).
    func body(_ node: Int) throws(AudioFileError) -> [UInt8] {
        let box = nodes[node].box
        return try source.bytes(at: box.bodyOffset, count: Int(box.bodySize), chunk: box.name)
    }

    /// A reader over the body of `node`.
    func reader(_ node: Int) throws(AudioFileError) -> ByteReader {
        ByteReader(try body(node), fileOffset: nodes[node].box.offset, chunk: nodes[node].box.name)
    }
}

/// The top-level boxes of a file, walked with one small read per box header.
enum MP4TopLevel {
    /// At most this many `ftyp`, `moov`, `mdat` and `moof` boxes (a 1-hour file fragmented at
    /// every packet has about 160 000).
    static let maximumBoxes = 1 << 22

    /// The `ftyp`, `moov`, `mdat` and `moof` boxes at the top of the file, in order, read through a window (a fragmented file has
    /// thousands). A `moov` that runs past the end of the file is an error; any other box that
    /// does ends the walk (it is kept, its end clamped, only when it is `mdat`, whose samples are
    /// checked one by one; a cut-off final `moof` is dropped, as a cut-off final frame is); a
    /// header that cannot be a box ends the walk too.
    static func walk(_ source: some AudioByteSource) throws(AudioFileError) -> [MP4Box] {
        // Only the boxes a reader needs are kept, so a file of tiny boxes costs no memory.
        let kept: Set<FourCharCode> = ["ftyp", "moov", "mdat", "moof"]
        var boxes: [MP4Box] = []
        var reader = WindowReader(source, windowSize: 1 << 16)
        var position: Int64 = 0
        let size = source.size
        while size - position >= 8 {
            let count = Int(min(16, size - position))
            guard let i = try reader.load(position, count) else { break }
            let found: MP4Box?
            do {
                found = try reader.window.withBytes { raw throws(AudioFileError) in
                    try MP4Box.parse(UnsafeRawBufferPointer(rebasing: raw[i..<(i + count)]), at: 0, base: position, limit: .max)
                }
            } catch {
                break
            }
            guard let box = found else { break }
            let declaredEnd = reader.window.be32(i) == 0 ? size : box.end
            if declaredEnd > size {
                if box.type == "mdat" {
                    boxes.append(MP4Box(type: box.type, offset: box.offset, headerSize: box.headerSize, end: size))
                } else if box.type == "moov" {
                    throw AudioFileError(
                        .invalidChunk, "\(box.name) declares \(box.end - box.offset) bytes but the file ends \(size - box.offset) bytes on",
                        chunk: box.name, offset: box.offset)
                }
                break
            }
            if kept.contains(box.type) {
                guard boxes.count < maximumBoxes else {
                    throw AudioFileError(.invalidChunk, "more than \(maximumBoxes) top-level boxes", chunk: box.name, offset: box.offset)
                }
                boxes.append(box)
            }
            position = declaredEnd  // at least a header on
        }
        return boxes
    }
}

/// The body of one box read into memory it owns: the sample tables are parsed in place from it,
/// with no per-entry copies.
final class MP4BoxBody {
    let raw: UnsafeRawBufferPointer
    let box: MP4Box

    init(_ tree: MP4BoxTree, _ node: Int) throws(AudioFileError) {
        box = tree.box(node)
        let count = Int(box.bodySize)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(count, 1), alignment: 8)
        raw = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(buffer)[0..<count])
        let got = try tree.source.read(at: box.bodyOffset, into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<count]))
        guard got == count else {
            buffer.deallocate()
            throw AudioFileError(.invalidChunk, "the file ends inside the box (\(got) of \(count) bytes)", chunk: box.name, offset: box.offset)
        }
    }

    deinit { UnsafeMutableRawBufferPointer(mutating: raw).deallocate() }

    var count: Int { raw.count }
    func error(_ reason: String, _ code: AudioFileError.Code = .invalidChunk) -> AudioFileError {
        AudioFileError(code, reason, chunk: box.name, offset: box.offset)
    }
}
