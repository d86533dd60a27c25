import AudioDevices

extension AudioQueue {
    /// The device playing the default output went away while playing (a sound card unplugged,
    /// the sound server's stream of it killed: `AudioDeviceError.Code.disconnected`): the queue
    /// opens the default output of the same backend again and plays on there, as Apple's
    /// queues follow the system's default output. The timeline reports a discontinuity (what
    /// the lost device held does not play) and the current-device listeners hear of it.
    ///
    /// Only a device the queue opened itself as a default does this: one the program named, or
    /// opened and handed over, reports the loss. A sound server that died is not replaced by
    /// another backend or a file. Returns false when the queue did not follow; it then stops
    /// as for any failure.
    func followDefault(after error: AudioDeviceError) -> Bool {
        guard error.code == .disconnected else { return false }
        let feed = self.feed
        let (rate, channels) = (sampleRate, self.channels)
        return transitions.run { () -> Bool in
            let found = core.state.withLock { s -> (any AudioOutputDevice, String?, Int, Int)? in
                guard s.phase.isActive, s.side.offline == nil, let f = s.side.session.followable else { return nil }
                return (f.device, f.requestedUID, f.generation, s.side.decodeBufferFrames)
            }
            guard let (lost, requested, generation, frames) = found else { return false }
            lost.stop(drain: false)
            let replacement: any AudioOutputDevice
            do {
                if let requested {
                    replacement = try AudioBackends.makeOutput(uid: requested, sampleRate: rate, channels: channels, bufferFrames: frames)
                } else {
                    replacement = try AudioBackends.makeDefaultOutput(
                        backend: lost.info.backend, sampleRate: rate, channels: channels, bufferFrames: frames)
                }
            } catch {
                return false
            }
            guard Self.fits(replacement, channels: channels, sampleRate: rate) else {
                replacement.close()
                return false
            }
            // Decoded ahead before the new device asks, as at a start: it may take a whole
            // buffer at once.
            render.withLock { r in fill(&r) }
            do {
                try replacement.start(source: feed)
            } catch {
                replacement.close()
                return false
            }
            let swapped = core.state.withLock { s -> Bool in
                // Stops and pauses wait for the transitions lock held here: nothing else
                // changed the session meanwhile.
                guard s.side.session.adopt(replacement, generation: generation) else { return false }
                s.side.clock.timeBase += max(0, lost.framesPlayed - s.side.clock.playedAtStart)
                s.side.clock.playedAtStart = replacement.framesPlayed
                return true
            }
            guard swapped else {
                replacement.stop(drain: false)
                replacement.close()
                return false
            }
            lost.close()
            feed.underruns.add(1, ordering: .relaxed)
            return true
        }
    }
}
