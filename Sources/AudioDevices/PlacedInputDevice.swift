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
    private let scratch: PlacementScratch
    /// Which device channels the stream takes.
    public var placement: ChannelPlacement { scratch.placement }
    public var format: AudioStreamBasicDescription { scratch.format }
    // Set before the device starts, and again only for another sink; read only on the I/O thread.
    nonisolated(unsafe) private var sink: (any AudioCaptureSink)?

    /// Wraps `device`, which must have been opened with `placement.deviceChannels` channels;
    /// `formatNotSupported` when it was not.
    public init(device: any AudioInputDevice, placement: ChannelPlacement) throws(AudioDeviceError) {
        scratch = try PlacementScratch(device: device.info, deviceFormat: device.format, placement: placement, verb: "records")
        self.device = device
    }

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
        let placement = scratch.placement
        var done = 0
        while done < frameCount {
            let n = min(scratch.frames, frameCount - done)
            placement.pick(samples + done * placement.deviceChannels, into: scratch.buffer, frames: n)
            sink.capture(scratch.buffer, frameCount: n, hostTime: hostTime == 0 ? 0 : hostTime + UInt64(Double(done) * nanosPerFrame))
            done += n
        }
    }

    public func device(_ device: any AudioInputDevice, didReport event: AudioDeviceEvent) {
        sink?.device(self, didReport: event)
    }
}
