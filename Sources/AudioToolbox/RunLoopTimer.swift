public import CAudioToolbox
import Glibc
import Locking

/// Seconds since 1 January 2001 00:00:00 UTC by the system clock (`CFAbsoluteTimeGetCurrent`).
func absoluteTimeNow() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_REALTIME, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9 - 978_307_200
}

/// A run loop timer (`CFRunLoopTimerRef`): a C function called on its run loop's thread at its
/// fire date and, when it repeats, every interval after, while the loop runs in a mode the
/// timer was added to. Fire dates are absolute times (`CFAbsoluteTime`); a repeating timer that
/// fell behind skips the firings it missed, as CoreFoundation's do.
final class RunLoopTimer: @unchecked Sendable {
    struct State {
        var valid = true
        var nextFire: Double
        /// Set while its function runs (a nested run of the loop does not fire it again).
        var firing = false
        /// The run loop it was added to; a timer belongs to one.
        weak var loop: RunLoop?
        var tolerance = 0.0
    }

    let interval: Double
    let order: CFIndex
    let callout: CFRunLoopTimerCallBack
    /// The program's context, its `info` retained through the context's `retain`.
    let context: CFRunLoopTimerContext
    let state: Guarded<State>
    /// The CF object standing for this timer (which holds the timer).
    private(set) var object: CFRunLoopTimerRef!

    init(fireDate: Double, interval: Double, order: CFIndex, callout: @escaping CFRunLoopTimerCallBack, context: CFRunLoopTimerContext?) {
        self.interval = interval.isNaN || interval < 0 ? 0 : interval
        self.order = order
        self.callout = callout
        var copy = context ?? CFRunLoopTimerContext(version: 0, info: nil, retain: nil, release: nil, copyDescription: nil)
        if let retain = copy.retain, let info = copy.info { copy.info = UnsafeMutableRawPointer(mutating: retain(info)) }
        self.context = copy
        state = Guarded(State(nextFire: fireDate.isNaN ? absoluteTimeNow() : fireDate))
        object = CFRunLoopTimerRef(CFObjects.makeClassObject(.runLoopTimer, self).assumingMemoryBound(to: CFClassObject.self))
    }

    deinit {
        // A timer freed while valid is invalidated then (it is in no run loop: a loop holds it).
        if state.withLock({ $0.valid }), let release = context.release, let info = context.info { release(info) }
    }

    static func from(_ ref: CFRunLoopTimerRef?) -> RunLoopTimer? {
        CFObjects.instance(UnsafeRawPointer(ref), .runLoopTimer, as: RunLoopTimer.self)
    }

    var isValid: Bool { state.withLock { $0.valid } }

    /// What a description shows.
    var summary: String {
        let s = state.withLock { $0 }
        return "{valid = \(s.valid ? "Yes" : "No"), firing = \(s.firing ? "Yes" : "No"), interval = \(interval), next fire date = \(s.nextFire)}"
    }

    /// Stops the timer for good: it leaves its run loop, and the context's info is released.
    func invalidate() {
        let (wasValid, loop) = state.withLock { s -> (Bool, RunLoop?) in
            defer { s.valid = false; s.loop = nil }
            return (s.valid, s.loop)
        }
        guard wasValid else { return }
        loop?.removeTimer(self, mode: nil)
        if let release = context.release, let info = context.info { release(info) }
    }

    func setNextFireDate(_ date: Double) {
        let loop = state.withLock { s -> RunLoop? in
            s.nextFire = date.isNaN ? s.nextFire : date
            return s.loop
        }
        loop?.wake()
    }

    /// Calls the timer's function (on the run loop's thread), then schedules its next firing
    /// or, for a one-shot timer, invalidates it.
    func fire() {
        let firedAt = state.withLock { s -> Double? in
            guard s.valid, !s.firing else { return nil }
            s.firing = true
            return s.nextFire
        }
        guard let firedAt else { return }
        withExtendedLifetime(self) {
            callout(object, context.info)
        }
        let repeating = interval > 0
        state.withLock { s in
            s.firing = false
            // A date the function set stands; otherwise the next multiple of the interval after now.
            guard repeating, s.valid, s.nextFire == firedAt else { return }
            let now = absoluteTimeNow()
            var next = firedAt + interval
            if next <= now { next = firedAt + interval * ((now - firedAt) / interval).rounded(.down) + interval }
            s.nextFire = next
        }
        if !repeating { invalidate() }
    }
}

// MARK: The C functions

@_spi(CImplementation) @_cdecl("ATCFAbsoluteTimeGetCurrent")
public func _CFAbsoluteTimeGetCurrent() -> CFAbsoluteTime { absoluteTimeNow() }

@_spi(CImplementation) @_cdecl("ATCFRunLoopTimerGetTypeID")
public func _CFRunLoopTimerGetTypeID() -> UInt { UInt(CFTypeID.runLoopTimer.rawValue) }

@_spi(CImplementation) @_cdecl("ATCFRunLoopTimerCreate")
public func _CFRunLoopTimerCreate(
    _ allocator: CFAllocatorRef?, _ fireDate: CFAbsoluteTime, _ interval: CFTimeInterval, _ flags: CFOptionFlags,
    _ order: CFIndex, _ callout: CFRunLoopTimerCallBack?, _ context: UnsafeMutablePointer<CFRunLoopTimerContext>?
) -> CFRunLoopTimerRef? {
    guard let callout else { return nil }
    return RunLoopTimer(fireDate: fireDate, interval: interval, order: order, callout: callout, context: context?.pointee).object
}

