import CAudioToolbox
import AudioCore
import AudioQueueServices
import AudioQueueKit

/// What an `AudioQueueRef` stands for: a Swift queue of either direction, the program's
/// callback and user data, where its callbacks run, the C view of each buffer, and its
/// listeners.
final class QueueBox: @unchecked Sendable {
    enum Queue {
        case output(AudioQueue)
        case input(AudioInputQueue)
    }

    static let table = HandleTable<QueueBox>(kind: 1)
    /// Queues disposed of asynchronously, kept until they have played what was enqueued.
    static let finishing = HandleTable<QueueBox>(kind: 2)

    /// Weakly held by the Swift queue's closures, which exist before the box does.
    final class WeakRef: @unchecked Sendable { weak var box: QueueBox? }

    var queue: Queue!
    var handle: UInt = 0
    var ref: AudioQueueRef { handle.opaque }
    let userData: UnsafeMutableRawPointer?
    let runLoop: RunLoop?
    let mode: String
    let lock = PThreadMutex()
    /// The C buffers of this queue, each the view of one Swift buffer.
    private var buffers: [UnsafeMutableRawPointer: AudioQueueServices.AudioQueueBuffer] = [:]
    private var listeners: [(id: UInt32, proc: AudioQueuePropertyListenerProc, userData: UnsafeMutableRawPointer?, token: Int)] = []
    private var disposed = false
    /// Set while the run loop's own thread renders offline: callbacks run at once (that thread
    /// is inside AudioQueueOfflineRender and cannot run its loop), as Apple's do.
    var inline = false

    init(userData: UnsafeMutableRawPointer?, runLoop: RunLoop?, mode: String) {
        self.userData = userData
        self.runLoop = runLoop
        self.mode = mode
    }

    deinit {
        for c in buffers.keys { c.deallocate() }
    }

    static func make(userData: UnsafeMutableRawPointer?, runLoop: CFRunLoopRef?, mode: CFStringRef?) -> QueueBox? {
        AudioToolboxSetUp.once()
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

    /// The handle in `finishing` while an asynchronous disposal plays out.
    var finishingHandle: UInt?

    /// Registers the box under a new handle, attaches it to its run loop, and listens for the
    /// end of an asynchronous disposal.
    func register() {
        handle = Self.table.insert(self)
        runLoop?.attachSource()
        _ = try? addSwiftListener(.isRunning) { [weak self] running in
            if !running { self?.finishDisposal() }
        }
    }

    /// Lets go of a queue disposed of asynchronously once it has stopped.
    func finishDisposal() {
        guard let finishing = lock.withLock({ finishingHandle }) else { return }
        if Self.finishing.remove(finishing) != nil { retire() }
    }

    var isDisposed: Bool { lock.withLock { disposed } }

    /// Runs program code where the queue's callbacks run.
    func deliver(_ work: @escaping () -> Void) {
        guard let runLoop, !lock.withLock({ inline }) else {
            if !isDisposed { work() }
            return
        }
        runLoop.post(mode: mode) { [weak self] in
            guard let self, !self.isDisposed else { return }
            work()
        }
    }

    // MARK: Buffers

    /// Makes the C view of a Swift buffer.
    func add(_ buffer: AudioQueueServices.AudioQueueBuffer) -> AudioQueueBufferRef {
        let c = UnsafeMutablePointer<CAudioToolbox.AudioQueueBuffer>.allocate(capacity: 1)
        c.initialize(to: CAudioToolbox.AudioQueueBuffer(
            mAudioDataBytesCapacity: buffer.audioDataBytesCapacity, mAudioData: buffer.audioData,
            mAudioDataByteSize: 0, mUserData: nil, mPacketDescriptionCapacity: buffer.packetDescriptionCapacity,
            mPacketDescriptions: buffer.packetDescriptions.map { UnsafeMutableRawPointer($0).assumingMemoryBound(to: CAudioToolbox.AudioStreamPacketDescription.self) },
            mPacketDescriptionCount: 0))
        buffer.userData = UInt(bitPattern: c)
        lock.withLock { buffers[UnsafeMutableRawPointer(c)] = buffer }
        return c
    }

    func buffer(_ c: AudioQueueBufferRef?) -> AudioQueueServices.AudioQueueBuffer? {
        guard let c else { return nil }
        return lock.withLock { buffers[UnsafeMutableRawPointer(c)] }
    }

    func remove(_ c: AudioQueueBufferRef) {
        let found = lock.withLock { buffers.removeValue(forKey: UnsafeMutableRawPointer(c)) != nil }
        if found { c.deallocate() }
    }

    static func cView(of buffer: AudioQueueServices.AudioQueueBuffer) -> AudioQueueBufferRef? {
        guard let bits = buffer.userData as? UInt else { return nil }
        return UnsafeMutablePointer(bitPattern: bits)
    }

    // MARK: Listeners

    func addListener(_ id: UInt32, _ proc: AudioQueuePropertyListenerProc, _ userData: UnsafeMutableRawPointer?, token: Int) {
        lock.withLock { listeners.append((id, proc, userData, token)) }
    }

    /// Removes the listener added with this procedure and user data; its token, or nil.
    func removeListener(_ id: UInt32, _ proc: AudioQueuePropertyListenerProc, _ userData: UnsafeMutableRawPointer?) -> Int? {
        lock.withLock {
            guard let i = listeners.firstIndex(where: {
                $0.id == id && unsafeBitCast($0.proc, to: UnsafeRawPointer.self) == unsafeBitCast(proc, to: UnsafeRawPointer.self)
                    && $0.userData == userData
            }) else { return nil }
            return listeners.remove(at: i).token
        }
    }

    func listener(token: Int) -> (proc: AudioQueuePropertyListenerProc, userData: UnsafeMutableRawPointer?)? {
        lock.withLock { listeners.first(where: { $0.token == token }).map { ($0.proc, $0.userData) } }
    }

    // MARK: Disposal

    /// Marks the box disposed of (nothing more is delivered) and unregisters it.
    func retire() {
        lock.withLock { disposed = true }
        Self.table.remove(handle)
        runLoop?.detachSource()
    }
}

/// Registers the package's codecs and sound backends once, before the first queue or file.
enum AudioToolboxSetUp {
    private static let done: Void = { AudioQueueKit.registerAll() }()
    static func once() { _ = done }
}

extension AudioQueueError {
    var os: OSStatus { status }
}
