public import AudioCore
import AudioCodecs
import AudioDevices

extension AudioQueue {
    /// Switches the queue to offline rendering in `format` (a linear PCM format, interleaved,
    /// at the queue's decoded rate and channel count), or back to the device with nil
    /// (`AudioQueueSetOfflineRenderFormat`). Only while stopped (`invalidRunState`).
    ///
    /// With channel assignments (``setChannelAssignments(_:)``) the format's channels are the
    /// device's: it may have more than the queue, at least the highest assigned, and the
    /// queue's channels are rendered into their assigned places, silence in the others.
    public func setOfflineRenderFormat(_ format: AudioStreamBasicDescription?, channelLayout: AudioChannelLayout? = nil) throws(AudioQueueError) {
        // Under the render lock throughout: a start from another thread cannot fill the ring
        // between the check and the clearing.
        try render.withLock { r throws(AudioQueueError) in
        try core.state.withLock { s throws(AudioQueueError) in
            try s.checkUsable()
            guard s.phase.isStopped else {
                throw AudioQueueError(.invalidRunState, "the render mode can be changed only while the queue is stopped")
            }
            guard let format else {
                s.side.offline = nil
                return
            }
            let formatChannels = Int(format.channelsPerFrame)
            // With assignments, the channels the format needs: up to the highest assigned.
            let needed = s.side.session.assignments.map { ($0.placement.deviceChannelIndices.max() ?? 0) + 1 }
            guard format.isPCM, format.isInterleaved || format.channelsPerFrame == 1,
                  needed.map({ formatChannels >= $0 && formatChannels <= 64 }) ?? (formatChannels == channels),
                  format.sampleRate == sampleRate else {
                let count = needed.map { "\($0) or more" } ?? "\(channels)"
                throw AudioQueueError(.invalidPropertyValue, "offline output must be interleaved linear PCM with \(count) channels at \(sampleRate) Hz, not \(format)")
            }
            if let channelLayout, channelLayout.numberOfChannels != formatChannels {
                throw AudioQueueError(.invalidPropertyValue, "the layout has \(channelLayout.numberOfChannels) channels; the format has \(formatChannels)")
            }
            let converter: PCMConverter
            do throws(AudioCodecError) {
                converter = try PCMConverter(from: renderFloat(channels: formatChannels), to: format)
            } catch {
                throw AudioQueueError(.invalidPropertyValue, "cannot render to \(format): \(error.reason)")
            }
            s.side.offline = OfflineSetup(format: format, layout: channelLayout, converter: converter)
        }
        r.discardDecoded()
        }
    }

    /// The Float32 format rendered before conversion to an offline format of `channels`: the
    /// queue's own, or as wide as the format when channel assignments widen it.
    private func renderFloat(channels: Int) -> AudioStreamBasicDescription {
        channels == self.channels ? floatFormat : .deviceFloat(sampleRate: sampleRate, channels: channels)
    }