@_spi(CImplementation) @_cdecl("ATCFRunLoopAddTimer")
public func _CFRunLoopAddTimer(_ rl: CFRunLoopRef?, _ timer: CFRunLoopTimerRef?, _ mode: CFStringRef?) {
    guard let loop = RunLoop.from(rl), let timer = RunLoopTimer.from(timer), let mode = RunLoops.mode(mode) else { return }
    loop.addTimer(timer, mode: mode)
}

@_spi(CImplementation) @_cdecl("ATCFRunLoopRemoveTimer")
public func _CFRunLoopRemoveTimer(_ rl: CFRunLoopRef?, _ timer: CFRunLoopTimerRef?, _ mode: CFStringRef?) {
    guard let loop = RunLoop.from(rl), let timer = RunLoopTimer.from(timer), let mode = RunLoops.mode(mode) else { return }
    loop.removeTimer(timer, mode: mode)
}

@_spi(CImplementation) @_cdecl("ATCFRunLoopContainsTimer")
public func _CFRunLoopContainsTimer(_ rl: CFRunLoopRef?, _ timer: CFRunLoopTimerRef?, _ mode: CFStringRef?) -> Bool {
    guard let loop = RunLoop.from(rl), let timer = RunLoopTimer.from(timer), let mode = RunLoops.mode(mode) else { return false }
    return loop.containsTimer(timer, mode: mode)
}

@_spi(CImplementation) @_cdecl("ATCFRunLoopGetNextTimerFireDate")
public func _CFRunLoopGetNextTimerFireDate(_ rl: CFRunLoopRef?, _ mode: CFStringRef?) -> CFAbsoluteTime {
    guard let loop = RunLoop.from(rl), let mode = RunLoops.mode(mode) else { return 0 }
    return loop.nextTimerFireDate(mode: mode) ?? 0
}

@_spi(CImplementation) @_cdecl("ATCFRunLoopTimerInvalidate")
public func _CFRunLoopTimerInvalidate(_ timer: CFRunLoopTimerRef?) { RunLoopTimer.from(timer)?.invalidate() }

@_spi(CImplementation) @_cdecl("ATCFRunLoopTimerIsValid")
public func _CFRunLoopTimerIsValid(_ timer: CFRunLoopTimerRef?) -> Bool { RunLoopTimer.from(timer)?.isValid == true }

@_spi(CImplementation) @_cdecl("ATCFRunLoopTimerGetNextFireDate")
public func _CFRunLoopTimerGetNextFireDate(_ timer: CFRunLoopTimerRef?) -> CFAbsoluteTime {
    RunLoopTimer.from(timer)?.state.withLock { $0.nextFire } ?? 0
}

@_spi(CImplementation) @_cdecl("ATCFRunLoopTimerSetNextFireDate")
public func _CFRunLoopTimerSetNextFireDate(_ timer: CFRunLoopTimerRef?, _ fireDate: CFAbsoluteTime) {
    RunLoopTimer.from(timer)?.setNextFireDate(fireDate)
}

@_spi(CImplementation) @_cdecl("ATCFRunLoopTimerGetInterval")
public func _CFRunLoopTimerGetInterval(_ timer: CFRunLoopTimerRef?) -> CFTimeInterval { RunLoopTimer.from(timer)?.interval ?? 0 }

@_spi(CImplementation) @_cdecl("ATCFRunLoopTimerDoesRepeat")
public func _CFRunLoopTimerDoesRepeat(_ timer: CFRunLoopTimerRef?) -> Bool { (RunLoopTimer.from(timer)?.interval ?? 0) > 0 }

@_spi(CImplementation) @_cdecl("ATCFRunLoopTimerGetOrder")
public func _CFRunLoopTimerGetOrder(_ timer: CFRunLoopTimerRef?) -> CFIndex { RunLoopTimer.from(timer)?.order ?? 0 }

@_spi(CImplementation) @_cdecl("ATCFRunLoopTimerGetContext")
public func _CFRunLoopTimerGetContext(_ timer: CFRunLoopTimerRef?, _ context: UnsafeMutablePointer<CFRunLoopTimerContext>?) {
    guard let timer = RunLoopTimer.from(timer), let context else { return }
    context.pointee = timer.context
}

@_spi(CImplementation) @_cdecl("ATCFRunLoopTimerGetTolerance")
public func _CFRunLoopTimerGetTolerance(_ timer: CFRunLoopTimerRef?) -> CFTimeInterval {
    RunLoopTimer.from(timer)?.state.withLock { $0.tolerance } ?? 0
}

@_spi(CImplementation) @_cdecl("ATCFRunLoopTimerSetTolerance")
public func _CFRunLoopTimerSetTolerance(_ timer: CFRunLoopTimerRef?, _ tolerance: CFTimeInterval) {
    RunLoopTimer.from(timer)?.state.withLock { $0.tolerance = tolerance.isNaN ? 0 : max(0, tolerance) }
}
