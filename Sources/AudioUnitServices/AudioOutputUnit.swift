import AudioCore
import AudioDevices
import Dispatch
import Locking
import Synchronization

/// An output unit: the default output (`kAudioUnitSubType_DefaultOutput`), the system output
/// (`_SystemOutput`), AUHAL (`_HALOutput`), which plays and records through any device, or the
/// generic output (`_GenericOutput`), which has no device and renders when the program asks.
///
/// Element 0 is the output: the program's audio enters at its input scope in any linear PCM
/// format (set with ``AudioUnit/setStreamFormat(_:scope:element:)``), from a render callback or a
/// connected unit, and its output scope reports the device's format. Element 1 is the input
/// (AUHAL with ``setIOEnabled(_:scope:element:)`` on input scope element 1): the device's format at
/// its input scope, the program's at its output scope, delivered through the input callback and
/// fetched with ``AudioUnit/render(flags:time:bus:frames:data:)`` on bus 1.
///
/// The device is opened at the program's sample rate and channel count on ``start()`` (the sound
/// server or ALSA's plug layer converts to the hardware) and pulls ``bufferFrameSize`` frames at
/// a time on its real-time I/O thread, where the render callback runs with time stamps on the
/// device's clock: sample times count frames from the start, host times say when each first
/// frame will be heard (output) or was recorded (input).
public final class AudioOutputUnit: AudioUnit, @unchecked Sendable {
    /// Which output unit.
    public enum Kind: Sendable {
        /// The default output device.
        case defaultOutput
        /// The system (alert) output device: the default output here.
        case systemOutput
        /// AUHAL: the device ``currentDevice`` names, output and input.
        case hal
        /// No device: rendered by the program.
        case generic
    }

    /// Which output unit this is.
    public let kind: Kind

    struct IOSettings {
        var device: String?
        var outputEnabled = true
        var inputEnabled = false
        var bufferFrameSize = 512
        var outputChannelMap: [Int32]?
        var inputChannelMap: [Int32]?
        var inputCallback: AudioUnitRenderCallback?
        var startTimestampsAtZero = true
    }

    let io = Guarded(IOSettings())
    /// The running devices; changed only under this lock (rank transitions).
    let transitions = Guarded<OutputUnitRun?>(nil, rank: .transitions)
    let running = Atomic<Bool>(false)
    let volumeBits = Atomic<UInt32>(Float(1).bitPattern)
    /// Times the unit followed the default since the program started it.
    let follows = Atomic<Int>(0)
    /// The run now rendering, for a stop asked from its own render thread and for latency.
    let current = Guarded<OutputUnitRun?>(nil)
    /// The generic output's conversion from its input format to its output format, made when
    /// it is initialized.
    let generic = Guarded<GenericRender?>(nil)

    init(component: AudioComponent, kind: Kind) {
        self.kind = kind
        let elements = kind == .generic ? 1 : 2
        // 44.1 kHz stereo, as every Apple unit starts (the generic output keeps it; the others
        // take their devices' formats below).
        super.init(component: component, inputs: elements, outputs: elements, format: Self.canonicalFormat(sampleRate: 44_100, channels: 2))
        if kind != .generic {
            // The backends are asked with no lock of the unit's held (they take their own).
            let device = Self.deviceFormat(for: .output, uid: nil)
            let input = Self.deviceFormat(for: .input, uid: nil)
            configuration.withLock { c in
                c.inputs[0].format = device
                c.outputs[0].format = device
                c.inputs[1].format = input
                c.outputs[1].format = input
            }
        }
    }

    /// The canonical format at the rate and channels the device's listing gives (48 kHz stereo
    /// when it gives none).
    static func deviceFormat(for direction: AudioDeviceDirection, uid: String?) -> AudioStreamBasicDescription {
        let info = uid.flatMap { AudioOutputUnit.listing(direction, uid: $0) } ?? AudioBackends.defaultDevice(direction)
        return canonicalFormat(sampleRate: info?.sampleRate ?? 48_000, channels: info?.channels ?? 2)
    }

    static func listing(_ direction: AudioDeviceDirection, uid: String) -> AudioDeviceInfo? {
        let name = uid.split(separator: ":", maxSplits: 1)
        guard let backend = AudioBackends.backend(named: String(name[0])), let devices = try? backend.devices() else { return nil }
        return devices.first { $0.uid == uid && $0.direction == direction }
    }

