import AudioCore
import AudioDevices
import Locking

/// What a direction's state (``OutputSide`` or ``InputSide``) gives the lifecycle both queue
/// types share.
protocol QueueSide: DeviceSide {
    /// What `kAudioQueueProperty_ConverterError` says, and whether its listeners are still to hear.
    var converterError: OSStatus { get set }
    var converterNoticePending: Bool { get set }
    /// The channel layout set by the program (`kAudioQueueProperty_ChannelLayout`).
    var layout: AudioChannelLayout? { get set }
    /// The queue's own thread (render or capture), while it has one.
    var thread: IOThread? { get set }
    /// The queue renders offline, with no device (output queues only).
    var isOffline: Bool { get }
    /// The device started running, its clock reading `frames` (state lock held).
    mutating func deviceStarted(at frames: Int64)
    /// The device's clock read `frames` as it stopped running (state lock held).
    mutating func deviceStopped(at frames: Int64)
    /// The device that went away read `lostFrames` when it stopped; its replacement reads
    /// `replacementFrames` now (state lock held).
    mutating func deviceReplaced(lostFrames: Int64, replacementFrames: Int64)
    /// The queue stopped at once: what it keeps of its position goes.
    mutating func stoppedNow()
}

/// Why a queue empties its pipeline.
enum PipelineEnd {
    /// A stop: the device was stopped by the program (or an asynchronous stop ended).
    case stopped
    /// The device failed: what the pipeline holds is handed back as far as it got.
    case failed
}

/// One direction of audio queue — ``AudioQueue`` (output) or ``AudioInputQueue`` (input).
/// The lifecycle is written once, here, over what a direction supplies: its pipeline (the
/// render or capture line, behind its own lock), how it drives its kind of device, and how it
/// empties its pipeline.
///
/// Locks, in the package's order (`LockRank`, module Locking): ``transitions`` → ``pipeline``
/// → a device's own → the state lock (`core.state`). The state lock is never held while a
/// device is started, paused, stopped or closed (those may wait on a sound server); device
/// clocks (`framesPlayed`, `framesRendered`, `framesCaptured`) are read under it, since devices
/// publish them without locks. Debug builds assert the order.
protocol QueueDirection: AnyObject, Sendable {
    associatedtype Side: QueueSide
    associatedtype Pipeline
    var core: QueueCore<Self, Side> { get }
    /// The pipeline lock: the render line (output) or the capture line (input).
    var pipeline: PipelineLock<Pipeline> { get }
    /// How this direction drives its kind of device.
    static var driver: DeviceDriver<Side.Device> { get }
    /// Wakes the queue's own thread.
    func wakeThread()
    /// Empties the pipeline once the device has stopped (pipeline lock held, state lock not);
    /// the buffers go to the callback line.
    func emptyPipeline(_ pipeline: inout Pipeline, _ end: PipelineEnd)
    /// Disposes of the queue's processing tap, if any, with the queue (pipeline lock held).
    func disposeProcessingTap(_ pipeline: inout Pipeline)
    /// Opens a device for this queue: the one `uid` names, else the default — of `backend`
    /// when given, else of the first backend that has one (``AudioBackends``). No lock held.
    func makeDevice(uid: String?, defaultOf backend: String?) throws(AudioDeviceError) -> Side.Device
    /// Why `device` will not do for this queue (its rate or channel count); nil when it will.
    func mismatch(_ device: Side.Device) -> String?
    /// Starts `device` playing from (or recording into) this queue's feed.
    func connect(_ device: Side.Device) throws(AudioDeviceError)
    /// Readies the pipeline for a device about to start (output queues decode ahead).
    func prepareForDevice()
    /// Counts a discontinuity of the queue's timeline (the device changed, or lost audio).
    func countDiscontinuity()
    /// Timeline discontinuities since the queue was made.
    var discontinuityCount: Int { get }
    /// The queue's time in frames while it is not stopped (state lock held).
    func queueFrames(_ s: QueueState<Self, Side>) -> Int64

