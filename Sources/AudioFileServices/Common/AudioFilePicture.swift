import AudioCore

/// A picture a file carries: cover art from an ID3v2 `APIC`/`PIC` frame, an APEv2 `Cover Art`
/// item, an MPEG-4 `covr` item, a FLAC `PICTURE` block or a Vorbis comment's
/// `METADATA_BLOCK_PICTURE`.
///
/// ``data`` holds the image file's bytes (JPEG, PNG, …) as stored; this is what Apple's
/// `kAudioFilePropertyAlbumArtwork` hands back in a `CFData`.
public struct AudioFilePicture: Sendable, Equatable {
    /// What a picture shows: the ID3v2 `APIC` picture types, which FLAC shares. An open set.
    public struct PictureType: RawRepresentable, Hashable, Sendable {
        public var rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        /// Other.
        public static let other = PictureType(rawValue: 0)
        /// A 32×32 PNG file icon.
        public static let fileIcon = PictureType(rawValue: 1)
        /// The front cover.
        public static let frontCover = PictureType(rawValue: 3)
        /// The back cover.
        public static let backCover = PictureType(rawValue: 4)
        /// The artist or performer.
        public static let artist = PictureType(rawValue: 8)
    }

    /// What the picture shows (MPEG-4 `covr` items are taken as ``PictureType/frontCover``).
    public var type: PictureType
    /// The image's MIME type (`image/jpeg`, `image/png`), as stored or recognised from its bytes.
    public var mimeType: String
    /// The picture's description, often empty.
    public var description: String
    /// Width and height in pixels, colour depth in bits per pixel and the number of colours of
    /// an indexed image, where the file says (FLAC); else 0.
    public var width: Int = 0, height: Int = 0, colorDepth: Int = 0, indexedColors: Int = 0
    /// The image file's bytes.
    public var data: [UInt8]

    /// A picture of `type` whose image bytes are `data`.
    public init(type: PictureType, mimeType: String, description: String = "", data: [UInt8]) {
        self.type = type
        self.mimeType = mimeType
        self.description = description
        self.data = data
    }

    /// Parses the body of a FLAC `PICTURE` metadata block (also the content of a Vorbis
    /// comment's base64 `METADATA_BLOCK_PICTURE`): picture type, MIME type, description, width,
    /// height, colour depth, indexed colours and the data, every number 32-bit big-endian and
    /// every length checked against the block. Nil when the block is malformed.
    public init?(flacPictureBlock b: some Collection<UInt8>) {
        let bytes = Array(b)
        var p = 0
        func u32() -> Int? {
            guard p + 4 <= bytes.count else { return nil }
            defer { p += 4 }
            return Int(bytes.be32(p))
        }
        func text(_ length: Int) -> String? {
            guard length <= bytes.count - p else { return nil }
            defer { p += length }
            return String(decoding: bytes[p..<(p + length)], as: UTF8.self)
        }
        guard let type = u32(), let mimeLength = u32(), let mime = text(mimeLength),
              let descriptionLength = u32(), let description = text(descriptionLength),
              let width = u32(), let height = u32(), let depth = u32(), let colors = u32(),
              let length = u32(), length <= bytes.count - p
        else { return nil }
        self.init(
            type: PictureType(rawValue: UInt32(type)), mimeType: mime, description: description,
            data: Array(bytes[p..<(p + length)]))
        if self.mimeType.isEmpty { self.mimeType = Self.sniffMIMEType(self.data[...]) ?? "" }
        (self.width, self.height, self.colorDepth, self.indexedColors) = (width, height, depth, colors)
    }

    /// The MIME type of an image recognised by its first bytes (JPEG, PNG, GIF, BMP), or nil.
    static func sniffMIMEType(_ data: ArraySlice<UInt8>) -> String? {
        let head = Array(data.prefix(8))
        if head.starts(with: [0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return "image/png" }
        if head.starts(with: Array("GIF8".utf8)) { return "image/gif" }
        if head.starts(with: Array("BM".utf8)) { return "image/bmp" }
        return nil
    }

    /// The album artwork among `pictures`: the front cover, else the first picture that is not
    /// a file icon, else the first.
    static func albumArtwork(_ pictures: [AudioFilePicture]) -> AudioFilePicture? {
        pictures.first { $0.type == .frontCover }
            ?? pictures.first { $0.type != .fileIcon && $0.type.rawValue != 2 }
            ?? pictures.first
    }
}

/// A container that finds where its pictures lie when the file opens: its
/// ``AudioFileFormat/artwork(reading:)`` reads them from there.
protocol ArtworkLocated: AudioFileFormat {
    /// Where the pictures lie, in the order they are given.
    var artworkLocations: [ArtworkLocation] { get }
}

extension ArtworkLocated {
    /// The pictures found where the file said they lie, in order (ID3v2 `APIC`/`PIC` frames,
    /// an APEv2 tag's `Cover Art` items, an MPEG-4 `covr` item's values); a picture that cannot
    /// be read is left out.
    public func artwork(reading source: any AudioByteSource) -> [AudioFilePicture] {
        ArtworkLocation.pictures(artworkLocations, in: source)
    }
}

/// Where a container's pictures lie: found when the file opens, read only when asked for.
enum ArtworkLocation: Sendable {
    /// A whole ID3v2 tag (its `APIC`/`PIC` frames).
    case id3v2(offset: Int64, size: Int64)
    /// An MPEG-4 `covr` item's `data` value (its type: 13 JPEG, 14 PNG, 27 BMP).
    case mp4Cover(offset: Int64, size: Int64, dataType: UInt32)
    /// An APEv2 tag's item area and item count (its binary `Cover Art` items).
    case apeItems(offset: Int64, size: Int64, count: Int)

    /// Pictures larger than this are not read.
    static let maximumSize: Int64 = 64 << 20

    /// The pictures at `locations`, in order; a location that cannot be read gives none.
    static func pictures(_ locations: [ArtworkLocation], in source: any AudioByteSource) -> [AudioFilePicture] {
        var out: [AudioFilePicture] = []
        for location in locations {
            switch location {
            case .id3v2(let offset, let size):
                guard size <= maximumSize, offset >= 0, size <= source.size - offset,
                      let tag = try? source.bytes(at: offset, count: Int(size), chunk: "ID3 ")
                else { continue }
                out += ID3v2.pictures(tag)
            case .apeItems(let offset, let size, let count):
                guard size <= maximumSize, offset >= 0, size <= source.size - offset,
                      let items = try? source.bytes(at: offset, count: Int(size), chunk: "APE ")
                else { continue }
                out += MP3Tags.apePictures(items, count: count)
            case .mp4Cover(let offset, let size, let dataType):
                guard size > 0, size <= maximumSize, offset >= 0, size <= source.size - offset,
                      let bytes = try? source.bytes(at: offset, count: Int(size), chunk: "covr")
                else { continue }
                let mime = switch dataType {
                case 13: "image/jpeg"
                case 14: "image/png"
                case 27: "image/bmp"
                default: AudioFilePicture.sniffMIMEType(bytes[...]) ?? "application/octet-stream"
                }
                out.append(AudioFilePicture(type: .frontCover, mimeType: mime, data: bytes))
            }
        }
        return out
    }
}
