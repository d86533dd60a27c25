import AudioCore

/// How one codec is carried in Ogg: how its logical stream is recognised, what its header
/// packets say and how long each audio packet lasts. The Ogg reader (``OggFormat``) and the
/// stream cutter (`OggCutter`) take the first stream whose beginning-of-stream packet one of
/// ``OggCodecMappings/all`` recognises; a codec is added by writing its mapping and listing it
/// there (Opus, Vorbis; RFC 5334's FLAC-in-Ogg would be one more).
///
/// The stream's packets are: the identification header (alone on the beginning-of-stream
/// page), a comment header that starts with ``commentMagic`` and holds a Vorbis comment body,
/// further header packets where ``headerPacketCount`` says so (Vorbis's setup header), then the
/// audio packets. Granule positions count frames at ``sampleRate``.
protocol OggCodecMapping: Sendable {
    /// The codec's name in messages (`Opus`).
    static var codecName: String { get }
    /// The identification header's name in messages and errors (`OpusHead`).
    static var identificationName: String { get }
    /// The comment header's name in messages and errors (`OpusTags`).
    static var commentName: String { get }
    /// The bytes the comment header starts with; a Vorbis comment body follows them.
    static var commentMagic: [UInt8] { get }
    /// Header packets, the identification and comment headers included (Opus 2, Vorbis 3).
    static var headerPacketCount: Int { get }
    /// The last header packet's name in messages (the comment header's unless there are more).
    static var lastHeaderName: String { get }
    /// True when a first audio page whose granule position is smaller than its packets' frames
    /// trims the stream's start (Vorbis I §A.2); false when it is an error (RFC 7845 §4).
    static var trimsStartByGranule: Bool { get }
    /// True when the priming is known only once the first audio packet has been seen
    /// (``uncountedFrames``): a stream's properties wait for it.
    static var primingNeedsFirstPacket: Bool { get }
    /// Frames per packet the data format gives before any packet has been seen (a stream's).
    static var typicalFramesPerPacket: UInt32 { get }
    /// Bytes at the start of an audio packet that ``frames(inPacketStartingWith:)`` reads.
    static var packetHeadBytes: Int { get }
    /// True when `packet`, the first of a logical stream, is this codec's identification header.
    static func isIdentificationHeader(_ packet: UnsafeRawBufferPointer) -> Bool

    /// Parses the identification header; throws what is wrong with it.
    init(identificationHeader packet: [UInt8]) throws(OggMappingError)
    /// Takes header packet `index` (from 2: those after the comment header); throws what is
    /// wrong with it.
    mutating func takeHeader(_ packet: [UInt8], index: Int) throws(OggMappingError)

    /// The codec's format ID.
    var formatID: AudioFormatID { get }
    /// The rate of the decoded audio and of the granule positions.
    var sampleRate: Double { get }
    /// Channels in the decoded audio.
    var channelCount: Int { get }
    /// The decoder's configuration (``AudioFileFormat/magicCookie``).
    var magicCookie: [UInt8]? { get }
    /// The channel layout the header implies.
    var channelLayout: AudioChannelLayout? { get }
    /// Frames per packet a stream's data format gives before its packets are known: the
    /// longest packet the headers allow (Vorbis), else ``typicalFramesPerPacket``.
    var streamFramesPerPacket: UInt32 { get }
    /// Frames decoded at the start and dropped that granule positions count (Opus's pre-skip).
    var primingFrames: Int { get }
    /// Frames the packet table counts at the start that granule positions do not (Vorbis's
    /// first packet, which completes no block: its decoder gives silence for it); priming too.
    var uncountedFrames: Int { get }
    /// Frames in the audio packet whose first bytes (up to ``packetHeadBytes``) are `head`; nil
    /// when the packet gives no duration. Called on every audio packet in order, so a codec
    /// whose durations depend on the packet before (Vorbis) can keep what it needs.
    mutating func frames(inPacketStartingWith head: UnsafeRawBufferPointer) -> Int?
    /// Forgets what ``frames(inPacketStartingWith:)`` kept, as when a stream is read from
    /// another place: the next packet counts as a first.
    mutating func restart()
}

/// What is wrong with an identification header.
struct OggMappingError: Error {
    let reason: String
}

extension OggCodecMapping {
    static var headerPacketCount: Int { 2 }
    static var lastHeaderName: String { commentName }
    static var trimsStartByGranule: Bool { false }
    static var primingNeedsFirstPacket: Bool { false }
    var uncountedFrames: Int { 0 }
    var streamFramesPerPacket: UInt32 { Self.typicalFramesPerPacket }
    mutating func takeHeader(_ packet: [UInt8], index: Int) throws(OggMappingError) {}
    mutating func restart() {}

    /// The stream's data format with `framesPerPacket` frames in a packet.
    func dataFormat(framesPerPacket: UInt32) -> AudioStreamBasicDescription {
        AudioStreamBasicDescription(
            sampleRate: sampleRate, formatID: formatID, formatFlags: [], bytesPerPacket: 0, framesPerPacket: framesPerPacket,
            bytesPerFrame: 0, channelsPerFrame: UInt32(channelCount), bitsPerChannel: 0)
    }

