import AudioCore
#if canImport(Glibc)
import Glibc
#endif

/// A playback parameter (Apple's `AudioQueueParameterID`): the number Apple gives it, with
/// static members for the parameters an output queue has.
///
/// An open set, as swift-system's `Errno` is: any other number is an ID too (a queue answers
/// it with `invalidParameter`), so a `switch` needs a `default:` and a parameter added later is
/// not a breaking change.
public struct AudioQueueParameterID: RawRepresentable, Hashable, Sendable, CaseIterable, CustomStringConvertible, QueueIDSet {
    /// Apple's number for the parameter.
    public var rawValue: UInt32
    /// The parameter numbered `rawValue`, known or not.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// `kAudioQueueParam_Volume`: linear gain, 0 (silence) … 1 (unity, the default).
    public static let volume = AudioQueueParameterID(rawValue: 1)
    /// `kAudioQueueParam_VolumeRampTime`: seconds over which later volume changes ramp (default 0).
    public static let volumeRampTime = AudioQueueParameterID(rawValue: 4)
    /// `kAudioQueueParam_Pan`: −1 (left) … 1 (right); balance for stereo, no effect on other
    /// channel counts (default 0).
    public static let pan = AudioQueueParameterID(rawValue: 13)
    /// `kAudioQueueParam_PlayRate`: 0.5 … 2 (default 1); plays only with time/pitch enabled
    /// (stored and read back otherwise).
    public static let playRate = AudioQueueParameterID(rawValue: 2)
    /// `kAudioQueueParam_Pitch`: −2400 … 2400 cents (default 0); the Spectral algorithm only.
    public static let pitch = AudioQueueParameterID(rawValue: 3)

    /// The parameters an output queue has.
    public static let allCases: [AudioQueueParameterID] = [.volume, .volumeRampTime, .pan, .playRate, .pitch]

    /// The parameter's name (`volume`), or its number when it has none here.
    public var description: String {
        switch self {
        case .volume: "volume"
        case .volumeRampTime: "volumeRampTime"
        case .pan: "pan"
        case .playRate: "playRate"
        case .pitch: "pitch"
        default: "\(rawValue)"
        }
    }

    static let refusal = (code: AudioQueueError.Code.invalidParameter, noun: "parameter")
}

/// A parameter value carried by an enqueued buffer, applied when the buffer begins to play
/// (Apple's `AudioQueueParameterEvent`).
public struct AudioQueueParameterEvent: Hashable, Sendable {
    /// Which parameter.
    public var parameter: AudioQueueParameterID
    /// Its new value.
    public var value: Float

    /// Sets `parameter` to `value`.
    public init(_ parameter: AudioQueueParameterID, _ value: Float) {
        self.parameter = parameter
        self.value = value
    }
}

