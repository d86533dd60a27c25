import AudioDevices
import Synchronization

/// A playback stream's position as the main loop's thread last described it, read on any
/// thread without a lock: a queue asks for its time under its own state lock, which must never
/// wait for the main loop (the one every stream of the process shares).
///
/// The main loop's thread publishes, with its lock held, how to work the position out at any
/// host time (``Description``); readers compute it from the latest description. A sequence
/// lock keeps a description whole: the writer makes the sequence odd while it stores the
/// fields, and a reader that saw an odd sequence, or a different one after reading, reads
/// again. Every field is an atomic, so no access races.
///
/// The position never goes back within a stream (``Description/epoch``): readers keep the
/// largest one handed out with compare-and-exchange.
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
    private let sequence = Atomic<UInt>(0)
    private let epoch = Atomic<UInt>(0)
    private let valid = Atomic<Bool>(false)
    /// Doubles as their bit patterns; a held position of NaN means "not held".
    private let held = Atomic<UInt64>(0)
    private let offset = Atomic<UInt64>(0)
    private let floor = Atomic<UInt64>(0)
    private let idleFrames = Atomic<UInt64>(0)
    /// 0: not idle.
    private let idleSince = Atomic<UInt64>(0)
    /// The epoch and the largest position handed out in it.
    private let latest = Atomic<WordPair>(WordPair(first: 0, second: 0))

    init(rate: Double) { self.rate = rate }

    /// Publishes `d` (the main loop's thread, its lock held: one writer at a time).
    func publish(_ d: Description) {
        let s = sequence.load(ordering: .relaxed)
        sequence.store(s &+ 1, ordering: .relaxed)
        atomicMemoryFence(ordering: .releasing)
        epoch.store(d.epoch, ordering: .relaxed)
        valid.store(d.valid, ordering: .relaxed)
        held.store((d.held ?? .nan).bitPattern, ordering: .relaxed)
        offset.store(d.offset.bitPattern, ordering: .relaxed)
        floor.store(d.floor.bitPattern, ordering: .relaxed)
        idleFrames.store(d.idleFrames.bitPattern, ordering: .relaxed)
        idleSince.store(d.idleSince ?? 0, ordering: .relaxed)
        sequence.store(s &+ 2, ordering: .releasing)
    }

    /// The latest description published, whole.
    func read() -> Description {
        while true {
            let s = sequence.load(ordering: .acquiring)
            if s & 1 == 1 { continue }
            let h = Double(bitPattern: held.load(ordering: .relaxed))
            let since = idleSince.load(ordering: .relaxed)
            let d = Description(
                epoch: epoch.load(ordering: .relaxed), valid: valid.load(ordering: .relaxed), held: h.isNaN ? nil : h,
                offset: Double(bitPattern: offset.load(ordering: .relaxed)), floor: Double(bitPattern: floor.load(ordering: .relaxed)),
                idleFrames: Double(bitPattern: idleFrames.load(ordering: .relaxed)), idleSince: since == 0 ? nil : since)
            atomicMemoryFence(ordering: .acquiring)
            if sequence.load(ordering: .relaxed) == s { return d }
        }
    }

    /// The position at host time `now`, in frames: never less than one handed out before in
    /// the same stream; 0 while there is no ready stream.
    func frames(at now: UInt64) -> Int64 {
        while true {
            let d = read()
            guard d.valid else { return 0 }
            var position = d.held ?? (Double(now) / 1e9 * rate + d.offset)
            position = max(position, d.floor) + d.idleFrames
            if let since = d.idleSince, now > since { position += Double(now - since) * rate / 1e9 }
            let value = UInt(max(0, Int64(position)))
            var current = latest.load(ordering: .relaxed)
            while true {
                // A description of an older stream than the one handed out: read again.
                if current.first > d.epoch { break }
                let best = current.first == d.epoch ? max(current.second, value) : value
                let (exchanged, seen) = latest.compareExchange(
                    expected: current, desired: WordPair(first: d.epoch, second: best), ordering: .relaxed)
                if exchanged { return Int64(best) }
                current = seen
            }
        }
    }
}
