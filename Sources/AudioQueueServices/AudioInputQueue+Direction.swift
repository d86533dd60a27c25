import AudioCore
import AudioDevices

/// What the input queue gives the lifecycle both queue types share (``QueueDirection``).
extension AudioInputQueue: QueueDirection {
    var pipeline: Guarded<CaptureLine> { capture }

    func wakeThread() { feed.wake.signal() }

    /// After a stop, what the ring holds is dropped; after a failure, what the device delivered
    /// goes into buffers. Either way the buffer being filled comes back with what it holds and
    /// the other enqueued ones come back empty.
    func emptyPipeline(_ c: inout CaptureLine, _ end: PipelineEnd) {
        switch end {
        case .stopped: discardCaptured(c)
        case .failed: pump(c, drops: .always)
        }
        returnEverything(c, keepingStaged: true)
    }

    func startReplacement(for lost: any AudioInputDevice, requestedUID: String?) -> (any AudioInputDevice)? {
        let rate = sampleRate
        let channels = capture.withLock { $0.deviceChannels }
        let fragment = deviceFragmentFrames()
        let replacement: any AudioInputDevice
        do {
            if let requestedUID {
                replacement = try AudioBackends.makeInput(uid: requestedUID, sampleRate: rate, channels: channels, bufferFrames: fragment)
            } else {
                replacement = try AudioBackends.makeDefaultInput(
                    backend: lost.info.backend, sampleRate: rate, channels: channels, bufferFrames: fragment)
            }
        } catch {
            return nil
        }
        guard replacement.format.sampleRate == rate, Int(replacement.format.channelsPerFrame) == channels else {
            replacement.close()
            return nil
        }
        do {
            try replacement.start(sink: feed)
        } catch {
            replacement.close()
            return nil
        }
        return replacement
    }

    func countDiscontinuity() { feed.discontinuities.add(1, ordering: .relaxed) }

    var discontinuityCount: Int { feed.discontinuities.load(ordering: .acquiring) }

    /// Every frame the device delivered since the start, dropped ones included.
    func queueFrames(_ s: Core.State) -> Int64 { feed.framesSeen.load(ordering: .acquiring) }
}
