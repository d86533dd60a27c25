/// Damage that a reader worked around to read a file's audio, as ``AudioFile/repairs`` lists it.
///
/// Recorders that die and taggers that append blindly leave files whose format chunk and audio
/// data are intact but whose chunk structure is not: the audio data chunk declares more bytes
/// than were written, a chunk after the audio runs past the end of the file, or bytes follow the
/// end the container's header declares. Such a file opens, reads what it holds, and lists each
/// repair here. A file whose format chunk or start of audio data is damaged still fails to open.
public struct AudioFileRepair: Sendable, Hashable, CustomStringConvertible {
    /// The class of damage. New classes may be added; switch over them with a `default`.
    public struct Kind: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String

        /// A kind named `rawValue`.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// Bytes after the end that the container's header declares (a RIFF, RF64 `ds64` or FORM
        /// size smaller than the file) were ignored: junk, a tag appended by a tagger, or a
        /// chunk header left by a writer.
        public static let bytesAfterContainer = Kind(rawValue: "bytesAfterContainer")
        /// A chunk after the audio data whose declared size runs past the end of the file was
        /// ignored, and the walk ended there.
        public static let chunkPastEndOfFile = Kind(rawValue: "chunkPastEndOfFile")
        /// The audio data chunk (`data`, `SSND`, an MPEG-4 `mdat` after its `moov`) declares
        /// more bytes than the file holds, as a recording or download cut short leaves it: the
        /// whole packets that are there are read.
        public static let audioDataTruncated = Kind(rawValue: "audioDataTruncated")

        public var description: String { rawValue }
    }

    /// What was repaired.
    public let kind: Kind
    /// The chunk the damage is in (for ``Kind/bytesAfterContainer``, the container chunk: `RIFF`,
    /// `RF64`, `FORM`).
    public let chunk: String
    /// Where the damage starts: the chunk header's offset, or the first byte after the container.
    public let offset: Int64
    /// The size the header declares for the chunk's body (for ``Kind/bytesAfterContainer``, the
    /// container's declared end as a file offset).
    public let declaredSize: Int64
    /// The bytes the file actually holds: after the chunk header, or after the container's end.
    public let availableSize: Int64

    /// A repair of `kind` in `chunk` at `offset`.
    public init(kind: Kind, chunk: String, offset: Int64, declaredSize: Int64, availableSize: Int64) {
        self.kind = kind
        self.chunk = chunk
        self.offset = offset
        self.declaredSize = declaredSize
        self.availableSize = availableSize
    }

    public var description: String {
        switch kind {
        case .bytesAfterContainer:
            "ignored \(availableSize) bytes after the end of the '\(chunk)' container at offset \(offset)"
        case .chunkPastEndOfFile:
            "ignored chunk '\(chunk)' at offset \(offset): it declares \(declaredSize) bytes but the file has \(availableSize) after its header"
        case .audioDataTruncated:
            "chunk '\(chunk)' at offset \(offset) declares \(declaredSize) bytes of audio but the file holds \(availableSize): reading the whole packets there"
        default:
            "\(kind) in chunk '\(chunk)' at offset \(offset) (declared \(declaredSize), available \(availableSize))"
        }
    }
}
