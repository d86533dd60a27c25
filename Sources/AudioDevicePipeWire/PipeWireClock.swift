import Locking

/// A stream's position in frames at any host time, published by the thread that measures it
/// (the data thread, from `pw_stream_get_time_n` on every cycle; or a control thread while the
/// stream does not run) and read on any thread without a lock: a queue asks for its time under
/// its own lock, which must never wait for the stream.
///
/// A description (``publish(epoch:held:offset:ceiling:)``) says how to work the position out:
/// held at a value, or running at the stream's rate from an offset (position less rate × host
/// seconds), never past the frames the stream was given (`ceiling`), kept whole by the
/// package's sequence lock (`Published`, module Locking). The position never goes back within
/// an epoch (a start): readers keep the largest one handed out (`MonotonicPosition`).
///
/// One writer at a time (the devices publish holding their state lock).
final class PipeWireClock: Sendable {
    /// How to work the position out: in stream `epoch`, `held`, or (NaN) `rate` × host seconds
    /// + `offset`; never more than `ceiling`.
    private struct Description {
        var epoch: UInt = 0
        var held: Double = 0
        var offset: Double = 0
        var ceiling: Double = 0
    }

    private let rate: Double
    private let description = Published(Description())
    private let latest = MonotonicPosition()

    init(rate: Double) { self.rate = rate }

    /// Publishes a description: in stream `epoch`, the position is `held`, or (nil) `rate` ×
    /// host seconds + `offset`; never more than `ceiling`.
    func publish(epoch e: UInt, held h: Double?, offset o: Double, ceiling c: Double) {
        description.publish(Description(epoch: e, held: h ?? .nan, offset: o, ceiling: c))
    }

    /// The position at host time `now` (nanoseconds), in frames.
    func frames(at now: UInt64) -> Int64 {
        let d = description.read()
        let position = min(d.held.isNaN ? Double(now) / 1e9 * rate + d.offset : d.held, d.ceiling)
        return latest.advance(to: Int64(max(0, position.rounded(.down))), epoch: d.epoch)
    }
}
