public import AudioCore
public import AudioDevices
public import Dispatch
import AudioCodecs
import Locking
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
///
/// ``AudioInputQueue`` is its recording counterpart; both are built on the same run-state
/// machine, buffer ownership and callback line.
///
/// `Sendable`, checked by the compiler: every stored property is a constant of a `Sendable`
/// type; what changes lives behind the queue's locks (see <doc:Threading>).
public final class AudioQueue: Sendable {
    /// The output callback (`AudioQueueOutputCallback`): a buffer the queue has finished with.
    public typealias OutputCallback = @Sendable (_ queue: AudioQueue, _ buffer: AudioQueueBuffer) -> Void
    /// A property listener (`AudioQueuePropertyListenerProc`).
    public typealias PropertyListener = @Sendable (_ queue: AudioQueue, _ property: AudioQueuePropertyID) -> Void
    /// Where a queue is in its life cycle.
    public typealias RunState = AudioQueueRunState
    typealias Core = QueueCore<AudioQueue, OutputSide>
    /// How the shared device code drives an output device.
    static let driver = DeviceDriver<any AudioOutputDevice>(
        direction: "output", info: { $0.info }, format: { ($0 as? PlacedOutputDevice)?.deviceFormat ?? $0.format }, stop: { $0.stop(drain: $1) }, pause: { $0.pause() },
        close: { $0.close() }, clock: { $0.framesPlayed }, sampleTime: { $0.framesRendered })

