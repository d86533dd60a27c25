public import AudioCore
public import AudioFileServices
public import AudioCodecs

/// An error from ``ExtAudioFile``: Apple's result code, what went wrong, and the file's or the
/// codec's own error when reading or decoding is what failed.
///
/// ``code`` is what Apple's `ExtAudioFile…` function returns for the same failure: the file's
/// code (``fileError``) or the codec's (``codecError``) when one of them failed, else one of
/// Extended Audio File Services' own (`kExtAudioFileError_…`). As with every
/// `AudioResultCode`, any other value is a code too.
public struct ExtAudioFileError: AudioResultError {
    /// Apple's Extended Audio File Services result codes (`ExtendedAudioFile.h`); an error from
    /// the file or the codec keeps that one's code.
    public struct Code: AudioResultCode {
        /// The `OSStatus` value.
        public var rawValue: OSStatus
        /// The code whose value is `rawValue`, named or not.
        public init(rawValue: OSStatus) { self.rawValue = rawValue }

        /// `kExtAudioFileError_InvalidProperty`.
        public static let invalidProperty = Code(rawValue: -66561)
        /// `kExtAudioFileError_InvalidPropertySize`.
        public static let invalidPropertySize = Code(rawValue: -66562)
        /// `kExtAudioFileError_NonPCMClientFormat`: the client format is not linear PCM.
        public static let nonPCMClientFormat = Code(rawValue: -66563)
        /// `kExtAudioFileError_InvalidChannelMap`.
        public static let invalidChannelMap = Code(rawValue: -66564)
        /// `kExtAudioFileError_InvalidOperationOrder`.
        public static let invalidOperationOrder = Code(rawValue: -66565)
        /// `kExtAudioFileError_InvalidDataFormat`.
        public static let invalidDataFormat = Code(rawValue: -66566)
        /// `kExtAudioFileError_MaxPacketSizeUnknown`.
        public static let maxPacketSizeUnknown = Code(rawValue: -66567)
        /// `kExtAudioFileError_InvalidSeek`: a frame beyond the file.
        public static let invalidSeek = Code(rawValue: -66568)
        /// `kExtAudioFileError_AsyncWriteTooLarge`.
        public static let asyncWriteTooLarge = Code(rawValue: -66569)
        /// `kExtAudioFileError_AsyncWriteBufferOverflow`.
        public static let asyncWriteBufferOverflow = Code(rawValue: -66570)
    }

    /// Apple's result code for this failure.
    public var code: Code
    /// What went wrong, in words.
    public var reason: String
    /// The file's error, when reading the file failed.
    public var fileError: AudioFileError?
    /// The codec's or converter's error, when decoding or converting failed.
    public var codecError: AudioCodecError?

    /// An error with Apple's `code` and a `reason` in words.
    public init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }

    /// Reading the file failed: the file's code, reason and error.
    public static func file(_ error: AudioFileError) -> ExtAudioFileError {
        var wrapped = ExtAudioFileError(Code(rawValue: error.status), error.reason)
        wrapped.fileError = error
        return wrapped
    }

    /// Decoding or converting failed: the codec's code, reason and error.
    public static func codec(_ error: AudioCodecError) -> ExtAudioFileError {
        var wrapped = ExtAudioFileError(Code(rawValue: error.status), error.reason)
        wrapped.codecError = error
        return wrapped
    }

    /// The file's or codec's description when one of them failed (with the chunk and offset
    /// of a file error); else the reason and the code.
    public var description: String {
        if let fileError { return fileError.description }
        if let codecError { return codecError.description }
        return "\(reason) (\(status.fourCharDescription))"
    }
}
