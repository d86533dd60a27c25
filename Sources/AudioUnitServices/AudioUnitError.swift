public import AudioCore

/// What went wrong with an audio unit, its component or a graph of units.
///
/// ``code`` is Apple's `OSStatus` for the failure (`kAudioUnitErr_…`, `kAudioComponentErr_…`,
/// `kAUGraphErr_…`), so the C functions return it as it is.
public struct AudioUnitError: AudioResultError {
    /// The kind of failure: an `OSStatus`. Any other value is a code too, so a `switch` over
    /// codes needs a `default:`.
    public struct Code: AudioResultCode {
        /// The `OSStatus` value.
        public var rawValue: OSStatus
        /// The code whose value is `rawValue`, named or not.
        public init(rawValue: OSStatus) { self.rawValue = rawValue }

        /// A parameter is out of range or NULL (`kAudio_ParamError`, -50).
        public static let parameter = Code(rawValue: -50)
        /// The unit has no such property (`kAudioUnitErr_InvalidProperty`).
        public static let invalidProperty = Code(rawValue: -10879)
        /// The unit has no such parameter (`kAudioUnitErr_InvalidParameter`).
        public static let invalidParameter = Code(rawValue: -10878)
        /// The scope has no such element (`kAudioUnitErr_InvalidElement`).
        public static let invalidElement = Code(rawValue: -10877)
        /// The input to render is neither a callback nor a connection (`kAudioUnitErr_NoConnection`).
        public static let noConnection = Code(rawValue: -10876)
        /// The unit could not be initialized (`kAudioUnitErr_FailedInitialization`).
        public static let failedInitialization = Code(rawValue: -10875)
        /// More frames asked of a render than ``AudioUnit/maximumFramesPerSlice``
        /// (`kAudioUnitErr_TooManyFramesToProcess`).
        public static let tooManyFramesToProcess = Code(rawValue: -10874)
        /// The format is one the unit cannot take (`kAudioUnitErr_FormatNotSupported`).
        public static let formatNotSupported = Code(rawValue: -10868)
        /// The unit must be initialized first (`kAudioUnitErr_Uninitialized`).
        public static let uninitialized = Code(rawValue: -10867)
        /// The unit has no such scope (`kAudioUnitErr_InvalidScope`).
        public static let invalidScope = Code(rawValue: -10866)
        /// The property can be read, not set (`kAudioUnitErr_PropertyNotWritable`).
        public static let propertyNotWritable = Code(rawValue: -10865)
        /// Not now: the unit's state does not allow it (`kAudioUnitErr_CannotDoInCurrentContext`).
        public static let cannotDoInCurrentContext = Code(rawValue: -10863)
        /// The property's value is out of range or malformed (`kAudioUnitErr_InvalidPropertyValue`).
        public static let invalidPropertyValue = Code(rawValue: -10851)
        /// The property has no value in the unit's state (`kAudioUnitErr_PropertyNotInUse`).
        public static let propertyNotInUse = Code(rawValue: -10850)
        /// Not while the unit is initialized (`kAudioUnitErr_Initialized`).
        public static let initialized = Code(rawValue: -10849)
        /// The instance is no longer usable (`kAudioComponentErr_InstanceInvalidated`).
        public static let instanceInvalidated = Code(rawValue: -66749)
        /// The component's type is not one this library makes (`kAudioComponentErr_UnsupportedType`).
        public static let unsupportedType = Code(rawValue: -66751)
        /// A graph has no node by that number (`kAUGraphErr_NodeNotFound`).
        public static let nodeNotFound = Code(rawValue: -10860)
        /// A graph's connection is not allowed (`kAUGraphErr_InvalidConnection`).
        public static let invalidConnection = Code(rawValue: -10861)
        /// A graph has more or fewer than one output node (`kAUGraphErr_OutputNodeErr`).
        public static let outputNode = Code(rawValue: -10862)
        /// A graph's node is not a usable unit (`kAUGraphErr_InvalidAudioUnit`).
        public static let invalidAudioUnit = Code(rawValue: -10864)
        /// The device could not be opened or failed (`kAudioHardwareNotRunningError`, `'stop'`);
        /// the device's own code is used where it has one.
        public static let deviceNotRunning = Code(rawValue: 0x7374_6F70)
    }

    /// The kind of failure.
    public var code: Code
    /// What went wrong, in words.
    public var reason: String

    /// An error of kind `code` explained by `reason`.
    public init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }

    /// The code and the reason.
    public var description: String { "\(reason) (\(code))" }
}
