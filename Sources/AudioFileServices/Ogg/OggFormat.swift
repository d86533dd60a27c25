public import AudioCore

/// Ogg files (RFC 3533) of a codec the reader maps: Opus (RFC 7845), the `.opus` files
/// opusenc, ffmpeg and browsers write, and Vorbis (Vorbis I specification, appendix A), the
/// `.ogg` files of oggenc and ffmpeg.
///
/// Opening walks every page once, checking its CRC, and keeps only the pages of the first
/// logical stream whose first packet is an identification header of a mapped codec (`OpusHead`,
/// Vorbis's identification header; other streams of a multiplexed file — video, another codec —
/// are skipped). The packet table lists one packet per codec packet, with its duration from the
/// packet (an Opus packet's TOC byte, RFC 6716 §3.1; a Vorbis packet's mode), so no decoder is
/// needed to open a file; a packet continued on the following pages is read from its pieces
/// (``PacketTable/pieces``).
///
/// For Vorbis: `'vorb'` data at the stream's rate, the magic cookie its three header packets
/// (`VorbisHeaders`, with an empty comment header), each packet's duration from its mode and
/// the one before (`VorbisPacketDurations`); the first packet's quarter block is priming, and so
/// are the frames a first page's smaller granule position trims from the start; the last
/// granule position trims the end. Its comments and pictures are the info dictionary and artwork.
///
/// What follows is said of Opus:
///
/// - Magic cookie: the `OpusHead` packet (``head``); `'opus'` data at 48 kHz, the stream's
///   channel count, `mFramesPerPacket` the longest packet's duration (each packet's own is in
///   the packet table).
/// - Priming: the header's pre-skip; valid frames: the last page's granule position minus the
///   first sample's position and the pre-skip (end trimming); the rest are remainder frames.
/// - A stream whose first audio page has a granule position larger than the durations of the
///   packets that end on it starts later than 0 (a recording of a live stream joined late):
///   ``startGranulePosition`` says where, and the durations count from there (RFC 7845 §4). A
///   smaller one is refused, unless that page ends the stream: a stream of one page, whose
///   granule position counts from 0 and trims its end.
/// - Chained files (streams one after another): the first Opus stream is read, and reading
///   stops at its end-of-stream page; ``hasFollowingStreams`` says that more follow.
/// - Untrusted input: a bad CRC, a missing or malformed `OpusHead`, a negative granule position
///   other than -1 or a packet whose TOC says nothing playable fail with `'dta?'` or `'fmt?'`;
///   a page cut short by the end of the file and bytes after the last page that are not a page
///   end the walk and are listed in ``repairs``. Packets are limited to 16 MiB.
public struct OggFormat: AudioFileFormat, DescribedFormat, StoresAudioData {
    /// Ogg, under the capture pattern's code `'OggS'` (not a Mac type); written with Opus.
    public static let descriptor = declaring(
        AudioFileTypeDescriptor(
            .ogg, name: "Ogg", extensions: ["opus", "ogg", "oga"], utis: ["org.xiph.opus", "org.xiph.ogg-vorbis"],
            mimeTypes: ["audio/ogg", "audio/opus", "audio/vorbis"], writes: [.opus]),
        streamCutting: .fromStart { OggCutter() })

    public static func canRead(prefix: UnsafeRawBufferPointer) -> Bool {
        OggPageHeader.hasCapturePattern(prefix) && prefix.count > 5 && prefix[4] == 0 && prefix[5] & 2 != 0
    }

    let audioData: AudioData
    public let packetTableInfo: AudioFilePacketTableInfo?
    /// The identification header (the `OpusHead` packet); Vorbis's three headers.
    public var magicCookie: [UInt8]? { mapping.magicCookie }
    public var channelLayout: AudioChannelLayout? { mapping.channelLayout }
    public let repairs: [AudioFileRepair]
    /// The codec's mapping, with its identification header.
    let mapping: any OggCodecMapping
    /// An Opus stream's identification header; nil for another codec.
    public var head: OpusHead? { (mapping as? OpusInOgg)?.head }
    /// A Vorbis stream's headers; nil for another codec.
    public var vorbisHeaders: VorbisHeaders? { (mapping as? VorbisInOgg)?.headers }
    /// The comment header after its magic (`'OpusTags'`, `\u{3}vorbis`): a Vorbis comment body
    /// (vendor string, comments); nil when the packet is over 16 MiB.
    public let vorbisComment: [UInt8]?
    /// The stream's serial number.
    public let serialNumber: UInt32
    /// The granule position of the stream's first sample (0 unless the stream starts later).
    public let startGranulePosition: Int64
    /// True when another logical stream starts after this one's end (a chained file).
    public let hasFollowingStreams: Bool

