/// An output device opened with all the channels a ``ChannelPlacement`` needs, presented to
/// its source as a device of the placement's stream channels: what the source renders goes to
/// the placed channels, silence to the rest.
///
/// ``PlacedDevice/format`` is the stream's (the source renders that many channels);
/// ``PlacedDevice/deviceFormat`` is the device's. The source's frames pass through a buffer of
/// the wrapper's own, allocated once: nothing is allocated on the I/O thread.
public final class PlacedOutputDevice: PlacedDevice<any AudioOutputDevice>, AudioOutputDevice, AudioRenderSource, @unchecked Sendable {
    // Set before the device starts (its start orders the write before the I/O thread's reads),
    // and again only for another source; read only on the I/O thread.
    nonisolated(unsafe) private var source: (any AudioRenderSource)?

    /// Wraps `device`, which must have been opened with `placement.deviceChannels` channels;
    /// `formatNotSupported` when it was not.
    public init(device: any AudioOutputDevice, placement: ChannelPlacement) throws(AudioDeviceError) {
        try super.init(device: device, deviceFormat: device.format, placement: placement, verb: "plays") { $0.info }
    }

    public func start(source: any AudioRenderSource) throws(AudioDeviceError) {
        // Written only when it changes (a queue starts its device with the same feed every
        // time): a paused stream's I/O thread may still read it.
        if self.source !== source { self.source = source }
        try device.start(source: self)
    }

    public func pause() { device.pause() }
    public var presentationDelay: Int { device.presentationDelay }
    public var framesRendered: Int64 { device.framesRendered }
    public var framesPlayed: Int64 { device.framesPlayed }
    public func sourceHasAudio() { device.sourceHasAudio() }
    public func stop(drain: Bool) { device.stop(drain: drain) }
    public func close() { device.close() }

    // MARK: The device's source

    public func render(into buffer: UnsafeMutablePointer<Float>, frameCount: Int) -> Int {
        guard let source else { return 0 }
        var done = 0
        while done < frameCount {
            let asked = min(bufferFrames, frameCount - done)
            let got = min(max(source.render(into: self.buffer, frameCount: asked), 0), asked)
            placement.place(self.buffer, into: buffer + done * placement.deviceChannels, frames: got)
            done += got
            if got < asked { break }
        }
        return done
    }

    public func renderReady(into buffer: UnsafeMutablePointer<Float>, frameCount: Int) -> (frames: Int, ended: Bool) {
        placing(into: buffer, frameCount: frameCount) { $0.renderReady(into: $1, frameCount: $2) }
    }

    public func renderAwaiting(into buffer: UnsafeMutablePointer<Float>, frameCount: Int) -> (frames: Int, ended: Bool) {
        placing(into: buffer, frameCount: frameCount) { $0.renderAwaiting(into: $1, frameCount: $2) }
    }

    /// Asks the source with `pull` a buffer at a time and places what it gives into `buffer`,
    /// until `frameCount` frames, a short answer (the rest not ready) or the stream's end.
    private func placing(
        into buffer: UnsafeMutablePointer<Float>, frameCount: Int,
        _ pull: (any AudioRenderSource, UnsafeMutablePointer<Float>, Int) -> (frames: Int, ended: Bool)
    ) -> (frames: Int, ended: Bool) {
        guard let source else { return (0, true) }
        var done = 0
        while done < frameCount {
            let asked = min(bufferFrames, frameCount - done)
            let (frames, ended) = pull(source, self.buffer, asked)
            let got = min(max(frames, 0), asked)
            placement.place(self.buffer, into: buffer + done * placement.deviceChannels, frames: got)
            done += got
            if ended { return (done, true) }
            if got < asked { break }
        }
        return (done, false)
    }

    public func device(_ device: any AudioOutputDevice, didReport event: AudioDeviceEvent) {
        source?.device(self, didReport: event)
    }
}
