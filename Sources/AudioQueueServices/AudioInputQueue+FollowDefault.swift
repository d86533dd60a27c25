import AudioDevices

extension AudioInputQueue {
    /// The device recording the default input went away while recording (a sound card
    /// unplugged, the sound server behind alsa-lib's `pulse` plugin gone:
    /// `AudioDeviceError.Code.disconnected`): the queue opens the default input of the same
    /// backend again and records on from there, as output queues follow the default output
    /// (``AudioQueue``). The timeline reports a discontinuity (what was not recorded meanwhile
    /// is missing) and the current-device listeners hear of it.
    ///
    /// Only a device the queue opened itself as a default does this; one the program named, or
    /// opened and handed over, reports the loss. Returns false when the queue did not follow;
    /// it then stops as for any failure.
    func followDefault(after error: AudioDeviceError) -> Bool {
        guard error.code == .disconnected else { return false }
        let feed = self.feed
        let rate = sampleRate
        return transitions.run { () -> Bool in
            let found = core.state.withLock { s in s.phase.isActive ? s.side.session.followable : nil }
            guard let (lost, requested, generation) = found else { return false }
            lost.stop(drain: false)
            let channels = capture.withLock { $0.deviceChannels }
            let fragment = deviceFragmentFrames()
            let replacement: any AudioInputDevice
            do {
                if let requested {
                    replacement = try AudioBackends.makeInput(uid: requested, sampleRate: rate, channels: channels, bufferFrames: fragment)
                } else {
                    replacement = try AudioBackends.makeDefaultInput(
                        backend: lost.info.backend, sampleRate: rate, channels: channels, bufferFrames: fragment)
                }
            } catch {
                return false
            }
            guard replacement.format.sampleRate == rate, Int(replacement.format.channelsPerFrame) == channels else {
                replacement.close()
                return false
            }
            do {
                try replacement.start(sink: feed)
            } catch {
                replacement.close()
                return false
            }
            // Stops wait for the transitions lock held here: nothing else changed the session
            // meanwhile.
            let swapped = core.state.withLock { s in s.side.session.adopt(replacement, generation: generation) }
            guard swapped else {
                replacement.stop(drain: false)
                replacement.close()
                return false
            }
            lost.close()
            feed.discontinuities.add(1, ordering: .relaxed)
            return true
        }
    }
}
