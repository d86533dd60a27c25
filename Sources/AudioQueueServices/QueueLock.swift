#if canImport(Glibc)
import Glibc
#endif

/// A mutex with a condition variable. The queue's state lives behind one; it is never held
/// while user code runs.
final class QueueLock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let cond = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init() {
        pthread_mutex_init(mutex, nil)
        var attr = pthread_condattr_t()
        pthread_condattr_init(&attr)
        pthread_condattr_setclock(&attr, CLOCK_MONOTONIC)
        pthread_cond_init(cond, &attr)
        pthread_condattr_destroy(&attr)
    }

    deinit {
        pthread_cond_destroy(cond)
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        cond.deallocate()
    }

    @inline(__always)
    func withLock<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Waits (the lock held by the caller) until signalled or `timeoutNanos` pass.
    func wait(timeoutNanos: UInt64) {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        let total = UInt64(ts.tv_nsec) + timeoutNanos
        ts.tv_sec += Int(total / 1_000_000_000)
        ts.tv_nsec = Int(total % 1_000_000_000)
        pthread_cond_timedwait(cond, mutex, &ts)
    }

    func broadcast() { pthread_cond_broadcast(cond) }
}
