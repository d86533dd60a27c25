#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The interleaved output a processor holds until it is read, and the length rule: the output
/// never exceeds round(Σ framesᵢ / rateᵢ) and, after ``finish()``, equals it (the tail is trimmed
/// or padded with silence).
final class FrameQueue {
    let channels: Int
    private var storage: UnsafeMutablePointer<Float>
    private var capacity: Int
    private var head = 0
    private var tail = 0
    /// Σ framesᵢ / rateᵢ of the input written so far.
    private var owed = 0.0
    /// Frames read since the stream began.
    private var emitted = 0
    private(set) var finished = false

    init(channels: Int, capacity: Int) {
        self.channels = channels
        self.capacity = max(capacity, 1)
        storage = .allocate(capacity: self.capacity * channels)
    }

    deinit { storage.deallocate() }

    /// Frames held (some may be beyond the length rule's limit until more input arrives).
    var held: Int { tail - head }

    /// The output length the input so far asks for.
    var target: Int { Int(owed.rounded()) }

    /// Counts `frames` input frames written at `rate`.
    func owe(_ frames: Int, rate: Double) { owed += Double(frames) / rate }

    /// Frames a reader may take now.
    var available: Int { max(0, min(held, target - emitted)) }

    /// Room for `frames` more frames at the tail; call ``commit(_:)`` with what was written.
    /// Allocates only when the queue must grow.
    func reserve(_ frames: Int) -> UnsafeMutablePointer<Float> {
        if tail + frames > capacity {
            if head > 0 {
                let n = held
                memmove(storage, storage + head * channels, n * channels * MemoryLayout<Float>.size)
                head = 0
                tail = n
            }
            if tail + frames > capacity {
                let newCapacity = max(capacity * 2, tail + frames)
                let bigger = UnsafeMutablePointer<Float>.allocate(capacity: newCapacity * channels)
                bigger.update(from: storage, count: tail * channels)
                storage.deallocate()
                storage = bigger
                capacity = newCapacity
            }
        }
        return storage + tail * channels
    }

    /// Adds `frames` frames written at ``reserve(_:)``'s pointer.
    func commit(_ frames: Int) { tail += frames }

    /// Drops `frames` frames from the front without reading them (a leading delay).
    func discard(_ frames: Int) -> Int {
        let n = min(frames, held)
        head += n
        return n
    }

    /// Ends the stream: what is held is trimmed or padded with silence to the exact length.
    func finish() {
        guard !finished else { return }
        finished = true
        let need = target - emitted
        if held > need {
            tail = head + max(0, need)
        } else if held < need {
            let pad = need - held
            let p = reserve(pad)
            p.initialize(repeating: 0, count: pad * channels)
            commit(pad)
        }
    }

    /// Reads up to `frames` frames within the length rule.
    func read(into output: UnsafeMutablePointer<Float>, frames: Int) -> Int {
        let n = min(max(frames, 0), available)
        guard n > 0 else { return 0 }
        output.update(from: storage + head * channels, count: n * channels)
        head += n
        emitted += n
        if head == tail {
            head = 0
            tail = 0
        }
        return n
    }

    /// Starts a new stream.
    func reset() {
        head = 0
        tail = 0
        owed = 0
        emitted = 0
        finished = false
    }
}

/// The accepted rate range.
enum RateRange {
    static let minimum = 1.0 / 32
    static let maximum = 32.0
    static func clamp(_ rate: Double) -> Double {
        guard rate.isFinite else { return 1 }
        return min(max(rate, minimum), maximum)
    }
    static func clampCents(_ cents: Double) -> Double {
        guard cents.isFinite else { return 0 }
        return min(max(cents, -2400), 2400)
    }
}

/// `block` (`count` samples) when every sample is finite; otherwise `scratch`, holding the block
/// with NaN and infinities made silence (they would spread through a processor's state for the
/// rest of the stream).
@inline(__always)
func finiteSamples(_ block: UnsafePointer<Float>, count: Int, scratch: UnsafeMutablePointer<Float>) -> UnsafePointer<Float> {
    var i = 0
    while i < count && block[i].isFinite { i += 1 }
    guard i < count else { return block }
    for j in 0..<count { scratch[j] = block[j].isFinite ? block[j] : 0 }
    return UnsafePointer(scratch)
}
