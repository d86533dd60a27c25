public import AudioCore
public import AudioDevices

extension AudioInputQueue {
    // MARK: Properties

    /// True from when the device starts recording until the queue stops
    /// (`kAudioQueueProperty_IsRunning`).
    public var isRunning: Bool { reportedRunning }

    /// The encoder's magic cookie, to copy into the file before and after recording
    /// (`kAudioQueueProperty_MagicCookie`); nil for formats that have none (linear PCM, IMA4,
    /// G.711).
    public var magicCookie: [UInt8]? {
        get throws(AudioQueueError) { try capture.withLock { $0.converter.compressionMagicCookie } }
    }

    /// The largest packet the queue produces, in bytes (`kAudioQueueProperty_MaximumOutputPacketSize`):
    /// what the guide's `DeriveBufferSize` asks for formats of variable-size packets.
    public var maximumOutputPacketSize: Int {
        get throws(AudioQueueError) { try capture.withLock { $0.converter.maximumOutputPacketSize } }
    }

    /// What the queue's encoder reads (`kAudioConverterCurrentInputStreamDescription`): the
    /// captured audio, interleaved native-endian Float32 at the queue's rate and channel count.
    public var capturedFormat: AudioStreamBasicDescription {
        get throws(AudioQueueError) { try capture.withLock { $0.converter.inputFormat } }
    }

    /// The channel layout (`kAudioQueueProperty_ChannelLayout`): what was set, else nil.
    public var channelLayout: AudioChannelLayout? { setLayout }

    /// Sets the channel layout; `invalidPropertyValue` when its channel count is not the queue's.
    public func setChannelLayout(_ newLayout: AudioChannelLayout?) throws(AudioQueueError) {
        try setLayout(newLayout, channels: channels)
    }

    /// Whether levels of what is recorded are metered (`kAudioQueueProperty_EnableLevelMetering`).
    public var isLevelMeteringEnabled: Bool {
        get throws(AudioQueueError) { try capture.withLock { $0.meter.isEnabled } }
    }

    /// Turns level metering on or off.
    public func setLevelMeteringEnabled(_ enabled: Bool) throws(AudioQueueError) {
        try core.state.withLock { s throws(AudioQueueError) in try s.checkUsable() }
        try capture.withLock { c in
            c.meter.setEnabled(enabled)
            feed.wakeThreshold.store(wakeThreshold(c), ordering: .relaxed)
        }
        // The capture thread may be waiting for a whole buffer: the meter wants it sooner.
        if enabled { feed.wake.signal() }
    }

    /// Per-channel RMS and peak of the most recent 50 ms or so recorded, linear
    /// (`kAudioQueueProperty_CurrentLevelMeter`). `invalidPropertyValue` while metering is off.
    public func currentLevelMeter() throws(AudioQueueError) -> [AudioQueueLevelMeterState] {
        try core.state.withLock { s throws(AudioQueueError) in try s.checkUsable() }
        return try capture.withLock { c throws(AudioQueueError) -> [AudioQueueLevelMeterState] in
            guard c.meter.isEnabled else { throw AudioQueueError(.invalidPropertyValue, "level metering is off") }
            return c.meter.levels
        }
    }

    /// The meter in decibels (`kAudioQueueProperty_CurrentLevelMeterDB`).
    public func currentLevelMeterDB() throws(AudioQueueError) -> [AudioQueueLevelMeterState] {
        try currentLevelMeter().map(\.decibels)
    }

    /// The most recent error (`kAudioQueueProperty_ConverterError`): `kAudioQueueErr_RecordUnderrun`
    /// once recorded audio found no buffer, `kAudioQueueErr_QueueInvalidated` when the device
    /// failed; 0 if none.
    public var converterError: OSStatus { lastConverterError }

    /// Why the input device stopped the queue, when it failed while recording (the sound
    /// server went away, the card was unplugged): what a `queueInvalidated` ``converterError``
    /// stands for. Nil otherwise, and again once another device is chosen.
    public var deviceFailure: AudioDeviceError? { lastDeviceFailure }

    /// Frames recorded that were dropped because no buffer was enqueued, since the queue was
    /// made.
    public var lostFrameCount: Int {
        get throws(AudioQueueError) { try capture.withLock { Int(clamping: $0.lostFrames) } }
    }

    /// The encoder's priming frames and the frames of silence that completed its last packets
    /// so far (`kAudioConverterPrimeInfo` of the queue's converter): for AAC, 2112 before the
    /// first recorded frame, as Apple's encoder; 0 for formats without a delay. What a file of
    /// the recording records as its packet table's priming and remainder frames.
    public var primeInfo: (leadingFrames: Int, trailingFrames: Int) {
        get throws(AudioQueueError) { try capture.withLock { ($0.encoder?.primingFrames ?? 0, Int($0.paddingFrames)) } }
    }

    // MARK: Devices

    /// The device's UID (`kAudioQueueProperty_CurrentDevice`): the open device, else the one
    /// asked for; nil when the default will be chosen at start.
    public var currentDevice: String? { deviceUID }

    /// The open input device's description, with a note when it differs from what was asked
    /// for (the server or alsa-lib resampling); nil before the queue first opens one.
    public var currentDeviceInfo: AudioDeviceInfo? { deviceInfo }

    /// Chooses the input device by UID (`backend:name`, or a backend name; nil: the default),
    /// opened at the next start. Only while stopped (`invalidRunState`); `invalidDevice` when
    /// no registered backend has that name.
    public func setCurrentDevice(_ uid: String?) throws(AudioQueueError) { try core.chooseDevice(Self.driver, uid: uid) }

    /// Records from `device` from the next start. Only while stopped (`invalidRunState`);
    /// `invalidDevice` unless it records at the queue's rate with the channel count the queue
    /// was made for.
    public func setDevice(_ newDevice: any AudioInputDevice) throws(AudioQueueError) { try useDevice(newDevice) }

    /// The input device's sample rate (`kAudioQueueDeviceProperty_SampleRate`).
    public var deviceSampleRate: Double { deviceFormat?.sampleRate ?? sampleRate }

    /// The input device's channel count (`kAudioQueueDeviceProperty_NumberChannels`).
    public var deviceNumberOfChannels: Int { deviceFormat.map { Int($0.channelsPerFrame) } ?? channels }

    // MARK: Time

    /// The queue's time (`AudioQueueGetCurrentTime`): frames recorded since it started,
    /// dropped ones included (0 when stopped), and the host time now. With a `timeline`, also
    /// whether recording was interrupted (a device overrun, or a record underrun) since that
    /// timeline was last asked.
    public func currentTime(timeline: AudioQueueTimeline? = nil) throws(AudioQueueError) -> (timeStamp: AudioTimeStamp, discontinuity: Bool) {
        try timeNow(timeline: timeline)
    }

    /// A timeline for ``currentTime(timeline:)`` (`AudioQueueCreateTimeline`).
    public func makeTimeline() throws(AudioQueueError) -> AudioQueueTimeline { try newTimeline() }

    /// The input device's time (`AudioQueueDeviceGetCurrentTime`): the host time now, and, while
    /// the device runs, the frames it has delivered since it was opened.
    public func deviceCurrentTime() throws(AudioQueueError) -> AudioTimeStamp { try deviceTime() }
}
