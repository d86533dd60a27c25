import AudioCore

/// CAF's tag chunk (`info`).
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
}
