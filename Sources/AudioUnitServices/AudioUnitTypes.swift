/// Where on a unit a property, parameter or format applies (`AudioUnitScope`).
public struct AudioUnitScope: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The value of Apple's `kAudioUnitScope_…` constant.
    public var rawValue: UInt32
    /// The scope whose value is `rawValue`.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// The unit as a whole (`kAudioUnitScope_Global`).
    public static let global = AudioUnitScope(rawValue: 0)
    /// Its inputs, one element per bus (`kAudioUnitScope_Input`).
    public static let input = AudioUnitScope(rawValue: 1)
    /// Its outputs, one element per bus (`kAudioUnitScope_Output`).
    public static let output = AudioUnitScope(rawValue: 2)

    /// "global", "input", "output" or the number.
    public var description: String {
        switch self {
        case .global: "global"
        case .input: "input"
        case .output: "output"
        default: "scope \(rawValue)"
        }
    }
}

/// What a render call is, and what it says of its output (`AudioUnitRenderActionFlags`).
public struct AudioUnitRenderActionFlags: OptionSet, Hashable, Sendable {
    /// The flags' bits, as Apple's `kAudioUnitRenderAction_…` constants.
    public var rawValue: UInt32
    /// Flags with these bits.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// A render notification called before the unit renders.
    public static let preRender = AudioUnitRenderActionFlags(rawValue: 1 << 2)
    /// A render notification called after the unit rendered.
    public static let postRender = AudioUnitRenderActionFlags(rawValue: 1 << 3)
    /// The buffers hold silence: whoever renders may skip reading them.
    public static let outputIsSilence = AudioUnitRenderActionFlags(rawValue: 1 << 4)
    /// An offline unit's preflight pass.
    public static let preflight = AudioUnitRenderActionFlags(rawValue: 1 << 5)
    /// An offline unit's render pass.
    public static let render = AudioUnitRenderActionFlags(rawValue: 1 << 6)
    /// An offline unit's last render.
    public static let complete = AudioUnitRenderActionFlags(rawValue: 1 << 7)
    /// A post-render notification after a render that failed.
    public static let postRenderError = AudioUnitRenderActionFlags(rawValue: 1 << 8)
    /// The renderer may skip checking its arguments.
    public static let doNotCheckRenderArgs = AudioUnitRenderActionFlags(rawValue: 1 << 9)
}

/// A unit's property (`AudioUnitPropertyID`): the properties this library's units answer, by
/// Apple's numbers.
public struct AudioUnitPropertyID: RawRepresentable, Hashable, Sendable {
    /// The value of Apple's constant.
    public var rawValue: UInt32
    /// The property whose ID is `rawValue`.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// `kAudioUnitProperty_MakeConnection`.
    public static let makeConnection = Self(rawValue: 1)
    /// `kAudioUnitProperty_SampleRate`.
    public static let sampleRate = Self(rawValue: 2)
    /// `kAudioUnitProperty_ParameterList`.
    public static let parameterList = Self(rawValue: 3)
    /// `kAudioUnitProperty_ParameterInfo`.
    public static let parameterInfo = Self(rawValue: 4)
    /// `kAudioUnitProperty_StreamFormat`.
    public static let streamFormat = Self(rawValue: 8)
    /// `kAudioUnitProperty_ElementCount`.
    public static let elementCount = Self(rawValue: 11)
    /// `kAudioUnitProperty_Latency`.
    public static let latency = Self(rawValue: 12)
    /// `kAudioUnitProperty_SupportedNumChannels`.
    public static let supportedNumChannels = Self(rawValue: 13)
    /// `kAudioUnitProperty_MaximumFramesPerSlice`.
    public static let maximumFramesPerSlice = Self(rawValue: 14)
    /// `kAudioUnitProperty_AudioChannelLayout`.
    public static let audioChannelLayout = Self(rawValue: 19)
    /// `kAudioUnitProperty_TailTime`.
    public static let tailTime = Self(rawValue: 20)
    /// `kAudioUnitProperty_BypassEffect`.
    public static let bypassEffect = Self(rawValue: 21)
    /// `kAudioUnitProperty_LastRenderError`.
    public static let lastRenderError = Self(rawValue: 22)
    /// `kAudioUnitProperty_SetRenderCallback`.
    public static let setRenderCallback = Self(rawValue: 23)
    /// `kAudioUnitProperty_RenderQuality`.
    public static let renderQuality = Self(rawValue: 26)
    /// `kAudioUnitProperty_ElementName`.
    public static let elementName = Self(rawValue: 30)
    /// `kAudioUnitProperty_SupportedChannelLayoutTags`.
    public static let supportedChannelLayoutTags = Self(rawValue: 32)
    /// `kAudioUnitProperty_ShouldAllocateBuffer`.
    public static let shouldAllocateBuffer = Self(rawValue: 51)
    /// `kAudioOutputUnitProperty_CurrentDevice`.
    public static let currentDevice = Self(rawValue: 2000)
    /// `kAudioOutputUnitProperty_IsRunning`.
    public static let isRunning = Self(rawValue: 2001)
    /// `kAudioOutputUnitProperty_ChannelMap`.
    public static let channelMap = Self(rawValue: 2002)
    /// `kAudioOutputUnitProperty_EnableIO`.
    public static let enableIO = Self(rawValue: 2003)
    /// `kAudioOutputUnitProperty_StartTime`.
    public static let startTime = Self(rawValue: 2004)
    /// `kAudioOutputUnitProperty_SetInputCallback`.
    public static let setInputCallback = Self(rawValue: 2005)
    /// `kAudioOutputUnitProperty_HasIO`.
    public static let hasIO = Self(rawValue: 2006)
    /// `kAudioOutputUnitProperty_StartTimestampsAtZero`.
    public static let startTimestampsAtZero = Self(rawValue: 2007)
    /// `kAudioDevicePropertyBufferFrameSize` (`'fsiz'`), which an output unit answers for its
    /// device.
    public static let bufferFrameSize = Self(rawValue: 0x6673_697A)
    /// `kAudioUnitProperty_MeteringMode` (mixers).
    public static let meteringMode = Self(rawValue: 3007)
}

/// A unit's parameter (`AudioUnitParameterID`).
public struct AudioUnitParameterID: RawRepresentable, Hashable, Sendable {
    /// The value of Apple's constant.
    public var rawValue: UInt32
    /// The parameter whose ID is `rawValue`.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// An output unit's volume, 0…1 (`kHALOutputParam_Volume`, global scope).
    public static let outputVolume = Self(rawValue: 14)
}
