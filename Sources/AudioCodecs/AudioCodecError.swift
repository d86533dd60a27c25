public import AudioCore

/// An error from a decoder, an encoder or a converter, with Apple's `AudioConverter` result code.
public struct AudioCodecError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Apple's `AudioConverter` / `AudioCodec` result codes.
    public enum Code: OSStatus, Sendable, CaseIterable {
        /// `kAudioConverterErr_FormatNotSupported` (`'fmt?'`).
        case formatNotSupported = 0x666D_743F
        /// `kAudioConverterErr_OperationNotSupported` (`0x6F703F3F`).
        case operationNotSupported = 0x6F70_3F3F
        /// `kAudioConverterErr_PropertyNotSupported` (`'prop'`).
        case propertyNotSupported = 0x7072_6F70
        /// `kAudioConverterErr_InvalidInputSize` (`'insz'`).
        case invalidInputSize = 0x696E_737A
        /// `kAudioConverterErr_InvalidOutputSize` (`'otsz'`).
        case invalidOutputSize = 0x6F74_737A
        /// `kAudioConverterErr_UnspecifiedError` (`'what'`).
        case unspecified = 0x7768_6174
        /// `kAudioConverterErr_BadPropertySizeError` (`'!siz'`).
        case badPropertySize = 0x2173_697A
        /// `kAudioConverterErr_RequiresPacketDescriptionsError` (`'!pkd'`).
        case requiresPacketDescriptions = 0x2170_6B64
        /// `kAudioConverterErr_InputSampleRateOutOfRange` (`'!isr'`).
        case inputSampleRateOutOfRange = 0x2169_7372
        /// `kAudioConverterErr_OutputSampleRateOutOfRange` (`'!osr'`).
        case outputSampleRateOutOfRange = 0x216F_7372
        /// `kAudioCodecBadDataError` (`'bada'`): a packet could not be decoded.
        case badData = 0x6261_6461
        /// `kAudioFormatUnsupportedDataFormatError` (`'fmt?'` in Audio Format Services is the
        /// same value as ``formatNotSupported``); `kAudioCodecUnsupportedFormatError` (`'unsp'`).
        case unsupportedFormat = 0x756E_7370
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

    /// The `OSStatus` Apple's function returns for this failure.
    public var status: OSStatus { code.rawValue }

    public var description: String { "\(reason) (\(status.fourCharDescription))" }
}
