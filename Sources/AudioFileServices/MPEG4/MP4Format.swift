public import AudioCore

/// MPEG-4 audio files — M4A, M4B, MP4, 3GP — as ISO/IEC 14496-12 and 14496-14 define them, with
/// Apple's `AudioFile` semantics.
///
/// - **Brands**: the `ftyp` major brand sets the file type: `M4A ` → `'m4af'`, `M4B ` → `'m4bf'`,
///   `3gp…` → `'3gpp'`, `3g2…` → `'3gp2'`, anything else (`mp42`, `isom`, …) → `'mp4f'`. `M4P `
///   (FairPlay-protected) and encrypted sample entries throw `'fmt?'`.
/// - **Boxes**: 32-bit sizes, 64-bit `largesize` (size 1), size 0 running to the end of the file
///   (or of the enclosing box); `moov` before or after `mdat`. Every size is checked against its
///   container and the file; nesting is limited to 16 levels.
/// - **Track**: the first enabled `soun` track (else the first `soun` track);
///   ``trackCount`` counts the audio tracks (`kAudioFilePropertyAudioTrackCount`: a chapter
///   or text track does not count).
/// - **Formats**: `mp4a` with `esds` — AAC (`'aac '` with the object type in the flags, `'aach'`
///   or `'aacp'` at the SBR rate with 2048 frames per packet when the AudioSpecificConfig signals
///   SBR or PS explicitly, hierarchically or by the 0x2b7 sync extension; the magic cookie is
///   the ES_Descriptor, as Apple's `AudioFile` returns it) or MP3; `alac` (`'alac'` with the bit
///   depth flag 1–4 and the config's frames per packet; the magic cookie is the whole `alac` box
///   — size, type, version and flags, then the ALACSpecificConfig — the form Apple's ALAC
///   decoder and ffmpeg's accept).
/// - **Packets**: `stts`, `stsc`, `stsz`/`stz2`, `stco`/`co64`; every count is checked against
///   the bytes of its box before anything is reserved, every sample's range against the file.
/// - **Gapless**: ``packetTableInfo`` (in output frames: for HE-AAC at the SBR rate) from, in
///   order: the iTunes `iTunSMPB` item (core frames, doubled for HE-AAC); the edit list
///   (`media_time` = priming, `segment_duration` converted from the movie to the media timescale
///   = valid frames); for ALAC and MP3, a `stts` total shorter than the packets (the remainder);
///   for AAC, Apple's 2112 priming frames only when the `©too` encoder tag names iTunes or Apple.
///   Otherwise none (``gaplessSource`` is nil).
/// - **Metadata**: `udta/meta/ilst` text items under Apple's info keys; cover art (`covr`) is read when asked for.
///   Chapters from a QuickTime chapter track (`tref/chap`), else from Nero's `chpl`.
/// - **Cut short**: a file whose `moov` comes first and whose `mdat` the file ends inside reads
///   the whole samples that are there (a sample cut in the middle is dropped) and lists an
///   `audioDataTruncated` repair; a sample table pointing past the end of the file elsewhere,
///   or a file cut before its `moov`, is still an error.
/// - **Fragmented files** (`mvex` in `moov`, `moof` boxes at the top level): the samples of the
///   `moov` sample tables, then those of every fragment's `traf`/`trun` for the track, in file
///   order; `mfra` and `sidx` are not needed and ignored.
public struct MP4Format: AudioFileFormat, DescribedFormat, StoresAudioData, ArtworkLocated {
    /// Apple's MPEG-4 types: `'m4af'`, `'m4bf'` and `'mp4f'` written, 3GPP and 3GPP2 read only.
    public static let descriptor = declaring(
        AudioFileTypeDescriptor(
            .m4a, name: "Apple MPEG-4 Audio", extensions: ["m4a", "m4r"], utis: ["com.apple.m4a-audio"],
            mimeTypes: ["audio/mp4", "audio/x-m4a"], hfsTypeCodes: ["M4A "], writes: writableFormats),
        AudioFileTypeDescriptor(.m4b, name: "Apple MPEG-4 AudioBooks", extensions: ["m4b"], hfsTypeCodes: ["M4B "], writes: writableFormats),
        AudioFileTypeDescriptor(
            .mpeg4, name: "MPEG-4 Audio", extensions: ["mp4"], utis: ["public.mpeg-4"], mimeTypes: ["audio/mp4"], hfsTypeCodes: ["mpg4"],
            writes: writableFormats),
        AudioFileTypeDescriptor(.threeGPP, name: "3GP Audio", extensions: ["3gp"], utis: ["public.3gpp"], mimeTypes: ["audio/3gpp"], hfsTypeCodes: ["3gpp"]),
        AudioFileTypeDescriptor(
            .threeGPP2, name: "3GPP-2 Audio", extensions: ["3g2"], utis: ["public.3gpp2"], mimeTypes: ["audio/3gpp2"], hfsTypeCodes: ["3gp2"]),
        otherExtensions: ["m4p", "3gpp", "3gpp2"], streamCutting: .boxes)

