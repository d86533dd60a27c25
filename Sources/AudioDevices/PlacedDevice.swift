public import AudioCore

/// What ``PlacedOutputDevice`` and ``PlacedInputDevice`` share: the device they wrap, opened
/// with all the channels a ``ChannelPlacement`` needs, the stream's format they present, and a
/// buffer of the stream's channels allocated once, so that nothing is allocated on the I/O
/// thread.
public class PlacedDevice<Device: Sendable>: @unchecked Sendable {
    /// The device the audio goes to or comes from, opened with
    /// ``ChannelPlacement/deviceChannels``.
    public let device: Device
    /// Where the stream's channels sit among the device's.
    public let placement: ChannelPlacement
    /// The stream's format: the device's rate, the placement's stream channels.
    public let format: AudioStreamBasicDescription
    /// What the device plays or records: all its channels.
    public let deviceFormat: AudioStreamBasicDescription
    /// Which device this is.
    public var info: AudioDeviceInfo { describe(device) }
    private let describe: @Sendable (Device) -> AudioDeviceInfo
    /// Stream frames on their way between the client and the device.
    let buffer: UnsafeMutablePointer<Float>
    /// Frames ``buffer`` holds.
    let bufferFrames = 2048

    /// Wraps `device`, described by `describe` and playing or recording (`verb`) `deviceFormat`,
    /// which must have `placement.deviceChannels` channels; `formatNotSupported` when it has not.
    init(
        device: Device, deviceFormat: AudioStreamBasicDescription, placement: ChannelPlacement, verb: String,
        describe: @escaping @Sendable (Device) -> AudioDeviceInfo
    ) throws(AudioDeviceError) {
        guard Int(deviceFormat.channelsPerFrame) == placement.deviceChannels else {
            throw AudioDeviceError(
                .formatNotSupported,
                "\(describe(device).uid) \(verb) \(deviceFormat.channelsPerFrame) channels, not the \(placement.deviceChannels) the channel assignments need")
        }
        self.device = device
        self.placement = placement
        self.deviceFormat = deviceFormat
        self.describe = describe
        format = .deviceFloat(sampleRate: deviceFormat.sampleRate, channels: placement.streamChannels)
        buffer = .allocate(capacity: bufferFrames * placement.streamChannels)
        buffer.initialize(repeating: 0, count: bufferFrames * placement.streamChannels)
    }

    deinit { buffer.deallocate() }
}
