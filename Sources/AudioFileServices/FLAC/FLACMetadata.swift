public import AudioCore

/// The metadata of a native FLAC stream (RFC 9639 §8): `'fLaC'`, then metadata blocks, the
/// first of them STREAMINFO, the last one flagged.
public struct FLACMetadata: Sendable {
    /// The most metadata blocks a file may have (real files have a handful; more is taken as
    /// damage, so that a file of empty blocks cannot make the open read and keep millions).
    public static let maximumBlockCount = 4096
    /// A metadata block's type.
    public struct BlockType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public var rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        /// STREAMINFO (0).
        public static let streamInfo = BlockType(rawValue: 0)
        /// PADDING (1).
        public static let padding = BlockType(rawValue: 1)
        /// APPLICATION (2).
        public static let application = BlockType(rawValue: 2)
        /// SEEKTABLE (3).
        public static let seekTable = BlockType(rawValue: 3)
        /// VORBIS_COMMENT (4).
        public static let vorbisComment = BlockType(rawValue: 4)
        /// CUESHEET (5).
        public static let cueSheet = BlockType(rawValue: 5)
        /// PICTURE (6).
        public static let picture = BlockType(rawValue: 6)

        public var description: String {
            let names = ["STREAMINFO", "PADDING", "APPLICATION", "SEEKTABLE", "VORBIS_COMMENT", "CUESHEET", "PICTURE"]
            return Int(rawValue) < names.count ? names[Int(rawValue)] : "block type \(rawValue)"
        }
    }

    /// One metadata block as found in the file.
    public struct Block: Sendable, Hashable {
        /// The block's type.
        public var type: BlockType
        /// Where its 4-byte header starts.
        public var offset: Int64
        /// The body's length.
        public var length: Int
    }

    /// The stream's STREAMINFO.
    public var streamInfo: FLACStreamInfo
    /// Every metadata block, in file order.
    public var blocks: [Block]
    /// The first VORBIS_COMMENT block's body, raw.
    public var vorbisComment: [UInt8]?
    /// Each PICTURE block's body, raw, in file order.
    public var pictures: [[UInt8]]
    /// Where the ID3v2 tags before `'fLaC'` end (0 without any).
    public var id3v2End: Int64
    /// The first byte after the last metadata block: where the frames start.
    public var audioStart: Int64

    /// Reads the metadata at the start of `source`, after any ID3v2 tags.
    init(reading source: some AudioByteSource) throws(AudioFileError) {
        var reader = WindowReader(source, windowSize: 1 << 16)
        let size = source.size
        let start = try MP3Tags.leadingID3(&reader, size: size).end
        guard start <= size - 8, try source.bytes(at: start, count: 4, chunk: "fLaC") == Array("fLaC".utf8) else {
            throw AudioFileError(.invalidFile, "no 'fLaC' marker", chunk: "fLaC", offset: start)
        }
        id3v2End = start
        var position = start + 4
        var blocks: [Block] = []
        var info: FLACStreamInfo?
        var comment: [UInt8]?
        var pictures: [[UInt8]] = []
        var last = false
        while !last {
            guard blocks.count < Self.maximumBlockCount else {
                throw AudioFileError(
                    .invalidChunk, "more than \(Self.maximumBlockCount) metadata blocks", chunk: "fLaC", offset: position)
            }
            guard position <= size - 4 else {
                throw AudioFileError(.invalidFile, "the metadata ends before its last block", chunk: "fLaC", offset: position)
            }
            let h = try source.bytes(at: position, count: 4, chunk: "fLaC")
            last = h[0] & 0x80 != 0
            let type = BlockType(rawValue: h[0] & 0x7F)
            let length = Int(h[1]) << 16 | Int(h[2]) << 8 | Int(h[3])
            guard type.rawValue != 127 else {
                throw AudioFileError(.invalidChunk, "metadata block type 127 is invalid", chunk: type.description, offset: position)
            }
            guard Int64(length) <= size - position - 4 else {
                throw AudioFileError(
                    .invalidChunk, "\(type) block of \(length) bytes runs past the end of the file (\(size) bytes)",
                    chunk: type.description, offset: position)
            }
            let body = position + 4
            if blocks.isEmpty {
                guard type == .streamInfo else {
                    throw AudioFileError(.invalidChunk, "the first metadata block is \(type), not STREAMINFO", chunk: type.description, offset: position)
                }
                guard length >= FLACStreamInfo.size,
                      let parsed = FLACStreamInfo(body: try source.bytes(at: body, count: FLACStreamInfo.size, chunk: "STREAMINFO"))
                else {
                    throw AudioFileError(.invalidChunk, "STREAMINFO of \(length) bytes; it has 34", chunk: "STREAMINFO", offset: position)
                }
                if let problem = parsed.problem {
                    throw AudioFileError(.unsupportedDataFormat, "STREAMINFO: \(problem)", chunk: "STREAMINFO", offset: position)
                }
                info = parsed
            } else if type == .streamInfo {
                throw AudioFileError(.invalidChunk, "a second STREAMINFO block", chunk: "STREAMINFO", offset: position)
            } else if type == .vorbisComment, comment == nil {
                comment = try source.bytes(at: body, count: length, chunk: type.description)
            } else if type == .picture {
                pictures.append(try source.bytes(at: body, count: length, chunk: type.description))
            }
            blocks.append(Block(type: type, offset: position, length: length))
            position = body + Int64(length)
        }
        guard let info else {
            throw AudioFileError(.invalidChunk, "no STREAMINFO block", chunk: "STREAMINFO", offset: start + 4)
        }
        streamInfo = info
        self.blocks = blocks
        vorbisComment = comment
        self.pictures = pictures
        audioStart = position
    }

    /// True when `source` holds `'fLaC'` right after any ID3v2 tags at its start.
    static func sniff(_ source: some AudioByteSource) throws(AudioFileError) -> Bool {
        var reader = WindowReader(source, windowSize: 1 << 16)
        let start = try MP3Tags.leadingID3(&reader, size: source.size).end
        guard start > 0, start <= source.size - 4 else { return false }
        return try source.bytes(at: start, count: 4, chunk: "fLaC") == Array("fLaC".utf8)
    }
}