    private static let writableFormats: [AudioFormatID] = [.mpeg4AAC, .appleLossless, .flac, .opus]

    public static func canRead(prefix: UnsafeRawBufferPointer) -> Bool {
        guard prefix.count >= 12, FourCharCode(prefix[4], prefix[5], prefix[6], prefix[7]) == "ftyp" else { return false }
        let size = UInt32(prefix[0]) << 24 | UInt32(prefix[1]) << 16 | UInt32(prefix[2]) << 8 | UInt32(prefix[3])
        return size >= 16 || size == 1
    }

    public let fileType: AudioFileType
    let audioData: AudioData
    public let packetTableInfo: AudioFilePacketTableInfo?
    public let magicCookie: [UInt8]?
    public let channelLayout: AudioChannelLayout?
    public let info: [(key: String, value: String)]
    public let trackCount: Int
    public let chapters: [AudioFileChapter]
    /// The `ftyp` major brand (nil without `ftyp`).
    public let majorBrand: FourCharCode?
    /// True when `moov` comes before the audio data (`-movflags +faststart`; Apple's "optimized").
    public let isOptimized: Bool
    /// Where ``packetTableInfo`` came from: `iTunSMPB`, `editList`, `sampleDurations`,
    /// `appleEncoderConvention`, or nil when there is none.
    public let gaplessSource: String?
    /// The media timescale of the audio track (`mdhd`).
    public let mediaTimescale: UInt32
    /// True for a fragmented file (`mvex` in `moov`, or `moof` boxes).
    public let isFragmented: Bool
    /// Movie fragments that hold samples of the audio track.
    public let fragmentCount: Int
    /// An `mdat` cut short (moov first, the file ending inside the audio): the samples that are
    /// there are read (see ``AudioFileRepair/Kind/audioDataTruncated``).
    public let repairs: [AudioFileRepair]
    /// Where the pictures lie (``artwork(reading:)`` reads them): the `covr` item's pictures.
    let artworkLocations: [ArtworkLocation]

