import AudioCore

extension MP4SampleDescription {
    /// The stream description of a sample entry whose codec the package does not decode (DTS
    /// `'dtsc'`, AMR `'samr'`, an `'mp4a'` whose object type is not AAC or MPEG audio, …): the
    /// entry's code as the format ID, as a Mac reports it, with the entry's rate and channels and
    /// the frames of the first packet. The file opens for its properties, tags, artwork and
    /// chapters, and its packets read; decoding fails, naming the format.
    static func undecoded(_ type: FourCharCode, rate: Double, channels: UInt32, frames: UInt32) -> AudioStreamBasicDescription {
        AudioStreamBasicDescription(
            sampleRate: rate, formatID: AudioFormatID(type), formatFlags: [], bytesPerPacket: 0, framesPerPacket: frames,
            bytesPerFrame: 0, channelsPerFrame: channels, bitsPerChannel: 0)
    }

    /// Frames in each packet at `rate`, from the first `stts` entry of the sample table that
    /// holds `stsd`; 0 (packets vary) where there is none or it is 0.
    static func firstPacketFrames(_ tree: MP4BoxTree, _ stsd: Int, _ mediaTimescale: UInt32, rate: Double) -> UInt32 {
        guard mediaTimescale > 0, rate >= 1, rate < 1e9,
              let stbl = tree.nodes.indices.first(where: { tree.nodes[$0].children.contains(stsd) }),
              let stts = tree.child(stbl, "stts"), tree.box(stts).bodySize >= 16,
              let bytes = try? tree.source.bytes(at: tree.box(stts).bodyOffset, count: 16, chunk: "stts")
        else { return 0 }
        let entries = bytes.withUnsafeBytes { $0.be32(4) }
        let delta = bytes.withUnsafeBytes { $0.be32(12) }
        guard entries > 0 else { return 0 }
        let frames = (Double(delta) * rate / Double(mediaTimescale)).rounded()
        return frames >= 1 && frames <= 1_048_576 ? UInt32(frames) : 0
    }
}

extension MP4Metadata {
    /// The text items of a QuickTime movie's user data (`moov/udta/©nam` …, QuickTime File
    /// Format, "User data text strings"): each a list of strings, a 16-bit size and a 16-bit
    /// language code before each; the first string of each item Apple's info keys name.
    static func quickTimeUserData(tree: MP4BoxTree, moov: Int) -> [(key: String, value: String)] {
        guard let udta = tree.child(moov, "udta") else { return [] }
        var out: [(key: String, value: String)] = []
        for item in tree.nodes[udta].children {
            let box = tree.box(item)
            guard let key = keys[box.type.rawValue], box.type.rawValue >> 24 == 0xA9, box.bodySize >= 4, box.bodySize <= 1 << 16,
                  let body = try? tree.body(item)
            else { continue }
            let size = Int(body[0]) << 8 | Int(body[1])
            guard size > 0, size <= body.count - 4 else { continue }
            let value = metadataText(body[4..<(4 + size)])
            if !value.isEmpty { out.append((key, value)) }
        }
        return out
    }
}

extension MP4SampleDescription {
    /// MPEG audio's description from its first frame's header, where it differs from `format`
    /// (`'.mp3'`, from an `'mp4a'` whose objectTypeIndication, 0x6B or 0x69, names MPEG-1 or
    /// MPEG-2 audio of any layer, or a `'.mp3'` entry): `'.mp2'` with 1152 frames per packet for
    /// Layer II, as ffmpeg writes MP2 in MP4. Nil for other formats or when the first packet does
    /// not start with a frame header.
    static func mpegAudioLayer(
        of format: AudioStreamBasicDescription, firstPacket: Int64?, source: some AudioByteSource
    ) -> AudioStreamBasicDescription? {
        guard format.formatID == .mpegLayer3, let firstPacket, firstPacket >= 0, firstPacket <= source.size - 4,
              let bytes = try? source.bytes(at: firstPacket, count: 4, chunk: "mdat"), let header = MPEGAudioHeader(bytes, 0)
        else { return nil }
        let described = MP3Format.streamDescription(header, channels: Int(format.channelsPerFrame)).format
        guard described.formatID != format.formatID || described.framesPerPacket != format.framesPerPacket else { return nil }
        var out = format
        out.formatID = described.formatID
        out.framesPerPacket = described.framesPerPacket
        return out
    }
}

extension MP4SampleDescription {
    /// The MPEG-4 audio object types of the AAC family (ISO/IEC 14496-3, Table 1.17), which
    /// describe as AAC: Main, LC, SSR, LTP, SBR, Scalable, the ER AAC types, BSAC, LD, PS, ELD and
    /// USAC. Any other object type in an AAC objectTypeIndication (ALS 36, SLS 37 and 38, CELP,
    /// HVXC, TwinVQ, MPEG Layers 1–3 32–34, …) is `'mp4a'`, not decoded.
    static let aacObjectTypes: Set<Int> = [1, 2, 3, 4, 5, 6, 17, 19, 20, 22, 23, 29, 39, 42]
}
