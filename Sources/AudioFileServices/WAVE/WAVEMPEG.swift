import AudioCore

extension WAVEFormat {
    /// MPEG audio in a WAVE data chunk (format tags 0x0050, Layers I and II, and 0x0055, Layer
    /// III, as Apple's `'ms'` + tag formats and ffmpeg's WAVE muxer write it): its frames walked
    /// as in an MP3 file, one packet each, with the first frame's header giving the layer, rate
    /// and frames per packet. A Xing/Info frame at the start is not a packet, and its LAME tag
    /// gives the packet table info as in an MP3 file. Nil when the chunk holds no whole frame.
    static func mpegPackets(
        _ source: some AudioByteSource, format: AudioStreamBasicDescription, data: Int64, count: Int64
    ) throws(AudioFileError) -> (format: AudioStreamBasicDescription, table: PacketTable, info: AudioFilePacketTableInfo?)? {
        var reader = WindowReader(source)
        let end = data + count
        guard let first = try MPEGFrameScan.resync(&reader, from: data, end: end, like: nil) else { return nil }
        let stream = first.header
        var position = first.offset
        let encoder = MP3Tags.encoderInfo(try reader.peek(position, min(stream.frameLength, 4096)), header: stream)
        if encoder != nil, Int64(stream.frameLength) <= end - position { position += Int64(stream.frameLength) }
        let walk = try MPEGFrameScan.walk(&reader, from: position, end: end, stream: stream)
        guard walk.table.count > 0 else { return nil }
        let id: AudioFormatID = switch stream.layer {
        case 1: .mpegLayer1
        case 2: .mpegLayer2
        default: .mpegLayer3
        }
        let described = AudioStreamBasicDescription(
            sampleRate: Double(stream.sampleRate), formatID: id, formatFlags: format.formatFlags, bytesPerPacket: 0,
            framesPerPacket: UInt32(stream.samplesPerFrame), bytesPerFrame: 0, channelsPerFrame: UInt32(walk.channels),
            bitsPerChannel: 0)
        let lame = MP3Gapless.lame(encoder, frameOffset: first.offset, fileSize: end, framesPerPacket: stream.samplesPerFrame)
        let info = MP3Gapless.packetTableInfo(iTunSMPB: nil, lame: lame, totalFrames: walk.table.totalFrames)?.info
        return (described, walk.table, info)
    }
}
