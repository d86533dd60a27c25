public import AudioCore

/// One linear PCM sample layout a file type is written in: what Apple's
/// `kAudioFileGlobalInfo_AvailableStreamDescriptionsForFormat` lists for `'lpcm'`
/// (`afconvert -hf` prints the same, e.g. `LEI16` or `BEF32`).
public struct AudioFilePCMLayout: Sendable, Hashable {
    /// Bits per sample.
    public var bitsPerChannel: UInt32
    /// True for IEEE float samples.
    public var isFloat: Bool
    /// True for big-endian samples (an 8-bit layout keeps the flag where Apple's list has it).
    public var isBigEndian: Bool
    /// True for signed integer samples; false for unsigned integer and for float samples.
    public var isSignedInteger: Bool

    /// Integer samples of `bits` bits.
    static func integer(_ bits: UInt32, bigEndian: Bool, signed: Bool = true) -> Self {
        Self(bitsPerChannel: bits, isFloat: false, isBigEndian: bigEndian, isSignedInteger: signed)
    }

    /// Float samples of `bits` bits.
    static func float(_ bits: UInt32, bigEndian: Bool) -> Self {
        Self(bitsPerChannel: bits, isFloat: true, isBigEndian: bigEndian, isSignedInteger: false)
    }

}

extension [AudioFilePCMLayout] {
    /// 16-, 24- and 32-bit signed integers in one byte order.
    static func integers(bigEndian: Bool) -> Self { [16, 24, 32].map { .integer($0, bigEndian: bigEndian) } }

    /// 32- and 64-bit floats in one byte order.
    static func floats(bigEndian: Bool) -> Self { [32, 64].map { .float($0, bigEndian: bigEndian) } }
}

/// One file type as Apple's global info describes it (`AudioFileGetGlobalInfo`): its name,
/// extensions, UTIs, MIME types, HFS type codes, and the data formats written into it.
public struct AudioFileTypeDescriptor: Sendable {
    /// The type's code (`kAudioFilePropertyFileFormat`).
    public let type: AudioFileType
    /// The name a Mac gives it (`kAudioFileGlobalInfo_FileTypeName`).
    public let name: String
    /// File name extensions, lower case, without dot, in Apple's order
    /// (`kAudioFileGlobalInfo_ExtensionsForType`).
    public let extensions: [String]
    /// Uniform type identifiers (`kAudioFileGlobalInfo_UTIsForType`).
    public let utis: [String]
    /// MIME types (`kAudioFileGlobalInfo_MIMETypesForType`).
    public let mimeTypes: [String]
    /// HFS type codes (`kAudioFileGlobalInfo_HFSTypeCodesForType`).
    public let hfsTypeCodes: [FourCharCode]
    /// The data formats ``AudioFileWriter`` writes into files of this type, in Apple's order
    /// (`kAudioFileGlobalInfo_AvailableFormatIDs`); empty for a type that is read only.
    public let writableFormats: [AudioFormatID]
    /// The linear PCM layouts written into files of this type, where ``writableFormats`` has
    /// linear PCM.
    public let pcmLayouts: [AudioFilePCMLayout]

    init(
        _ type: AudioFileType, name: String, extensions: [String], utis: [String] = [], mimeTypes: [String] = [],
        hfsTypeCodes: [FourCharCode] = [], writes writableFormats: [AudioFormatID] = [], pcmLayouts: [AudioFilePCMLayout]...
    ) {
        self.type = type
        self.name = name
        self.extensions = extensions
        self.utis = utis
        self.mimeTypes = mimeTypes
        self.hfsTypeCodes = hfsTypeCodes
        self.writableFormats = writableFormats
        self.pcmLayouts = pcmLayouts.flatMap { $0 }
    }
}

/// How Audio File Stream Services finds the packets of a stream of one container format.
enum StreamCutting: Sendable {
    /// Chunks before the audio data (CAF, RIFF, IFF): gathered up to the data chunk's header,
    /// parsed by the reader, then cut by its packet index.
    case chunks(ChunkWalker.Layout)
    /// MPEG-4 boxes up to the first `mdat` after the `moov`, parsed by the reader, then cut by
    /// its sample tables.
    case boxes
    /// FLAC metadata blocks, then frames found by their headers.
    case flacFrames
    /// Frames found by their headers from the first byte (ADTS, MPEG audio).
    case frames(FrameCutter.Kind)
    /// A cutter that reads the stream from its first byte (Ogg pages).
    case fromStart(@Sendable () -> any StreamCutter)
    /// A cutter that finds frames by their sync words from the first byte, junk skipped (raw
    /// AC-3): like ``fromStart(_:)``, but a type hint picks it for a stream that opens with junk.
    case syncFrames(@Sendable () -> any StreamCutter)

    /// True when a stream whose first bytes match no format's magic is cut this way on a type
    /// hint alone: frames are found after tags or junk, a header cannot be.
    var followsTypeHint: Bool {
        switch self {
        case .flacFrames, .frames, .syncFrames: true
        case .chunks, .boxes, .fromStart: false
        }
    }
}

