import AudioCore

/// The samples of a fragmented MPEG-4 file (ISO/IEC 14496-12, 8.8): `moov/mvex/trex` gives each
/// track's defaults, each top-level `moof` holds `traf` boxes whose `tfhd` names the track and
/// overrides the defaults, and whose `trun` boxes list samples (size and duration each, or the
/// defaults) from a data offset.
///
/// Data offsets follow the standard: `tfhd`'s `base_data_offset` where present; else the start of
/// the `moof` for the first `traf` (and for every one with `default-base-is-moof`), the end of the
/// previous `traf`'s data otherwise; a `trun` without a data offset continues where the previous
/// one ended. Counts are checked against the bytes of their box, or (for samples of the default
/// size) against the bytes left in the file, before any sample is listed.
struct MP4Fragments {
    /// `trex` defaults of one track.
    struct Defaults {
        var duration: UInt32 = 0
        var size: UInt32 = 0
    }

    /// Samples' total duration, in the media timescale.
    private(set) var duration: Int64 = 0
    /// Sum of the sample sizes, those of the `moov` sample tables included. Samples never
    /// overlap, so it cannot exceed the file: that bounds the packet count.
    private(set) var byteCount: Int64

    /// Fragments to follow `moov` samples of `byteCount` bytes.
    init(byteCount: Int64) { self.byteCount = byteCount }
    /// Fragments that carried samples of the track.
    private(set) var fragmentCount = 0

    /// The `trex` defaults for `trackID` in `moov/mvex`.
    static func defaults(tree: MP4BoxTree, moov: Int, trackID: UInt32) throws(AudioFileError) -> Defaults {
        guard let mvex = tree.child(moov, "mvex") else { return Defaults() }
        for trex in tree.children(mvex, "trex") where tree.box(trex).bodySize >= 24 && tree.box(trex).bodySize <= 64 {
            let b = try tree.body(trex)
            if b.be32(4) == trackID { return Defaults(duration: b.be32(12), size: b.be32(16)) }
        }
        return Defaults()
    }

    /// Appends the samples of `trackID` in every `moof` of `top` to `table`.
    mutating func append(
        to table: inout PacketTable, source: some AudioByteSource, top: [MP4Box], trackID: UInt32, defaults: Defaults
    ) throws(AudioFileError) {
        let fileSize = source.size
        for moof in top where moof.type == "moof" {
            let tree = try MP4BoxTree(source: source, root: moof)
            var previousEnd = moof.offset
            var first = true
            for traf in tree.children(tree.root, "traf") {
                guard let tfhdNode = tree.child(traf, "tfhd"), tree.box(tfhdNode).bodySize <= 64 else {
                    throw AudioFileError(.invalidFile, "track fragment without 'tfhd'", chunk: "traf", offset: tree.box(traf).offset)
                }
                var h = try tree.reader(tfhdNode)
                let flags = try h.u32be() & 0xFF_FFFF
                let id = try h.u32be()
                var base: Int64
                if flags & 0x01 != 0 {
                    let value = try h.u64be()
                    guard value <= UInt64(fileSize) else { throw h.error("base data offset \(value) is past the end of the file", .invalidFile) }
                    base = Int64(value)
                } else if flags & 0x02_0000 != 0 || first {
                    base = moof.offset
                } else {
                    base = previousEnd
                }
                first = false
                if flags & 0x02 != 0 { _ = try h.u32be() }  // sample description index
                var sampleDuration = defaults.duration, sampleSize = defaults.size
                if flags & 0x08 != 0 { sampleDuration = try h.u32be() }
                if flags & 0x10 != 0 { sampleSize = try h.u32be() }
                guard id == trackID else { continue }
                fragmentCount += 1
                var position = base
                for trun in tree.children(traf, "trun") {
                    position = try run(
                        tree: tree, trun, base: base, position: position, defaultDuration: sampleDuration,
                        defaultSize: sampleSize, fileSize: fileSize, table: &table)
                }
                previousEnd = position
            }
        }
    }

    /// One `trun`: returns where its data ends.
    private mutating func run(
        tree: MP4BoxTree, _ node: Int, base: Int64, position: Int64, defaultDuration: UInt32, defaultSize: UInt32,
        fileSize: Int64, table: inout PacketTable
    ) throws(AudioFileError) -> Int64 {
        let body = try MP4BoxBody(tree, node)
        guard body.count >= 8 else { throw body.error("trun of \(body.count) bytes is shorter than its 8 fixed bytes") }
        let raw = body.raw
        let flags = raw.be32(0) & 0xFF_FFFF
        let count = Int64(raw.be32(4))
        var p = 8
        var offset = position
        if flags & 0x01 != 0 {
            guard body.count >= p + 4 else { throw body.error("trun ends inside its data offset") }
            offset = base + Int64(Int32(bitPattern: raw.be32(p)))
            p += 4
        }
        if flags & 0x04 != 0 { p += 4 }  // first sample flags
        let hasDuration = flags & 0x100 != 0, hasSize = flags & 0x200 != 0
        let record = (hasDuration ? 4 : 0) + (hasSize ? 4 : 0) + (flags & 0x400 != 0 ? 4 : 0) + (flags & 0x800 != 0 ? 4 : 0)
        guard p <= body.count else { throw body.error("trun ends inside its header") }
        if record > 0 {
            guard count <= Int64((body.count - p) / record) else {
                throw body.error("trun lists \(count) samples but holds \((body.count - p) / record)")
            }
        }
        if !hasSize && count > 0 {
            // Samples of the default size: the file bounds how many there can be.
            guard defaultSize > 0, offset >= 0, offset <= fileSize, count <= (fileSize - offset) / Int64(defaultSize),
                  count <= (fileSize - byteCount) / Int64(defaultSize)
            else {
                throw body.error("trun's \(count) samples of \(defaultSize) bytes at offset \(offset) do not fit in the file", .invalidFile)
            }
        }
        for _ in 0..<count {
            var sampleDuration = defaultDuration, size = defaultSize
            if hasDuration { sampleDuration = raw.be32(p); p += 4 }
            if hasSize { size = raw.be32(p); p += 4 }
            if flags & 0x400 != 0 { p += 4 }
            if flags & 0x800 != 0 { p += 4 }
            guard offset >= 0, offset <= fileSize, Int64(size) <= fileSize - offset else {
                throw body.error("fragment sample of \(size) bytes at offset \(offset) lies past the end of the file (\(fileSize) bytes)", .invalidFile)
            }
            guard Int64(size) <= fileSize - byteCount else {
                throw body.error("the fragments' samples add up to more bytes than the file holds", .invalidFile)
            }
            table.append(offset: offset, size: size)
            offset += Int64(size)
            byteCount += Int64(size)
            let (sum, overflow) = duration.addingReportingOverflow(Int64(sampleDuration))
            guard !overflow else { throw body.error("fragment durations add up to more than 2^63", .invalidFile) }
            duration = sum
        }
        return offset
    }
}
