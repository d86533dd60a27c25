import AudioCore
package import AudioDevices
import Dispatch

extension AudioInputQueue {
    // MARK: The device

    /// Frames the device is asked to deliver at a time: an eighth of the smallest buffer
    /// enqueued, from 10 to 50 ms (25 ms with none enqueued). Each piece wakes the device's
    /// thread and crosses from the server, so pieces are as large as a buffer allows while a
    /// full buffer still comes back soon after its last frame was recorded; an asynchronous
    /// stop gets everything whatever the size.
    func deviceFragmentFrames() -> Int {
        let smallest = capture.withLockOnQueueThread { c in
            core.state.withLock { s in s.side.emptyBuffers.map { c.packetCapacity(of: $0) * c.framesPerPacket }.min() }
        }
        let (least, most) = (max(16, Int(sampleRate / 100)), max(16, Int(sampleRate / 20)))
        guard let smallest else { return max(16, Int(sampleRate / 40)) }
        return min(max(smallest / 8, least), most)
    }

    /// Called by the feed on the device's I/O thread; the work happens on the control queue.
    func deviceReported(_ event: AudioDeviceEvent) {
        switch event.kind {
        case .started:
            core.controlQueue.async { [weak self] in self?.reportRunning() }
        case .failed:
            let error = event.error ?? AudioDeviceError(.ioFailed, "\(event)")
            core.controlQueue.async { [weak self] in self?.deviceFailed(error) }
        case .moved:
            // The feed counted the discontinuity; currentDevice now names the new source.
            core.controlQueue.async { [weak self] in if let self { core.notify(self, .currentDevice, synchronously: false) } }
        default:
            break  // overruns are counted by the feed; other kinds change nothing here
        }
    }

    // MARK: The capture thread

    func startCaptureThread(_ side: inout InputSide) throws(AudioQueueError) {
        guard side.thread == nil else { return }
        let feed = self.feed
        let exit = threadExit
        // Woken every 50 ms of audio until the first pump sets the threshold (see
        // wakeThreshold); the timeout only guards against a missed wake-up.
        feed.wakeThreshold.store(max(1, Int(sampleRate / 20)), ordering: .relaxed)
        do {
            // Real-time while it serves a device paced by a clock, which wakes it as audio
            // arrives: it sleeps on the semaphore otherwise, and never spins.
            let startsRealTime = feed.realTimeThread.load(ordering: .relaxed)
            side.thread = try IOThread(name: "aq.capture", priority: startsRealTime ? .pipeline : .normal) { [weak self] schedule in
                var realTime = startsRealTime
                while !exit.isSet {
                    _ = feed.wake.wait(timeout: .now() + .seconds(1))
                    if exit.isSet { return }
                    guard let queue = self else { return }
                    if feed.realTimeThread.load(ordering: .relaxed) != realTime {
                        realTime.toggle()
                        schedule.change(to: realTime ? .pipeline : .normal)
                    }
                    queue.captureTick()
                }
            }
        } catch {
            throw AudioQueueError(.cannotStart, "\(error)")
        }
    }

    /// What the capture thread got from the scheduler (``ThreadScheduler``); nil before the
    /// first start.
    package var captureThreadScheduling: ThreadScheduling? {
        core.state.withLock { $0.side.thread?.scheduling }
    }

    private func captureTick() {
        capture.withLockOnQueueThread { c in pump(c, drops: .unlessStopping) }
        scheduleCallbacks()
    }

    /// When frames that find no buffer may be dropped.
    enum DropPolicy {
        /// Always (recording runs on, or no callback is left to give a buffer back).
        case always
        /// Unless the queue is stopping asynchronously (checked for every piece read: a stop
        /// may come while the capture thread pumps).
        case unlessStopping
        /// Never: they wait in the ring.
        case never
    }

    // MARK: The capture line (capture lock held, state lock not)

    /// Moves what the ring holds into buffers. Frames that find no buffer are dropped as
    /// `drops` allows (an underrun, reported) and otherwise left in the ring (a stopping queue
    /// waits for its callbacks to enqueue buffers again).
    func pump(_ c: CaptureLine, drops: DropPolicy) {
        capture.assertHeld()
        let ring = feed.ring
        var underrun = false
        while true {
            let readPosition = ring.readPosition
            if let gap = feed.takeGap(atRingPosition: readPosition) {
                c.skip(gap)
                continue
            }
            var n = min(ring.available, c.chunkFrames)
            if let gap = feed.nextGapPosition { n = min(n, max(0, gap - readPosition)) }
            guard n > 0 else { break }
            let mayDrop = switch drops {
            case .always: true
            case .never: false
            case .unlessStopping: !core.state.withLock { $0.phase.isStopping }
            }
            if !mayDrop {
                // Only what the buffer being filled, or the next enqueued one, can take: the
                // rest waits in the ring for buffers the callbacks give back.
                let room = c.current != nil
                    ? c.framesToFill
                    : core.state.withLock { s in s.side.emptyBuffers.first.map { c.packetCapacity(of: $0) * c.framesPerPacket } } ?? 0
                n = min(n, room)
                guard n > 0 else { break }
            }
            let got = ring.read(into: c.readTarget, frames: n)
            guard got > 0 else { break }
            let began = c.consume(
                frames: got, hostTime: { [feed] in feed.hostTime(ofFrame: $0) },
                next: { core.state.withLock { $0.side.popFirst() } },
                finish: { finished in core.state.withLock { $0.line.append(finished) } })
            if began { underrun = true }
        }
        feed.wakeThreshold.store(wakeThreshold(c), ordering: .relaxed)
        if underrun {
            feed.discontinuities.add(1, ordering: .relaxed)
            core.state.withLock { s in
                s.side.converterError = AudioQueueError.Code.recordUnderrun.rawValue
                s.side.converterNoticePending = true
            }
        }
    }

