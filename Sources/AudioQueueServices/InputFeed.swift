import AudioDevices
import Dispatch
import Synchronization

/// The device side of an input queue: what the capture device's I/O thread calls. It copies
/// what was recorded into the capture ring, and when the ring has no room drops the block and
/// records where the gap is, so that the capture thread keeps the timeline exact. It takes no
/// lock, allocates nothing and never runs program code.
///
/// `@unchecked Sendable`: the gap queue and `queue` are shared lock-free between the I/O thread
/// and the capture thread (one producer, one consumer, set before the first start), which the
/// compiler cannot check; the rest is atomics.
final class InputFeed: AudioCaptureSink, @unchecked Sendable {
    let ring: FloatRing
    let channels: Int
    let sampleRate: Double
    /// Signalled when the ring holds ``wakeThreshold`` frames, on gaps and on device events;
    /// the capture thread waits on it.
    let wake = DispatchSemaphore(value: 0)
    /// Whether the capture thread asks for real-time scheduling: the device it serves is
    /// paced by a clock (``ThreadPriority/pipeline(serving:)``), set as the device starts.
    let realTimeThread = Atomic<Bool>(false)
    /// Frames the capture thread wants before it is woken (it lowers this while stopping).
    let wakeThreshold = Atomic<Int>(1)
    /// Frames the device has delivered since the queue started, dropped ones included: the
    /// capture timeline's length.
    let framesSeen = Atomic<Int64>(0)
    /// Device overruns and ring overflows since the queue was created (timeline discontinuities).
    let discontinuities = Atomic<Int>(0)
    /// The host time of frame ``anchorFrame`` of the timeline (the first frame of the latest
    /// block), published together.
    private let anchor = Atomic<WordPair>(WordPair(first: 0, second: 0))
    nonisolated(unsafe) weak var queue: AudioInputQueue?

    /// Gaps: at ring write position `position[i]`, `frames[i]` frames were dropped. A single-
    /// producer single-consumer queue of fixed size; when it is full, later drops wait in
    /// `unpublished` (I/O thread only) for the next slot.
    private let gapCapacity = 64
    private let gapPositions: UnsafeMutablePointer<Int>
    private let gapFrames: UnsafeMutablePointer<Int>
    private let gapsWritten = Atomic<Int>(0)
    private let gapsRead = Atomic<Int>(0)
    private nonisolated(unsafe) var unpublished = 0

    init(ringFrames: Int, channels: Int, sampleRate: Double) {
        ring = FloatRing(capacity: ringFrames, channels: channels)
        self.channels = channels
        self.sampleRate = sampleRate
        gapPositions = .allocate(capacity: gapCapacity)
        gapPositions.initialize(repeating: 0, count: gapCapacity)
        gapFrames = .allocate(capacity: gapCapacity)
        gapFrames.initialize(repeating: 0, count: gapCapacity)
    }

    deinit {
        gapPositions.deallocate()
        gapFrames.deallocate()
    }

    /// Forgets everything before a start (no device running).
    func reset() {
        ring.clear()
        unpublished = 0
        gapsRead.store(gapsWritten.load(ordering: .acquiring), ordering: .releasing)
        framesSeen.store(0, ordering: .releasing)
        anchor.store(WordPair(first: 0, second: 0), ordering: .releasing)
    }

    // MARK: The device's I/O thread

    func capture(_ samples: UnsafePointer<Float>, frameCount: Int, hostTime: UInt64) {
        guard frameCount > 0 else { return }
        let first = framesSeen.load(ordering: .relaxed)
        anchor.store(WordPair(first: UInt(truncatingIfNeeded: first), second: UInt(hostTime)), ordering: .releasing)
        if unpublished > 0 { publishGap() }
        if unpublished == 0 && ring.space >= frameCount {
            var done = 0
            while done < frameCount {
                let (pointer, room) = ring.writableRegion(max: frameCount - done)
                pointer.update(from: samples + done * channels, count: room * channels)
                ring.commit(room)
                done += room
            }
        } else {
            // No room: the block is lost. The gap is recorded where the ring stands now.
            unpublished += frameCount
            publishGap()
            discontinuities.add(1, ordering: .relaxed)
        }
        framesSeen.store(first + Int64(frameCount), ordering: .releasing)
        if ring.available >= wakeThreshold.load(ordering: .relaxed) { wake.signal() }
    }

    private func publishGap() {
        let w = gapsWritten.load(ordering: .relaxed)
        guard w - gapsRead.load(ordering: .acquiring) < gapCapacity else { return }
        gapPositions[w % gapCapacity] = ring.writePosition
        gapFrames[w % gapCapacity] = unpublished
        unpublished = 0
        gapsWritten.store(w + 1, ordering: .releasing)
        wake.signal()
    }

    func device(_ device: any AudioInputDevice, didReport event: AudioDeviceEvent) {
        switch event.kind {
        case .overrun, .moved: discontinuities.add(1, ordering: .relaxed)
        default: break
        }
        queue?.deviceReported(event)
        wake.signal()
    }

    // MARK: The capture thread

    /// The next gap, if the reader has reached the ring position where it happened: how many
    /// frames are missing before what the ring holds next.
    func takeGap(atRingPosition position: Int) -> Int? {
        let r = gapsRead.load(ordering: .relaxed)
        guard r < gapsWritten.load(ordering: .acquiring), gapPositions[r % gapCapacity] <= position else { return nil }
        let frames = gapFrames[r % gapCapacity]
        gapsRead.store(r + 1, ordering: .releasing)
        return frames
    }

    /// Where the next gap is in the ring (nil: none waiting), so that a read stops there.
    var nextGapPosition: Int? {
        let r = gapsRead.load(ordering: .relaxed)
        guard r < gapsWritten.load(ordering: .acquiring) else { return nil }
        return gapPositions[r % gapCapacity]
    }

    /// The host time at which frame `frame` of the timeline was recorded, from the latest
    /// block's time and the sample rate; 0 before anything was recorded.
    func hostTime(ofFrame frame: Int64) -> UInt64 {
        let a = anchor.load(ordering: .acquiring)
        guard a.second != 0 else { return 0 }
        let offset = Double(frame - Int64(truncatingIfNeeded: a.first)) * 1e9 / sampleRate
        let t = Double(a.second) + offset
        return t > 0 ? UInt64(t) : 0
    }

    /// The timeline frame recorded at host time `hostTime` (the inverse of ``hostTime(ofFrame:)``).
    func frame(atHostTime hostTime: UInt64) -> Int64 {
        let a = anchor.load(ordering: .acquiring)
        guard a.second != 0 else { return framesSeen.load(ordering: .acquiring) }
        let seconds = (Double(hostTime) - Double(a.second)) / 1e9
        return Int64(truncatingIfNeeded: a.first) + Int64((seconds * sampleRate).rounded())
    }
}
