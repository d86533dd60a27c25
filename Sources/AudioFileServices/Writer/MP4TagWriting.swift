import AudioCore

/// iTunes-style metadata items for `moov/udta/meta/ilst`, as iTunes and ffmpeg write them: each
/// item a box named by its type holding a `data` box (a 32-bit type — 1 UTF-8, 0 binary, 21
/// integer, 13 JPEG, 14 PNG, 27 BMP —, a 32-bit locale of 0, the value).
enum MP4Tags {
    /// The items for `info` and `pictures`: keys the reader maps (``MP4Metadata/keys``) under
    /// their item types, `track number` as `trkn` (binary: 0, number, total, 0 in 16 bits each),
    /// `tempo` as `tmpo` (a 16-bit integer), `recorded date` as `©day` when there is no `year`,
    /// other keys as freeform `----` items of `com.apple.iTunes` named by the key, and the JPEG,
    /// PNG and BMP pictures as one `covr` item (other image types have no `covr` data type and
    /// are left out). Throws `parameter` for an item larger than a box holds.
    static func items(info: AudioFileInfo, pictures: [AudioFilePicture]) throws(AudioFileError) -> [UInt8] {
        var out: [UInt8] = []
        for entry in info.withRecordedDateAsYear {
            let key = entry.key.rawValue
            if entry.key == .trackNumber {
                guard let track = info.trackNumberAndTotal, track.number <= 0xFFFF else { continue }
                var value = BigEndianBytes()
                value.u16(0); value.u16(UInt16(track.number)); value.u16(UInt16(clamping: track.total ?? 0)); value.u16(0)
                out += try box(MP4Metadata.trkn, try data(0, value.bytes))
            } else if entry.key == .tempo {
                guard let bpm = Int(entry.value.filter { $0 != " " }), (0...0xFFFF).contains(bpm) else { continue }
                out += try box(MP4Metadata.tmpo, try data(21, BigEndianBytes.u32(UInt32(bpm)).suffix(2)))
            } else if let type = MP4Metadata.keys.first(where: { $0.value == key })?.key {
                out += try box(type, try data(1, Array(entry.value.utf8)))
            } else {
                out += try freeform(name: key, value: Array(entry.value.utf8))
            }
        }
        var covers: [UInt8] = []
        for picture in pictures {
            let type: UInt32
            switch picture.mimeType.lowercased() {
            case "image/jpeg", "image/jpg": type = 13
            case "image/png": type = 14
            case "image/bmp": type = 27
            default:
                switch AudioFilePicture.sniffMIMEType(picture.data[...]) {
                case "image/jpeg"?: type = 13
                case "image/png"?: type = 14
                case "image/bmp"?: type = 27
                default: continue
                }
            }
            covers += try data(type, picture.data)
        }
        if !covers.isEmpty { out += try box(MP4Metadata.covr, covers) }
        return out
    }

    /// A freeform `----` item: `mean` (`com.apple.iTunes`), `name` and a UTF-8 `data` value.
    static func freeform(name: String, value: [UInt8]) throws(AudioFileError) -> [UInt8] {
        let mean = try box(fourCC("mean"), [0, 0, 0, 0] + Array("com.apple.iTunes".utf8))
        let named = try box(fourCC("name"), [0, 0, 0, 0] + Array(name.utf8))
        return try box(MP4Metadata.freeform, mean + named + (try data(1, value)))
    }

    /// A `data` box of `type` holding `value`.
    static func data(_ type: UInt32, _ value: some Collection<UInt8>) throws(AudioFileError) -> [UInt8] {
        try box(fourCC("data"), BigEndianBytes.u32(type) + [0, 0, 0, 0] + value)
    }

    /// A box of `type` holding `body`; `parameter` when it would pass 4 GiB.
    static func box(_ type: UInt32, _ body: [UInt8]) throws(AudioFileError) -> [UInt8] {
        guard body.count <= 0xFFFF_FFFF - 8 else {
            throw AudioFileError(.parameter, "a metadata item of \(body.count) bytes is more than an MPEG-4 box holds")
        }
        return BigEndianBytes.u32(UInt32(body.count + 8)) + BigEndianBytes.u32(type) + body
    }

    private static func fourCC(_ s: String) -> UInt32 { FourCharCode(s).rawValue }
}
