import AudioCore
package import AudioDevices
import AudioCodecs
import Dispatch
import Synchronization

extension AudioQueue {
    // MARK: The device

    /// Marks a running device paused and returns it for the caller to pause (state lock held,
    /// transitions lock held).
    func pauseDevice(_ side: inout OutputSide) -> (any AudioOutputDevice)? {
        side.session.generation &+= 1
        guard side.session.status == .running, let device = side.session.device else { return nil }
        side.deviceStopped(at: device.framesPlayed)
        side.session.status = .paused
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

    // MARK: The render thread

    /// Starts the thread that keeps the ring filled while the device plays (state lock held).
    func startRenderThread(_ side: inout OutputSide) throws(AudioQueueError) {
        guard side.thread == nil else { return }
        let feed = self.feed
        let exit = threadExit
        do {
            // Real-time while it serves a device paced by a clock, which wakes it as the ring
            // drains: it sleeps on the semaphore otherwise, and never spins.
            let startsRealTime = feed.realTimeThread.load(ordering: .relaxed)
            side.thread = try IOThread(name: "aq.render", priority: startsRealTime ? .pipeline : .normal) { [weak self] schedule in
                var realTime = startsRealTime
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
                    if feed.realTimeThread.load(ordering: .relaxed) != realTime {
                        realTime.toggle()
                        schedule.change(to: realTime ? .pipeline : .normal)
                    }
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

    /// What the render thread got from the scheduler (``ThreadScheduler``); nil before the
    /// first start.
    package var renderThreadScheduling: ThreadScheduling? {
        core.state.withLock { $0.side.thread?.scheduling }
    }

    /// One round of the render thread; returns whether the queue is playing audio.
    private func renderThreadTick() -> Bool {
        let work = render.withLockOnQueueThread { r -> Bool in
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
    func fill(_ r: inout DecodeAhead, upTo target: Int = .max, ending: Bool = false) {
        render.assertHeld()
        let absorbed = feed.underrunFrames.exchange(0, ordering: .acquiringAndReleasing)
        if absorbed > 0 { r.engine.position += r.queueFrames(forSilence: absorbed) }
        let parked = feed.parked.load(ordering: .acquiring)
        if parked, let now = playedNow() {
            // The device has let its output idle: the silence it played is not in the ring's
            // count, so what comes next plays from now, not where the last audio ended.
            r.engine.position = max(r.engine.position, now)
        }
        // Flushing, the stages give out what they hold once the buffer queue is empty.
        if ending { r.timePitch.flushing = true }
        r.fillRing(upTo: target, next: takeNext, isStopping: r.timePitch.flushing ? isDry : isStoppingDry)
        if r.timePitch.flushing && !r.chain.holdsFrames && !r.engine.isBusy { r.timePitch.flushing = false }
        collectFinished(&r)
        // Stopping and nothing left: the stream ends (buffers enqueued by callbacks still
        // running come back when the stop completes).
        if isStoppingDry() && !r.engine.isBusy && !r.hasPrimed && !r.chain.holdsFrames {
            feed.endOfStream.store(true, ordering: .sequentiallyConsistent)
        }
        wakeParkedDevice(hasAudio: r.ring.available > 0)
    }

    /// Whether the buffer queue is empty (takes the state lock).
    func isDry() -> Bool {
        core.state.withLock { s in s.side.pending.isEmpty }
    }

    /// Whether the queue is stopping (asynchronously) with nothing left in the buffer queue
    /// (takes the state lock).
    func isStoppingDry() -> Bool {
        core.state.withLock { s in s.phase.isStopping && s.side.pending.isEmpty }
    }

    /// Tells a device that stopped asking for audio (the ring ran dry), or that waits for
    /// audio that was late (``OutputFeed/renderAwaiting(into:frameCount:)``), that there is
    /// audio, or that the stream has ended. The ring is written (or the end stored) before the
    /// flags are read, as the feed sets a flag before it looks at the ring again: one of them
    /// sees the other.
    private func wakeParkedDevice(hasAudio: Bool) {
        guard hasAudio || feed.endOfStream.load(ordering: .acquiring) else { return }
        atomicMemoryFence(ordering: .sequentiallyConsistent)
        let parked = feed.parked.load(ordering: .sequentiallyConsistent) && feed.parked.exchange(false, ordering: .sequentiallyConsistent)
        let awaited = feed.awaited.load(ordering: .sequentiallyConsistent) && feed.awaited.exchange(false, ordering: .sequentiallyConsistent)
        guard parked || awaited else { return }
        let device = core.state.withLock { s in s.side.session.status == .running ? s.side.session.device : nil }
        device?.sourceHasAudio()
    }

    /// The queue's time now, as ``currentTime(timeline:)`` gives it, while the device runs.
    private func playedNow() -> Int64? {
        core.state.withLock { s in
            s.side.session.status == .running && s.side.offline == nil && s.side.session.device != nil ? queueFrames(s) : nil
        }
    }

    /// Empties the pipeline and the buffer queue, the buffers going back through callbacks in
    /// order: the one playing, then the waiting ones.
    func dropEverything(_ r: inout DecodeAhead, rewinding: Bool) {
        if rewinding { r.engine.rewind() } else { r.engine.reset() }
        r.chain.reset()
        r.timePitch.flushing = false
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
}