    /// The largest packet accepted.
    static let maximumPacketSize = 16 << 20

    public init(reading source: some AudioByteSource) throws(AudioFileError) {
        var walk = OggWalk(source: source)
        try walk.run()
        guard let mapping = walk.mapping else {
            if let codec = walk.identifiedCodec {
                throw AudioFileError(
                    .invalidFile, "the Ogg \(codec.codecName) stream ends before its \(codec.commentName) packet", chunk: "OggS",
                    offset: walk.position)
            }
            throw AudioFileError(.unsupportedDataFormat, "the Ogg file has no \(OggCodecMappings.names) stream", chunk: "OggS", offset: 0)
        }
        let codec = type(of: mapping)
        guard walk.tagsDone else {
            let missing = walk.tags == nil ? codec.commentName : codec.lastHeaderName
            throw AudioFileError(
                .invalidFile, "the Ogg \(codec.codecName) stream ends before its \(missing) packet", chunk: missing, offset: walk.position)
        }
        self.mapping = mapping
        vorbisComment = walk.tags
        serialNumber = walk.serial
        hasFollowingStreams = walk.followingStreams
        repairs = walk.repairs
        let table = walk.table
        let dataOffset = walk.dataOffset ?? walk.position
        // The longest packet's duration: what a queue takes a packet without a description to hold.
        let longest = table.frames.max() ?? codec.typicalFramesPerPacket
        audioData = AudioData(
            format: mapping.dataFormat(framesPerPacket: longest), offset: dataOffset, byteCount: max(0, walk.dataEnd - dataOffset),
            packets: .table(table))

        // Trimming (RFC 7845 §4, Vorbis I §A.2): where the first sample lies, then the priming
        // (Opus's pre-skip; Vorbis's first packet and a trimmed start) and end trimming.
        let total = table.totalFrames
        let uncounted = Int64(mapping.uncountedFrames)
        var start: Int64 = 0
        var startTrim: Int64 = 0
        if let first = walk.firstGranule {
            let offset = first.granule - (first.framesBefore - uncounted)
            if offset >= 0 {
                start = offset
            } else if !first.endsStream {
                guard codec.trimsStartByGranule else {
                    throw AudioFileError(
                        .invalidFile,
                        "the first audio page's granule position \(first.granule) is smaller than the \(first.framesBefore) frames of the packets ending on it",
                        chunk: "OggS", offset: first.pageOffset)
                }
                startTrim = -offset
            }
        }
        startGranulePosition = start
        let preSkip = Int64(mapping.primingFrames)
        let priming = min(preSkip + uncounted + startTrim, total)
        var valid = total - priming
        if let last = walk.lastGranule {
            // Granule positions need not grow: a last one before the start leaves no valid frames
            // (and the difference is taken only when it cannot overflow).
            let span = last >= start ? last - start : 0
            valid = min(max(span - preSkip, 0), valid)
        }
        packetTableInfo = AudioFilePacketTableInfo(
            numberValidFrames: valid, primingFrames: Int32(clamping: priming), remainderFrames: Int32(clamping: total - priming - valid))
    }
}

/// The page walk behind ``OggFormat``.
struct OggWalk {
    let source: any AudioByteSource
    var reader: WindowReader
    var position: Int64 = 0

    var serial: UInt32 = 0
    /// The codec whose identification header began the stream read.
    var identifiedCodec: (any OggCodecMapping.Type)?
    /// The codec's mapping, once its identification header is parsed.
    var mapping: (any OggCodecMapping)?
    /// True once every header packet has passed (the comment header, and Vorbis's setup header).
    var tagsDone = false
    var tags: [UInt8]?
    var table = PacketTable(framesPerPacket: 960, capacity: 0)
    var dataOffset: Int64?
    var dataEnd: Int64 = 0
    var firstGranule: (granule: Int64, framesBefore: Int64, endsStream: Bool, pageOffset: Int64)?
    var lastGranule: Int64?
    var followingStreams = false
    var repairs: [AudioFileRepair] = []

    /// The packet in progress: its pieces and its first bytes (an Opus packet's TOC and frame
    /// count), as many as the codec reads for its duration.
    private var pending: [PacketPiece] = []
    private var pendingSize = 0
    private var pendingHead: [UInt8] = []
    private var headerBytes: [UInt8] = []
    private var ended = false
    private var tagsTooLarge = false
    /// The header packet being gathered (1: the comment header).
    private var headerIndex = 1

