import AudioCore
import AudioDevices
import AudioCodecs
import Dispatch
import Synchronization

/// What only an output queue keeps behind its state lock.
struct OutputSide {
    /// The buffer queue.
    var pending = PendingBuffers()
    var session = DeviceSession<any AudioOutputDevice>()
    /// Set while the queue renders offline.
    var offline: OfflineSetup?
    var layout: AudioChannelLayout?
    var decodeBufferFrames: Int
    /// What `kAudioQueueProperty_ConverterError` says, and whether its listeners are still to hear.
    var converterError: OSStatus = 0
    var converterNoticePending = false
    var clock = OutputClock()
    var renderThread: IOThread?
    /// Set when the engine asked for the next buffer and there was none: the next enqueue
    /// wakes the render thread. Otherwise the engine has audio to decode until the ring is
    /// full, and the device wakes the render thread as it drains the ring.
    var engineWaiting = true

    init(decodeBufferFrames: Int) { self.decodeBufferFrames = decodeBufferFrames }
}

/// The queue's time: where it was, in frames, when the device last started, and the device's
/// clock then.
struct OutputClock {
    var timeBase: Int64 = 0
    var playedAtStart: Int64 = 0
}

/// Offline render's set-up (`AudioQueueSetOfflineRenderFormat`) and position.
struct OfflineSetup {
    let format: AudioStreamBasicDescription
    let layout: AudioChannelLayout?
    let converter: PCMConverter
    /// Scratch for a format other than the render format, grown on demand.
    var float: PCMBuffer?
    var out: PCMBuffer?
    var position: Int64 = 0
}

extension AudioQueue {
    // MARK: The device

    /// Opens the device asked for, or the default one. No lock held.
    func openDevice() throws(AudioQueueError) -> any AudioOutputDevice {
        let frames = core.state.withLock { $0.side.decodeBufferFrames }
        let (rate, channels) = (sampleRate, self.channels)
        return try core.openDevice(Self.driver) { uid throws(AudioDeviceError) in
            if let uid { return try AudioBackends.makeOutput(uid: uid, sampleRate: rate, channels: channels, bufferFrames: frames) }
            return try AudioBackends.makeDefaultOutput(sampleRate: rate, channels: channels, bufferFrames: frames)
        } mismatch: { d in
            Self.fits(d, channels: channels, sampleRate: rate) ? nil : "\(d.info.uid) plays \(d.format), not \(channels) channels at \(rate) Hz"
        }
    }

    /// Starts the device if the queue should still be playing (the start of `generation` has
    /// not been overtaken by a pause, stop or reset) and it is not running. When it will not
    /// start, the queue goes back to `previous` (when given) and the error is thrown.
    func startDevice(generation: Int, restoring previous: QueuePhase?) throws(AudioQueueError) {
        let feed = self.feed
        try core.startDevice(
            Self.driver, generation: generation, restoring: previous, transitions: transitions,
            start: { device throws(AudioDeviceError) in try device.start(source: feed) },
            started: { side, device in side.clock.playedAtStart = device.framesPlayed })
    }

    /// Marks a running device paused and returns it for the caller to pause (state lock held,
    /// transitions lock held).
    func pauseDevice(_ side: inout OutputSide) -> (any AudioOutputDevice)? {
        side.session.generation &+= 1
        guard side.session.status == .running, let device = side.session.device else { return nil }
        side.clock.timeBase += max(0, device.framesPlayed - side.clock.playedAtStart)
        side.session.status = .paused
        return device
    }

    /// Marks the device stopped and returns it for the caller to stop, if it was running or
    /// paused (state lock held, transitions lock held).
    func detachDevice(_ side: inout OutputSide) -> (any AudioOutputDevice)? {
        side.session.generation &+= 1
        guard let device = side.session.device else { return nil }
        switch side.session.status {
        case .idle: return nil
        case .paused: break
        case .running: side.clock.timeBase += max(0, device.framesPlayed - side.clock.playedAtStart)
        }
        side.session.status = .idle
        return device
    }

    /// Called by the feed on the device's I/O thread; the work happens on the control queue.
    func deviceReported(_ event: AudioDeviceEvent) {
        switch event.kind {
        case .underrun:
            feed.underruns.add(1, ordering: .relaxed)
        case .started:
            core.controlQueue.async { [weak self] in self?.reportRunning() }
        case .stopped:
            core.controlQueue.async { [weak self] in self?.finishAsyncStop() }
        case .failed:
            let error = event.error ?? AudioDeviceError(.ioFailed, "\(event)")
            core.controlQueue.async { [weak self] in self?.deviceFailed(error) }
        case .moved:
            // The device follows the default to another sink: playback goes on there, a
            // discontinuity of the timeline, and currentDevice names the new sink.
            feed.underruns.add(1, ordering: .relaxed)
            core.controlQueue.async { [weak self] in if let self { core.notify(self, .currentDevice, synchronously: false) } }
        default:
            break  // overruns are for capture; kinds this queue does not know change nothing
        }
    }

