import CAudioToolbox
import AudioCore
import AudioQueueServices
import AudioQueueKit
import Dispatch
import Locking

/// What an `AudioQueueRef` stands for: a Swift queue of either direction, the program's
/// callback and user data, where its callbacks run, the C view of each buffer, and its
/// listeners.
final class QueueBox: @unchecked Sendable {
    enum Queue {
        case output(AudioQueue)
        case input(AudioInputQueue)
    }

    static let table = HandleTable<QueueBox>(kind: 1)
    /// Queues disposed of asynchronously, kept (under their own handles) until they have
    /// played what was enqueued.
    static let finishing = HandleTable<QueueBox>(kind: 2)

    /// Weakly held by the Swift queue's closures, which exist before the box does.
    final class WeakRef: @unchecked Sendable { weak var box: QueueBox? }

    var queue: Queue!
    var handle: UInt = 0
    var ref: AudioQueueRef { handle.opaque }
    let userData: UnsafeMutableRawPointer?
    let runLoop: RunLoop?
    let mode: String
    /// Where the Swift queue runs its callbacks: the program's when there is no run loop, and
    /// where the library orders its own work after them.
    let callbackQueue = DispatchQueue(label: "AudioToolbox.queue.callbacks")
    /// What the C API's calls on this queue share.
    struct State {
        /// The C buffers of this queue, each the view of one Swift buffer. A freed buffer's
        /// view goes at once: a handle the program still has is then not found (so refused
        /// with kAudioQueueErr_InvalidBuffer without being read), and a callback posted before
        /// the free is not delivered (see ``holds(_:)``).
        var buffers: [UnsafeMutableRawPointer: AudioQueueServices.AudioQueueBuffer] = [:]
        /// C views allocated and not yet deallocated.
        var views = 0
        var listeners: [(id: UInt32, proc: AudioQueuePropertyListenerProc, userData: UnsafeMutableRawPointer?, token: Int, key: Int)] = []
        var nextListenerKey = 0
        var disposed = false
        /// Set while the run loop's own thread renders offline: callbacks run at once (that
        /// thread is inside AudioQueueOfflineRender and cannot run its loop), as Apple's do.
        var inline = false
        /// Program callbacks running inline; the render waits for them before it returns.
        var inlineRunning = 0
        /// Set while an asynchronous disposal plays out (the box is then in `finishing`).
        var finishingHandle: UInt?
    }

    let state = Guarded(State())

    init(userData: UnsafeMutableRawPointer?, runLoop: RunLoop?, mode: String) {
        self.userData = userData
        self.runLoop = runLoop
        self.mode = mode
    }

    deinit {
        state.withLock { s in
            for c in s.buffers.keys { c.deallocate() }
        }
    }

    static func make(userData: UnsafeMutableRawPointer?, runLoop: CFRunLoopRef?, mode: CFStringRef?) -> QueueBox? {
        AudioToolboxSetUp.audioInUse()
        var loop: RunLoop?
        if let runLoop {
            guard let l = RunLoop.from(runLoop) else { return nil }
            loop = l
        }
        var name = RunLoop.commonModes
        if let mode {
            guard let m = RunLoops.mode(mode) else { return nil }
            name = m
        }
        return QueueBox(userData: userData, runLoop: loop, mode: name)
    }

    /// Registers the box under a new handle, attaches it to its run loop, and listens for the
    /// end of an asynchronous disposal.
    func register() {
        handle = Self.table.insert(self)
        runLoop?.attachSource()
    }

    /// A listener that lets go of the queue once an asynchronous disposal has played out, added
    /// just before the disposal (after every listener of the program's, which a disposing queue
    /// no longer takes): the release is posted to the run loop in the same pass as, and right
    /// after, the program's last `IsRunning` call. Nil when the queue takes no listener.
    func addFinishingListener() -> Int? {
        try? addSwiftListener(.isRunning) { [weak self] running in
            if !running { self?.finishDisposal() }
        }
    }

    /// Lets go of a queue disposed of asynchronously once it has stopped: after what was
    /// posted to its run loop before (its last callbacks and listener calls) has run.
    func finishDisposal() {
        guard let finishing = state.withLock({ $0.finishingHandle }) else { return }
        let finish = { if Self.finishing.remove(finishing) != nil { self.retire() } }
        if let runLoop { runLoop.post(mode: mode, finish) } else { finish() }
    }

    var isDisposed: Bool { state.withLock { $0.disposed } }

