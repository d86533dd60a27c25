import AudioCore

/// Writing ID3v2.4 tags (the leading tag of ADTS files, the `id3 ` chunk of WAVE and the `ID3 `
/// chunk of AIFF): text frames under the IDs the reader maps (``ID3v2/names``), `COMM`,
/// `TXXX` for keys with no frame of their own, and `APIC` pictures. Text is UTF-8 (encoding 3),
/// sizes are synchsafe, nothing is unsynchronised (ID3v2.4 leaves it optional).
extension ID3v2 {
    /// The largest size a synchsafe field holds.
    static let largestSynchsafe = (1 << 28) - 1

    /// A whole tag (header, frames, then `padding` zero bytes) for `info` and `pictures`, nil
    /// when there is nothing to record. Throws `parameter` when the tag would pass the 256 MiB a
    /// synchsafe size holds.
    static func tag(info: AudioFileInfo, pictures: [AudioFilePicture], padding: Int = 0) throws(AudioFileError) -> [UInt8]? {
        var frames: [UInt8] = []
        for entry in info.withRecordedDateAsYear {
            let key = entry.key.rawValue
            let text = Array(entry.value.utf8)
            // ID3v2.3's date frames (`TDAT`, `TYER`) are not v2.4 frames: such a key is a `TXXX`.
            switch names.name(for: key).flatMap({ ["TDAT", "TYER"].contains($0) ? nil : $0 }) {
            case "COMM"?:
                // Encoding, language, an empty description and its terminator, the text.
                frames += try frame("COMM", [3] + Array("eng".utf8) + [0] + text)
            case let id?:
                frames += try frame(id, [3] + text)
            case nil:
                frames += try frame("TXXX", [3] + Array(key.utf8) + [0] + text)
            }
        }
        for picture in pictures {
            // Encoding, MIME type and its terminator, picture type, description and its terminator, data.
            let type = UInt8(clamping: picture.type.rawValue)
            frames += try frame("APIC", [3] + Array(picture.mimeType.utf8.prefix { $0 != 0 }) + [0, type]
                + Array(picture.description.utf8.prefix { $0 != 0 }) + [0] + picture.data)
        }
        guard !frames.isEmpty else { return nil }
        let size = frames.count + max(0, padding)
        guard size <= largestSynchsafe else {
            throw AudioFileError(.parameter, "an ID3v2 tag of \(size) bytes is more than the 256 MiB its size holds")
        }
        return Array("ID3".utf8) + [4, 0, 0] + synchsafe(size) + frames + [UInt8](repeating: 0, count: max(0, padding))
    }

    /// A frame: ID, synchsafe size, no flags, body.
    private static func frame(_ id: String, _ body: [UInt8]) throws(AudioFileError) -> [UInt8] {
        guard body.count <= largestSynchsafe else {
            throw AudioFileError(.parameter, "an ID3v2 '\(id)' frame of \(body.count) bytes is more than the 256 MiB its size holds")
        }
        return Array(id.utf8) + synchsafe(body.count) + [0, 0] + body
    }

    /// `value` (below 2^28) in four bytes of seven bits each.
    static func synchsafe(_ value: Int) -> [UInt8] {
        [UInt8(value >> 21 & 0x7F), UInt8(value >> 14 & 0x7F), UInt8(value >> 7 & 0x7F), UInt8(value & 0x7F)]
    }
}
