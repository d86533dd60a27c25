import AudioCore

/// The ID3v2 tags at the start of a file of frames (MPEG audio, ADTS), read through the window
/// the frame walk goes on with, and what they say.
struct LeadingTags {
    /// The window, positioned past the tags.
    var reader: WindowReader
    /// Where the audio starts.
    let end: Int64
    /// Each tag's bytes for its text.
    let tags: [[UInt8]]
    /// Where each tag lies, for its pictures.
    let artwork: [ArtworkLocation]
    /// The tags' text under Apple's info keys.
    let info: [(key: String, value: String)]
    /// The tags' `CHAP` frames.
    let chapters: [AudioFileChapter]

    init(_ source: some AudioByteSource) throws(AudioFileError) {
        reader = WindowReader(source)
        let leading = try MP3Tags.leadingID3(&reader, size: source.size)
        (end, tags, artwork) = (leading.end, leading.tags, leading.artwork)
        (info, chapters) = ID3v2.summary(tags)
    }
}

/// The tags around and inside an MPEG audio stream: ID3v2 before it, ID3v1 and APEv2 after it,
/// and the Xing/Info, VBRI and LAME headers its first frame may carry.
enum MP3Tags {
    /// The ID3v2 tags at the start of a file (v2.2, 2.3, 2.4; footer flag honoured): where the
    /// audio starts, each tag's bytes for its text (``ID3v2/readForText(_:offset:size:)``: a
    /// large tag without its pictures), and where each tag lies (for its pictures, read when
    /// asked for). `readTags` false only finds where the audio starts.
    static func leadingID3(_ reader: inout WindowReader, size: Int64, readTags: Bool = true) throws(AudioFileError) -> (
        end: Int64, tags: [[UInt8]], artwork: [ArtworkLocation]
    ) {
        var position: Int64 = 0
        var tags: [[UInt8]] = []
        var artwork: [ArtworkLocation] = []
        while let i = try reader.load(position, 10) {
            let w = reader.window
            guard let tagSize = id3v2Size(Array(w[i..<(i + 10)])) else {
                // Padding after a tag's declared end may come before another tag (ID3v2.4 §3.3):
                // zeros, then "ID3", is one more tag, not audio.
                if !artwork.isEmpty, let next = try afterZeros(&reader, from: position, size: size), next > position {
                    position = next
                    continue
                }
                break
            }
            if tagSize <= size - position {
                artwork.append(.id3v2(offset: position, size: tagSize))
                if readTags, let tag = ID3v2.readForText(reader.source, offset: position, size: tagSize) {
                    tags.append(tag)
                }
            }
            position += tagSize
        }
        return (position, tags, artwork)
    }

    /// Where the zero bytes from `from` end, when an ID3v2 tag header follows them within 64 KiB;
    /// nil otherwise.
    private static func afterZeros(_ reader: inout WindowReader, from: Int64, size: Int64) throws(AudioFileError) -> Int64? {
        var p = from
        let limit = min(size, from + 65536)
        while p < limit, let i = try reader.load(p, 1), reader.window[i] == 0 { p += 1 }
        guard p > from, let i = try reader.load(p, 10), id3v2Size(Array(reader.window[i..<(i + 10)])) != nil else { return nil }
        return p
    }

    /// The whole length of the ID3v2 tag whose 10-byte header is `h` (footer included), or nil.
    static func id3v2Size(_ h: [UInt8]) -> Int64? {
        guard h.count >= 10, h[0] == 0x49, h[1] == 0x44, h[2] == 0x33, h[3] != 0xFF, h[4] != 0xFF,
              (h[6] | h[7] | h[8] | h[9]) & 0x80 == 0
        else { return nil }
        let body = Int64(h[6]) << 21 | Int64(h[7]) << 14 | Int64(h[8]) << 7 | Int64(h[9])
        return 10 + body + (h[5] & 0x10 != 0 ? 10 : 0)
    }

