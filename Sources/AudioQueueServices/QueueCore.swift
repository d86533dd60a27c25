import AudioCore
import Dispatch
import Locking
import Synchronization

/// A buffer the queue has finished with, waiting for its callback; for an input queue also
/// what it holds (the callback's start time and packet count).
struct FinishedBuffer {
    let buffer: AudioQueueBuffer
    var startTime = AudioTimeStamp()
    var packetCount = 0
}

/// Buffers on their way back to the program, in the order they finished.
struct CallbackLine {
    private(set) var waiting: [FinishedBuffer] = []
    private var head = 0
    /// Finished buffers whose callbacks have not returned yet.
    private(set) var outstanding = 0
    /// A delivery is on its way to the callback queue.
    var scheduled = false
    /// A delivery loop is running (callbacks never nest).
    var delivering = false
    /// Resets, stops and disposals in progress; enqueueing is refused meanwhile.
    var refusals = 0

    var hasWaiting: Bool { head < waiting.count }

    /// Queues `finished` for its callback if its buffer is still enqueued (not freed).
    mutating func append(_ finished: FinishedBuffer) {
        guard finished.buffer.state == .enqueued else { return }
        finished.buffer.state = .completed
        waiting.append(finished)
        outstanding += 1
    }

    /// The next buffer to deliver, nil when none is left (the delivery loop then ends).
    mutating func next() -> FinishedBuffer? {
        guard head < waiting.count else {
            waiting.removeAll(keepingCapacity: true)
            head = 0
            return nil
        }
        defer { head += 1 }
        return waiting[head]
    }

    mutating func delivered() { outstanding -= 1 }
}

/// A property listener with the token that removes it.
struct ListenerEntry<Owner> {
    let token: Int
    let id: UInt32
    let listener: @Sendable (Owner, AudioQueuePropertyID) -> Void
}

/// Everything behind a queue's state lock: the run state, the buffers, the callback line, the
/// listeners, and what only one direction has (`Side`).
struct QueueState<Owner: AnyObject, Side> {
    var phase = QueuePhase.initial
    var buffers: [ObjectIdentifier: AudioQueueBuffer] = [:]
    var line = CallbackLine()
    var listeners: [ListenerEntry<Owner>] = []
    var nextToken = 1
    /// What `kAudioQueueProperty_IsRunning` last told listeners.
    var reportedRunning = false
    /// The queue itself while it runs live: the program need not keep a reference.
    var keepAlive: Owner?
    /// Tasks waiting in `stop()` or `playToEnd()` for the queue to have stopped (one-shot).
    var stopWaiters: [@Sendable () -> Void] = []
    /// Told each time the queue has stopped, and whether it has been disposed of (an input
    /// queue's recorded-buffers sequence); called with the state lock held, so it takes no
    /// lock of the queue's.
    var stopObserver: (@Sendable (_ disposed: Bool) -> Void)?
    /// What finishes each property stream, by its listener's token (called at disposal).
    var streamEnds: [Int: @Sendable () -> Void] = [:]
    var side: Side

    init(side: Side) { self.side = side }

    func checkUsable() throws(AudioQueueError) { try phase.checkUsable() }
}

/// What output and input queues share: buffer ownership, the callback line and its delivery on
/// the callback queue, property listeners, and the state lock that guards them with the
/// direction's own state.
///
/// Program code (callbacks, listeners) runs on the callback queue, one call at a time, never
/// with the lock held.
final class QueueCore<Owner: AnyObject & Sendable, Side>: Sendable {
    typealias State = QueueState<Owner, Side>
    /// This queue among all made by the process: what its buffers and timelines belong to (an
    /// address could be reused by a later queue).
    let serial: UInt64
    let state: Guarded<QueueState<Owner, Side>>
    let callbackQueue: DispatchQueue
    private let callbackKey = DispatchSpecificKey<Bool>()
    /// Device events and scheduled starts run here, off the device's I/O thread.
    let controlQueue = DispatchQueue(label: "AudioQueue.control")
    /// Serializes the device's start, pause, stop and close (see ``QueueDirection``).
    let transitions: DeviceTransitions
    /// Tells the queue's own thread (render or capture) to end.
    let threadExit = ExitFlag()
    private let deliver: @Sendable (Owner, FinishedBuffer) -> Void
    /// Called after each buffer's turn in the callback line, once its callback has returned
    /// or was skipped (the input queue wakes its capture thread; the output queue counts the
    /// buffer back from the program).
    private let afterCallback: (@Sendable () -> Void)?