    /// True when `packet` starts with the comment header's magic.
    static func isCommentHeader(_ packet: some Collection<UInt8>) -> Bool { packet.starts(with: commentMagic) }
}

/// The codecs the Ogg reader reads.
enum OggCodecMappings {
    /// Every mapping, tried in order on a beginning-of-stream packet.
    static let all: [any OggCodecMapping.Type] = [OpusInOgg.self, VorbisInOgg.self]

    /// The codecs' names, for messages (`Opus or Vorbis`).
    static var names: String { all.map { $0.codecName }.joined(separator: " or ") }

    /// The mapping whose identification header `packet` is.
    static func mapping(for packet: UnsafeRawBufferPointer) -> (any OggCodecMapping.Type)? {
        all.first { $0.isIdentificationHeader(packet) }
    }
}

/// Opus in Ogg (RFC 7845): `OpusHead`, `OpusTags`, each packet's duration from its TOC byte
/// (RFC 6716 §3.1), granule positions at 48 kHz.
struct OpusInOgg: OggCodecMapping {
    static let codecName = "Opus"
    static let identificationName = "OpusHead"
    static let commentName = "OpusTags"
    static let commentMagic = Array("OpusTags".utf8)
    static let typicalFramesPerPacket: UInt32 = 960
    static let packetHeadBytes = 2

    static func isIdentificationHeader(_ packet: UnsafeRawBufferPointer) -> Bool { OpusHead.isPacket(packet) }

    /// The identification header.
    let head: OpusHead

    init(identificationHeader packet: [UInt8]) throws(OggMappingError) {
        do {
            head = try OpusHead(packet: packet)
        } catch {
            throw OggMappingError(reason: error.reason)
        }
    }

    var formatID: AudioFormatID { .opus }
    var sampleRate: Double { 48000 }
    var channelCount: Int { head.channelCount }
    var magicCookie: [UInt8]? { head.packet }
    var channelLayout: AudioChannelLayout? { head.channelLayout }
    var primingFrames: Int { head.preSkip }

    func frames(inPacketStartingWith head: UnsafeRawBufferPointer) -> Int? { OpusPacket.frameCount(head) }
}

/// Vorbis in Ogg (Vorbis I specification, appendix A): the identification, comment and setup
/// headers, then audio packets whose durations come from their modes (``VorbisPacketDurations``:
/// the setup header's modes say which use the long block), granule positions at the stream's
/// rate. The first audio packet completes no block: it is counted as a quarter of its own block
/// (``uncountedFrames``) that the decoder gives as silence and the reader trims as priming. A
/// first page whose granule position is smaller than its packets' frames trims the start.
struct VorbisInOgg: OggCodecMapping {
    static let codecName = "Vorbis"
    static let identificationName = "Vorbis identification header"
    static let commentName = "Vorbis comment header"
    static let lastHeaderName = "Vorbis setup header"
    static let commentMagic = [3] + Array("vorbis".utf8)
    static let headerPacketCount = 3
    static let trimsStartByGranule = true
    static let primingNeedsFirstPacket = true
    static let typicalFramesPerPacket: UInt32 = 1024
    static let packetHeadBytes = 1

    static func isIdentificationHeader(_ packet: UnsafeRawBufferPointer) -> Bool { VorbisHeaders.isHeader(packet, type: 1) }

    /// The identification header.
    let info: VorbisIdentification
    let identification: [UInt8]
    /// The three headers (with an empty comment header), once the setup header is parsed.
    private(set) var headers: VorbisHeaders?
    private var durations: VorbisPacketDurations?
    private(set) var uncountedFrames = 0

    init(identificationHeader packet: [UInt8]) throws(OggMappingError) {
        do {
            info = try VorbisIdentification(packet: packet)
        } catch {
            throw OggMappingError(reason: error.reason)
        }
        identification = packet
    }

    mutating func takeHeader(_ packet: [UInt8], index: Int) throws(OggMappingError) {
        do {
            let headers = try VorbisHeaders(identification: identification, comment: VorbisHeaders.emptyComment, setup: packet)
            self.headers = headers
            durations = VorbisPacketDurations(headers)
        } catch {
            throw OggMappingError(reason: error.reason)
        }
    }

    var formatID: AudioFormatID { .vorbis }
    var sampleRate: Double { Double(info.sampleRate) }
    var channelCount: Int { info.channelCount }
    var magicCookie: [UInt8]? { headers?.cookie }
    var channelLayout: AudioChannelLayout? { info.channelLayout }
    var primingFrames: Int { 0 }
    /// Half the long block: the most a packet completes.
    var streamFramesPerPacket: UInt32 { UInt32(info.longBlockSize / 2) }

    mutating func frames(inPacketStartingWith head: UnsafeRawBufferPointer) -> Int? {
        guard let first = head.first, durations != nil else { return nil }
        let isFirst = durations?.previousBlockSize == nil
        guard let frames = durations?.frames(first: first) else { return nil }
        if isFirst { uncountedFrames = frames }
        return frames
    }

    mutating func restart() { durations?.reset() }
}
