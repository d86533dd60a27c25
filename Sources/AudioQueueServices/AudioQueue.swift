public import AudioCore
public import AudioDevices
public import Dispatch
import AudioCodecs
import Synchronization

/// A playback audio queue (Apple's `AudioQueueRef` made by `AudioQueueNewOutput`).
///
/// The program allocates buffers from the queue, fills them with packets in the queue's
/// format, and enqueues them; the queue decodes them in order, trims, schedules, applies
/// volume and pan, and plays them through an `AudioOutputDevice` — or, in offline mode,
/// renders them into buffers the program asks for. Each played buffer comes back through the
/// output callback, which refills and re-enqueues it.
///
/// Threading: callbacks and property listeners run on the callback queue (the `DispatchQueue`
/// given to the initializer, else one the queue owns), one at a time, in the order buffers
/// finish. Every method may be called from any thread, including from inside a callback; the
/// device's I/O thread never runs program code. See the Playing article for the whole cycle.
public final class AudioQueue: @unchecked Sendable {
    /// The output callback (`AudioQueueOutputCallback`): a buffer the queue has finished with.
    public typealias OutputCallback = @Sendable (_ queue: AudioQueue, _ buffer: AudioQueueBuffer) -> Void
    /// A property listener (`AudioQueuePropertyListenerProc`).
    public typealias PropertyListener = @Sendable (_ queue: AudioQueue, _ property: AudioQueuePropertyID) -> Void

    /// Where a queue is in its life cycle.
    public enum RunState: Sendable, Hashable {
        /// Created, or stopped: enqueued buffers wait for ``start(at:)``.
        case stopped
        /// Started: playing (or rendering offline) what is enqueued.
        case running
        /// Paused: buffers and position kept until ``start(at:)`` resumes.
        case paused
        /// Stopping asynchronously: playing what is enqueued, then stopping.
        case stopping
    }

    /// The format of the data the program enqueues (`kAudioQueueProperty_StreamDescription`).
    public let streamDescription: AudioStreamBasicDescription
    /// This queue among all made by the process: what its buffers and timelines belong to (an
    /// address could be reused by a later queue).
    private let serial = AudioQueue.serials.add(1, ordering: .relaxed).newValue
    private static let serials = Atomic<UInt64>(0)
    private let callback: OutputCallback
    private let callbackQueue: DispatchQueue
    private let callbackKey = DispatchSpecificKey<Bool>()
    private let controlQueue = DispatchQueue(label: "AudioQueue.control")
    /// Guards the queue's state and the buffer queue; held only briefly, never while
    /// decoding, so enqueueing from a callback never waits for the decoder.
    private let lock = QueueLock()
    /// Guards the render pipeline (engine, decode ring, meters). Taken before `lock` when both
    /// are needed; neither is held while program code runs.
    private let renderLock = QueueLock()
    private let engine: RenderEngine
    private let feed: OutputFeed
    private var ring: FloatRing

    // Guarded by `lock`.
    private var pending = PendingBuffers()
    private var runState = RunState.stopped
    private var disposed = false
    private var disposePending = false
    private var resetDepth = 0
    private var buffers: [ObjectIdentifier: AudioQueueBuffer] = [:]
    private var waiting: [AudioQueueBuffer] = []
    private var waitingHead = 0
    private var outstanding = 0
    private var drainScheduled = false
    private var listeners: [(token: Int, id: UInt32, listener: PropertyListener)] = []
    private var nextToken = 1
    private var offlineFormat: AudioStreamBasicDescription?
    private var offlineLayout: AudioChannelLayout?
    private var offlineConverter: PCMConverter?
    private var offlineFloat: PCMBuffer?
    private var offlineOut: PCMBuffer?
    private var offlinePosition: Int64 = 0
    private var device: (any AudioOutputDevice)?
    private var requestedDeviceUID: String?
    private var deviceRunning = false
    /// The device was paused with the queue and holds what it had not played yet.
    private var devicePaused = false
    private var renderThread: IOThread?
    private let renderThreadExit = ExitFlag()
    private var reportedRunning = false
    // Guarded by `renderLock` (with `ring` and `engine`).
    /// What ``prime(frames:)`` decoded beyond the ring's capacity, interleaved, from
    /// `primedHead` on; it moves into the ring ahead of anything decoded later.
    private var primed: [Float] = []
    private var primedHead = 0
    private var meteringEnabled = false
    private var meters: [AudioQueueLevelMeterState]
    private var layout: AudioChannelLayout?
    private var decodeBufferFrames: Int
    private var reportedConverterError: OSStatus = 0
    private var deviceFailure: AudioDeviceError?
    /// An asynchronous stop was asked for before the queue started (or while it was paused).
    private var stopWhenStarted = false
    /// True when the queue opened its device itself (and so closes it).
    private var ownsDevice = false
    /// Changed by every start, pause and stop: a start scheduled for later checks it is still wanted.
    private var startGeneration = 0
    /// The queue itself while it plays live: the program need not keep a reference.
    private var keepAlive: AudioQueue?
    /// True while callbacks are being delivered (callbacks never nest).
    private var draining = false
    /// The queue's time, in frames, when the device last started, and the device's clock then.
    private var timeBase: Int64 = 0
    private var playedAtStart: Int64 = 0

    /// Creates a playback queue for data in `format` (Apple's `AudioQueueNewOutput`, or
    /// `AudioQueueNewOutputWithDispatchQueue` when `callbackQueue` is given).
    ///
    /// - Parameters:
    ///   - format: The format of the data to be enqueued; its decoder comes from the codec
    ///     registry (`codecNotFound` when there is none).
    ///   - callbackQueue: Where `callback` and property listeners run — a serial queue, since
    ///     callbacks run one at a time; nil for a serial queue of the audio queue's own.
    ///   - device: The output device; nil for the default one (see `AudioBackends`), opened
    ///     when the queue first starts.
    ///   - callback: Called with each buffer the queue has finished with.
    public init(
        format: AudioStreamBasicDescription, callbackQueue: DispatchQueue? = nil,
        device: (any AudioOutputDevice)? = nil, callback: @escaping OutputCallback
    ) throws(AudioQueueError) {
        streamDescription = format
        engine = try RenderEngine(format: format, magicCookie: nil)
        self.callback = callback
        let queue = callbackQueue ?? DispatchQueue(label: "AudioQueue.callbacks")
        self.callbackQueue = queue
        decodeBufferFrames = max(4096, engine.framesPerPacket * 2)
        ring = Self.makeRing(decodeBufferFrames: decodeBufferFrames, channels: engine.channels)
        feed = OutputFeed(ring: ring, channels: engine.channels)
        meters = Array(repeating: AudioQueueLevelMeterState(averagePower: 0, peakPower: 0), count: engine.channels)
        queue.setSpecific(key: callbackKey, value: true)
        feed.queue = self
        if let device {
            guard Self.fits(device, engine) else {
                throw AudioQueueError(.invalidDevice, "\(device.info.uid) plays \(device.format), not \(engine.channels) channels at \(engine.sampleRate) Hz")
            }
            self.device = device
        }
    }

    deinit {
        renderThreadExit.value.store(true, ordering: .releasing)
        feed.wake.signal()
        // The render thread holds the queue weakly; it ends on its own.
        renderThread?.detach()
        if deviceRunning { device?.stop(drain: false) }
        if ownsDevice { device?.close() }
    }

    private static func fits(_ device: any AudioOutputDevice, _ engine: RenderEngine) -> Bool {
        Int(device.format.channelsPerFrame) == engine.channels && device.format.sampleRate == engine.sampleRate
    }

