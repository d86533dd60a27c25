public import AudioCore

/// An input device opened with all the channels a ``ChannelPlacement`` needs, presented to
/// its sink as a device of the placement's stream channels: the sink gets the placed device
/// channels, in the stream's order; the others are dropped.
///
/// ``format`` is the stream's; ``deviceFormat`` is the device's. Frames pass through a buffer
/// of the wrapper's own, allocated once: nothing is allocated on the I/O thread.
public final class PlacedInputDevice: AudioInputDevice, AudioCaptureSink, @unchecked Sendable {
    /// The device recorded from, opened with ``ChannelPlacement/deviceChannels``.
    public let device: any AudioInputDevice
    /// Which device channels the stream takes.
    public let placement: ChannelPlacement
    public let format: AudioStreamBasicDescription
    private let scratch: UnsafeMutablePointer<Float>
    private let scratchFrames: Int
    // Set before the device starts, and again only for another sink; read only on the I/O thread.
    nonisolated(unsafe) private var sink: (any AudioCaptureSink)?

    /// Wraps `device`, which must have been opened with `placement.deviceChannels` channels;
    /// `formatNotSupported` when it was not.
    public init(device: any AudioInputDevice, placement: ChannelPlacement) throws(AudioDeviceError) {
        guard Int(device.format.channelsPerFrame) == placement.deviceChannels else {
            throw AudioDeviceError(.formatNotSupported, "\(device.info.uid) records \(device.format.channelsPerFrame) channels, not the \(placement.deviceChannels) the channel assignments need")
        }
        self.device = device
        self.placement = placement
        format = .deviceFloat(sampleRate: device.format.sampleRate, channels: placement.streamChannels)
        scratchFrames = 2048
        scratch = .allocate(capacity: scratchFrames * placement.streamChannels)
        scratch.initialize(repeating: 0, count: scratchFrames * placement.streamChannels)
    }

    deinit { scratch.deallocate() }

    public var info: AudioDeviceInfo { device.info }
    /// What the device records: all its channels.
    public var deviceFormat: AudioStreamBasicDescription { device.format }

    public func start(sink: any AudioCaptureSink) throws(AudioDeviceError) {
        if self.sink !== sink { self.sink = sink }
        try device.start(sink: self)
    }

    public func stop(drain: Bool) { device.stop(drain: drain) }
    public var framesCaptured: Int64 { device.framesCaptured }
    public func close() { device.close() }

    // MARK: The device's sink

    public func capture(_ samples: UnsafePointer<Float>, frameCount: Int, hostTime: UInt64) {
        guard let sink else { return }
        let nanosPerFrame = 1e9 / format.sampleRate
        var done = 0
        while done < frameCount {
            let n = min(scratchFrames, frameCount - done)
            placement.pick(samples + done * placement.deviceChannels, into: scratch, frames: n)
            sink.capture(scratch, frameCount: n, hostTime: hostTime == 0 ? 0 : hostTime + UInt64(Double(done) * nanosPerFrame))
            done += n
        }
    }

    public func device(_ device: any AudioInputDevice, didReport event: AudioDeviceEvent) {
        sink?.device(self, didReport: event)
    }
}
