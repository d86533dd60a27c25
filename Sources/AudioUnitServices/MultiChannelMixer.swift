import AudioCore
import Locking

extension AudioUnitParameterID {
    /// `kMultiChannelMixerParam_Volume` (0): linear gain 0…1, default 1; input scope per bus and
    /// output scope.
    public static let multiChannelMixerVolume = Self(rawValue: 0)
    /// `kMultiChannelMixerParam_Enable` (1): 0 or 1, default 1; input scope per bus and output scope.
    public static let multiChannelMixerEnable = Self(rawValue: 1)
    /// `kMultiChannelMixerParam_Pan` (2): -1 (left) … 1 (right), default 0; input scope per bus.
    public static let multiChannelMixerPan = Self(rawValue: 2)
    /// `kMultiChannelMixerParam_PreAveragePower` (1000; + n for channel n), dB, read-only.
    public static let multiChannelMixerPreAveragePower = Self(rawValue: 1000)
    /// `kMultiChannelMixerParam_PrePeakHoldLevel` (2000; + n for channel n), dB, read-only.
    public static let multiChannelMixerPrePeakHoldLevel = Self(rawValue: 2000)
    /// `kMultiChannelMixerParam_PostAveragePower` (3000; + n for channel n), dB, read-only.
    public static let multiChannelMixerPostAveragePower = Self(rawValue: 3000)
    /// `kMultiChannelMixerParam_PostPeakHoldLevel` (4000; + n for channel n), dB, read-only.
    public static let multiChannelMixerPostPeakHoldLevel = Self(rawValue: 4000)
}

/// What a parameter takes (the facts of Apple's `AudioUnitParameterInfo`): its range, default,
/// unit and whether it can be set.
public struct AudioUnitParameterRange: Hashable, Sendable {
    /// How the value reads (Apple's `AudioUnitParameterUnit`).
    public enum Unit: UInt32, Sendable {
        /// `kAudioUnitParameterUnit_Boolean`.
        case boolean = 2
        /// `kAudioUnitParameterUnit_LinearGain`.
        case linearGain = 5
        /// `kAudioUnitParameterUnit_Decibels`.
        case decibels = 13
        /// `kAudioUnitParameterUnit_Pan`.
        case pan = 16
    }
    /// The parameter's name.
    public var name: String
    /// `minValue`.
    public var minimum: Float
    /// `maxValue`.
    public var maximum: Float
    /// `defaultValue`.
    public var defaultValue: Float
    /// `unit`.
    public var unit: Unit
    /// Whether it can only be read (meters).
    public var isReadOnly: Bool

    /// A parameter's facts.
    public init(name: String, minimum: Float, maximum: Float, defaultValue: Float, unit: Unit, isReadOnly: Bool) {
        self.name = name
        self.minimum = minimum
        self.maximum = maximum
        self.defaultValue = defaultValue
        self.unit = unit
        self.isReadOnly = isReadOnly
    }
}

/// The multichannel mixer (`kAudioUnitType_Mixer`, `kAudioUnitSubType_MultiChannelMixer`): any
/// number of input buses (``AudioUnit/setElementCount(_:scope:)`` on the input scope, 8 unless
/// set, as Apple's), each pulled from its render callback or connected unit, scaled, panned and
/// summed into one output bus.
///
/// Formats: every bus is Float32 (interleaved or not) at the output's sample rate; an input has
/// 1 or 2 channels or as many as the output. `formatNotSupported` at ``AudioUnit/initialize()``
/// otherwise.
///
/// Parameters (Apple's IDs and ranges; a change takes effect at the next render):
/// - `kMultiChannelMixerParam_Volume` (input buses and the output), linear gain 0…1.
/// - `kMultiChannelMixerParam_Enable` (input buses and the output): a disabled input adds
///   nothing, a disabled output renders silence.
/// - `kMultiChannelMixerParam_Pan` (input buses), -1…1. Apple does not document its law; this
///   mixer uses a linear balance law for mono and stereo inputs alike: at 0 both sides are at
///   unity (a mono input plays on both output channels at its level, as Apple's converter plays
///   mono as dual mono), and the side opposite the pan falls linearly to 0 at ±1 (pan p: left
///   gain min(1, 1 − p), right gain min(1, 1 + p)). With a mono output there is no pan.
/// - Meters, read-only, in dB (20·log10, −120 for silence, as the audio queue's meters read),
///   while ``setMeteringMode(_:scope:element:)`` is on for that bus: `PreAveragePower` + n and
///   `PrePeakHoldLevel` + n read channel n's RMS and largest absolute sample over the most
///   recent render, before the bus's volume and pan (for the output: the mix before its volume);
///   `PostAveragePower` + n and `PostPeakHoldLevel` + n the same after them (for an input: its
///   contribution to output channel n).
///
/// Mixing: input channels map to output channels as follows — mono to output channels 0 and 1
/// (all of a mono output); stereo to 0 and 1, or to a mono output as (L + R) / 2; an input with
/// the output's channel count channel for channel (pan then balances channels 0 and 1). An input
/// without a source, or disabled, adds nothing; an input whose source fails fails the render.
///
/// Memory for every input and the mix is allocated at initialization; a render allocates nothing.
public final class MultiChannelMixer: AudioUnit, @unchecked Sendable {
    struct Control {
        var volume: Float = 1
        var enabled = true
        var pan: Float = 0
        var metering = false
    }

