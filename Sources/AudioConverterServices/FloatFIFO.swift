/// Interleaved Float32 frames waiting between two stages of a converter: appended at the end,
/// taken from the front. Its memory grows to the most frames it held and is never given back
/// until the converter goes, so a converter in steady state allocates nothing.
struct FloatFIFO {
    let channels: Int
    private(set) var storage: UnsafeMutablePointer<Float>
    /// Capacity in frames.
    private(set) var capacity: Int
    private var start = 0
    /// Frames held.
    private(set) var count = 0

    init(channels: Int, capacity: Int = 4096) {
        self.channels = max(1, channels)
        self.capacity = max(1, capacity)
        storage = .allocate(capacity: self.capacity * self.channels)
        storage.initialize(repeating: 0, count: self.capacity * self.channels)
    }

    func deallocate() { storage.deallocate() }

    /// The first frame held.
    var head: UnsafeMutablePointer<Float> { storage + start * channels }

    /// Makes room for `frames` more frames after those held and returns where they go; call
    /// ``commit(_:)`` with how many were written.
    mutating func reserve(_ frames: Int) -> UnsafeMutablePointer<Float> {
        if start + count + frames > capacity {
            if count + frames <= capacity {
                // Move what is held to the front.
                if count > 0 { storage.update(from: head, count: count * channels) }
                start = 0
            } else {
                let grown = max(capacity * 2, count + frames)
                let fresh = UnsafeMutablePointer<Float>.allocate(capacity: grown * channels)
                fresh.initialize(repeating: 0, count: grown * channels)
                if count > 0 { fresh.update(from: head, count: count * channels) }
                storage.deallocate()
                storage = fresh
                capacity = grown
                start = 0
            }
        }
        return storage + (start + count) * channels
    }

    /// Counts `frames` written after ``reserve(_:)``.
    mutating func commit(_ frames: Int) { count += frames }

    /// Drops `frames` frames from the front.
    mutating func consume(_ frames: Int) {
        let n = min(frames, count)
        start += n
        count -= n
        if count == 0 { start = 0 }
    }

    /// Drops everything.
    mutating func removeAll() {
        start = 0
        count = 0
    }
}