    /// The format the queue renders: interleaved Float32 at the decoded rate and channel count.
    public var renderFormat: AudioStreamBasicDescription { engine.floatFormat }

    /// Where the queue is in its life cycle.
    public var state: RunState { lock.withLock { runState } }

    private func checkUsable() throws(AudioQueueError) {
        if disposed || disposePending {
            throw AudioQueueError(.disposalPending, "the queue has been disposed of")
        }
    }

    // MARK: Buffers

    /// Allocates a buffer of `byteCapacity` bytes with room for `packetDescriptionCapacity`
    /// packet descriptions (`AudioQueueAllocateBuffer`, or
    /// `AudioQueueAllocateBufferWithPacketDescriptions` when the count is above 0).
    public func allocateBuffer(byteCapacity: Int, packetDescriptionCapacity: Int = 0) throws(AudioQueueError) -> AudioQueueBuffer {
        try lock.withLock { () throws(AudioQueueError) -> AudioQueueBuffer in
            try checkUsable()
            guard byteCapacity > 0, byteCapacity <= 1 << 30 else {
                throw AudioQueueError(.invalidParameter, "a buffer holds 1 byte to 1 GiB, not \(byteCapacity)")
            }
            guard packetDescriptionCapacity >= 0, packetDescriptionCapacity <= 1 << 22 else {
                throw AudioQueueError(.invalidParameter, "\(packetDescriptionCapacity) packet descriptions is out of range")
            }
            let buffer = AudioQueueBuffer(owner: serial, capacity: UInt32(byteCapacity), packetDescriptionCapacity: UInt32(packetDescriptionCapacity))
            buffers[ObjectIdentifier(buffer)] = buffer
            return buffer
        }
    }

    /// Frees a buffer (`AudioQueueFreeBuffer`); `bufferInQueue` while it is enqueued.
    /// A buffer may be freed from inside its own callback.
    public func freeBuffer(_ buffer: AudioQueueBuffer) throws(AudioQueueError) {
        try lock.withLock { () throws(AudioQueueError) in
            try checkUsable()
            try checkOwned(buffer)
            switch buffer.state {
            case .enqueued, .completed:
                throw AudioQueueError(.bufferInQueue, "the buffer is enqueued; it can be freed once its callback has it")
            case .idle, .inCallback:
                buffer.state = .freed
                buffers[ObjectIdentifier(buffer)] = nil
            case .freed:
                throw AudioQueueError(.invalidBuffer, "the buffer was already freed")
            }
        }
    }

    private func checkOwned(_ buffer: AudioQueueBuffer) throws(AudioQueueError) {
        guard buffer.owner == serial else {
            throw AudioQueueError(.invalidBuffer, "the buffer belongs to another queue")
        }
        guard buffer.state != .freed else { throw AudioQueueError(.invalidBuffer, "the buffer has been freed") }
    }

    // MARK: Enqueueing

    /// Adds a buffer to the buffer queue (`AudioQueueEnqueueBuffer`).
    ///
    /// `packetDescriptions` describe the packets of VBR data; when nil (or empty) the buffer's
    /// own ``AudioQueueBuffer/packetDescriptions`` (``AudioQueueBuffer/packetDescriptionCount``
    /// of them) are used.
    public func enqueue(_ buffer: AudioQueueBuffer, packetDescriptions: [AudioStreamPacketDescription]? = nil) throws(AudioQueueError) {
        _ = try enqueue(buffer, packetDescriptions: packetDescriptions, trimFramesAtStart: 0, trimFramesAtEnd: 0)
    }

    /// Adds a buffer with playback parameters (`AudioQueueEnqueueBufferWithParameters`).
    ///
    /// - Parameters:
    ///   - buffer: A buffer of this queue holding ``AudioQueueBuffer/audioDataByteSize`` bytes.
    ///   - packetDescriptions: The packets of VBR data; nil to use the buffer's own.
    ///   - trimFramesAtStart: Decoded frames to drop from the start (priming frames).
    ///   - trimFramesAtEnd: Decoded frames to drop from the end (remainder frames).
    ///   - parameterEvents: Parameter values applied when the buffer begins to play.
    ///   - startTime: When its first (untrimmed) frame should play, as a sample time relative
    ///     to the queue's start (`sampleTimeValid`); the gap from the previous buffer is filled
    ///     with silence. Start times must ascend. Nil: right after the previous buffer.
    /// - Returns: When the buffer will actually start playing (queue sample time).
    @discardableResult
    public func enqueue(
        _ buffer: AudioQueueBuffer, packetDescriptions: [AudioStreamPacketDescription]? = nil,
        trimFramesAtStart: Int, trimFramesAtEnd: Int,
        parameterEvents: [AudioQueueParameterEvent] = [], startTime: AudioTimeStamp? = nil
    ) throws(AudioQueueError) -> AudioTimeStamp {
        let stamp = try lock.withLock { () throws(AudioQueueError) -> AudioTimeStamp in
            try checkUsable()
            guard resetDepth == 0 else {
                throw AudioQueueError(.enqueueDuringReset, "buffers cannot be enqueued while the queue is being reset, stopped or disposed of")
            }
            try checkOwned(buffer)
            switch buffer.state {
            case .enqueued: throw AudioQueueError(.bufferEnqueuedTwice, "the buffer is already enqueued")
            case .completed: throw AudioQueueError(.bufferEnqueuedTwice, "the buffer is still waiting for its callback")
            case .idle, .inCallback, .freed: break
            }
            var requested: Int64?
            if let startTime {
                guard startTime.flags.contains(.sampleTimeValid), startTime.sampleTime >= 0, startTime.sampleTime < 1e15 else {
                    throw AudioQueueError(.invalidParameter, "a start time must be a sample time at or after 0")
                }
                requested = Int64(startTime.sampleTime)
            }
            let entry = try engine.makeEntry(
                buffer: buffer, descriptions: packetDescriptions, trimStart: trimFramesAtStart, trimEnd: trimFramesAtEnd,
                events: parameterEvents, requestedStart: requested, pending: pending)
            pending.append(entry, requestedStart: requested)
            buffer.state = .enqueued
            return AudioTimeStamp(sampleTime: Double(entry.startTime), flags: .sampleTimeValid)
        }
        feed.wake.signal()
        return stamp
    }

    // MARK: Control