    // Hooks of the shared controls (QueueControl.swift).

    /// What a reset decided under the state lock, for the pipeline's part.
    associatedtype ResetPlan
    /// The queue's sample rate: start times are measured in it.
    var sampleRate: Double { get }
    /// Readies a start of `device` (both locks held): the queue's thread, and when `fresh`
    /// (the queue was stopped) the counters and timeline of a new run. Throws when the device
    /// will not do.
    func prepareStart(_ pipeline: inout Pipeline, _ side: inout Side, device: Side.Device, fresh: Bool) throws(AudioQueueError)
    /// The start is decided (pipeline lock held, state lock not): output queues decode ahead.
    func pipelineArmed(_ pipeline: inout Pipeline)
    /// Marks the device paused and returns it for ``DeviceDriver/pause`` (state lock held).
    func pauseDevice(_ side: inout Side) -> Side.Device?
    /// An asynchronous stop was asked for (or a start of a queue asked to stop): whatever
    /// ends it is set going.
    func beginAsynchronousStop()
    /// A reset's part under the state lock.
    func resetState(_ s: inout QueueState<Self, Side>) -> ResetPlan
    /// A reset's part over the pipeline (pipeline lock held, state lock not).
    func resetPipeline(_ pipeline: inout Pipeline, _ plan: ResetPlan)
    /// Handles what the device reports (on its I/O thread, or the control queue).
    func deviceReported(_ event: AudioDeviceEvent)
}

extension QueueDirection {
    typealias Device = Side.Device

    /// Serializes device start, pause, stop and close; taken before the pipeline lock.
    var transitions: DeviceTransitions { core.transitions }
    /// Tells the queue's own thread to end.
    var threadExit: ExitFlag { core.threadExit }

    // MARK: The device

    /// Opens the device asked for, or the default one. No lock held.
    func openDevice() throws(AudioQueueError) -> Device {
        try core.openDevice(Self.driver, open: { uid throws(AudioDeviceError) in try makeDevice(uid: uid, defaultOf: nil) }, mismatch: mismatch)
    }

    /// Starts the device if the queue should still be running (the start of `generation` has
    /// not been overtaken by a pause, stop or reset) and it is not running. When it will not
    /// start, the queue goes back to `previous` (when given) and the error is thrown.
    func startDevice(generation: Int, restoring previous: QueuePhase?) throws(AudioQueueError) {
        try core.startDevice(
            Self.driver, generation: generation, restoring: previous,
            start: { device throws(AudioDeviceError) in try connect(device) },
            started: { side, device in side.deviceStarted(at: Self.driver.clock(device)) })
    }

    /// Uses `device`, which the program opened, from the next start (``QueueCore/useDevice(_:_:mismatch:)``).
    func useDevice(_ device: Device, _ call: StaticString = #function) throws(AudioQueueError) {
        // Measuring the device reads the pipeline; inside a tap, refused first.
        try core.refuseInsideTap(call)
        try core.useDevice(Self.driver, device, mismatch: mismatch(device))
    }

    /// Opens, readies and starts a device in place of `lost` — `requestedUID`'s, else the
    /// default of its backend — for ``followDefault(after:)``; nil (nothing left open) when it
    /// cannot.
    func startReplacement(for lost: Device, requestedUID: String?) -> Device? {
        let replacement: Device
        do {
            replacement = try makeDevice(uid: requestedUID, defaultOf: Self.driver.info(lost).backend)
        } catch {
            return nil
        }
        guard mismatch(replacement) == nil else {
            Self.driver.close(replacement)
            return nil
        }
        prepareForDevice()
        do {
            try connect(replacement)
        } catch {
            Self.driver.close(replacement)
            return nil
        }
        return replacement
    }

