import AudioCore

/// Writing MPEG-4 audio files (ISO/IEC 14496-12 and 14496-14) as Apple's AudioFile writes them:
/// `ftyp`, a `free` box, `mdat` with the packets, and at close a `moov` describing them.
extension ContainerHeader {
    /// The `ftyp` box's brands: Apple's M4A and M4B files name their own brand, then `mp42`
    /// and `isom`; plain MPEG-4 files are `mp42`.
    static func mp4Brands(_ type: AudioFileType) -> (major: String, compatible: [String]) {
        switch type {
        case .m4a: ("M4A ", ["M4A ", "mp42", "isom", "\0\0\0\0"])
        case .m4b: ("M4B ", ["M4B ", "mp42", "isom", "\0\0\0\0"])
        default: ("mp42", ["mp42", "isom"])
        }
    }

    /// `ftyp`, an 8-byte `free` box (room for a 64-bit `mdat` size at close) and the `mdat`
    /// header, its size 0 (to the end of the file) until close.
    static func mp4(type: AudioFileType) -> ContainerHeader {
        var h = BigEndianBytes()
        let brands = mp4Brands(type)
        h.u32(UInt32(16 + 4 * brands.compatible.count)); h.ascii("ftyp")
        h.ascii(brands.major); h.u32(0)
        for brand in brands.compatible { h.ascii(brand) }
        let free = Int64(h.bytes.count)
        h.u32(8); h.ascii("free")
        h.u32(0); h.ascii("mdat")
        var header = ContainerHeader(kind: .mp4, fileType: type, bytes: h.bytes, dataOffset: Int64(h.bytes.count))
        header.sizeOffset = free
        return header
    }

    /// The patch that gives `mdat` its size at close: 32 bits where it fits, else a 64-bit
    /// size in the 16 bytes of the `free` box and the `mdat` header.
    func mdatSizePatch(dataBytes: Int64) -> HeaderPatch {
        let size = dataBytes + 8
        if size <= 0xFFFF_FFFF { return HeaderPatch(offset: sizeOffset + 8, bytes: BigEndianBytes.u32(UInt32(size))) }
        var wide = BigEndianBytes()
        wide.u32(1); wide.ascii("mdat"); wide.u64(UInt64(dataBytes + 16))
        return HeaderPatch(offset: sizeOffset, bytes: wide.bytes)
    }
}

/// The codec configuration an MPEG-4 sample entry records.
enum MP4Codec {
    case aac(AACConfig)
    case alac(ALACConfig)
    /// The `dfLa` box's body: version, flags and the metadata blocks (STREAMINFO).
    case flac([UInt8])
    /// The `dOps` box's body (ISO/IEC 14496-12's Opus mapping).
    case opus([UInt8])
}

/// What a `moov` box describes: the packets in `mdat`, their format and gapless trims.
struct MP4Movie {
    let format: AudioStreamBasicDescription
    let codec: MP4Codec
    /// File offset of the first packet.
    let dataOffset: Int64
    let sizes: [UInt32]
    /// Frames of each packet as `stts` records them.
    let frames: [UInt32]
    /// The edit list's one edit, in frames: where the valid frames start and how many there are.
    let edit: (mediaTime: Int64, duration: Int64)?
    /// Priming, remainder and valid frames for iTunes' `iTunSMPB`.
    let smpb: (priming: Int32, remainder: Int32, valid: Int64)?
    /// The `ilst` items of the file's tags (``MP4Tags``), before `iTunSMPB`.
    var tags: [UInt8] = []

    /// The movie for packets of `frames` frames trimmed by `trims`. AAC records the trims as
    /// iTunes does, in an edit list and `iTunSMPB`; ALAC as Apple's encoder does, with the last
    /// packet's actual length in `stts` (and an edit list only for priming frames); FLAC and
    /// Opus (the pre-skip in the edit list) the same way.
    init(
        format: AudioStreamBasicDescription, codec: MP4Codec, dataOffset: Int64, sizes: [UInt32], frames: [UInt32],
        trims: (priming: Int32, remainder: Int32)?
    ) {
        self.format = format
        self.codec = codec
        self.dataOffset = dataOffset
        self.sizes = sizes
        var frames = frames
        let total = frames.reduce(Int64(0)) { $0 + Int64($1) }
        let valid = total - Int64(trims?.priming ?? 0) - Int64(trims?.remainder ?? 0)
        switch (codec, trims) {
        case (_, nil):
            edit = nil
            smpb = nil
        case (.aac, let trims?):
            edit = (Int64(trims.priming), valid)
            smpb = (trims.priming, trims.remainder, valid)
        case (.alac, let trims?), (.flac, let trims?), (.opus, let trims?):
            // Opus as ffmpeg writes it: the pre-skip as the edit's media time, the last
            // packet's duration cut to the end of the valid frames.
            var remainder = trims.remainder
            if remainder > 0, let last = frames.last, UInt32(remainder) < last {
                frames[frames.count - 1] = last - UInt32(remainder)
                remainder = 0
            }
            edit = trims.priming > 0 || remainder > 0 ? (Int64(trims.priming), valid) : nil
            smpb = nil
        }
        self.frames = frames
    }

