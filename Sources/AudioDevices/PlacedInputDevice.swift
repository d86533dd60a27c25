/// An input device opened with all the channels a ``ChannelPlacement`` needs, presented to
/// its sink as a device of the placement's stream channels: the sink gets the placed device
/// channels, in the stream's order; the others are dropped.
///
/// ``PlacedDevice/format`` is the stream's; ``PlacedDevice/deviceFormat`` is the device's.
/// Frames pass through a buffer of the wrapper's own, allocated once: nothing is allocated on
/// the I/O thread.
public final class PlacedInputDevice: PlacedDevice<any AudioInputDevice>, AudioInputDevice, AudioCaptureSink, @unchecked Sendable {
    // Set before the device starts, and again only for another sink; read only on the I/O thread.
    nonisolated(unsafe) private var sink: (any AudioCaptureSink)?

    /// Wraps `device`, which must have been opened with `placement.deviceChannels` channels;
    /// `formatNotSupported` when it was not.
    public init(device: any AudioInputDevice, placement: ChannelPlacement) throws(AudioDeviceError) {
        try super.init(device: device, deviceFormat: device.format, placement: placement, verb: "records") { $0.info }
    }

    public func start(sink: any AudioCaptureSink) throws(AudioDeviceError) {
        if self.sink !== sink { self.sink = sink }
        try device.start(sink: self)
    }

    public var framesCaptured: Int64 { device.framesCaptured }
    public func stop(drain: Bool) { device.stop(drain: drain) }
    public func close() { device.close() }

    // MARK: The device's sink

    public func capture(_ samples: UnsafePointer<Float>, frameCount: Int, hostTime: UInt64) {
        guard let sink else { return }
        let nanosPerFrame = 1e9 / format.sampleRate
        var done = 0
        while done < frameCount {
            let n = min(bufferFrames, frameCount - done)
            placement.pick(samples + done * placement.deviceChannels, into: buffer, frames: n)
            sink.capture(buffer, frameCount: n, hostTime: hostTime == 0 ? 0 : hostTime + UInt64(Double(done) * nanosPerFrame))
            done += n
        }
    }

    public func device(_ device: any AudioInputDevice, didReport event: AudioDeviceEvent) {
        sink?.device(self, didReport: event)
    }
}
