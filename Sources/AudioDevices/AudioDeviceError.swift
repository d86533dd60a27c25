public import AudioCore

/// What went wrong opening, starting or running a device.
///
/// ``code`` is an `OSStatus`: Apple's Core Audio HAL result code nearest to the failure
/// (`AudioHardwareBase.h`), so a device failure keeps its code wherever it is reported — a
/// queue's ``AudioDeviceError`` from a start that failed later, say — and can be compared with
/// the constants code ported from macOS knows.
public struct AudioDeviceError: AudioResultError {
    /// The kind of failure: an `OSStatus`, named for the failures devices report.
    ///
    /// As with every `AudioResultCode`, any other value is a code too, so a `switch` over
    /// codes needs a `default:` and a code added later is not a breaking change.
    public struct Code: AudioResultCode {
        /// The `OSStatus` value.
        public var rawValue: OSStatus
        /// The code whose value is `rawValue`, named or not.
        public init(rawValue: OSStatus) { self.rawValue = rawValue }

        /// No device or backend by that name (`kAudioHardwareBadDeviceError`, `'!dev'`).
        public static let notFound = Code(rawValue: 0x2164_6576)
        /// The device exists but could not be opened: busy, no server, permissions
        /// (`kAudioHardwareNotRunningError`, `'stop'`).
        public static let openFailed = Code(rawValue: 0x7374_6F70)
        /// The device cannot play or record this format (`kAudioDeviceUnsupportedFormatError`,
        /// `'!dat'`).
        public static let formatNotSupported = Code(rawValue: 0x2164_6174)
        /// The device was lost while running: the server went away, the card was unplugged
        /// (`kAudioHardwareBadObjectError`, `'!obj'`).
        public static let disconnected = Code(rawValue: 0x216F_626A)
        /// Reading or writing audio failed (`kAudioHardwareUnspecifiedError`, `'what'`).
        public static let ioFailed = Code(rawValue: 0x7768_6174)
        /// A call that does not fit the device's state: start twice, use after close
        /// (`kAudioHardwareIllegalOperationError`, `'nope'`).
        public static let invalidState = Code(rawValue: 0x6E6F_7065)
    }

    /// The kind of failure.
    public var code: Code
    /// What happened, in words (the backend's own message where it has one).
    public var reason: String

    /// An error of kind `code` explained by `reason`.
    public init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }

    /// The reason alone: a queue's messages quote it and add their own code.
    public var description: String { reason }
}