    init(source: some AudioByteSource) {
        self.source = source
        reader = WindowReader(source)
        table = PacketTable(framesPerPacket: 960, capacity: Int(min(source.size / 64 + 16, 1 << 20)))
    }

    mutating func run() throws(AudioFileError) {
        let size = source.size
        while position < size, !ended {
            let want = Int(min(Int64(OggPageHeader.maximumSize), size - position))
            guard let i = try reader.load(position, want) else { break }
            let window = reader.window
            let parsed = window.withUnsafeBytes { raw in
                OggPageHeader.parse(UnsafeRawBufferPointer(rebasing: raw[i..<(i + want)]))
            }
            switch parsed {
            case .needMore(let n):
                guard mapping != nil else {
                    throw AudioFileError(.invalidFile, "the Ogg page is cut short by the end of the file", chunk: "OggS", offset: position)
                }
                repairs.append(AudioFileRepair(
                    kind: .audioDataTruncated, chunk: "OggS", offset: position, declaredSize: Int64(n), availableSize: size - position))
                return
            case .invalid(let reason):
                if dataOffset != nil, !OggPageHeader.hasCapturePatternAt(window, i) {
                    repairs.append(AudioFileRepair(
                        kind: .bytesAfterContainer, chunk: "OggS", offset: position, declaredSize: position, availableSize: size - position))
                    return
                }
                throw AudioFileError(.invalidFile, reason, chunk: "OggS", offset: position)
            case .page(let page):
                let result = window.withUnsafeBytes { raw -> Result<Void, AudioFileError> in
                    do throws(AudioFileError) {
                        return .success(try take(page, UnsafeRawBufferPointer(rebasing: raw[i..<(i + page.pageLength)])))
                    } catch {
                        return .failure(error)
                    }
                }
                try result.get()
                position += Int64(page.pageLength)
            }
        }
    }

