import AudioCore

/// How one codec is carried in Ogg: how its logical stream is recognised, what its header
/// packets say and how long each audio packet lasts. The Ogg reader (``OggFormat``) and the
/// stream cutter (`OggCutter`) take the first stream whose beginning-of-stream packet one of
/// ``OggCodecMappings/all`` recognises; a codec is added by writing its mapping and listing it
/// there (Vorbis, RFC 5334's FLAC-in-Ogg, …).
///
/// The stream's packets are: the identification header (alone on the beginning-of-stream
/// page), a comment header that starts with ``commentMagic`` and holds a Vorbis comment body,
/// then the audio packets. Granule positions count frames at ``sampleRate``.
protocol OggCodecMapping: Sendable {
    /// The codec's name in messages (`Opus`).
    static var codecName: String { get }
    /// The identification header's name in messages and errors (`OpusHead`).
    static var identificationName: String { get }
    /// The comment header's name in messages and errors (`OpusTags`).
    static var commentName: String { get }
    /// The bytes the comment header starts with; a Vorbis comment body follows them.
    static var commentMagic: [UInt8] { get }
    /// Frames per packet the data format gives before any packet has been seen (a stream's).
    static var typicalFramesPerPacket: UInt32 { get }
    /// Bytes at the start of an audio packet that ``frames(inPacketStartingWith:)`` reads.
    static var packetHeadBytes: Int { get }
    /// True when `packet`, the first of a logical stream, is this codec's identification header.
    static func isIdentificationHeader(_ packet: UnsafeRawBufferPointer) -> Bool

    /// Parses the identification header; throws what is wrong with it.
    init(identificationHeader packet: [UInt8]) throws(OggMappingError)

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
    /// Frames decoded at the start and dropped (Opus's pre-skip).
    var primingFrames: Int { get }
    /// Frames in the audio packet whose first bytes (up to ``packetHeadBytes``) are `head`; nil
    /// when the packet gives no duration. Called on every audio packet in order, so a codec
    /// whose durations depend on the packet before (Vorbis) can keep what it needs.
    mutating func frames(inPacketStartingWith head: UnsafeRawBufferPointer) -> Int?
}

/// What is wrong with an identification header.
struct OggMappingError: Error {
    let reason: String
}

extension OggCodecMapping {
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
    static let all: [any OggCodecMapping.Type] = [OpusInOgg.self]

    /// The codecs' names, for messages (`Opus`).
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
