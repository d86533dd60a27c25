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

    /// WAVE's RIFF INFO IDs for Apple's info keys: the reader's table (`WAVEFormat.infoKeys`)
    /// turned round for the IDs ffmpeg names (others it lists under the bare ID, so a key such as
    /// the composer, `ICMP`, leaves the tags to the `id3 ` chunk), ITRK for the track number, and
    /// ICRD for the year as for the recorded date.
    static let waveInfoIDs: [String: String] = {
        let named: Set<String> = ["INAM", "IART", "ICMT", "ICOP", "ICRD", "IGNR", "IPRD", "ITRK", "ISFT"]
        var ids: [String: String] = ["year": "ICRD"]
        for (id, key) in WAVEFormat.infoKeys where named.contains(id.description) { ids[key] = id.description }
        return ids
    }()

    /// The body of a WAVE `LIST` chunk of type `INFO` recording `info`, nil when it is empty or
    /// holds a key INFO has no ID for (or two for one ID): then the `id3 ` chunk alone records the tags, as ffmpeg
    /// reads an `id3 ` chunk's text only where no INFO list is beside it. Each value is UTF-8,
    /// NUL-terminated and padded to an even size.
    static func waveListInfoBody(_ info: AudioFileInfo) -> [UInt8]? {
        guard !info.entries.isEmpty else { return nil }
        var body = LittleEndianBytes()
        body.ascii("INFO")
        var used: Set<String> = []
        for entry in info.entries {
            guard let id = waveInfoIDs[entry.key.rawValue], used.insert(id).inserted else { return nil }
            let text = Array(entry.value.utf8) + [0]
            body.ascii(id)
            body.u32(UInt32(text.count))
            body.bytes += text
            if text.count & 1 == 1 { body.bytes.append(0) }
        }
        return body.bytes
    }
}
