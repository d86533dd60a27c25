import Locking

/// How an output queue's time (source frames) follows the frames the device plays, when a
/// time/pitch unit changes the rate: runs of output frames, each starting at a known output
/// frame and queue frame and advancing `rate` queue frames per output frame. Empty (the
/// identity) while no time/pitch unit runs.
///
/// Written by the render side as the time/pitch stage takes source frames; read by
/// `AudioQueueGetCurrentTime` (and the post-effects tap's queue time) under the queue's state
/// lock. Its own lock is held only for a few loads and stores.
final class QueueTimeMap: Sendable {
    struct Run {
        var output: Int64
        var queue: Int64
        var rate: Double
    }

    /// The runs, oldest first; the oldest are forgotten beyond `limit` (the device plays
    /// well past them before that many changes of rate).
    private let runs: Guarded<[Run]>
    private static let limit = 64

    init() {
        var runs: [Run] = []
        runs.reserveCapacity(Self.limit + 1)
        self.runs = Guarded(runs)
    }

    /// Back to the identity (the queue stopped, or the unit was removed).
    func reset() { runs.withLock { $0.removeAll(keepingCapacity: true) } }

    /// From output frame `output` on, queue time runs from `queue` at `rate` (runs recorded at
    /// or after `output` are replaced).
    func anchor(output: Int64, queue: Int64, rate: Double) {
        runs.withLock { runs in
            while let last = runs.last, last.output >= output { runs.removeLast() }
            if runs.count >= Self.limit { runs.removeFirst(runs.count - Self.limit + 1) }
            runs.append(Run(output: output, queue: queue, rate: rate))
        }
    }

    /// The queue time (source frames) at output frame `output`.
    func queueFrames(output: Int64) -> Int64 {
        runs.withLock { runs in
            guard let first = runs.first else { return output }
            guard output >= first.output else { return max(0, first.queue - (first.output - output)) }
            var run = first
            for r in runs where r.output <= output { run = r }
            return run.queue + Int64((Double(output - run.output) * run.rate).rounded())
        }
    }

    /// The rate in force at the newest run (1 when empty).
    var currentRate: Double { runs.withLock { $0.last?.rate ?? 1 } }
}