/// A property of an audio queue, by Apple's ID (`AudioQueuePropertyID`), for
/// ``AudioQueue/getProperty(_:into:)``, ``AudioQueue/setProperty(_:from:)`` and property
/// listeners: the four-character code Apple gives it, with static members for the properties
/// the queues have.
///
/// An open set, as swift-system's `Errno` is: any other code is an ID too (a queue answers it
/// with `invalidProperty`), so a `switch` needs a `default:` and a property added later is not
/// a breaking change.
public struct AudioQueuePropertyID: RawRepresentable, Hashable, Sendable, CaseIterable, CustomStringConvertible, QueueIDSet {
    /// Apple's four-character code for the property.
    public var rawValue: UInt32
    /// The property whose code is `rawValue`, known or not.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// `kAudioQueueProperty_IsRunning` (`'aqrn'`, UInt32, read-only).
    public static let isRunning = AudioQueuePropertyID(rawValue: 0x6171_726E)
    /// `kAudioQueueDeviceProperty_SampleRate` (`'aqsr'`, Float64, read-only).
    public static let deviceSampleRate = AudioQueuePropertyID(rawValue: 0x6171_7372)
    /// `kAudioQueueDeviceProperty_NumberChannels` (`'aqdc'`, UInt32, read-only).
    public static let deviceNumberChannels = AudioQueuePropertyID(rawValue: 0x6171_6463)
    /// `kAudioQueueProperty_CurrentDevice` (`'aqcd'`, UTF-8 device UID).
    public static let currentDevice = AudioQueuePropertyID(rawValue: 0x6171_6364)
    /// `kAudioQueueProperty_MagicCookie` (`'aqmc'`, bytes).
    public static let magicCookie = AudioQueuePropertyID(rawValue: 0x6171_6D63)
    /// `kAudioQueueProperty_MaximumOutputPacketSize` (`'xops'`, UInt32, read-only).
    public static let maximumOutputPacketSize = AudioQueuePropertyID(rawValue: 0x786F_7073)
    /// `kAudioQueueProperty_StreamDescription` (`'aqft'`, AudioStreamBasicDescription, read-only).
    public static let streamDescription = AudioQueuePropertyID(rawValue: 0x6171_6674)
    /// `kAudioQueueProperty_ChannelLayout` (`'aqcl'`, AudioChannelLayout).
    public static let channelLayout = AudioQueuePropertyID(rawValue: 0x6171_636C)
    /// `kAudioQueueProperty_EnableLevelMetering` (`'aqme'`, UInt32 0/1).
    public static let enableLevelMetering = AudioQueuePropertyID(rawValue: 0x6171_6D65)
    /// `kAudioQueueProperty_CurrentLevelMeter` (`'aqmv'`, AudioQueueLevelMeterState per channel, read-only).
    public static let currentLevelMeter = AudioQueuePropertyID(rawValue: 0x6171_6D76)
    /// `kAudioQueueProperty_CurrentLevelMeterDB` (`'aqmd'`, AudioQueueLevelMeterState per channel, read-only).
    public static let currentLevelMeterDB = AudioQueuePropertyID(rawValue: 0x6171_6D64)
    /// `kAudioQueueProperty_DecodeBufferSizeFrames` (`'dcbf'`, UInt32).
    public static let decodeBufferSizeFrames = AudioQueuePropertyID(rawValue: 0x6463_6266)
    /// `kAudioQueueProperty_ConverterError` (`'qcve'`, UInt32 OSStatus, read-only).
    public static let converterError = AudioQueuePropertyID(rawValue: 0x7163_7665)
    /// `kAudioQueueProperty_EnableTimePitch` (`'q_tp'`, UInt32 0/1; set only while stopped).
    public static let enableTimePitch = AudioQueuePropertyID(rawValue: 0x715F_7470)
    /// `kAudioQueueProperty_TimePitchAlgorithm` (`'qtpa'`, UInt32 four-character code).
    public static let timePitchAlgorithm = AudioQueuePropertyID(rawValue: 0x7174_7061)
    /// `kAudioQueueProperty_TimePitchBypass` (`'qtpb'`, UInt32 0/1).
    public static let timePitchBypass = AudioQueuePropertyID(rawValue: 0x7174_7062)
    /// `kAudioQueueProperty_ChannelAssignments` (`'aqca'`, AudioQueueChannelAssignment per
    /// channel, write-only).
    public static let channelAssignments = AudioQueuePropertyID(rawValue: 0x6171_6361)

    /// The properties the queues have (an input queue answers `decodeBufferSizeFrames` and the
    /// time/pitch properties with `invalidProperty`).
    public static let allCases: [AudioQueuePropertyID] = [
        .isRunning, .deviceSampleRate, .deviceNumberChannels, .currentDevice, .magicCookie, .maximumOutputPacketSize,
        .streamDescription, .channelLayout, .enableLevelMetering, .currentLevelMeter, .currentLevelMeterDB,
        .decodeBufferSizeFrames, .converterError, .channelAssignments, .enableTimePitch, .timePitchAlgorithm, .timePitchBypass,
    ]

    /// The four-character code in quotes: `'aqrn'`.
    public var description: String { "'\(FourCharCode(rawValue: rawValue))'" }

    static let refusal = (code: AudioQueueError.Code.invalidProperty, noun: "property")
}

/// What the parameter and property IDs share: the queues have the IDs in `allCases`, and
/// answer any other with the set's `refusal`.
protocol QueueIDSet: CaseIterable, Equatable, CustomStringConvertible where AllCases == [Self] {
    init(rawValue: UInt32)
    /// Apple's code for an ID the queues do not have, and what the set's IDs name.
    static var refusal: (code: AudioQueueError.Code, noun: String) { get }
}

extension QueueIDSet {
    /// `id` when the queues have it; `refusal.code` when not.
    static func supported(_ id: UInt32) throws(AudioQueueError) -> Self {
        let value = Self(rawValue: id)
        guard allCases.contains(value) else { throw AudioQueueError(refusal.code, "no \(refusal.noun) \(value)") }
        return value
    }
}

/// Level of one channel (Apple's `AudioQueueLevelMeterState`): linear 0…1 or decibels.
public struct AudioQueueLevelMeterState: Hashable, Sendable {
    /// RMS power over the most recent render quantum.
    public var averagePower: Float
    /// Largest absolute sample over the most recent render quantum.
    public var peakPower: Float

    /// A meter reading.
    public init(averagePower: Float, peakPower: Float) {
        self.averagePower = averagePower
        self.peakPower = peakPower
    }

    /// The same reading in decibels (20·log10), floored at −120 dB for silence.
    public var decibels: AudioQueueLevelMeterState {
        AudioQueueLevelMeterState(averagePower: Self.dB(averagePower), peakPower: Self.dB(peakPower))
    }

    static func dB(_ x: Float) -> Float {
        x > 1e-6 ? max(20 * log10f(x), -120) : -120
    }
}