    struct Controls {
        var inputs: [Control]
        var output = Control()
    }

    let controls = Guarded(Controls(inputs: Array(repeating: Control(), count: 8)))
    let mix = Guarded<MixerRender?>(nil)

    init(component: AudioComponent) {
        super.init(component: component, inputs: 8, outputs: 1, format: Self.canonicalFormat(sampleRate: 44_100, channels: 2))
    }

    override func elementCountIsWritable(_ scope: AudioUnitScope) -> Bool { scope == .input }

    // MARK: Formats

    override func validate(_ format: AudioStreamBasicDescription, scope: AudioUnitScope, element: UInt32) throws(AudioUnitError) {
        guard format.isFloat, format.bitsPerChannel == 32, !format.formatFlags.contains(.isBigEndian) else {
            throw AudioUnitError(.formatNotSupported, "the mixer's buses are native Float32: \(format)")
        }
    }

    override func formatChangedWhileInitialized(scope: AudioUnitScope, element: UInt32) throws(AudioUnitError) {
        try prepare()
    }

    override func prepare() throws(AudioUnitError) {
        let (inputs, output, maximum) = configuration.withLock { ($0.inputs.map(\.format), $0.outputs[0].format, $0.maximumFramesPerSlice) }
        for (i, format) in inputs.enumerated() {
            guard format.sampleRate == output.sampleRate else {
                throw AudioUnitError(.formatNotSupported, "input \(i) is at \(format.sampleRate) Hz, the output at \(output.sampleRate) Hz")
            }
            let c = format.channelsPerFrame
            guard c == 1 || c == 2 || c == output.channelsPerFrame else {
                throw AudioUnitError(.formatNotSupported, "input \(i) has \(c) channels for an output of \(output.channelsPerFrame)")
            }
        }
        let made = MixerRender(inputs: inputs, output: output, capacity: maximum)
        controls.withLock { c in
            if c.inputs.count < inputs.count { c.inputs += Array(repeating: Control(), count: inputs.count - c.inputs.count) }
        }
        mix.withLock { $0 = made }
    }

    override func release() {
        mix.withLock { $0 = nil }
    }

    override func clearRenderState() {
        mix.withLock { $0 }?.clearMeters()
    }

    // MARK: Metering

    /// Whether the meters of `element` in `scope` measure (`kAudioUnitProperty_MeteringMode`);
    /// off unless set.
    public func meteringMode(scope: AudioUnitScope, element: UInt32 = 0) throws(AudioUnitError) -> Bool {
        try checkScope(scope, element: element)
        return controls.withLock { c in scope == .output ? c.output.metering : Int(element) < c.inputs.count && c.inputs[Int(element)].metering }
    }

    /// Turns the meters of `element` in `scope` on or off; off, they read −120 dB.
    public func setMeteringMode(_ on: Bool, scope: AudioUnitScope, element: UInt32 = 0) throws(AudioUnitError) {
        try checkScope(scope, element: element)
        update(scope, element) { $0.metering = on }
        if !on { mix.withLock { $0 }?.clearMeters(scope: scope, element: Int(element)) }
        changed(.meteringMode, scope: scope, element: element)
    }

    private func update(_ scope: AudioUnitScope, _ element: UInt32, _ change: (inout Control) -> Void) {
        controls.withLock { c in
            if scope == .output {
                change(&c.output)
                return
            }
            let i = Int(element)
            if c.inputs.count <= i { c.inputs += Array(repeating: Control(), count: i + 1 - c.inputs.count) }
            change(&c.inputs[i])
        }
    }

    // MARK: Parameters

    /// The parameters of `scope`: volume, enable and pan, and the four meters, on the input
    /// scope; volume, enable and the meters on the output scope.
    public override func parameterList(scope: AudioUnitScope) -> [AudioUnitParameterID] {
        let meters: [AudioUnitParameterID] = [
            .multiChannelMixerPreAveragePower, .multiChannelMixerPrePeakHoldLevel, .multiChannelMixerPostAveragePower,
            .multiChannelMixerPostPeakHoldLevel,
        ]
        switch scope {
        case .input: return [.multiChannelMixerVolume, .multiChannelMixerEnable, .multiChannelMixerPan] + meters
        case .output: return [.multiChannelMixerVolume, .multiChannelMixerEnable] + meters
        default: return []
        }
    }

