import AudioCore

/// A Vorbis comment (the tags of FLAC's `VORBIS_COMMENT` block, Ogg Vorbis' comment header and
/// Ogg Opus' `OpusTags`): a vendor string, then `NAME=value` fields.
///
/// Every length is 32-bit little-endian and checked against the bytes there are; names compare
/// case-insensitively (`TITLE`, `Title` and `title` are one field), and a name may repeat.
public struct VorbisComment: Sendable, Equatable {
    /// One `NAME=value` field.
    public struct Field: Sendable, Equatable {
        /// The field name as stored.
        public var name: String
        /// The value (UTF-8).
        public var value: String
    }

    /// The encoder's vendor string (`reference libFLAC 1.4.3 20230623`, `libopus 1.4`, …).
    public var vendor: String
    /// The fields in stored order.
    public var fields: [Field]

    /// Parses a comment body. A leading `OpusTags` magic or Vorbis' `\u{3}vorbis` packet header
    /// is skipped, so the packet as it is in the stream parses too. Nil when the vendor string
    /// or the field count runs past the bytes; fields cut short end the list.
    public init?(parsing body: some Collection<UInt8>) {
        var b = Array(body)[...]
        if b.starts(with: Array("OpusTags".utf8)) { b = b.dropFirst(8) }
        else if b.starts(with: [3] + Array("vorbis".utf8)) { b = b.dropFirst(7) }
        func u32() -> Int? {
            guard b.count >= 4 else { return nil }
            let i = b.startIndex
            defer { b = b.dropFirst(4) }
            return Int(b[i]) | Int(b[i + 1]) << 8 | Int(b[i + 2]) << 16 | Int(b[i + 3]) << 24
        }
        guard let vendorLength = u32(), vendorLength <= b.count else { return nil }
        vendor = String(decoding: b.prefix(vendorLength), as: UTF8.self)
        b = b.dropFirst(vendorLength)
        guard let count = u32(), count <= b.count / 4 else { return nil }
        fields = []
        for _ in 0..<count {
            guard let length = u32(), length <= b.count else { break }
            let field = b.prefix(length)
            b = b.dropFirst(length)
            guard let equals = field.firstIndex(of: 0x3D) else { continue }
            fields.append(Field(
                name: String(decoding: field[..<equals], as: UTF8.self),
                value: String(decoding: field[(equals + 1)...], as: UTF8.self)))
        }
    }

    /// The values of the fields named `name` (case-insensitively), in stored order.
    public func values(_ name: String) -> [String] {
        let wanted = name.uppercased()
        return fields.filter { $0.name.uppercased() == wanted }.map(\.value)
    }

    /// The first value of the field named `name` (case-insensitively).
    public subscript(name: String) -> String? { values(name).first }

    /// The pictures of the `METADATA_BLOCK_PICTURE` fields (base64 of a FLAC `PICTURE` block
    /// body), in stored order; fields that do not decode are left out.
    public var pictures: [AudioFilePicture] {
        values("METADATA_BLOCK_PICTURE").compactMap { text in
            Base64.decode(text).flatMap { AudioFilePicture(flacPictureBlock: $0) }
        }
    }

    /// The chapters of the chapter extension's fields (`CHAPTER001=00:01:02.345` and
    /// `CHAPTER001NAME=Title`, any number of digits), by start time; a chapter whose time does
    /// not parse is left out.
    public var chapters: [AudioFileChapter] {
        var starts: [String: Double] = [:]
        var names: [String: String] = [:]
        for field in fields {
            let name = field.name.uppercased()
            guard name.hasPrefix("CHAPTER") else { continue }
            let rest = name.dropFirst(7)
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            guard !digits.isEmpty else { continue }
            let suffix = rest.dropFirst(digits.count)
            if suffix.isEmpty, let time = Self.seconds(field.value) {
                starts[String(digits)] = time
            } else if suffix == "NAME" {
                names[String(digits)] = field.value
            }
        }
        return starts.sorted { ($0.value, $0.key) < ($1.value, $1.key) }.map {
            AudioFileChapter(startTime: $0.value, title: names[$0.key] ?? "")
        }
    }