    var timescale: UInt32 { UInt32(clamping: Int64(format.sampleRate.rounded())) }
    var totalFrames: Int64 { frames.reduce(0) { $0 + Int64($1) } }

    /// Packets per `mdat` chunk: about half a second, as the `stsc` table describes them.
    var packetsPerChunk: Int { max(1, Int(format.sampleRate / 2) / Int(max(1, format.framesPerPacket))) }

    /// The whole `moov` box.
    var bytes: [UInt8] {
        let duration = edit?.duration ?? totalFrames
        var trak = box("tkhd", full(0, 7, timeFields(duration, trackHeader: true)))
        if let edit { trak += box("edts", box("elst", editList(edit))) }
        trak += box("mdia", mediaHeader + handler("soun", name: "SoundHandler") + box("minf", mediaInformation))
        var moov = box("mvhd", full(0, 0, timeFields(duration, trackHeader: false)))
        moov += box("trak", trak)
        if smpb != nil || !tags.isEmpty { moov += box("udta", userData(smpb)) }
        return box("moov", moov)
    }

    private func box(_ type: String, _ body: [UInt8]) -> [UInt8] {
        let size = 8 + body.count
        return BigEndianBytes.u32(UInt32(size)) + Array(type.utf8) + body
    }

    private func full(_ version: UInt8, _ flags: UInt32, _ body: [UInt8]) -> [UInt8] {
        [version, UInt8(flags >> 16 & 0xFF), UInt8(flags >> 8 & 0xFF), UInt8(flags & 0xFF)] + body
    }

    private static let matrix: [UInt32] = [0x1_0000, 0, 0, 0, 0x1_0000, 0, 0, 0, 0x4000_0000]

    /// The body of `mvhd` or `tkhd` after version and flags (version 0: 32-bit times).
    private func timeFields(_ duration: Int64, trackHeader: Bool) -> [UInt8] {
        var b = BigEndianBytes()
        b.u32(0); b.u32(0)  // creation and modification times
        if trackHeader {
            b.u32(1); b.u32(0)  // track ID, reserved
        } else {
            b.u32(timescale)
        }
        b.u32(UInt32(clamping: duration))
        if trackHeader {
            b.u64(0)  // reserved
            b.u16(0); b.u16(1)  // layer, alternate group
            b.u16(0x0100); b.u16(0)  // volume 1.0, reserved
            for m in Self.matrix { b.u32(m) }
            b.u32(0); b.u32(0)  // width, height
        } else {
            b.u32(0x1_0000); b.u16(0x0100)  // rate 1.0, volume 1.0
            b.bytes += [UInt8](repeating: 0, count: 10)
            for m in Self.matrix { b.u32(m) }
            b.bytes += [UInt8](repeating: 0, count: 24)
            b.u32(2)  // next track ID
        }
        return b.bytes
    }

    /// One edit: `duration` frames from `mediaTime` on (movie and media timescales are the same).
    private func editList(_ edit: (mediaTime: Int64, duration: Int64)) -> [UInt8] {
        var b = BigEndianBytes()
        let wide = edit.duration > Int64(UInt32.max) || edit.mediaTime > Int64(Int32.max)
        b.bytes = [wide ? 1 : 0, 0, 0, 0]
        b.u32(1)
        if wide {
            b.u64(UInt64(edit.duration)); b.u64(UInt64(edit.mediaTime))
        } else {
            b.u32(UInt32(edit.duration)); b.u32(UInt32(edit.mediaTime))
        }
        b.u16(1); b.u16(0)  // media rate 1.0
        return b.bytes
    }

    private var mediaHeader: [UInt8] {
        var b = BigEndianBytes()
        let wide = totalFrames > Int64(UInt32.max)
        b.bytes = [wide ? 1 : 0, 0, 0, 0]
        if wide { b.u64(0); b.u64(0); b.u32(timescale); b.u64(UInt64(totalFrames)) } else {
            b.u32(0); b.u32(0); b.u32(timescale); b.u32(UInt32(totalFrames))
        }
        b.u16(0x55C4); b.u16(0)  // language "und"
        return box("mdhd", b.bytes)
    }

    private func handler(_ type: String, name: String, manufacturer: String? = nil) -> [UInt8] {
        var b = BigEndianBytes()
        b.u32(0); b.ascii(type)
        if let manufacturer { b.ascii(manufacturer) } else { b.u32(0) }
        b.u32(0); b.u32(0)
        b.ascii(name); b.bytes.append(0)
        return box("hdlr", full(0, 0, b.bytes))
    }

    private var mediaInformation: [UInt8] {
        let smhd = box("smhd", full(0, 0, [0, 0, 0, 0]))
        let dref = box("dref", full(0, 0, BigEndianBytes.u32(1) + box("url ", full(0, 1, []))))
        return smhd + box("dinf", dref) + box("stbl", sampleTables)
    }

    private var sampleTables: [UInt8] {
        box("stsd", full(0, 0, BigEndianBytes.u32(1) + sampleEntry)) + timeToSample + sampleToChunk + sampleSizes + chunkOffsets
    }

