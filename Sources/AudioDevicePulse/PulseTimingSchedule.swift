import CPulseAudio

/// When a playback stream asks the server for its timing (what ``PulseClock`` is built from),
/// instead of libpulse's automatic updates.
///
/// libpulse's schedule starts at 10 ms and doubles to 1.5 s, and starts over whenever the
/// stream is triggered or runs dry: for a stream that idles between short sounds that is
/// half its wake-ups. Here the schedule starts over only when the stream starts, resumes from
/// a pause or moves; the owner stops asking while the stream does not advance and asks once
/// when it is triggered again.
///
/// Used on the main loop's thread or with its lock held; ``close()`` before the loop goes.
final class PulseTimingSchedule {
    /// The first interval after a start, and the longest, in microseconds.
    static let first: UInt64 = 10_000
    static let longest: UInt64 = 1_500_000
    /// How soon to ask again when a report says the stream does not advance yet, at first
    /// and at most. The server says when it begins to play the stream (``PulseOutputDevice``
    /// then asks at once and restarts the schedule): the retries only cover a server that
    /// does not.
    static let firstRetry: UInt64 = 20_000
    static let longestRetry: UInt64 = 640_000

    private let api: UnsafeMutablePointer<pa_mainloop_api>
    private var event: OpaquePointer?
    private var interval = first
    private var retryInterval = firstRetry
    private let fire: () -> Void

    /// `fire` runs on the main loop's thread when the timer is due; it asks for timing and
    /// calls ``next()`` to go on.
    init(api: UnsafeMutablePointer<pa_mainloop_api>, fire: @escaping () -> Void) {
        self.api = api
        self.fire = fire
    }

    /// Starts over: the next report in ``first``, then each interval twice the last.
    func restart() {
        interval = Self.first
        retryInterval = Self.firstRetry
        arm(after: interval)
    }

    /// Arms the timer for the next interval, twice the last up to ``longest``.
    func next() {
        interval = min(interval * 2, Self.longest)
        arm(after: interval)
    }

    /// Asks again after a report that says the stream does not advance yet: in ``firstRetry``,
    /// then each wait twice the last up to ``longestRetry``. A sink that idled at a long
    /// latency (a null sink: up to two seconds) plays what it holds before the stream's first
    /// frame; asking every 20 ms until then cost a wake-up each, and the server's word that it
    /// started comes without asking.
    func retry() {
        arm(after: retryInterval)
        retryInterval = min(retryInterval * 2, Self.longestRetry)
    }

    /// The stream advances (or is about to start again): the next wait for it starts short.
    func resetRetry() { retryInterval = Self.firstRetry }

    /// Arms the timer `microseconds` from now (replacing the time it was armed for).
    func arm(after microseconds: UInt64) {
        var when = timeval()
        pa_gettimeofday(&when)
        pa_timeval_add(&when, microseconds)
        if let event {
            api.pointee.time_restart?(event, &when)
            return
        }
        event = api.pointee.time_new?(api, &when, { _, _, _, userdata in
            Unmanaged<PulseTimingSchedule>.fromOpaque(userdata!).takeUnretainedValue().fire()
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Frees the timer. Idempotent.
    func close() {
        if let event { api.pointee.time_free?(event) }
        event = nil
    }
}