    init(
        side: Side, callbackQueue: DispatchQueue?, deliver: @escaping @Sendable (Owner, FinishedBuffer) -> Void,
        afterCallback: (@Sendable () -> Void)? = nil
    ) {
        let serial = QueueSerials.next()
        self.serial = serial
        transitions = DeviceTransitions(queue: serial)
        state = Guarded(QueueState(side: side), rank: .state)
        let queue = callbackQueue ?? DispatchQueue(label: "AudioQueue.callbacks")
        self.callbackQueue = queue
        self.deliver = deliver
        self.afterCallback = afterCallback
        queue.setSpecific(key: callbackKey, value: true)
    }

    var onCallbackQueue: Bool { DispatchQueue.getSpecific(key: callbackKey) == true }

    /// `invalidTapContext` on a thread running a processing tap: for members that do something
    /// slow (open a device) before they take a lock that would refuse them anyway.
    func refuseInsideTap(_ call: StaticString = #function) throws(AudioQueueError) {
        try TapThread.refuse(serial, call)
    }

    // MARK: Buffers

    func allocateBuffer(byteCapacity: Int, packetDescriptionCapacity: Int) throws(AudioQueueError) -> AudioQueueBuffer {
        try state.withLock { s throws(AudioQueueError) -> AudioQueueBuffer in
            try s.checkUsable()
            guard byteCapacity > 0, byteCapacity <= 1 << 30 else {
                throw AudioQueueError(.invalidParameter, "a buffer holds 1 byte to 1 GiB, not \(byteCapacity)")
            }
            guard packetDescriptionCapacity >= 0, packetDescriptionCapacity <= 1 << 22 else {
                throw AudioQueueError(.invalidParameter, "\(packetDescriptionCapacity) packet descriptions is out of range")
            }
            let buffer = AudioQueueBuffer(
                owner: serial, capacity: byteCapacity, packetDescriptionCapacity: packetDescriptionCapacity)
            s.buffers[ObjectIdentifier(buffer)] = buffer
            return buffer
        }
    }

    func freeBuffer(_ buffer: AudioQueueBuffer) throws(AudioQueueError) {
        try state.withLock { s throws(AudioQueueError) in
            try s.checkUsable()
            try checkOwned(buffer)
            switch buffer.state {
            case .enqueued, .completed:
                throw AudioQueueError(.bufferInQueue, "the buffer is enqueued; it can be freed once its callback has it")
            case .idle, .inCallback:
                buffer.state = .freed
                s.buffers[ObjectIdentifier(buffer)] = nil
            case .freed:
                throw AudioQueueError(.invalidBuffer, "the buffer was already freed")
            }
        }
    }

    /// `invalidBuffer` unless `buffer` is a live buffer of this queue (state lock held).
    func checkOwned(_ buffer: AudioQueueBuffer) throws(AudioQueueError) {
        state.assertHeld()
        guard buffer.owner == serial else { throw AudioQueueError(.invalidBuffer, "the buffer belongs to another queue") }
        guard buffer.state != .freed else { throw AudioQueueError(.invalidBuffer, "the buffer has been freed") }
    }

    /// The checks of `AudioQueueEnqueueBuffer` common to both directions (state lock held).
    func checkEnqueue(_ buffer: AudioQueueBuffer, in s: QueueState<Owner, Side>) throws(AudioQueueError) {
        try s.checkUsable()
        guard s.line.refusals == 0 else {
            throw AudioQueueError(.enqueueDuringReset, "buffers cannot be enqueued while the queue is being reset, stopped or disposed of")
        }
        try checkOwned(buffer)
        switch buffer.state {
        case .enqueued: throw AudioQueueError(.bufferEnqueuedTwice, "the buffer is already enqueued")
        case .completed: throw AudioQueueError(.bufferEnqueuedTwice, "the buffer is still waiting for its callback")
        case .idle, .inCallback, .freed: break
        }
    }

    /// Frees every buffer (disposal; state lock held).
    func freeAll(in s: inout QueueState<Owner, Side>) {
        for buffer in s.buffers.values { buffer.state = .freed }
        s.buffers.removeAll()
        s.listeners.removeAll()
    }

    // MARK: Callbacks

    /// Sends the finished buffers to the callback queue unless a delivery is already on its way.
    func scheduleCallbacks(_ owner: Owner) {
        if state.withLock(claimDelivery) { startDelivery(owner) }
    }

    /// Whether finished buffers wait and no delivery is on its way; if so, marks one on its way
    /// for the caller to start with ``startDelivery(_:)`` once it has let go of the lock
    /// (state lock held).
    func claimDelivery(_ s: inout State) -> Bool {
        guard s.line.hasWaiting, !s.line.scheduled else { return false }
        s.line.scheduled = true
        return true
    }

