import AudioDevices
import Dispatch
import Synchronization

/// The device side of an output queue: what the device's I/O thread calls. It reads the
/// decode ring, fills underruns with silence and counts them, and once the ring is down to a
/// quarter refills it (linear PCM, when the queue's locks are free) or wakes the render thread.
/// It never waits for a lock.
///
/// `@unchecked Sendable`: ``ring`` is replaced only while no device runs (under the queue's
/// locks, which the I/O thread never takes), and `queue` is set once before the first start;
/// the rest is atomics.
final class OutputFeed: AudioRenderSource, @unchecked Sendable {
    /// Replaced only while no device is running.
    nonisolated(unsafe) var ring: FloatRing
    let channels: Int
    /// Frames handed to the device since the queue started (underrun silence included).
    let framesPulled = Atomic<Int64>(0)
    /// Underruns, and moves of the device to another sink, since the queue was created
    /// (timeline discontinuities).
    let underruns = Atomic<Int>(0)
    /// Silence frames played on underruns not yet accounted for by the render thread.
    let underrunFrames = Atomic<Int>(0)
    /// Set when the render side will write nothing more: the next short read ends the stream.
    let endOfStream = Atomic<Bool>(false)
    /// Set once real audio has played since the start (underruns before it are not counted).
    let hasPlayed = Atomic<Bool>(false)
    /// Signalled when the ring is down to a quarter or ran dry; the render thread waits on it.
    let wake = DispatchSemaphore(value: 0)
    /// Whether the render thread asks for real-time scheduling: the device it serves is paced
    /// by a clock (``ThreadPriority/pipeline(serving:)``), set as the device starts.
    let realTimeThread = Atomic<Bool>(false)
    /// Set when the device has woken the render thread to refill the ring, until the render
    /// thread wakes: the device periods in between do not signal again (each signal would be
    /// one more wake-up of the render thread, finding nothing to do).
    let refillRequested = Atomic<Bool>(false)
    /// Set when this thread refilled the ring itself (``AudioQueue/refillOnIOThread()``); the
    /// render thread, finding it set, need not look in as often.
    let refilledHere = Atomic<Bool>(false)
    /// Refills done on the device's thread, and rounds of the render thread that found the
    /// queue playing, since the queue was created (``AudioQueue/refillCounts``).
    let ioThreadRefills = Atomic<Int>(0)
    let renderThreadRounds = Atomic<Int>(0)
    /// Set once the render thread has been woken for a dry ring; cleared when audio flows
    /// again. A queue with nothing to play (a sound-effect voice between sounds) then wakes it
    /// once, not on every device period: enqueue, stop and dispose wake it themselves.
    let dryReported = Atomic<Bool>(false)
    /// Set when ``renderReady(into:frameCount:)`` found the ring dry and the device stopped
    /// asking: whoever next puts audio in the ring, or ends the stream, clears it and tells
    /// the device (``AudioOutputDevice/sourceHasAudio()``).
    let parked = Atomic<Bool>(false)
    /// Buffers the program has enqueued whose callbacks have not returned yet: enqueue adds
    /// one, and each buffer's trip through the callback line takes one off once its callback
    /// has returned (or was skipped). While any is out, a ring that runs short means the
    /// queue is late — decoding, or waiting for a callback to refill and enqueue — not that
    /// the program has paused: a device without a clock waits
    /// (``renderAwaiting(into:frameCount:)``).
    let buffersOut = Atomic<Int>(0)
    /// Set when ``renderAwaiting(into:frameCount:)`` came back short and the device waits:
    /// whoever next puts audio in the ring, or ends the stream, clears it and tells the device
    /// (``AudioOutputDevice/sourceHasAudio()``).
    let awaited = Atomic<Bool>(false)
    nonisolated(unsafe) weak var queue: AudioQueue?
    /// The queue's time against the frames played, while a time/pitch unit changes the rate.
    let timeMap = QueueTimeMap()
    /// The smallest buffer the device is opened with (frames; 0: the decode buffer size): set
    /// while the time/pitch unit is inserted.
    let deviceBufferFloor = Atomic<Int>(0)

    init(ring: FloatRing, channels: Int) {
        self.ring = ring
        self.channels = channels
    }

    func resetCounters() {
        framesPulled.store(0, ordering: .releasing)
        underrunFrames.store(0, ordering: .releasing)
        endOfStream.store(false, ordering: .releasing)
        hasPlayed.store(false, ordering: .releasing)
        dryReported.store(false, ordering: .releasing)
        parked.store(false, ordering: .releasing)
        awaited.store(false, ordering: .releasing)
        refillRequested.store(false, ordering: .releasing)
    }

    func render(into buffer: UnsafeMutablePointer<Float>, frameCount: Int) -> Int {
        let n = ring.read(into: buffer, frames: frameCount)
        if n > 0 && !hasPlayed.load(ordering: .relaxed) { hasPlayed.store(true, ordering: .releasing) }
        // The queue's clock starts with its first real frame.
        let playing = hasPlayed.load(ordering: .relaxed)
        if n < frameCount {
            if endOfStream.load(ordering: .acquiring) && ring.available == 0 {
                if playing { framesPulled.add(Int64(n), ordering: .releasing) }
                wake.signal()
                return n
            }
            (buffer + n * channels).update(repeating: 0, count: (frameCount - n) * channels)
            if playing {
                underruns.add(1, ordering: .releasing)
                underrunFrames.add(frameCount - n, ordering: .releasing)
            }
        }
        if playing { framesPulled.add(Int64(frameCount), ordering: .releasing) }
        if n == 0 {
            if !dryReported.exchange(true, ordering: .acquiringAndReleasing) { wake.signal() }
        } else {
            requestRefillIfLow(short: n < frameCount)
        }
        return frameCount
    }