    /// `HH:MM:SS.sss` (hours and minutes optional) in seconds.
    static func seconds(_ text: String) -> Double? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count) else { return nil }
        var total = 0.0
        for (i, part) in parts.enumerated() {
            guard let value = Double(part), value >= 0, value.isFinite, i == parts.count - 1 || part.allSatisfy(\.isNumber) else { return nil }
            total = total * 60 + value
        }
        return total
    }

    /// Apple's info dictionary keys and the Vorbis comment names read as each (the first is
    /// the one written).
    static let names = TagNameTable<String>([
        ("title", ["TITLE"]), ("artist", ["ARTIST"]), ("album", ["ALBUM"]), ("year", ["DATE", "YEAR"]),
        ("genre", ["GENRE"]), ("comments", ["COMMENT", "DESCRIPTION"]), ("composer", ["COMPOSER"]),
        ("lyricist", ["LYRICIST"]), ("copyright", ["COPYRIGHT"]), ("ISRC", ["ISRC"]), ("encoding application", ["ENCODER"]),
        ("tempo", ["BPM", "TEMPO"]), ("subtitle", ["SUBTITLE"]), ("key signature", ["KEY"]), ("track number", ["TRACKNUMBER"]),
    ])

    /// Apple's info dictionary keys for Vorbis comment names.
    static var appleKeys: [String: String] { names.keys }

    /// The fields under Apple's info dictionary keys, in stored order: the first of each key
    /// (`COMMENT` before `DESCRIPTION`), a track number as `n/total` when `TRACKTOTAL` (or
    /// `TOTALTRACKS`) gives the total and the number does not. Names Apple has no key for are
    /// left out.
    public var appleInfo: [(key: String, value: String)] {
        var out: [(key: String, value: String)] = []
        var seen: Set<String> = []
        let total = self["TRACKTOTAL"] ?? self["TOTALTRACKS"]
        let hasComment = !values("COMMENT").isEmpty
        for field in fields {
            let name = field.name.uppercased()
            if name == "DESCRIPTION" && hasComment { continue }
            guard let key = Self.appleKeys[name], !field.value.isEmpty, !seen.contains(key) else { continue }
            seen.insert(key)
            var value = field.value
            if key == "track number", let total, !total.isEmpty, !value.contains("/") { value += "/" + total }
            out.append((key, value))
        }
        return out
    }
}

/// Standard base64 (RFC 4648), padding optional, whitespace ignored.
enum Base64 {
    /// The bytes `text` encodes, or nil when it holds another character or a lone sixth bit.
    static func decode(_ text: String) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count * 3 / 4)
        var buffer: UInt32 = 0
        var bits = 0
        for c in text.utf8 {
            let v: UInt8
            switch c {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): v = c - UInt8(ascii: "A")
            case UInt8(ascii: "a")...UInt8(ascii: "z"): v = c - UInt8(ascii: "a") + 26
            case UInt8(ascii: "0")...UInt8(ascii: "9"): v = c - UInt8(ascii: "0") + 52
            case UInt8(ascii: "+"), UInt8(ascii: "-"): v = 62
            case UInt8(ascii: "/"), UInt8(ascii: "_"): v = 63
            case UInt8(ascii: "="), 0x20, 0x0A, 0x0D, 0x09: continue
            default: return nil
            }
            buffer = buffer << 6 | UInt32(v)
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits)))
            }
        }
        return bits >= 6 ? nil : out
    }
}

/// A container whose tags are a Vorbis comment and FLAC `PICTURE` blocks (FLAC, Ogg Opus, Ogg
/// Vorbis). Conforming gives it ``AudioFileFormat/info``, ``AudioFileFormat/chapters`` and
/// ``AudioFileFormat/artwork(reading:)`` from these two properties (`pictures` defaults to
/// none); the container must not declare `info`, `chapters` or `artwork(reading:)` itself.
public protocol VorbisCommentTagged: AudioFileFormat {
    /// The raw Vorbis comment body (FLAC's `VORBIS_COMMENT` block body, or the `OpusTags`
    /// packet), or nil when the file has none.
    var vorbisComment: [UInt8]? { get }
    /// The raw bodies of the file's FLAC `PICTURE` metadata blocks, in file order.
    var pictures: [[UInt8]] { get }
}

extension VorbisCommentTagged {
    /// The Vorbis comment's fields under Apple's keys.
    public var info: [(key: String, value: String)] {
        vorbisComment.flatMap { VorbisComment(parsing: $0) }?.appleInfo ?? []
    }

    /// No `PICTURE` blocks, for a container that has none (Ogg).
    public var pictures: [[UInt8]] { [] }

    /// The comment's chapter fields (`CHAPTER001`, `CHAPTER001NAME`).
    public var chapters: [AudioFileChapter] {
        vorbisComment.flatMap { VorbisComment(parsing: $0) }?.chapters ?? []
    }

    /// The `PICTURE` blocks, then the comment's `METADATA_BLOCK_PICTURE` fields.
    public func artwork(reading source: any AudioByteSource) -> [AudioFilePicture] {
        pictures.compactMap { AudioFilePicture(flacPictureBlock: $0) }
            + (vorbisComment.flatMap { VorbisComment(parsing: $0) }?.pictures ?? [])
    }
}

// The readers whose tags are Vorbis comments: their info dictionary, chapters and artwork.
extension FLACFormat: VorbisCommentTagged {}
extension OggFormat: VorbisCommentTagged {}