    // MARK: Device and I/O

    /// The UID of the device the unit plays to and records from (`kAudioOutputUnitProperty_CurrentDevice`);
    /// nil: the default devices.
    public var currentDevice: String? { io.withLock { $0.device } }

    /// Chooses the device (nil: the default); not while the unit runs.
    public func setCurrentDevice(_ uid: String?) throws(AudioUnitError) {
        guard kind != .generic else { throw AudioUnitError(.invalidProperty, "the generic output unit has no device") }
        guard !isRunning else { throw AudioUnitError(.cannotDoInCurrentContext, "the device is chosen while the unit is stopped") }
        io.withLock { $0.device = uid }
        let output = Self.deviceFormat(for: .output, uid: uid)
        let input = Self.deviceFormat(for: .input, uid: uid)
        configuration.withLock { c in
            c.outputs[0].format = output
            c.inputs[1].format = input
        }
        changed(.currentDevice, scope: .global, element: 0)
        changed(.streamFormat, scope: .output, element: 0)
        changed(.streamFormat, scope: .input, element: 1)
    }

    /// Whether I/O is enabled on an element (`kAudioOutputUnitProperty_EnableIO`): output on
    /// output scope element 0 (on unless disabled), input on input scope element 1 (off unless
    /// enabled).
    public func isIOEnabled(scope: AudioUnitScope, element: UInt32) throws(AudioUnitError) -> Bool {
        guard kind != .generic else { throw AudioUnitError(.invalidProperty, "the generic output unit has no I/O") }
        switch (scope, element) {
        case (.output, 0): return io.withLock { $0.outputEnabled }
        case (.input, 1): return io.withLock { $0.inputEnabled }
        default: throw AudioUnitError(.invalidElement, "I/O is enabled on output scope element 0 and input scope element 1")
        }
    }

    /// Enables or disables I/O on an element; only AUHAL records, and only while uninitialized.
    public func setIOEnabled(_ enabled: Bool, scope: AudioUnitScope, element: UInt32) throws(AudioUnitError) {
        _ = try isIOEnabled(scope: scope, element: element)
        guard !isInitialized else { throw AudioUnitError(.initialized, "I/O is enabled before the unit is initialized") }
        if scope == .input, enabled, kind != .hal {
            throw AudioUnitError(.invalidPropertyValue, "only AUHAL (kAudioUnitSubType_HALOutput) records")
        }
        io.withLock { s in
            if scope == .output { s.outputEnabled = enabled } else { s.inputEnabled = enabled }
        }
        changed(.enableIO, scope: scope, element: element)
    }

    /// Whether element 0 (output) or 1 (input) has I/O on this unit (`kAudioOutputUnitProperty_HasIO`).
    public func hasIO(scope: AudioUnitScope, element: UInt32) throws(AudioUnitError) -> Bool {
        guard kind != .generic else { return false }
        switch element {
        case 0: return true
        case 1: return kind == .hal
        default: throw AudioUnitError(.invalidElement, "output units have elements 0 and 1")
        }
    }

    /// Frames of each I/O cycle (`kAudioDevicePropertyBufferFrameSize` through the unit): 512
    /// unless set; 16…8192.
    public var bufferFrameSize: Int { io.withLock { $0.bufferFrameSize } }

    /// Sets ``bufferFrameSize``; a running unit keeps its cycle until it is started again.
    public func setBufferFrameSize(_ frames: Int) throws(AudioUnitError) {
        guard frames >= 16, frames <= 8192 else { throw AudioUnitError(.invalidPropertyValue, "\(frames) frames per I/O cycle (16…8192)") }
        io.withLock { $0.bufferFrameSize = frames }
        changed(.bufferFrameSize, scope: .global, element: 0)
    }

    /// The channel map of an element (`kAudioOutputUnitProperty_ChannelMap`): for the output
    /// (element 0), one entry per device channel giving the program's channel it plays (-1:
    /// silence); for the input (element 1), one entry per program channel giving the device
    /// channel it records. nil: channel n to channel n.
    public func channelMap(element: UInt32) throws(AudioUnitError) -> [Int32]? {
        guard kind != .generic, element < 2 else { throw AudioUnitError(.invalidElement, "channel maps are on elements 0 and 1") }
        return io.withLock { element == 0 ? $0.outputChannelMap : $0.inputChannelMap }
    }

