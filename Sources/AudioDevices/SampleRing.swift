import Synchronization

/// Samples on their way from one real-time thread to another — a device's input side to the
/// cycle its output side runs, a capture thread to the program's render: one writer, one
/// reader, no lock, no allocation after it is made.
package final class SampleRing: @unchecked Sendable {
    private let storage: UnsafeMutablePointer<Float>
    private let capacity: Int
    private let written = Atomic<Int>(0)
    private let taken = Atomic<Int>(0)

    /// A ring that holds `samples` samples.
    package init(samples: Int) {
        capacity = max(1, samples)
        storage = .allocate(capacity: capacity)
        storage.initialize(repeating: 0, count: capacity)
    }

    deinit { storage.deallocate() }

    /// Samples written and not yet taken.
    package var available: Int { written.load(ordering: .acquiring) - taken.load(ordering: .acquiring) }

    /// Adds `count` samples; what does not fit is dropped (an overrun). Returns how many it took.
    @discardableResult
    package func write(_ samples: UnsafePointer<Float>, count: Int) -> Int {
        let w = written.load(ordering: .relaxed)
        let free = capacity - (w - taken.load(ordering: .acquiring))
        let n = min(count, free)
        for i in 0..<n { storage[(w + i) % capacity] = samples[i] }
        written.store(w + n, ordering: .releasing)
        return n
    }

    /// Takes `count` samples when there are that many; false (nothing taken) when not.
    package func read(into out: UnsafeMutablePointer<Float>, count: Int) -> Bool {
        let t = taken.load(ordering: .relaxed)
        guard written.load(ordering: .acquiring) - t >= count else { return false }
        for i in 0..<count { out[i] = storage[(t + i) % capacity] }
        taken.store(t + count, ordering: .releasing)
        return true
    }

    /// Drops up to `count` samples unread; returns how many it dropped.
    @discardableResult
    package func skip(_ count: Int) -> Int {
        let t = taken.load(ordering: .relaxed)
        let n = min(count, written.load(ordering: .acquiring) - t)
        taken.store(t + n, ordering: .releasing)
        return n
    }
}
