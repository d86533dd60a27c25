public import AudioCore
public import AudioDevices

extension AudioQueue {
    // MARK: Parameters

    /// Sets a parameter now (`AudioQueueSetParameter`). Volume changes ramp over the
    /// ``AudioQueueParameterID/volumeRampTime``. `invalidParameter` for a value out of range or
    /// a parameter the queue does not have.
    public func setParameter(_ parameter: AudioQueueParameterID, _ value: Float) throws(AudioQueueError) {
        try core.refuseInsideTap()
        try render.withLock { r throws(AudioQueueError) in
            try core.state.withLock { s throws(AudioQueueError) in try s.checkUsable() }
            try RenderEngine.check(parameter, value)
            r.engine.set(parameter, value)
        }
    }

    /// Sets a parameter by Apple's numeric ID; `invalidParameter` for an ID that is not one.
    public func setParameter(id: UInt32, _ value: Float) throws(AudioQueueError) {
        try setParameter(try AudioQueueParameterID.supported(id), value)
    }

    /// The parameter's current value (`AudioQueueGetParameter`); `invalidParameter` for one
    /// the queue does not have.
    public func parameter(_ parameter: AudioQueueParameterID) throws(AudioQueueError) -> Float {
        try core.refuseInsideTap()
        return try render.withLock { r throws(AudioQueueError) -> Float in
            try core.state.withLock { s throws(AudioQueueError) in try s.checkUsable() }
            return try r.engine.parameter(parameter)
        }
    }

    /// A parameter by Apple's numeric ID; `invalidParameter` for an ID that is not one.
    public func parameter(id: UInt32) throws(AudioQueueError) -> Float {
        try parameter(try AudioQueueParameterID.supported(id))
    }

    // MARK: Properties

    /// True from when the device starts playing until it stops (`kAudioQueueProperty_IsRunning`).
    /// Pausing does not change it.
    public var isRunning: Bool { reportedRunning }

    /// The magic cookie the decoder was configured with (`kAudioQueueProperty_MagicCookie`).
    public var magicCookie: [UInt8]? {
        get throws(AudioQueueError) { try render.withLock { $0.engine.magicCookie } }
    }

    /// Configures the decoder with a magic cookie. Set it before enqueueing compressed data:
    /// `invalidRunState` once buffers are enqueued or the queue runs; `invalidPropertyValue`
    /// when the decoder rejects it.
    public func setMagicCookie(_ cookie: [UInt8]?) throws(AudioQueueError) {
        try render.withLock { r throws(AudioQueueError) in
            try core.state.withLock { s throws(AudioQueueError) in
                try s.checkUsable()
                guard s.side.pending.isEmpty, s.phase.isStopped || s.phase.isPaused else {
                    throw AudioQueueError(.invalidRunState, "set the magic cookie before enqueueing buffers")
                }
            }
            guard !r.engine.isBusy else { throw AudioQueueError(.invalidRunState, "set the magic cookie before enqueueing buffers") }
            try r.engine.setMagicCookie(cookie)
        }
    }

    /// The channel layout (`kAudioQueueProperty_ChannelLayout`): what was set, else the
    /// decoder's own order (AAC), else nil.
    public var channelLayout: AudioChannelLayout? {
        get throws(AudioQueueError) {
            let codec = try render.withLock { $0.engine.outputChannelLayout }
            return setLayout ?? codec
        }
    }

    /// Sets the channel layout; `invalidPropertyValue` when its channel count is not the queue's.
    public func setChannelLayout(_ newLayout: AudioChannelLayout?) throws(AudioQueueError) {
        try setLayout(newLayout, channels: channels)
    }

    /// Whether levels are metered (`kAudioQueueProperty_EnableLevelMetering`).
    public var isLevelMeteringEnabled: Bool {
        get throws(AudioQueueError) { try render.withLock { $0.meter.isEnabled } }
    }

    /// Turns level metering on or off.
    public func setLevelMeteringEnabled(_ enabled: Bool) throws(AudioQueueError) {
        try render.withLock { r throws(AudioQueueError) in
            try core.state.withLock { s throws(AudioQueueError) in try s.checkUsable() }
            r.meter.setEnabled(enabled)
        }
    }

    /// Per-channel RMS and peak of the most recent render quantum, linear
    /// (`kAudioQueueProperty_CurrentLevelMeter`); ``AudioQueueLevelMeterState/decibels``
    /// gives `kAudioQueueProperty_CurrentLevelMeterDB`. `invalidPropertyValue` while metering is off.
    public func currentLevelMeter() throws(AudioQueueError) -> [AudioQueueLevelMeterState] {
        try render.withLock { r throws(AudioQueueError) -> [AudioQueueLevelMeterState] in
            try core.state.withLock { s throws(AudioQueueError) in try s.checkUsable() }
            guard r.meter.isEnabled else { throw AudioQueueError(.invalidPropertyValue, "level metering is off") }
            return r.meter.levels
        }
    }

    /// The meter in decibels (`kAudioQueueProperty_CurrentLevelMeterDB`).
    public func currentLevelMeterDB() throws(AudioQueueError) -> [AudioQueueLevelMeterState] {
        try currentLevelMeter().map(\.decibels)
    }