    /// Sets the channel map of an element; `invalidPropertyValue` for an empty map or one with
    /// entries below -1 or above 63.
    public func setChannelMap(_ map: [Int32]?, element: UInt32) throws(AudioUnitError) {
        _ = try channelMap(element: element)
        if let map {
            guard !map.isEmpty, map.count <= 64, map.allSatisfy({ $0 >= -1 && $0 < 64 }) else {
                throw AudioUnitError(.invalidPropertyValue, "a channel map holds 1 to 64 entries of -1…63")
            }
        }
        io.withLock { s in
            if element == 0 { s.outputChannelMap = map } else { s.inputChannelMap = map }
        }
        changed(.channelMap, scope: element == 0 ? .output : .input, element: element)
    }

    /// Called when the input has recorded a cycle (`kAudioOutputUnitProperty_SetInputCallback`):
    /// the callback renders bus 1 to take the frames. Its `data` is nil.
    public func setInputCallback(_ callback: AudioUnitRenderCallback?) throws(AudioUnitError) {
        guard kind == .hal else { throw AudioUnitError(.invalidProperty, "only AUHAL has an input callback") }
        io.withLock { $0.inputCallback = callback }
        changed(.setInputCallback, scope: .global, element: 0)
    }

    /// `kAudioOutputUnitProperty_StartTimestampsAtZero`: whether sample times count from 0 at
    /// each start (true unless set); stored and reported, times always start at 0 here.
    public var startTimestampsAtZero: Bool {
        get { io.withLock { $0.startTimestampsAtZero } }
        set { io.withLock { $0.startTimestampsAtZero = newValue } }
    }

    /// Seconds between a rendered frame and its being heard, while the unit runs (the device's
    /// buffer); 0 when stopped.
    public override var latency: Double {
        // Under the transitions lock, which a stop holds while it closes the devices; tried, not
        // waited for, so that a render callback asking never waits for a stop (0 meanwhile).
        transitions.tryWithLock { $0?.latency ?? 0 } ?? 0
    }

    // MARK: Formats

    override func formatChangedWhileInitialized(scope: AudioUnitScope, element: UInt32) throws(AudioUnitError) {
        if kind == .generic { return try prepare() }
        guard isRunning, (scope == .input && element == 0) || (scope == .output && element == 1) else { return }
        // The device opened for the old format: open it again for the new one.
        stop()
        try start()
    }

    // MARK: Parameters

    public override func parameterList(scope: AudioUnitScope) -> [AudioUnitParameterID] {
        scope == .global && kind != .generic ? [.outputVolume] : []
    }

    public override func parameter(_ id: AudioUnitParameterID, scope: AudioUnitScope, element: UInt32 = 0) throws(AudioUnitError) -> Float {
        guard id == .outputVolume, kind != .generic, scope == .global || scope == .output else {
            return try super.parameter(id, scope: scope, element: element)
        }
        return Float(bitPattern: volumeBits.load(ordering: .relaxed))
    }

    public override func setParameter(_ id: AudioUnitParameterID, scope: AudioUnitScope, element: UInt32 = 0, to value: Float) throws(AudioUnitError) {
        guard id == .outputVolume, kind != .generic, scope == .global || scope == .output else {
            return try super.setParameter(id, scope: scope, element: element, to: value)
        }
        guard value.isFinite else { throw AudioUnitError(.invalidParameter, "volume \(value)") }
        volumeBits.store(min(max(value, 0), 1).bitPattern, ordering: .relaxed)
    }

    // MARK: Start and stop

    /// Whether the unit runs (`kAudioOutputUnitProperty_IsRunning`).
    public var isRunning: Bool { running.load(ordering: .acquiring) }

    /// Opens the device (output, and input where enabled) and starts its I/O cycles
    /// (`AudioOutputUnitStart`); starting a running unit does nothing. `uninitialized` before
    /// ``AudioUnit/initialize()``; the device's error when it does not open.
    public func start() throws(AudioUnitError) {
        follows.store(0, ordering: .relaxed)
        try start(on: nil)
    }