    public init(reading source: some AudioByteSource) throws(AudioFileError) {
        let top = try MP4TopLevel.walk(source)
        var brand: FourCharCode?
        if let ftyp = top.first(where: { $0.type == "ftyp" }) {
            guard ftyp.bodySize >= 8, ftyp.bodySize <= 4096 else {
                throw AudioFileError(.invalidChunk, "ftyp of \(ftyp.bodySize) bytes", chunk: "ftyp", offset: ftyp.offset)
            }
            let body = try source.bytes(at: ftyp.bodyOffset, count: Int(ftyp.bodySize), chunk: "ftyp")
            brand = FourCharCode(rawValue: body.be32(0))
            var brands = [brand!]
            var p = 8
            while p + 4 <= body.count {
                brands.append(FourCharCode(rawValue: body.be32(p)))
                p += 4
            }
            if brand == "M4P " || brands.contains("M4P ") {
                throw AudioFileError(
                    .unsupportedDataFormat, "an M4P file: the audio is protected by FairPlay DRM and cannot be read",
                    chunk: "ftyp", offset: ftyp.offset)
            }
        }
        majorBrand = brand
        fileType = Self.fileType(brand: brand)
        guard let moovBox = top.first(where: { $0.type == "moov" }) else {
            throw AudioFileError(.invalidFile, "no 'moov' box: the file is cut short or not an MPEG-4 file", chunk: "moov", offset: nil)
        }
        let tree = try MP4BoxTree(source: source, root: moovBox)
        let moov = tree.root

        let movieTimescale = try Self.timescale(tree, tree.child(moov, "mvhd"), name: "mvhd")
        let traks = tree.children(moov, "trak")
        var audio: [(trak: Int, enabled: Bool)] = []
        for trak in traks {
            guard let hdlr = tree.find(trak, ["mdia", "hdlr"]), tree.box(hdlr).bodySize >= 12 else { continue }
            let h = try tree.body(hdlr)
            guard FourCharCode(rawValue: h.be32(8)) == "soun" else { continue }
            var enabled = true
            if let tkhd = tree.child(trak, "tkhd"), tree.box(tkhd).bodySize >= 4 {
                enabled = try tree.body(tkhd)[3] & 1 != 0
            }
            audio.append((trak, enabled))
        }
        trackCount = audio.count
        guard let chosen = audio.first(where: \.enabled) ?? audio.first else {
            throw AudioFileError(
                .invalidFile, "no audio track among the file's \(traks.count) tracks", chunk: "trak", offset: moovBox.offset)
        }
        let trak = chosen.trak
        guard let mdia = tree.child(trak, "mdia") else {
            throw AudioFileError(.invalidFile, "audio track without 'mdia'", chunk: "trak", offset: tree.box(trak).offset)
        }
        mediaTimescale = try Self.timescale(tree, tree.child(mdia, "mdhd"), name: "mdhd")
        guard let stbl = tree.find(mdia, ["minf", "stbl"]) else {
            throw AudioFileError(.invalidFile, "audio track without a sample table", chunk: "mdia", offset: tree.box(mdia).offset)
        }
        guard let stsd = tree.child(stbl, "stsd") else {
            throw AudioFileError(.invalidFile, "sample table without 'stsd'", chunk: "stbl", offset: tree.box(stbl).offset)
        }
        let description = try MP4SampleDescription(tree: tree, stsd: stsd, mediaTimescale: mediaTimescale)
        var dataFormat = description.format
        magicCookie = description.cookie
        channelLayout = description.channelLayout
            ?? description.channelConfiguration.flatMap(AudioChannelLayoutTag.aac(channelConfiguration:)).map { AudioChannelLayout(tag: $0) }

        let truncation = try MP4Truncation.find(top: top, source: source)
        var tables = try MP4SampleTables(
            tree: tree, stbl: stbl, fileSize: source.size, framesPerPacket: description.format.framesPerPacket, truncation: truncation)
        // MPEG audio's layer is in its frames, not its objectTypeIndication.
        if let layered = MP4SampleDescription.mpegAudioLayer(of: dataFormat, firstPacket: tables.table.offsets.first, source: source) {
            dataFormat = layered
            if layered.framesPerPacket != description.format.framesPerPacket {
                tables = try MP4SampleTables(
                    tree: tree, stbl: stbl, fileSize: source.size, framesPerPacket: layered.framesPerPacket, truncation: truncation)
            }
        }
        repairs = tables.isCut ? truncation.map { [$0.repair] } ?? [] : []
        var table = tables.table
        var duration = tables.duration
        var byteCount = tables.byteCount
        isFragmented = tree.child(moov, "mvex") != nil || top.contains { $0.type == "moof" }
        if isFragmented {
            let trackID = try Self.trackID(tree, trak)
            var fragments = MP4Fragments(byteCount: byteCount)
            try fragments.append(
                to: &table, source: source, top: top, trackID: trackID,
                defaults: try MP4Fragments.defaults(tree: tree, moov: moov, trackID: trackID))
            byteCount = fragments.byteCount
            duration = duration.addingReportingOverflow(fragments.duration).overflow ? .max : duration + fragments.duration
            fragmentCount = fragments.fragmentCount
        } else {
            fragmentCount = 0
        }
        let dataOffset = table.offsets.first ?? top.first(where: { $0.type == "mdat" }).map(\.bodyOffset) ?? 0
        audioData = AudioData(format: dataFormat, offset: dataOffset, byteCount: byteCount, packets: .table(table))
        isOptimized = moovBox.offset < (top.first(where: { $0.type == "mdat" })?.offset ?? .max)

        let metadata = MP4Metadata(tree: tree, moov: moov)
        info = metadata.info
        artworkLocations = metadata.artwork
        // Apple's chapter track first, else Nero's list; a chapter track that cannot be read
        // costs the chapters only.
        let trackChapters = (try? MP4ChapterTrack.chapters(tree: tree, moov: moov, audioTrak: trak)) ?? []
        chapters = trackChapters.isEmpty ? MP4Metadata.chapters(tree: tree, moov: moov) : trackChapters
        let gapless = MP4Gapless.packetTableInfo(MP4Gapless.Facts(
            iTunSMPB: metadata.iTunSMPB, edits: try Self.edits(tree, trak), movieTimescale: movieTimescale,
            mediaTimescale: mediaTimescale, sampleRate: dataFormat.sampleRate, totalFrames: table.totalFrames,
            timedDuration: duration, encoder: metadata.encoder, formatID: dataFormat.formatID,
            framesPerCoreFrame: description.framesPerCoreFrame))
        let trims = MP4Gapless.opusPreSkip(gapless, format: dataFormat, cookie: magicCookie, totalFrames: table.totalFrames)
        packetTableInfo = trims?.info
        gaplessSource = trims?.origin.rawValue
    }

