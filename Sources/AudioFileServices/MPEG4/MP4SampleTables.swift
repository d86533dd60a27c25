import AudioCore

/// The sample tables of one track (ISO/IEC 14496-12, 8.6–8.7) turned into a ``PacketTable``:
/// `stsz`/`stz2` give each sample's size, `stco`/`co64` each chunk's offset, `stsc` how many
/// samples each chunk holds, `stts` their durations.
///
/// Every count is checked against the bytes its box holds before anything is reserved, every
/// sample's byte range against the file, and the walk is one pass over the chunks and samples
/// reading the tables in place (no per-entry copies).
struct MP4SampleTables {
    /// The packets, in decoding order.
    let table: PacketTable
    /// Sum of the `stts` durations, in the media timescale.
    let duration: Int64
    /// Samples `stts` lists.
    let timedSamples: Int64
    /// Sum of the packet sizes.
    let byteCount: Int64
    /// True when the table stops early: the file ends inside `truncation`'s `mdat`, before the
    /// sample it lists next.
    let isCut: Bool

    /// Reads the tables. A sample past the end of the file is an error, except in the missing
    /// part of `truncation`'s `mdat` (see ``MP4Truncation``): the table then ends before it.
    init(tree: MP4BoxTree, stbl: Int, fileSize: Int64, framesPerPacket: UInt32, truncation: MP4Truncation? = nil) throws(AudioFileError) {
        func required(_ type: FourCharCode) throws(AudioFileError) -> Int {
            guard let node = tree.child(stbl, type) else {
                throw AudioFileError(.invalidFile, "sample table without '\(type)'", chunk: "stbl", offset: tree.box(stbl).offset)
            }
            return node
        }
        let sizesNode = tree.child(stbl, "stsz") ?? tree.child(stbl, "stz2")
        guard let sizesNode else {
            throw AudioFileError(.invalidFile, "sample table without 'stsz' or 'stz2'", chunk: "stbl", offset: tree.box(stbl).offset)
        }
        let offsetsNode = tree.child(stbl, "stco") ?? tree.child(stbl, "co64")
        guard let offsetsNode else {
            throw AudioFileError(.invalidFile, "sample table without 'stco' or 'co64'", chunk: "stbl", offset: tree.box(stbl).offset)
        }
        let stscNode = try required("stsc")
        let sttsNode = try required("stts")

        let sizes = try SampleSizes(MP4BoxBody(tree, sizesNode), fileSize: fileSize)
        let chunks = try ChunkOffsets(MP4BoxBody(tree, offsetsNode))
        (duration, timedSamples) = try Self.timeToSample(MP4BoxBody(tree, sttsNode))

        // stsc: (first_chunk, samples_per_chunk, sample_description_index), 12 bytes each.
        let stsc = try MP4BoxBody(tree, stscNode)
        guard stsc.count >= 8 else { throw stsc.error("stsc of \(stsc.count) bytes is shorter than its 8 fixed bytes") }
        let raw = stsc.raw
        let runs = Int(raw.be32(4))
        guard runs <= (stsc.count - 8) / 12 else { throw stsc.error("stsc lists \(runs) entries but holds \((stsc.count - 8) / 12)") }

        // The count is bounded by the stsz bytes (or, for a constant size, by the file); the
        // reservation is bounded further, and the table grows only as samples check out.
        var table = PacketTable(framesPerPacket: framesPerPacket, capacity: min(sizes.count, 1 << 20))
        var sample = 0
        var bytes: Int64 = 0
        var previousFirst: UInt32 = 0
        var cut = false
        runs: for run in 0..<runs {
            let p = 8 + run * 12
            let first = raw.be32(p)
            let perChunk = Int(raw.be32(p + 4))
            guard first >= 1, first > previousFirst, run > 0 || first == 1 else {
                throw stsc.error("stsc entry \(run) starts at chunk \(first) (chunks are numbered from 1, in increasing order)", .invalidFile)
            }
            guard Int(first) <= chunks.count else {
                throw stsc.error("stsc entry \(run) starts at chunk \(first) but the chunk offset table has \(chunks.count)", .invalidFile)
            }
            previousFirst = first
            let lastChunk = run + 1 < runs ? min(Int(raw.be32(p + 12)) - 1, chunks.count) : chunks.count
            var chunk = Int(first)
            while chunk <= lastChunk && sample < sizes.count {
                var offset = chunks.offset(chunk - 1)
                let n = min(perChunk, sizes.count - sample)
                for _ in 0..<n {
                    let size = sizes.size(sample)
                    guard offset >= 0, offset <= fileSize, Int64(size) <= fileSize - offset else {
                        if let truncation, truncation.covers(offset: offset, size: Int64(size)) {
                            cut = true
                            break runs
                        }
                        throw chunks.body.error(
                            "sample \(sample) (\(size) bytes at offset \(offset), chunk \(chunk)) lies past the end of the file (\(fileSize) bytes)",
                            .invalidFile)
                    }
                    table.append(offset: offset, size: size)
                    offset += Int64(size)
                    bytes += Int64(size)
                    sample += 1
                }
                chunk += 1
            }
        }
        isCut = cut
        guard sample == sizes.count || cut else {
            throw stsc.error("the chunks hold \(sample) of the \(sizes.count) samples the sample size table lists", .invalidFile)
        }
        self.table = table
        byteCount = bytes
    }

