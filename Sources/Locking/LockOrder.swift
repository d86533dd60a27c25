#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The package's lock order, said once. A thread takes locks only in the order of their
/// ranks, never one of a lower rank while it holds one of the same or a higher rank:
///
/// 1. ``transitions``: a queue's device transitions (start, pause, stop, close of its device;
///    `DeviceTransitions`, AudioQueueServices).
/// 2. ``pipeline``: a queue's render line (output) or capture line (input) (`PipelineLock`,
///    AudioQueueServices: `AudioQueue.render`, `AudioInputQueue.capture`).
/// 3. ``registry``: a table of connections held while it opens the one it lacks (PulseAudio's
///    connection pool, `PulseConnectionPool.swift`), so that two threads never open two: it is
///    held while the new connection takes its loop's lock.
/// 4. ``device``: a sound server's or a device's own lock, held across calls into it:
///    PulseAudio's main-loop lock (which every stream of the process shares), PipeWire's
///    thread-loop lock, an ALSA PCM's start/stop/close lock. Taken only through ``Guarded`` or
///    ``ForeignLock`` (for a C library's lock), which assert the order. A device is started,
///    stopped and woken under the first two, never under the state lock.
/// 5. ``state``: a queue's state lock (`QueueCore.state`): run state, buffers, callback line,
///    listeners. Held only briefly, and it never waits for a device: devices publish their
///    clocks without locks (`Published`), so a queue reads them under its state lock.
/// 6. ``leaf``: every other lock — a device's own bookkeeping (its phase, its source, what it is
///    linked to), registries, tables, a file writer's state. The default of ``Guarded``. A
///    leaf may be taken under any lock, other leaves included, but no lock of ranks 1–5 is
///    taken while a leaf is held.
///
/// Debug builds record what each thread holds and assert the order whenever a lock is taken.
/// A try-lock never waits, and is exempt.
package enum LockRank: Int, Sendable {
    case transitions = 1
    case pipeline = 2
    case registry = 3
    case device = 4
    case state = 5
    case leaf = 6
}

/// The ranks each thread holds (debug builds).
package enum LockOrder {
    /// A bit per rank 1–5 held by this thread, and above them the number of leaf locks it
    /// holds, kept as a thread-specific value.
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    private static let leafUnit: UInt = 1 << 8

    private static var held: UInt {
        get { UInt(bitPattern: pthread_getspecific(key)) }
        set { pthread_setspecific(key, UnsafeRawPointer(bitPattern: newValue)) }
    }

    /// Asserts that this thread may take a lock of `rank` now: it holds none of the same or a
    /// higher rank (a leaf may always be taken). Called before the lock is taken (waiting for
    /// it would be the deadlock).
    @inline(__always)
    package static func assertMayTake(_ rank: LockRank, file: StaticString = #fileID, line: UInt = #line) {
        #if DEBUG
        guard rank != .leaf else { return }
        let h = held
        let conflicting = h & ~((1 << UInt(rank.rawValue)) - 1)
        if conflicting != 0 {
            let other = h >= leafUnit ? LockRank.leaf.rawValue : conflicting.trailingZeroBitCount
            assertionFailure("taking a \(rank) lock while holding a lock of rank \(other)", file: file, line: line)
        }
        #endif
    }

    /// Records that this thread took (or let go of) a lock of `rank` (debug builds). A lock
    /// of ranks 1–5 that is re-entered (libpulse's, on its own thread) is recorded once by its
    /// outermost taker: `taken` returns whether this call recorded it. Leaves are counted.
    @inline(__always)
    @discardableResult
    package static func record(_ rank: LockRank, taken: Bool) -> Bool {
        #if DEBUG
        if rank == .leaf {
            held = taken ? held + leafUnit : held - leafUnit
            return true
        }
        let bit: UInt = 1 << UInt(rank.rawValue)
        if taken {
            guard held & bit == 0 else { return false }
            held |= bit
        } else {
            held &= ~bit
        }
        return true
        #else
        return false
        #endif
    }
}
