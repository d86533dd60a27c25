public import AudioCore
import AudioCodecs
import Locking

/// What a unit calls for its input on a bus, what an output unit calls when it has captured
/// audio, and what a render notification is (Apple's `AURenderCallback`).
///
/// `data` is nil for an output unit's input callback (the program calls
/// ``AudioUnit/render(flags:time:bus:frames:data:)`` on bus 1 to fetch the frames); otherwise the
/// callback fills it with `frames` frames of the bus's stream format. It runs on a real-time
/// thread of the library's: it must not wait for locks other threads hold for long, allocate or
/// block. Returns `noErr` (0) or an `OSStatus` that the render passes on.
public typealias AudioUnitRenderCallback = @Sendable (
    _ flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>, _ time: AudioTimeStampPointer, _ bus: UInt32, _ frames: UInt32,
    _ data: AudioBufferListPointer?
) -> OSStatus

/// Called after a unit's property changed (Apple's `AudioUnitPropertyListenerProc`): the unit, the
/// property, and the scope and element it changed in.
public typealias AudioUnitPropertyListener = @Sendable (_ unit: AudioUnit, _ property: AudioUnitPropertyID, _ scope: AudioUnitScope, _ element: UInt32) -> Void

/// Where a unit's input bus gets its audio.
public enum AudioUnitInputSource: Sendable {
    /// Nowhere: a render of the bus fails with `noConnection` (an output unit plays silence).
    case none
    /// A callback (`kAudioUnitProperty_SetRenderCallback`).
    case callback(AudioUnitRenderCallback)
    /// Another unit's output bus (`kAudioUnitProperty_MakeConnection`).
    case connection(AudioUnit, outputBus: UInt32)
}

/// An audio unit (Apple's `AudioUnit`, an instance of an ``AudioComponent``): a stream format per
/// bus, inputs pulled from callbacks or other units, parameters, property listeners and render
/// notifications, and a render that produces a bus's audio on demand.
///
/// Configure it, ``initialize()`` it, then render (or, for an output unit, start it). Formats,
/// callbacks and connections may be changed at any time from any thread; the render in progress
/// finishes with the old ones. A unit is made by its component (``AudioComponent/instantiate()``).
public class AudioUnit: @unchecked Sendable {
    /// The component the unit is an instance of.
    public let component: AudioComponent

    struct Element {
        var format: AudioStreamBasicDescription
        var source: AudioUnitInputSource = .none
        var name: String?
        var shouldAllocateBuffer = true
        var channelLayout: AudioChannelLayout?
    }

    struct Configuration {
        var inputs: [Element]
        var outputs: [Element]
        var maximumFramesPerSlice = 4096
        var initialized = false
        var renderQuality: UInt32 = 127
        var lastRenderError: OSStatus = 0
        var notifications: [(token: Int, callback: AudioUnitRenderCallback)] = []
    }

    /// The configuration: formats, sources, settings. Held only to read or change them, never
    /// across a call out of the unit.
    let configuration: Guarded<Configuration>
    private let listeners = Guarded<[(token: Int, property: AudioUnitPropertyID, callback: AudioUnitPropertyListener)]>([])
    private let tokens = Guarded(0)

    /// The canonical format of a unit's bus: Float32, non-interleaved, at `rate` with `channels`.
    public static func canonicalFormat(sampleRate rate: Double, channels: Int) -> AudioStreamBasicDescription {
        AudioStreamBasicDescription(
            sampleRate: rate, formatID: .linearPCM, formatFlags: [.isFloat, .isPacked, .isNonInterleaved], bytesPerPacket: 4,
            framesPerPacket: 1, bytesPerFrame: 4, channelsPerFrame: UInt32(channels), bitsPerChannel: 32)
    }

    init(component: AudioComponent, inputs: Int, outputs: Int, format: AudioStreamBasicDescription) {
        self.component = component
        configuration = Guarded(Configuration(
            inputs: Array(repeating: Element(format: format), count: inputs),
            outputs: Array(repeating: Element(format: format), count: outputs)))
    }

    // MARK: Life cycle

    /// Whether ``initialize()`` has run (and ``uninitialize()`` not since).
    public var isInitialized: Bool { configuration.withLock { $0.initialized } }

    /// Makes the unit ready to render: checks its formats and allocates what rendering needs
    /// (`AudioUnitInitialize`). Initializing an initialized unit does nothing.
    public func initialize() throws(AudioUnitError) {
        guard !isInitialized else { return }
        try prepare()
        configuration.withLock { $0.initialized = true }
    }