    /// Frames the queue decodes ahead of the device (`kAudioQueueProperty_DecodeBufferSizeFrames`).
    public var decodeBufferSizeFrames: Int { core.state.withLock { $0.side.decodeBufferFrames } }

    /// Sets the decode-ahead size: 256…1,048,576 frames and at least two packets
    /// (`invalidPropertyValue` otherwise), only while stopped (`invalidRunState`).
    public func setDecodeBufferSizeFrames(_ frames: Int) throws(AudioQueueError) {
        try render.withLock { r throws(AudioQueueError) in
            try core.state.withLock { s throws(AudioQueueError) in
                try s.checkUsable()
                guard s.phase.isStopped, r.ring.available == 0, !r.hasPrimed else {
                    throw AudioQueueError(.invalidRunState, "the decode buffer size can be set only while the queue is stopped and unprimed")
                }
                guard frames >= 256, frames <= 1 << 20, frames >= r.engine.framesPerPacket * 2 else {
                    throw AudioQueueError(.invalidPropertyValue, "\(frames) frames is outside 256…1048576 (and two packets)")
                }
                s.side.decodeBufferFrames = frames
            }
            resizeRing(&r, decodeBufferFrames: frames)
        }
    }

    /// The most recent decoding error, 0 if none (`kAudioQueueProperty_ConverterError`).
    public var converterError: OSStatus { lastConverterError }

    /// Why the output device stopped the queue, when it failed while playing (the sound server
    /// went away, the card was unplugged, the sink the queue was opened on was removed): what a
    /// `queueInvalidated` ``converterError`` stands for, set before its listeners hear it. Nil
    /// otherwise, and again once another device is chosen.
    public var deviceFailure: AudioDeviceError? { lastDeviceFailure }

    /// Packets that failed to decode and were played as silence.
    public var badPacketCount: Int {
        get throws(AudioQueueError) { try render.withLock { $0.engine.badPackets } }
    }

    // MARK: Devices

    /// The device's UID (`kAudioQueueProperty_CurrentDevice`): the open device, else the one
    /// asked for; nil when the default will be chosen at start, or in offline mode.
    public var currentDevice: String? { deviceUID }

    /// The open output device's description — its UID, name, and a note when it differs from
    /// what was asked for (ALSA converting through `plughw:`, the default output falling back
    /// to a file); nil before the queue first opens one, or in offline mode.
    public var currentDeviceInfo: AudioDeviceInfo? { deviceInfo }

    /// Chooses the output device by UID (`backend:name`, or a backend name; nil: the default),
    /// opened at the next start. Only while stopped (`invalidRunState`); `invalidDevice`
    /// when no registered backend has that name.
    public func setCurrentDevice(_ uid: String?) throws(AudioQueueError) { try core.chooseDevice(Self.driver, uid: uid) }

    /// Uses `device` for output from the next start. Only while stopped (`invalidRunState`);
    /// `invalidDevice` when it does not play the queue's rate and channel count.
    public func setDevice(_ newDevice: any AudioOutputDevice) throws(AudioQueueError) { try useDevice(newDevice) }

    /// The output device's sample rate (`kAudioQueueDeviceProperty_SampleRate`).
    public var deviceSampleRate: Double { deviceFormat?.sampleRate ?? sampleRate }
    /// The output device's channel count (`kAudioQueueDeviceProperty_NumberChannels`).
    public var deviceNumberOfChannels: Int { deviceFormat.map { Int($0.channelsPerFrame) } ?? channels }
    /// The largest packet of the render format, in bytes (`kAudioQueueProperty_MaximumOutputPacketSize`).
    public var maximumOutputPacketSize: Int { Int(floatFormat.bytesPerPacket) }

    /// What the queue's decoder produces (`kAudioConverterCurrentOutputStreamDescription`):
    /// interleaved native-endian Float32 at the queue's rate and channel count.
    public var decodedFormat: AudioStreamBasicDescription { floatFormat }

    // MARK: Time

    /// The queue's time (`AudioQueueGetCurrentTime`): frames played since it started (0 when
    /// stopped) and the host time now. With a `timeline`, also whether playback was
    /// interrupted (an underrun) since that timeline was last asked.
    public func currentTime(timeline: AudioQueueTimeline? = nil) throws(AudioQueueError) -> (timeStamp: AudioTimeStamp, discontinuity: Bool) {
        try timeNow(timeline: timeline)
    }

    /// A timeline for ``currentTime(timeline:)`` (`AudioQueueCreateTimeline`).
    public func makeTimeline() throws(AudioQueueError) -> AudioQueueTimeline { try newTimeline() }

    /// The output device's time (`AudioQueueDeviceGetCurrentTime`), whether or not the device
    /// is running, as Apple's function gives it: the host time now, and, while the device runs,
    /// the frames it has taken since it was opened (`sampleTimeValid` is set only then).
    /// `invalidOfflineMode` in offline mode.
    public func deviceCurrentTime() throws(AudioQueueError) -> AudioTimeStamp { try deviceTime() }
}
