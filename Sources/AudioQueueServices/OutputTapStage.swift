import AudioCore

/// An output queue's processing tap in its ``OutputChain`` (pre- or post-effects): asks the tap
/// for the chain's frames, at most its maximum at a time, and hands it the source audio from the
/// stage before it, deinterleaved.
///
/// What comes out of a non-siphon tap: the frames asked for — silence after what the tap
/// returned when it returned fewer — except when the source itself came up short during the
/// call (the buffer queue ran dry, or the stream ended): then only as many frames as the source
/// gave, so that a dry queue still reads as dry (an underrun, or the end of an offline render).
/// A siphon's audio passes unchanged.
///
/// Allocation-free once made. Used with the render lock held.
final class OutputTapStage: ChainStage, TapHost {
    let tap: AudioQueueProcessingTap
    private let call: AudioQueueProcessingTap.Call
    private unowned let engine: RenderEngine
    private let channels: Int
    private let maximumFrames: Int
    private let isPostEffects: Bool
    private let isSiphon: Bool
    /// The playback rate the post-effects side runs at (1 without a time/pitch unit).
    var rate: () -> Double = { 1 }
    /// Interleaved source frames pulled for the tap.
    private let scratch: UnsafeMutablePointer<Float>
    /// The next call begins a new stream.
    private var pendingStart = true
    /// The engine's position after the last pull: a different one before the next means the
    /// queue's time jumped (a discontinuity).
    private var expectedPosition: Int64?
    /// The tap's frames since the stream started (its callback's time stamp).
    private var tapFrames: Int64 = 0
    /// Post-effects: the queue time of the next source frame, counted in queue frames.
    private var queuePosition: Double = 0
    private var lastQueueTime: (sampleTime: Double, frameCount: Int) = (0, 0)
    private var endReported = false
    // The stage before this one, during a render.
    private var pull: ((UnsafeMutablePointer<Float>, Int) -> Int)?
    private var ended: (() -> Bool)?

    init(tap: AudioQueueProcessingTap, engine: RenderEngine) {
        self.tap = tap
        call = tap.call
        self.engine = engine
        channels = tap.channels
        maximumFrames = tap.maximumFrames
        isPostEffects = tap.flags.contains(.postEffects)
        isSiphon = tap.flags.contains(.siphon)
        scratch = .allocate(capacity: maximumFrames * channels)
        scratch.initialize(repeating: 0, count: maximumFrames * channels)
        call.host = self
    }

    deinit {
        call.host = nil
        scratch.deallocate()
    }

    var holdsFrames: Bool { false }

    func reset() {
        pendingStart = true
        expectedPosition = nil
        tapFrames = 0
        endReported = false
    }

    func render(
        into destination: UnsafeMutablePointer<Float>, frameCount: Int,
        pull: (UnsafeMutablePointer<Float>, Int) -> Int, ended: () -> Bool
    ) -> Int {
        withoutActuallyEscaping(pull) { pull in
            withoutActuallyEscaping(ended) { ended in
                self.pull = pull
                self.ended = ended
                defer {
                    self.pull = nil
                    self.ended = nil
                }
                return isSiphon ? siphon(into: destination, frameCount: frameCount) : process(into: destination, frameCount: frameCount)
            }
        }
    }

    private var stamp: AudioTimeStamp { AudioTimeStamp(sampleTime: Double(tapFrames), flags: .sampleTimeValid) }

    /// The queue's time jumped since the last pull (a reset, a stop, an underrun absorbed).
    private var isDiscontinuous: Bool { expectedPosition != nil && expectedPosition != engine.position }

    /// The flags a call begins with: the tap's, and the start of a stream when one is due.
    private var entryFlags: AudioQueueProcessingTapFlags {
        pendingStart || isDiscontinuous ? tap.flags.union(.startOfStream) : tap.flags
    }

    /// A non-siphon tap: the tap takes its source through ``takeSource(frames:into:)``.
    private func process(into destination: UnsafeMutablePointer<Float>, frameCount: Int) -> Int {
        var done = 0
        while done < frameCount {
            let k = min(maximumFrames, frameCount - done)
            call.begin(frames: k, flags: entryFlags, timeStamp: stamp)
            let produced = call.run()
            let passed = call.shortSource ? min(k, call.sourceFrames) : k
            let out = min(produced, passed)
            let d = destination + done * channels
            Deinterleave.merge(call.outputs, channels: channels, frames: out, into: d)
            if out < passed { (d + out * channels).update(repeating: 0, count: (passed - out) * channels) }
            tapFrames += Int64(passed)
            done += passed
            if passed < k { break }
        }
        return done
    }

    /// A siphon: the audio goes straight to the destination; the tap sees a copy.
    private func siphon(into destination: UnsafeMutablePointer<Float>, frameCount: Int) -> Int {
        var done = 0
        while done < frameCount {
            let k = min(maximumFrames, frameCount - done)
            let d = destination + done * channels
            let (got, flags) = pullSource(into: d, frames: k)
            if got > 0 || flags.contains(.endOfStream) {
                let base = call.storage, stride = maximumFrames
                Deinterleave.split(d, channels: channels, frames: got) { base + $0 * stride }
                call.begin(frames: got, flags: tap.flags.union(flags), timeStamp: stamp, given: got)
                _ = call.run()
            }
            tapFrames += Int64(got)
            done += got
            if got < k { break }
        }
        return done
    }

    /// Pulls up to `frames` interleaved frames from the stage before into `destination`;
    /// the frames and the flags that describe them. Records the queue time of the chunk.
    private func pullSource(into destination: UnsafeMutablePointer<Float>, frames: Int) -> (Int, AudioQueueProcessingTapFlags) {
        guard let pull else { return (0, []) }
        var flags: AudioQueueProcessingTapFlags = []
        let before = engine.position
        if isDiscontinuous { pendingStart = true }
        let got = pull(destination, frames)
        expectedPosition = engine.position
        // The start of a stream is flagged with its first audio; its end once.
        if pendingStart && got > 0 {
            flags.insert(.startOfStream)
            pendingStart = false
            endReported = false
            queuePosition = Double(before)
        }
        if got < frames, !endReported, ended?() == true {
            flags.insert(.endOfStream)
            endReported = true
            pendingStart = true
        }
        if isPostEffects {
            let covered = Int((Double(got) * rate()).rounded())
            lastQueueTime = (queuePosition, covered)
            queuePosition += Double(covered)
        } else {
            lastQueueTime = (Double(before), got)
        }
        return (got, flags)
    }

    // MARK: TapHost

    func takeSource(frames: Int, into destination: (Int) -> UnsafeMutablePointer<Float>)
        -> (frames: Int, flags: AudioQueueProcessingTapFlags, timeStamp: AudioTimeStamp) {
        let time = AudioTimeStamp(sampleTime: Double(tapFrames) + Double(call.sourceFrames), flags: .sampleTimeValid)
        let (got, flags) = pullSource(into: scratch, frames: frames)
        Deinterleave.split(scratch, channels: channels, frames: got, into: destination)
        return (got, flags, time)
    }

    func queueTime() -> (sampleTime: Double, frameCount: Int)? { lastQueueTime }
}
