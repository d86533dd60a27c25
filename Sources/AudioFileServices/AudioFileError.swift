public import AudioCore

/// An error from Audio File Services: Apple's result code plus what went wrong and where.
///
/// ``code`` is the value Apple's `AudioFile…` functions return for the same failure, so code
/// ported from AudioToolbox can compare ``status`` against `kAudioFileInvalidFileError` and
/// friends. ``chunk`` and ``offset`` name the place in the file where a malformed file failed.
public struct AudioFileError: AudioResultError {
    /// Apple's Audio File Services result codes.
    public struct Code: AudioResultCode {
        /// The `OSStatus` value.
        public var rawValue: OSStatus
        /// The code whose value is `rawValue`, named or not.
        public init(rawValue: OSStatus) { self.rawValue = rawValue }

        /// `kAudioFileUnspecifiedError` (`'wht?'`).
        public static let unspecified = Code(rawValue: 0x7768_743F)
        /// `kAudioFileUnsupportedFileTypeError` (`'typ?'`): not a container this library reads.
        public static let unsupportedFileType = Code(rawValue: 0x7479_703F)
        /// `kAudioFileUnsupportedDataFormatError` (`'fmt?'`): the container holds data it cannot describe.
        public static let unsupportedDataFormat = Code(rawValue: 0x666D_743F)
        /// `kAudioFileUnsupportedPropertyError` (`'pty?'`).
        public static let unsupportedProperty = Code(rawValue: 0x7074_793F)
        /// `kAudioFileBadPropertySizeError` (`'!siz'`).
        public static let badPropertySize = Code(rawValue: 0x2173_697A)
        /// `kAudioFilePermissionsError` (`'prm?'`).
        public static let permissions = Code(rawValue: 0x7072_6D3F)
        /// `kAudioFileNotOptimizedError` (`'optm'`).
        public static let notOptimized = Code(rawValue: 0x6F70_746D)
        /// `kAudioFileInvalidChunkError` (`'chk?'`): a chunk is malformed.
        public static let invalidChunk = Code(rawValue: 0x6368_6B3F)
        /// `kAudioFileDoesNotAllow64BitDataSizeError` (`'off?'`).
        public static let doesNotAllow64BitDataSize = Code(rawValue: 0x6F66_663F)
        /// `kAudioFileInvalidPacketOffsetError` (`'pck?'`): a packet index beyond the file.
        public static let invalidPacketOffset = Code(rawValue: 0x7063_6B3F)
        /// `kAudioFileInvalidPacketDependencyError` (`'dep?'`).
        public static let invalidPacketDependency = Code(rawValue: 0x6465_703F)
        /// `kAudioFileInvalidFileError` (`'dta?'`): the file is malformed or not of its type.
        public static let invalidFile = Code(rawValue: 0x6474_613F)
        /// `kAudioFileOperationNotSupportedError` (`0x6F703F3F`).
        public static let operationNotSupported = Code(rawValue: 0x6F70_3F3F)
        /// `kAudioFileNotOpenError` (-38).
        public static let notOpen = Code(rawValue: -38)
        /// `kAudioFileEndOfFileError` (-39).
        public static let endOfFile = Code(rawValue: -39)
        /// `kAudioFilePositionError` (-40).
        public static let position = Code(rawValue: -40)
        /// `kAudioFileFileNotFoundError` (-43).
        public static let fileNotFound = Code(rawValue: -43)
        /// `dupFNErr` (-48): `AudioFileCreateWithURL` without `kAudioFileFlags_EraseFile` found a
        /// file at the path.
        public static let duplicateFileName = Code(rawValue: -48)
        /// `kAudio_ParamError` (-50): an argument out of range, such as packet table frames that
        /// do not add up to the frames in the file.
        public static let parameter = Code(rawValue: -50)
    }

    /// Apple's result code for this failure.
    public var code: Code
    /// What went wrong, in words.
    public var reason: String
    /// The chunk (or header) being read when a malformed file failed, e.g. `"fmt "`.
    public var chunk: String?
    /// The byte offset in the file where the failing structure starts.
    public var offset: Int64?

    /// An error with Apple's `code`, a `reason` in words, and where in the file it arose.
    public init(_ code: Code, _ reason: String, chunk: String? = nil, offset: Int64? = nil) {
        self.code = code
        self.reason = reason
        self.chunk = chunk
        self.offset = offset
    }

    public var description: String {
        var out = reason
        if let chunk { out += " [chunk '\(chunk)'" + (offset.map { " at offset \($0)" } ?? "") + "]" }
        else if let offset { out += " [at offset \(offset)]" }
        return out + " (\(status.fourCharDescription))"
    }
}

/// A container type (Core Audio's `AudioFileTypeID`): a four-character code.
public struct AudioFileType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// The type whose four-character code is `code`.
    public init(_ code: FourCharCode) { rawValue = code.rawValue }
    /// The four-character code, e.g. `caff`.
    public var code: FourCharCode { FourCharCode(rawValue: rawValue) }
    public var description: String { code.description }

    /// Core Audio Format (`'caff'`).
    public static let caf = AudioFileType("caff")
    /// AIFF (`'AIFF'`).
    public static let aiff = AudioFileType("AIFF")
    /// AIFF-C (`'AIFC'`).
    public static let aifc = AudioFileType("AIFC")
    /// WAVE (`'WAVE'`).
    public static let wave = AudioFileType("WAVE")
    /// RF64, the 64-bit WAVE of EBU Tech 3306 (`'RF64'`).
    public static let rf64 = AudioFileType("RF64")
    /// BW64, ITU-R BS.2088's 64-bit WAVE (`'BW64'`).
    public static let bw64 = AudioFileType("BW64")
    /// AAC in ADTS framing (`'adts'`).
    public static let adts = AudioFileType("adts")
    /// MPEG Layer III audio (`'MPG3'`, `kAudioFileMP3Type`).
    public static let mp3 = AudioFileType("MPG3")
    /// MPEG Layer II audio (`'MPG2'`, `kAudioFileMP2Type`).
    public static let mp2 = AudioFileType("MPG2")
    /// MPEG Layer I audio (`'MPG1'`, `kAudioFileMP1Type`).
    public static let mp1 = AudioFileType("MPG1")
    /// MPEG-4 audio with the iTunes `M4A ` brand (`'m4af'`, `kAudioFileM4AType`).
    public static let m4a = AudioFileType("m4af")
    /// An audio book, brand `M4B ` (`'m4bf'`, `kAudioFileM4BType`).
    public static let m4b = AudioFileType("m4bf")
    /// Any other MPEG-4 file (`'mp4f'`, `kAudioFileMPEG4Type`).
    public static let mpeg4 = AudioFileType("mp4f")
    /// 3GPP (`'3gpp'`, `kAudioFile3GPType`).
    public static let threeGPP = AudioFileType("3gpp")
    /// 3GPP2 (`'3gp2'`, `kAudioFile3GP2Type`).
    public static let threeGPP2 = AudioFileType("3gp2")
    /// FLAC (`'flac'`, `kAudioFileFLACType`).
    public static let flac = AudioFileType("flac")
}