    /// Starts playback now, or when `time` comes (`AudioQueueStart`): a host time (nanoseconds
    /// of the monotonic clock) or a sample time on the device's clock; nil or a past time starts
    /// at once. Resumes a paused queue. `cannotStart` when the device will not start,
    /// `invalidRunState` while an asynchronous stop is in progress, `invalidParameter` for a
    /// time that is not finite.
    ///
    /// A live queue keeps itself alive while it plays, as Apple's does until it is disposed of.
    public func start(at time: AudioTimeStamp? = nil) throws(AudioQueueError) {
        if let time, time.flags.contains(.sampleTimeValid), !time.flags.contains(.hostTimeValid), !time.sampleTime.isFinite {
            throw AudioQueueError(.invalidParameter, "the start time \(time.sampleTime) is not a finite sample time")
        }
        // Open the device before taking the locks: a sound server may take a while to answer.
        let needsDevice = try lock.withLock { () throws(AudioQueueError) -> Bool in
            try checkUsable()
            return offlineFormat == nil && device == nil && (runState == .stopped || runState == .paused)
        }
        if needsDevice {
            let opened = try openDevice()
            let spare = lock.withLock { () -> (any AudioOutputDevice)? in
                guard device == nil else { return opened }
                device = opened
                ownsDevice = true
                return nil
            }
            spare?.close()
        }
        enum Action { case none, offline(fresh: Bool), live(previous: RunState) }
        let action = try renderLock.withLock { () throws(AudioQueueError) -> Action in
            let action = try lock.withLock { () throws(AudioQueueError) -> Action in
                try checkUsable()
                switch runState {
                case .running: return .none
                case .stopping: throw AudioQueueError(.invalidRunState, "the queue is stopping; start it again once it has stopped")
                case .stopped, .paused: break
                }
                let previous = runState
                let next: RunState = stopWhenStarted ? .stopping : .running
                if offlineFormat != nil {
                    stopWhenStarted = false
                    runState = next
                    if previous == .stopped { offlinePosition = 0 }
                    return .offline(fresh: previous == .stopped)
                }
                if let deviceFailure {
                    throw AudioQueueError(.cannotStart, "the output device failed: \(deviceFailure); choose a device again")
                }
                guard device != nil else { throw AudioQueueError(.cannotStart, "no output device") }
                try startRenderThread()
                stopWhenStarted = false
                if previous == .stopped {
                    feed.resetCounters()
                    timeBase = 0
                }
                runState = next
                startGeneration &+= 1
                keepAlive = self
                return .live(previous: previous)
            }
            // Decoded ahead before the device asks (what prime() prepared stays).
            if case .live = action { fillRing() }
            return action
        }
        switch action {
        case .none: break
        case .offline(let fresh):
            if fresh { reportRunning() }
        case .live(let previous):
            var delay: UInt64 = 0
            let (generation, framesRendered) = lock.withLock { (startGeneration, device?.framesRendered ?? 0) }
            if let time {
                if time.flags.contains(.hostTimeValid) {
                    let now = HostTime.now()
                    if time.hostTime > now { delay = time.hostTime - now }
                } else if time.flags.contains(.sampleTimeValid) {
                    let ahead = (time.sampleTime - Double(framesRendered)) / engine.sampleRate
                    if ahead > 0 { delay = UInt64(min(ahead, 3600) * 1e9) }
                }
            }
            if delay > 0 {
                controlQueue.asyncAfter(deadline: .now() + .nanoseconds(Int(min(delay, 3_600_000_000_000)))) { [weak self] in
                    guard let self else { return }
                    do throws(AudioQueueError) {
                        try self.lock.withLock { () throws(AudioQueueError) in
                            // A pause, stop or reset since cancels this start.
                            guard self.startGeneration == generation else { return }
                            try self.startDeviceLocked(restoring: nil)
                        }
                    } catch {
                        self.deviceReported(.failed(AudioDeviceError(.openFailed, error.reason)))
                    }
                }
            } else {
                try lock.withLock { () throws(AudioQueueError) in try startDeviceLocked(restoring: previous) }
            }
        }
        scheduleCallbacks()
    }

    /// Starts the device if the queue should be playing and it is not. State lock held (a
    /// device's start and stop never call back into the queue synchronously).
    private func startDeviceLocked(restoring previous: RunState?) throws(AudioQueueError) {
        guard let device, !deviceRunning, runState == .running || runState == .stopping else { return }
        do {
            try device.start(source: feed)
            deviceRunning = true
            devicePaused = false
            playedAtStart = device.framesPlayed
        } catch {
            if let previous {
                runState = previous
                keepAlive = nil
            }
            throw AudioQueueError(.cannotStart, "\(device.info.uid) did not start: \(error)")
        }
    }

    /// Stops the device if it is running, and drops what a paused device holds. State lock held.
    private func stopDeviceLocked(drain: Bool) {
        startGeneration &+= 1
        if devicePaused {
            device?.stop(drain: false)
            devicePaused = false
        }
        guard deviceRunning else { return }
        if let device { timeBase += max(0, device.framesPlayed - playedAtStart) }
        device?.stop(drain: drain)
        deviceRunning = false
    }

    /// Pauses the device if it is running, keeping what it holds for the next start. State
    /// lock held.
    private func pauseDeviceLocked() {
        startGeneration &+= 1
        guard deviceRunning, let device else { return }
        timeBase += max(0, device.framesPlayed - playedAtStart)
        device.pause()
        deviceRunning = false
        devicePaused = true
    }

    /// Decodes enqueued buffers ahead of playback (`AudioQueuePrime`) so that starting plays at
    /// once. Prepares at least `frames` frames if that many are enqueued (0: every enqueued
    /// buffer) and returns the frames prepared — all that is decoded and waiting to play,
    /// which may be more than asked for.
    @discardableResult
    public func prime(frames: Int = 0) throws(AudioQueueError) -> Int {
        let prepared = try renderLock.withLock { () throws(AudioQueueError) -> Int in
            try lock.withLock { () throws(AudioQueueError) in
                try checkUsable()
                guard runState != .stopping else { throw AudioQueueError(.invalidRunState, "the queue is stopping") }
                guard frames >= 0 else { throw AudioQueueError(.invalidParameter, "cannot prime \(frames) frames") }
            }
            let target = frames > 0 ? frames : .max
            fillRing(upTo: min(target, ring.capacity))
            var prepared = ring.available + primedFrames
            // Beyond the ring's capacity, into the primed store.
            let channels = engine.channels
            var chunk: [Float] = []
            while prepared < target {
                let want = min(4096, target - prepared)
                if chunk.isEmpty { chunk = [Float](repeating: 0, count: 4096 * channels) }
                let produced = chunk.withUnsafeMutableBufferPointer { chunk in
                    let produced = engine.produce(into: chunk.baseAddress!, frameCount: want, next: takeNext)
                    if meteringEnabled && produced > 0 { meter(chunk.baseAddress!, frames: produced) }
                    return produced
                }
                if produced == 0 { break }
                primed.append(contentsOf: chunk[0..<(produced * channels)])
                prepared += produced
                if produced < want { break }
            }
            collectFinished()
            return prepared
        }
        scheduleCallbacks()
        return prepared
    }

    /// Frames in the primed store.
    private var primedFrames: Int { (primed.count - primedHead) / engine.channels }

    /// Moves primed frames into the ring while it has room. Render lock held.
    private func movePrimedIntoRing() {
        let channels = engine.channels
        while primedHead < primed.count {
            let (pointer, room) = ring.writableRegion(max: (primed.count - primedHead) / channels)
            guard room > 0 else { return }
            primed.withUnsafeBufferPointer { pointer.update(from: $0.baseAddress! + primedHead, count: room * channels) }
            ring.commit(room)
            primedHead += room * channels
        }
        discardPrimed()
    }

    private func discardPrimed() {
        primed = []
        primedHead = 0
    }

    /// Drops every decoded frame waiting to play: the ring's (`live`: while the device reads
    /// it) and the primed store's. Render lock held.
    private func discardDecoded(live: Bool = false) {
        if live { ring.discardAll() } else { ring.clear() }
        discardPrimed()
    }

    /// Pauses playback, keeping enqueued buffers and the position (`AudioQueuePause`);
    /// ``start(at:)`` resumes. A queue stopping asynchronously pauses too, and goes on
    /// stopping when it resumes: a player can pause in the last seconds of a file.
    public func pause() throws(AudioQueueError) {
        try lock.withLock { () throws(AudioQueueError) in
            try checkUsable()
            switch runState {
            case .running: break
            case .stopping: stopWhenStarted = true
            case .stopped, .paused: return
            }
            runState = .paused
            pauseDeviceLocked()
            keepAlive = nil
        }
    }