    /// Tags at the end of the file: where the audio ends (before an ID3v1 `TAG` block, an APEv2
    /// tag, a Lyrics3 v2.00 block and an ID3v2.4 tag with a footer, in any order) and their text
    /// under Apple's info keys (a Lyrics3 block's is not read).
    static func trailing(_ source: some AudioByteSource, start: Int64) throws(AudioFileError) -> (
        end: Int64, info: [(key: String, value: String)], artwork: [ArtworkLocation]
    ) {
        var end = source.size
        var info: [(key: String, value: String)] = []
        var artwork: [ArtworkLocation] = []
        for _ in 0..<4 {
            if let lyrics = try lyrics3v2Size(source, start: start, end: end) {
                end -= lyrics
                continue
            }
            if end - start >= 20 {
                // ID3v2.4 §3.4: a footer ("3DI") lets a tag appended after the audio be found from the end.
                var footer = try source.bytes(at: end - 10, count: 10, chunk: "ID3 ")
                if footer[0] == 0x33, footer[1] == 0x44, footer[2] == 0x49 {
                    footer[0] = 0x49
                    footer[2] = 0x33
                    if let size = id3v2Size(footer), size <= end - start {
                        let offset = end - size
                        artwork.append(.id3v2(offset: offset, size: size))
                        if let tag = ID3v2.readForText(source, offset: offset, size: size) { info += ID3v2.summary([tag]).info }
                        end = offset
                        continue
                    }
                }
            }
            if end - start >= 128 {
                let v1 = try source.bytes(at: end - 128, count: 128, chunk: "TAG ")
                if v1[0] == 0x54, v1[1] == 0x41, v1[2] == 0x47 {
                    info += id3v1(v1)
                    end -= 128
                    continue
                }
            }
            if end - start >= 32 {
                let footer = try source.bytes(at: end - 32, count: 32, chunk: "APE ")
                if Array(footer[0..<8]) == Array("APETAGEX".utf8) {
                    let tagSize = Int64(footer.le32(12))
                    let hasHeader = footer.le32(20) & 0x8000_0000 != 0
                    let whole = tagSize + (hasHeader ? 32 : 0)
                    if tagSize >= 32, whole <= end - start {
                        artwork.append(.apeItems(offset: end - tagSize, size: tagSize - 32, count: Int(footer.le32(16))))
                        if tagSize <= 1 << 20 {
                            let items = try source.bytes(at: end - tagSize, count: Int(tagSize - 32), chunk: "APE ")
                            info += ape(items, count: Int(footer.le32(16)))
                        }
                        end -= whole
                        continue
                    }
                }
            }
            break
        }
        return (end, info, artwork)
    }

    /// The length of a Lyrics3 v2.00 block ending at `end`: `LYRICSBEGIN`, its fields, their
    /// size in six digits and `LYRICS200`; nil where none ends there.
    static func lyrics3v2Size(_ source: some AudioByteSource, start: Int64, end: Int64) throws(AudioFileError) -> Int64? {
        guard end - start >= 15 + 11 else { return nil }
        let tail = try source.bytes(at: end - 15, count: 15, chunk: "LYRICS200")
        guard Array(tail[6...]) == Array("LYRICS200".utf8), tail[..<6].allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        let size = tail[..<6].reduce(Int64(0)) { $0 * 10 + Int64($1 - 0x30) }
        guard size >= 11, size + 15 <= end - start,
              try source.bytes(at: end - 15 - size, count: 11, chunk: "LYRICSBEGIN") == Array("LYRICSBEGIN".utf8)
        else { return nil }
        return size + 15
    }

    /// The fields of an ID3v1 (or v1.1) tag.
    static func id3v1(_ t: [UInt8]) -> [(key: String, value: String)] {
        func text(_ range: Range<Int>) -> String {
            var bytes = Array(t[range])
            while let last = bytes.last, last == 0 || last == 0x20 { bytes.removeLast() }
            if let s = String(validating: bytes, as: UTF8.self) { return s }
            return String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
        }
        var out: [(key: String, value: String)] = []
        for (key, range) in [("title", 3..<33), ("artist", 33..<63), ("album", 63..<93), ("year", 93..<97)] {
            let value = text(range)
            if !value.isEmpty { out.append((key, value)) }
        }
        let v11 = t[125] == 0 && t[126] != 0
        let comment = text(97..<(v11 ? 125 : 127))
        if !comment.isEmpty { out.append(("comments", comment)) }
        if v11 { out.append(("track number", String(t[126]))) }
        if Int(t[127]) < ID3v1Genres.names.count { out.append(("genre", ID3v1Genres.names[Int(t[127])])) }
        return out
    }

    /// Apple's keys for APEv2 item keys (compared case-insensitively).
    static let apeKeys: [String: String] = [
        "title": "title", "artist": "artist", "album": "album", "year": "year", "track": "track number",
        "comment": "comments", "genre": "genre", "composer": "composer", "copyright": "copyright",
    ]

    /// The items of an APEv2 tag's item area, at most `count` and 1000: each item's key (lower
    /// case), flags and value; the walk stops at the first item that does not fit.
    static func apeItems(_ b: [UInt8], count: Int) -> [(key: String, flags: UInt32, value: ArraySlice<UInt8>)] {
        var out: [(key: String, flags: UInt32, value: ArraySlice<UInt8>)] = []
        var p = 0
        for _ in 0..<min(count, 1000) {
            guard p + 8 < b.count else { break }
            let length = Int(b.le32(p)), flags = b.le32(p + 4)
            var k = p + 8
            while k < b.count && b[k] != 0 { k += 1 }
            guard k < b.count, length <= b.count - k - 1 else { break }
            out.append((String(decoding: b[(p + 8)..<k], as: UTF8.self).lowercased(), flags, b[(k + 1)..<(k + 1 + length)]))
            p = k + 1 + length
        }
        return out
    }

    /// The UTF-8 text items of an APEv2 tag's item area.
    static func ape(_ b: [UInt8], count: Int) -> [(key: String, value: String)] {
        apeItems(b, count: count).compactMap { item in
            guard item.flags & 6 == 0, let apple = apeKeys[item.key], let value = String(validating: item.value, as: UTF8.self),
                  !value.isEmpty
            else { return nil }
            return (apple, value)
        }
    }

