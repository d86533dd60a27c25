/// Something that happened on a device, reported from its I/O thread to the
/// ``AudioRenderSource`` that feeds it or the ``AudioCaptureSink`` it feeds.
public enum AudioDeviceEvent: Sendable {
    /// Output: the first frames were handed to the output, at `hostTime` (nanoseconds,
    /// monotonic clock). Input: the first frames were recorded at `hostTime`, the host time the
    /// first ``AudioCaptureSink/capture(_:frameCount:hostTime:)`` call carries.
    case started(hostTime: UInt64)
    /// The source ended (rendered fewer frames than asked), everything it rendered has been
    /// played, and the device has stopped. `drained` is always true; a stop requested with
    /// ``AudioOutputDevice/stop(drain:)`` is not reported, since the caller knows.
    case stopped(drained: Bool)
    /// The device ran dry and played silence it did not get (an xrun or server underflow).
    case underrun
    /// A capture device lost frames because they were not taken in time (an overrun).
    case overrun
    /// The device failed while running and has stopped.
    case failed(AudioDeviceError)
    /// The device now plays to (or records from) another endpoint, which the `AudioDeviceInfo`
    /// describes and the device's `info` now returns: a device opened on a sound server's
    /// default follows it when the default changes or the endpoint it ran on goes away, and
    /// goes on playing (or recording) there. A discontinuity.
    case moved(AudioDeviceInfo)
}