    /// Stops playback (`AudioQueueStop`).
    ///
    /// Immediately: silences now and hands every enqueued buffer back through the callback
    /// before returning (called from inside a callback: right after that callback returns);
    /// no callback follows. Asynchronously: plays everything enqueued, then stops, and
    /// ``AudioQueuePropertyID/isRunning`` listeners hear when it has. Asked of a queue that is
    /// stopped or paused, an asynchronous stop takes effect once the queue is started and has
    /// played what is enqueued.
    public func stop(immediate: Bool) throws(AudioQueueError) {
        if !immediate {
            try lock.withLock { () throws(AudioQueueError) in
                try checkUsable()
                switch runState {
                case .stopping: break
                case .stopped, .paused: stopWhenStarted = true
                case .running: runState = .stopping
                }
            }
            feed.wake.signal()
            return
        }
        try lock.withLock { () throws(AudioQueueError) in try checkUsable() }
        stopNow()
    }

    /// Makes sure everything enqueued is decoded and will play, even if it does not fill the
    /// decode buffer (`AudioQueueFlush`). Call after enqueueing the last buffer.
    public func flush() throws(AudioQueueError) {
        try renderLock.withLock { () throws(AudioQueueError) in
            let live = try lock.withLock { () throws(AudioQueueError) -> Bool in
                try checkUsable()
                return offlineFormat == nil && (runState == .running || runState == .stopping)
            }
            if live { fillRing() }
        }
        scheduleCallbacks()
    }

    /// Silences the queue at once, hands every enqueued buffer back through the callback, and
    /// resets decoder and DSP state (`AudioQueueReset`). A running queue keeps running.
    public func reset() throws(AudioQueueError) {
        try renderLock.withLock { () throws(AudioQueueError) in
            let (live, held) = try lock.withLock { () throws(AudioQueueError) -> (Bool, Int) in
                try checkUsable()
                resetDepth += 1
                stopWhenStarted = false
                // What a paused device holds goes too.
                var held = 0
                if devicePaused, let device {
                    held = device.presentationDelay
                    device.stop(drain: false)
                    devicePaused = false
                }
                return (deviceRunning, held)
            }
            // Frames decoded that will now never play do not count towards the queue's time:
            // start times of buffers enqueued after the reset are measured without them.
            engine.position = max(0, engine.position - Int64(ring.available + primedFrames + held))
            dropEverything(rewinding: false)
            discardDecoded(live: live)
        }
        drainCallbacksNow()
        lock.withLock { resetDepth -= 1 }
    }

    /// Disposes of the queue and its buffers (`AudioQueueDispose`). Immediately: stops now.
    /// Otherwise: once everything enqueued has played. Later calls throw `disposalPending`.
    public func dispose(immediate: Bool) throws(AudioQueueError) {
        let now = try lock.withLock { () throws(AudioQueueError) -> Bool in
            try checkUsable()
            if !immediate && (runState == .running || runState == .stopping) {
                disposePending = true
                runState = .stopping
                return false
            }
            return true
        }
        if now { finishDispose() } else { feed.wake.signal() }
    }

    private func stopNow() {
        let (wasActive, released) = renderLock.withLock { () -> (Bool, AudioQueue?) in
            let result = lock.withLock { () -> (Bool, AudioQueue?) in
                let active = runState != .stopped
                resetDepth += 1
                runState = .stopped
                stopWhenStarted = false
                stopDeviceLocked(drain: false)
                offlinePosition = 0
                let k = keepAlive
                keepAlive = nil
                return (active, k)
            }
            dropEverything(rewinding: true)
            discardDecoded()
            feed.resetCounters()
            return result
        }
        drainCallbacksNow()
        lock.withLock { resetDepth -= 1 }
        if wasActive { setReportedRunning(false, synchronously: true) }
        withExtendedLifetime(released) {}
    }

    private func finishDispose() {
        stopNow()
        let (device, owned, thread) = lock.withLock { () -> ((any AudioOutputDevice)?, Bool, IOThread?) in
            disposed = true
            disposePending = false
            for buffer in buffers.values { buffer.state = .freed }
            buffers.removeAll()
            listeners.removeAll()
            let d = self.device
            self.device = nil
            let t = renderThread
            renderThread = nil
            return (d, ownsDevice, t)
        }
        renderThreadExit.value.store(true, ordering: .releasing)
        feed.wake.signal()
        if let thread, !thread.isCurrent { thread.join() } else { thread?.detach() }
        // A device the program supplied is the program's to close; it is only stopped.
        if owned { device?.close() }
    }

    /// The end of an asynchronous stop: everything has played.
    private func finishAsyncStop() {
        let (stopped, dispose, released) = renderLock.withLock { () -> (Bool, Bool, AudioQueue?) in
            let result = lock.withLock { () -> (Bool, Bool, AudioQueue?) in
                guard runState == .stopping else { return (false, false, nil) }
                // The device has played everything; this releases its I/O thread before anyone
                // can see the queue stopped and start it again.
                stopDeviceLocked(drain: true)
                runState = .stopped
                let k = keepAlive
                keepAlive = nil
                return (true, disposePending, k)
            }
            if result.0 {
                dropEverything(rewinding: true)
                discardDecoded()
                feed.resetCounters()
            }
            return result
        }
        guard stopped else { return }
        scheduleCallbacks()
        setReportedRunning(false, synchronously: false)
        if dispose { finishDispose() }
        withExtendedLifetime(released) {}
    }

    // MARK: Devices

    /// Opens the device asked for, or the default one. No lock held.
    private func openDevice() throws(AudioQueueError) -> any AudioOutputDevice {
        let uid = lock.withLock { requestedDeviceUID }
        do {
            let d: any AudioOutputDevice
            if let uid {
                d = try AudioBackends.makeOutput(uid: uid, sampleRate: engine.sampleRate, channels: engine.channels, bufferFrames: decodeBufferSizeFrames)
            } else {
                d = try AudioBackends.makeDefaultOutput(sampleRate: engine.sampleRate, channels: engine.channels, bufferFrames: decodeBufferSizeFrames)
            }
            guard Self.fits(d, engine) else {
                d.close()
                throw AudioQueueError(.invalidDevice, "\(d.info.uid) plays \(d.format), not \(engine.channels) channels at \(engine.sampleRate) Hz")
            }
            return d
        } catch let error as AudioDeviceError {
            throw AudioQueueError(error.code == .notFound ? .invalidDevice : .cannotStart, "no output device: \(error)")
        } catch let error as AudioQueueError {
            throw error
        } catch {
            throw AudioQueueError(.cannotStart, "\(error)")
        }
    }

    /// Called by the feed on the device's I/O thread; the work happens on the control queue.
    func deviceReported(_ event: AudioDeviceEvent) {
        switch event {
        case .underrun:
            feed.underruns.add(1, ordering: .relaxed)
        case .overrun:
            break
        case .started:
            controlQueue.async { [weak self] in self?.reportRunning() }
        case .stopped:
            controlQueue.async { [weak self] in self?.finishAsyncStop() }
        case .failed(let error):
            controlQueue.async { [weak self] in
                guard let self else { return }
                let (changed, released) = self.renderLock.withLock { () -> (Bool, AudioQueue?) in
                    let result = self.lock.withLock { () -> (Bool, AudioQueue?) in
                        self.deviceFailure = error
                        self.reportedConverterError = AudioQueueError.Code.queueInvalidated.rawValue
                        guard self.runState != .stopped else { return (false, nil) }
                        self.runState = .stopped
                        self.stopDeviceLocked(drain: false)
                        let k = self.keepAlive
                        self.keepAlive = nil
                        return (true, k)
                    }
                    if result.0 {
                        self.dropEverything(rewinding: true)
                        self.discardDecoded()
                    }
                    return result
                }
                self.scheduleCallbacks()
                self.notify(.converterError, synchronously: false)
                if changed { self.setReportedRunning(false, synchronously: false) }
                withExtendedLifetime(released) {}
            }
        }
    }

