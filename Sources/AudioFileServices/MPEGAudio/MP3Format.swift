public import AudioCore

/// MPEG-1, MPEG-2 and MPEG-2.5 audio, Layers I, II and III: the `.mp3`, `.mp2` and `.mp1` files
/// (Apple's `kAudioFileMP3Type` `'MPG3'`, `'MPG2'`, `'MPG1'`).
///
/// Opening walks the frame headers without reading the audio: ID3v2 tags at the start are
/// skipped (their text frames become the info dictionary), and an ID3v1 block and an APEv2 tag
/// at the end are left out of the audio. A frame counts when the next header (or the end of the
/// audio) agrees with it on version, layer and sampling rate; junk before and between frames is
/// skipped by scanning for such a frame, up to 1 MiB at a time; a last frame cut short by the end
/// of the file is dropped. A frame with a free-format bitrate (index 0) throws
/// `unsupportedDataFormat`.
///
/// A Xing/Info or VBRI header in the first frame is not an audio packet and is left out of the
/// packets, as Apple's and ffmpeg's readers do. The packet table info comes from, in order:
///
/// 1. iTunes' `iTunSMPB` comment in an ID3v2 tag (` 00000000 PRIMING REMAINDER VALID …` in
///    hex), as for MPEG-4;
/// 2. the LAME tag after a Xing/Info header, trimmed as ffmpeg trims it: priming is the encoder
///    delay plus the decoder's 529 frames (529 when the delay is 0), the remainder is the
///    padding minus 529 where that is more than 0 and the Xing frame count matches the stream
///    (see `MP3Gapless`), the rest is valid.
///
/// Numbers that do not fit the packets' frames are passed over; without either there is none.
public struct MP3Format: AudioFileFormat, DescribedFormat, StoresAudioData, ArtworkLocated {
    /// Apple's `'MPG3'`, `'MPG2'` and `'MPG1'`, read only; found after ID3v2 tags (or with a
    /// first frame longer than the prefix) by a deeper look.
    public static let descriptor = declaring(
        AudioFileTypeDescriptor(
            .mp3, name: "MPEG Layer 3", extensions: ["mp3", "mpeg", "mpa"], utis: ["public.mp3"],
            mimeTypes: ["audio/mpeg", "audio/mpeg3", "audio/mp3", "audio/x-mpeg3", "audio/x-mp3", "audio/x-mpeg"], hfsTypeCodes: ["MPG3"]),
        AudioFileTypeDescriptor(.mp2, name: "MPEG Layer 2", extensions: ["mp2", "mpeg", "mpa"], mimeTypes: mimeTypes, hfsTypeCodes: ["MPG2"]),
        AudioFileTypeDescriptor(.mp1, name: "MPEG Layer 1", extensions: ["mp1", "mpeg", "mpa"], mimeTypes: mimeTypes, hfsTypeCodes: ["MPG1"]),
        otherExtensions: ["mpga"], sniff: { source throws(AudioFileError) in try MP3Format.sniff(source) }, streamCutting: .frames(.mpeg))

    private static let mimeTypes = ["audio/mpeg", "audio/x-mpeg"]

    /// Only a prefix holding two consecutive frames is recognised here; ``AudioFile`` looks
    /// further (past ID3v2 tags, and at frames longer than the prefix) when nothing else matches.
    public static func canRead(prefix: UnsafeRawBufferPointer) -> Bool {
        MPEGFrameScan.looksLikeStream(Array(prefix))
    }

    /// The frames the MP3 decoder's synthesis filter bank delays its output by, which players
    /// add to the LAME tag's encoder delay.
    public static let decoderDelay = 529

    public let fileType: AudioFileType
    let audioData: AudioData
    public let packetTableInfo: AudioFilePacketTableInfo?
    public let info: [(key: String, value: String)]
    /// The first audio frame's header.
    public let firstHeader: MPEGAudioHeader
    /// Bytes skipped as junk between and around frames (tags not counted).
    public let junkByteCount: Int64
    /// The Xing/Info or VBRI header's tag, where the first frame carries one.
    public let encoderTag: String?
    /// The LAME tag's encoder delay and padding, where present.
    public let lameDelayAndPadding: (delay: Int, padding: Int)?
    /// The frame count a Xing/Info or VBRI header claims (the frame walk's count is the one used).
    public let declaredFrameCount: Int?
    /// Where the packet table info came from: `iTunSMPB`, `LAME`, or nil.
    public let gaplessSource: String?
    /// The ID3v2 tags' `CHAP` frames.
    public let chapters: [AudioFileChapter]
    /// Where the pictures lie (``artwork(reading:)`` reads them): the ID3v2 tags' `APIC`/`PIC`
    /// frames, then an APEv2 tag's `Cover Art` items.
    let artworkLocations: [ArtworkLocation]

