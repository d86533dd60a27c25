import AudioCore

extension MP4SampleDescription {
    /// An `Opus` sample entry's stream description and magic cookie (the `OpusHead` packet made
    /// from its `dOps` box, ISO/IEC 14496-12's Opus mapping): `'opus'` at 48 kHz with the
    /// box's channel count, `frames` per packet. The pre-skip comes to the packet table from the
    /// edit list, else from `dOps`.
    static func opus(
        _ children: [UInt8], base: Int64, entry: MP4Box, frames: UInt32
    ) throws(AudioFileError) -> (AudioStreamBasicDescription, [UInt8]) {
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
            sampleRate: 48000, formatID: .opus, formatFlags: [], bytesPerPacket: 0, framesPerPacket: frames, bytesPerFrame: 0,
            channelsPerFrame: UInt32(head.channelCount), bitsPerChannel: 0)
        return (format, head.packet)
    }
}

extension MP4SampleDescription {
    /// Frames (at 48 kHz) in each packet of an Opus track, from the first `stts` entry of the
    /// sample table that holds `stsd`: a duration Opus has (2.5 to 120 ms), else 960 (20 ms).
    static func opusPacketFrames(_ tree: MP4BoxTree, _ stsd: Int, _ mediaTimescale: UInt32) -> UInt32 {
        guard mediaTimescale > 0, let stbl = tree.nodes.indices.first(where: { tree.nodes[$0].children.contains(stsd) }),
              let stts = tree.child(stbl, "stts"), tree.box(stts).bodySize >= 16,
              let bytes = try? tree.source.bytes(at: tree.box(stts).bodyOffset, count: 16, chunk: "stts")
        else { return 960 }
        let entries = bytes.withUnsafeBytes { $0.be32(4) }
        let delta = bytes.withUnsafeBytes { $0.be32(12) }
        let frames = (UInt64(delta) * 48000 + UInt64(mediaTimescale) / 2) / UInt64(mediaTimescale)
        guard entries > 0, frames >= 120, frames <= 5760, frames % 120 == 0 else { return 960 }
        return UInt32(frames)
    }
}

extension MP4Gapless {
    /// Opus without an edit list (or `iTunSMPB`): the `dOps` pre-skip as the priming frames,
    /// the sample durations' end as the valid frames' end. Anything else is left as it is.
    static func opusPreSkip(
        _ found: (info: AudioFilePacketTableInfo, origin: Origin)?, format: AudioStreamBasicDescription, cookie: [UInt8]?,
        totalFrames: Int64
    ) -> (info: AudioFilePacketTableInfo, origin: Origin)? {
        guard format.formatID == .opus, found?.origin != .editList, found?.origin != .iTunSMPB,
              let cookie, let head = try? OpusHead(packet: cookie) else { return found }
        let priming = min(Int64(head.preSkip), totalFrames)
        let end = found.map { Int64($0.info.primingFrames) + $0.info.numberValidFrames } ?? totalFrames
        let valid = max(0, end - priming)
        return (AudioFilePacketTableInfo(
            numberValidFrames: valid, primingFrames: Int32(priming), remainderFrames: Int32(clamping: totalFrames - priming - valid)), .opusPreSkip)
    }
}