/// Everything the package knows about one container format, declared once by the format:
/// its reader, the file types it reads (with what Apple's global info says of each and what
/// the writer writes into it), the extensions that select it, how a file is recognised where
/// magic bytes are not enough, and how a stream of it is cut into packets.
///
/// ``AudioFileFormats/descriptors`` lists every format's descriptor; the readers' lookup by
/// magic bytes, extension and type hint, the writable formats of each type and the C API's
/// global info are derived from that list.
public struct AudioFileFormatDescriptor: Sendable {
    /// The reader: its ``AudioFileFormat/canRead(prefix:)`` checks the magic bytes.
    public let reader: any AudioFileFormat.Type
    /// The file types the reader reads; the first is the reader's
    /// ``AudioFileFormat/fileType-type.property``.
    public let types: [AudioFileTypeDescriptor]
    /// Extensions that select the reader although Apple lists them for none of ``types``.
    public let otherExtensions: [String]
    /// A deeper look for files that neither magic bytes, a type hint nor an extension place
    /// (FLAC and MPEG audio after ID3v2 tags).
    let sniff: (@Sendable (any AudioByteSource) throws(AudioFileError) -> Bool)?
    /// How a stream of the format is cut into packets.
    let streamCutting: StreamCutting

    init(
        reader: any AudioFileFormat.Type, types: [AudioFileTypeDescriptor], otherExtensions: [String] = [],
        sniff: (@Sendable (any AudioByteSource) throws(AudioFileError) -> Bool)? = nil, streamCutting: StreamCutting
    ) {
        precondition(!types.isEmpty, "a container format reads at least one file type")
        self.reader = reader
        self.types = types
        self.otherExtensions = otherExtensions
        self.sniff = sniff
        self.streamCutting = streamCutting
    }

    /// Every extension that selects the reader: its types' extensions, then
    /// ``otherExtensions``, each once.
    public var extensions: [String] {
        var seen = Set<String>()
        return (types.flatMap(\.extensions) + otherExtensions).filter { seen.insert($0).inserted }
    }
}

/// One of the package's readers, which declares its ``AudioFileFormatDescriptor``; its
/// ``AudioFileFormat/fileType`` and ``AudioFileFormat/extensions`` come from there.
protocol DescribedFormat: AudioFileFormat {
    /// What the package knows of this format, declared once.
    static var descriptor: AudioFileFormatDescriptor { get }
}

extension DescribedFormat {
    /// The descriptor's first type.
    public static var fileType: AudioFileType { descriptor.types[0].type }
    /// The descriptor's extensions.
    public static var extensions: [String] { descriptor.extensions }

    /// This reader's descriptor: the file types it reads, extensions Apple lists for none of them,
    /// its deeper look and how a stream of it is cut.
    static func declaring(
        _ types: AudioFileTypeDescriptor..., otherExtensions: [String] = [],
        sniff: (@Sendable (any AudioByteSource) throws(AudioFileError) -> Bool)? = nil, streamCutting: StreamCutting
    ) -> AudioFileFormatDescriptor {
        AudioFileFormatDescriptor(reader: Self.self, types: types, otherExtensions: otherExtensions, sniff: sniff, streamCutting: streamCutting)
    }
}

/// The container formats ``AudioFile`` knows.
public enum AudioFileFormats {
    /// Every container format, in the order magic bytes are tried and the C API lists file
    /// types. A format is registered by adding its descriptor here.
    public static let descriptors: [AudioFileFormatDescriptor] = [
        CAFFormat.descriptor, WAVEFormat.descriptor, AIFFFormat.descriptor, MP4Format.descriptor, ADTSFormat.descriptor,
        FLACFormat.descriptor, MP3Format.descriptor, OggFormat.descriptor, AC3Format.descriptor,
    ]

    /// Every container reader.
    public static let all: [any AudioFileFormat.Type] = descriptors.map(\.reader)

    /// Every file type read, in the order of ``descriptors``.
    public static let fileTypes: [AudioFileTypeDescriptor] = descriptors.flatMap(\.types)

    /// The conformer whose magic bytes match `prefix`.
    public static func detect(prefix: [UInt8]) -> (any AudioFileFormat.Type)? {
        prefix.withUnsafeBytes { raw in all.first { $0.canRead(prefix: raw) } }
    }

    /// The conformer for a file name extension (case-insensitive, without dot).
    public static func forExtension(_ ext: String) -> (any AudioFileFormat.Type)? {
        let lower = ext.lowercased()
        return descriptors.first { $0.extensions.contains(lower) }?.reader
    }

    /// The conformer for a type hint.
    public static func forType(_ type: AudioFileType) -> (any AudioFileFormat.Type)? {
        descriptor(reading: type)?.reader
    }

    /// The descriptor of the format that reads files of `type`.
    public static func descriptor(reading type: AudioFileType) -> AudioFileFormatDescriptor? {
        descriptors.first { $0.types.contains { $0.type == type } }
    }

    /// What the global info says of `type`, nil for a type the package does not read.
    public static func fileType(_ type: AudioFileType) -> AudioFileTypeDescriptor? {
        fileTypes.first { $0.type == type }
    }

    /// Each reader's first type's name, for messages: `CAF, WAVE, AIFF, …`.
    static var readerNames: String { descriptors.map(\.types[0].name).joined(separator: ", ") }

    /// The format of a file that neither magic bytes, type hint nor extension place, found by
    /// each format's deeper look in turn.
    static func sniff(_ source: any AudioByteSource) throws(AudioFileError) -> (any AudioFileFormat.Type)? {
        for descriptor in descriptors {
            if let sniff = descriptor.sniff, try sniff(source) { return descriptor.reader }
        }
        return nil
    }
}