    /// The box for a handle: a live queue, or one playing out an asynchronous disposal (whose
    /// calls then answer kAudioQueueErr_DisposalPending).
    static func find(_ handle: AudioQueueRef?) -> QueueBox? {
        table.object(handle) ?? finishing.object(handle)
    }

    /// Runs program code where the queue's callbacks run. `buffer`, when given, must still be
    /// the queue's (not freed) when the code runs.
    func deliver(buffer: AudioQueueServices.AudioQueueBuffer? = nil, _ work: @escaping () -> Void) {
        let runInline = state.withLock { s -> Bool in
            guard runLoop == nil || s.inline else { return false }
            s.inlineRunning += 1
            return true
        }
        if runInline {
            if !isDisposed && (buffer.map(holds) ?? true) { work() }
            state.withLock { s in
                s.inlineRunning -= 1
                state.broadcast()
            }
            return
        }
        runLoop!.post(mode: mode) { [weak self] in
            guard let self, !self.isDisposed, buffer.map(self.holds) ?? true else { return }
            work()
        }
    }

    /// Callbacks run at once from here until `endInline` (offline render on the run loop's thread).
    func beginInline() { state.withLock { $0.inline = true } }

    /// Back to posting; waits for callbacks still running inline.
    func endInline() {
        state.withLock { $0.inline = false }
        // Each wait ends its hold on the state, which the next round looks at afresh.
        while state.withLock({ s -> Bool in
            guard s.inlineRunning > 0 else { return false }
            state.wait(timeoutNanos: 1_000_000_000)
            return true
        }) {}
    }

    // MARK: Buffers

    /// Makes the C view of a Swift buffer.
    func add(_ buffer: AudioQueueServices.AudioQueueBuffer) -> AudioQueueBufferRef {
        let c = UnsafeMutablePointer<CAudioToolbox.AudioQueueBuffer>.allocate(capacity: 1)
        c.initialize(to: CAudioToolbox.AudioQueueBuffer(
            mAudioDataBytesCapacity: UInt32(buffer.audioDataBytesCapacity), mAudioData: buffer.audioData,
            mAudioDataByteSize: 0, mUserData: nil, mPacketDescriptionCapacity: UInt32(buffer.packetDescriptionCapacity),
            mPacketDescriptions: buffer.packetDescriptions.map { UnsafeMutableRawPointer($0).assumingMemoryBound(to: CAudioToolbox.AudioStreamPacketDescription.self) },
            mPacketDescriptionCount: 0))
        buffer.userData = UInt(bitPattern: c)
        state.withLock { s in
            s.buffers[UnsafeMutableRawPointer(c)] = buffer
            s.views += 1
        }
        return c
    }

    /// The Swift buffer behind a C one of this queue; nil for any other pointer (a freed
    /// buffer's among them), which is not read.
    func buffer(_ c: AudioQueueBufferRef?) -> AudioQueueServices.AudioQueueBuffer? {
        guard let c else { return nil }
        return state.withLock { $0.buffers[UnsafeMutableRawPointer(c)] }
    }

    /// Runs `body` with the C view of `buffer` while it is this queue's: the view cannot be
    /// freed meanwhile. Nil, without running it, once the buffer has been freed (its view may
    /// then be another buffer's, at the same address).
    func withView<T>(of buffer: AudioQueueServices.AudioQueueBuffer, _ body: (AudioQueueBufferRef) -> T) -> T? {
        guard let c = Self.cView(of: buffer) else { return nil }
        return state.withLock { s in s.buffers[UnsafeMutableRawPointer(c)] === buffer ? body(c) : nil }
    }

    /// True while `buffer` is this queue's (not freed).
    func holds(_ buffer: AudioQueueServices.AudioQueueBuffer) -> Bool { withView(of: buffer) { _ in true } ?? false }

    /// Frees the C view of a buffer the Swift queue has freed.
    func remove(_ c: AudioQueueBufferRef) {
        state.withLock { s in
            guard s.buffers.removeValue(forKey: UnsafeMutableRawPointer(c)) != nil else { return }
            c.deallocate()
            s.views -= 1
        }
    }

    /// The C views of buffers this queue holds, counted until each is deallocated: those of the
    /// buffers allocated and not freed.
    var bufferCount: Int { state.withLock { $0.views } }

    static func cView(of buffer: AudioQueueServices.AudioQueueBuffer) -> AudioQueueBufferRef? {
        guard let bits = buffer.userData as? UInt else { return nil }
        return UnsafeMutablePointer(bitPattern: bits)
    }

    // MARK: Listeners

    /// A key for a listener about to be added; its calls check it is still there.
    func newListenerKey() -> Int {
        state.withLock { s in
            s.nextListenerKey += 1
            return s.nextListenerKey
        }
    }

