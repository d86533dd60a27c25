// Package imports: the lock's calls are inlined into the modules that use it.
#if canImport(Glibc)
package import Glibc
#elseif canImport(Musl)
package import Musl
#endif
package import Synchronization

/// A value that only the holder of its lock can touch: a mutex, a condition variable, and the
/// state they guard. Nothing outside ``withLock(_:)`` reaches the state, so what guards what is
/// said by the type, not by a comment.
///
/// The package's one lock type. It is built on pthreads, which ThreadSanitizer understands
/// (it does not see `Synchronization.Mutex`, whose futex it cannot follow), so a sanitized run
/// reports only real races. Package access: it is not part of any module's public API.
///
/// Never held while program code runs. Debug builds record the holding thread, so that code
/// which must (or must not) run with the lock held can assert it.
package final class Guarded<State>: @unchecked Sendable {
    @usableFromInline let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    @usableFromInline let cond = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    /// The state, in memory of its own: never at the address of the object's header, which
    /// every caller reads before it takes the lock (a field of an empty type, such as a lock's
    /// `()`, has the object's address, and ThreadSanitizer took its accesses under the lock for
    /// a race with those reads).
    @usableFromInline let state: UnsafeMutablePointer<State>
    /// The holding thread (debug builds; 0 when free).
    @usableFromInline let holder = Atomic<UInt>(0)
    /// Where the lock stands in the package's lock order (``LockRank``): a ``LockRank/leaf``
    /// unless said otherwise.
    @usableFromInline let rank: LockRank

    package init(_ state: State, rank: LockRank = .leaf) {
        self.rank = rank
        let layout = MemoryLayout<State>.self
        self.state = UnsafeMutableRawPointer.allocate(byteCount: max(layout.size, 1), alignment: layout.alignment)
            .bindMemory(to: State.self, capacity: 1)
        self.state.initialize(to: state)
        pthread_mutex_init(mutex, nil)
        var attr = pthread_condattr_t()
        pthread_condattr_init(&attr)
        pthread_condattr_setclock(&attr, CLOCK_MONOTONIC)
        pthread_cond_init(cond, &attr)
        pthread_condattr_destroy(&attr)
    }

    deinit {
        state.deinitialize(count: 1)
        state.deallocate()
        pthread_cond_destroy(cond)
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        cond.deallocate()
    }

    /// Runs `body` with the lock held and the state lent to it.
    @inlinable @inline(__always)
    package func withLock<T, E: Error>(
        file: StaticString = #fileID, line: UInt = #line, _ body: (inout State) throws(E) -> T
    ) throws(E) -> T {
        lock(file: file, line: line)
        defer { unlock() }
        return try body(&state.pointee)
    }

    /// Runs `body` with the lock held if it is free now; nil, without waiting, if another
    /// thread holds it (a device's I/O thread, which must never wait for a lock whose holder
    /// may be waiting for the device).
    @inlinable @inline(__always)
    package func tryWithLock<T>(_ body: (inout State) -> T) -> T? {
        guard pthread_mutex_trylock(mutex) == 0 else { return nil }
        setHolder(pthread_self())
        defer { unlock() }
        return body(&state.pointee)
    }

    /// Waits, inside ``withLock(_:)``, until ``broadcast()`` or `timeoutNanos` pass; the lock is
    /// released meanwhile, so the state may have changed when it returns.
    package func wait(timeoutNanos: UInt64) {
        assertHeld()
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        let total = UInt64(ts.tv_nsec) + timeoutNanos
        ts.tv_sec += Int(total / 1_000_000_000)
        ts.tv_nsec = Int(total % 1_000_000_000)
        setHolder(0)
        pthread_cond_timedwait(cond, mutex, &ts)
        setHolder(pthread_self())
    }

    /// Wakes every thread in ``wait(timeoutNanos:)``.
    package func broadcast() { pthread_cond_broadcast(cond) }

    /// Debug builds: stops when the calling thread does not hold the lock.
    @inlinable @inline(__always)
    package func assertHeld(file: StaticString = #fileID, line: UInt = #line) {
        #if DEBUG
        assert(holder.load(ordering: .relaxed) == pthread_self(), "lock not held", file: file, line: line)
        #endif
    }

    /// Debug builds: stops when the calling thread holds the lock (before a call that may wait
    /// for another thread that takes it).
    @inlinable @inline(__always)
    package func assertNotHeld(file: StaticString = #fileID, line: UInt = #line) {
        #if DEBUG
        assert(holder.load(ordering: .relaxed) != pthread_self(), "lock held", file: file, line: line)
        #endif
    }

    @inlinable @inline(__always)
    func lock(file: StaticString = #fileID, line: UInt = #line) {
        #if DEBUG
        LockOrder.assertMayTake(rank, file: file, line: line)
        #endif
        pthread_mutex_lock(mutex)
        setHolder(pthread_self())
    }

    @inlinable @inline(__always)
    func unlock() {
        setHolder(0)
        pthread_mutex_unlock(mutex)
    }

    @inlinable @inline(__always)
    func setHolder(_ thread: pthread_t) {
        #if DEBUG
        holder.store(thread, ordering: .relaxed)
        LockOrder.record(rank, taken: thread != 0)
        #endif
    }
}
