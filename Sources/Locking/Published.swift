import Synchronization

/// A value one thread publishes and any thread reads without a lock: the package's one
/// sequence lock. Devices publish their clocks through it, so a queue reads a device's time
/// under its own state lock without ever waiting for the device, its I/O thread or a sound
/// server's lock (the lock order, ``LockRank``, puts the state lock last).
///
/// The writer makes the sequence odd, stores the value's bytes, and makes it even again; a
/// reader that saw an odd sequence, or another one after reading, reads again. The bytes are
/// kept as atomic words, so no access races (ThreadSanitizer sees none) and nothing allocates:
/// ``read()`` may be called on a real-time thread.
///
/// Writers should not overlap (each backend publishes from one thread, or under its own lock);
/// should two meet, the second waits for the first's few stores rather than leave the
/// sequence odd.
package final class Published<Value: BitwiseCopyable>: @unchecked Sendable {
    private let sequence = Atomic<UInt>(0)
    private let words: UnsafeMutablePointer<Atomic<UInt64>>
    private let count: Int

    package init(_ initial: Value) {
        count = max(1, (MemoryLayout<Value>.size + 7) / 8)
        // What read() gathers on the stack: a clock's description, not a block of data.
        precondition(count <= 16, "Published holds at most 128 bytes; \(Value.self) has \(MemoryLayout<Value>.size)")
        words = .allocate(capacity: count)
        for i in 0..<count { (words + i).initialize(to: Atomic(0)) }
        publish(initial)
    }

    deinit {
        words.deinitialize(count: count)
        words.deallocate()
    }

    /// Publishes `value`: readers see it whole from now on.
    package func publish(_ value: Value) {
        var s = sequence.load(ordering: .relaxed)
        while true {
            if s & 1 == 0 {
                let (exchanged, original) = sequence.weakCompareExchange(
                    expected: s, desired: s &+ 1, successOrdering: .acquiring, failureOrdering: .relaxed)
                if exchanged { break }
                s = original
            } else {
                s = sequence.load(ordering: .relaxed)
            }
        }
        atomicMemoryFence(ordering: .releasing)
        withUnsafeBytes(of: value) { raw in
            for i in 0..<count {
                var word: UInt64 = 0
                let start = i * 8
                withUnsafeMutableBytes(of: &word) { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: raw[start..<min(start + 8, raw.count)])) }
                words[i].store(word, ordering: .relaxed)
            }
        }
        sequence.store(s &+ 2, ordering: .releasing)
    }

    /// The latest value published, whole.
    package func read() -> Value {
        var buffer = InlineArray<16, UInt64>(repeating: 0)
        while true {
            let s = sequence.load(ordering: .acquiring)
            if s & 1 == 1 { continue }
            for i in 0..<count { buffer[i] = words[i].load(ordering: .relaxed) }
            atomicMemoryFence(ordering: .acquiring)
            if sequence.load(ordering: .relaxed) == s { break }
        }
        return withUnsafeBytes(of: &buffer) { $0.loadUnaligned(as: Value.self) }
    }
}

/// A clock position that never goes back within a stream: the largest value handed out so
/// far in the current epoch (a start, a new stream), kept with compare-and-exchange so that any
/// number of threads may ask at once.
///
/// A class, so its double-word atomic lives in an allocation of its own: as a noncopyable
/// struct stored in a class, optimized builds initialized it through a null pointer.
package final class MonotonicPosition: Sendable {
    /// The epoch and the largest position handed out in it.
    private let latest = Atomic<WordPair>(WordPair(first: 0, second: 0))

    package init() {}

    /// `value`, or the largest position already handed out in `epoch` if that is larger; for
    /// an epoch older than the latest one seen, that one's largest position.
    package func advance(to value: Int64, epoch: UInt) -> Int64 {
        let value = UInt(max(0, value))
        var current = latest.load(ordering: .relaxed)
        while true {
            if current.first > epoch { return Int64(current.second) }
            let best = current.first == epoch ? max(current.second, value) : value
            let (exchanged, seen) = latest.compareExchange(
                expected: current, desired: WordPair(first: epoch, second: best), ordering: .relaxed)
            if exchanged { return Int64(best) }
            current = seen
        }
    }
}