    /// `stts`: (sample_count, sample_delta) pairs. Returns the total duration and sample count,
    /// or throws when they overflow 63 bits.
    private static func timeToSample(_ stts: MP4BoxBody) throws(AudioFileError) -> (Int64, Int64) {
        guard stts.count >= 8 else { throw stts.error("stts of \(stts.count) bytes is shorter than its 8 fixed bytes") }
        let raw = stts.raw
        let entries = Int(raw.be32(4))
        guard entries <= (stts.count - 8) / 8 else { throw stts.error("stts lists \(entries) entries but holds \((stts.count - 8) / 8)") }
        var duration: Int64 = 0
        var samples: Int64 = 0
        var p = 8
        for _ in 0..<entries {
            let count = Int64(raw.be32(p))
            let delta = Int64(raw.be32(p + 4))
            let (product, o1) = count.multipliedReportingOverflow(by: delta)
            let (sum, o2) = duration.addingReportingOverflow(product)
            guard !o1, !o2 else { throw stts.error("stts durations add up to more than 2^63", .invalidFile) }
            duration = sum
            samples += count
            p += 8
        }
        return (duration, samples)
    }
}

/// `stsz` (a constant size, or one 32-bit size per sample) or `stz2` (4, 8 or 16-bit sizes).
private struct SampleSizes {
    let body: MP4BoxBody
    let count: Int
    let constant: UInt32
    let fieldBits: Int

    init(_ body: MP4BoxBody, fileSize: Int64) throws(AudioFileError) {
        self.body = body
        let name = body.box.name
        guard body.count >= 12 else { throw body.error("\(name) of \(body.count) bytes is shorter than its 12 fixed bytes") }
        let raw = body.raw
        let sampleCount = Int64(raw.be32(8))
        if body.box.type == "stsz" {
            constant = raw.be32(4)
            fieldBits = constant == 0 ? 32 : 0
        } else {
            constant = 0
            fieldBits = Int(raw[7])
            guard fieldBits == 4 || fieldBits == 8 || fieldBits == 16 else {
                throw body.error("stz2 field size \(fieldBits) (4, 8 or 16 allowed)")
            }
        }
        if fieldBits > 0 {
            let holds = Int64(body.count - 12) * 8 / Int64(fieldBits)
            guard sampleCount <= holds else { throw body.error("\(name) lists \(sampleCount) samples but holds \(holds) sizes") }
        } else {
            // Every sample of a constant size lies in the file.
            guard sampleCount <= fileSize / Int64(constant) else {
                throw body.error("\(sampleCount) samples of \(constant) bytes are more than the file's \(fileSize) bytes", .invalidFile)
            }
            // A stream's size is unknown, so it bounds nothing: allow as many samples as a
            // header within the stream header limit could list one by one.
            let streamLimit = Int64(AudioFileStream.maximumHeaderBytes / 4)
            guard fileSize < StreamPrefixSource.unboundedSize || sampleCount <= streamLimit else {
                throw body.error("\(name) lists \(sampleCount) samples of \(constant) bytes, more than the \(streamLimit) a stream may hold", .invalidFile)
            }
        }
        count = Int(sampleCount)
    }

    @inline(__always) func size(_ i: Int) -> UInt32 {
        let raw = body.raw
        switch fieldBits {
        case 0: return constant
        case 32: return raw.be32(12 + 4 * i)
        case 16: return UInt32(raw.be16(12 + 2 * i))
        case 8: return UInt32(raw[12 + i])
        default:
            let byte = raw[12 + i / 2]
            return UInt32(i & 1 == 0 ? byte >> 4 : byte & 0xF)
        }
    }
}

/// `stco` (32-bit) or `co64` (64-bit) chunk offsets.
private struct ChunkOffsets {
    let body: MP4BoxBody
    let count: Int
    let wide: Bool

    init(_ body: MP4BoxBody) throws(AudioFileError) {
        self.body = body
        let name = body.box.name
        guard body.count >= 8 else { throw body.error("\(name) of \(body.count) bytes is shorter than its 8 fixed bytes") }
        wide = body.box.type == "co64"
        let entries = Int(body.raw.be32(4))
        let holds = (body.count - 8) / (wide ? 8 : 4)
        guard entries <= holds else { throw body.error("\(name) lists \(entries) chunks but holds \(holds)") }
        count = entries
    }

    @inline(__always) func offset(_ i: Int) -> Int64 {
        wide ? Int64(bitPattern: body.raw.be64(8 + 8 * i)) : Int64(body.raw.be32(8 + 4 * i))
    }
}