    /// Releases what rendering needed (`AudioUnitUninitialize`); an output unit stops first.
    public func uninitialize() {
        configuration.withLock { $0.initialized = false }
        release()
    }

    /// Clears the unit's render state — delay lines, converters' history — without changing its
    /// configuration (`AudioUnitReset`).
    public func reset(scope: AudioUnitScope = .global, element: UInt32 = 0) throws(AudioUnitError) {
        try checkScope(scope, element: element, allowGlobal: true)
        clearRenderState()
    }

    /// Subclasses: allocate for rendering; throw `failedInitialization` or `formatNotSupported`.
    func prepare() throws(AudioUnitError) {}
    /// Subclasses: release what ``prepare()`` allocated.
    func release() {}
    /// Subclasses: clear the render state.
    func clearRenderState() {}

    // MARK: Elements and formats

    /// Elements (buses) in `scope` (`kAudioUnitProperty_ElementCount`); 1 for global.
    public func elementCount(_ scope: AudioUnitScope) throws(AudioUnitError) -> Int {
        switch scope {
        case .global: return 1
        case .input: return configuration.withLock { $0.inputs.count }
        case .output: return configuration.withLock { $0.outputs.count }
        default: throw AudioUnitError(.invalidScope, "no \(scope) scope")
        }
    }

    /// Sets the number of elements in `scope`, where the unit allows it (a mixer's inputs).
    public func setElementCount(_ count: Int, scope: AudioUnitScope) throws(AudioUnitError) {
        guard elementCountIsWritable(scope) else {
            throw AudioUnitError(.propertyNotWritable, "the \(component.name) unit has a fixed number of \(scope) elements")
        }
        guard count >= 0, count <= 1024 else { throw AudioUnitError(.invalidPropertyValue, "\(count) elements") }
        guard !isInitialized else { throw AudioUnitError(.initialized, "the element count changes only while the unit is uninitialized") }
        configuration.withLock { c in
            let template = (scope == .input ? c.inputs.first : c.outputs.first) ?? Element(format: Self.canonicalFormat(sampleRate: 44_100, channels: 2))
            if scope == .input {
                c.inputs = Array(c.inputs.prefix(count)) + Array(repeating: Element(format: template.format), count: max(0, count - c.inputs.count))
            } else {
                c.outputs = Array(c.outputs.prefix(count)) + Array(repeating: Element(format: template.format), count: max(0, count - c.outputs.count))
            }
        }
        changed(.elementCount, scope: scope, element: 0)
    }

    /// Whether ``setElementCount(_:scope:)`` may change the number of elements in `scope`.
    public func canSetElementCount(_ scope: AudioUnitScope) -> Bool { elementCountIsWritable(scope) }

    /// Subclasses: whether ``setElementCount(_:scope:)`` may change `scope`.
    func elementCountIsWritable(_ scope: AudioUnitScope) -> Bool { false }

    /// Throws unless `element` exists in `scope`.
    func checkScope(_ scope: AudioUnitScope, element: UInt32, allowGlobal: Bool = false) throws(AudioUnitError) {
        switch scope {
        case .global where allowGlobal: return
        case .input, .output:
            let n = try elementCount(scope)
            guard Int(element) < n else { throw AudioUnitError(.invalidElement, "the \(scope) scope has \(n) elements; no element \(element)") }
        default: throw AudioUnitError(.invalidScope, "\(scope) has no such property here")
        }
    }

    /// The stream format of `element` in `scope` (`kAudioUnitProperty_StreamFormat`).
    public func streamFormat(scope: AudioUnitScope, element: UInt32 = 0) throws(AudioUnitError) -> AudioStreamBasicDescription {
        try checkScope(scope, element: element)
        return configuration.withLock { scope == .input ? $0.inputs[Int(element)].format : $0.outputs[Int(element)].format }
    }

    /// Sets the stream format of `element` in `scope`: any linear PCM the unit can convert
    /// (integers of 8 to 32 bits, 32- and 64-bit floats, interleaved or not) unless the unit says
    /// otherwise; `formatNotSupported` for anything else.
    public func setStreamFormat(_ format: AudioStreamBasicDescription, scope: AudioUnitScope, element: UInt32 = 0) throws(AudioUnitError) {
        try checkScope(scope, element: element)
        try Self.checkLinearPCM(format)
        try validate(format, scope: scope, element: element)
        let same = configuration.withLock { c in
            let old = scope == .input ? c.inputs[Int(element)].format : c.outputs[Int(element)].format
            if scope == .input { c.inputs[Int(element)].format = format } else { c.outputs[Int(element)].format = format }
            return old == format
        }
        if isInitialized { try formatChangedWhileInitialized(scope: scope, element: element) }
        if !same { changed(.streamFormat, scope: scope, element: element) }
    }

