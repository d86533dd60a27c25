import AudioCore

/// The text frames of an ID3v2 tag (versions 2.2, 2.3 and 2.4), under Apple's info dictionary
/// keys. Only what the info dictionary shows is read; anything malformed ends the parse
/// quietly, since a tag is never needed to play the audio.
enum ID3v2 {
    /// Apple's keys for the ID3v2.3/2.4 frame IDs (and their three-letter v2.2 forms).
    static let keys: [String: String] = [
        "TIT2": "title", "TT2": "title", "TPE1": "artist", "TP1": "artist", "TALB": "album", "TAL": "album",
        "TCON": "genre", "TCO": "genre", "TYER": "year", "TYE": "year", "TDRC": "year", "TRCK": "track number",
        "TRK": "track number", "TCOP": "copyright", "TCR": "copyright", "TCOM": "composer", "TCM": "composer",
        "TSSE": "encoding application", "TSS": "encoding application", "TEXT": "lyricist", "TBPM": "tempo",
        "COMM": "comments", "COM": "comments",
    ]

    /// Parses a whole tag (header included); returns the entries in tag order.
    static func parse(_ tag: [UInt8]) -> [(key: String, value: String)] {
        guard tag.count >= 10, tag[0] == 0x49, tag[1] == 0x44, tag[2] == 0x33 else { return [] }
        let version = tag[3]
        let flags = tag[5]
        guard version >= 2 && version <= 4, flags & 0x80 == 0 else { return [] }  // unsynchronised tags are skipped
        var p = 10
        if flags & 0x40 != 0 && version >= 3 {  // extended header
            guard p + 4 <= tag.count else { return [] }
            let size = version == 4 ? syncsafe(tag, p) : Int(tag.be32(p))
            p += version == 4 ? size : size + 4
        }
        let idLength = version == 2 ? 3 : 4
        let headerLength = version == 2 ? 6 : 10
        var out: [(key: String, value: String)] = []
        while p + headerLength <= tag.count, tag[p] != 0 {
            let id = String(decoding: tag[p..<(p + idLength)], as: UTF8.self)
            let size: Int
            switch version {
            case 2: size = Int(tag[p + 3]) << 16 | Int(tag[p + 4]) << 8 | Int(tag[p + 5])
            case 3: size = Int(tag.be32(p + 4))
            default: size = syncsafe(tag, p + 4)
            }
            let body = p + headerLength
            guard size >= 0, size <= tag.count - body else { break }
            if let key = keys[id], size > 1 {
                var text = tag[body..<(body + size)]
                let encoding = text.removeFirst()
                if id.hasPrefix("COM") {
                    // language (3 bytes), then a short description, then the text.
                    guard text.count > 3 else { p = body + size; continue }
                    text = text.dropFirst(3)
                    let parts = splitTerminated(text, encoding: encoding)
                    // iTunes' gapless and normalisation comments are data, not a comment to show.
                    if decode(parts.head, encoding: encoding).hasPrefix("iTun") { p = body + size; continue }
                    text = parts.rest
                }
                let value = decode(text, encoding: encoding)
                if !value.isEmpty { out.append((key, value)) }
            }
            p = body + size
        }
        return out
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
