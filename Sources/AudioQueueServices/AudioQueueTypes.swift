import AudioCore
#if canImport(Glibc)
import Glibc
#endif

/// A playback parameter (Apple's `AudioQueueParameterID`).
public enum AudioQueueParameterID: UInt32, Sendable, CaseIterable {
    /// `kAudioQueueParam_Volume`: linear gain, 0 (silence) … 1 (unity, the default).
    case volume = 1
    /// `kAudioQueueParam_VolumeRampTime`: seconds over which later volume changes ramp (default 0).
    case volumeRampTime = 4
    /// `kAudioQueueParam_Pan`: −1 (left) … 1 (right); balance for stereo, no effect on other
    /// channel counts (default 0).
    case pan = 13
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

/// A property of an audio queue, by Apple's ID, for ``AudioQueue/getProperty(_:into:)`` and
/// ``AudioQueue/setProperty(_:from:)``.
public enum AudioQueuePropertyID: UInt32, Sendable, CaseIterable {
    /// `kAudioQueueProperty_IsRunning` (`'aqrn'`, UInt32, read-only).
    case isRunning = 0x6171_726E
    /// `kAudioQueueDeviceProperty_SampleRate` (`'aqsr'`, Float64, read-only).
    case deviceSampleRate = 0x6171_7372
    /// `kAudioQueueDeviceProperty_NumberChannels` (`'aqdc'`, UInt32, read-only).
    case deviceNumberChannels = 0x6171_6463
    /// `kAudioQueueProperty_CurrentDevice` (`'aqcd'`, UTF-8 device UID).
    case currentDevice = 0x6171_6364
    /// `kAudioQueueProperty_MagicCookie` (`'aqmc'`, bytes).
    case magicCookie = 0x6171_6D63
    /// `kAudioQueueProperty_MaximumOutputPacketSize` (`'xops'`, UInt32, read-only).
    case maximumOutputPacketSize = 0x786F_7073
    /// `kAudioQueueProperty_StreamDescription` (`'aqft'`, AudioStreamBasicDescription, read-only).
    case streamDescription = 0x6171_6674
    /// `kAudioQueueProperty_ChannelLayout` (`'aqcl'`, AudioChannelLayout).
    case channelLayout = 0x6171_636C
    /// `kAudioQueueProperty_EnableLevelMetering` (`'aqme'`, UInt32 0/1).
    case enableLevelMetering = 0x6171_6D65
    /// `kAudioQueueProperty_CurrentLevelMeter` (`'aqmv'`, AudioQueueLevelMeterState per channel, read-only).
    case currentLevelMeter = 0x6171_6D76
    /// `kAudioQueueProperty_CurrentLevelMeterDB` (`'aqmd'`, AudioQueueLevelMeterState per channel, read-only).
    case currentLevelMeterDB = 0x6171_6D64
    /// `kAudioQueueProperty_DecodeBufferSizeFrames` (`'dcbf'`, UInt32).
    case decodeBufferSizeFrames = 0x6463_6266
    /// `kAudioQueueProperty_ConverterError` (`'qcve'`, UInt32 OSStatus, read-only).
    case converterError = 0x7163_7665
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