    /// Sends the delivery ``claimDelivery(_:)`` claimed to the callback queue (no lock held).
    func startDelivery(_ owner: Owner) {
        callbackQueue.async { [self] in drainCallbacks(owner) }
    }

    /// Runs the callback of every finished buffer, in order, on the callback queue. Returns
    /// false, doing nothing, when called from inside a callback (the loop already running
    /// delivers the rest once that callback returns: callbacks never nest).
    @discardableResult
    func drainCallbacks(_ owner: Owner) -> Bool {
        state.assertNotHeld()
        let first = state.withLock { s -> Bool in
            guard !s.line.delivering else { return false }
            s.line.delivering = true
            return true
        }
        guard first else { return false }
        while true {
            let next = state.withLock { s -> (FinishedBuffer, Bool)? in
                guard let f = s.line.next() else {
                    s.line.scheduled = false
                    s.line.delivering = false
                    state.broadcast()
                    return nil
                }
                // A buffer freed (or its queue disposed of) meanwhile gets no callback.
                let deliver = f.buffer.state == .completed
                if deliver { f.buffer.state = .inCallback }
                return (f, deliver)
            }
            guard let (finished, deliverIt) = next else {
                // A stop asked for from inside a callback completes here, after that callback.
                checkStopped()
                return true
            }
            if deliverIt { deliver(owner, finished) }
            state.withLock { s in
                if finished.buffer.state == .inCallback { finished.buffer.state = .idle }
                s.line.delivered()
                state.broadcast()
            }
            afterCallback?()
        }
    }

    /// Runs every pending callback before returning (reset, stop, dispose); from inside a
    /// callback, they follow as soon as it returns.
    func drainCallbacksNow(_ owner: Owner) {
        if onCallbackQueue {
            drainCallbacks(owner)
        } else {
            callbackQueue.sync { _ = drainCallbacks(owner) }
        }
    }

    // MARK: Listeners

    func addListener(_ property: AudioQueuePropertyID, _ listener: @escaping @Sendable (Owner, AudioQueuePropertyID) -> Void) throws(AudioQueueError) -> Int {
        _ = try AudioQueuePropertyID.supported(property.rawValue)
        return try state.withLock { s throws(AudioQueueError) -> Int in
            try s.checkUsable()
            let token = s.nextToken
            s.nextToken += 1
            s.listeners.append(ListenerEntry(token: token, id: property.rawValue, listener: listener))
            return token
        }
    }

    func removeListener(_ token: Int) throws(AudioQueueError) {
        try state.withLock { s throws(AudioQueueError) in
            try s.checkUsable()
            guard let i = s.listeners.firstIndex(where: { $0.token == token }) else {
                throw AudioQueueError(.invalidParameter, "no listener \(token)")
            }
            s.listeners.remove(at: i)
        }
    }

    /// Calls the listeners of `property` on the callback queue (waiting for them when
    /// `synchronously`).
    func notify(_ owner: Owner, _ property: AudioQueuePropertyID, synchronously: Bool) {
        let targets = state.withLock { s in s.listeners.filter { $0.id == property.rawValue }.map(\.listener) }
        guard !targets.isEmpty else { return }
        let run: @Sendable () -> Void = { for l in targets { l(owner, property) } }
        if synchronously {
            if onCallbackQueue { run() } else { callbackQueue.sync(execute: run) }
        } else {
            callbackQueue.async(execute: run)
        }
    }

    /// After an asynchronous stop: `isRunning` turns false once every callback scheduled so far
    /// has run, so that a program waiting for it has every buffer (unless the queue was started
    /// again meanwhile).
    func reportStoppedAfterCallbacks(_ owner: Owner) {
        callbackQueue.async { [self] in
            drainCallbacks(owner)
            if state.withLock({ !$0.phase.isActive }) { setReportedRunning(owner, false, synchronously: true) }
            checkStopped()
        }
    }

    /// Sets what `isRunning` says and tells its listeners if that changed.
    func setReportedRunning(_ owner: Owner, _ running: Bool, synchronously: Bool) {
        let changed = state.withLock { s -> Bool in
            guard s.reportedRunning != running else { return false }
            s.reportedRunning = running
            return true
        }
        if changed { notify(owner, .isRunning, synchronously: synchronously) }
    }
}

/// Serial numbers for queues.
enum QueueSerials {
    private static let counter = Atomic<UInt64>(0)
    static func next() -> UInt64 { counter.add(1, ordering: .relaxed).newValue }
}
