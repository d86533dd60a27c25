import AudioCore

/// ID3v2 tags (versions 2.2, 2.3 and 2.4): their frames, and the text frames under Apple's info
/// dictionary keys. Anything malformed ends the parse quietly with what was read, since a tag is
/// never needed to play the audio.
///
/// Unsynchronisation is undone (the whole tag for 2.2 and 2.3, each frame for 2.4); compressed
/// and encrypted frames are skipped; a 2.4 frame's grouping byte and data length indicator are
/// stepped over.
enum ID3v2 {
    /// One frame: its ID (three letters in 2.2, four after) and its body, unsynchronisation undone.
    struct Frame {
        var id: String
        var body: ArraySlice<UInt8>
    }

    /// Apple's keys and their ID3v2 frame IDs: the v2.4 ID first (the one written), then the
    /// v2.3 and three-letter v2.2 forms read as the same key (`TYER` and `TDAT` are v2.3's).
    static let names = TagNameTable<String>([
        ("title", ["TIT2", "TT2"]), ("artist", ["TPE1", "TP1"]), ("album", ["TALB", "TAL"]), ("genre", ["TCON", "TCO"]),
        ("year", ["TDRC", "TYER", "TYE"]), ("track number", ["TRCK", "TRK"]), ("copyright", ["TCOP", "TCR"]),
        ("composer", ["TCOM", "TCM"]), ("encoding application", ["TSSE", "TSS"]), ("lyricist", ["TEXT", "TXT"]),
        ("tempo", ["TBPM", "TBP"]), ("key signature", ["TKEY", "TKE"]), ("subtitle", ["TIT3", "TT3"]),
        ("ISRC", ["TSRC", "TRC"]), ("recorded date", ["TDAT", "TDA"]), ("comments", ["COMM", "COM"]),
    ])

    /// Apple's keys for the ID3v2.3/2.4 frame IDs (and their three-letter v2.2 forms).
    static var keys: [String: String] { names.keys }

    /// The frames of a whole tag (header included), in tag order.
    static func frames(_ tag: [UInt8]) -> [Frame] {
        guard tag.count >= 10, tag[0] == 0x49, tag[1] == 0x44, tag[2] == 0x33 else { return [] }
        let version = tag[3]
        let flags = tag[5]
        guard version >= 2 && version <= 4 else { return [] }
        var body = Array(tag[10...])
        // 2.2 and 2.3 unsynchronise the whole tag (extended header included); 2.4 each frame.
        if flags & 0x80 != 0 && version < 4 { body = resynchronise(body[...]) }
        var p = 0
        if flags & 0x40 != 0 && version >= 3 {  // extended header
            guard p + 4 <= body.count else { return [] }
            let size = version == 4 ? syncsafe(body, p) : Int(body.be32(p)) + 4
            guard size >= 4, size <= body.count else { return [] }
            p += size
        }
        return frames(body, from: p, to: body.count, version: version, tagUnsynchronised: flags & 0x80 != 0)
    }