    /// Subclasses: refuse a format for a scope and element.
    func validate(_ format: AudioStreamBasicDescription, scope: AudioUnitScope, element: UInt32) throws(AudioUnitError) {}

    /// Subclasses: a format changed while initialized; by default not allowed.
    func formatChangedWhileInitialized(scope: AudioUnitScope, element: UInt32) throws(AudioUnitError) {}

    /// Throws `formatNotSupported` unless `format` is linear PCM the library converts.
    static func checkLinearPCM(_ format: AudioStreamBasicDescription) throws(AudioUnitError) {
        guard format.formatID == .linearPCM, format.sampleRate > 0, format.sampleRate <= 1_536_000, format.channelsPerFrame > 0,
            format.channelsPerFrame <= 64
        else {
            throw AudioUnitError(.formatNotSupported, "not a linear PCM format a unit takes: \(format)")
        }
        do {
            _ = try PCMConverter(from: format, to: .deviceFloat(sampleRate: format.sampleRate, channels: Int(format.channelsPerFrame)))
        } catch {
            throw AudioUnitError(.formatNotSupported, "\(error.reason): \(format)")
        }
    }

    // MARK: Inputs

    /// Sets where input bus `element` gets its audio: a render callback
    /// (`kAudioUnitProperty_SetRenderCallback`), another unit (`kAudioUnitProperty_MakeConnection`:
    /// the input takes the stream format of that unit's output bus, or the connection fails with
    /// the error setting it gives), or nothing.
    public func setInputSource(_ source: AudioUnitInputSource, element: UInt32 = 0) throws(AudioUnitError) {
        try checkScope(.input, element: element)
        if case .connection(let unit, let bus) = source {
            guard unit !== self else { throw AudioUnitError(.invalidPropertyValue, "a unit cannot take its own output") }
            try unit.checkScope(.output, element: bus)
            // As a Mac's units do (AUBase's SetConnection), the input takes the format of the
            // output it is connected to.
            try setStreamFormat(try unit.streamFormat(scope: .output, element: bus), scope: .input, element: element)
        }
        configuration.withLock { $0.inputs[Int(element)].source = source }
        changed(source.isConnection ? .makeConnection : .setRenderCallback, scope: .input, element: element)
    }

    /// Where input bus `element` gets its audio.
    public func inputSource(element: UInt32 = 0) throws(AudioUnitError) -> AudioUnitInputSource {
        try checkScope(.input, element: element)
        return configuration.withLock { $0.inputs[Int(element)].source }
    }

    /// Renders input bus `bus` into `data`: its callback, or the unit it is connected to.
    func pullInput(
        bus: UInt32, flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>, time: AudioTimeStampPointer, frames: UInt32,
        into data: AudioBufferListPointer
    ) -> OSStatus {
        let source = configuration.withLock { Int(bus) < $0.inputs.count ? $0.inputs[Int(bus)].source : .none }
        switch source {
        case .none: return AudioUnitError.Code.noConnection.rawValue
        case .callback(let callback): return callback(flags, time, bus, frames, data)
        case .connection(let unit, let outputBus): return unit.render(flags: flags, time: time, bus: outputBus, frames: frames, data: data)
        }
    }

    // MARK: Settings

    /// The most frames one render may ask for (`kAudioUnitProperty_MaximumFramesPerSlice`);
    /// 4096 unless set. Set it before initializing.
    public var maximumFramesPerSlice: Int { configuration.withLock { $0.maximumFramesPerSlice } }

    /// Sets ``maximumFramesPerSlice`` (1…65,536); not while initialized.
    public func setMaximumFramesPerSlice(_ frames: Int) throws(AudioUnitError) {
        guard frames > 0, frames <= 65_536 else { throw AudioUnitError(.invalidPropertyValue, "\(frames) frames per slice") }
        try configuration.withLock { c throws(AudioUnitError) in
            guard !c.initialized || c.maximumFramesPerSlice == frames else {
                throw AudioUnitError(.initialized, "the maximum frames per slice is set before the unit is initialized")
            }
            c.maximumFramesPerSlice = frames
        }
        changed(.maximumFramesPerSlice, scope: .global, element: 0)
    }

