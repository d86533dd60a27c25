import AudioCore

/// An input queue's processing tap in its ``CaptureLine``: the captured audio (the queue's rate
/// and channels, interleaved Float32) waits here until the tap takes it; the tap is run while
/// audio waits, and what it returns goes on to the buffers.
///
/// A tap may take less than is waiting, or return fewer frames than asked: what it did not take
/// waits for its next call, so its input stays continuous. A call that takes nothing ends the
/// round. Should the waiting audio outgrow its store (a tap that stops taking),
/// the oldest is dropped and the next call starts a new stream.
///
/// Allocation-free once made. Used with the capture lock held.
final class InputTapStage: TapHost {
    let tap: AudioQueueProcessingTap
    private let call: AudioQueueProcessingTap.Call
    private let channels: Int
    private let maximumFrames: Int
    private let isSiphon: Bool
    /// Captured frames waiting for the tap, interleaved: `count` frames from `start`.
    private let store: UnsafeMutablePointer<Float>
    private let capacity: Int
    private var start = 0
    private var count = 0
    /// What the tap returned, interleaved.
    private let output: UnsafeMutablePointer<Float>
    /// The capture timeline's position of the next frame to arrive.
    private var inputPosition: Int64 = 0
    private var pendingStart = true
    private let hostTime: (Int64) -> UInt64

    init(tap: AudioQueueProcessingTap, chunkFrames: Int, hostTime: @escaping (Int64) -> UInt64) {
        self.tap = tap
        call = tap.call
        channels = tap.channels
        maximumFrames = tap.maximumFrames
        isSiphon = tap.flags.contains(.siphon)
        capacity = chunkFrames + 2 * maximumFrames
        store = .allocate(capacity: capacity * channels)
        store.initialize(repeating: 0, count: capacity * channels)
        output = .allocate(capacity: maximumFrames * channels)
        output.initialize(repeating: 0, count: maximumFrames * channels)
        self.hostTime = hostTime
        call.host = self
    }

    deinit {
        call.host = nil
        store.deallocate()
        output.deallocate()
    }

    /// Drops what waits; the next frame to arrive is at `position` of the timeline and starts
    /// a new stream (a start, a reset).
    func reset(at position: Int64) {
        start = 0
        count = 0
        inputPosition = position
        pendingStart = true
    }

    /// The timeline skips `frames` frames the device lost: a discontinuity.
    func skip(_ frames: Int) {
        inputPosition += Int64(frames)
        pendingStart = true
    }

    /// The capture time of the oldest waiting frame.
    private var headTime: AudioTimeStamp {
        let frame = inputPosition - Int64(count)
        let host = hostTime(frame)
        return AudioTimeStamp(sampleTime: Double(frame), hostTime: host, flags: host > 0 ? .sampleHostTimeValid : .sampleTimeValid)
    }

    /// Adds `frames` captured frames and runs the tap while audio waits; `deliver` gets what it
    /// returns.
    func process(_ source: UnsafePointer<Float>, frames: Int, deliver: (UnsafePointer<Float>, Int) -> Void) {
        var offset = 0
        while offset < frames {
            let n = min(frames - offset, capacity)
            append(source + offset * channels, frames: n)
            offset += n
            runTap(deliver: deliver)
        }
    }

    private func append(_ source: UnsafePointer<Float>, frames: Int) {
        if start + count + frames > capacity {
            if count + frames > capacity {
                let drop = count + frames - capacity
                start += drop
                count -= drop
                pendingStart = true
            }
            UnsafeMutableRawPointer(store).copyMemory(from: store + start * channels, byteCount: count * channels * MemoryLayout<Float>.size)
            start = 0
        }
        (store + (start + count) * channels).update(from: source, count: frames * channels)
        count += frames
        inputPosition += Int64(frames)
    }

    private func runTap(deliver: (UnsafePointer<Float>, Int) -> Void) {
        while count > 0 {
            let k = min(maximumFrames, count)
            let before = count
            var flags = tap.flags
            if pendingStart { flags.insert(.startOfStream) }
            if isSiphon {
                pendingStart = false
                let head = UnsafePointer(store + start * channels)
                let base = call.storage, stride = maximumFrames
                Deinterleave.split(head, channels: channels, frames: k) { base + $0 * stride }
                call.begin(frames: k, flags: flags, timeStamp: headTime, given: k)
                _ = call.run()
                deliver(head, k)
                start += k
                count -= k
                continue
            }
            call.begin(frames: k, flags: flags, timeStamp: headTime)
            let produced = call.run()
            if produced > 0 {
                Deinterleave.merge(call.outputs, channels: channels, frames: produced, into: output)
                deliver(output, produced)
            }
            // A tap that took nothing waits for more audio.
            if count == before { break }
        }
        if count == 0 { start = 0 }
    }

    // MARK: TapHost

    func takeSource(frames: Int, into destination: (Int) -> UnsafeMutablePointer<Float>)
        -> (frames: Int, flags: AudioQueueProcessingTapFlags, timeStamp: AudioTimeStamp) {
        let n = min(frames, count)
        let time = headTime
        var flags: AudioQueueProcessingTapFlags = []
        if pendingStart {
            flags.insert(.startOfStream)
            pendingStart = false
        }
        Deinterleave.split(store + start * channels, channels: channels, frames: n, into: destination)
        start += n
        count -= n
        return (n, flags, time)
    }

    /// An input queue has no queue time for its tap (`invalidTapType`).
    func queueTime() -> (sampleTime: Double, frameCount: Int)? { nil }
}
