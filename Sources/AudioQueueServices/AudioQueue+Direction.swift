import AudioCore
import AudioDevices

/// What the output queue gives the lifecycle both queue types share (``QueueDirection``).
extension AudioQueue: QueueDirection {
    var pipeline: Guarded<DecodeAhead> { render }

    func wakeThread() { feed.wake.signal() }

    /// Drops what is decoded and the buffer queue; after a stop the device's counters start
    /// again (a failed device's are left as they were).
    func emptyPipeline(_ r: inout DecodeAhead, _ end: PipelineEnd) {
        dropEverything(&r, rewinding: true)
        r.discardDecoded()
        if end == .stopped { feed.resetCounters() }
    }

    func startReplacement(for lost: any AudioOutputDevice, requestedUID: String?) -> (any AudioOutputDevice)? {
        let (rate, channels) = (sampleRate, self.channels)
        let frames = core.state.withLock { $0.side.decodeBufferFrames }
        let replacement: any AudioOutputDevice
        do {
            if let requestedUID {
                replacement = try AudioBackends.makeOutput(uid: requestedUID, sampleRate: rate, channels: channels, bufferFrames: frames)
            } else {
                replacement = try AudioBackends.makeDefaultOutput(
                    backend: lost.info.backend, sampleRate: rate, channels: channels, bufferFrames: frames)
            }
        } catch {
            return nil
        }
        guard Self.fits(replacement, channels: channels, sampleRate: rate) else {
            replacement.close()
            return nil
        }
        // Decoded ahead before the new device asks, as at a start: it may take a whole buffer
        // at once.
        render.withLock { r in fill(&r) }
        do {
            try replacement.start(source: feed)
        } catch {
            replacement.close()
            return nil
        }
        return replacement
    }

    func countDiscontinuity() { feed.underruns.add(1, ordering: .relaxed) }

    var discontinuityCount: Int { feed.underruns.load(ordering: .acquiring) }

    /// Offline: the frames rendered; live: the device's clock since it started, added to where
    /// the queue was then.
    func queueFrames(_ s: Core.State) -> Int64 {
        if let offline = s.side.offline { return offline.position }
        guard s.side.session.status == .running, let device = s.side.session.device else { return s.side.clock.timeBase }
        return s.side.clock.frames(devicePlayed: device.framesPlayed)
    }
}