    /// Renders up to `frameCount` frames into `buffer` in the offline format
    /// (`AudioQueueOfflineRender`), setting its ``AudioQueueBuffer/audioDataByteSize``.
    ///
    /// Deterministic: when the buffer queue runs dry the call waits for outstanding callbacks
    /// (which may enqueue more) before deciding. Fewer frames than asked come back only when
    /// nothing more is enqueued — the end of the stream — and an asynchronous stop then
    /// completes. `timeStamp` must carry a sample time. `invalidOfflineMode` when not in offline
    /// mode; `invalidRunState` unless started; `invalidParameter` when `frameCount` does not
    /// fit the buffer.
    public func offlineRender(at timeStamp: AudioTimeStamp, into buffer: AudioQueueBuffer, frameCount: Int) throws(AudioQueueError) {
        try core.refuseInsideTap()
        // One snapshot of the offline set-up: a change of format from another thread cannot
        // pull it from under the render.
        struct Setup {
            let bytesPerFrame: Int
            let converter: PCMConverter?
            let float: PCMBuffer?
            let out: PCMBuffer?
            /// With channel assignments: where the queue's channels go, and the queue's frames
            /// before they are placed.
            let placement: ChannelPlacement?
            let placing: PCMBuffer?
        }
        let setup = try core.state.withLock { s throws(AudioQueueError) -> Setup in
            // An asynchronous dispose waits for the rendering to reach the end.
            guard s.phase != .disposed else { throw AudioQueueError(.disposalPending, "the queue has been disposed of") }
            guard var offline = s.side.offline else {
                throw AudioQueueError(.invalidOfflineMode, "the queue is not in offline mode")
            }
            try core.checkOwned(buffer)
            guard buffer.state != .enqueued else {
                throw AudioQueueError(.bufferInQueue, "the buffer to render into is enqueued; render into one of its own")
            }
            guard timeStamp.flags.contains(.sampleTimeValid) else {
                throw AudioQueueError(.invalidParameter, "the time stamp has no sample time")
            }
            guard s.phase.isActive else { throw AudioQueueError(.invalidRunState, "start the queue before rendering") }
            let bpf = Int(offline.format.bytesPerFrame)
            guard frameCount >= 0, frameCount <= buffer.audioDataBytesCapacity / bpf else {
                throw AudioQueueError(.invalidParameter, "\(frameCount) frames do not fit in \(buffer.audioDataBytesCapacity) bytes")
            }
            let formatChannels = Int(offline.format.channelsPerFrame)
            var placement: ChannelPlacement?
            var placing: PCMBuffer?
            if let assigned = s.side.session.assignments {
                placement = ChannelPlacement(deviceChannelIndices: assigned.placement.deviceChannelIndices, deviceChannels: formatChannels)
                guard placement != nil else {
                    throw AudioQueueError(.invalidPropertyValue, "the channel assignments do not fit the offline format's \(formatChannels) channels")
                }
                if (offline.placing?.frameCapacity ?? -1) < frameCount {
                    offline.placing = PCMBuffer(format: floatFormat, frameCapacity: frameCount)
                    s.side.offline = offline
                }
                placing = offline.placing
                guard placing != nil else { throw AudioQueueError(.invalidParameter, "cannot allocate \(frameCount) frames") }
            } else if formatChannels != channels {
                throw AudioQueueError(.invalidPropertyValue, "the offline format has \(formatChannels) channels and the queue has no channel assignments")
            }
            let float = renderFloat(channels: formatChannels)
            guard offline.format != float else {
                return Setup(bytesPerFrame: bpf, converter: nil, float: nil, out: nil, placement: placement, placing: placing)
            }
            if (offline.float?.frameCapacity ?? -1) < frameCount || offline.float?.format != float {
                offline.float = PCMBuffer(format: float, frameCapacity: frameCount)
                offline.out = PCMBuffer(format: offline.format, frameCapacity: frameCount)
                s.side.offline = offline
            }
            guard let float = offline.float, let out = offline.out else {
                throw AudioQueueError(.invalidParameter, "cannot allocate \(frameCount) frames")
            }
            return Setup(bytesPerFrame: bpf, converter: offline.converter, float: float, out: out, placement: placement, placing: placing)
        }
        let bpf = setup.bytesPerFrame
        // Frames primed into the ring come first; the rest are rendered straight into the
        // destination — the caller's buffer itself when the offline format is Float32.
        nonisolated(unsafe) let destination = setup.float?.region(0).baseAddress?.assumingMemoryBound(to: Float.self)
            ?? buffer.audioData.assumingMemoryBound(to: Float.self)
        let (filled, ended): (Int, Bool)
        if let placement = setup.placement, let placing = setup.placing?.region(0).baseAddress?.assumingMemoryBound(to: Float.self) {
            (filled, ended) = try renderOffline(into: placing, frameCount: frameCount)
            placement.place(placing, into: destination, frames: filled)
        } else {
            (filled, ended) = try renderOffline(into: destination, frameCount: frameCount)
        }
        if let converter = setup.converter, let float = setup.float, let out = setup.out {
            float.frameLength = filled
            out.frameLength = 0
            do throws(AudioCodecError) {
                try converter.convert(float, appendingTo: out)
                buffer.audioData.copyMemory(from: out.region(0).baseAddress!, byteCount: filled * bpf)
            } catch {
                buffer.audioData.initializeMemory(as: UInt8.self, repeating: 0, count: filled * bpf)
            }
        }
        let stopping = core.state.withLock { s -> Bool in
            buffer.audioDataByteSize = filled * bpf
            s.side.offline?.position += Int64(filled)
            s.side.offline?.atEnd = ended
            return ended && s.phase.isStopping
        }
        scheduleCallbacks()
        if stopping { finishAsyncStop() }
    }

