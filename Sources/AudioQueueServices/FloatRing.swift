import Synchronization

/// A single-producer single-consumer ring of interleaved Float32 frames: the queue's decode
/// buffer (`kAudioQueueProperty_DecodeBufferSizeFrames`). The render side writes, the device's
/// I/O thread reads; neither locks nor allocates.
///
/// `@unchecked Sendable`: the storage is a raw allocation shared by one writer and one reader,
/// each touching only the frames the `written`/`read` atomics hand it — an ordering the
/// compiler cannot see.
final class FloatRing: @unchecked Sendable {
    let capacity: Int
    let channels: Int
    private let storage: UnsafeMutablePointer<Float>
    private let written = Atomic<Int>(0)
    private let read = Atomic<Int>(0)
    /// Frames before this position are to be skipped by the reader (set by a reset).
    private let discardBefore = Atomic<Int>(0)

    init(capacity: Int, channels: Int) {
        self.capacity = max(capacity, 1)
        self.channels = channels
        storage = .allocate(capacity: self.capacity * channels)
        storage.initialize(repeating: 0, count: self.capacity * channels)
    }

    deinit { storage.deallocate() }

    /// Frames waiting to be read.
    var available: Int {
        let w = written.load(ordering: .acquiring)
        let r = max(read.load(ordering: .acquiring), discardBefore.load(ordering: .acquiring))
        return max(0, w - r)
    }

    /// Frames written since the ring was made (the producer's position).
    var writePosition: Int { written.load(ordering: .acquiring) }

    /// Frames read or skipped since the ring was made (the consumer's position).
    var readPosition: Int { max(read.load(ordering: .acquiring), discardBefore.load(ordering: .acquiring)) }

    /// Frames that can be written.
    var space: Int { capacity - (written.load(ordering: .acquiring) - read.load(ordering: .acquiring)) }

    /// Producer: the writable region starting at the write position, up to `frames` and not
    /// wrapping; commit what was filled with ``commit(_:)``.
    func writableRegion(max frames: Int) -> (UnsafeMutablePointer<Float>, Int) {
        let w = written.load(ordering: .relaxed)
        let offset = w % capacity
        let n = min(frames, space, capacity - offset)
        return (storage + offset * channels, max(n, 0))
    }

    func commit(_ frames: Int) { written.add(frames, ordering: .releasing) }

    /// Consumer: copies up to `frames` into `destination`; returns frames copied.
    func read(into destination: UnsafeMutablePointer<Float>, frames: Int) -> Int {
        var r = read.load(ordering: .relaxed)
        let skip = discardBefore.load(ordering: .acquiring)
        if skip > r {
            r = skip
            read.store(r, ordering: .releasing)
        }
        let w = written.load(ordering: .acquiring)
        let n = min(frames, w - r)
        guard n > 0 else { return 0 }
        let offset = r % capacity
        let first = min(n, capacity - offset)
        destination.update(from: storage + offset * channels, count: first * channels)
        if first < n {
            (destination + first * channels).update(from: storage, count: (n - first) * channels)
        }
        read.store(r + n, ordering: .releasing)
        return n
    }

    /// Consumer: skips up to `frames` frames without copying them; returns frames skipped.
    @discardableResult
    func skip(_ frames: Int) -> Int {
        var r = read.load(ordering: .relaxed)
        let skipTo = discardBefore.load(ordering: .acquiring)
        if skipTo > r { r = skipTo }
        let n = min(frames, written.load(ordering: .acquiring) - r)
        guard n > 0 else { return 0 }
        read.store(r + n, ordering: .releasing)
        return n
    }

    /// Producer side: everything written so far is dropped (the reader skips it).
    func discardAll() {
        discardBefore.store(written.load(ordering: .acquiring), ordering: .releasing)
    }

    /// Makes the ring empty when no reader is running.
    func clear() {
        let w = written.load(ordering: .acquiring)
        read.store(w, ordering: .releasing)
        discardBefore.store(w, ordering: .releasing)
    }
}
