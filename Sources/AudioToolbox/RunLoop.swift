public import CAudioToolbox
import Glibc
import Locking
import Synchronization

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

    /// What waits to run, and what was asked of the loop.
    private struct Posted {
        var items: [Item] = []
        var head = 0
        var stopRequested = false
        /// The queues attached to this run loop; with none, a run finishes at once.
        var sources = 0
        /// Set on the main thread's loop once the process has used audio: the source the
        /// audio HAL attaches there (in the common modes) since Mac OS X 10.6, which stays.
        var hasAudioSource = false
        /// The timers added to this loop, each with its modes; the loop holds each timer's CF
        /// object (a reference of its own) while the timer is here.
        var timers: [TimerEntry] = []
    }

    struct TimerEntry {
        let timer: RunLoopTimer
        var modes: Set<String>
    }

    private let posted = Guarded(Posted())
    /// Set while a run waits for work (outside the lock: the wait releases it).
    private let waiting = Atomic<Bool>(false)
    /// The CF object that stands for this run loop. The main thread's is immortal. Another
    /// thread's holds the loop and is counted: its thread holds one reference, let go of when the
    /// thread ends, and a program may add its own (`CFRetain`); the last `CFRelease` frees it
    /// and lets go of the loop (which a queue made on it may hold longer; nothing then asks for
    /// its object, which only its ended thread could be given).
    private(set) var object: CFRunLoopRef!

    init(immortal: Bool) {
        let cf = UnsafeMutablePointer<CFRunLoopObject>.allocate(capacity: 1)
        cf.initialize(to: CFRunLoopObject(
            header: CFObjectHeader(typeID: CFTypeID.runLoop.rawValue, retainCount: immortal ? -1 : 1),
            loop: immortal ? .passUnretained(self) : .passRetained(self)))
        object = CFRunLoopRef(cf)
    }

    static func from(_ ref: CFRunLoopRef?) -> RunLoop? {
        guard let ref, CFObjects.header(UnsafeRawPointer(ref)).pointee.typeID == CFTypeID.runLoop.rawValue else { return nil }
        return UnsafeRawPointer(ref).assumingMemoryBound(to: CFRunLoopObject.self).pointee.loop.takeUnretainedValue()
    }

    func attachSource() { posted.withLock { $0.sources += 1 } }
    /// Adds the audio system's permanent source (see `Posted.hasAudioSource`).
    func attachAudioSource() { posted.withLock { $0.hasAudioSource = true } }
    func detachSource() { posted.withLock { $0.sources -= 1 }; wake() }

    /// Posts `work` to run on this loop's thread when it runs in a mode `mode` belongs to.
    func post(mode: String, _ work: @escaping () -> Void) {
        posted.withLock {
            $0.items.append(Item(mode: mode, work: work))
            posted.broadcast()
        }
    }

    func stop() { posted.withLock { $0.stopRequested = true; posted.broadcast() } }
    func wake() { posted.withLock { _ in posted.broadcast() } }
    var isWaiting: Bool { waiting.load(ordering: .relaxed) }

    private static func matches(_ itemMode: String, running mode: String) -> Bool {
        itemMode == mode || (itemMode == commonModes && (mode == defaultMode || mode == commonModes))
    }

    /// Runs the loop in `mode` (see `CFRunLoopRunInMode`).
    func run(mode: String, seconds: Double, returnAfterSourceHandled: Bool) -> CFRunLoopRunResult {
        // NaN and negative intervals return at once, as Apple's do; +infinity waits "forever".
        let interval = seconds.isNaN || seconds <= 0 ? 0 : min(seconds, 1e9)
        let deadline = monotonicSeconds() + interval
        // Once the run's time is up, each timer fires at most once more before it returns (a
        // timer whose function keeps moving its date into the past cannot hold the run).
        var firedLate: Set<ObjectIdentifier> = []
        enum Step { case run(Item), fire(RunLoopTimer), finish(CFRunLoopRunResult) }
        while true {
            // Nil: it waited (the wait ends the lock's hold on the state, which is looked at
            // afresh after it).
            // Items already run that leave the list go after the lock is let go: the last
            // reference to a queue may be in one, and a queue's deinit takes its own locks.
            var spent: [Item] = []
            defer { withExtendedLifetime(spent) {} }
            let step: Step? = posted.withLock { p in
                if p.stopRequested {
                    p.stopRequested = false
                    return .finish(.stopped)
                }
                if let index = p.items[p.head...].firstIndex(where: { Self.matches($0.mode, running: mode) }) {
                    let item = p.items[index]
                    // The list keeps no reference to the item: its closure (which may hold the
                    // last reference to a queue) goes when it has run, outside the lock.
                    if index == p.head {
                        p.items[index] = Item(mode: "", work: {})
                        p.head += 1
                    } else {
                        p.items.remove(at: index)
                    }
                    if p.head > 64, p.head * 2 > p.items.count {
                        spent = Array(p.items[..<p.head])
                        p.items.removeFirst(p.head)
                        p.head = 0
                    }
                    return .run(item)
                }
                let late = monotonicSeconds() >= deadline
                let timers = Self.timerSchedule(p.timers, mode: mode, skipping: late ? firedLate : [])
                if let due = timers.due { return .fire(due) }
                let audioSource = p.hasAudioSource && (mode == Self.defaultMode || mode == Self.commonModes)
                if p.sources == 0 && !audioSource && !timers.any && p.head == p.items.count { return .finish(.finished) }
                let now = monotonicSeconds()
                if now >= deadline { return .finish(.timedOut) }
                var wait = deadline - now
                if let next = timers.next { wait = min(wait, max(0, next - absoluteTimeNow()) + 0.0005) }
                waiting.store(true, ordering: .relaxed)
                posted.wait(timeoutNanos: UInt64(wait * 1e9))
                waiting.store(false, ordering: .relaxed)
                return nil
            }
            switch step {
            case nil: continue
            case .finish(let result): return result
            case .fire(let timer):
                // A timer is not a source: a run that returns after a source goes on.
                if monotonicSeconds() >= deadline { firedLate.insert(ObjectIdentifier(timer)) }
                timer.fire()
            case .run(let next):
                next.work()
                if returnAfterSourceHandled { return .handledSource }
            }
        }
    }
}

