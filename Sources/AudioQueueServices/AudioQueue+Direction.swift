import AudioCore
import AudioDevices
import Locking

/// What the output queue gives the lifecycle both queue types share (``QueueDirection``).
extension AudioQueue: QueueDirection {
    var pipeline: PipelineLock<DecodeAhead> { render }

    func wakeThread() { feed.wake.signal() }

    /// Drops what is decoded and the buffer queue; after a stop the device's counters start
    /// again (a failed device's are left as they were).
    func emptyPipeline(_ r: inout DecodeAhead, _ end: PipelineEnd) {
        dropEverything(&r, rewinding: true)
        r.discardDecoded()
        if end == .stopped { feed.resetCounters() }
    }

    func makeDevice(uid: String?, defaultOf backend: String?) throws(AudioDeviceError) -> any AudioOutputDevice {
        let (decodeFrames, assigned) = core.state.withLock { ($0.side.decodeBufferFrames, $0.side.session.assignments) }
        // The time/pitch unit asks for a larger device buffer (``resizeRing(_:decodeBufferFrames:)``).
        let frames = max(decodeFrames, feed.deviceBufferFloor.load(ordering: .relaxed))
        if let assigned {
            // All the device's channels, the queue's in their places.
            return try AudioBackends.open(AudioDeviceRequest(output: .uid(uid ?? assigned.uid), sampleRate: sampleRate, placement: assigned.placement, bufferFrames: frames))
        }
        let target = AudioDeviceTarget(uid: uid, defaultOf: backend)
        return try AudioBackends.open(AudioDeviceRequest(output: target, sampleRate: sampleRate, channels: channels, bufferFrames: frames))
    }

    func mismatch(_ device: any AudioOutputDevice) -> String? {
        Int(device.format.channelsPerFrame) == channels && device.format.sampleRate == sampleRate
            ? nil : "\(device.info.uid) plays \(device.format), not \(channels) channels at \(sampleRate) Hz"
    }

    func connect(_ device: any AudioOutputDevice) throws(AudioDeviceError) { try device.start(source: feed) }

    /// Decodes ahead before the device asks, as at a start: it may take a whole buffer at once.
    func prepareForDevice() { render.withLockOnQueueThread { r in fill(&r) } }

    func countDiscontinuity() { feed.underruns.add(1, ordering: .relaxed) }

    var discontinuityCount: Int { feed.underruns.load(ordering: .acquiring) }

    /// Offline: the frames rendered; live: the device's clock since it started, added to where
    /// the queue was then.
    func queueFrames(_ s: Core.State) -> Int64 {
        feed.timeMap.queueFrames(output: outputFrames(s))
    }

    /// Output frames played (rendered, offline) since the queue started: the queue's time
    /// unless a time/pitch unit changes the rate (``QueueTimeMap``).
    func outputFrames(_ s: Core.State) -> Int64 {
        if let offline = s.side.offline { return offline.position }
        guard s.side.session.status == .running, let device = s.side.session.device else { return s.side.clock.timeBase }
        return s.side.clock.frames(devicePlayed: device.framesPlayed)
    }

    // MARK: The shared controls' hooks (QueueControl.swift)

    /// The render thread; after a stop, the counters and clock of a new run.
    func prepareStart(_ r: inout DecodeAhead, _ side: inout OutputSide, device: any AudioOutputDevice, fresh: Bool) throws(AudioQueueError) {
        feed.realTimeThread.store(ThreadPriority.pipeline(serving: device) == .pipeline, ordering: .relaxed)
        try startRenderThread(&side)
        if fresh {
            feed.resetCounters()
            side.clock = OutputClock()
        }
    }

    /// Decoded ahead before the device asks (what `prime()` prepared stays).
    func pipelineArmed(_ r: inout DecodeAhead) { fill(&r) }

    /// The render thread notices the stop and ends it once everything has played.
    func beginAsynchronousStop() { feed.wake.signal() }

    /// What a reset finds: whether the device runs, a paused device (what it holds goes too)
    /// and the output frames played, unless the queue is stopped.
    struct ResetPlan {
        let live: Bool
        let paused: (any AudioOutputDevice)?
        let playedOut: Int64?
    }

    func resetState(_ s: inout Core.State) -> ResetPlan {
        var paused: (any AudioOutputDevice)?
        if s.side.session.status == .paused {
            paused = s.side.session.device
            s.side.session.status = .idle
        }
        return ResetPlan(live: s.side.session.status == .running, paused: paused, playedOut: s.phase.isStopped ? nil : outputFrames(s))
    }

    /// Silences at once and drops what is decoded; the queue's time goes on without the frames
    /// that will now never play.
    func resetPipeline(_ r: inout DecodeAhead, _ plan: ResetPlan) {
        var held = 0
        if let paused = plan.paused {
            held = paused.presentationDelay
            paused.stop(drain: false)
        }
        // Start times of buffers enqueued after the reset are measured without what was dropped.
        let stage = r.chain.timePitch as? TimePitchStage
        if stage != nil, let playedOut = plan.playedOut {
            // With time/pitch, decoded frames are output frames: the queue's time goes on from
            // what has played.
            r.engine.position = feed.timeMap.queueFrames(output: playedOut)
        } else {
            r.engine.position = max(0, r.engine.position - Int64(r.decodedFrames + held))
        }
        dropEverything(&r, rewinding: false)
        if let stage, let playedOut = plan.playedOut { stage.reanchor(output: playedOut, queue: r.engine.position) }
        r.discardDecoded(live: plan.live)
    }
}
