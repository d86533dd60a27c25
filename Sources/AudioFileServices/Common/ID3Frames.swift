import AudioCore

/// The ID3v2 frames beyond text: attached pictures (`APIC`, v2.2 `PIC`) and chapters (`CHAP`,
/// from the ID3v2 Chapter Frame Addendum).
extension ID3v2 {
    /// The pictures of a whole tag, in tag order.
    static func pictures(_ tag: [UInt8]) -> [AudioFilePicture] {
        frames(tag).compactMap(picture)
    }

    /// An `APIC` body (encoding, MIME type, picture type, description, data) or a `PIC` body
    /// (encoding, three-letter image format, picture type, description, data). Linked pictures
    /// (MIME type `-->`) have no bytes and are left out.
    static func picture(_ frame: Frame) -> AudioFilePicture? {
        guard frame.id == "APIC" || frame.id == "PIC" else { return nil }
        var b = frame.body
        guard b.count >= 4 else { return nil }
        let encoding = b.removeFirst()
        var mime: String
        if frame.id == "PIC" {
            mime = String(decoding: b.prefix(3), as: UTF8.self)
            b = b.dropFirst(3)
            switch mime.uppercased() {
            case "JPG": mime = "image/jpeg"
            case "PNG": mime = "image/png"
            case "GIF": mime = "image/gif"
            case "BMP": mime = "image/bmp"
            default: break
            }
        } else {
            let parts = splitTerminated(b, encoding: 0)
            mime = String(decoding: parts.head, as: UTF8.self)
            b = parts.rest
        }
        guard mime != "-->", let type = b.first else { return nil }
        b = b.dropFirst()
        let description = splitTerminated(b, encoding: encoding)
        guard !description.rest.isEmpty else { return nil }
        if mime.isEmpty || !mime.contains("/") { mime = AudioFilePicture.sniffMIMEType(description.rest) ?? mime }
        return AudioFilePicture(
            type: AudioFilePicture.PictureType(rawValue: UInt32(type)), mimeType: mime,
            description: decode(description.head, encoding: encoding), data: Array(description.rest))
    }

    /// The chapters of a whole tag (`CHAP` frames: element ID, start and end in milliseconds,
    /// byte offsets, then sub-frames whose `TIT2` is the title), by start time.
    static func chapters(_ tag: [UInt8]) -> [AudioFileChapter] {
        guard tag.count >= 10 else { return [] }
        return chapters(frames(tag), version: tag[3])
    }

    static func chapters(_ frames: [Frame], version: UInt8) -> [AudioFileChapter] {
        var out: [(start: UInt32, chapter: AudioFileChapter)] = []
        for frame in frames where frame.id == "CHAP" {
            let b = Array(frame.body)
            guard let end = b.firstIndex(of: 0), end + 17 <= b.count else { continue }
            let element = String(decoding: b[..<end], as: UTF8.self)
            let start = b.be32(end + 1)
            let sub = Self.frames(b, from: end + 17, to: b.count, version: version)
            let title = info(sub).first { $0.key == "title" }?.value ?? element
            out.append((start, AudioFileChapter(startTime: Double(start) / 1000, title: title)))
        }
        // A stable sort: chapters listed out of order (a CTOC may order them) come by start time.
        return out.enumerated().sorted { ($0.element.start, $0.offset) < ($1.element.start, $1.offset) }.map(\.element.chapter)
    }

    /// Text, pictures' absence and chapters of every tag in `tags` at once: what a container
    /// keeps from its ID3v2 tags when it opens.
    static func summary(_ tags: [[UInt8]]) -> (info: [(key: String, value: String)], chapters: [AudioFileChapter]) {
        var info: [(key: String, value: String)] = []
        var chapters: [AudioFileChapter] = []
        for tag in tags {
            let all = frames(tag)
            info += Self.info(all)
            if tag.count >= 10 { chapters += Self.chapters(all, version: tag[3]) }
        }
        return (info, chapters)
    }
}