    func addListener(_ id: UInt32, _ proc: AudioQueuePropertyListenerProc, _ userData: UnsafeMutableRawPointer?, token: Int, key: Int) {
        state.withLock { $0.listeners.append((id, proc, userData, token, key)) }
    }

    func hasListener(key: Int) -> Bool { state.withLock { s in s.listeners.contains { $0.key == key } } }

    /// Removes the listener added with this procedure and user data; its token, or nil.
    func removeListener(_ id: UInt32, _ proc: AudioQueuePropertyListenerProc, _ userData: UnsafeMutableRawPointer?) -> Int? {
        state.withLock { s in
            guard let i = s.listeners.firstIndex(where: {
                $0.id == id && unsafeBitCast($0.proc, to: UnsafeRawPointer.self) == unsafeBitCast(proc, to: UnsafeRawPointer.self)
                    && $0.userData == userData
            }) else { return nil }
            return s.listeners.remove(at: i).token
        }
    }


    // MARK: Disposal

    /// Marks the box disposed of (nothing more is delivered) and unregisters it.
    func retire() {
        state.withLock { $0.disposed = true }
        Self.table.remove(handle)
        TapBox.removeAll(of: self)
        runLoop?.detachSource()
    }
}

/// Registers the package's codecs and sound backends once, before the first queue or file
/// (`once`); and, when the process first uses the audio system — a queue or the HAL, not a file
/// or a parser — gives the main run loop the source a Mac's HAL adds there (`audioInUse`).
enum AudioToolboxSetUp {
    private static let done: Void = { AudioQueueKit.registerAll() }()
    private static let audio: Void = {
        once()
        RunLoops.audioInUse()
    }()
    static func once() { _ = done }
    static func audioInUse() { _ = audio }
}

/// What the C API asks of a queue of either direction; both Swift types have these calls.
protocol QueueControl: AnyObject, Sendable {
    var isRunning: Bool { get }
    var state: AudioQueueRunState { get }
    /// `invalidTapContext` on a thread running a processing tap.
    func refuseInsideTap(_ call: StaticString) throws(AudioQueueError)
    var currentDevice: String? { get }
    func allocateBuffer(byteCapacity: Int, packetDescriptionCapacity: Int) throws(AudioQueueError) -> AudioQueueServices.AudioQueueBuffer
    func freeBuffer(_ buffer: AudioQueueServices.AudioQueueBuffer) throws(AudioQueueError)
    func start(at time: AudioCore.AudioTimeStamp?) throws(AudioQueueError)
    func pause() throws(AudioQueueError)
    func stop(immediate: Bool) throws(AudioQueueError)
    func flush() throws(AudioQueueError)
    func reset() throws(AudioQueueError)
    func dispose(immediate: Bool) throws(AudioQueueError)
    func propertySize(_ id: UInt32) throws(AudioQueueError) -> Int
    func getProperty(_ id: UInt32, into data: UnsafeMutableRawBufferPointer) throws(AudioQueueError) -> Int
    func setProperty(_ id: UInt32, from data: UnsafeRawBufferPointer) throws(AudioQueueError)
    func makeTimeline() throws(AudioQueueError) -> AudioQueueTimeline
    func currentTime(timeline: AudioQueueTimeline?) throws(AudioQueueError) -> (timeStamp: AudioCore.AudioTimeStamp, discontinuity: Bool)
    func deviceCurrentTime() throws(AudioQueueError) -> AudioCore.AudioTimeStamp
    func removePropertyListener(_ token: Int) throws(AudioQueueError)
    /// Adds a listener for `property` that is told only that it fired.
    func addListener(_ property: AudioQueueServices.AudioQueuePropertyID, _ body: @escaping @Sendable () -> Void) throws(AudioQueueError) -> Int
}

extension AudioQueue: QueueControl {
    func addListener(_ property: AudioQueueServices.AudioQueuePropertyID, _ body: @escaping @Sendable () -> Void) throws(AudioQueueError) -> Int {
        try addPropertyListener(property) { _, _ in body() }
    }
}

extension AudioInputQueue: QueueControl {
    func addListener(_ property: AudioQueueServices.AudioQueuePropertyID, _ body: @escaping @Sendable () -> Void) throws(AudioQueueError) -> Int {
        try addPropertyListener(property) { _, _ in body() }
    }
}

extension QueueBox {
    /// The queue, whichever its direction.
    var control: any QueueControl {
        switch queue! {
        case .output(let q): q
        case .input(let q): q
        }
    }
}
