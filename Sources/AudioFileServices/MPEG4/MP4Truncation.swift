import AudioCore

/// An `mdat` cut short: the file ends before the end its header declares, as an interrupted
/// download or copy of a file with `moov` first leaves it.
///
/// The sample tables then list samples past the end of the file. Those that lie in the missing
/// part of this `mdat` are dropped — the first of them, cut in the middle or missing, and every
/// one after it — and the file reads the samples that are there, with an
/// ``AudioFileRepair/Kind/audioDataTruncated`` repair. A sample table that points past the end
/// of the file anywhere else (an `mdat` that is whole) is still an error. A file cut before its
/// `moov` has no sample tables and stays an error.
struct MP4Truncation {
    /// Where the `mdat` body starts.
    let bodyOffset: Int64
    /// The box's offset and the end its header declares.
    let offset: Int64
    let declaredEnd: Int64
    /// The file's size.
    let fileSize: Int64

    /// The truncation of the last `mdat` among `top` (whose end the walk clamped to the file),
    /// or nil when it is whole or runs to the end of the file by a size of 0.
    static func find(top: [MP4Box], source: some AudioByteSource) throws(AudioFileError) -> MP4Truncation? {
        let size = source.size
        guard let mdat = top.last(where: { $0.type == "mdat" }), mdat.end == size, size - mdat.offset >= 8 else { return nil }
        let header = try source.bytes(at: mdat.offset, count: Int(min(16, size - mdat.offset)), chunk: "mdat")
        let size32 = header.be32(0)
        let declared: Int64
        if size32 == 1 {
            guard header.count >= 16 else { return nil }
            declared = Int64(bitPattern: header.be64(8))
        } else {
            declared = Int64(size32)
        }
        guard size32 != 0, declared > size - mdat.offset else { return nil }
        return MP4Truncation(bodyOffset: mdat.bodyOffset, offset: mdat.offset, declaredEnd: mdat.offset + declared, fileSize: size)
    }

    /// Whether a sample of `size` bytes at `offset`, which does not lie wholly in the file, lies
    /// in the missing part of this `mdat`.
    func covers(offset: Int64, size: Int64) -> Bool {
        offset >= bodyOffset && offset <= declaredEnd && size <= declaredEnd - offset
    }

    /// The repair to record.
    var repair: AudioFileRepair {
        AudioFileRepair(
            kind: .audioDataTruncated, chunk: "mdat", offset: offset,
            declaredSize: declaredEnd - bodyOffset, availableSize: fileSize - bodyOffset)
    }
}
