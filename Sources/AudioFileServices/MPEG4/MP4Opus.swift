import AudioCore

extension MP4SampleDescription {
    /// An `Opus` sample entry's stream description and magic cookie (the `OpusHead` packet made
    /// from its `dOps` box, ISO/IEC 14496-12's Opus mapping): `'opus'` at 48 kHz with the
    /// box's channel count. The pre-skip comes to the packet table from the edit list.
    static func opus(_ children: [UInt8], base: Int64, entry: MP4Box) throws(AudioFileError) -> (AudioStreamBasicDescription, [UInt8]) {
        guard let dOps = findBox(children, base: base, type: "dOps") else {
            throw AudioFileError(.invalidFile, "Opus sample entry without its 'dOps' box", chunk: "Opus", offset: entry.offset)
        }
        let head: OpusHead
        do {
            head = try OpusHead(dOps: Array(dOps.bytes.dropFirst(8)))
        } catch {
            throw AudioFileError(.unsupportedDataFormat, error.reason, chunk: "dOps", offset: dOps.offset)
        }
        let format = AudioStreamBasicDescription(
            sampleRate: 48000, formatID: .opus, formatFlags: [], bytesPerPacket: 0, framesPerPacket: 960, bytesPerFrame: 0,
            channelsPerFrame: UInt32(head.channelCount), bitsPerChannel: 0)
        return (format, head.packet)
    }
}
