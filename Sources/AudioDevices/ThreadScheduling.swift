#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CRealtimeKit

/// What a thread of the package asks of the scheduler.
///
/// Only threads paced by a clock ask for more than ``normal``: a device's I/O loop that waits
/// for its hardware, server or the monotonic clock between periods, and the queue threads such
/// a loop wakes. A loop that can run as fast as the CPU allows (``AudioDevicePacing/unpaced``,
/// offline render, a file read ahead as fast as the sink takes it) asks for ``normal``: a
/// real-time thread that never sleeps takes a core from everything else.
package enum ThreadPriority: Sendable, Hashable {
    /// Whatever the thread that made it had, and back to `SCHED_OTHER` at nice 0 when changed to.
    case normal
    /// A device's I/O loop (ALSA's, a paced null or file device's): `SCHED_FIFO` priority 4.
    case deviceIO
    /// A queue's render or capture thread, which a device's I/O loop wakes and which keeps a
    /// ring of twice the device's buffer: `SCHED_FIFO` priority 3, below the I/O loops.
    case pipeline

    /// The real-time priority asked for, nil for ``normal``.
    ///
    /// Below every sound server's own threads, which these threads feed and must never
    /// preempt: PulseAudio's daemon runs its I/O threads at 5 (`realtime-priority`),
    /// PipeWire's at 88 and its clients' data threads at 83 (module-rt's `rt.prio`), rtkit
    /// grants at most 20 by default. Any real-time priority runs before every `SCHED_OTHER`
    /// thread, which is what a period's deadline needs.
    package var realTimePriority: Int32? {
        switch self {
        case .normal: nil
        case .deviceIO: 4
        case .pipeline: 3
        }
    }
}

/// What a thread got from the scheduler (``ThreadScheduler/apply(_:name:)``).
package enum ThreadScheduling: Sendable, Hashable, CustomStringConvertible {
    /// Who granted it.
    package enum Grant: Sendable, Hashable {
        /// The kernel, to this process (RLIMIT_RTPRIO or RLIMIT_NICE allowed it, or CAP_SYS_NICE).
        case kernel
        /// rtkit (`org.freedesktop.RealtimeKit1`), over the system bus.
        case rtkit
    }

    /// Real-time: `SCHED_FIFO` from the kernel, `SCHED_RR` from rtkit, at `priority`.
    case realTime(priority: Int32, grantedBy: Grant)
    /// `SCHED_OTHER` at a raised priority: nice level `nice` (negative).
    case raisedPriority(nice: Int32, grantedBy: Grant)
    /// `SCHED_OTHER` at nice 0: not asked for more, or refused.
    case normal

    /// The policy `sched_getscheduler` reports for it (without `SCHED_RESET_ON_FORK`).
    package var policy: Int32 {
        switch self {
        case .realTime(_, .kernel): SCHED_FIFO
        case .realTime(_, .rtkit): SCHED_RR
        case .raisedPriority, .normal: SCHED_OTHER
        }
    }

    package var description: String {
        switch self {
        case .realTime(let p, .kernel): "real-time (SCHED_FIFO priority \(p))"
        case .realTime(let p, .rtkit): "real-time (SCHED_RR priority \(p), from rtkit)"
        case .raisedPriority(let n, .kernel): "raised priority (nice \(n))"
        case .raisedPriority(let n, .rtkit): "raised priority (nice \(n), from rtkit)"
        case .normal: "normal scheduling"
        }
    }
}