    // MARK: Rendering (lock held)

    private func startRenderThread() throws(AudioQueueError) {
        guard renderThread == nil else { return }
        let feed = self.feed
        let exit = renderThreadExit
        do {
            renderThread = try IOThread(name: "aq.render") { [weak self] in
                var active = true
                while !exit.isSet {
                    // Woken when the device has taken half the ring, by enqueues and by
                    // callbacks; the timeout is a safety net.
                    _ = feed.wake.wait(timeout: .now() + .milliseconds(active ? 100 : 500))
                    if exit.isSet { return }
                    guard let queue = self else { return }
                    active = queue.renderThreadTick()
                }
            }
        } catch {
            throw AudioQueueError(.cannotStart, "\(error)")
        }
    }

    /// One round of the render thread; returns whether the queue is playing.
    private func renderThreadTick() -> Bool {
        let work = renderLock.withLock { () -> Bool in
            let live = lock.withLock { deviceRunning && offlineFormat == nil && (runState == .running || runState == .stopping) }
            if live { fillRing() }
            return live
        }
        if work { scheduleCallbacks() }
        return work
    }

    /// Hands the engine the next buffer of the buffer queue.
    private func takeNext() -> QueueEntry? { lock.withLock { pending.popFirst() } }

    /// Empties the pipeline and the buffer queue, the buffers going back through callbacks in
    /// order: the one playing, then the waiting ones. Render lock held, state lock not.
    private func dropEverything(rewinding: Bool) {
        if rewinding { engine.rewind() } else { engine.reset() }
        let position = engine.position
        let dropped = lock.withLock { pending.removeAll(restartingAt: position) }
        engine.finished.append(contentsOf: dropped)
        collectFinished()
    }

    /// Fills the decode ring from the engine (live playback and prime). Render lock held,
    /// state lock not.
    private func fillRing(upTo target: Int = .max) {
        let absorbed = feed.underrunFrames.exchange(0, ordering: .acquiringAndReleasing)
        if absorbed > 0 { engine.position += Int64(absorbed) }
        movePrimedIntoRing()
        while primed.isEmpty && ring.available < target {
            let (pointer, room) = ring.writableRegion(max: min(target - ring.available, 4096))
            guard room > 0 else { break }
            let produced = engine.produce(into: pointer, frameCount: room, next: takeNext)
            if meteringEnabled && produced > 0 { meter(pointer, frames: produced) }
            ring.commit(produced)
            if produced < room { break }
        }
        collectFinished()
        // Stopping and nothing left: the stream ends (buffers enqueued by callbacks still
        // running come back when the stop completes).
        let stopping = lock.withLock { runState == .stopping && pending.isEmpty }
        if stopping && !engine.isBusy && primed.isEmpty {
            feed.endOfStream.store(true, ordering: .releasing)
        }
    }

    private func meter(_ samples: UnsafePointer<Float>, frames: Int) {
        let ch = engine.channels
        for c in 0..<ch {
            var sum: Double = 0
            var peak: Float = 0
            var i = c
            for _ in 0..<frames {
                let x = samples[i]
                sum += Double(x) * Double(x)
                peak = max(peak, abs(x))
                i += ch
            }
            meters[c] = AudioQueueLevelMeterState(averagePower: Float((sum / Double(max(frames, 1))).squareRoot()), peakPower: peak)
        }
    }

    // MARK: Callbacks

    /// Moves the buffers the engine has finished to the callback line. Render lock held,
    /// state lock not.
    private func collectFinished() {
        let error = engine.converterError
        guard !engine.finished.isEmpty || error != lastEngineError else { return }
        lastEngineError = error
        lock.withLock {
            for buffer in engine.finished where buffer.state == .enqueued {
                buffer.state = .completed
                waiting.append(buffer)
                outstanding += 1
            }
            if error != 0 && error != reportedConverterError {
                reportedConverterError = error
                pendingConverterNotice = true
            }
        }
        engine.finished.removeAll(keepingCapacity: true)
    }

    /// The engine's error when last collected (render lock).
    private var lastEngineError: OSStatus = 0

    private var pendingConverterNotice = false

    private var onCallbackQueue: Bool { DispatchQueue.getSpecific(key: callbackKey) == true }

    private func scheduleCallbacks() {
        let (schedule, notice) = lock.withLock { () -> (Bool, Bool) in
            let notice = pendingConverterNotice
            pendingConverterNotice = false
            guard waitingHead < waiting.count, !drainScheduled else { return (false, notice) }
            drainScheduled = true
            return (true, notice)
        }
        if notice { notify(.converterError, synchronously: false) }
        if schedule { callbackQueue.async { [self] in drainCallbacks() } }
    }

    /// Runs the callbacks of every finished buffer, in order, on the callback queue. Returns
    /// false, doing nothing, when called from inside a callback (the drain already running
    /// delivers the rest once that callback returns: callbacks never nest).
    @discardableResult
    private func drainCallbacks() -> Bool {
        let first = lock.withLock { () -> Bool in
            guard !draining else { return false }
            draining = true
            return true
        }
        guard first else { return false }
        while true {
            let next = lock.withLock { () -> (AudioQueueBuffer, Bool)? in
                guard waitingHead < waiting.count else {
                    waiting.removeAll(keepingCapacity: true)
                    waitingHead = 0
                    drainScheduled = false
                    draining = false
                    lock.broadcast()
                    return nil
                }
                let b = waiting[waitingHead]
                waitingHead += 1
                // A buffer freed (or its queue disposed of) meanwhile gets no callback.
                let deliver = b.state == .completed
                if deliver { b.state = .inCallback }
                return (b, deliver)
            }
            guard let (buffer, deliver) = next else { return true }
            if deliver { callback(self, buffer) }
            lock.withLock {
                if buffer.state == .inCallback { buffer.state = .idle }
                outstanding -= 1
                lock.broadcast()
            }
            feed.wake.signal()
        }
    }

    /// Runs every pending callback before returning (reset, stop, dispose); from inside a
    /// callback, they follow as soon as it returns.
    private func drainCallbacksNow() {
        if onCallbackQueue {
            drainCallbacks()
        } else {
            callbackQueue.sync { _ = drainCallbacks() }
        }
    }

    // MARK: Listeners

    /// Adds a listener for a property (`AudioQueueAddPropertyListener`). ``AudioQueuePropertyID/isRunning``
    /// fires when the device really starts and stops; ``AudioQueuePropertyID/converterError``
    /// when decoding fails. Returns a token for ``removePropertyListener(_:)``.
    @discardableResult
    public func addPropertyListener(_ property: AudioQueuePropertyID, _ listener: @escaping PropertyListener) throws(AudioQueueError) -> Int {
        try lock.withLock { () throws(AudioQueueError) -> Int in
            try checkUsable()
            let token = nextToken
            nextToken += 1
            listeners.append((token, property.rawValue, listener))
            return token
        }
    }

    /// Removes a listener (`AudioQueueRemovePropertyListener`); `invalidParameter` for an
    /// unknown token.
    public func removePropertyListener(_ token: Int) throws(AudioQueueError) {
        try lock.withLock { () throws(AudioQueueError) in
            try checkUsable()
            guard let i = listeners.firstIndex(where: { $0.token == token }) else {
                throw AudioQueueError(.invalidParameter, "no listener \(token)")
            }
            listeners.remove(at: i)
        }
    }

