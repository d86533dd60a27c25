import AudioCore

/// iTunes-style metadata (`moov/udta/meta/ilst`) and Nero chapters (`moov/udta/chpl`).
///
/// Each `ilst` item is a box named by its key (`©nam`, `trkn`, …, or `----` with `mean` and
/// `name` children) holding a `data` box: a 4-byte type (1: UTF-8, 0 or 21: binary/integer),
/// 4 bytes of locale, then the value. Items larger than 1 MiB (cover art, `covr`) are never
/// read when the file opens: only their box headers were looked at when the tree was indexed,
/// and `covr` pictures are read when asked for.
struct MP4Metadata {
    /// Entries under Apple's info dictionary keys, in file order.
    var info: [(key: String, value: String)] = []
    /// The `iTunSMPB` text, where present.
    var iTunSMPB: String?
    /// The encoder tag (`©too`), where present.
    var encoder: String?
    /// Where the `covr` item's pictures are (read only when asked for).
    var artwork: [ArtworkLocation] = []

    /// Apple's info dictionary keys for the iTunes item types.
    static let keys: [UInt32: String] = [
        0xA96E_616D: "title",  // ©nam
        0xA941_5254: "artist",  // ©ART
        0xA961_6C62: "album",  // ©alb
        0xA964_6179: "year",  // ©day
        0xA967_656E: "genre",  // ©gen
        0xA963_6D74: "comments",  // ©cmt
        0xA974_6F6F: "encoding application",  // ©too
        0xA977_7274: "composer",  // ©wrt
        0xA96C_7972: "lyricist",  // ©lyr
        0x6370_7274: "copyright",  // cprt
    ]
    static let trkn: UInt32 = 0x7472_6B6E
    static let gnre: UInt32 = 0x676E_7265
    static let tmpo: UInt32 = 0x746D_706F
    static let freeform: UInt32 = 0x2D2D_2D2D  // ----
    static let too: UInt32 = 0xA974_6F6F
    static let covr: UInt32 = 0x636F_7672

    init(tree: MP4BoxTree, moov: Int) {
        // A QuickTime movie's tags are text items right in `udta` where it has no `ilst`.
        defer { if info.isEmpty { info = Self.quickTimeUserData(tree: tree, moov: moov) } }
        guard let ilst = tree.find(moov, ["udta", "meta", "ilst"]) else { return }
        for item in tree.nodes[ilst].children {
            let type = tree.box(item).type.rawValue
            if type == Self.freeform {
                let mean = tree.child(item, "mean").flatMap { Self.text(tree, $0, skip: 4) }
                let name = tree.child(item, "name").flatMap { Self.text(tree, $0, skip: 4) }
                guard mean == "com.apple.iTunes", let name, let data = tree.child(item, "data") else { continue }
                if name == "iTunSMPB" {
                    iTunSMPB = Self.text(tree, data, skip: 8)
                } else if !name.isEmpty, !name.hasPrefix("iTun"), let text = Self.text(tree, data, skip: 8), !text.isEmpty {
                    // Another iTunes freeform item: its name is the key (as ffmpeg reads it, and as
                    // the writer records keys with no item type of their own); iTunes' data is left out.
                    info.append((name, text))
                }
                continue
            }
            if type == Self.covr {
                for data in tree.children(item, "data") where tree.box(data).bodySize > 8 {
                    let box = tree.box(data)
                    guard let head = try? tree.source.bytes(at: box.bodyOffset, count: 8, chunk: "covr") else { continue }
                    artwork.append(.mp4Cover(offset: box.bodyOffset + 8, size: box.bodySize - 8, dataType: head.be32(0) & 0xFF_FFFF))
                }
                continue
            }
            guard let data = tree.child(item, "data"), tree.box(data).bodySize >= 8, tree.box(data).bodySize <= 1 << 20 else { continue }
            guard let body = try? tree.body(data) else { continue }
            let kind = body.be32(0) & 0xFF_FFFF
            let value = body[8...]
            switch type {
            case Self.trkn:
                guard value.count >= 6 else { continue }
                let v = Array(value)
                let number = Int(v[2]) << 8 | Int(v[3])
                let total = Int(v[4]) << 8 | Int(v[5])
                info.append(("track number", total > 0 ? "\(number)/\(total)" : "\(number)"))
            case Self.gnre:
                guard value.count >= 2 else { continue }
                let index = Int(value[value.startIndex]) << 8 | Int(value[value.startIndex + 1])
                if index >= 1 && index <= ID3v1Genres.names.count { info.append(("genre", ID3v1Genres.names[index - 1])) }
            case Self.tmpo:
                guard value.count >= 2 else { continue }
                info.append(("tempo", String(Int(value[value.startIndex]) << 8 | Int(value[value.startIndex + 1]))))
            default:
                guard let key = Self.keys[type], kind == 1 || kind == 0 else { continue }
                let text = metadataText(value)
                guard !text.isEmpty else { continue }
                if type == Self.too { encoder = text }
                info.append((key, text))
            }
        }
    }

