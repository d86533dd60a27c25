public import AudioCore

/// An error from Audio File Stream Services: Apple's result code plus what went wrong and where.
///
/// ``code`` is the value Apple's `AudioFileStream…` functions return for the same failure
/// (`kAudioFileStreamError_InvalidFile` and friends), so the C API is a plain map. ``offset`` is
/// the byte offset in the stream where a malformed stream failed.
public struct AudioFileStreamError: AudioResultError {
    /// Apple's Audio File Stream Services result codes (`kAudioFileStreamError_…`).
    public struct Code: AudioResultCode {
        /// The `OSStatus` value.
        public var rawValue: OSStatus
        /// The code whose `OSStatus` is `rawValue`.
        public init(rawValue: OSStatus) { self.rawValue = rawValue }

        /// `kAudioFileStreamError_UnsupportedFileType` (`'typ?'`): not a stream this parser reads.
        public static let unsupportedFileType = Code(rawValue: 0x7479_703F)
        /// `kAudioFileStreamError_UnsupportedDataFormat` (`'fmt?'`).
        public static let unsupportedDataFormat = Code(rawValue: 0x666D_743F)
        /// `kAudioFileStreamError_UnsupportedProperty` (`'pty?'`).
        public static let unsupportedProperty = Code(rawValue: 0x7074_793F)
        /// `kAudioFileStreamError_BadPropertySize` (`'!siz'`).
        public static let badPropertySize = Code(rawValue: 0x2173_697A)
        /// `kAudioFileStreamError_NotOptimized` (`'optm'`): what the parser needs before the audio
        /// (an MPEG-4 `moov`, a CAF `pakt`) comes after it.
        public static let notOptimized = Code(rawValue: 0x6F70_746D)
        /// `kAudioFileStreamError_InvalidPacketOffset` (`'pck?'`).
        public static let invalidPacketOffset = Code(rawValue: 0x7063_6B3F)
        /// `kAudioFileStreamError_InvalidFile` (`'dta?'`): the stream is malformed.
        public static let invalidFile = Code(rawValue: 0x6474_613F)
        /// `kAudioFileStreamError_ValueUnknown` (`'unk?'`): the property is not known yet.
        public static let valueUnknown = Code(rawValue: 0x756E_6B3F)
        /// `kAudioFileStreamError_DataUnavailable` (`'more'`).
        public static let dataUnavailable = Code(rawValue: 0x6D6F_7265)
        /// `kAudioFileStreamError_IllegalOperation` (`'nope'`): a call on a closed stream, or from
        /// inside its own callbacks where that is not allowed.
        public static let illegalOperation = Code(rawValue: 0x6E6F_7065)
        /// `kAudioFileStreamError_UnspecifiedError` (`'wht?'`).
        public static let unspecified = Code(rawValue: 0x7768_743F)
        /// `kAudioFileStreamError_DiscontinuityCantRecover` (`'dsc!'`).
        public static let discontinuityCantRecover = Code(rawValue: 0x6473_6321)

        /// Every code Apple defines.
        public static let allCases: [Code] = [
            .unsupportedFileType, .unsupportedDataFormat, .unsupportedProperty, .badPropertySize, .notOptimized,
            .invalidPacketOffset, .invalidFile, .valueUnknown, .dataUnavailable, .illegalOperation, .unspecified,
            .discontinuityCantRecover,
        ]
    }

    /// Apple's result code for this failure.
    public var code: Code
    /// What went wrong, in words.
    public var reason: String
    /// The byte offset in the stream where the failing structure starts.
    public var offset: Int64?

    /// An error with Apple's `code`, a `reason` in words, and where in the stream it arose.
    public init(_ code: Code, _ reason: String, offset: Int64? = nil) {
        self.code = code
        self.reason = reason
        self.offset = offset
    }

    /// The stream error for a container parser's `error`: Apple's stream code for the same
    /// failure (`'typ?'`, `'fmt?'`, `'optm'`; anything wrong with the data is `'dta?'`).
    public init(_ error: AudioFileError) {
        let code: Code
        switch error.code {
        case .unsupportedFileType: code = .unsupportedFileType
        case .unsupportedDataFormat: code = .unsupportedDataFormat
        case .notOptimized: code = .notOptimized
        case .invalidPacketOffset: code = .invalidPacketOffset
        default: code = .invalidFile
        }
        var reason = error.reason
        if let chunk = error.chunk { reason += " [chunk '\(chunk)']" }
        self.init(code, reason, offset: error.offset)
    }

    public var description: String {
        reason + (offset.map { " [at offset \($0)]" } ?? "") + " (\(status.fourCharDescription))"
    }
}
