import AudioCore
import AudioDevices

/// The properties both queue types have, written once; each type's public API forwards here.
extension QueueDirection {
    /// Where the queue is in its life cycle.
    var runState: AudioQueueRunState { core.state.withLock { $0.phase.runState } }

    /// `kAudioQueueProperty_IsRunning`: what its listeners were last told.
    var reportedRunning: Bool { core.state.withLock { $0.reportedRunning } }

    /// `kAudioQueueProperty_ConverterError`.
    var lastConverterError: OSStatus { core.state.withLock { $0.side.converterError } }

    /// Why the device stopped the queue, if it failed.
    var lastDeviceFailure: AudioDeviceError? { core.state.withLock { $0.side.session.failure } }

    /// The layout the program set (state lock).
    var setLayout: AudioChannelLayout? { core.state.withLock { $0.side.layout } }

    /// Sets the channel layout; `invalidPropertyValue` when its channel count is not `channels`.
    func setLayout(_ layout: AudioChannelLayout?, channels: Int) throws(AudioQueueError) {
        try core.state.withLock { s throws(AudioQueueError) in
            try s.checkUsable()
            if let layout, layout.numberOfChannels != channels {
                throw AudioQueueError(.invalidPropertyValue, "the layout has \(layout.numberOfChannels) channels; the queue has \(channels)")
            }
            s.side.layout = layout
        }
    }

    /// `kAudioQueueProperty_CurrentDevice`: the open device's UID, else the one asked for; nil
    /// for the default, or offline.
    var deviceUID: String? {
        core.state.withLock { s in
            s.side.isOffline ? nil : (s.side.session.device.map(Self.driver.uid) ?? s.side.session.requestedUID)
        }
    }

    /// The open device's description; nil before the queue opens one, or offline.
    var deviceInfo: AudioDeviceInfo? {
        core.state.withLock { s in s.side.isOffline ? nil : s.side.session.device.map(Self.driver.info) }
    }

    /// The open device's format, nil before the queue opens one.
    var deviceFormat: AudioStreamBasicDescription? {
        core.state.withLock { s in s.side.session.device.map(Self.driver.format) }
    }

    // MARK: Time

    /// `AudioQueueGetCurrentTime`: the queue's frames (0 when stopped) and the host time now,
    /// with whether the timeline saw a discontinuity since `timeline` last looked.
    func timeNow(timeline: AudioQueueTimeline?) throws(AudioQueueError) -> (timeStamp: AudioTimeStamp, discontinuity: Bool) {
        try core.state.withLock { s throws(AudioQueueError) -> (AudioTimeStamp, Bool) in
            try s.checkUsable()
            if let timeline, timeline.owner != core.serial {
                throw AudioQueueError(.invalidParameter, "the timeline belongs to another queue")
            }
            let sample = s.phase.isStopped ? 0 : queueFrames(s)
            let discontinuity = timeline?.observe(discontinuityCount) ?? false
            return (AudioTimeStamp(sampleTime: Double(sample), hostTime: HostTime.now(), flags: .sampleHostTimeValid), discontinuity)
        }
    }

    /// `AudioQueueCreateTimeline`.
    func newTimeline() throws(AudioQueueError) -> AudioQueueTimeline {
        try core.state.withLock { s throws(AudioQueueError) -> AudioQueueTimeline in
            try s.checkUsable()
            return AudioQueueTimeline(owner: core.serial, seen: discontinuityCount)
        }
    }

    /// `AudioQueueDeviceGetCurrentTime`: the host time now and, while the device runs, its
    /// sample time. `invalidOfflineMode` offline.
    func deviceTime() throws(AudioQueueError) -> AudioTimeStamp {
        try core.state.withLock { s throws(AudioQueueError) -> AudioTimeStamp in
            try s.checkUsable()
            guard !s.side.isOffline else { throw AudioQueueError(.invalidOfflineMode, "an offline queue has no device") }
            guard s.side.session.status == .running, let device = s.side.session.device else {
                return AudioTimeStamp(hostTime: HostTime.now(), flags: .hostTimeValid)
            }
            let frames = Self.driver.sampleTime(device)
            return AudioTimeStamp(sampleTime: Double(frames), hostTime: HostTime.now(), flags: .sampleHostTimeValid)
        }
    }
}