    /// Starts on the backend `backend`'s default output when given (following the default
    /// after the device was lost), else on the device the unit names.
    func start(on backend: String?) throws(AudioUnitError) {
        guard kind != .generic else { return }
        guard isInitialized else { throw AudioUnitError(.uninitialized, "AudioOutputUnitStart before AudioUnitInitialize") }
        let (started, ended) = try transitions.withLock { run throws(AudioUnitError) -> (Bool, Bool) in
            var ended = false
            if let r = run, r.isEnding {
                // Stopped from inside its callback and not yet closed: closed now.
                r.stop()
                current.withLock { if $0 === r { $0 = nil } }
                run = nil
                ended = true
            }
            guard run == nil else { return (false, ended) }
            let made = try OutputUnitRun(unit: self)
            run = made
            current.withLock { $0 = made }
            running.store(true, ordering: .releasing)
            do throws(AudioUnitError) {
                try made.start(defaultOf: backend)
            } catch {
                running.store(false, ordering: .releasing)
                current.withLock { $0 = nil }
                run = nil
                throw error
            }
            return (true, ended)
        }
        if ended { changed(.isRunning, scope: .global, element: 0) }
        if started { changed(.isRunning, scope: .global, element: 0) }
    }

    /// Stops the I/O cycles (`AudioOutputUnitStop`): no callback is called after it returns, and
    /// what was rendered plays out. Called from the unit's own render or input callback, it
    /// ends the cycles there and the device closes once it has played out. Stopping a stopped
    /// unit does nothing.
    public func stop() {
        if let run = current.withLock({ $0 }), run.isCallingThread {
            // Inside a callback: the cycles end when it returns. The devices are stopped on
            // another thread, as a stop waits for the cycles to end, which cannot happen here
            // (and another thread's stop may be waiting for this cycle meanwhile).
            run.endCycles()
            running.store(false, ordering: .releasing)
            DispatchQueue.global().async { [self] in stop(only: run) }
            return
        }
        stop(only: nil)
    }

    /// Stops the run `only` (nil: whichever runs) and closes its devices; tells the IsRunning
    /// listeners.
    private func stop(only: OutputUnitRun?) {
        let ended: Bool = transitions.withLock { run in
            guard let r = run, only == nil || r === only else { return false }
            run = nil
            running.store(false, ordering: .releasing)
            r.stop()
            current.withLock { if $0 === r { $0 = nil } }
            return true
        }
        if ended { changed(.isRunning, scope: .global, element: 0) }
    }

    /// The device failed while running: the unit stops and says so. The default and system
    /// output units then follow the default: they start again on the same backend's default
    /// output, as a Mac's follow the default device (sample times start again at 0).
    func deviceFailed(_ run: OutputUnitRun, backend: String?) {
        DispatchQueue.global().async { [self] in
            let isCurrent = transitions.withLock { $0 === run }
            guard isCurrent else { return }
            stop()
            // A device that keeps failing is followed a few times, not for ever.
            let followed = follows.add(1, ordering: .relaxed).newValue
            if kind == .defaultOutput || kind == .systemOutput, currentDevice == nil, let backend, followed <= 3 {
                try? start(on: backend)
            }
        }
    }

    override func prepare() throws(AudioUnitError) {
        guard kind == .generic else { return }
        let (input, output, maximum) = configuration.withLock { ($0.inputs[0].format, $0.outputs[0].format, $0.maximumFramesPerSlice) }
        let made = try GenericRender(input: input, output: output, capacity: maximum)
        generic.withLock { $0 = made }
    }

    override func release() {
        stop()
        generic.withLock { $0 = nil }
    }

    // MARK: Rendering

    override func renderBus(
        flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>, time: AudioTimeStampPointer, bus: UInt32, frames: UInt32,
        data: AudioBufferListPointer
    ) -> OSStatus {
        switch bus {
        case 0 where kind == .generic: return renderGeneric(flags: flags, time: time, frames: frames, data: data)
        case 0: return pullInput(bus: 0, flags: flags, time: time, frames: frames, into: data)
        case 1 where kind == .hal:
            guard let run = current.withLock({ $0 }) else { return AudioUnitError.Code.cannotDoInCurrentContext.rawValue }
            return run.fetchInput(frames: Int(frames), into: data)
        default: return AudioUnitError.Code.invalidElement.rawValue
        }
    }
}