    /// Frames the capture thread waits for: those that complete the buffer being filled, so that
    /// it comes back as soon as it is full; no more than 50 ms of audio while the level meter
    /// is on (it measures what is read) or while no buffer waits to be filled (frames that find
    /// none are dropped and reported as they come); at most half the ring (capture lock held).
    func wakeThreshold(_ c: CaptureLine) -> Int {
        capture.assertHeld()
        var frames = min(c.framesToFill, feed.ring.capacity / 2)
        if c.meter.isEnabled || (c.current == nil && !core.state.withLock({ $0.side.hasEmpty })) {
            frames = min(frames, Int(sampleRate / 20))
        }
        return max(1, frames)
    }

    /// Drops what the ring holds (a reset or an immediate stop); the timeline moves past it.
    func discardCaptured(_ c: CaptureLine) {
        capture.assertHeld()
        let ring = feed.ring
        while true {
            if let gap = feed.takeGap(atRingPosition: ring.readPosition) {
                c.skip(gap)
                continue
            }
            var n = ring.available
            if let gap = feed.nextGapPosition { n = min(n, max(0, gap - ring.readPosition)) }
            guard n > 0 else { break }
            ring.skip(n)
            c.skip(n)
        }
    }

    /// Ends the encoder's stream at a stop: what an encoder with a delay still holds (AAC's last
    /// packets) goes into the buffer being filled, or the next enqueued one, and where it does
    /// not fit into the enqueued buffers after it, each handed back. True when nothing is left
    /// in the encoder; false when it waits for a buffer (callbacks to give one back).
    func endEncoderStream(_ c: CaptureLine) -> Bool {
        capture.assertHeld()
        let hostTime = { [feed] (frame: Int64) in feed.hostTime(ofFrame: frame) }
        while c.encoderHolds {
            if c.current == nil {
                guard let buffer = core.state.withLock({ $0.side.popFirst() }) else { return false }
                c.begin(buffer, hostTime: hostTime)
            }
            // Encoding happens here, outside the state lock.
            let finished = c.complete(ending: true)
            core.state.withLock { $0.line.append(finished) }
        }
        return true
    }

    /// Hands back the buffer being filled (with what it holds when `keepingStaged`, else
    /// empty) and every enqueued buffer, empty. Keeping what was staged ends the recording's
    /// stream (``endEncoderStream(_:)``), as far as the enqueued buffers go.
    func returnEverything(_ c: CaptureLine, keepingStaged: Bool) {
        capture.assertHeld()
        var partial: FinishedBuffer?
        if keepingStaged {
            _ = endEncoderStream(c)
            partial = c.current != nil ? c.complete(ending: true) : nil
        } else {
            partial = c.abandon()
        }
        core.state.withLock { s in
            if let partial { s.line.append(partial) }
            for buffer in s.side.removeAll() {
                buffer.audioDataByteSize = 0
                buffer.packetDescriptionCount = 0
                s.line.append(FinishedBuffer(buffer: buffer))
            }
        }
    }

    /// The asynchronous stop: the device delivers what it recorded up to now and stops; every
    /// frame of it, and then an encoder's last packets, go into buffers (waiting for callbacks
    /// to enqueue them again, up to two seconds); the buffer being filled comes back with what
    /// it holds, the others empty; then the queue has stopped.
    func finishAsyncStop() {
        let proceed = transitions.runOnQueueThread { () -> Bool in
            let device = core.state.withLock { s -> (any AudioInputDevice)?? in
                guard s.phase.isStopping else { return .none }
                return .some(detachDevice(&s.side))
            }
            guard let device else { return false }
            device?.stop(drain: true)
            return true
        }
        guard proceed else { return }
        let deadline = HostTime.now() + 2_000_000_000
        while true {
            enum Outcome { case done, wait, stopped }
            let outcome = capture.withLockOnQueueThread { c -> Outcome in
                guard core.state.withLock({ $0.phase.isStopping }) else { return .stopped }
                pump(c, drops: HostTime.now() >= deadline ? .always : .never)
                // With no buffer enqueued and no callback left to enqueue one (decided after the
                // pump, whose buffers make callbacks), what has nowhere to go is lost.
                if !core.state.withLock({ $0.line.outstanding > 0 || $0.side.hasEmpty }) { pump(c, drops: .always) }
                guard feed.ring.available == 0 && feed.nextGapPosition == nil else { return .wait }
                // Everything recorded is in buffers: the encoder's last packets follow, waiting
                // for buffers as the recorded frames did (until the deadline).
                if endEncoderStream(c) || HostTime.now() >= deadline { return .done }
                return core.state.withLock({ $0.line.outstanding > 0 }) ? .wait : .done
            }
            if outcome == .stopped { return }
            if outcome == .done { break }
            scheduleCallbacks()
            core.state.withLock { s in
                if !s.side.hasEmpty && s.line.outstanding > 0 { core.state.wait(timeoutNanos: 50_000_000) }
            }
        }
        let (stopped, dispose, released) = capture.withLockOnQueueThread { concludeAsynchronousStop(&$0, deviceStopped: true) }
        finishStopping(stopped, thenDispose: dispose, released: released)
    }
}