    /// Marks the device stopped and returns it for the caller to stop, if it was running or
    /// paused (transitions and state locks held).
    func detachDevice(_ side: inout Side) -> Device? {
        core.state.assertHeld()
        side.session.generation &+= 1
        guard let device = side.session.device, side.session.status != .idle else { return nil }
        if side.session.status == .running { side.deviceStopped(at: Self.driver.clock(device)) }
        side.session.status = .idle
        return device
    }

    /// The device has started (or an offline queue has): `isRunning` turns true, if the queue
    /// is still meant to run — checked and set in one step, so a stop in between wins.
    func reportRunning() {
        let changed = transitions.runOnQueueThread {
            core.state.withLock { s -> Bool in
                guard s.phase.isActive, s.side.isOffline || s.side.session.status == .running, !s.reportedRunning else {
                    return false
                }
                s.reportedRunning = true
                return true
            }
        }
        if changed { core.notify(self, .isRunning, synchronously: false) }
    }

    /// The device failed: a queue on the default device follows it to the backend's default
    /// again (``followDefault(after:)``); otherwise the queue stops, its buffers come back,
    /// and the converter-error listeners hear `kAudioQueueErr_QueueInvalidated` first (a
    /// callback may try to enqueue its buffer again, which the stopped queue refuses).
    func deviceFailed(_ error: AudioDeviceError) {
        if followDefault(after: error) {
            core.notify(self, .currentDevice, synchronously: false)
            return
        }
        let (changed, released) = transitions.runOnQueueThread { () -> (Bool, Self?) in
            pipeline.withLockOnQueueThread { p -> (Bool, Self?) in
                let result = core.state.withLock { s -> (Device?, Self?)? in
                    s.side.session.failure = error
                    s.side.converterError = AudioQueueError.Code.queueInvalidated.rawValue
                    guard !s.phase.isStopped, s.phase != .disposed else { return nil }
                    s.phase = .stopped(stopWhenStarted: false)
                    defer { s.keepAlive = nil }
                    return (detachDevice(&s.side), s.keepAlive)
                }
                guard let (device, released) = result else { return (false, nil) }
                if let device { Self.driver.stop(device, false) }
                emptyPipeline(&p, .failed)
                return (true, released)
            }
        }
        core.notify(self, .converterError, synchronously: false)
        scheduleCallbacks()
        if changed { core.setReportedRunning(self, false, synchronously: false) }
        // After the callbacks and the notices just sent: the callback queue is serial.
        core.callbackQueue.async { [core] in core.checkStopped() }
        withExtendedLifetime(released) {}
    }

    // MARK: Stopping

    /// Stops now: the device, the pipeline, the buffers (back through their callbacks before
    /// this returns; from inside a callback, right after it returns).
    func stopNow() {
        let (wasActive, released) = transitions.runOnQueueThread { () -> (Bool, Self?) in
            pipeline.withLockOnQueueThread { p -> (Bool, Self?) in
                let (active, device, released) = core.state.withLock { s -> (Bool, Device?, Self?) in
                    let active = !s.phase.isStopped
                    s.line.refusals += 1
                    if s.phase != .disposed { s.phase = .stopped(stopWhenStarted: false) }
                    s.side.stoppedNow()
                    defer { s.keepAlive = nil }
                    return (active, detachDevice(&s.side), s.keepAlive)
                }
                if let device { Self.driver.stop(device, false) }
                emptyPipeline(&p, .stopped)
                return (active, released)
            }
        }
        core.drainCallbacksNow(self)
        core.state.withLock { $0.line.refusals -= 1 }
        if wasActive { core.setReportedRunning(self, false, synchronously: true) }
        core.checkStopped()
        withExtendedLifetime(released) {}
    }

    /// The end of an asynchronous stop, once the device has stopped and the pipeline is empty:
    /// the queue has stopped, the callbacks go out, `isRunning` turns false after them, and a
    /// dispose asked for with the stop follows.
    func finishStopping(_ stopped: Bool, thenDispose dispose: Bool, released: Self?) {
        guard stopped else { return }
        scheduleCallbacks()
        core.reportStoppedAfterCallbacks(self)
        if dispose { finishDispose() }
        withExtendedLifetime(released) {}
    }