/// The run loops of threads, made on first use.
enum RunLoops {
    /// A thread's run loop object; the thread's reference to it goes when the thread ends.
    nonisolated(unsafe) private static var key = pthread_key_t()
    private static let setUp: Void = {
        pthread_key_create(&key) { object in _CFRelease(object.map { UnsafeRawPointer($0) }) }
    }()
    /// The main thread's run loop, made by whichever thread asks first.
    static let main = RunLoop(immortal: true)

    static var isMainThread: Bool { __ATIsMainThread() }

    /// Called once, when the process first uses audio: as on a Mac (since 10.6), the main
    /// thread's run loop then has a source in the default and common modes for good, so runs
    /// there wait their time (or until stopped) even with no queue attached. Other threads'
    /// loops are unchanged: they have sources only while queues are attached.
    static func audioInUse() { main.attachAudioSource() }

    static var current: RunLoop {
        if isMainThread { return main }
        _ = setUp
        if let existing = pthread_getspecific(key) {
            return RunLoop.from(CFRunLoopRef(existing.assumingMemoryBound(to: CFRunLoopObject.self)))!
        }
        // As CF's: it lives while its thread does (or longer, while the program retains it).
        let loop = RunLoop(immortal: false)
        pthread_setspecific(key, UnsafeRawPointer(loop.object))
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
        if result == .stopped || result == .finished { return }
    }
}

@_spi(CImplementation) @_cdecl("ATCFRunLoopStop")
public func _CFRunLoopStop(_ rl: CFRunLoopRef?) { RunLoop.from(rl)?.stop() }

@_spi(CImplementation) @_cdecl("ATCFRunLoopWakeUp")
public func _CFRunLoopWakeUp(_ rl: CFRunLoopRef?) { RunLoop.from(rl)?.wake() }