    /// Handles one page.
    private mutating func take(_ page: OggPageHeader, _ b: UnsafeRawBufferPointer) throws(AudioFileError) {
        guard let codec = identifiedCodec else {
            // Looking for a stream of a mapped codec among the beginning-of-stream pages.
            guard page.isBeginning else {
                throw AudioFileError(.unsupportedDataFormat, "the Ogg file has no \(OggCodecMappings.names) stream", chunk: "OggS", offset: position)
            }
            let body = UnsafeRawBufferPointer(rebasing: b[page.headerLength...])
            guard let codec = OggCodecMappings.mapping(for: body) else { return }  // another codec's stream
            identifiedCodec = codec
            serial = page.serial
            guard page.segmentCount > 0, b[OggPageHeader.fixedSize + page.segmentCount - 1] < 255 else {
                throw AudioFileError(
                    .invalidFile, "\(codec.identificationName) does not end on its page", chunk: codec.identificationName, offset: position)
            }
            do {
                mapping = try codec.init(identificationHeader: Array(body))
            } catch {
                throw AudioFileError(.unsupportedDataFormat, error.reason, chunk: codec.identificationName, offset: position)
            }
            return
        }
        guard page.serial == serial else {
            if page.isBeginning && mapping != nil && dataOffset != nil { followingStreams = true }
            return
        }
        if page.isBeginning {
            throw AudioFileError(
                .invalidFile, "a second beginning-of-stream page for the \(codec.codecName) stream", chunk: "OggS", offset: position)
        }
        let pageStart = position
        var framesEnding: Int64 = 0
        var failure: AudioFileError?
        var first = true
        page.pieces(b) { offset, length, endsPacket in
            guard failure == nil else { return }
            let continues = first && page.isContinued
            first = false
            if continues && pending.isEmpty && headerBytes.isEmpty {
                return  // the rest of a packet whose start was lost
            }
            if !continues {
                dropPending()
                if !tagsDone { headerBytes.removeAll() }
            }
            if !tagsDone {
                headerBytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: b[offset..<(offset + length)]))
                let magic = codec.commentMagic.count
                if headerBytes.count > OggFormat.maximumPacketSize {
                    // Kept no further: the magic is checked, the comments are dropped.
                    headerBytes.removeSubrange(magic...)
                    tagsTooLarge = true
                }
                if endsPacket {
                    do throws(AudioFileError) {
                        try finishHeader(codec, at: pageStart)
                    } catch {
                        failure = error
                    }
                }
                return
            }
            if dataOffset == nil { dataOffset = pageStart }
            if length > 0 {
                pending.append(PacketPiece(offset: pageStart + Int64(offset), size: UInt32(length)))
                pendingSize += length
                let headBytes = codec.packetHeadBytes
                if pendingHead.count < headBytes {
                    pendingHead += UnsafeRawBufferPointer(rebasing: b[offset..<(offset + min(length, headBytes - pendingHead.count))])
                }
            }
            guard pendingSize <= OggFormat.maximumPacketSize else {
                failure = AudioFileError(.invalidFile, "an \(codec.codecName) packet of more than 16 MiB", chunk: "OggS", offset: pageStart)
                return
            }
            if endsPacket {
                do throws(AudioFileError) {
                    framesEnding += try finishPacket(at: pageStart)
                } catch {
                    failure = error
                }
            }
        }
        if let failure { throw failure }
        guard tagsDone, dataOffset != nil else { return }
        dataEnd = position + Int64(page.pageLength)
        if page.granulePosition != -1 {
            guard page.granulePosition >= 0 else {
                throw AudioFileError(.invalidFile, "granule position \(page.granulePosition) is negative", chunk: "OggS", offset: position)
            }
            if firstGranule == nil, framesEnding > 0 {
                firstGranule = (page.granulePosition, table.totalFrames, page.isEnd, position)
            }
            if firstGranule != nil { lastGranule = page.granulePosition }
        }
        if page.isEnd {
            dropPending()
            ended = true
            let next = try reader.peek(position + Int64(page.pageLength), 6)
            followingStreams = next.count == 6 && next.starts(with: Array("OggS".utf8)) && next[5] & 2 != 0
        }
    }

    /// Takes the header packet just gathered: the comment header (kept as the tags) or one after
    /// it (the mapping's).
    private mutating func finishHeader(_ codec: any OggCodecMapping.Type, at pageStart: Int64) throws(AudioFileError) {
        defer {
            headerBytes = []
            tagsTooLarge = false
            headerIndex += 1
            if headerIndex >= codec.headerPacketCount { tagsDone = true }
        }
        if headerIndex == 1 {
            guard codec.isCommentHeader(headerBytes) else {
                throw AudioFileError(
                    .invalidFile, "the packet after \(codec.identificationName) is not \(codec.commentName)", chunk: codec.commentName,
                    offset: pageStart)
            }
            tags = tagsTooLarge ? nil : Array(headerBytes[codec.commentMagic.count...])
            return
        }
        guard !tagsTooLarge else {
            throw AudioFileError(.invalidFile, "a \(codec.codecName) header packet of more than 16 MiB", chunk: codec.lastHeaderName, offset: pageStart)
        }
        do {
            try mapping?.takeHeader(headerBytes, index: headerIndex)
        } catch {
            throw AudioFileError(.unsupportedDataFormat, error.reason, chunk: codec.lastHeaderName, offset: pageStart)
        }
    }

    /// Appends the finished packet to the table; returns its frames.
    private mutating func finishPacket(at pageStart: Int64) throws(AudioFileError) -> Int64 {
        defer { dropPending() }
        guard pendingSize > 0 else { return 0 }  // a zero-length packet holds nothing (RFC 7845 §3 allows none)
        var codecMapping = mapping
        let frames = pendingHead.withUnsafeBytes { head in codecMapping?.frames(inPacketStartingWith: head) }
        mapping = codecMapping
        guard let frames = frames ?? nil else {
            let codec = identifiedCodec.map { $0.codecName } ?? OggCodecMappings.names
            throw AudioFileError(.invalidFile, "an \(codec) packet that gives no duration", chunk: "OggS", offset: pageStart)
        }
        table.append(pieces: pending, frames: UInt32(frames))
        return Int64(frames)
    }

    private mutating func dropPending() {
        pending.removeAll(keepingCapacity: true)
        pendingSize = 0
        pendingHead.removeAll(keepingCapacity: true)
    }
}

extension OggPageHeader {
    /// True when `window[i...]` starts with the capture pattern.
    static func hasCapturePatternAt(_ window: [UInt8], _ i: Int) -> Bool {
        window.withUnsafeBytes { raw in hasCapturePattern(UnsafeRawBufferPointer(rebasing: raw[i...])) }
    }
}

/// The reader's name before it read codecs other than Opus.
public typealias OggOpusFormat = OggFormat