    /// The device has started (or an offline queue has): isRunning turns true, if the queue is
    /// still meant to play — checked and set in one step, so a stop in between wins.
    private func reportRunning() {
        let changed = lock.withLock { () -> Bool in
            let playing = runState == .running || runState == .stopping
            guard playing, offlineFormat != nil || deviceRunning, !reportedRunning else { return false }
            reportedRunning = true
            return true
        }
        if changed { notify(.isRunning, synchronously: false) }
    }

    private func setReportedRunning(_ running: Bool, synchronously: Bool) {
        let changed = lock.withLock { () -> Bool in
            guard reportedRunning != running else { return false }
            reportedRunning = running
            return true
        }
        if changed { notify(.isRunning, synchronously: synchronously) }
    }

    private func notify(_ property: AudioQueuePropertyID, synchronously: Bool) {
        let targets = lock.withLock { listeners.filter { $0.id == property.rawValue }.map(\.listener) }
        guard !targets.isEmpty else { return }
        let run: @Sendable () -> Void = { [self] in for l in targets { l(self, property) } }
        if synchronously {
            if onCallbackQueue { run() } else { callbackQueue.sync(execute: run) }
        } else {
            callbackQueue.async(execute: run)
        }
    }

    // MARK: Parameters

    /// Sets a parameter now (`AudioQueueSetParameter`). Volume changes ramp over the
    /// ``AudioQueueParameterID/volumeRampTime``. `invalidParameter` for a value out of range.
    public func setParameter(_ parameter: AudioQueueParameterID, _ value: Float) throws(AudioQueueError) {
        try renderLock.withLock { () throws(AudioQueueError) in
            try lock.withLock { () throws(AudioQueueError) in try checkUsable() }
            try RenderEngine.check(parameter, value)
            engine.set(parameter, value)
        }
    }

    /// Sets a parameter by Apple's numeric ID; `invalidParameter` for an ID that is not one.
    public func setParameter(id: UInt32, _ value: Float) throws(AudioQueueError) {
        guard let parameter = AudioQueueParameterID(rawValue: id) else {
            throw AudioQueueError(.invalidParameter, "no parameter \(id)")
        }
        try setParameter(parameter, value)
    }

    /// The parameter's current value (`AudioQueueGetParameter`).
    public func parameter(_ parameter: AudioQueueParameterID) throws(AudioQueueError) -> Float {
        try renderLock.withLock { () throws(AudioQueueError) -> Float in
            try lock.withLock { () throws(AudioQueueError) in try checkUsable() }
            return engine.parameter(parameter)
        }
    }

    /// A parameter by Apple's numeric ID; `invalidParameter` for an ID that is not one.
    public func parameter(id: UInt32) throws(AudioQueueError) -> Float {
        guard let p = AudioQueueParameterID(rawValue: id) else { throw AudioQueueError(.invalidParameter, "no parameter \(id)") }
        return try parameter(p)
    }

    // MARK: Properties

    /// True from when the device starts playing until it stops (`kAudioQueueProperty_IsRunning`).
    /// Pausing does not change it.
    public var isRunning: Bool { lock.withLock { reportedRunning } }

    /// The magic cookie the decoder was configured with (`kAudioQueueProperty_MagicCookie`).
    public var magicCookie: [UInt8]? { renderLock.withLock { engine.magicCookie } }

    /// Configures the decoder with a magic cookie. Set it before enqueueing compressed data:
    /// `invalidRunState` once buffers are enqueued or the queue runs; `invalidPropertyValue`
    /// when the decoder rejects it.
    public func setMagicCookie(_ cookie: [UInt8]?) throws(AudioQueueError) {
        try renderLock.withLock { () throws(AudioQueueError) in
            try lock.withLock { () throws(AudioQueueError) in
                try checkUsable()
                guard pending.isEmpty, runState == .stopped || runState == .paused else {
                    throw AudioQueueError(.invalidRunState, "set the magic cookie before enqueueing buffers")
                }
            }
            guard !engine.isBusy else { throw AudioQueueError(.invalidRunState, "set the magic cookie before enqueueing buffers") }
            try engine.setMagicCookie(cookie)
        }
    }

    /// The channel layout (`kAudioQueueProperty_ChannelLayout`): what was set, else the
    /// decoder's own order (AAC), else nil.
    public var channelLayout: AudioChannelLayout? {
        renderLock.withLock {
            let codec = engine.outputChannelLayout
            return lock.withLock { layout ?? codec }
        }
    }

    /// Sets the channel layout; `invalidPropertyValue` when its channel count is not the queue's.
    public func setChannelLayout(_ newLayout: AudioChannelLayout?) throws(AudioQueueError) {
        try lock.withLock { () throws(AudioQueueError) in
            try checkUsable()
            if let newLayout, newLayout.numberOfChannels != engine.channels {
                throw AudioQueueError(.invalidPropertyValue, "the layout has \(newLayout.numberOfChannels) channels; the queue has \(engine.channels)")
            }
            layout = newLayout
        }
    }

    /// Whether levels are metered (`kAudioQueueProperty_EnableLevelMetering`).
    public var isLevelMeteringEnabled: Bool { renderLock.withLock { meteringEnabled } }

    /// Turns level metering on or off.
    public func setLevelMeteringEnabled(_ enabled: Bool) throws(AudioQueueError) {
        try renderLock.withLock { () throws(AudioQueueError) in
            try lock.withLock { () throws(AudioQueueError) in try checkUsable() }
            meteringEnabled = enabled
            if !enabled {
                meters = Array(repeating: AudioQueueLevelMeterState(averagePower: 0, peakPower: 0), count: engine.channels)
            }
        }
    }

    /// Per-channel RMS and peak of the most recent render quantum, linear
    /// (`kAudioQueueProperty_CurrentLevelMeter`); ``AudioQueueLevelMeterState/decibels``
    /// gives `kAudioQueueProperty_CurrentLevelMeterDB`. `invalidPropertyValue` while metering is off.
    public func currentLevelMeter() throws(AudioQueueError) -> [AudioQueueLevelMeterState] {
        try renderLock.withLock { () throws(AudioQueueError) -> [AudioQueueLevelMeterState] in
            try lock.withLock { () throws(AudioQueueError) in try checkUsable() }
            guard meteringEnabled else { throw AudioQueueError(.invalidPropertyValue, "level metering is off") }
            return meters
        }
    }

    /// The meter in decibels (`kAudioQueueProperty_CurrentLevelMeterDB`).
    public func currentLevelMeterDB() throws(AudioQueueError) -> [AudioQueueLevelMeterState] {
        try currentLevelMeter().map(\.decibels)
    }

    /// The decode ring for a decode buffer of `decodeBufferFrames`: twice that, because a device
    /// asks for a buffer of about that many frames when it starts (the size is its hint), and
    /// that many should still be decoded ahead after it has taken them. The render thread
    /// refills it once it is half empty.
    private static func makeRing(decodeBufferFrames: Int, channels: Int) -> FloatRing {
        FloatRing(capacity: decodeBufferFrames * 2, channels: channels)
    }

    /// Frames the queue decodes ahead of the device (`kAudioQueueProperty_DecodeBufferSizeFrames`).
    public var decodeBufferSizeFrames: Int { lock.withLock { decodeBufferFrames } }