    /// The binary `Cover Art (…)` items of an APEv2 tag's item area: a file name ending in NUL,
    /// then the image (`(Front)` is the front cover, `(Back)` the back).
    static func apePictures(_ b: [UInt8], count: Int) -> [AudioFilePicture] {
        apeItems(b, count: count).compactMap { item in
            let (key, value) = (item.key, item.value)
            guard item.flags & 6 == 2, key.hasPrefix("cover art"), let nul = value.firstIndex(of: 0), nul + 1 < value.endIndex
            else { return nil }
            let data = value[(nul + 1)...]
            let type: AudioFilePicture.PictureType = key.contains("(front)") ? .frontCover : key.contains("(back)") ? .backCover : .other
            return AudioFilePicture(
                type: type, mimeType: AudioFilePicture.sniffMIMEType(data) ?? "application/octet-stream",
                description: String(decoding: value[..<nul], as: UTF8.self), data: Array(data))
        }
    }

    /// What a Xing/Info or VBRI header in the first frame says.
    struct EncoderInfo: Equatable {
        /// "Xing", "Info" or "VBRI".
        var tag: String
        var frames: UInt32?
        var bytes: UInt32?
        /// The Xing table of contents: 100 byte positions in 256ths of the file.
        var toc: [UInt8]?
        /// The LAME tag's encoder delay and padding, in samples.
        var delay: Int?
        var padding: Int?
    }

    /// The Xing/Info header at the side-information offset of the frame in `f` (Layer III), or a
    /// VBRI header 32 bytes after the frame header; the LAME tag after a Xing/Info header when its
    /// encoder string starts `LAME`, `Lavf` or `Lavc`.
    static func encoderInfo(_ f: [UInt8], header: MPEGAudioHeader) -> EncoderInfo? {
        guard header.layer == 3 else { return nil }
        var p = 4 + header.sideInfoLength
        if p + 8 <= f.count, let tag = String(validating: f[p..<(p + 4)], as: UTF8.self), tag == "Xing" || tag == "Info" {
            let flags = f.be32(p + 4)
            p += 8
            var info = EncoderInfo(tag: tag)
            if flags & 1 != 0 {
                guard p + 4 <= f.count else { return info }
                info.frames = f.be32(p)
                p += 4
            }
            if flags & 2 != 0 {
                guard p + 4 <= f.count else { return info }
                info.bytes = f.be32(p)
                p += 4
            }
            if flags & 4 != 0 {
                guard p + 100 <= f.count else { return info }
                info.toc = Array(f[p..<(p + 100)])
                p += 100
            }
            if flags & 8 != 0 { p += 4 }  // quality
            if p + 24 <= f.count, ["LAME", "Lavf", "Lavc"].contains(String(decoding: f[p..<(p + 4)], as: UTF8.self)) {
                let d = p + 21
                info.delay = Int(f[d]) << 4 | Int(f[d + 1]) >> 4
                info.padding = Int(f[d + 1] & 0xF) << 8 | Int(f[d + 2])
            }
            return info
        }
        if 36 + 18 <= f.count, Array(f[36..<40]) == Array("VBRI".utf8) {
            return EncoderInfo(tag: "VBRI", frames: f.be32(36 + 14), bytes: f.be32(36 + 10))
        }
        return nil
    }

    /// The text of an ID3v2 comment frame (`COMM`, v2.2 `COM`) whose description is `iTunSMPB`.
    static func iTunSMPB(_ tag: [UInt8]) -> String? {
        guard tag.count >= 10, tag[3] >= 2, tag[3] <= 4, tag[5] & 0x80 == 0 else { return nil }
        let version = tag[3]
        var p = 10
        if tag[5] & 0x40 != 0 && version >= 3 {
            guard p + 4 <= tag.count else { return nil }
            p += version == 4 ? ID3v2.syncsafe(tag, p) : Int(tag.be32(p)) + 4
        }
        let idLength = version == 2 ? 3 : 4, headerLength = version == 2 ? 6 : 10
        while p >= 0, p + headerLength <= tag.count, tag[p] != 0 {
            let id = String(decoding: tag[p..<(p + idLength)], as: UTF8.self)
            let size = switch version {
            case 2: Int(tag[p + 3]) << 16 | Int(tag[p + 4]) << 8 | Int(tag[p + 5])
            case 3: Int(tag.be32(p + 4))
            default: ID3v2.syncsafe(tag, p + 4)
            }
            let body = p + headerLength
            guard size >= 0, size <= tag.count - body else { return nil }
            if id == "COMM" || id == "COM", size > 4 {
                let encoding = tag[body]
                let text = tag[(body + 4)..<(body + size)]
                let (description, rest) = ID3v2.splitTerminated(text, encoding: encoding)
                if ID3v2.decode(description, encoding: encoding) == "iTunSMPB" {
                    return ID3v2.decode(rest, encoding: encoding)
                }
            }
            p = body + size
        }
        return nil
    }
}