    public init(reading source: some AudioByteSource) throws(AudioFileError) {
        let leading = try LeadingTags(source)
        var reader = leading.reader
        var smpb: String?
        for tag in leading.tags where smpb == nil { smpb = MP3Tags.iTunSMPB(tag) }
        chapters = leading.chapters
        let trailing = try MP3Tags.trailing(source, start: leading.end)
        artworkLocations = leading.artwork + trailing.artwork
        let end = trailing.end
        var position = leading.end

        guard let first = try MPEGFrameScan.resync(&reader, from: position, end: end, like: nil) else {
            throw AudioFileError(.invalidFile, "no MPEG audio frame found", chunk: "mpga", offset: position)
        }
        var junk = first.offset - position
        position = first.offset
        let stream = first.header

        // The first frame may be a Xing/Info or VBRI header rather than audio.
        let firstFrame = try reader.peek(first.offset, min(stream.frameLength, 4096))
        let encoder = MP3Tags.encoderInfo(firstFrame, header: stream)
        if encoder != nil, Int64(stream.frameLength) <= end - position { position += Int64(stream.frameLength) }

        let walk = try MPEGFrameScan.walk(&reader, from: position, end: end, stream: stream)
        let (table, channels, lastEnd) = (walk.table, walk.channels, walk.lastEnd)
        junk += walk.junk
        guard table.count > 0, let firstAudio = walk.firstAudio else {
            throw AudioFileError(.invalidFile, "no complete MPEG audio frame", chunk: "mpga", offset: first.offset)
        }

        let described = Self.streamDescription(stream, channels: channels)
        fileType = described.fileType
        firstHeader = stream
        junkByteCount = junk
        info = leading.info + trailing.info
        encoderTag = encoder?.tag
        declaredFrameCount = encoder?.frames.map(Int.init)
        if let delay = encoder?.delay, let padding = encoder?.padding {
            lameDelayAndPadding = (delay, padding)
        } else {
            lameDelayAndPadding = nil
        }
        let lame = MP3Gapless.lame(encoder, frameOffset: first.offset, fileSize: source.size, framesPerPacket: stream.samplesPerFrame)
        audioData = AudioData(format: described.format, offset: firstAudio, byteCount: lastEnd - firstAudio, packets: .table(table))
        let gapless = MP3Gapless.packetTableInfo(iTunSMPB: smpb, lame: lame, totalFrames: table.totalFrames)
        packetTableInfo = gapless?.info
        gaplessSource = gapless?.source
    }

    /// The file type and data format of a stream whose first header is `stream`.
    static func streamDescription(_ stream: MPEGAudioHeader, channels: Int) -> (fileType: AudioFileType, format: AudioStreamBasicDescription) {
        let formatID: AudioFormatID
        let fileType: AudioFileType
        switch stream.layer {
        case 1: (formatID, fileType) = (.mpegLayer1, .mp1)
        case 2: (formatID, fileType) = (.mpegLayer2, .mp2)
        default: (formatID, fileType) = (.mpegLayer3, .mp3)
        }
        let format = AudioStreamBasicDescription(
            sampleRate: Double(stream.sampleRate), formatID: formatID, formatFlags: AudioFormatFlags(rawValue: 0),
            bytesPerPacket: 0, framesPerPacket: UInt32(stream.samplesPerFrame), bytesPerFrame: 0,
            channelsPerFrame: UInt32(channels), bitsPerChannel: 0)
        return (fileType, format)
    }

    /// True when the file holds an MPEG audio stream after any ID3v2 tags: two consecutive
    /// frames of one stream. For files that neither magic bytes, type hint nor extension place.
    static func sniff(_ source: some AudioByteSource) throws(AudioFileError) -> Bool {
        var reader = WindowReader(source)
        let start = try MP3Tags.leadingID3(&reader, size: source.size, readTags: false).end
        guard start < source.size else { return false }
        return MPEGFrameScan.looksLikeStream(try reader.peek(start, 4096 + 4))
    }
}