/// Asks for a thread's scheduling the way PulseAudio's and PipeWire's clients do.
package enum ThreadScheduler {
    /// The nice level asked for when real-time is refused: PulseAudio's (`nice-level`) and
    /// PipeWire's clients' (module-rt's `nice.level`).
    package static let raisedNice: Int32 = -11

    /// The kernel's flag that gives threads (and processes) made by a thread the default
    /// policy and nice 0 instead of its own (`sched(7)`): a worker a real-time thread starts
    /// (libdispatch's, for one) is not real-time.
    package static let resetOnFork: Int32 = 0x4000_0000

    /// False when `AUDIOQUEUE_REALTIME=0`: every thread keeps normal scheduling.
    package static let isEnabled: Bool = {
        guard let value = getenv("AUDIOQUEUE_REALTIME") else { return true }
        return String(cString: value) != "0"
    }()

    /// The calling thread's kernel thread id.
    package static var currentThreadID: UInt64 { crtkit_thread_id() }

    /// Names the calling thread (at most 15 bytes are kept).
    package static func nameCurrentThread(_ name: String) { crtkit_name_thread(name) }

    /// Gives the calling thread `priority` as far as the system allows and returns what it
    /// got, logging it (``DebugLog``) under `name`. In order: `SCHED_FIFO` from the kernel;
    /// else `SCHED_RR` from rtkit; else nice ``raisedNice`` from the kernel; else from rtkit;
    /// else nothing. ``ThreadPriority/normal`` returns the thread to `SCHED_OTHER` at nice 0.
    package static func apply(_ priority: ThreadPriority, name: String) -> ThreadScheduling {
        let tid = currentThreadID
        guard let rt = priority.realTimePriority, isEnabled else {
            let reset = setPolicy(tid, SCHED_OTHER, 0) == 0 && setNice(tid, 0) == 0
            let why = priority == .normal ? "" : " (AUDIOQUEUE_REALTIME=0)"
            DebugLog.log("thread \(name) [\(tid)]: normal scheduling\(why)\(reset ? "" : " (could not reset)")")
            return .normal
        }
        var refusals: [String] = []
        if setPolicy(tid, SCHED_FIFO, rt) == 0 {
            return logged(.realTime(priority: rt, grantedBy: .kernel), name, tid, refusals)
        }
        refusals.append("SCHED_FIFO: \(errorText(errno))")
        switch RealtimeKit.makeRealtime(threadID: tid, priority: rt) {
        case .success(let granted): return logged(.realTime(priority: granted, grantedBy: .rtkit), name, tid, refusals)
        case .failure(let error): refusals.append("rtkit real-time: \(error.message)")
        }
        if setPolicy(tid, SCHED_OTHER, 0) == 0, setNice(tid, raisedNice) == 0 {
            return logged(.raisedPriority(nice: raisedNice, grantedBy: .kernel), name, tid, refusals)
        }
        refusals.append("nice \(raisedNice): \(errorText(errno))")
        switch RealtimeKit.makeHighPriority(threadID: tid, nice: raisedNice) {
        case .success(let granted): return logged(.raisedPriority(nice: granted, grantedBy: .rtkit), name, tid, refusals)
        case .failure(let error): refusals.append("rtkit nice: \(error.message)")
        }
        return logged(.normal, name, tid, refusals)
    }

    private static func logged(_ got: ThreadScheduling, _ name: String, _ tid: UInt64, _ refusals: [String]) -> ThreadScheduling {
        DebugLog.log("thread \(name) [\(tid)]: \(got)\(refusals.isEmpty ? "" : " (refused: \(refusals.joined(separator: "; ")))")")
        return got
    }

    /// `sched_setscheduler` on thread `tid`, with ``resetOnFork``; 0 or -1 (errno set).
    private static func setPolicy(_ tid: UInt64, _ policy: Int32, _ priority: Int32) -> Int32 {
        var param = sched_param()
        param.sched_priority = priority
        return sched_setscheduler(pid_t(tid), policy | resetOnFork, &param)
    }

    /// `setpriority` of thread `tid` (Linux's nice level is per thread); 0 or -1 (errno set).
    private static func setNice(_ tid: UInt64, _ nice: Int32) -> Int32 {
        #if canImport(Glibc)
        setpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(tid), nice)
        #else
        setpriority(PRIO_PROCESS, id_t(tid), nice)
        #endif
    }

    private static func errorText(_ code: Int32) -> String { String(cString: strerror(code)) }
}

/// rtkit's D-Bus interface (`CRealtimeKit`, libdbus-1 opened at run time).
package enum RealtimeKit {
    /// Why rtkit did not grant what was asked: no libdbus, no bus, no rtkit on it, or its refusal.
    package struct Failure: Error, Sendable {
        package let message: String
    }

    /// Asks rtkit on `bus` (nil: the system bus) to make thread `threadID` of this process
    /// `SCHED_RR` at `priority` (lowered to rtkit's maximum); the priority granted. Sets the
    /// process's RLIMIT_RTTIME to rtkit's maximum first when it is higher, as rtkit requires.
    package static func makeRealtime(bus: String? = nil, threadID: UInt64, priority: Int32) -> Result<Int32, Failure> {
        var granted: Int32 = 0
        var limits = crtkit_limits()
        return call(bus) { bus, error, size in
            crtkit_make_realtime(bus, threadID, priority, &granted, &limits, error, size)
        }.map { granted }
    }

    /// Asks rtkit on `bus` (nil: the system bus) to set thread `threadID`'s nice level to
    /// `nice` (raised to rtkit's minimum); the level granted.
    package static func makeHighPriority(bus: String? = nil, threadID: UInt64, nice: Int32) -> Result<Int32, Failure> {
        var granted: Int32 = 0
        return call(bus) { bus, error, size in
            crtkit_make_high_priority(bus, threadID, nice, &granted, error, size)
        }.map { granted }
    }

    private static func call(
        _ bus: String?, _ body: (UnsafePointer<CChar>?, UnsafeMutablePointer<CChar>, Int) -> Int32
    ) -> Result<Void, Failure> {
        var error = [CChar](repeating: 0, count: 512)
        let status = error.withUnsafeMutableBufferPointer { e in
            if let bus { return bus.withCString { body($0, e.baseAddress!, e.count) } }
            return body(nil, e.baseAddress!, e.count)
        }
        guard status != 0 else { return .success(()) }
        return .failure(Failure(message: String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)))
    }
}