    /// The first step of `AudioQueueDispose`: true when the queue is to be disposed of now;
    /// false when an asynchronous dispose of a running queue waits for the end of what it has.
    func disposesNow(immediate: Bool) throws(AudioQueueError) -> Bool {
        try core.state.withLock { s throws(AudioQueueError) -> Bool in
            try s.checkUsable()
            guard immediate || !s.phase.isActive else {
                s.phase = .stopping(thenDispose: true)
                return false
            }
            return true
        }
    }

    /// Disposes of the queue now: stops, frees every buffer, ends the queue's thread and
    /// closes a device the queue opened itself (one the program supplied is only stopped).
    func finishDispose() {
        stopNow()
        pipeline.withLockOnQueueThread { disposeProcessingTap(&$0) }
        let (device, owned, thread) = core.state.withLock { s -> (Device?, Bool, IOThread?) in
            s.phase = .disposed
            core.freeAll(in: &s)
            let (d, o) = s.side.session.release()
            defer { s.side.thread = nil }
            return (d, o, s.side.thread)
        }
        threadExit.value.store(true, ordering: .releasing)
        wakeThread()
        if let thread, !thread.isCurrent { thread.join() } else { thread?.detach() }
        if owned, let device { transitions.runOnQueueThread { Self.driver.close(device) } }
        core.checkStopped()
        core.finishStreams()
    }

    /// What the queue's `deinit` does: ends its thread (which holds the queue weakly and ends
    /// on its own), stops a running device and closes one the queue opened.
    func releaseOnDeinit() {
        threadExit.value.store(true, ordering: .releasing)
        wakeThread()
        let (thread, device, running, owned) = core.state.withLock { s in
            (s.side.thread, s.side.session.device, s.side.session.status == .running, s.side.session.owned)
        }
        thread?.detach()
        if let device {
            if running { Self.driver.stop(device, false) }
            if owned { Self.driver.close(device) }
        }
        core.finishStreams()
    }

    // MARK: Following the default device

    /// The device recording or playing the default went away while running (a sound card
    /// unplugged, the sound server's stream of it killed: `AudioDeviceError.Code.disconnected`):
    /// the queue opens the default of the same backend again and runs on there, as Apple's
    /// queues follow the system's default device. The timeline reports a discontinuity (what
    /// the lost device held does not play, or what was not recorded meanwhile is missing) and
    /// the current-device listeners hear of it.
    ///
    /// Only a device the queue opened itself as a default does this: one the program named, or
    /// opened and handed over, reports the loss. A sound server that died is not replaced by
    /// another backend or a file. Returns false when the queue did not follow; it then stops
    /// as for any failure.
    func followDefault(after error: AudioDeviceError) -> Bool {
        guard error.code == .disconnected else { return false }
        return transitions.runOnQueueThread { () -> Bool in
            let found = core.state.withLock { s in s.phase.isActive && !s.side.isOffline ? s.side.session.followable : nil }
            guard let (lost, requested, generation) = found else { return false }
            Self.driver.stop(lost, false)
            guard let replacement = startReplacement(for: lost, requestedUID: requested) else { return false }
            // Stops and pauses wait for the transitions lock held here: nothing else changed
            // the session meanwhile, unless the queue stopped.
            let swapped = core.state.withLock { s -> Bool in
                guard s.side.session.adopt(replacement, generation: generation) else { return false }
                s.side.deviceReplaced(lostFrames: Self.driver.clock(lost), replacementFrames: Self.driver.clock(replacement))
                return true
            }
            guard swapped else {
                Self.driver.stop(replacement, false)
                Self.driver.close(replacement)
                return false
            }
            Self.driver.close(lost)
            countDiscontinuity()
            return true
        }
    }

    // MARK: Callbacks

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