    /// The text of a box's body after `skip` bytes (version/flags, or data type and locale).
    private static func text(_ tree: MP4BoxTree, _ node: Int, skip: Int) -> String? {
        let size = tree.box(node).bodySize
        guard size >= Int64(skip), size <= 1 << 16, let body = try? tree.body(node) else { return nil }
        return metadataText(body[skip...])
    }

    /// Nero chapters: `chpl` in `moov/udta` — version, flags, (version 1: 4 reserved bytes),
    /// an 8-bit count, then per chapter a 64-bit start in 100 ns units, an 8-bit title length
    /// and the UTF-8 title.
    static func chapters(tree: MP4BoxTree, moov: Int) -> [AudioFileChapter] {
        guard let chpl = tree.find(moov, ["udta", "chpl"]) else { return [] }
        var out: [AudioFileChapter] = []
        do {
            guard tree.box(chpl).bodySize <= 1 << 20 else { return [] }
            var r = try tree.reader(chpl)
            let version = try r.u8()
            try r.skip(3)
            if version >= 1 { try r.skip(4) }
            let count = Int(try r.u8())
            for _ in 0..<count {
                let start = try r.u64be()
                let length = Int(try r.u8())
                let title = metadataText(try r.data(length))
                out.append(AudioFileChapter(startTime: Double(start) / 10_000_000, title: title))
            }
        } catch {
            // A chapter list cut short keeps the chapters read so far.
        }
        return out
    }
}

/// QuickTime chapter tracks: the audio track's `tref/chap` names a text track (`hdlr` `text` or
/// `sbtl`) whose samples are the chapter titles — a 16-bit length, then UTF-8 (or UTF-16 with a
/// byte-order mark) — and whose sample times (`stts`, in its `mdhd` timescale) are the starts.
enum MP4ChapterTrack {
    /// At most this many chapters are read.
    static let maximumChapters = 4096

