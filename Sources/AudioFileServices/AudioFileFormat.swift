public import AudioCore

/// Where each packet of a file's audio data lies.
public enum AudioFilePacketIndex: Sendable {
    /// Packets of `bytesPerPacket` bytes each, back to back from the data offset.
    case constant(bytesPerPacket: Int, count: Int64)
    /// Packets listed one by one (VBR data, or packets separated by framing such as ADTS headers).
    case table(PacketTable)

    /// Packets in the file.
    public var count: Int64 {
        switch self {
        case .constant(_, let count): count
        case .table(let table): Int64(table.count)
        }
    }
}

/// A list of packet positions, sizes and (for formats whose packets vary in duration) frame counts.
public struct PacketTable: Sendable {
    /// File offset of each packet.
    public private(set) var offsets: [Int64] = []
    /// Byte size of each packet.
    public private(set) var sizes: [UInt32] = []
    /// Frames in each packet, when they vary; empty when every packet has the format's
    /// frames per packet.
    public private(set) var frames: [UInt32] = []
    /// The largest packet.
    public private(set) var maximumSize: UInt32 = 0
    /// Frames in all packets.
    public private(set) var totalFrames: Int64 = 0
    /// Frames per packet when constant.
    let framesPerPacket: UInt32
    /// The byte runs of packets whose bytes are not contiguous in the file (an Ogg packet
    /// continued on the next page), by packet index; empty for every other container.
    public internal(set) var pieces: [Int: [PacketPiece]] = [:]

    init(framesPerPacket: UInt32, capacity: Int) {
        self.framesPerPacket = framesPerPacket
        offsets.reserveCapacity(capacity)
        sizes.reserveCapacity(capacity)
    }

    /// Number of packets.
    public var count: Int { offsets.count }

    mutating func append(offset: Int64, size: UInt32, frames packetFrames: UInt32? = nil) {
        if let packetFrames, packetFrames != framesPerPacket || !frames.isEmpty {
            if frames.isEmpty { frames = [UInt32](repeating: framesPerPacket, count: offsets.count) }
            frames.append(packetFrames)
        } else if !frames.isEmpty {
            frames.append(framesPerPacket)
        }
        offsets.append(offset)
        sizes.append(size)
        maximumSize = max(maximumSize, size)
        totalFrames += Int64(packetFrames ?? framesPerPacket)
    }

    /// Frames in packet `i`.
    public func framesInPacket(_ i: Int) -> UInt32 { frames.isEmpty ? framesPerPacket : frames[i] }
}

/// One container format: recognises its files and parses their headers into the properties
/// ``AudioFile`` exposes. ``AudioFile`` picks a conformer by magic bytes, then by extension.
/// The package's own readers also declare what it knows of each format besides parsing (its
/// file types, extensions, deeper look, writable formats, stream cutting) in one
/// ``AudioFileFormatDescriptor``, listed in ``AudioFileFormats/descriptors``.
///
/// Parsing reads headers and packet tables only, never the audio data, and treats every field
/// as untrusted: a malformed file throws an `AudioFileError` naming the chunk and
/// offset.
public protocol AudioFileFormat: Sendable {
    /// The container type this conformer reads (the package's readers: their descriptor's first
    /// type).
    static var fileType: AudioFileType { get }
    /// File name extensions (lower case, no dot) that select this conformer when magic bytes
    /// don't (the package's readers: their descriptor's).
    static var extensions: [String] { get }
    /// True when the first bytes of a file (up to 64) identify this format.
    static func canRead(prefix: UnsafeRawBufferPointer) -> Bool
    /// Parses the headers of `source`.
    init(reading source: some AudioByteSource) throws(AudioFileError)

