@_exported public import AudioTimePitch

/// What an output queue's time/pitch properties hold (render lock).
struct TimePitchSettings {
    /// `kAudioQueueProperty_EnableTimePitch`.
    var enabled = false
    /// `kAudioQueueProperty_TimePitchAlgorithm`: Spectral, as on a Mac.
    var algorithm: TimePitchAlgorithm = .spectral
    /// `kAudioQueueProperty_TimePitchBypass`.
    var bypassed = false
    /// Set by `AudioQueueFlush`: once the buffer queue is empty the unit gives out what it
    /// holds (cleared when it has, and by a reset or stop).
    var flushing = false
    /// Makes processors instead of `TimePitch.make(_:sampleRate:channels:)` (the package's tests).
    var factory: (@Sendable (TimePitchAlgorithm, Double, Int) -> (any TimePitchProcessor)?)?
}

extension AudioQueue {
    // MARK: Time and pitch

    /// Whether a time/pitch unit is inserted in the queue's output (`kAudioQueueProperty_EnableTimePitch`,
    /// default false). With it, ``AudioQueueParameterID/playRate`` and
    /// ``AudioQueueParameterID/pitch`` take effect.
    public var isTimePitchEnabled: Bool {
        get throws(AudioQueueError) { try render.withLock { $0.timePitch.enabled } }
    }

    /// Inserts or removes the time/pitch unit. Only while the queue is stopped and nothing is
    /// primed (`invalidRunState` otherwise); `invalidPropertyValue` when no processor plays the
    /// queue's format.
    public func setTimePitchEnabled(_ enabled: Bool) throws(AudioQueueError) {
        try render.withLock { r throws(AudioQueueError) in
            try checkStoppedForTimePitch(r, what: "time/pitch can be enabled or disabled")
            guard enabled != r.timePitch.enabled else { return }
            if enabled {
                try insertTimePitch(&r, algorithm: r.timePitch.algorithm)
            } else {
                removeTimePitch(&r)
            }
            r.timePitch.enabled = enabled
        }
    }

    /// The time/pitch algorithm (`kAudioQueueProperty_TimePitchAlgorithm`, default
    /// `TimePitchAlgorithm.spectral` as on a Mac).
    public var timePitchAlgorithm: TimePitchAlgorithm {
        get throws(AudioQueueError) { try render.withLock { $0.timePitch.algorithm } }
    }

    /// Chooses the time/pitch algorithm, enabled or not. Only while the queue is stopped and
    /// nothing is primed (`invalidRunState`); `invalidPropertyValue` for a code not in
    /// `TimePitchAlgorithm.allCases`.
    public func setTimePitchAlgorithm(_ algorithm: TimePitchAlgorithm) throws(AudioQueueError) {
        try render.withLock { r throws(AudioQueueError) in
            try core.state.withLock { s throws(AudioQueueError) in try s.checkUsable() }
            guard TimePitchAlgorithm.allCases.contains(algorithm) else {
                throw AudioQueueError(.invalidPropertyValue, "no time/pitch algorithm \(algorithm)")
            }
            try checkStoppedForTimePitch(r, what: "the time/pitch algorithm can be changed")
            guard algorithm != r.timePitch.algorithm else { return }
            if r.timePitch.enabled { try insertTimePitch(&r, algorithm: algorithm) }
            r.timePitch.algorithm = algorithm
        }
    }

    /// Whether the time/pitch unit is bypassed (`kAudioQueueProperty_TimePitchBypass`,
    /// default false): audio passes through untouched, at rate 1.
    public var isTimePitchBypassed: Bool {
        get throws(AudioQueueError) { try render.withLock { $0.timePitch.bypassed } }
    }

    /// Bypasses the time/pitch unit or puts it back, at any time. A change while playing drops
    /// the few milliseconds the unit holds.
    public func setTimePitchBypassed(_ bypassed: Bool) throws(AudioQueueError) {
        try render.withLock { r throws(AudioQueueError) in
            try core.state.withLock { s throws(AudioQueueError) in try s.checkUsable() }
            r.timePitch.bypassed = bypassed
            (r.chain.timePitch as? TimePitchStage)?.setBypassed(bypassed)
        }
    }

