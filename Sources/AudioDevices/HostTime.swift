#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The monotonic clock Core Audio calls host time, in nanoseconds.
public enum HostTime {
    /// Now, in nanoseconds of `CLOCK_MONOTONIC`.
    public static func now() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }

    /// Sleeps until `deadline` (nanoseconds of the monotonic clock).
    public static func sleep(until deadline: UInt64) {
        var ts = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nil) == EINTR {}
    }
}