    /// The format of the data the program enqueues (`kAudioQueueProperty_StreamDescription`).
    public let streamDescription: AudioStreamBasicDescription
    /// The run state, buffers, callback line, listeners and the output side's state, behind
    /// the state lock (held only briefly, never while decoding or while a device changes state).
    let core: Core
    /// The render lock: engine, decode ring, primed frames, meter. Taken before the state lock;
    /// neither is held while program code runs.
    let render: PipelineLock<DecodeAhead>
    /// Plans enqueued buffers without the render lock.
    let planner: EntryPlanner
    /// The device's side: read by its I/O thread without locks.
    let feed: OutputFeed
    let channels: Int
    let sampleRate: Double
    let floatFormat: AudioStreamBasicDescription
    private let callback: OutputCallback

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
        let engine = try RenderEngine(format: format, magicCookie: nil)
        self.callback = callback
        channels = engine.channels
        sampleRate = engine.sampleRate
        floatFormat = engine.floatFormat
        planner = engine.planner
        let decodeBufferFrames = max(4096, engine.framesPerPacket * 2)
        let ahead = DecodeAhead(engine: engine, decodeBufferFrames: decodeBufferFrames)
        feed = OutputFeed(ring: ahead.ring, channels: engine.channels)
        let feed = self.feed
        core = QueueCore(
            side: OutputSide(decodeBufferFrames: decodeBufferFrames), callbackQueue: callbackQueue,
            deliver: { queue, finished in queue.callback(queue, finished.buffer) },
            afterCallback: { feed.buffersOut.subtract(1, ordering: .sequentiallyConsistent) })
        render = PipelineLock(ahead, queue: core.serial)
        feed.queue = self
        if let device {
            if let why = mismatch(device) { throw AudioQueueError(.invalidDevice, why) }
            core.state.withLock { s in _ = s.side.session.replace(with: device, owned: false, uid: nil) }
        }
    }

    deinit { releaseOnDeinit() }

    /// The format the queue renders: interleaved Float32 at the decoded rate and channel count.
    public var renderFormat: AudioStreamBasicDescription { floatFormat }

    /// Where the queue is in its life cycle.
    public var state: RunState { runState }

    // MARK: Buffers

    /// Allocates a buffer of `byteCapacity` bytes with room for `packetDescriptionCapacity`
    /// packet descriptions (`AudioQueueAllocateBuffer`, or
    /// `AudioQueueAllocateBufferWithPacketDescriptions` when the count is above 0).
    public func allocateBuffer(byteCapacity: Int, packetDescriptionCapacity: Int = 0) throws(AudioQueueError) -> AudioQueueBuffer {
        try core.allocateBuffer(byteCapacity: byteCapacity, packetDescriptionCapacity: packetDescriptionCapacity)
    }

    /// Frees a buffer (`AudioQueueFreeBuffer`); `bufferInQueue` while it is enqueued.
    /// A buffer may be freed from inside its own callback.
    public func freeBuffer(_ buffer: AudioQueueBuffer) throws(AudioQueueError) {
        try core.freeBuffer(buffer)
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
        let (stamp, wake) = try core.state.withLock { s throws(AudioQueueError) -> (AudioTimeStamp, Bool) in
            try core.checkEnqueue(buffer, in: s)
            var requested: Int64?
            if let startTime {
                guard startTime.flags.contains(.sampleTimeValid), startTime.sampleTime >= 0, startTime.sampleTime < 1e15 else {
                    throw AudioQueueError(.invalidParameter, "a start time must be a sample time at or after 0")
                }
                requested = Int64(startTime.sampleTime)
            }
            let entry = try planner.makeEntry(
                buffer: buffer, descriptions: packetDescriptions, trimStart: trimFramesAtStart, trimEnd: trimFramesAtEnd,
                events: parameterEvents, requestedStart: requested, pending: s.side.pending)
            s.side.pending.append(entry, requestedStart: requested)
            s.side.offline?.atEnd = false
            buffer.state = .enqueued
            feed.buffersOut.add(1, ordering: .sequentiallyConsistent)
            let stamp = AudioTimeStamp(sampleTime: Double(entry.startTime), flags: .sampleTimeValid)
            // The render thread need only hear of it when the engine is waiting for a buffer:
            // otherwise it is busy with earlier ones, and the device wakes it as it plays them.
            defer { s.side.engineWaiting = false }
            return (stamp, s.side.engineWaiting)
        }
        if wake { feed.wake.signal() }
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
        try startQueue(at: time)
    }

    /// Decodes enqueued buffers ahead of playback (`AudioQueuePrime`) so that starting plays at
    /// once. Prepares at least `frames` frames if that many are enqueued (0: every enqueued
    /// buffer) and returns the frames prepared — all that is decoded and waiting to play,
    /// which may be more than asked for.
    @discardableResult
    public func prime(frames: Int = 0) throws(AudioQueueError) -> Int {
        try core.refuseInsideTap()
        let prepared = try render.withLock { r throws(AudioQueueError) -> Int in
            try core.state.withLock { s throws(AudioQueueError) in
                try s.checkUsable()
                guard !s.phase.isStopping else { throw AudioQueueError(.invalidRunState, "the queue is stopping") }
                guard frames >= 0 else { throw AudioQueueError(.invalidParameter, "cannot prime \(frames) frames") }
            }
            let target = frames > 0 ? frames : .max
            fill(&r, upTo: min(target, r.ring.capacity))
            let prepared = r.prime(upTo: target, next: takeNext)
            collectFinished(&r)
            return prepared
        }
        scheduleCallbacks()
        return prepared
    }

    /// Pauses playback, keeping enqueued buffers and the position (`AudioQueuePause`);
    /// ``start(at:)`` resumes. A queue stopping asynchronously pauses too, and goes on
    /// stopping when it resumes: a player can pause in the last seconds of a file.
    public func pause() throws(AudioQueueError) { try pauseQueue() }

    /// Stops playback (`AudioQueueStop`).
    ///
    /// Immediately: silences now and hands every enqueued buffer back through the callback
    /// before returning (called from inside a callback: right after that callback returns);
    /// no callback follows. Asynchronously: plays everything enqueued, then stops, and
    /// ``AudioQueuePropertyID/isRunning`` listeners hear when it has. Asked of a queue that is
    /// stopped or paused, an asynchronous stop takes effect once the queue is started and has
    /// played what is enqueued.
    public func stop(immediate: Bool) throws(AudioQueueError) { try stopQueue(immediate: immediate) }

    /// Makes sure everything enqueued is decoded and will play, even if it does not fill the
    /// decode buffer (`AudioQueueFlush`). Call after enqueueing the last buffer.
    public func flush() throws(AudioQueueError) {
        try core.refuseInsideTap()
        try render.withLock { r throws(AudioQueueError) in
            let live = try core.state.withLock { s throws(AudioQueueError) -> Bool in
                try s.checkUsable()
                return s.side.offline == nil && s.phase.isActive
            }
            // The time/pitch unit gives out what it holds once the buffer queue is empty.
            if live { fill(&r, ending: r.chain.timePitch != nil) }
        }
        scheduleCallbacks()
    }

    /// Silences the queue at once, hands every enqueued buffer back through the callback, and
    /// resets decoder and DSP state (`AudioQueueReset`). A running queue keeps running.
    public func reset() throws(AudioQueueError) { try resetQueue() }

    /// Disposes of the queue and its buffers (`AudioQueueDispose`). Immediately: stops now.
    /// Otherwise: once everything enqueued has played. Later calls throw `disposalPending`.
    public func dispose(immediate: Bool) throws(AudioQueueError) { try disposeQueue(immediate: immediate) }

    /// The end of an asynchronous stop: everything has played.
    func finishAsyncStop() {
        let (stopped, dispose, released) = transitions.runOnQueueThread {
            render.withLockOnQueueThread { concludeAsynchronousStop(&$0) }
        }
        finishStopping(stopped, thenDispose: dispose, released: released)
    }

    /// `invalidTapContext` on a thread running a processing tap (for the C API, which releases a
    /// handle before the call that would refuse).
    package func refuseInsideTap(_ call: StaticString) throws(AudioQueueError) { try core.refuseInsideTap(call) }

    // MARK: Listeners

    /// Adds a listener for a property (`AudioQueueAddPropertyListener`). ``AudioQueuePropertyID/isRunning``
    /// fires when the device really starts and stops; ``AudioQueuePropertyID/converterError``
    /// when decoding fails. Returns a token for ``removePropertyListener(_:)``; `invalidProperty`
    /// for a property the queues do not have.
    @discardableResult
    public func addPropertyListener(_ property: AudioQueuePropertyID, _ listener: @escaping PropertyListener) throws(AudioQueueError) -> Int {
        try core.addListener(property, listener)
    }

    /// Removes a listener (`AudioQueueRemovePropertyListener`); `invalidParameter` for an
    /// unknown token.
    public func removePropertyListener(_ token: Int) throws(AudioQueueError) { try core.removeListener(token) }
}

/// A queue's record of timeline discontinuities (Apple's `AudioQueueTimelineRef`).
public final class AudioQueueTimeline: Sendable {
    let owner: UInt64
    /// The count of discontinuities this timeline last saw.
    private let seen: Guarded<Int>

    init(owner: UInt64, seen: Int) {
        self.owner = owner
        self.seen = Guarded(seen)
    }

    /// Whether the queue's count of discontinuities moved to `count` since this timeline last
    /// looked; remembers it.
    func observe(_ count: Int) -> Bool {
        seen.withLock { seen in
            defer { seen = count }
            return count != seen
        }
    }
}

/// A flag a queue's own thread polls; shared so that the thread never keeps the queue alive.
final class ExitFlag: Sendable {
    let value = Atomic<Bool>(false)
    var isSet: Bool { value.load(ordering: .acquiring) }
}