    static func chapters(tree: MP4BoxTree, moov: Int, audioTrak: Int) throws(AudioFileError) -> [AudioFileChapter] {
        guard let chap = tree.find(audioTrak, ["tref", "chap"]), tree.box(chap).bodySize >= 4, tree.box(chap).bodySize <= 1024 else { return [] }
        let wanted = try tree.body(chap).be32(0)
        var track: Int?
        for trak in tree.children(moov, "trak") {
            guard let tkhd = tree.child(trak, "tkhd"), tree.box(tkhd).bodySize >= 24, tree.box(tkhd).bodySize <= 4096 else { continue }
            let b = try tree.body(tkhd)
            let id = b[0] == 1 ? (b.count >= 24 ? b.be32(20) : 0) : b.be32(12)
            if id == wanted { track = trak }
        }
        guard let track, let mdia = tree.child(track, "mdia"), let mdhd = tree.child(mdia, "mdhd"),
              let stbl = tree.find(mdia, ["minf", "stbl"]), let stts = tree.child(stbl, "stts"),
              tree.box(mdhd).bodySize <= 4096, tree.box(stts).bodySize <= 1 << 20
        else { return [] }
        var m = try tree.reader(mdhd)
        let version = try m.u8()
        try m.skip(3 + (version == 1 ? 16 : 8))
        let timescale = try m.u32be()
        guard timescale > 0 else { return [] }
        let samples = try MP4SampleTables(tree: tree, stbl: stbl, fileSize: tree.source.size, framesPerPacket: 1).table
        var t = try tree.reader(stts)
        try t.skip(4)
        let entries = Int(try t.u32be())
        guard entries <= t.remaining / 8 else { throw t.error("stts lists \(entries) entries but holds \(t.remaining / 8)") }
        var out: [AudioFileChapter] = []
        var time: Int64 = 0
        var index = 0
        entryLoop: for _ in 0..<entries {
            let count = Int(try t.u32be())
            let delta = Int64(try t.u32be())
            for _ in 0..<count {
                guard index < samples.count, out.count < maximumChapters else { break entryLoop }
                let size = Int(min(samples.sizes[index], 1024))
                let bytes = try tree.source.bytes(at: samples.offsets[index], count: size, chunk: "chap")
                out.append(AudioFileChapter(startTime: Double(time) / Double(timescale), title: title(bytes)))
                time += delta
                index += 1
            }
        }
        return out
    }

    /// A text sample's string.
    static func title(_ bytes: [UInt8]) -> String {
        guard bytes.count >= 2 else { return "" }
        let length = min(Int(bytes[0]) << 8 | Int(bytes[1]), bytes.count - 2)
        let text = bytes[2..<(2 + length)]
        if text.count >= 2, text.first == 0xFE, text[text.startIndex + 1] == 0xFF {
            var units: [UInt16] = []
            var i = text.startIndex + 2
            while i + 1 < text.endIndex {
                units.append(UInt16(text[i]) << 8 | UInt16(text[i + 1]))
                i += 2
            }
            return String(decoding: units, as: UTF16.self)
        }
        return String(decoding: text, as: UTF8.self)
    }
}

/// The ID3v1 genre names (with Winamp's extensions) that iTunes' `gnre` item indexes from 1.
enum ID3v1Genres {
    static let names: [String] = """
        Blues,Classic Rock,Country,Dance,Disco,Funk,Grunge,Hip-Hop,Jazz,Metal,New Age,Oldies,Other,Pop,R&B,Rap,Reggae,\
        Rock,Techno,Industrial,Alternative,Ska,Death Metal,Pranks,Soundtrack,Euro-Techno,Ambient,Trip-Hop,Vocal,\
        Jazz+Funk,Fusion,Trance,Classical,Instrumental,Acid,House,Game,Sound Clip,Gospel,Noise,AlternRock,Bass,Soul,\
        Punk,Space,Meditative,Instrumental Pop,Instrumental Rock,Ethnic,Gothic,Darkwave,Techno-Industrial,Electronic,\
        Pop-Folk,Eurodance,Dream,Southern Rock,Comedy,Cult,Gangsta,Top 40,Christian Rap,Pop/Funk,Jungle,\
        Native American,Cabaret,New Wave,Psychadelic,Rave,Showtunes,Trailer,Lo-Fi,Tribal,Acid Punk,Acid Jazz,Polka,\
        Retro,Musical,Rock & Roll,Hard Rock,Folk,Folk-Rock,National Folk,Swing,Fast Fusion,Bebob,Latin,Revival,\
        Celtic,Bluegrass,Avantgarde,Gothic Rock,Progressive Rock,Psychedelic Rock,Symphonic Rock,Slow Rock,Big Band,\
        Chorus,Easy Listening,Acoustic,Humour,Speech,Chanson,Opera,Chamber Music,Sonata,Symphony,Booty Bass,Primus,\
        Porn Groove,Satire,Slow Jam,Club,Tango,Samba,Folklore,Ballad,Power Ballad,Rhythmic Soul,Freestyle,Duet,\
        Punk Rock,Drum Solo,A capella,Euro-House,Dance Hall
        """.split(separator: ",").map(String.init)
}
