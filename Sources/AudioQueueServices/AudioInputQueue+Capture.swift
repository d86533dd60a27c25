import AudioCore
import AudioDevices
import Dispatch

extension AudioInputQueue {
    // MARK: The device

    /// Frames the device is asked to deliver at a time: an eighth of the smallest buffer
    /// enqueued, from 10 to 50 ms (25 ms with none enqueued). Each piece wakes the device's
    /// thread and crosses from the server, so pieces are as large as a buffer allows while a
    /// full buffer still comes back soon after its last frame was recorded; an asynchronous
    /// stop gets everything whatever the size.
    func deviceFragmentFrames() -> Int {
        let smallest = capture.withLock { c in
            core.state.withLock { s in s.side.emptyBuffers.map { c.packetCapacity(of: $0) * c.framesPerPacket }.min() }
        }
        let (least, most) = (max(16, Int(sampleRate / 100)), max(16, Int(sampleRate / 20)))
        guard let smallest else { return max(16, Int(sampleRate / 40)) }
        return min(max(smallest / 8, least), most)
    }

    /// Opens the device asked for, or the default input. No lock held.
    func openDevice() throws(AudioQueueError) -> any AudioInputDevice {
        let deviceChannels = capture.withLock { $0.deviceChannels }
        let (rate, fragment) = (sampleRate, deviceFragmentFrames())
        return try core.openDevice(Self.driver) { uid throws(AudioDeviceError) in
            if let uid { return try AudioBackends.makeInput(uid: uid, sampleRate: rate, channels: deviceChannels, bufferFrames: fragment) }
            return try AudioBackends.makeDefaultInput(sampleRate: rate, channels: deviceChannels, bufferFrames: fragment)
        } mismatch: { d in
            d.format.sampleRate == rate && Int(d.format.channelsPerFrame) == deviceChannels
                ? nil : "\(d.info.uid) records \(d.format), not \(deviceChannels) channels at \(rate) Hz"
        }
    }

    /// Starts the device if the start of `generation` is still wanted; when it will not start,
    /// the queue goes back to `previous` (when given) and the error is thrown.
    func startDevice(generation: Int, restoring previous: QueuePhase?) throws(AudioQueueError) {
        let feed = self.feed
        try core.startDevice(
            Self.driver, generation: generation, restoring: previous, transitions: transitions,
            start: { device throws(AudioDeviceError) in try device.start(sink: feed) }, started: { _, _ in })
    }