    /// Sets the decode-ahead size: 256…1,048,576 frames and at least two packets
    /// (`invalidPropertyValue` otherwise), only while stopped (`invalidRunState`).
    public func setDecodeBufferSizeFrames(_ frames: Int) throws(AudioQueueError) {
        try renderLock.withLock { () throws(AudioQueueError) in
            try lock.withLock { () throws(AudioQueueError) in
                try checkUsable()
                guard runState == .stopped, ring.available == 0, primed.isEmpty else {
                    throw AudioQueueError(.invalidRunState, "the decode buffer size can be set only while the queue is stopped and unprimed")
                }
                guard frames >= 256, frames <= 1 << 20, frames >= engine.framesPerPacket * 2 else {
                    throw AudioQueueError(.invalidPropertyValue, "\(frames) frames is outside 256…1048576 (and two packets)")
                }
                decodeBufferFrames = frames
            }
            ring = Self.makeRing(decodeBufferFrames: frames, channels: engine.channels)
            feed.ring = ring
        }
    }

    /// The most recent decoding error, 0 if none (`kAudioQueueProperty_ConverterError`).
    public var converterError: OSStatus { lock.withLock { reportedConverterError } }

    /// Packets that failed to decode and were played as silence.
    public var badPacketCount: Int { renderLock.withLock { engine.badPackets } }

    /// The device's UID (`kAudioQueueProperty_CurrentDevice`): the open device, else the one
    /// asked for; nil when the default will be chosen at start, or in offline mode.
    public var currentDevice: String? {
        lock.withLock { offlineFormat != nil ? nil : (device?.info.uid ?? requestedDeviceUID) }
    }

    /// The open output device's description — its UID, name, and a note when it differs from
    /// what was asked for (ALSA converting through `plughw:`, the default output falling back
    /// to a file); nil before the queue first opens one, or in offline mode.
    public var currentDeviceInfo: AudioDeviceInfo? {
        lock.withLock { offlineFormat != nil ? nil : device?.info }
    }

    /// Chooses the output device by UID (`backend:name`, or a backend name; nil: the default),
    /// opened at the next start. Only while stopped (`invalidRunState`); `invalidDevice`
    /// when no registered backend has that name.
    public func setCurrentDevice(_ uid: String?) throws(AudioQueueError) {
        let old = try lock.withLock { () throws(AudioQueueError) -> (any AudioOutputDevice)? in
            try checkUsable()
            guard runState == .stopped else { throw AudioQueueError(.invalidRunState, "the device can be changed only while the queue is stopped") }
            if let uid {
                let backend = String(uid.split(separator: ":", maxSplits: 1).first ?? "")
                guard AudioBackends.backend(named: backend) != nil else {
                    throw AudioQueueError(.invalidDevice, "no audio backend '\(backend)'")
                }
            }
            requestedDeviceUID = uid
            deviceFailure = nil
            let d = ownsDevice ? device : nil
            device = nil
            ownsDevice = false
            return d
        }
        old?.close()
    }

    /// Uses `device` for output from the next start. Only while stopped (`invalidRunState`);
    /// `invalidDevice` when it does not play the queue's rate and channel count.
    public func setDevice(_ newDevice: any AudioOutputDevice) throws(AudioQueueError) {
        let old = try lock.withLock { () throws(AudioQueueError) -> (any AudioOutputDevice)? in
            try checkUsable()
            guard runState == .stopped else { throw AudioQueueError(.invalidRunState, "the device can be changed only while the queue is stopped") }
            guard Self.fits(newDevice, engine) else {
                throw AudioQueueError(.invalidDevice, "\(newDevice.info.uid) plays \(newDevice.format), not \(engine.channels) channels at \(engine.sampleRate) Hz")
            }
            let d = ownsDevice && device !== newDevice ? device : nil
            device = newDevice
            ownsDevice = false
            deviceFailure = nil
            requestedDeviceUID = newDevice.info.uid
            return d
        }
        old?.close()
    }

    /// The output device's sample rate (`kAudioQueueDeviceProperty_SampleRate`).
    public var deviceSampleRate: Double { lock.withLock { device?.format.sampleRate ?? engine.sampleRate } }
    /// The output device's channel count (`kAudioQueueDeviceProperty_NumberChannels`).
    public var deviceNumberOfChannels: Int { lock.withLock { Int(device?.format.channelsPerFrame ?? UInt32(engine.channels)) } }
    /// The largest packet of the render format, in bytes (`kAudioQueueProperty_MaximumOutputPacketSize`).
    public var maximumOutputPacketSize: Int { Int(engine.floatFormat.bytesPerPacket) }

    // MARK: Time

    /// The queue's time (`AudioQueueGetCurrentTime`): frames played since it started (0 when
    /// stopped) and the host time now. With a `timeline`, also whether playback was
    /// interrupted (an underrun) since that timeline was last asked.
    public func currentTime(timeline: AudioQueueTimeline? = nil) throws(AudioQueueError) -> (timeStamp: AudioTimeStamp, discontinuity: Bool) {
        try lock.withLock { () throws(AudioQueueError) -> (AudioTimeStamp, Bool) in
            try checkUsable()
            if let timeline, timeline.owner != serial {
                throw AudioQueueError(.invalidParameter, "the timeline belongs to another queue")
            }
            var sample: Int64 = 0
            if runState != .stopped {
                if offlineFormat != nil {
                    sample = offlinePosition
                } else {
                    // The device's clock since it started, added to where the queue was then.
                    sample = timeBase
                    if deviceRunning, let device { sample += max(0, device.framesPlayed - playedAtStart) }
                }
            }
            var discontinuity = false
            if let timeline {
                let seen = feed.underruns.load(ordering: .acquiring)
                discontinuity = seen != timeline.seenUnderruns
                timeline.seenUnderruns = seen
            }
            return (AudioTimeStamp(sampleTime: Double(sample), hostTime: HostTime.now(), flags: .sampleHostTimeValid), discontinuity)
        }
    }

    /// A timeline for ``currentTime(timeline:)`` (`AudioQueueCreateTimeline`).
    public func makeTimeline() throws(AudioQueueError) -> AudioQueueTimeline {
        try lock.withLock { () throws(AudioQueueError) -> AudioQueueTimeline in
            try checkUsable()
            return AudioQueueTimeline(owner: serial, seen: feed.underruns.load(ordering: .acquiring))
        }
    }

    /// The output device's time (`AudioQueueDeviceGetCurrentTime`), whether or not the device
    /// is running, as Apple's function gives it: the host time now, and, while the device runs,
    /// the frames it has taken since it was opened (`sampleTimeValid` is set only then).
    /// `invalidOfflineMode` in offline mode.
    public func deviceCurrentTime() throws(AudioQueueError) -> AudioTimeStamp {
        try lock.withLock { () throws(AudioQueueError) -> AudioTimeStamp in
            try checkUsable()
            guard offlineFormat == nil else { throw AudioQueueError(.invalidOfflineMode, "an offline queue has no device") }
            guard deviceRunning, let device else { return AudioTimeStamp(hostTime: HostTime.now(), flags: .hostTimeValid) }
            return AudioTimeStamp(sampleTime: Double(device.framesRendered), hostTime: HostTime.now(), flags: .sampleHostTimeValid)
        }
    }

    // MARK: Offline render