    /// The device failed while playing: a queue on the default output follows it to the
    /// backend's default again (``followDefault(after:)``); otherwise the queue stops, and the
    /// converter-error listeners hear `kAudioQueueErr_QueueInvalidated`.
    private func deviceFailed(_ error: AudioDeviceError) {
        if followDefault(after: error) {
            core.notify(self, .currentDevice, synchronously: false)
            return
        }
        let (changed, released) = transitions.run { () -> (Bool, AudioQueue?) in
            render.withLock { r -> (Bool, AudioQueue?) in
                let result = core.state.withLock { s -> ((any AudioOutputDevice)?, AudioQueue?)? in
                    s.side.session.failure = error
                    s.side.converterError = AudioQueueError.Code.queueInvalidated.rawValue
                    guard !s.phase.isStopped, s.phase != .disposed else { return nil }
                    s.phase = .stopped(stopWhenStarted: false)
                    let device = detachDevice(&s.side)
                    let k = s.keepAlive
                    s.keepAlive = nil
                    return (device, k)
                }
                guard let (device, released) = result else { return (false, nil) }
                device?.stop(drain: false)
                dropEverything(&r, rewinding: true)
                r.discardDecoded()
                return (true, released)
            }
        }
        // The program hears why before it gets back the buffers the failure returned (its
        // callback may try to enqueue them again, which the stopped queue refuses).
        core.notify(self, .converterError, synchronously: false)
        scheduleCallbacks()
        if changed { core.setReportedRunning(self, false, synchronously: false) }
        withExtendedLifetime(released) {}
    }

    /// The device has started (or an offline queue has): isRunning turns true, if the queue is
    /// still meant to play — checked and set in one step, so a stop in between wins.
    func reportRunning() {
        let changed = transitions.run {
            core.state.withLock { s -> Bool in
                guard s.phase.isActive, s.side.offline != nil || s.side.session.status == .running, !s.reportedRunning else { return false }
                s.reportedRunning = true
                return true
            }
        }
        if changed { core.notify(self, .isRunning, synchronously: false) }
    }

    // MARK: The render thread

    /// Starts the thread that keeps the ring filled while the device plays (state lock held).
    func startRenderThread(_ side: inout OutputSide) throws(AudioQueueError) {
        guard side.renderThread == nil else { return }
        let feed = self.feed
        let exit = renderThreadExit
        do {
            side.renderThread = try IOThread(name: "aq.render") { [weak self] in
                var active = true
                // While the device's thread refills the ring itself, nothing is left for this
                // thread to do until it is woken, and its safety net can be slack.
                var idle = 500
                while !exit.isSet {
                    // Woken when the device has taken three quarters of the ring, when a
                    // buffer is enqueued while the engine waits for one, and by the controls
                    // (start, stop, dispose…); the timeout is a safety net.
                    _ = feed.wake.wait(timeout: .now() + .milliseconds(active ? 250 : idle))
                    feed.refillRequested.store(false, ordering: .releasing)
                    if exit.isSet { return }
                    guard let queue = self else { return }
                    active = queue.renderThreadTick()
                    if feed.refilledHere.exchange(false, ordering: .acquiringAndReleasing) {
                        (active, idle) = (false, 2000)
                    } else {
                        idle = 500
                    }
                }
            }
        } catch {
            throw AudioQueueError(.cannotStart, "\(error)")
        }
    }

    /// One round of the render thread; returns whether the queue is playing audio.
    private func renderThreadTick() -> Bool {
        let work = render.withLock { r -> Bool in
            let live = core.state.withLock { s in
                s.side.session.status == .running && s.side.offline == nil && s.phase.isActive
            }
            if live {
                fill(&r)
                feed.renderThreadRounds.add(1, ordering: .relaxed)
            }
            return live
        }
        if work { scheduleCallbacks() }
        // A queue run dry (a sound effect's voice between sounds) is woken by enqueue, stop
        // and dispose: the safety net need not be tight.
        return work && !feed.dryReported.load(ordering: .relaxed)
    }

    // MARK: The pipeline (render lock held, state lock not)

    /// Hands the engine the next buffer of the buffer queue; with none, the engine waits for
    /// one, and the next enqueue wakes the render thread.
    func takeNext() -> QueueEntry? {
        core.state.withLock { s in takeNext(&s) }
    }