    /// The actual container type (e.g. AIFF or AIFC from one parser).
    var fileType: AudioFileType { get }
    /// The format of the audio data.
    var dataFormat: AudioStreamBasicDescription { get }
    /// File offset of the first byte of audio data.
    var dataOffset: Int64 { get }
    /// Bytes of audio data.
    var dataByteCount: Int64 { get }
    /// Where the packets are.
    var packets: AudioFilePacketIndex { get }
    /// Priming, remainder and valid frames, where the file records them.
    var packetTableInfo: AudioFilePacketTableInfo? { get }
    /// Codec configuration stored with the file (CAF `kuki`; synthesised for ADTS).
    var magicCookie: [UInt8]? { get }
    /// The channel layout the file records.
    var channelLayout: AudioChannelLayout? { get }
    /// Metadata, with Apple's info dictionary keys (`title`, `artist`, `comments`, …).
    var info: [(key: String, value: String)] { get }
    /// Theoretical largest packet, where the format bounds it more tightly than the table.
    var packetSizeUpperBound: Int? { get }
    /// Frames in the file when the packets cannot say (a compressed WAVE's `fact` chunk).
    var frameCountHint: Int64? { get }
    /// Audio tracks in the file (`kAudioFilePropertyAudioTrackCount`: 1 for every format but
    /// MPEG-4, where each sound track counts).
    var trackCount: Int { get }
    /// Chapters the file lists, in order.
    var chapters: [AudioFileChapter] { get }
    /// Damage worked around to read the file (see ``AudioFileRepair``); empty for a sound file.
    var repairs: [AudioFileRepair] { get }
    /// The pictures the file carries (cover art), read from `source` now: containers find where
    /// they are when the file opens and read them only when asked.
    func artwork(reading source: any AudioByteSource) -> [AudioFilePicture]
}

/// Where a file's audio data lies and what it is: the four properties every reader finds
/// together, kept as one value.
struct AudioData: Sendable {
    /// ``AudioFileFormat/dataFormat``.
    var format: AudioStreamBasicDescription
    /// ``AudioFileFormat/dataOffset``.
    var offset: Int64
    /// ``AudioFileFormat/dataByteCount``.
    var byteCount: Int64
    /// ``AudioFileFormat/packets``.
    var packets: AudioFilePacketIndex
}

/// A reader that keeps its audio data's description as one ``AudioData`` value, which gives it
/// ``AudioFileFormat/dataFormat``, ``AudioFileFormat/dataOffset``,
/// ``AudioFileFormat/dataByteCount`` and ``AudioFileFormat/packets``.
protocol StoresAudioData: AudioFileFormat {
    var audioData: AudioData { get }
}

extension StoresAudioData {
    public var dataFormat: AudioStreamBasicDescription { audioData.format }
    public var dataOffset: Int64 { audioData.offset }
    public var dataByteCount: Int64 { audioData.byteCount }
    public var packets: AudioFilePacketIndex { audioData.packets }
}

/// One chapter mark of a file.
public struct AudioFileChapter: Sendable, Equatable {
    /// Where the chapter starts, in seconds from the start of the file.
    public var startTime: Double
    /// The chapter's title.
    public var title: String

    /// A chapter starting at `startTime` seconds.
    public init(startTime: Double, title: String) {
        self.startTime = startTime
        self.title = title
    }
}

extension AudioFileFormat {
    public var fileType: AudioFileType { Self.fileType }
    public var packetTableInfo: AudioFilePacketTableInfo? { nil }
    public var magicCookie: [UInt8]? { nil }
    public var channelLayout: AudioChannelLayout? { nil }
    public var info: [(key: String, value: String)] { [] }
    public var packetSizeUpperBound: Int? { nil }
    public var frameCountHint: Int64? { nil }
    public var trackCount: Int { 1 }
    public var chapters: [AudioFileChapter] { [] }
    public var repairs: [AudioFileRepair] { [] }
    public func artwork(reading source: any AudioByteSource) -> [AudioFilePicture] { [] }
}

/// Validation shared by the linear PCM readers.
enum PCMCheck {
    /// Refuses a stream with no channels or no usable rate.
    static func basics(rate: Double, channels: Int, chunk: String, offset: Int64) throws(AudioFileError) {
        guard channels > 0 else {
            throw AudioFileError(.unsupportedDataFormat, "channel count is \(channels)", chunk: chunk, offset: offset)
        }
        guard rate.isFinite, rate >= 1, rate < 1e9 else {
            throw AudioFileError(.unsupportedDataFormat, "sample rate is \(rate)", chunk: chunk, offset: offset)
        }
    }
}