    /// Makes the queue's time/pitch processors with `factory` instead of the package's (its
    /// tests); nil: the package's. Takes effect when the unit is next inserted.
    package func setTimePitchProcessorFactory(
        _ factory: (@Sendable (TimePitchAlgorithm, Double, Int) -> (any TimePitchProcessor)?)?
    ) {
        render.withLockOnQueueThread { $0.timePitch.factory = factory }
    }

    /// Underruns (and moves to another device) since the queue was created: the timeline's
    /// discontinuities, for the package's tools and benchmarks.
    package var underrunCount: Int { feed.underruns.load(ordering: .relaxed) }

    // MARK: The unit (render lock held)

    private func checkStoppedForTimePitch(_ r: DecodeAhead, what: String) throws(AudioQueueError) {
        try core.state.withLock { s throws(AudioQueueError) in
            try s.checkUsable()
            guard s.phase.isStopped, r.ring.available == 0, !r.hasPrimed, !r.engine.isBusy else {
                throw AudioQueueError(.invalidRunState, "\(what) only while the queue is stopped and unprimed")
            }
        }
    }

    /// Inserts a new time/pitch stage of `algorithm` (replacing one there).
    private func insertTimePitch(_ r: inout DecodeAhead, algorithm: TimePitchAlgorithm) throws(AudioQueueError) {
        let make = r.timePitch.factory ?? { TimePitch.make($0, sampleRate: $1, channels: $2) }
        guard let processor = make(algorithm, r.engine.sampleRate, r.engine.channels) else {
            throw AudioQueueError(
                .invalidPropertyValue,
                "no \(algorithm) time/pitch processor for \(r.engine.channels) channels at \(r.engine.sampleRate) Hz")
        }
        feed.timeMap.reset()
        let stage = TimePitchStage(processor: processor, engine: r.engine, map: feed.timeMap)
        stage.setBypassed(r.timePitch.bypassed)
        r.chain.timePitch = stage
        resizeRing(&r, decodeBufferFrames: decodeBufferSizeFrames)
    }

    private func removeTimePitch(_ r: inout DecodeAhead) {
        r.chain.timePitch = nil
        r.engine.tracksTimePitch = false
        feed.timeMap.reset()
        resizeRing(&r, decodeBufferFrames: decodeBufferSizeFrames)
    }

    /// Makes the decode ring for a decode buffer of `decodeBufferFrames` (only while stopped,
    /// with the ring empty). With the time/pitch unit inserted it holds at least half a
    /// second, and the device is opened (when it next is) with a buffer of a quarter second
    /// at least: a sound server's client then has that long to be scheduled on a busy
    /// machine, and each refill, with the unit's work, a quarter of the ring (125 ms).
    func resizeRing(_ r: inout DecodeAhead, decodeBufferFrames: Int) {
        var frames = decodeBufferFrames
        let floor = Int((r.engine.sampleRate / 4).rounded(.up))
        feed.deviceBufferFloor.store(r.chain.timePitch != nil ? floor : 0, ordering: .relaxed)
        if r.chain.timePitch != nil { frames = max(frames, floor) }
        guard frames * 2 != r.ring.capacity else { return }
        r.ring = DecodeAhead.makeRing(decodeBufferFrames: frames, channels: r.engine.channels)
        feed.ring = r.ring
    }
}

extension DecodeAhead {
    /// Queue frames that `outputFrames` frames of silence played by the device (an underrun)
    /// stand for: as many, times the rate of the time/pitch unit when one plays.
    func queueFrames(forSilence outputFrames: Int) -> Int64 {
        guard let stage = chain.timePitch as? TimePitchStage else { return Int64(outputFrames) }
        return Int64((Double(outputFrames) * stage.effectiveRate).rounded())
    }
}