    /// Refills the ring, or wakes the render thread to, once it is down to a quarter or a read
    /// came back short, with audio flowing: waking it every period would cost a context switch
    /// each, for a few frames of decoding. What is left in the ring and the device's own buffer cover the time
    /// it takes to refill. A ring that stays dry wakes it once (``dryReported``).
    private func requestRefillIfLow(short: Bool) {
        if dryReported.load(ordering: .relaxed) { dryReported.store(false, ordering: .releasing) }
        guard short || ring.available * 4 <= ring.capacity else { return }
        if refillRequested.load(ordering: .acquiring) { return }
        if let queue, queue.refillOnIOThread() {
            refilledHere.store(true, ordering: .releasing)
            ioThreadRefills.add(1, ordering: .relaxed)
            return
        }
        if !refillRequested.exchange(true, ordering: .acquiringAndReleasing) { wake.signal() }
    }

    /// What is in the ring, never silence: a device that lets its output idle (a sound server)
    /// stops asking when the ring runs dry, and the render thread tells it when audio is back
    /// (``parked``). Before the queue's first real frame it renders as ``render(into:frameCount:)``
    /// does, so that the device starts and reports it.
    func renderReady(into buffer: UnsafeMutablePointer<Float>, frameCount: Int) -> (frames: Int, ended: Bool) {
        guard hasPlayed.load(ordering: .relaxed) else {
            let n = render(into: buffer, frameCount: frameCount)
            return (n, n < frameCount)
        }
        var n = ring.read(into: buffer, frames: frameCount)
        if n == 0 {
            // Park first, then look again: audio committed in between is seen here, or the
            // render thread, which commits before it looks at `parked`, sees the flag.
            parked.store(true, ordering: .sequentiallyConsistent)
            atomicMemoryFence(ordering: .sequentiallyConsistent)
            n = ring.read(into: buffer, frames: frameCount)
            if n == 0 {
                if endOfStream.load(ordering: .sequentiallyConsistent) && ring.available == 0 {
                    parked.store(false, ordering: .releasing)
                    wake.signal()
                    return (0, true)
                }
                // A dry spell: one timeline discontinuity, and one wake of the render thread.
                if !dryReported.exchange(true, ordering: .acquiringAndReleasing) {
                    underruns.add(1, ordering: .releasing)
                    wake.signal()
                }
                return (0, false)
            }
            parked.store(false, ordering: .releasing)
        }
        framesPulled.add(Int64(n), ordering: .releasing)
        if n < frameCount && endOfStream.load(ordering: .acquiring) && ring.available == 0 {
            wake.signal()
            return (n, true)
        }
        requestRefillIfLow(short: n < frameCount)
        return (n, false)
    }

    /// For a device without a clock (a file, the null device): what is in the ring, and when
    /// that is short of a period while the program still has buffers out (enqueued, being
    /// played, or in a callback that has not returned), the frames read so far and no
    /// silence: the queue is late, and the device waits for the rest. No underrun is counted,
    /// and the queue's time, measured on the device's frames, stands still meanwhile. With no
    /// buffer out the gap is the program's own, and is filled with silence as
    /// ``render(into:frameCount:)`` fills it; a stream that has ended ends as there.
    func renderAwaiting(into buffer: UnsafeMutablePointer<Float>, frameCount: Int) -> (frames: Int, ended: Bool) {
        guard ring.available < frameCount, isLate else {
            let n = render(into: buffer, frameCount: frameCount)
            return (n, n < frameCount)
        }
        var n = ring.read(into: buffer, frames: frameCount)
        if n < frameCount {
            // Refill now (on this thread, when that is cheap) or wake the render thread: at
            // most once each time the render thread wakes, however long the wait.
            requestRefillIfLow(short: true)
            n += ring.read(into: buffer + n * channels, frames: frameCount - n)
            if n < frameCount {
                // Flag first, then look again: audio committed in between is read here, or
                // the render thread, which commits before it looks at the flag, sees it.
                awaited.store(true, ordering: .sequentiallyConsistent)
                atomicMemoryFence(ordering: .sequentiallyConsistent)
                n += ring.read(into: buffer + n * channels, frames: frameCount - n)
                if n == frameCount { awaited.store(false, ordering: .releasing) }
            }
        } else {
            requestRefillIfLow(short: false)
        }
        if n > 0 {
            if !hasPlayed.load(ordering: .relaxed) { hasPlayed.store(true, ordering: .releasing) }
            framesPulled.add(Int64(n), ordering: .releasing)
        }
        return (n, false)
    }

    /// Whether the program has buffers out and the stream has not ended: a ring running short
    /// now is the queue being late.
    private var isLate: Bool {
        buffersOut.load(ordering: .sequentiallyConsistent) > 0 && !endOfStream.load(ordering: .sequentiallyConsistent)
    }

    func device(_ device: any AudioOutputDevice, didReport event: AudioDeviceEvent) {
        queue?.deviceReported(event)
    }
}