    /// Marks the device stopped and returns it for the caller to stop, if it was running
    /// (state lock held, transitions lock held).
    func detachDevice(_ side: inout InputSide) -> (any AudioInputDevice)? {
        side.session.generation &+= 1
        guard side.session.status != .idle else { return nil }
        side.session.status = .idle
        return side.session.device
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

    private func reportRunning() {
        let changed = transitions.run {
            core.state.withLock { s -> Bool in
                guard s.phase.isActive, s.side.session.status == .running, !s.reportedRunning else { return false }
                s.reportedRunning = true
                return true
            }
        }
        if changed { core.notify(self, .isRunning, synchronously: false) }
    }

    /// The device failed while recording: a queue on the default input follows it to the
    /// backend's default again (``followDefault(after:)``); otherwise the queue stops (what was
    /// recorded comes back), and the converter-error listeners hear `kAudioQueueErr_QueueInvalidated`.
    private func deviceFailed(_ error: AudioDeviceError) {
        if followDefault(after: error) {
            core.notify(self, .currentDevice, synchronously: false)
            return
        }
        let (changed, released) = transitions.run { () -> (Bool, AudioInputQueue?) in
            capture.withLock { c -> (Bool, AudioInputQueue?) in
                let result = core.state.withLock { s -> ((any AudioInputDevice)?, AudioInputQueue?)? in
                    s.side.session.failure = error
                    s.side.converterError = AudioQueueError.Code.queueInvalidated.rawValue
                    guard !s.phase.isStopped, s.phase != .disposed else { return nil }
                    s.phase = .stopped(stopWhenStarted: false)
                    let device = detachDevice(&s.side)
                    defer { s.keepAlive = nil }
                    return (device, s.keepAlive)
                }
                guard let (device, released) = result else { return (false, nil) }
                device?.stop(drain: false)
                pump(c, drops: .always)
                returnEverything(c, keepingStaged: true)
                return (true, released)
            }
        }
        // The program hears why before it gets back the buffers (see the output queue's).
        core.notify(self, .converterError, synchronously: false)
        scheduleCallbacks()
        if changed { core.setReportedRunning(self, false, synchronously: false) }
        withExtendedLifetime(released) {}
    }

    // MARK: The capture thread

    func startCaptureThread(_ side: inout InputSide) throws(AudioQueueError) {
        guard side.captureThread == nil else { return }
        let feed = self.feed
        let exit = captureThreadExit
        // Woken every 50 ms of audio until the first pump sets the threshold (see
        // wakeThreshold); the timeout only guards against a missed wake-up.
        feed.wakeThreshold.store(max(1, Int(sampleRate / 20)), ordering: .relaxed)
        do {
            side.captureThread = try IOThread(name: "aq.capture") { [weak self] in
                while !exit.isSet {
                    _ = feed.wake.wait(timeout: .now() + .seconds(1))
                    if exit.isSet { return }
                    guard let queue = self else { return }
                    queue.captureTick()
                }
            }
        } catch {
            throw AudioQueueError(.cannotStart, "\(error)")
        }
    }

    private func captureTick() {
        capture.withLock { c in pump(c, drops: .unlessStopping) }
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

    /// Hands back the buffer being filled (with what it holds when `keepingStaged`, else
    /// empty) and every enqueued buffer, empty.
    func returnEverything(_ c: CaptureLine, keepingStaged: Bool) {
        capture.assertHeld()
        let partial = keepingStaged ? (c.current != nil ? c.complete() : nil) : c.abandon()
        core.state.withLock { s in
            if let partial { s.line.append(partial) }
            for buffer in s.side.removeAll() {
                buffer.audioDataByteSize = 0
                buffer.packetDescriptionCount = 0
                s.line.append(FinishedBuffer(buffer: buffer))
            }
        }
    }

    /// Sends filled buffers to their callbacks, and a new converter error to its listeners.
    func scheduleCallbacks() {
        let notice = core.state.withLock { s -> Bool in
            defer { s.side.converterNoticePending = false }
            return s.side.converterNoticePending
        }
        if notice { core.notify(self, .converterError, synchronously: false) }
        core.scheduleCallbacks(self)
    }

    // MARK: Stopping

    /// Stops now: the device, what it recorded and has not been handed back, the buffers
    /// (back through their callbacks).
    func stopNow() {
        let (wasActive, released) = transitions.run { () -> (Bool, AudioInputQueue?) in
            capture.withLock { c -> (Bool, AudioInputQueue?) in
                let (active, device, released) = core.state.withLock { s -> (Bool, (any AudioInputDevice)?, AudioInputQueue?) in
                    let active = !s.phase.isStopped
                    s.line.refusals += 1
                    if s.phase != .disposed { s.phase = .stopped(stopWhenStarted: false) }
                    let device = detachDevice(&s.side)
                    defer { s.keepAlive = nil }
                    return (active, device, s.keepAlive)
                }
                device?.stop(drain: false)
                discardCaptured(c)
                returnEverything(c, keepingStaged: true)
                return (active, released)
            }
        }
        core.drainCallbacksNow(self)
        core.state.withLock { $0.line.refusals -= 1 }
        if wasActive { core.setReportedRunning(self, false, synchronously: true) }
        withExtendedLifetime(released) {}
    }

    /// The asynchronous stop: the device delivers what it recorded up to now and stops; every
    /// frame of it goes into buffers (waiting for callbacks to enqueue them again, up to two
    /// seconds); the buffer being filled comes back with what it holds, the others empty; then
    /// the queue has stopped.
    func finishAsyncStop() {
        let proceed = transitions.run { () -> Bool in
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
            let outcome = capture.withLock { c -> Outcome in
                guard core.state.withLock({ $0.phase.isStopping }) else { return .stopped }
                pump(c, drops: HostTime.now() >= deadline ? .always : .never)
                // With no buffer enqueued and no callback left to enqueue one (decided after the
                // pump, whose buffers make callbacks), what has nowhere to go is lost.
                if !core.state.withLock({ $0.line.outstanding > 0 || $0.side.hasEmpty }) { pump(c, drops: .always) }
                return feed.ring.available == 0 && feed.nextGapPosition == nil ? .done : .wait
            }
            if outcome == .stopped { return }
            if outcome == .done { break }
            scheduleCallbacks()
            core.state.withLock { s in
                if !s.side.hasEmpty && s.line.outstanding > 0 { core.state.wait(timeoutNanos: 50_000_000) }
            }
        }
        let (stopped, dispose, released) = capture.withLock { c -> (Bool, Bool, AudioInputQueue?) in
            let result = core.state.withLock { s -> (Bool, AudioInputQueue?)? in
                guard case .stopping(let thenDispose) = s.phase else { return nil }
                s.phase = .stopped(stopWhenStarted: false)
                defer { s.keepAlive = nil }
                return (thenDispose, s.keepAlive)
            }
            guard let (dispose, released) = result else { return (false, false, nil) }
            returnEverything(c, keepingStaged: true)
            return (true, dispose, released)
        }
        guard stopped else { return }
        scheduleCallbacks()
        core.reportStoppedAfterCallbacks(self)
        if dispose { finishDispose() }
        withExtendedLifetime(released) {}
    }

    func finishDispose() {
        stopNow()
        let (device, owned, thread) = core.state.withLock { s -> ((any AudioInputDevice)?, Bool, IOThread?) in
            s.phase = .disposed
            core.freeAll(in: &s)
            let (d, o) = s.side.session.release()
            let t = s.side.captureThread
            s.side.captureThread = nil
            return (d, o, t)
        }
        captureThreadExit.value.store(true, ordering: .releasing)
        feed.wake.signal()
        if let thread, !thread.isCurrent { thread.join() } else { thread?.detach() }
        if owned { transitions.run { device?.close() } }
    }
}