    static func fileType(brand: FourCharCode?) -> AudioFileType {
        guard let brand else { return .mpeg4 }
        if brand == "M4A " { return .m4a }
        if brand == "M4B " { return .m4b }
        let text = brand.description
        if text.hasPrefix("3gp") { return .threeGPP }
        if text.hasPrefix("3g2") { return .threeGPP2 }
        return .mpeg4
    }

    /// The track's ID in its `tkhd` (version 0: after 32-bit times; version 1: 64-bit).
    private static func trackID(_ tree: MP4BoxTree, _ trak: Int) throws(AudioFileError) -> UInt32 {
        guard let tkhd = tree.child(trak, "tkhd"), tree.box(tkhd).bodySize <= 4096 else {
            throw AudioFileError(.invalidFile, "fragmented track without 'tkhd'", chunk: "trak", offset: tree.box(trak).offset)
        }
        var r = try tree.reader(tkhd)
        let version = try r.u8()
        try r.skip(3 + (version == 1 ? 16 : 8))
        return try r.u32be()
    }

    /// The timescale of an `mvhd` or `mdhd` (version 0: 32-bit times; version 1: 64-bit).
    private static func timescale(_ tree: MP4BoxTree, _ node: Int?, name: String) throws(AudioFileError) -> UInt32 {
        guard let node else { throw AudioFileError(.invalidFile, "no '\(name)' box", chunk: name, offset: nil) }
        guard tree.box(node).bodySize <= 4096 else {
            throw AudioFileError(.invalidChunk, "\(name) of \(tree.box(node).bodySize) bytes", chunk: name, offset: tree.box(node).offset)
        }
        var r = try tree.reader(node)
        let version = try r.u8()
        try r.skip(3 + (version == 1 ? 16 : 8))
        let scale = try r.u32be()
        guard scale > 0 else { throw r.error("\(name) timescale is 0", .invalidFile) }
        return scale
    }

    /// The edits of the track's `edts/elst`.
    private static func edits(_ tree: MP4BoxTree, _ trak: Int) throws(AudioFileError) -> [MP4Gapless.Edit] {
        guard let elst = tree.find(trak, ["edts", "elst"]), tree.box(elst).bodySize <= 1 << 16 else { return [] }
        var r = try tree.reader(elst)
        let version = try r.u8()
        try r.skip(3)
        let count = Int(try r.u32be())
        let entrySize = version == 1 ? 20 : 12
        guard count <= r.remaining / entrySize else {
            throw r.error("elst lists \(count) edits but holds \(r.remaining / entrySize)")
        }
        var out: [MP4Gapless.Edit] = []
        for _ in 0..<count {
            if version == 1 {
                let duration = try r.u64be()
                let time = Int64(bitPattern: try r.u64be())
                out.append(.init(segmentDuration: Int64(min(duration, UInt64(Int64.max))), mediaTime: time))
            } else {
                let duration = try r.u32be()
                let time = Int32(bitPattern: try r.u32be())
                out.append(.init(segmentDuration: Int64(duration), mediaTime: Int64(time)))
            }
            try r.skip(4)  // media rate
        }
        return out
    }
}