@_spi(CImplementation) @_cdecl("ATCFRunLoopIsWaiting")
public func _CFRunLoopIsWaiting(_ rl: CFRunLoopRef?) -> Bool { RunLoop.from(rl)?.isWaiting == true }

// MARK: Timers

extension RunLoop {
    /// Whether a timer added in `timerMode` fires in a run in `mode`.
    static func timerMatches(_ entry: TimerEntry, running mode: String) -> Bool {
        entry.modes.contains { matches($0, running: mode) }
    }

    /// Among the valid timers of `mode` (read under the loop's lock): the one due soonest, if
    /// any is due, else when the next is; and whether the mode has any (a run with a timer
    /// does not finish).
    static func timerSchedule(_ entries: [TimerEntry], mode: String, skipping: Set<ObjectIdentifier>) -> (due: RunLoopTimer?, next: Double?, any: Bool) {
        let now = absoluteTimeNow()
        var due: (RunLoopTimer, Double)?
        var next: Double?
        var any = false
        for entry in entries where timerMatches(entry, running: mode) {
            let (valid, fire, firing) = entry.timer.state.withLock { ($0.valid, $0.nextFire, $0.firing) }
            guard valid else { continue }
            any = true
            guard !firing, !skipping.contains(ObjectIdentifier(entry.timer)) else { continue }
            if fire <= now {
                if due == nil || fire < due!.1 || (fire == due!.1 && entry.timer.order < due!.0.order) { due = (entry.timer, fire) }
            } else {
                next = min(next ?? fire, fire)
            }
        }
        return (due?.0, next, any)
    }

    /// Adds `timer` in `mode`; a timer of another run loop, or an invalid one, is left alone.
    func addTimer(_ timer: RunLoopTimer, mode: String) {
        let mine = timer.state.withLock { s -> Bool in
            guard s.valid else { return false }
            if let loop = s.loop { return loop === self }
            s.loop = self
            return true
        }
        guard mine else { return }
        posted.withLock { p in
            if let i = p.timers.firstIndex(where: { $0.timer === timer }) {
                p.timers[i].modes.insert(mode)
            } else {
                _ = _CFRetain(UnsafeRawPointer(timer.object))
                p.timers.append(TimerEntry(timer: timer, modes: [mode]))
            }
            posted.broadcast()
        }
        // Invalidated meanwhile: it leaves again.
        if !timer.isValid { removeTimer(timer, mode: nil) }
    }

    /// Removes `timer` from `mode` (nil: from every mode); the loop lets go of it once it is
    /// in none.
    func removeTimer(_ timer: RunLoopTimer, mode: String?) {
        let gone = posted.withLock { p -> Bool in
            guard let i = p.timers.firstIndex(where: { $0.timer === timer }) else { return false }
            if let mode { p.timers[i].modes.remove(mode) } else { p.timers[i].modes.removeAll() }
            guard p.timers[i].modes.isEmpty else { return false }
            p.timers.remove(at: i)
            return true
        }
        guard gone else { return }
        timer.state.withLock { s in if s.loop === self { s.loop = nil } }
        _CFRelease(UnsafeRawPointer(timer.object))
    }

    func containsTimer(_ timer: RunLoopTimer, mode: String) -> Bool {
        posted.withLock { p in p.timers.contains { $0.timer === timer && $0.modes.contains(mode) } }
    }

    /// When the next valid timer of `mode` fires.
    func nextTimerFireDate(mode: String) -> Double? {
        posted.withLock { p in
            p.timers.filter { Self.timerMatches($0, running: mode) }
                .compactMap { e in e.timer.state.withLock { $0.valid ? $0.nextFire : nil } }.min()
        }
    }
}

extension RunLoop {
    /// Runs, on the calling thread, everything posted for `mode` so far.
    func drainNow(mode: String) {
        while run(mode: mode, seconds: 0, returnAfterSourceHandled: true) == .handledSource {}
    }
}
