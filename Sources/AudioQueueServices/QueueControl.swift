import AudioCore
import AudioDevices
import Locking

/// What a start decided under the locks, for the steps taken after them.
enum StartPlan {
    /// Nothing to do: the queue is running already.
    case none
    /// An offline queue (no device) started; `fresh` when it was stopped.
    case offline(fresh: Bool)
    /// The device is to start (now, or at the time asked for); `stopping` when an asynchronous
    /// stop was asked for before the start, so the queue stops once what it has is done.
    case live(previous: QueuePhase, generation: Int, stopping: Bool)
}

/// The controls both directions share — `AudioQueueStart`, `Pause`, `Stop`, `Reset` and
/// `Dispose` — written once over the hooks a direction supplies (``QueueDirection``): how it
/// readies its pipeline for a start, pauses its kind of device, resets what its pipeline holds
/// and ends an asynchronous stop. Each is refused inside a processing tap (`call` names the
/// public member for the error).
extension QueueDirection {
    /// `AudioQueueStart`: opens the device if the queue has none (before any lock: a sound
    /// server may take a while), readies the pipeline and starts the device now or when `time`
    /// comes.
    func startQueue(at time: AudioTimeStamp?, _ call: StaticString = #function) throws(AudioQueueError) {
        try core.refuseInsideTap(call)
        try QueueCore<Self, Side>.checkStartTime(time)
        try core.openDeviceIfNeeded(Self.driver, needed: { !$0.side.isOffline }, open: openDevice)
        let plan = try pipeline.withLock(call) { p throws(AudioQueueError) -> StartPlan in
            let plan = try core.state.withLock { s throws(AudioQueueError) -> StartPlan in
                try s.checkUsable()
                guard let next = try s.phase.startTarget() else { return .none }
                let previous = s.phase
                if s.side.isOffline {
                    s.phase = next
                    // From the beginning again, as after a stop.
                    if previous.isStopped { s.side.stoppedNow() }
                    return .offline(fresh: previous.isStopped)
                }
                let direction = Self.driver.direction
                if let failure = s.side.session.failure {
                    throw AudioQueueError(.cannotStart, "the \(direction) device failed: \(failure); choose a device again")
                }
                guard let device = s.side.session.device else { throw AudioQueueError(.cannotStart, "no \(direction) device") }
                try prepareStart(&p, &s.side, device: device, fresh: previous.isStopped)
                s.phase = next
                s.side.session.generation &+= 1
                s.keepAlive = self
                return .live(previous: previous, generation: s.side.session.generation, stopping: next.isStopping)
            }
            if case .live = plan { pipelineArmed(&p) }
            return plan
        }
        switch plan {
        case .none: break
        case .offline(let fresh):
            if fresh { reportRunning() }
        case .live(let previous, let generation, let stopping):
            let delay = QueueCore<Self, Side>.delay(until: time, sampleRate: sampleRate) {
                core.state.withLock { s in s.side.session.device.map(Self.driver.sampleTime) ?? 0 }
            }
            if delay > 0 {
                core.startLater(after: delay, self) { queue in
                    do throws(AudioQueueError) {
                        try queue.startDevice(generation: generation, restoring: nil)
                        if stopping { queue.beginAsynchronousStop() }
                    } catch {
                        queue.deviceReported(.failed(AudioDeviceError(error.deviceError?.code ?? .openFailed, error.reason)))
                    }
                }
            } else {
                try startDevice(generation: generation, restoring: previous)
                if stopping { beginAsynchronousStop() }
            }
        }
        scheduleCallbacks()
    }

    /// `AudioQueuePause`: the queue keeps its buffers and position; its device pauses (output)
    /// or stops after delivering what it recorded (input).
    func pauseQueue(_ call: StaticString = #function) throws(AudioQueueError) {
        try core.refuseInsideTap(call)
        try transitions.run(call) { () throws(AudioQueueError) in
            let device = try core.state.withLock { s throws(AudioQueueError) -> Device? in
                try s.checkUsable()
                guard s.phase.pause() else { return nil }
                s.keepAlive = nil
                return pauseDevice(&s.side)
            }
            if let device { Self.driver.pause(device) }
        }
        wakeThread()
    }

    /// `AudioQueueStop`: immediately (``stopNow()``), or once what the queue holds is done.
    func stopQueue(immediate: Bool, _ call: StaticString = #function) throws(AudioQueueError) {
        try core.refuseInsideTap(call)
        let began = try core.state.withLock { s throws(AudioQueueError) -> Bool in
            try s.checkUsable()
            guard !immediate else { return false }
            let was = s.phase
            s.phase.requestAsynchronousStop()
            return s.phase.isStopping && !was.isStopping
        }
        if immediate {
            stopNow()
        } else if began {
            beginAsynchronousStop()
        }
    }

    /// `AudioQueueReset`: every enqueued buffer comes back through its callback before this
    /// returns, and what the pipeline holds goes; a running queue keeps running.
    func resetQueue(_ call: StaticString = #function) throws(AudioQueueError) {
        try core.refuseInsideTap(call)
        try transitions.run(call) { () throws(AudioQueueError) in
            try pipeline.withLock(call) { p throws(AudioQueueError) in
                let plan = try core.state.withLock { s throws(AudioQueueError) -> ResetPlan in
                    try s.checkUsable()
                    s.line.refusals += 1
                    s.phase.forgetPendingStop()
                    return resetState(&s)
                }
                resetPipeline(&p, plan)
            }
        }
        core.drainCallbacksNow(self)
        core.state.withLock { $0.line.refusals -= 1 }
    }

    /// `AudioQueueDispose`: now (stopping first), or once what the queue holds is done.
    func disposeQueue(immediate: Bool, _ call: StaticString = #function) throws(AudioQueueError) {
        try core.refuseInsideTap(call)
        if try disposesNow(immediate: immediate) { finishDispose() } else { beginAsynchronousStop() }
    }

    /// The last step of an asynchronous stop, once what the queue held is done (pipeline lock
    /// held): the device stops, the queue turns stopped and its pipeline empties. Returns what
    /// ``finishStopping(_:thenDispose:released:)`` takes.
    ///
    /// An output queue ends it with its device still running (the transitions lock held too).
    /// An input queue stopped its device first (`deviceStopped`) and delivered what it held: if
    /// a device runs again, the queue was paused and started meanwhile, and the end belongs to
    /// the stop that start set going, which stops that device and delivers what it recorded.
    func concludeAsynchronousStop(_ p: inout Pipeline, deviceStopped: Bool = false) -> (stopped: Bool, dispose: Bool, released: Self?) {
        let result = core.state.withLock { s -> (Device?, Bool, Self?)? in
            guard case .stopping(let thenDispose) = s.phase else { return nil }
            if deviceStopped && s.side.session.status != .idle { return nil }
            let device = detachDevice(&s.side)
            s.phase = .stopped(stopWhenStarted: false)
            defer { s.keepAlive = nil }
            return (device, thenDispose, s.keepAlive)
        }
        guard let (device, dispose, released) = result else { return (false, false, nil) }
        // The device has played or delivered everything; stopping it releases its I/O thread
        // before anyone can start the queue again.
        if let device { Self.driver.stop(device, true) }
        emptyPipeline(&p, .stopped)
        return (true, dispose, released)
    }
}
