import AudioCore

/// An output queue's processing tap in its ``OutputChain`` (pre- or post-effects): asks the tap
/// for the chain's frames, at most its maximum at a time, and hands it the source audio from the
/// stage before it, deinterleaved.
///
/// Before each run of a non-siphon tap the stage pulls the frames it is about to ask for from
/// the stage before it (less what the tap left from its last run); the tap's
/// ``AudioQueueProcessingTap/Call/getSourceAudio(frames:)`` is served from them. (The stage
/// before can be pulled only while the chain renders, not from inside the tap's call.) A tap
/// therefore gets at most the frames it is asked for, plus what it left, per run.
///
/// What comes out of a non-siphon tap: the frames asked for — silence after what the tap
/// returned when it returned fewer — except when the source itself came up short (the buffer
/// queue ran dry, or the stream ended): then only as many frames as the tap took, so that a dry
/// queue still reads as dry (an underrun, or the end of an offline render). A siphon's audio
/// passes unchanged.
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
    /// Source frames pulled for the tap and not yet taken, interleaved, from the start.
    private let scratch: UnsafeMutablePointer<Float>
    private var held = 0
    /// The tap took source audio in its last run (a tap that takes none holds nothing back).
    private var tookSource = true
    /// The next audio pulled begins a new stream; the start (and the end) still to be told.
    private var pendingStart = true
    private var startToTell = false
    private var endToTell = false
    private var endReported = false
    /// The engine's position after the last pull: a different one before the next means the
    /// queue's time jumped (a discontinuity).
    private var expectedPosition: Int64?
    /// The tap's frames since the stream started (its callback's time stamp).
    private var tapFrames: Int64 = 0
    /// The queue time of the next source frame the tap takes (pre-effects: source frames;
    /// post-effects: counted at the rate).
    private var queuePosition: Double = 0
    private var lastQueueTime: (sampleTime: Double, frameCount: Int) = (0, 0)

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

    var holdsFrames: Bool { held > 0 && tookSource }

    func reset() {
        held = 0
        tookSource = true
        pendingStart = true
        startToTell = false
        endToTell = false
        endReported = false
        expectedPosition = nil
        tapFrames = 0
    }

    func render(
        into destination: UnsafeMutablePointer<Float>, frameCount: Int,
        pull: (UnsafeMutablePointer<Float>, Int) -> Int, ended: () -> Bool
    ) -> Int {
        isSiphon
            ? siphon(into: destination, frameCount: frameCount, pull: pull, ended: ended)
            : process(into: destination, frameCount: frameCount, pull: pull, ended: ended)
    }

    private var stamp: AudioTimeStamp { AudioTimeStamp(sampleTime: Double(tapFrames), flags: .sampleTimeValid) }

    /// Calls `chunk` for successive pieces of at most one tap call (`maximumFrames`) until
    /// `frameCount` frames are done or a piece comes back short; `chunk` gets where the piece
    /// goes and its size, and returns the frames it gave. Returns the frames given in all.
    @inline(__always)
    private func inChunks(
        of frameCount: Int, into destination: UnsafeMutablePointer<Float>,
        _ chunk: (_ d: UnsafeMutablePointer<Float>, _ k: Int) -> Int
    ) -> Int {
        var done = 0
        while done < frameCount {
            let k = min(maximumFrames, frameCount - done)
            let given = chunk(destination + done * channels, k)
            tapFrames += Int64(given)
            done += given
            if given < k { break }
        }
        return done
    }

    /// A non-siphon tap, served from what the stage pulled for it.
    private func process(
        into destination: UnsafeMutablePointer<Float>, frameCount: Int,
        pull: (UnsafeMutablePointer<Float>, Int) -> Int, ended: () -> Bool
    ) -> Int {
        inChunks(of: frameCount, into: destination) { d, k in
            var dry = false
            if held < k {
                let want = k - held
                let got = pullSource(into: scratch + held * channels, frames: want, pull: pull, ended: ended)
                held += got
                dry = got < want
            }
            call.begin(frames: k, flags: startToTell ? tap.flags.union(.startOfStream) : tap.flags, timeStamp: stamp)
            let produced = call.run()
            tookSource = call.sourceTaken
            let passed = dry ? min(k, call.sourceFrames) : k
            // Told once, even to a tap that never takes its source.
            if passed > 0 { startToTell = false }
            let out = min(produced, passed)
            Deinterleave.merge(call.outputs, channels: channels, frames: out, into: d)
            if out < passed { (d + out * channels).update(repeating: 0, count: (passed - out) * channels) }
            return passed
        }
    }

    /// A siphon: the audio goes straight to the destination; the tap sees a copy.
    private func siphon(
        into destination: UnsafeMutablePointer<Float>, frameCount: Int,
        pull: (UnsafeMutablePointer<Float>, Int) -> Int, ended: () -> Bool
    ) -> Int {
        inChunks(of: frameCount, into: destination) { d, k in
            let got = pullSource(into: d, frames: k, pull: pull, ended: ended)
            if got > 0 || endToTell {
                var flags = tap.flags
                if startToTell { flags.insert(.startOfStream) }
                if endToTell { flags.insert(.endOfStream) }
                (startToTell, endToTell) = (false, false)
                let base = call.storage, stride = maximumFrames
                Deinterleave.split(d, channels: channels, frames: got) { base + $0 * stride }
                recordQueueTime(frames: got)
                call.begin(frames: got, flags: flags, timeStamp: stamp, given: got)
                _ = call.run()
            }
            return got
        }
    }

    /// Pulls up to `frames` interleaved frames from the stage before into `destination`, noting
    /// the start and end of the stream; returns the frames pulled.
    private func pullSource(
        into destination: UnsafeMutablePointer<Float>, frames: Int,
        pull: (UnsafeMutablePointer<Float>, Int) -> Int, ended: () -> Bool
    ) -> Int {
        let before = engine.position
        if expectedPosition != nil && expectedPosition != before { pendingStart = true }
        let got = pull(destination, frames)
        expectedPosition = engine.position
        // The start of a stream is told with its first audio; its end once.
        if pendingStart && got > 0 {
            pendingStart = false
            startToTell = true
            endReported = false
            queuePosition = Double(before) - (isPostEffects ? 0 : Double(held))
        }
        if got < frames, !endReported, ended() {
            endReported = true
            endToTell = true
            pendingStart = true
        }
        return got
    }

    /// The queue time of `frames` source frames taken now.
    private func recordQueueTime(frames: Int) {
        let covered = isPostEffects ? Int((Double(frames) * rate()).rounded()) : frames
        lastQueueTime = (queuePosition, covered)
        queuePosition += Double(covered)
    }

    // MARK: TapHost

    func takeSource(frames: Int, into destination: (Int) -> UnsafeMutablePointer<Float>)
        -> (frames: Int, flags: AudioQueueProcessingTapFlags, timeStamp: AudioTimeStamp) {
        let time = AudioTimeStamp(sampleTime: Double(tapFrames) + Double(call.sourceFrames), flags: .sampleTimeValid)
        let n = min(frames, held)
        Deinterleave.split(scratch, channels: channels, frames: n, into: destination)
        held -= n
        if held > 0 {
            UnsafeMutableRawPointer(scratch).copyMemory(from: scratch + n * channels, byteCount: held * channels * MemoryLayout<Float>.size)
        }
        var flags: AudioQueueProcessingTapFlags = []
        if startToTell && n > 0 {
            flags.insert(.startOfStream)
            startToTell = false
        }
        if endToTell && held == 0 {
            flags.insert(.endOfStream)
            endToTell = false
        }
        recordQueueTime(frames: n)
        return (n, flags, time)
    }

    func queueTime() -> (sampleTime: Double, frameCount: Int)? { lastQueueTime }
}