/// The ID3v2 tags of a RIFF or IFF file's `id3 `/`ID3 ` chunks, gathered during the chunk walk.
struct ID3Chunks {
    private(set) var tags: [[UInt8]] = []
    private(set) var locations: [ArtworkLocation] = []

    /// Notes the tag in `chunk` and reads it for its text (a large one without its pictures).
    mutating func add(_ chunk: ChunkHeader, _ source: any AudioByteSource) throws(AudioFileError) {
        let size = try chunk.checkedSize(fileSize: source.size)
        locations.append(.id3v2(offset: chunk.bodyOffset, size: size))
        if let tag = ID3v2.readForText(source, offset: chunk.bodyOffset, size: size) { tags.append(tag) }
    }

    /// The tags' text and chapters.
    var summary: (info: [(key: String, value: String)], chapters: [AudioFileChapter]) { ID3v2.summary(tags) }
}

extension ID3v2 {
    /// Tags up to this size are read whole; larger ones frame by frame.
    static let wholeTagSize: Int64 = 1 << 20
    /// Frames larger than this, and pictures and objects, are stepped over in a large tag.
    static let largestKeptFrame = 1 << 16

    /// The tag of `size` bytes at `offset` in `source`, for its text and chapters: read whole when
    /// small, else rebuilt from its frame headers without the pictures, objects and frames over
    /// 64 KiB (a cover of megabytes is never read to find the title). A large unsynchronised
    /// 2.2/2.3 tag cannot be walked unread and gives nil, as does a tag that cannot be read.
    static func readForText(_ source: any AudioByteSource, offset: Int64, size: Int64) -> [UInt8]? {
        guard size >= 10, offset >= 0, size <= source.size - offset else { return nil }
        if size <= wholeTagSize { return try? source.bytes(at: offset, count: Int(size), chunk: "ID3 ") }
        guard let header = try? source.bytes(at: offset, count: 10, chunk: "ID3 "),
              header[0] == 0x49, header[1] == 0x44, header[2] == 0x33, (2...4).contains(header[3]),
              header[5] & 0x80 == 0 || header[3] == 4
        else { return nil }
        let version = header[3]
        let end = offset + 10 + Int64(syncsafe(header, 6))
        var p = offset + 10
        if header[5] & 0x40 != 0 && version >= 3 {
            guard let e = try? source.bytes(at: p, count: 4, chunk: "ID3 ") else { return nil }
            p += Int64(version == 4 ? syncsafe(e, 0) : Int(e.be32(0)) + 4)
        }
        let headerLength = version == 2 ? 6 : 10
        var kept: [UInt8] = []
        var walked = 0
        // Frames skipped unread (pictures, large frames) keep nothing: the walk is bounded by a
        // frame count too, as the in-memory frame walk is.
        while p + Int64(headerLength) <= min(end, offset + size), kept.count < Int(wholeTagSize), walked < 4096 {
            walked += 1
            guard let h = try? source.bytes(at: p, count: headerLength, chunk: "ID3 "), h[0] != 0 else { break }
            let id = String(decoding: h[0..<(version == 2 ? 3 : 4)], as: UTF8.self)
            let frameSize = switch version {
            case 2: Int(h[3]) << 16 | Int(h[4]) << 8 | Int(h[5])
            case 3: Int(h.be32(4))
            default: syncsafe(h, 4)
            }
            let next = p + Int64(headerLength) + Int64(frameSize)
            guard next <= end else { break }
            if !["APIC", "PIC", "GEOB", "GEO"].contains(id), frameSize <= largestKeptFrame,
               let body = try? source.bytes(at: p + Int64(headerLength), count: frameSize, chunk: "ID3 ")
            {
                kept += h + body
            }
            p = next
        }
        // The same version and flags, without the extended header and the footer.
        return [0x49, 0x44, 0x33, version, header[4], header[5] & 0x80, UInt8(kept.count >> 21 & 0x7F), UInt8(kept.count >> 14 & 0x7F),
                UInt8(kept.count >> 7 & 0x7F), UInt8(kept.count & 0x7F)] + kept
    }
}