    /// `kAudioUnitProperty_RenderQuality` (0…127); stored and reported: every quality renders
    /// the same here.
    public var renderQuality: UInt32 {
        get { configuration.withLock { $0.renderQuality } }
        set { configuration.withLock { $0.renderQuality = min(newValue, 127) } }
    }

    /// The most recent render's error (`kAudioUnitProperty_LastRenderError`); 0 after it is read.
    public func takeLastRenderError() -> OSStatus {
        configuration.withLock { c in
            defer { c.lastRenderError = 0 }
            return c.lastRenderError
        }
    }

    /// Seconds from input to output (`kAudioUnitProperty_Latency`): 0 unless the unit says.
    public var latency: Double { 0 }

    /// Whether the unit supplies its own buffer when a render's buffer pointers are nil
    /// (`kAudioUnitProperty_ShouldAllocateBuffer`); true unless set.
    public func shouldAllocateBuffer(scope: AudioUnitScope, element: UInt32 = 0) throws(AudioUnitError) -> Bool {
        try checkScope(scope, element: element)
        return configuration.withLock { scope == .input ? $0.inputs[Int(element)].shouldAllocateBuffer : $0.outputs[Int(element)].shouldAllocateBuffer }
    }

    /// Sets ``shouldAllocateBuffer(scope:element:)``.
    public func setShouldAllocateBuffer(_ value: Bool, scope: AudioUnitScope, element: UInt32 = 0) throws(AudioUnitError) {
        try checkScope(scope, element: element)
        configuration.withLock { c in
            if scope == .input { c.inputs[Int(element)].shouldAllocateBuffer = value } else { c.outputs[Int(element)].shouldAllocateBuffer = value }
        }
        changed(.shouldAllocateBuffer, scope: scope, element: element)
    }

    /// The channel layout of `element` in `scope` (`kAudioUnitProperty_AudioChannelLayout`);
    /// `propertyNotInUse` when none was set.
    public func channelLayout(scope: AudioUnitScope, element: UInt32 = 0) throws(AudioUnitError) -> AudioChannelLayout {
        try checkScope(scope, element: element)
        let layout = configuration.withLock { scope == .input ? $0.inputs[Int(element)].channelLayout : $0.outputs[Int(element)].channelLayout }
        guard let layout else { throw AudioUnitError(.propertyNotInUse, "no channel layout is set on \(scope) element \(element)") }
        return layout
    }

    /// Sets (or, with nil, clears) the channel layout of `element` in `scope`; stored and reported.
    public func setChannelLayout(_ layout: AudioChannelLayout?, scope: AudioUnitScope, element: UInt32 = 0) throws(AudioUnitError) {
        try checkScope(scope, element: element)
        configuration.withLock { c in
            if scope == .input { c.inputs[Int(element)].channelLayout = layout } else { c.outputs[Int(element)].channelLayout = layout }
        }
        changed(.audioChannelLayout, scope: scope, element: element)
    }

    /// The name of `element` in `scope` (`kAudioUnitProperty_ElementName`); nil when unnamed.
    public func elementName(scope: AudioUnitScope, element: UInt32 = 0) throws(AudioUnitError) -> String? {
        try checkScope(scope, element: element)
        return configuration.withLock { scope == .input ? $0.inputs[Int(element)].name : $0.outputs[Int(element)].name }
    }

    /// Names `element` in `scope`.
    public func setElementName(_ name: String?, scope: AudioUnitScope, element: UInt32 = 0) throws(AudioUnitError) {
        try checkScope(scope, element: element)
        configuration.withLock { c in
            if scope == .input { c.inputs[Int(element)].name = name } else { c.outputs[Int(element)].name = name }
        }
        changed(.elementName, scope: scope, element: element)
    }

    // MARK: Parameters

    /// The IDs of the parameters in `scope` (`kAudioUnitProperty_ParameterList`).
    public func parameterList(scope: AudioUnitScope) -> [AudioUnitParameterID] { [] }

    /// Parameter `id` of `element` in `scope` (`AudioUnitGetParameter`).
    public func parameter(_ id: AudioUnitParameterID, scope: AudioUnitScope, element: UInt32 = 0) throws(AudioUnitError) -> Float {
        throw AudioUnitError(.invalidParameter, "the \(component.name) unit has no parameter \(id.rawValue) in the \(scope) scope")
    }

