public import CAudioToolbox
import Glibc

/// A mutex with a condition variable, for the run loops and the handle tables.
final class PThreadMutex: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init() {
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Waits (the lock held) until signalled or until `deadline` (CLOCK_MONOTONIC seconds).
    func wait(until deadline: Double) {
        var ts = timespec()
        ts.tv_sec = Int(deadline.rounded(.down))
        ts.tv_nsec = Int((deadline - deadline.rounded(.down)) * 1e9)
        pthread_cond_timedwait(condition, mutex, &ts)
    }

    func broadcast() { pthread_cond_broadcast(condition) }
}

func monotonicSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// A thread's run loop (`CFRunLoopRef`): the callbacks and property listeners of the audio
/// queues created on it wait here until the thread runs it (`CFRunLoopRunInMode`), then run
/// on that thread one at a time, in the order they were posted.
final class RunLoop: @unchecked Sendable {
    static let commonModes = "kCFRunLoopCommonModes"
    static let defaultMode = "kCFRunLoopDefaultMode"

    private struct Item {
        let mode: String
        let work: () -> Void
    }

    private let lock = PThreadMutex()
    private var items: [Item] = []
    private var head = 0
    private var stopRequested = false
    private var waiting = false
    /// The queues attached to this run loop; with none, a run finishes at once.
    private var sources = 0
    /// The CF object that stands for this run loop (made once, immortal).
    private(set) var object: CFRunLoopRef!

    init() {
        let cf = UnsafeMutablePointer<CFRunLoopObject>.allocate(capacity: 1)
        cf.initialize(to: CFRunLoopObject(
            header: CFObjectHeader(typeID: CFTypeID.runLoop.rawValue, retainCount: -1), loop: .passUnretained(self)))
        object = CFRunLoopRef(cf)
    }

    static func from(_ ref: CFRunLoopRef?) -> RunLoop? {
        guard let ref, CFObjects.header(UnsafeRawPointer(ref)).pointee.typeID == CFTypeID.runLoop.rawValue else { return nil }
        return UnsafeRawPointer(ref).assumingMemoryBound(to: CFRunLoopObject.self).pointee.loop.takeUnretainedValue()
    }

    func attachSource() { lock.withLock { sources += 1 } }
    func detachSource() { lock.withLock { sources -= 1 }; wake() }

    /// Posts `work` to run on this loop's thread when it runs in a mode `mode` belongs to.
    func post(mode: String, _ work: @escaping () -> Void) {
        lock.withLock {
            items.append(Item(mode: mode, work: work))
            lock.broadcast()
        }
    }

    func stop() { lock.withLock { stopRequested = true; lock.broadcast() } }
    func wake() { lock.withLock { lock.broadcast() } }
    var isWaiting: Bool { lock.withLock { waiting } }

    private static func matches(_ itemMode: String, running mode: String) -> Bool {
        itemMode == mode || (itemMode == commonModes && (mode == defaultMode || mode == commonModes))
    }

    /// Runs the loop in `mode` (see `CFRunLoopRunInMode`).
    func run(mode: String, seconds: Double, returnAfterSourceHandled: Bool) -> CFRunLoopRunResult {
        // NaN and negative intervals return at once, as Apple's do; +infinity waits "forever".
        let interval = seconds.isNaN || seconds <= 0 ? 0 : min(seconds, 1e9)
        let deadline = monotonicSeconds() + interval
        enum Step { case run(Item), finish(CFRunLoopRunResult) }
        while true {
            let step: Step = lock.withLock {
                while true {
                    if stopRequested {
                        stopRequested = false
                        return .finish(kCFRunLoopRunStopped)
                    }
                    if let index = items[head...].firstIndex(where: { Self.matches($0.mode, running: mode) }) {
                        let item = items[index]
                        if index == head { head += 1 } else { items.remove(at: index) }
                        if head > 64, head * 2 > items.count { items.removeFirst(head); head = 0 }
                        return .run(item)
                    }
                    if sources == 0 && head == items.count { return .finish(kCFRunLoopRunFinished) }
                    if monotonicSeconds() >= deadline { return .finish(kCFRunLoopRunTimedOut) }
                    waiting = true
                    lock.wait(until: deadline)
                    waiting = false
                }
            }
            guard case .run(let next) = step else {
                if case .finish(let result) = step { return result }
                return kCFRunLoopRunFinished
            }
            next.work()
            if returnAfterSourceHandled { return kCFRunLoopRunHandledSource }
        }
    }
}

/// The run loops of threads, made on first use.
enum RunLoops {
    nonisolated(unsafe) private static var key = pthread_key_t()
    private static let setUp: Void = {
        pthread_key_create(&key, nil)
    }()
    /// The main thread's run loop, made by whichever thread asks first.
    static let main = RunLoop()

    static var isMainThread: Bool { __ATIsMainThread() }

    static var current: RunLoop {
        if isMainThread { return main }
        _ = setUp
        if let existing = pthread_getspecific(key) {
            return Unmanaged<RunLoop>.fromOpaque(existing).takeUnretainedValue()
        }
        // A thread's run loop lives as long as the process, like the CF object that names it.
        let loop = RunLoop()
        pthread_setspecific(key, Unmanaged.passRetained(loop).toOpaque())
        return loop
    }

    static func mode(_ ref: CFStringRef?) -> String? {
        guard let ref else { return nil }
        return CFObjects.string(UnsafeRawPointer(ref))
    }
}

@_spi(CImplementation) @_cdecl("ATCFRunLoopGetCurrent")
public func _CFRunLoopGetCurrent() -> CFRunLoopRef { RunLoops.current.object }

@_spi(CImplementation) @_cdecl("ATCFRunLoopGetMain")
public func _CFRunLoopGetMain() -> CFRunLoopRef { RunLoops.main.object }

@_spi(CImplementation) @_cdecl("ATCFRunLoopRunInMode")
public func _CFRunLoopRunInMode(_ mode: CFStringRef?, _ seconds: CFTimeInterval, _ returnAfterSourceHandled: UInt8) -> CFRunLoopRunResult {
    let name = RunLoops.mode(mode) ?? RunLoop.defaultMode
    return RunLoops.current.run(mode: name, seconds: seconds, returnAfterSourceHandled: returnAfterSourceHandled != 0)
}

@_spi(CImplementation) @_cdecl("ATCFRunLoopRun")
public func _CFRunLoopRun() {
    while true {
        let result = RunLoops.current.run(mode: RunLoop.defaultMode, seconds: 1e9, returnAfterSourceHandled: false)
        if result == kCFRunLoopRunStopped || result == kCFRunLoopRunFinished { return }
    }
}

@_spi(CImplementation) @_cdecl("ATCFRunLoopStop")
public func _CFRunLoopStop(_ rl: CFRunLoopRef?) { RunLoop.from(rl)?.stop() }

@_spi(CImplementation) @_cdecl("ATCFRunLoopWakeUp")
public func _CFRunLoopWakeUp(_ rl: CFRunLoopRef?) { RunLoop.from(rl)?.wake() }

@_spi(CImplementation) @_cdecl("ATCFRunLoopIsWaiting")
public func _CFRunLoopIsWaiting(_ rl: CFRunLoopRef?) -> Bool { RunLoop.from(rl)?.isWaiting == true }

extension RunLoop {
    /// Runs, on the calling thread, everything posted for `mode` so far.
    func drainNow(mode: String) {
        while run(mode: mode, seconds: 0, returnAfterSourceHandled: true) == kCFRunLoopRunHandledSource {}
    }
}
