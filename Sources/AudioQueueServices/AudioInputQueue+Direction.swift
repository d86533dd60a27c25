import AudioCore
import AudioDevices
import Locking

/// What the input queue gives the lifecycle both queue types share (``QueueDirection``).
extension AudioInputQueue: QueueDirection {
    var pipeline: PipelineLock<CaptureLine> { capture }

    func wakeThread() { feed.wake.signal() }

    /// What the device delivered before it stopped goes into the buffer being filled and the
    /// enqueued ones: an immediate stop (`AudioQueueStop(queue, true)`) hands back what was
    /// recorded up to the stop, as a Mac's queue does, and drops only what no enqueued buffer
    /// can take (it does not wait for callbacks to give buffers back); after a failure it is
    /// all taken as far as buffers go. The buffer being filled comes back with what it holds
    /// (and an encoder's last packets), the other enqueued ones empty.
    func emptyPipeline(_ c: inout CaptureLine, _ end: PipelineEnd) {
        switch end {
        case .stopped:
            pump(c, drops: .never)
            discardCaptured(c)
        case .failed: pump(c, drops: .always)
        }
        returnEverything(c, keepingStaged: true)
    }

    func makeDevice(uid: String?, defaultOf backend: String?) throws(AudioDeviceError) -> any AudioInputDevice {
        let channels = capture.withLockOnQueueThread { $0.deviceChannels }
        let fragment = deviceFragmentFrames()
        if let assigned = core.state.withLock({ $0.side.session.assignments }) {
            // All the device's channels; the queue takes its assigned ones.
            return try AudioBackends.open(AudioDeviceRequest(input: .uid(uid ?? assigned.uid), sampleRate: sampleRate, placement: assigned.placement, bufferFrames: fragment))
        }
        let target = AudioDeviceTarget(uid: uid, defaultOf: backend)
        return try AudioBackends.open(AudioDeviceRequest(input: target, sampleRate: sampleRate, channels: channels, bufferFrames: fragment))
    }

    func mismatch(_ device: any AudioInputDevice) -> String? {
        let channels = capture.withLockOnQueueThread { $0.deviceChannels }
        return device.format.sampleRate == sampleRate && Int(device.format.channelsPerFrame) == channels
            ? nil : "\(device.info.uid) records \(device.format), not \(channels) channels at \(sampleRate) Hz"
    }

    func connect(_ device: any AudioInputDevice) throws(AudioDeviceError) { try device.start(sink: feed) }

    func prepareForDevice() {}

    func countDiscontinuity() { feed.discontinuities.add(1, ordering: .relaxed) }

    var discontinuityCount: Int { feed.discontinuities.load(ordering: .acquiring) }

    /// Every frame the device delivered since the start, dropped ones included.
    func queueFrames(_ s: Core.State) -> Int64 { feed.framesSeen.load(ordering: .acquiring) }

    // MARK: The shared controls' hooks (QueueControl.swift)

    /// The device must record the channels the queue was made for; the capture thread; after a
    /// stop, a new ring and timeline. With the phase, under the lock, the recorded-buffer
    /// sink's new sequence: a stop seen before it ends the last run's sequence, not this one's.
    func prepareStart(_ c: inout CaptureLine, _ side: inout InputSide, device: any AudioInputDevice, fresh: Bool) throws(AudioQueueError) {
        guard Int(device.format.channelsPerFrame) == c.deviceChannels else {
            throw AudioQueueError(.invalidDevice, "\(device.info.uid) records \(device.format.channelsPerFrame) channels; the queue was made for \(c.deviceChannels)")
        }
        feed.realTimeThread.store(ThreadPriority.pipeline(serving: device) == .pipeline, ordering: .relaxed)
        try startCaptureThread(&side)
        if fresh {
            feed.reset()
            c.restartTimeline()
        }
        sink?.arm()
    }

    func pipelineArmed(_ c: inout CaptureLine) {}

    /// An input device stops when paused (what it recorded is still delivered).
    func pauseDevice(_ side: inout InputSide) -> (any AudioInputDevice)? { detachDevice(&side) }

    /// The control queue hands back what was recorded, then stops the queue.
    func beginAsynchronousStop() { core.controlQueue.async { [self] in finishAsyncStop() } }

    func resetState(_ s: inout Core.State) {}

    /// What was recorded and not handed back goes; every enqueued buffer comes back empty.
    func resetPipeline(_ c: inout CaptureLine, _ plan: Void) {
        discardCaptured(c)
        returnEverything(c, keepingStaged: false)
        c.resetCodec()
    }
}
