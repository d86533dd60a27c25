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
}
