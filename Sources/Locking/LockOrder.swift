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
/// 2. ``pipeline``: a queue's render line (output) or capture line (input) (`AudioQueue.render`,
///    `AudioInputQueue.capture`).
/// 3. ``device``: a device's or sound server's own lock (PulseAudio's main-loop lock, which every
///    stream of the process shares). A device is started, stopped and woken under the first
///    two, never under the state lock.
/// 4. ``state``: a queue's state lock (`QueueCore.state`): run state, buffers, callback line,
///    listeners. Held only briefly, and it never waits for a device: devices publish their
///    clocks without locks, so a queue reads them under its state lock.
///
/// Locks of other kinds (registries, tables) take no rank and are never held while another
/// lock is taken. Debug builds record the ranks each thread holds and assert the order when a
/// lock is taken (``Guarded`` does for its own; ``LockOrder/assertMayTake(_:file:line:)`` for
/// locks that are not `Guarded`, such as libpulse's). A try-lock never waits, and is exempt.
package enum LockRank: Int, Sendable {
    case transitions = 1
    case pipeline = 2
    case device = 3
    case state = 4
}

/// The ranks each thread holds (debug builds).
package enum LockOrder {
    /// A bit per rank held by this thread, kept as a thread-specific value.
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    private static var held: UInt {
        get { UInt(bitPattern: pthread_getspecific(key)) }
        set { pthread_setspecific(key, UnsafeRawPointer(bitPattern: newValue)) }
    }

    /// Asserts that this thread may take a lock of `rank` now: it holds none of the same or a
    /// higher rank. Called before the lock is taken (waiting for it would be the deadlock).
    @inline(__always)
    package static func assertMayTake(_ rank: LockRank, file: StaticString = #fileID, line: UInt = #line) {
        #if DEBUG
        let conflicting = held & ~((1 << UInt(rank.rawValue)) - 1)
        assert(conflicting == 0, "taking a \(rank) lock while holding a lock of rank \(conflicting.trailingZeroBitCount)", file: file, line: line)
        #endif
    }

    /// Records that this thread took (or let go of) a lock of `rank` (debug builds). A lock
    /// that is re-entered (libpulse's, on its own thread) is recorded once by its outermost
    /// taker: `taken` returns whether this call recorded it.
    @inline(__always)
    @discardableResult
    package static func record(_ rank: LockRank, taken: Bool) -> Bool {
        #if DEBUG
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
