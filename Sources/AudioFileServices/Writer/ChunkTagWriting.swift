import AudioCore

/// The tag chunks of CAF (`info`) and WAVE (`LIST`/`INFO`).
extension ContainerHeader {
    /// A CAF `info` chunk's body: the number of entries (32 bits), then each key and value as
    /// UTF-8 with a NUL after each (CAF specification, "Information Chunk"). Nil without entries.
    static func cafInfoBody(_ info: AudioFileInfo) -> [UInt8]? {
        guard !info.entries.isEmpty else { return nil }
        var body = BigEndianBytes()
        body.u32(UInt32(info.entries.count))
        for entry in info.entries {
            body.bytes += Array(entry.key.rawValue.utf8) + [0] + Array(entry.value.utf8) + [0]
        }
        return body.bytes
    }

    /// A WAVE `LIST` chunk's body of type `INFO`: one sub-chunk per key the INFO list has an ID
    /// for (``WAVEFormat/infoNames``), its text UTF-8 with a NUL, padded to an even size. Nil
    /// when no key has an ID. Keys without one go in the `id3 ` chunk.
    static func riffInfoBody(_ info: AudioFileInfo) -> [UInt8]? {
        var body = LittleEndianBytes()
        body.ascii("INFO")
        for entry in info.entries {
            guard let id = WAVEFormat.infoNames.name(for: entry.key.rawValue) else { continue }
            let text = Array(entry.value.utf8) + [0]
            body.bytes += id.bytes
            body.u32(UInt32(truncatingIfNeeded: text.count))
            body.bytes += text
            if text.count & 1 == 1 { body.bytes.append(0) }
        }
        return body.bytes.count > 4 ? body.bytes : nil
    }
}