    /// The frames between `start` and `end` of `bytes` (a tag's body, or a `CHAP` frame's
    /// sub-frames).
    static func frames(_ bytes: [UInt8], from start: Int, to end: Int, version: UInt8, tagUnsynchronised: Bool = false) -> [Frame] {
        let idLength = version == 2 ? 3 : 4
        let headerLength = version == 2 ? 6 : 10
        var out: [Frame] = []
        var p = start
        while p >= 0, p + headerLength <= end, bytes[p] != 0, out.count < 4096 {
            let idBytes = bytes[p..<(p + idLength)]
            guard idBytes.allSatisfy({ ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x30 && $0 <= 0x39) }) else { break }
            let id = String(decoding: idBytes, as: UTF8.self)
            let size: Int
            switch version {
            case 2: size = Int(bytes[p + 3]) << 16 | Int(bytes[p + 4]) << 8 | Int(bytes[p + 5])
            case 3: size = Int(bytes.be32(p + 4))
            default: size = syncsafe(bytes, p + 4)
            }
            let bodyStart = p + headerLength
            guard size <= end - bodyStart else { break }
            let next = bodyStart + size
            var body = bytes[bodyStart..<next]
            var usable = true
            if version == 3 {
                let f = bytes[p + 9]
                if f & 0xC0 != 0 { usable = false }  // compressed or encrypted
                if f & 0x20 != 0 { body = body.dropFirst() }  // group identifier
            } else if version == 4 {
                let f = bytes[p + 9]
                if f & 0x0C != 0 { usable = false }  // compressed or encrypted
                if f & 0x40 != 0 { body = body.dropFirst() }  // group identifier
                if f & 0x01 != 0 { body = body.dropFirst(4) }  // data length indicator
                if f & 0x02 != 0 || tagUnsynchronised { body = resynchronise(body)[...] }
            }
            if usable { out.append(Frame(id: id, body: body)) }
            p = next
        }
        return out
    }

    /// Undoes unsynchronisation: every `FF 00` becomes `FF`.
    static func resynchronise(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var previous: UInt8 = 0
        for byte in bytes {
            if !(previous == 0xFF && byte == 0) { out.append(byte) }
            previous = byte
        }
        return out
    }

    /// Parses a whole tag (header included); returns the text entries in tag order.
    static func parse(_ tag: [UInt8]) -> [(key: String, value: String)] {
        info(frames(tag))
    }

    /// The text entries of `frames` under Apple's keys, and each user-defined `TXXX` frame under
    /// its description.
    static func info(_ frames: [Frame]) -> [(key: String, value: String)] {
        var out: [(key: String, value: String)] = []
        for frame in frames {
            if frame.id == "TXXX" || frame.id == "TXX", frame.body.count > 1 {
                // A user-defined text frame: its description is the key (as a CAF info key
                // Apple has no name for is), as ffmpeg reads it, or the key of the field it names
                // as a Vorbis comment would (ffmpeg writes a comment as TXXX `comment`); iTunes'
                // data is left out.
                var text = frame.body
                let encoding = text.removeFirst()
                let parts = splitTerminated(text, encoding: encoding)
                let description = decode(parts.head, encoding: encoding), value = decode(parts.rest, encoding: encoding)
                let key = VorbisComment.names.keys[description.uppercased()] ?? description
                if !key.isEmpty, !value.isEmpty, !description.hasPrefix("iTun") { out.append((key, value)) }
                continue
            }
            guard let key = names.keys[frame.id], frame.body.count > 1 else { continue }
            var text = frame.body
            let encoding = text.removeFirst()
            if frame.id.hasPrefix("COM") {
                // language (3 bytes), then a short description, then the text.
                guard text.count > 3 else { continue }
                text = text.dropFirst(3)
                let parts = splitTerminated(text, encoding: encoding)
                // iTunes' gapless and normalisation comments are data, not a comment to show.
                if decode(parts.head, encoding: encoding).hasPrefix("iTun") { continue }
                text = parts.rest
            }
            var value = decode(text, encoding: encoding)
            if key == "genre" { value = genre(value) }
            if !value.isEmpty { out.append((key, value)) }
        }
        return out
    }

    /// A `TCON` value with ID3v1 genre numbers named: `(13)`, `13` and `(13)Pop` (the number
    /// wins, as ffmpeg reads it), `(RX)` Remix and `(CR)` Cover; other text as it is.
    static func genre(_ text: String) -> String {
        if let n = Int(text), n >= 0, n < ID3v1Genres.names.count { return ID3v1Genres.names[n] }
        guard text.hasPrefix("("), let close = text.firstIndex(of: ")") else { return text }
        let inside = text[text.index(after: text.startIndex)..<close]
        if inside == "RX" { return "Remix" }
        if inside == "CR" { return "Cover" }
        if let n = Int(inside), n >= 0, n < ID3v1Genres.names.count { return ID3v1Genres.names[n] }
        return text
    }

    static func syncsafe(_ b: [UInt8], _ p: Int) -> Int {
        Int(b[p] & 0x7F) << 21 | Int(b[p + 1] & 0x7F) << 14 | Int(b[p + 2] & 0x7F) << 7 | Int(b[p + 3] & 0x7F)
    }

    /// Splits at the first terminator of the encoding (one NUL, or two for UTF-16).
    static func splitTerminated(_ text: ArraySlice<UInt8>, encoding: UInt8) -> (head: ArraySlice<UInt8>, rest: ArraySlice<UInt8>) {
        let wide = encoding == 1 || encoding == 2
        var i = text.startIndex
        while i < text.endIndex {
            if wide {
                if i + 1 < text.endIndex, text[i] == 0, text[i + 1] == 0 { return (text[..<i], text[(i + 2)...]) }
                i += 2
            } else {
                if text[i] == 0 { return (text[..<i], text[(i + 1)...]) }
                i += 1
            }
        }
        return (text, text[text.endIndex...])
    }

    /// Decodes ID3 text: 0 Latin-1, 1 UTF-16 with BOM, 2 UTF-16BE, 3 UTF-8; stops at a terminator.
    static func decode(_ text: ArraySlice<UInt8>, encoding: UInt8) -> String {
        let body = splitTerminated(text, encoding: encoding).head
        switch encoding {
        case 1, 2:
            var bytes = Array(body)
            var bigEndian = encoding == 2
            if bytes.count >= 2 && encoding == 1 {
                if bytes[0] == 0xFF && bytes[1] == 0xFE { bytes.removeFirst(2) }
                else if bytes[0] == 0xFE && bytes[1] == 0xFF { bytes.removeFirst(2); bigEndian = true }
            }
            var units: [UInt16] = []
            units.reserveCapacity(bytes.count / 2)
            var i = 0
            while i + 1 < bytes.count {
                units.append(bigEndian ? UInt16(bytes[i]) << 8 | UInt16(bytes[i + 1]) : UInt16(bytes[i + 1]) << 8 | UInt16(bytes[i]))
                i += 2
            }
            return String(decoding: units, as: UTF16.self)
        case 3:
            return String(decoding: body, as: UTF8.self)
        default:
            return String(String.UnicodeScalarView(body.map { Unicode.Scalar($0) }))
        }
    }
}
