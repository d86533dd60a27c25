import AudioTimePitch

/// The output queue's time/pitch unit (`kAudioQueueProperty_EnableTimePitch`): a stage of the
/// ``OutputChain`` that plays the engine's audio through a `TimePitchProcessor` at the
/// queue's `kAudioQueueParam_PlayRate` and `kAudioQueueParam_Pitch`, or passes it through
/// untouched while bypassed (`kAudioQueueProperty_TimePitchBypass`).
///
/// Rate and pitch changes reach the processor with the source frame they apply to (the
/// engine records where each one falls, ``RenderEngine/timePitchChanges``). As it writes
/// source frames, the stage records in the queue's ``QueueTimeMap`` which output frame each
/// run of them becomes, so that the queue's time (source frames) can be read off the frames
/// the device has played.
///
/// Not thread-safe: used with the queue's render lock held.
final class TimePitchStage: ChainStage {
    let processor: any TimePitchProcessor
    private let engine: RenderEngine
    private let map: QueueTimeMap
    private let channels: Int
    private let block = TimePitch.maximumBlockFrames
    /// Input pulled from upstream before it goes to the processor.
    private let scratch: UnsafeMutablePointer<Float>
    /// Passing audio through untouched, at rate 1.
    private(set) var bypassed = false
    /// Rate and pitch in force for the next source frame.
    private var rate: Float
    private var pitch: Float
    /// Output frames given out since the stream began.
    private var emitted: Int64 = 0
    /// The output frame the next source frame becomes, and that source frame's queue time.
    private var cursor: Double = 0
    private var nextQueue: Int64 = 0
    /// The rate the map was last told, and whether the next write starts a new run there.
    private var mapRate: Double = 1
    private var needsAnchor = true
    /// Source frames written since the processor last started a stream, not yet finished.
    private var written = false
    /// The processor was told the stream ended; it is being drained.
    private var finished = false

    init(processor: any TimePitchProcessor, engine: RenderEngine, map: QueueTimeMap) {
        self.processor = processor
        self.engine = engine
        self.map = map
        channels = engine.channels
        rate = engine.playRate
        pitch = engine.pitch
        scratch = .allocate(capacity: block * engine.channels)
        scratch.initialize(repeating: 0, count: block * engine.channels)
        processor.rate = Double(rate)
        processor.pitchCents = Double(pitch)
        engine.tracksTimePitch = true
    }

    deinit { scratch.deallocate() }

    var holdsFrames: Bool { written || processor.availableFrames > 0 }

    /// The rate at which queue time passes per output frame now.
    var effectiveRate: Double { bypassed ? 1 : Double(rate) }

    func reset() {
        processor.reset()
        written = false
        finished = false
        emitted = 0
        cursor = 0
        nextQueue = 0
        needsAnchor = true
        map.reset()
        engine.timePitchChanges.removeAll(keepingCapacity: true)
        rate = engine.playRate
        pitch = engine.pitch
        processor.rate = Double(rate)
        processor.pitchCents = Double(pitch)
    }

    /// After a reset of a running queue: the next frame given out plays at output frame
    /// `output` and is source frame `queue`.
    func reanchor(output: Int64, queue: Int64) {
        emitted = output
        cursor = Double(output)
        nextQueue = queue
        needsAnchor = true
        // The clock reads queue time through the map at once, before the next render.
        map.anchor(output: output, queue: queue, rate: effectiveRate)
    }

    /// Bypasses the processor or puts it back. What it holds is dropped (a few milliseconds):
    /// the audio goes on from the next source frame.
    func setBypassed(_ bypass: Bool) {
        guard bypass != bypassed else { return }
        bypassed = bypass
        processor.reset()
        written = false
        finished = false
        cursor = Double(emitted)
        needsAnchor = true
    }

    func render(
        into destination: UnsafeMutablePointer<Float>, frameCount: Int,
        pull: (UnsafeMutablePointer<Float>, Int) -> Int, ended: () -> Bool
    ) -> Int {
        if finished && processor.availableFrames == 0 {
            // The last stream was given out in full: what comes now is a new one.
            processor.reset()
            finished = false
            cursor = Double(emitted)
            needsAnchor = true
        }
        var done = 0
        while done < frameCount {
            let ready = processor.availableFrames
            if ready > 0 {
                let n = processor.read(into: destination + done * channels, frames: min(ready, frameCount - done))
                if n <= 0 { break }
                done += n
                emitted += Int64(n)
                continue
            }
            if finished { break }
            if bypassed {
                let want = frameCount - done
                let start = engine.position
                let n = pull(destination + done * channels, want)
                take(from: start, frames: n, through: nil)
                done += n
                emitted += Int64(n)
                if n < want { break }
                continue
            }
            let want = min(max(processor.inputFramesNeeded(forOutput: frameCount - done), 1), block)
            let start = engine.position
            let n = pull(scratch, want)
            if n > 0 {
                take(from: start, frames: n, through: processor)
                written = true
                continue
            }
            guard written, ended() else { break }
            processor.finish()
            written = false
            finished = true
        }
        return done
    }

    /// Accounts for `frames` source frames from queue time `start` (in `scratch`, or already in
    /// place when bypassed): applies the rate and pitch changes that fall among them, records
    /// the output frames they become, and writes them to `processor`.
    private func take(from start: Int64, frames: Int, through processor: (any TimePitchProcessor)?) {
        var offset = 0
        var taken = 0
        while offset < frames {
            let q = start + Int64(offset)
            while taken < engine.timePitchChanges.count && engine.timePitchChanges[taken].at <= q {
                apply(engine.timePitchChanges[taken])
                taken += 1
            }
            var end = frames
            if taken < engine.timePitchChanges.count {
                end = min(frames, max(offset + 1, Int(engine.timePitchChanges[taken].at - start)))
            }
            let run = end - offset
            account(queue: q, frames: run)
            processor?.write(scratch + offset * channels, frames: run)
            offset = end
        }
        if taken > 0 { engine.timePitchChanges.removeFirst(taken) }
    }

    private func apply(_ change: TimePitchChange) {
        if change.parameter == .playRate {
            rate = change.value
            processor.rate = Double(rate)
        } else {
            pitch = change.value
            processor.pitchCents = Double(pitch)
        }
    }

    /// Records that source frames `queue ..< queue + frames` become the output frames from
    /// ``cursor`` on, at the rate in force.
    private func account(queue: Int64, frames: Int) {
        let r = effectiveRate
        if queue != nextQueue {
            // Silence the device played meanwhile (an underrun) moved the queue's time on:
            // it took that many output frames at the rate in force.
            if queue > nextQueue { cursor += Double(queue - nextQueue) / mapRate }
            needsAnchor = true
        }
        if needsAnchor || r != mapRate {
            map.anchor(output: Int64(cursor.rounded()), queue: queue, rate: r)
            mapRate = r
            needsAnchor = false
        }
        cursor += Double(frames) / r
        nextQueue = queue + Int64(frames)
    }
}
