import AudioCore

extension VorbisComment {
    /// The fields that record `info` and `pictures` in a Vorbis comment (Ogg Vorbis' and Ogg
    /// Opus' comment headers): each key under the name the reader maps it from
    /// (the reader's names: `TITLE`, `ARTIST`, `ALBUM`, `DATE`, `GENRE`, `COMMENT`,
    /// `COMPOSER`, `TRACKNUMBER`, `ENCODER`, …), `track number` `3/12` as `TRACKNUMBER=3` and
    /// `TRACKTOTAL=12`, `recorded date` as `DATE` when there is no `year`, other keys under their
    /// own names in capitals (where a field name can spell them: ASCII 0x20–0x7D without `=`, and
    /// no other key writes that name), then
    /// each picture as a `METADATA_BLOCK_PICTURE` field (base64 of a FLAC `PICTURE` block).
    ///
    /// `approximate duration in seconds` is not recorded, and keys or values are cut at a NUL
    /// (as ``AudioFileWriter/setInfo(_:)`` records them). FLAC files put their pictures in
    /// `PICTURE` blocks instead: ``fields(info:)``.
    public static func fields(info: AudioFileInfo, pictures: [AudioFilePicture]) -> [Field] {
        fields(info: info) + pictures.map { Field("METADATA_BLOCK_PICTURE", Base64.encode($0.flacPictureBlock)) }
    }

    /// The fields that record `info`, without pictures (FLAC's `VORBIS_COMMENT` block).
    public static func fields(info: AudioFileInfo) -> [Field] {
        let info = info.recordable
        var out: [Field] = []
        for entry in info.withRecordedDateAsYear {
            let key = entry.key.rawValue
            if entry.key == .trackNumber, let track = info.trackNumberAndTotal {
                out.append(Field("TRACKNUMBER", String(track.number)))
                if let total = track.total { out.append(Field("TRACKTOTAL", String(total))) }
                continue
            }
            if let name = names.name(for: key) {
                out.append(Field(name, entry.value))
            } else if key.utf8.allSatisfy({ $0 >= 0x20 && $0 <= 0x7D && $0 != 0x3D }) {
                // A key of another tag format (`comment` read from a TXXX frame) may spell a
                // field another key writes: the first one written is kept.
                let name = key.uppercased()
                if !out.contains(where: { $0.name == name }) && !info.entries.contains(where: { names.name(for: $0.key.rawValue) == name }) {
                    out.append(Field(name, entry.value))
                }
            }
        }
        return out
    }
}

extension AudioFilePicture {
    /// The picture as the body of a FLAC `PICTURE` metadata block (also what a Vorbis comment's
    /// `METADATA_BLOCK_PICTURE` field holds in base64): picture type, MIME type, description,
    /// width, height, colour depth, indexed colours and the data, every number 32-bit big-endian.
    public var flacPictureBlock: [UInt8] {
        var b = BigEndianBytes()
        let mime = Array(mimeType.utf8), text = Array(description.utf8)
        b.u32(type.rawValue)
        b.u32(UInt32(truncatingIfNeeded: mime.count)); b.bytes += mime
        b.u32(UInt32(truncatingIfNeeded: text.count)); b.bytes += text
        for n in [width, height, colorDepth, indexedColors] { b.u32(UInt32(clamping: max(0, n))) }
        b.u32(UInt32(truncatingIfNeeded: data.count))
        b.bytes += data
        return b.bytes
    }
}

extension Base64 {
    /// `bytes` in standard base64 (RFC 4648), padded with `=`.
    static func encode(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var i = 0
        while i < bytes.count {
            let n = min(3, bytes.count - i)
            let v = UInt32(bytes[i]) << 16 | (n > 1 ? UInt32(bytes[i + 1]) << 8 : 0) | (n > 2 ? UInt32(bytes[i + 2]) : 0)
            out.append(alphabet[Int(v >> 18 & 63)])
            out.append(alphabet[Int(v >> 12 & 63)])
            out.append(n > 1 ? alphabet[Int(v >> 6 & 63)] : UInt8(ascii: "="))
            out.append(n > 2 ? alphabet[Int(v & 63)] : UInt8(ascii: "="))
            i += 3
        }
        return String(decoding: out, as: UTF8.self)
    }
}
