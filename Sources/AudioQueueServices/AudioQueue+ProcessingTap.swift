import AudioCore

extension AudioQueue {
    /// Makes a processing tap on this queue (`AudioQueueProcessingTapNew`): `processor` runs on
    /// the render thread for every chunk of audio the queue plays (or renders offline), before
    /// the queue's effects (``AudioQueueProcessingTapFlags/preEffects``, source frames) or after
    /// them (``AudioQueueProcessingTapFlags/postEffects``, device frames), as a siphon that only
    /// watches or as a processor that takes the source and returns its own audio.
    ///
    /// Only while the queue is stopped (`invalidRunState`; paused is not enough); one tap per
    /// queue (`tooManyTaps`); `paramError` for flags other than exactly one of pre- and
    /// post-effects, perhaps with siphon. Disposing of the queue disposes of the tap.
    public func makeProcessingTap(
        flags: AudioQueueProcessingTapFlags, processor: @escaping AudioQueueProcessingTap.Processor
    ) throws(AudioQueueError) -> AudioQueueProcessingTap {
        try AudioQueueProcessingTap.check(flags)
        return try render.withLock { r throws(AudioQueueError) -> AudioQueueProcessingTap in
            try core.state.withLock { s throws(AudioQueueError) in try Self.checkStoppedForTap(s.phase) }
            guard r.chain.preTap == nil && r.chain.postTap == nil else {
                throw AudioQueueError(.tooManyTaps, "the queue has a processing tap already")
            }
            let tap = AudioQueueProcessingTap(flags: flags, sampleRate: sampleRate, channels: channels, processor: processor)
            let stage = OutputTapStage(tap: tap, engine: r.engine)
            // Queue time passes at the time/pitch unit's rate after it (1 without one).
            stage.rate = { [unowned chain = r.chain] in (chain.timePitch as? TimePitchStage)?.effectiveRate ?? 1 }
            if flags.contains(.postEffects) { r.chain.postTap = stage } else { r.chain.preTap = stage }
            tap.detach = { [weak self] () throws(AudioQueueError) in try self?.removeProcessingTap(tap) }
            tap.call.queueSerial = core.serial
            return tap
        }
    }

    /// The queue's processing tap, nil when it has none.
    public var processingTap: AudioQueueProcessingTap? {
        get throws(AudioQueueError) {
            try render.withLock { r in ((r.chain.preTap ?? r.chain.postTap) as? OutputTapStage)?.tap }
        }
    }

    private func removeProcessingTap(_ tap: AudioQueueProcessingTap) throws(AudioQueueError) {
        try render.withLock { r throws(AudioQueueError) in
            try core.state.withLock { s throws(AudioQueueError) in try Self.checkStoppedForTap(s.phase) }
            if (r.chain.preTap as? OutputTapStage)?.tap === tap { r.chain.preTap = nil }
            if (r.chain.postTap as? OutputTapStage)?.tap === tap { r.chain.postTap = nil }
        }
    }

    /// Disposes of the tap with the queue (pipeline lock held).
    func disposeProcessingTap(_ r: inout DecodeAhead) {
        for slot in [r.chain.preTap, r.chain.postTap] { (slot as? OutputTapStage)?.tap.markDisposed() }
        if r.chain.preTap is OutputTapStage { r.chain.preTap = nil }
        if r.chain.postTap is OutputTapStage { r.chain.postTap = nil }
    }

    /// Taps are made and disposed of only while the queue is stopped.
    static func checkStoppedForTap(_ phase: QueuePhase) throws(AudioQueueError) {
        try phase.checkUsable()
        guard phase.isStopped else {
            throw AudioQueueError(.invalidRunState, "a processing tap is made or disposed of only while the queue is stopped (paused is not enough)")
        }
    }
}

extension AudioInputQueue {
    /// Makes a processing tap on this queue (`AudioQueueProcessingTapNew`): `processor` runs on
    /// the capture thread for the recorded audio, at the queue's rate and channel count, before
    /// it is converted to the queue's format and put into buffers. It may return fewer frames
    /// than asked for (keeping what it needs for later); what it returns is what is recorded.
    ///
    /// The same rules as ``AudioQueue/makeProcessingTap(flags:processor:)``: only while stopped
    /// (`invalidRunState`), one per queue (`tooManyTaps`), `paramError` for bad flags.
    /// ``AudioQueueProcessingTap/Call/queueTime()`` throws `invalidTapType` on an input queue.
    public func makeProcessingTap(
        flags: AudioQueueProcessingTapFlags, processor: @escaping AudioQueueProcessingTap.Processor
    ) throws(AudioQueueError) -> AudioQueueProcessingTap {
        try AudioQueueProcessingTap.check(flags)
        return try capture.withLock { c throws(AudioQueueError) -> AudioQueueProcessingTap in
            try core.state.withLock { s throws(AudioQueueError) in try AudioQueue.checkStoppedForTap(s.phase) }
            guard c.tap == nil else { throw AudioQueueError(.tooManyTaps, "the queue has a processing tap already") }
            let tap = AudioQueueProcessingTap(flags: flags, sampleRate: sampleRate, channels: channels, processor: processor)
            c.tap = InputTapStage(tap: tap, chunkFrames: c.chunkFrames, hostTime: { [feed] in feed.hostTime(ofFrame: $0) })
            tap.detach = { [weak self] () throws(AudioQueueError) in try self?.removeProcessingTap(tap) }
            tap.call.queueSerial = core.serial
            return tap
        }
    }

    /// The queue's processing tap, nil when it has none.
    public var processingTap: AudioQueueProcessingTap? {
        get throws(AudioQueueError) { try capture.withLock { $0.tap?.tap } }
    }

    private func removeProcessingTap(_ tap: AudioQueueProcessingTap) throws(AudioQueueError) {
        try capture.withLock { c throws(AudioQueueError) in
            try core.state.withLock { s throws(AudioQueueError) in try AudioQueue.checkStoppedForTap(s.phase) }
            if c.tap?.tap === tap { c.tap = nil }
        }
    }

    /// Disposes of the tap with the queue (pipeline lock held).
    func disposeProcessingTap(_ c: inout CaptureLine) {
        c.tap?.tap.markDisposed()
        c.tap = nil
    }
}