    /// What parameter `id` takes in `scope` (`kAudioUnitProperty_ParameterInfo`); nil when the
    /// scope has no such parameter. A meter's ID + n (channel n) answers as its ID.
    public func parameterRange(_ id: AudioUnitParameterID, scope: AudioUnitScope) -> AudioUnitParameterRange? {
        guard scope == .input || scope == .output else { return nil }
        switch id.rawValue {
        case 0: return AudioUnitParameterRange(name: "Volume", minimum: 0, maximum: 1, defaultValue: 1, unit: .linearGain, isReadOnly: false)
        case 1: return AudioUnitParameterRange(name: "Enable", minimum: 0, maximum: 1, defaultValue: 1, unit: .boolean, isReadOnly: false)
        case 2 where scope == .input:
            return AudioUnitParameterRange(name: "Pan", minimum: -1, maximum: 1, defaultValue: 0, unit: .pan, isReadOnly: false)
        case 1000..<1064: return meterRange("Pre Average Power")
        case 2000..<2064: return meterRange("Pre Peak Hold Level")
        case 3000..<3064: return meterRange("Post Average Power")
        case 4000..<4064: return meterRange("Post Peak Hold Level")
        default: return nil
        }
    }

    private func meterRange(_ name: String) -> AudioUnitParameterRange {
        AudioUnitParameterRange(name: name, minimum: -120, maximum: 20, defaultValue: -120, unit: .decibels, isReadOnly: true)
    }

    /// Volume, enable or pan of `element` in `scope`, or a meter reading in dB.
    public override func parameter(_ id: AudioUnitParameterID, scope: AudioUnitScope, element: UInt32 = 0) throws(AudioUnitError) -> Float {
        guard parameterRange(id, scope: scope) != nil else { return try super.parameter(id, scope: scope, element: element) }
        try checkScope(scope, element: element)
        if id.rawValue >= 1000 {
            let kind = Int(id.rawValue / 1000) - 1, channel = Int(id.rawValue % 1000)
            guard let render = mix.withLock({ $0 }) else { return -120 }
            return render.meter(scope: scope, element: Int(element), kind: kind, channel: channel)
        }
        let control = controls.withLock { c in
            scope == .output ? c.output : (Int(element) < c.inputs.count ? c.inputs[Int(element)] : Control())
        }
        switch id.rawValue {
        case 0: return control.volume
        case 1: return control.enabled ? 1 : 0
        default: return control.pan
        }
    }

    /// Sets volume (clamped to 0…1), enable (0 or not) or pan (clamped to -1…1) of `element` in
    /// `scope`; from any thread, taking effect at the next render. Meters are read-only
    /// (`invalidParameter`); a value that is not finite is `invalidPropertyValue`.
    public override func setParameter(_ id: AudioUnitParameterID, scope: AudioUnitScope, element: UInt32 = 0, to value: Float) throws(AudioUnitError) {
        guard let range = parameterRange(id, scope: scope), !range.isReadOnly else {
            return try super.setParameter(id, scope: scope, element: element, to: value)
        }
        try checkScope(scope, element: element)
        guard value.isFinite else { throw AudioUnitError(.invalidPropertyValue, "parameter \(id.rawValue) = \(value)") }
        let clamped = min(max(value, range.minimum), range.maximum)
        update(scope, element) { c in
            switch id.rawValue {
            case 0: c.volume = clamped
            case 1: c.enabled = value != 0
            default: c.pan = clamped
            }
        }
    }

    // MARK: Rendering

    override func renderBus(
        flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>, time: AudioTimeStampPointer, bus: UInt32, frames: UInt32,
        data: AudioBufferListPointer
    ) -> OSStatus {
        guard bus == 0 else { return AudioUnitError.Code.invalidElement.rawValue }
        guard let render = mix.withLock({ $0 }) else { return AudioUnitError.Code.uninitialized.rawValue }
        let settings = controls.withLock { $0 }
        return render.render(self, settings: settings, time: time, frames: Int(frames), data: data)
    }
}

extension AudioComponentDescription {
    /// The multichannel mixer (`kAudioUnitType_Mixer`, `kAudioUnitSubType_MultiChannelMixer`, `'mcmx'`).
    public static let multiChannelMixer = AudioComponentDescription(type: mixerType, subType: "mcmx", manufacturer: apple)
}
