import Synchronization

/// A stream's position in frames at any host time, published by the thread that measures it
/// (the data thread, from `pw_stream_get_time_n` on every cycle; or a control thread while the
/// stream does not run) and read on any thread without a lock: a queue asks for its time under
/// its own lock, which must never wait for the stream.
///
/// A description (``publish(epoch:held:offset:ceiling:)``) says how to work the position out:
/// held at a value, or running at the stream's rate from an offset (position less rate × host
/// seconds), never past the frames the stream was given (`ceiling`). A sequence lock keeps a
/// description whole: the writer makes the sequence odd while it stores the fields, and a
/// reader that saw an odd sequence, or another one after reading, reads again. The position
/// never goes back within an epoch (a start): readers keep the largest one handed out.
///
/// One writer at a time (the devices publish holding their state lock).
final class PipeWireClock: Sendable {
    private let rate: Double
    private let sequence = Atomic<UInt>(0)
    private let epoch = Atomic<UInt>(0)
    /// Doubles as their bit patterns; a held position of NaN means "runs".
    private let held = Atomic<UInt64>(0)
    private let offset = Atomic<UInt64>(0)
    private let ceiling = Atomic<UInt64>(0)
    /// The epoch and the largest position handed out in it.
    private let latest = Atomic<WordPair>(WordPair(first: 0, second: 0))

    init(rate: Double) { self.rate = rate }

    /// Publishes a description: in stream `epoch`, the position is `held`, or (nil) `rate` ×
    /// host seconds + `offset`; never more than `ceiling`.
    func publish(epoch e: UInt, held h: Double?, offset o: Double, ceiling c: Double) {
        let s = sequence.load(ordering: .relaxed)
        sequence.store(s &+ 1, ordering: .relaxed)
        atomicMemoryFence(ordering: .releasing)
        epoch.store(e, ordering: .relaxed)
        held.store((h ?? .nan).bitPattern, ordering: .relaxed)
        offset.store(o.bitPattern, ordering: .relaxed)
        ceiling.store(c.bitPattern, ordering: .relaxed)
        sequence.store(s &+ 2, ordering: .releasing)
    }

    /// The position at host time `now` (nanoseconds), in frames.
    func frames(at now: UInt64) -> Int64 {
        var e: UInt = 0
        var position = 0.0
        while true {
            let s = sequence.load(ordering: .acquiring)
            if s & 1 == 1 { continue }
            e = epoch.load(ordering: .relaxed)
            let h = Double(bitPattern: held.load(ordering: .relaxed))
            let o = Double(bitPattern: offset.load(ordering: .relaxed))
            let c = Double(bitPattern: ceiling.load(ordering: .relaxed))
            atomicMemoryFence(ordering: .acquiring)
            guard sequence.load(ordering: .relaxed) == s else { continue }
            position = min(h.isNaN ? Double(now) / 1e9 * rate + o : h, c)
            break
        }
        let value = UInt(max(0, position.rounded(.down)))
        var current = latest.load(ordering: .relaxed)
        while true {
            if current.first > e { return Int64(current.second) }
            let best = current.first == e ? max(current.second, value) : value
            let (exchanged, seen) = latest.compareExchange(expected: current, desired: WordPair(first: e, second: best), ordering: .relaxed)
            if exchanged { return Int64(best) }
            current = seen
        }
    }
}
