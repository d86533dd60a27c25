import AudioDevices
import Locking

/// A playback stream's position as the main loop's thread last described it, read on any
/// thread without a lock: a queue asks for its time under its own state lock, which must never
/// wait for the main loop (the one every stream of the process shares).
///
/// The main loop's thread publishes, with its lock held, how to work the position out at any
/// host time (``Description``); readers compute it from the latest description, kept whole by
/// the package's sequence lock (`Published`, module Locking).
///
/// The position never goes back within a stream (``Description/epoch``): readers keep the
/// largest one handed out (`MonotonicPosition`).
final class PublishedPosition: Sendable {
    /// How to work out the position at a host time.
    struct Description: Equatable {
        /// The stream the description is of: a new stream starts from 0 again.
        var epoch: UInt = 0
        /// False while there is no ready stream (the position is 0).
        var valid = false
        /// Where the stream holds while it does not advance; nil while it runs.
        var held: Double? = 0
        /// While it runs: the position is `rate` × host seconds + `offset`.
        var offset: Double = 0
        /// The position may not be less than this (the clock's latest).
        var floor: Double = 0
        /// Frames of silence the sink played while the stream idled, and since when it has
        /// idled now (host time; nil when it does not).
        var idleFrames: Double = 0
        var idleSince: UInt64?
    }

    private let rate: Double
    private let description = Published(Description())
    private let latest = MonotonicPosition()

    init(rate: Double) { self.rate = rate }

    /// Publishes `d` (the main loop's thread, its lock held: one writer at a time).
    func publish(_ d: Description) { description.publish(d) }

    /// The latest description published, whole.
    func read() -> Description { description.read() }

    /// The position at host time `now`, in frames: never less than one handed out before in
    /// the same stream; 0 while there is no ready stream.
    func frames(at now: UInt64) -> Int64 {
        let d = read()
        guard d.valid else { return 0 }
        var position = d.held ?? (Double(now) / 1e9 * rate + d.offset)
        position = max(position, d.floor) + d.idleFrames
        if let since = d.idleSince, now > since { position += Double(now - since) * rate / 1e9 }
        return latest.advance(to: Int64(position), epoch: d.epoch)
    }
}
