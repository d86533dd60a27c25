#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Synchronization

/// A lock a C library owns — PulseAudio's threaded main loop, PipeWire's thread loop — taken
/// in the package's lock order (``LockRank``) like a ``Guarded``: debug builds assert the order
/// when it is taken and record that the thread holds it.
///
/// The thread that holds it may take it again (the call runs at once), and so may the
/// library's own thread, which holds it while it calls back (`heldByLibrary`). Waiting on the
/// library's condition releases the lock: wrap the wait in ``whileWaiting(_:)``.
package final class ForeignLock: @unchecked Sendable {
    private let rank: LockRank
    private let take: () -> Void
    private let release: () -> Void
    private let heldByLibrary: () -> Bool
    /// The thread holding the lock through ``withLock(_:)`` (0: none).
    private let owner = Atomic<UInt>(0)

    /// - Parameters:
    ///   - rank: Where the lock stands in the package's order.
    ///   - lock, unlock: The library's calls.
    ///   - heldByLibrary: True on the library's own thread while it holds the lock (inside its
    ///     callbacks).
    package init(rank: LockRank, lock: @escaping () -> Void, unlock: @escaping () -> Void, heldByLibrary: @escaping () -> Bool) {
        self.rank = rank
        take = lock
        release = unlock
        self.heldByLibrary = heldByLibrary
    }

    /// True when the calling thread holds the lock (through this type, or as the library's thread).
    package var isHeld: Bool { owner.load(ordering: .relaxed) == UInt(pthread_self()) || heldByLibrary() }

    /// Runs `body` with the lock held.
    package func withLock<T, E: Error>(file: StaticString = #fileID, line: UInt = #line, _ body: () throws(E) -> T) throws(E) -> T {
        if isHeld { return try body() }
        LockOrder.assertMayTake(rank, file: file, line: line)
        take()
        owner.store(UInt(pthread_self()), ordering: .relaxed)
        let recorded = LockOrder.record(rank, taken: true)
        defer {
            if recorded { LockOrder.record(rank, taken: false) }
            owner.store(0, ordering: .relaxed)
            release()
        }
        return try body()
    }

    /// Runs `wait`, a library call that releases the lock while it waits and takes it again
    /// before it returns, with the lock held through ``withLock(_:)``.
    package func whileWaiting<T>(_ wait: () -> T) -> T {
        let me = UInt(pthread_self())
        let mine = owner.load(ordering: .relaxed) == me
        if mine {
            owner.store(0, ordering: .relaxed)
            LockOrder.record(rank, taken: false)
        }
        defer {
            if mine {
                owner.store(me, ordering: .relaxed)
                LockOrder.record(rank, taken: true)
            }
        }
        return wait()
    }
}
