import AudioCore

extension WAVEFormat {
    /// AC-3 or E-AC-3 in a WAVE data chunk (format tag 0x2000, raw syncframes, as ffmpeg's WAVE
    /// muxer writes them): its frames walked as in a raw AC-3 file, one packet each (E-AC-3: with
    /// its dependent frames), with the first packet's headers giving the format, layout and magic
    /// cookie. Nil when the chunk holds no frame.
    static func ac3Packets(_ source: some AudioByteSource, data: Int64, count: Int64) throws(AudioFileError) -> (
        format: AudioStreamBasicDescription, table: PacketTable, layout: AudioChannelLayout, cookie: [UInt8]
    )? {
        var reader = WindowReader(source)
        let end = data + count
        guard let first = try AC3FrameScan.resync(&reader, from: data, end: end, like: nil) else { return nil }
        let walk = try AC3FrameScan.walk(&reader, from: first.offset, end: end, first: first.header)
        guard walk.table.count > 0 else { return nil }
        let description = try AC3FrameScan.describe(walk.firstPacket, chunk: "data", offset: first.offset)
        return (description.format, walk.table, description.layout, description.cookie)
    }
}
