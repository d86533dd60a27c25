import AudioCore

/// What a placed device (``PlacedOutputDevice``, ``PlacedInputDevice``) keeps beside the
/// device it wraps: the placement, the stream's format, and a buffer of the stream's channels
/// allocated once, so that nothing is allocated on the I/O thread.
struct PlacementScratch: ~Copyable {
    let placement: ChannelPlacement
    /// The stream's format: the device's rate, the placement's stream channels.
    let format: AudioStreamBasicDescription
    let buffer: UnsafeMutablePointer<Float>
    /// Frames the buffer holds.
    let frames = 2048

    /// For a device opened with `placement.deviceChannels` channels (`deviceFormat`);
    /// `formatNotSupported` when it was not. `verb` says what the device does ("plays", "records").
    init(device info: AudioDeviceInfo, deviceFormat: AudioStreamBasicDescription, placement: ChannelPlacement, verb: String) throws(AudioDeviceError) {
        guard Int(deviceFormat.channelsPerFrame) == placement.deviceChannels else {
            throw AudioDeviceError(.formatNotSupported, "\(info.uid) \(verb) \(deviceFormat.channelsPerFrame) channels, not the \(placement.deviceChannels) the channel assignments need")
        }
        self.placement = placement
        format = .deviceFloat(sampleRate: deviceFormat.sampleRate, channels: placement.streamChannels)
        buffer = .allocate(capacity: frames * placement.streamChannels)
        buffer.initialize(repeating: 0, count: frames * placement.streamChannels)
    }

    deinit { buffer.deallocate() }
}
