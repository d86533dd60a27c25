public import AudioCore

/// Native FLAC files, `.flac` (Apple's `kAudioFileFLACType` `'flac'`, read since macOS 10.13).
///
/// Opening reads the metadata (``FLACMetadata``: `'fLaC'`, after ID3v2 tags where a file has
/// them, then every metadata block, checked against the file's size) and walks the frames into
/// a packet table (`FLACFrameScan`): one packet per FLAC frame, each with its block size as
/// its frame count, so fixed and variable block sizes read alike.
///
/// - `dataFormat`: `'flac'` at STREAMINFO's rate and channel count; `framesPerPacket` is
///   STREAMINFO's largest block size (packets of other sizes, a fixed-size stream's last one or
///   a variable-size stream's, carry their frame count in their packet descriptions), so a
///   decoder made from the description alone needs the same room as one made from the cookie;
///   the format flags give the source depth as Apple's do for lossless formats (1: 16-bit,
///   2: 20, 3: 24, 4: 32, else 0).
/// - `magicCookie`: a whole `dfLa` box with STREAMINFO, the cookie Apple keeps for `'flac'` in
///   CAF files (`FLACStreamInfo.magicCookie`).
/// - `packetTableInfo`: no priming; STREAMINFO's total samples are the valid frames (the frames
///   found where it says 0 or more than there are), the rest of the last frame the remainder.
/// - The raw VORBIS_COMMENT body and PICTURE bodies are kept (``vorbisComment``, ``pictures``).
///
/// A frame cut short at the end of the file is left out. A file without a frame throws
/// `invalidFile`.
public struct FLACFormat: AudioFileFormat, DescribedFormat, StoresAudioData {
    /// Apple's `'flac'`, written in FLAC; found after ID3v2 tags by a deeper look.
    public static let descriptor = declaring(
        AudioFileTypeDescriptor(.flac, name: "FLAC", extensions: ["flac"], utis: ["org.xiph.flac"], mimeTypes: ["audio/flac"], hfsTypeCodes: ["flac"],
                                writes: [.flac]),
        sniff: { source throws(AudioFileError) in try FLACFormat.sniff(source) }, streamCutting: .flacFrames)

    /// `'fLaC'` at the start. A file with ID3v2 tags first is found by its extension, a type
    /// hint, or ``AudioFile``'s deeper look.
    public static func canRead(prefix: UnsafeRawBufferPointer) -> Bool {
        prefix.count >= 4 && prefix[0] == 0x66 && prefix[1] == 0x4C && prefix[2] == 0x61 && prefix[3] == 0x43
    }

    let audioData: AudioData
    public let packetTableInfo: AudioFilePacketTableInfo?
    public let magicCookie: [UInt8]?
    public let packetSizeUpperBound: Int?
    /// The metadata blocks, STREAMINFO among them.
    public let metadata: FLACMetadata
    /// The first VORBIS_COMMENT block's body, raw (vendor string and comments, little-endian
    /// lengths).
    public var vorbisComment: [UInt8]? { metadata.vorbisComment }
    /// The PICTURE blocks' bodies, raw, in file order.
    public var pictures: [[UInt8]] { metadata.pictures }
    /// The stream's STREAMINFO.
    public var streamInfo: FLACStreamInfo { metadata.streamInfo }
    /// FLAC's channel assignment for the channel count (WAVE's order: mono, stereo, then a
    /// channel bitmap for 3 to 8 channels), as `AudioChannelLayout.waveOrder(channels:)` gives it.
    public var channelLayout: AudioChannelLayout? { AudioChannelLayout.waveOrder(channels: streamInfo.channels) }
    /// True when the file ends inside a frame, which is left out.
    public let lastFrameTruncated: Bool
    /// A file that ends inside a frame (a recording or download cut short): the frame is left
    /// out and listed as ``AudioFileRepair/Kind/audioDataTruncated`` in the `frame` at its
    /// offset, declaring STREAMINFO's maximum frame size (0 when unknown).
    public let repairs: [AudioFileRepair]

    public init(reading source: some AudioByteSource) throws(AudioFileError) {
        let meta = try FLACMetadata(reading: source)
        let info = meta.streamInfo
        var scan = FLACFrameScan(source, end: source.size)
        guard let result = try scan.scan(from: meta.audioStart, info: info), result.table.count > 0 else {
            throw AudioFileError(.invalidFile, "no complete FLAC frame", chunk: "frame", offset: meta.audioStart)
        }
        metadata = meta
        lastFrameTruncated = result.truncatedLast
        repairs = result.truncatedLast
            ? [AudioFileRepair(
                kind: .audioDataTruncated, chunk: "frame", offset: result.end,
                declaredSize: Int64(info.maximumFrameSize), availableSize: source.size - result.end)]
            : []
        audioData = AudioData(
            format: Self.streamDescription(info), offset: result.firstFrame, byteCount: result.end - result.firstFrame,
            packets: .table(result.table))
        magicCookie = info.magicCookie
        packetSizeUpperBound = info.maximumFrameSize > 0 ? max(info.maximumFrameSize, Int(result.table.maximumSize)) : nil
        let total = result.table.totalFrames
        let valid = info.totalSamples > 0 && info.totalSamples <= total ? info.totalSamples : total
        packetTableInfo = AudioFilePacketTableInfo(
            numberValidFrames: valid, primingFrames: 0, remainderFrames: Int32(clamping: total - valid))
    }

    /// The stream description of FLAC described by `info`, as Apple's readers give it.
    public static func streamDescription(_ info: FLACStreamInfo) -> AudioStreamBasicDescription {
        let flags: UInt32 = switch info.bitsPerSample {
        case 16: 1
        case 20: 2
        case 24: 3
        case 32: 4
        default: 0
        }
        return AudioStreamBasicDescription(
            sampleRate: Double(info.sampleRate), formatID: .flac, formatFlags: AudioFormatFlags(rawValue: flags),
            bytesPerPacket: 0, framesPerPacket: UInt32(info.maximumBlockSize), bytesPerFrame: 0,
            channelsPerFrame: UInt32(info.channels), bitsPerChannel: 0)
    }

    /// True when `source` holds `'fLaC'` after ID3v2 tags.
    static func sniff(_ source: some AudioByteSource) throws(AudioFileError) -> Bool {
        try FLACMetadata.sniff(source)
    }
}
