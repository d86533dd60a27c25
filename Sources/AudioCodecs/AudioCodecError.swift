public import AudioCore

/// An error from a decoder, an encoder or a converter, with Apple's `AudioConverter` result code.
public struct AudioCodecError: AudioResultError {
    /// Apple's `AudioConverter` / `AudioCodec` result codes.
    public struct Code: AudioResultCode {
        /// The `OSStatus` value.
        public var rawValue: OSStatus
        /// The code whose value is `rawValue`, named or not.
        public init(rawValue: OSStatus) { self.rawValue = rawValue }

        /// `kAudioConverterErr_FormatNotSupported` (`'fmt?'`).
        public static let formatNotSupported = Code(rawValue: 0x666D_743F)
        /// `kAudioConverterErr_OperationNotSupported` (`0x6F703F3F`).
        public static let operationNotSupported = Code(rawValue: 0x6F70_3F3F)
        /// `kAudioConverterErr_PropertyNotSupported` (`'prop'`).
        public static let propertyNotSupported = Code(rawValue: 0x7072_6F70)
        /// `kAudioConverterErr_InvalidInputSize` (`'insz'`).
        public static let invalidInputSize = Code(rawValue: 0x696E_737A)
        /// `kAudioConverterErr_InvalidOutputSize` (`'otsz'`).
        public static let invalidOutputSize = Code(rawValue: 0x6F74_737A)
        /// `kAudioConverterErr_UnspecifiedError` (`'what'`).
        public static let unspecified = Code(rawValue: 0x7768_6174)
        /// `kAudioConverterErr_BadPropertySizeError` (`'!siz'`).
        public static let badPropertySize = Code(rawValue: 0x2173_697A)
        /// `kAudioConverterErr_RequiresPacketDescriptionsError` (`'!pkd'`).
        public static let requiresPacketDescriptions = Code(rawValue: 0x2170_6B64)
        /// `kAudioConverterErr_InputSampleRateOutOfRange` (`'!isr'`).
        public static let inputSampleRateOutOfRange = Code(rawValue: 0x2169_7372)
        /// `kAudioConverterErr_OutputSampleRateOutOfRange` (`'!osr'`).
        public static let outputSampleRateOutOfRange = Code(rawValue: 0x216F_7372)
        /// `kAudioCodecBadDataError` (`'bada'`): a packet could not be decoded.
        public static let badData = Code(rawValue: 0x6261_6461)
        /// `kAudioFormatUnsupportedDataFormatError` (`'fmt?'` in Audio Format Services is the
        /// same value as ``formatNotSupported``); `kAudioCodecUnsupportedFormatError` (`'unsp'`).
        public static let unsupportedFormat = Code(rawValue: 0x756E_7370)
    }

    /// Apple's result code.
    public var code: Code
    /// What went wrong.
    public var reason: String

    /// An error with Apple's `code` and a `reason` in words.
    public init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }
}

extension AudioCodecError {
    /// A config that does not parse, as a codec reports it: malformed is `badData`,
    /// unsupported is `formatNotSupported`.
    public init(_ error: AudioSpecificConfig.ParseError) {
        self.init(error.kind == .malformed ? .badData : .formatNotSupported, error.reason)
    }
}