    /// `mp4a` with its `esds`, `alac` with its `alac` box, or `fLaC` with its `dfLa` box.
    private var sampleEntry: [UInt8] {
        var b = BigEndianBytes()
        b.bytes += [0, 0, 0, 0, 0, 0]; b.u16(1)  // reserved, data reference index
        b.u64(0)  // version 0, reserved
        b.u16(UInt16(clamping: format.channelsPerFrame))
        switch codec {
        case .aac: b.u16(16)
        case .alac(let config): b.u16(UInt16(config.bitDepth))
        case .flac: b.u16(UInt16(FLACDataFormat.bitDepth(of: format) ?? 16))
        case .opus: b.u16(16)
        }
        b.u16(0); b.u16(0)
        b.u32(timescale < 0x1_0000 ? timescale << 16 : 0)
        switch codec {
        case .aac(let config):
            let bytesTotal = sizes.reduce(Int64(0)) { $0 + Int64($1) }
            let seconds = Double(max(totalFrames, 1)) / format.sampleRate
            let average = UInt32(clamping: Int64(Double(bytesTotal * 8) / seconds))
            let largest = sizes.max() ?? 0
            let peak = UInt32(clamping: Int64(Double(largest) * 8 * format.sampleRate / Double(max(1, format.framesPerPacket))))
            let descriptor = config.esDescriptor(bufferSize: largest, maximumBitRate: max(peak, average), averageBitRate: average)
            return box("mp4a", b.bytes + box("esds", full(0, 0, descriptor)))
        case .alac(let config):
            return box("alac", b.bytes + box("alac", full(0, 0, config.bytes)))
        case .flac(let body):
            return box("fLaC", b.bytes + box("dfLa", body))
        case .opus(let body):
            return box("Opus", b.bytes + box("dOps", body))
        }
    }

    private var timeToSample: [UInt8] {
        var runs: [(count: UInt32, delta: UInt32)] = []
        for f in frames {
            if let last = runs.last, last.delta == f, last.count < .max { runs[runs.count - 1].count += 1 } else { runs.append((1, f)) }
        }
        var b = BigEndianBytes()
        b.u32(UInt32(runs.count))
        for run in runs { b.u32(run.count); b.u32(run.delta) }
        return box("stts", full(0, 0, b.bytes))
    }

    private var sampleToChunk: [UInt8] {
        let per = packetsPerChunk
        let full = sizes.count / per, rest = sizes.count % per
        var entries: [(first: Int, count: Int)] = []
        if full > 0 { entries.append((1, per)) }
        if rest > 0 { entries.append((full + 1, rest)) }
        var b = BigEndianBytes()
        b.u32(UInt32(entries.count))
        for e in entries { b.u32(UInt32(e.first)); b.u32(UInt32(e.count)); b.u32(1) }
        return box("stsc", self.full(0, 0, b.bytes))
    }

    private var sampleSizes: [UInt8] {
        var b = BigEndianBytes()
        b.bytes.reserveCapacity(8 + 4 * sizes.count)
        b.u32(0); b.u32(UInt32(sizes.count))
        for s in sizes { b.u32(s) }
        return box("stsz", full(0, 0, b.bytes))
    }

    /// `stco`, or `co64` where a chunk starts past 4 GiB.
    private var chunkOffsets: [UInt8] {
        var offsets: [Int64] = []
        var at = dataOffset
        for (i, s) in sizes.enumerated() {
            if i % packetsPerChunk == 0 { offsets.append(at) }
            at += Int64(s)
        }
        let wide = (offsets.last ?? 0) > Int64(UInt32.max)
        var b = BigEndianBytes()
        b.u32(UInt32(offsets.count))
        for o in offsets { if wide { b.u64(UInt64(o)) } else { b.u32(UInt32(o)) } }
        return box(wide ? "co64" : "stco", full(0, 0, b.bytes))
    }

    /// `meta` with the tags' items and the iTunes `iTunSMPB` item: priming, remainder and valid
    /// frames as Apple's encoder and iTunes write them.
    private func userData(_ trims: (priming: Int32, remainder: Int32, valid: Int64)?) -> [UInt8] {
        func hex(_ v: UInt64, _ width: Int) -> String {
            let s = String(v, radix: 16, uppercase: true)
            return String(repeating: "0", count: max(0, width - s.count)) + s
        }
        var items = tags
        if let trims {
            var text = " 00000000 \(hex(UInt64(trims.priming), 8)) \(hex(UInt64(trims.remainder), 8)) \(hex(UInt64(trims.valid), 16))"
            for _ in 0..<8 { text += " 00000000" }
            let data = box("data", BigEndianBytes.u32(1) + BigEndianBytes.u32(0) + Array(text.utf8))
            items += box("----", box("mean", full(0, 0, Array("com.apple.iTunes".utf8))) + box("name", full(0, 0, Array("iTunSMPB".utf8))) + data)
        }
        return box("meta", full(0, 0, handler("mdir", name: "", manufacturer: "appl") + box("ilst", items)))
    }
}