    /// ``takeNext()`` with the state lock held.
    func takeNext(_ s: inout Core.State) -> QueueEntry? {
        let entry = s.side.pending.popFirst()
        if entry == nil { s.side.engineWaiting = true }
        // Busy from the moment the engine has it, as enqueue (under this lock) sees: a
        // buffer enqueued now starts after this one, not where the engine last stopped.
        if entry != nil { planner.progress.busy.store(true, ordering: .releasing) }
        return entry
    }

    /// Fills the decode ring (live playback, prime, flush), taking the silence the device
    /// played on underruns off the schedule, and ends the stream once a stopping queue has
    /// nothing left.
    func fill(_ r: inout DecodeAhead, upTo target: Int = .max) {
        render.assertHeld()
        let absorbed = feed.underrunFrames.exchange(0, ordering: .acquiringAndReleasing)
        if absorbed > 0 { r.engine.position += Int64(absorbed) }
        let parked = feed.parked.load(ordering: .acquiring)
        if parked, let now = playedNow() {
            // The device has let its output idle: the silence it played is not in the ring's
            // count, so what comes next plays from now, not where the last audio ended.
            r.engine.position = max(r.engine.position, now)
        }
        r.fillRing(upTo: target, next: takeNext)
        collectFinished(&r)
        // Stopping and nothing left: the stream ends (buffers enqueued by callbacks still
        // running come back when the stop completes).
        let stopping = core.state.withLock { s in s.phase.isStopping && s.side.pending.isEmpty }
        if stopping && !r.engine.isBusy && !r.hasPrimed {
            feed.endOfStream.store(true, ordering: .sequentiallyConsistent)
        }
        wakeParkedDevice(hasAudio: r.ring.available > 0)
    }

    /// Tells a device that stopped asking for audio (the ring ran dry) that there is audio, or
    /// that the stream has ended. The ring is written (or the end stored) before the flag is
    /// read, as the feed sets the flag before it looks at the ring again: one of them sees
    /// the other.
    private func wakeParkedDevice(hasAudio: Bool) {
        guard hasAudio || feed.endOfStream.load(ordering: .acquiring) else { return }
        atomicMemoryFence(ordering: .sequentiallyConsistent)
        guard feed.parked.load(ordering: .sequentiallyConsistent),
              feed.parked.exchange(false, ordering: .sequentiallyConsistent) else { return }
        let device = core.state.withLock { s in s.side.session.status == .running ? s.side.session.device : nil }
        device?.sourceHasAudio()
    }

    /// The queue's time now, as ``currentTime(timeline:)`` gives it, while the device runs.
    private func playedNow() -> Int64? {
        core.state.withLock { s in
            guard s.side.session.status == .running, s.side.offline == nil, let device = s.side.session.device else { return nil }
            return s.side.clock.timeBase + max(0, device.framesPlayed - s.side.clock.playedAtStart)
        }
    }

    /// Empties the pipeline and the buffer queue, the buffers going back through callbacks in
    /// order: the one playing, then the waiting ones.
    func dropEverything(_ r: inout DecodeAhead, rewinding: Bool) {
        if rewinding { r.engine.rewind() } else { r.engine.reset() }
        let position = r.engine.position
        let dropped = core.state.withLock { s in
            s.side.engineWaiting = true
            return s.side.pending.removeAll(restartingAt: position)
        }
        r.engine.finished.append(contentsOf: dropped)
        collectFinished(&r)
    }

    /// Moves the buffers the engine has finished to the callback line, and a new decoding
    /// error to the converter-error property.
    func collectFinished(_ r: inout DecodeAhead) {
        guard hasFinished(r) else { return }
        core.state.withLock { s in collectFinished(&r, into: &s) }
    }

    /// Whether the engine has finished buffers or a new error for ``collectFinished(_:)``.
    func hasFinished(_ r: DecodeAhead) -> Bool {
        !r.engine.finished.isEmpty || r.engine.converterError != r.lastEngineError
    }

    /// ``collectFinished(_:)`` with the state lock held.
    func collectFinished(_ r: inout DecodeAhead, into s: inout Core.State) {
        guard hasFinished(r) else { return }
        let error = r.engine.converterError
        r.lastEngineError = error
        for buffer in r.engine.finished { s.line.append(FinishedBuffer(buffer: buffer)) }
        if error != 0 && error != s.side.converterError {
            s.side.converterError = error
            s.side.converterNoticePending = true
        }
        r.engine.finished.removeAll(keepingCapacity: true)
    }

    /// Sends finished buffers to their callbacks, and a new converter error to its listeners.
    func scheduleCallbacks() {
        let notice = core.state.withLock { s -> Bool in
            defer { s.side.converterNoticePending = false }
            return s.side.converterNoticePending
        }
        if notice { core.notify(self, .converterError, synchronously: false) }
        core.scheduleCallbacks(self)
    }
}