    /// Renders the next `frameCount` frames into `buffer` in the offline format, at the queue's
    /// own position (where the last render ended; 0 after a start from stopped), and returns
    /// the frames rendered: `frameCount`, or fewer at the end of the stream. Otherwise as
    /// ``offlineRender(at:into:frameCount:)``.
    @discardableResult
    public func offlineRender(into buffer: AudioQueueBuffer, frameCount: Int) throws(AudioQueueError) -> Int {
        let (position, bytesPerFrame) = try core.state.withLock { s throws(AudioQueueError) -> (Int64, Int) in
            guard let offline = s.side.offline else { throw AudioQueueError(.invalidOfflineMode, "the queue is not in offline mode") }
            return (offline.position, Int(offline.format.bytesPerFrame))
        }
        try offlineRender(at: AudioTimeStamp(sampleTime: Double(position), flags: .sampleTimeValid), into: buffer, frameCount: frameCount)
        return buffer.audioDataByteSize / max(bytesPerFrame, 1)
    }

    /// Renders `frameCount` Float32 frames into `destination`: primed frames first, then the
    /// engine, waiting for outstanding callbacks when the buffer queue runs dry. Returns the
    /// frames rendered and whether the stream ended.
    private func renderOffline(into destination: UnsafeMutablePointer<Float>, frameCount: Int) throws(AudioQueueError) -> (Int, Bool) {
        var filled = 0
        // Set once the stream has ended while a stage (the time/pitch unit) still holds
        // frames: it gives them out.
        var ending = false
        while true {
            enum Step { case done, waitForCallbacks, ended, drainStages }
            let step = try render.withLock { r -> Step in
                let channels = r.channels
                var dry = false
                while filled < frameCount {
                    let fromRing = r.ring.read(into: destination + filled * channels, frames: frameCount - filled)
                    filled += fromRing
                    if fromRing > 0 { continue }
                    let fromPrimed = r.takePrimed(into: destination + filled * channels, frames: frameCount - filled)
                    filled += fromPrimed
                    if fromPrimed > 0 { continue }
                    let produced = r.chain.render(
                        engine: r.engine, into: destination + filled * channels, frameCount: frameCount - filled, next: takeNext,
                        isStopping: ending ? isDry : isStoppingDry)
                    filled += produced
                    if produced == 0 {
                        dry = true
                        break
                    }
                }
                collectFinished(&r)
                guard dry else { return .done }
                // Dry. While running, callbacks still to come may enqueue more: wait for them.
                // Stopping, or with none outstanding, this is the end.
                let more = core.state.withLock { s in
                    s.phase == .running && (s.line.outstanding > 0 || !s.side.pending.isEmpty)
                }
                if more { return .waitForCallbacks }
                return !ending && r.chain.holdsFrames ? .drainStages : .ended
            }
            switch step {
            case .done:
                try measure(destination, frames: filled)
                return (filled, false)
            case .ended:
                try measure(destination, frames: filled)
                return (filled, true)
            case .drainStages:
                ending = true
                continue
            case .waitForCallbacks:
                break
            }
            scheduleCallbacks()
            if core.onCallbackQueue {
                // Rendering from inside a callback: the others cannot run until it returns, so
                // this render ends short (not the end of the stream).
                if !core.drainCallbacks(self) {
                    try measure(destination, frames: filled)
                    return (filled, false)
                }
            } else {
                core.state.withLock { s in
                    if s.line.outstanding > 0 && s.side.pending.isEmpty { core.state.wait(timeoutNanos: 100_000_000) }
                }
            }
        }
    }

    private func measure(_ samples: UnsafeMutablePointer<Float>, frames: Int) throws(AudioQueueError) {
        try render.withLock { $0.meter.measure(samples, frames: frames) }
    }
}
