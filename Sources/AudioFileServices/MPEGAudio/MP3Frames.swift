import AudioCore

/// The four-byte header of an MPEG audio frame (ISO/IEC 11172-3 2.4.1.3, ISO/IEC 13818-3 2.4.1.3,
/// and the unofficial MPEG-2.5 extension to 8–12 kHz).
public struct MPEGAudioHeader: Sendable, Equatable {
    /// MPEG version: 1, 2, or 25 for MPEG-2.5.
    public var version: Int
    /// Layer 1, 2 or 3.
    public var layer: Int
    /// The bitrate index (1…14; 0 is free format, refused).
    public var bitrateIndex: Int
    /// The sampling rate in hertz.
    public var sampleRate: Int
    /// True when the frame has one padding slot.
    public var padding: Bool
    /// Channel mode: 0 stereo, 1 joint stereo, 2 dual channel, 3 single channel.
    public var channelMode: Int
    /// True when a 16-bit CRC follows the header.
    public var hasCRC: Bool

    /// Bitrates in kbit/s by index: MPEG-1 layers I, II, III, then MPEG-2/2.5 layer I, layers II and III.
    static let bitrates: [[Int]] = [
        [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],
        [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],
        [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
        [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],
        [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
    ]
    static let rates: [Int: [Int]] = [1: [44100, 48000, 32000], 2: [22050, 24000, 16000], 25: [11025, 12000, 8000]]

    /// The result of looking at four bytes that may be a header.
    enum Parse {
        case header(MPEGAudioHeader)
        /// Sync, version, layer and rate are valid but the bitrate index is 0.
        case freeFormat
        case none
    }

    /// Parses the header at `p`; nil without a sync word or with reserved or free-format fields.
    init?<Bytes: RandomAccessCollection<UInt8>>(_ b: Bytes, _ p: Int) where Bytes.Index == Int {
        guard case .header(let h) = Self.parse(b, p) else { return nil }
        self = h
    }

    private init(version: Int, layer: Int, bitrateIndex: Int, sampleRate: Int, padding: Bool, channelMode: Int, hasCRC: Bool) {
        self.version = version
        self.layer = layer
        self.bitrateIndex = bitrateIndex
        self.sampleRate = sampleRate
        self.padding = padding
        self.channelMode = channelMode
        self.hasCRC = hasCRC
    }

    static func parse<Bytes: RandomAccessCollection<UInt8>>(_ b: Bytes, _ p: Int) -> Parse where Bytes.Index == Int {
        guard p >= 0, p + 4 <= b.count, b[p] == 0xFF, b[p + 1] & 0xE0 == 0xE0 else { return .none }
        let versionBits = Int(b[p + 1] >> 3 & 3), layerBits = Int(b[p + 1] >> 1 & 3)
        let bitrateIndex = Int(b[p + 2] >> 4), rateIndex = Int(b[p + 2] >> 2 & 3)
        // Version 01 and layer 00 are reserved (layer 00 is also how ADTS tells itself apart).
        guard versionBits != 1, layerBits != 0, rateIndex != 3, bitrateIndex != 15 else { return .none }
        let version = versionBits == 3 ? 1 : versionBits == 2 ? 2 : 25
        guard bitrateIndex != 0 else { return .freeFormat }
        return .header(MPEGAudioHeader(
            version: version, layer: 4 - layerBits, bitrateIndex: bitrateIndex,
            sampleRate: rates[version]![rateIndex], padding: b[p + 2] & 2 != 0,
            channelMode: Int(b[p + 3] >> 6), hasCRC: b[p + 1] & 1 == 0))
    }

    /// The bitrate in bits per second.
    public var bitrate: Int {
        let table = version == 1 ? layer - 1 : (layer == 1 ? 3 : 4)
        return Self.bitrates[table][bitrateIndex] * 1000
    }

    /// Bytes of the whole frame, header included.
    public var frameLength: Int {
        let pad = padding ? 1 : 0
        switch layer {
        case 1: return (12 * bitrate / sampleRate + pad) * 4
        case 3 where version != 1: return 72 * bitrate / sampleRate + pad
        default: return 144 * bitrate / sampleRate + pad
        }
    }

    /// Audio frames (samples per channel) one frame decodes to.
    public var samplesPerFrame: Int {
        switch layer {
        case 1: 384
        case 3 where version != 1: 576
        default: 1152
        }
    }

    /// 1 for single channel mode, else 2.
    public var channels: Int { channelMode == 3 ? 1 : 2 }

    /// Bytes of Layer III side information after the header (and its CRC, which the Xing tag
    /// offset ignores, as encoders and decoders do).
    var sideInfoLength: Int {
        version == 1 ? (channels == 1 ? 17 : 32) : (channels == 1 ? 9 : 17)
    }

    /// True when `other` continues the same stream: version, layer and rate agree.
    func sameStream(as other: MPEGAudioHeader) -> Bool {
        version == other.version && layer == other.layer && sampleRate == other.sampleRate
    }
}

/// Finding MPEG audio frames in a file.
enum MPEGFrameScan {
    /// The most junk skipped in one place while looking for a frame: 1 MiB, as for ADTS.
    static let maximumJunk: Int64 = 1 << 20

    /// The first header at or after `from` (before `end`) that the next header (or `end`)
    /// confirms, and that continues `like` where given. A sync word with a free-format bitrate
    /// that otherwise starts a frame throws `unsupportedDataFormat`.
    static func resync(
        _ reader: inout WindowReader, from: Int64, end: Int64, like: MPEGAudioHeader?
    ) throws(AudioFileError) -> (offset: Int64, header: MPEGAudioHeader)? {
        var position = from
        // Junk longer than this is taken as the end of the stream, so noise costs a bounded scan.
        let limit = min(end, from + maximumJunk)
        while position <= limit - 4 {
            guard let i = try reader.load(position, 4) else { return nil }
            let w = reader.window
            var j = i
            let last = w.count - 1
            while j < last && !(w[j] == 0xFF && w[j + 1] & 0xE0 == 0xE0) { j += 1 }
            if j >= last {
                position = reader.windowStart + Int64(max(last, i + 1))
                continue
            }
            position = reader.windowStart + Int64(j)
            guard position <= limit - 4 else { return nil }
            switch MPEGAudioHeader.parse(try reader.peek(position, 4), 0) {
            case .header(let header) where like.map({ header.sameStream(as: $0) }) ?? true:
                let next = position + Int64(header.frameLength)
                if next == end { return (position, header) }
                if next < end, next <= end - 4, let following = MPEGAudioHeader(try reader.peek(next, 4), 0),
                   following.sameStream(as: header)
                {
                    return (position, header)
                }
            case .freeFormat where like == nil:
                throw AudioFileError(
                    .unsupportedDataFormat, "free-format MPEG audio (bitrate index 0) is not supported",
                    chunk: "mpga", offset: position)
            default:
                break
            }
            position += 1
        }
        return nil
    }

    /// The frames of the stream `stream` from `start` to `end`, one packet each: junk (or another
    /// stream's header) where a frame should start is skipped by ``resync(_:from:end:like:)``,
    /// and a last frame cut short by `end` is left out.
    static func walk(
        _ reader: inout WindowReader, from start: Int64, end: Int64, stream: MPEGAudioHeader
    ) throws(AudioFileError) -> (table: PacketTable, channels: Int, firstAudio: Int64?, lastEnd: Int64, junk: Int64) {
        var position = start
        var table = PacketTable(framesPerPacket: UInt32(stream.samplesPerFrame), capacity: Int(min((end - position) / 24 + 1, 1 << 24)))
        var channels = stream.channels
        var lastEnd = position
        var firstAudio: Int64?
        var junk: Int64 = 0
        while position <= end - 4 {
            guard let i = try reader.load(position, 4) else { break }
            let w = reader.window
            guard let header = MPEGAudioHeader(w, i), header.sameStream(as: stream) else {
                // Junk (or another stream's header) where a frame should start: find the next frame.
                guard let next = try resync(&reader, from: position + 1, end: end, like: stream) else { break }
                junk += next.offset - position
                position = next.offset
                continue
            }
            guard Int64(header.frameLength) <= end - position else { break }  // cut-off final frame
            if firstAudio == nil { firstAudio = position }
            channels = max(channels, header.channels)
            table.append(offset: position, size: UInt32(header.frameLength))
            position += Int64(header.frameLength)
            lastEnd = position
        }
        return (table, channels, firstAudio, lastEnd, junk)
    }

    /// True when `bytes` (the start of a file, after any ID3v2 tag) open with two consecutive
    /// MPEG audio frames of one stream.
    static func looksLikeStream(_ bytes: [UInt8]) -> Bool {
        guard let first = MPEGAudioHeader(bytes, 0) else { return false }
        guard let second = MPEGAudioHeader(bytes, first.frameLength) else { return false }
        return second.sameStream(as: first)
    }
}