    /// Sets parameter `id` of `element` in `scope` (`AudioUnitSetParameter`); takes effect from
    /// the next render.
    public func setParameter(_ id: AudioUnitParameterID, scope: AudioUnitScope, element: UInt32 = 0, to value: Float) throws(AudioUnitError) {
        throw AudioUnitError(.invalidParameter, "the \(component.name) unit has no parameter \(id.rawValue) in the \(scope) scope")
    }

    // MARK: Listeners and notifications

    private func nextToken() -> Int {
        tokens.withLock { t in
            t += 1
            return t
        }
    }

    /// Calls `listener` after `property` changes; returns a token for
    /// ``removePropertyListener(_:)``.
    @discardableResult
    public func addPropertyListener(_ property: AudioUnitPropertyID, _ listener: @escaping AudioUnitPropertyListener) -> Int {
        let token = nextToken()
        listeners.withLock { $0.append((token, property, listener)) }
        return token
    }

    /// Removes the listener `addPropertyListener` returned `token` for; false if there is none.
    @discardableResult
    public func removePropertyListener(_ token: Int) -> Bool {
        listeners.withLock { l in
            guard let i = l.firstIndex(where: { $0.token == token }) else { return false }
            l.remove(at: i)
            return true
        }
    }

    /// Tells the listeners of `property`, on the calling thread, with no lock held.
    func changed(_ property: AudioUnitPropertyID, scope: AudioUnitScope, element: UInt32) {
        let toCall = listeners.withLock { $0.filter { $0.property == property }.map(\.callback) }
        for listener in toCall { listener(self, property, scope, element) }
    }

    /// Calls `callback` before (flags `.preRender`) and after (`.postRender`) every render of the
    /// unit, with the render's arguments; returns a token for ``removeRenderNotify(_:)``.
    @discardableResult
    public func addRenderNotify(_ callback: @escaping AudioUnitRenderCallback) -> Int {
        let token = nextToken()
        configuration.withLock { $0.notifications.append((token, callback)) }
        return token
    }

    /// Removes a render notification; false if there is none.
    @discardableResult
    public func removeRenderNotify(_ token: Int) -> Bool {
        configuration.withLock { c in
            guard let i = c.notifications.firstIndex(where: { $0.token == token }) else { return false }
            c.notifications.remove(at: i)
            return true
        }
    }

    // MARK: Rendering

    /// Renders `frames` frames of output bus `bus` into `data` (`AudioUnitRender`), pulling the
    /// unit's inputs as it needs them. Buffers in `data` whose pointer is nil are pointed at the
    /// unit's own memory. Returns 0 or an `OSStatus`: `uninitialized`, `tooManyFramesToProcess`,
    /// `invalidElement`, or the error of an input.
    public func render(
        flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>, time: AudioTimeStampPointer, bus: UInt32, frames: UInt32,
        data: AudioBufferListPointer
    ) -> OSStatus {
        let (initialized, maximum, notifications) = configuration.withLock { ($0.initialized, $0.maximumFramesPerSlice, $0.notifications) }
        guard initialized else { return AudioUnitError.Code.uninitialized.rawValue }
        guard Int(frames) <= maximum else { return AudioUnitError.Code.tooManyFramesToProcess.rawValue }
        if !notifications.isEmpty {
            let given = flags.pointee
            flags.pointee = given.union(.preRender)
            for n in notifications { _ = n.callback(flags, time, bus, frames, data) }
            flags.pointee = given
        }
        let status = renderBus(flags: flags, time: time, bus: bus, frames: frames, data: data)
        if status != 0 { configuration.withLock { $0.lastRenderError = status } }
        if !notifications.isEmpty {
            let given = flags.pointee
            flags.pointee = given.union(status == 0 ? .postRender : [.postRender, .postRenderError])
            for n in notifications { _ = n.callback(flags, time, bus, frames, data) }
            flags.pointee = given
        }
        return status
    }

    /// Subclasses: render output bus `bus`.
    func renderBus(
        flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>, time: AudioTimeStampPointer, bus: UInt32, frames: UInt32,
        data: AudioBufferListPointer
    ) -> OSStatus {
        AudioUnitError.Code.invalidElement.rawValue
    }
}

extension AudioUnitInputSource {
    var isConnection: Bool {
        if case .connection = self { return true }
        return false
    }
}