    /// Switches the queue to offline rendering in `format` (a linear PCM format, interleaved,
    /// at the queue's decoded rate and channel count), or back to the device with nil
    /// (`AudioQueueSetOfflineRenderFormat`). Only while stopped (`invalidRunState`).
    public func setOfflineRenderFormat(_ format: AudioStreamBasicDescription?, channelLayout: AudioChannelLayout? = nil) throws(AudioQueueError) {
        try lock.withLock { () throws(AudioQueueError) in
            try checkUsable()
            guard runState == .stopped else { throw AudioQueueError(.invalidRunState, "the render mode can be changed only while the queue is stopped") }
            guard let format else {
                offlineFormat = nil
                offlineLayout = nil
                offlineConverter = nil
                offlineFloat = nil
                offlineOut = nil
                return
            }
            guard format.isPCM, format.isInterleaved || format.channelsPerFrame == 1,
                  Int(format.channelsPerFrame) == engine.channels, format.sampleRate == engine.sampleRate else {
                throw AudioQueueError(.invalidPropertyValue, "offline output must be interleaved linear PCM with \(engine.channels) channels at \(engine.sampleRate) Hz, not \(format)")
            }
            if let channelLayout, channelLayout.numberOfChannels != engine.channels {
                throw AudioQueueError(.invalidPropertyValue, "the layout has \(channelLayout.numberOfChannels) channels; the queue has \(engine.channels)")
            }
            do throws(AudioCodecError) {
                offlineConverter = try PCMConverter(from: engine.floatFormat, to: format)
            } catch {
                throw AudioQueueError(.invalidPropertyValue, "cannot render to \(format): \(error.reason)")
            }
            offlineFormat = format
            offlineLayout = channelLayout
            offlineFloat = nil
            offlineOut = nil
        }
        renderLock.withLock { discardDecoded() }
    }

    /// Renders up to `frameCount` frames into `buffer` in the offline format
    /// (`AudioQueueOfflineRender`), setting its ``AudioQueueBuffer/audioDataByteSize``.
    ///
    /// Deterministic: when the buffer queue runs dry the call waits for outstanding callbacks
    /// (which may enqueue more) before deciding. Fewer frames than asked come back only when
    /// nothing more is enqueued — the end of the stream — and an asynchronous stop then
    /// completes. `timeStamp` must carry a sample time. `invalidOfflineMode` when not in offline
    /// mode; `invalidRunState` unless started; `invalidParameter` when `frameCount` does not
    /// fit the buffer.
    public func offlineRender(at timeStamp: AudioTimeStamp, into buffer: AudioQueueBuffer, frameCount: Int) throws(AudioQueueError) {
        // One snapshot of the offline set-up: a change of format from another thread cannot
        // pull it from under the render.
        struct Setup {
            let bytesPerFrame: Int
            let converter: PCMConverter?
            let float: PCMBuffer?
            let out: PCMBuffer?
        }
        let setup = try lock.withLock { () throws(AudioQueueError) -> Setup in
            // An asynchronous dispose waits for the rendering to reach the end.
            guard !disposed else { throw AudioQueueError(.disposalPending, "the queue has been disposed of") }
            guard let format = offlineFormat, let converter = offlineConverter else {
                throw AudioQueueError(.invalidOfflineMode, "the queue is not in offline mode")
            }
            try checkOwned(buffer)
            guard buffer.state != .enqueued else {
                throw AudioQueueError(.bufferInQueue, "the buffer to render into is enqueued; render into one of its own")
            }
            guard timeStamp.flags.contains(.sampleTimeValid) else {
                throw AudioQueueError(.invalidParameter, "the time stamp has no sample time")
            }
            guard runState == .running || runState == .stopping else {
                throw AudioQueueError(.invalidRunState, "start the queue before rendering")
            }
            let bpf = Int(format.bytesPerFrame)
            guard frameCount >= 0, frameCount <= Int(buffer.audioDataBytesCapacity) / bpf else {
                throw AudioQueueError(.invalidParameter, "\(frameCount) frames do not fit in \(buffer.audioDataBytesCapacity) bytes")
            }
            guard format != engine.floatFormat else { return Setup(bytesPerFrame: bpf, converter: nil, float: nil, out: nil) }
            if (offlineFloat?.frameCapacity ?? -1) < frameCount {
                offlineFloat = PCMBuffer(format: engine.floatFormat, frameCapacity: frameCount)
                offlineOut = PCMBuffer(format: format, frameCapacity: frameCount)
            }
            guard let float = offlineFloat, let out = offlineOut else {
                throw AudioQueueError(.invalidParameter, "cannot allocate \(frameCount) frames")
            }
            return Setup(bytesPerFrame: bpf, converter: converter, float: float, out: out)
        }
        let bpf = setup.bytesPerFrame
        // Frames primed into the ring come first; the rest are rendered straight into the
        // destination — the caller's buffer itself when the offline format is Float32.
        nonisolated(unsafe) let destination = setup.float?.region(0).baseAddress?.assumingMemoryBound(to: Float.self)
            ?? buffer.audioData.assumingMemoryBound(to: Float.self)
        var filled = 0
        var ended = false
        while true {
            enum Step { case done, waitForCallbacks, ended }
            let step = renderLock.withLock { () -> Step in
                let channels = engine.channels
                var dry = false
                while filled < frameCount {
                    let fromRing = ring.read(into: destination + filled * channels, frames: frameCount - filled)
                    filled += fromRing
                    if fromRing > 0 { continue }
                    if primedHead < primed.count {
                        let n = min(frameCount - filled, primedFrames)
                        primed.withUnsafeBufferPointer { (destination + filled * channels).update(from: $0.baseAddress! + primedHead, count: n * channels) }
                        primedHead += n * channels
                        filled += n
                        if primedHead == primed.count { discardPrimed() }
                        continue
                    }
                    let produced = engine.produce(into: destination + filled * channels, frameCount: frameCount - filled, next: takeNext)
                    filled += produced
                    if produced == 0 {
                        dry = true
                        break
                    }
                }
                collectFinished()
                guard dry else { return .done }
                // Dry. While running, callbacks still to come may enqueue more: wait for them.
                // Stopping, or with none outstanding, this is the end.
                return lock.withLock { runState == .running && (outstanding > 0 || !pending.isEmpty) } ? .waitForCallbacks : .ended
            }
            if step == .done { break }
            if step == .ended {
                ended = true
                break
            }
            scheduleCallbacks()
            if onCallbackQueue {
                // Rendering from inside a callback: the others cannot run until it returns, so
                // this render ends short (not the end of the stream).
                if !drainCallbacks() { break }
            } else {
                lock.withLock {
                    if outstanding > 0 && pending.isEmpty { lock.wait(timeoutNanos: 100_000_000) }
                }
            }
        }
        let frames = filled
        renderLock.withLock {
            if meteringEnabled && frames > 0 { meter(destination, frames: frames) }
        }
        if let converter = setup.converter, let float = setup.float, let out = setup.out {
            float.frameLength = frames
            out.frameLength = 0
            do throws(AudioCodecError) {
                try converter.convert(float, appendingTo: out)
                buffer.audioData.copyMemory(from: out.region(0).baseAddress!, byteCount: frames * bpf)
            } catch {
                buffer.audioData.initializeMemory(as: UInt8.self, repeating: 0, count: frames * bpf)
            }
        }
        let stopping = lock.withLock { () -> Bool in
            buffer.audioDataByteSize = UInt32(frames * bpf)
            offlinePosition += Int64(frames)
            return ended && runState == .stopping
        }
        scheduleCallbacks()
        if stopping { finishAsyncStop() }
    }
}

/// A queue's record of timeline discontinuities (Apple's `AudioQueueTimelineRef`).
public final class AudioQueueTimeline: @unchecked Sendable {
    let owner: UInt64
    var seenUnderruns: Int

    init(owner: UInt64, seen: Int) {
        self.owner = owner
        seenUnderruns = seen
    }
}

/// A flag the render thread polls; shared so that the thread never keeps the queue alive.
private final class ExitFlag: Sendable {
    let value = Atomic<Bool>(false)
    var isSet: Bool { value.load(ordering: .acquiring) }
}
