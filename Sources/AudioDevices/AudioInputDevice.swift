public import AudioCore

/// Receives what a capture device records: the input audio queue implements it.
///
/// ``capture(_:frameCount:hostTime:)`` is called on the device's I/O thread; like
/// ``AudioRenderSource/render(into:frameCount:)`` it must not block or allocate.
public protocol AudioCaptureSink: AnyObject, Sendable {
    /// `frameCount` interleaved Float32 frames just recorded, in the device's format.
    ///
    /// `hostTime` is when the first of them was recorded, in nanoseconds of the monotonic clock
    /// (``HostTime/now()``): the device's best estimate, from what it and the server or card
    /// still hold, roughly the time of the call less the frames recorded since, at the sample
    /// rate. Successive calls' times advance with the frames delivered, up to the estimate's
    /// jitter; a jump forward follows frames lost in an overrun.
    func capture(_ samples: UnsafePointer<Float>, frameCount: Int, hostTime: UInt64)
    /// An event from the device, on its I/O thread: `.started` once per start (with the host
    /// time of the first frame, before that frame is captured), `.overrun` when frames were
    /// lost because they were not taken in time, `.failed` when the device is lost (the server
    /// went away, the card was unplugged), after which nothing more is captured.
    func device(_ device: any AudioInputDevice, didReport event: AudioDeviceEvent)
}

/// Where an input queue's PCM comes from: a sound server's source, a sound card's capture PCM.
///
/// Devices deliver interleaved Float32 at the rate and channel count they were opened with,
/// on their own I/O thread, between ``start(sink:)`` and ``stop(drain:)``, in pieces of about
/// the `bufferFrames` they were opened with (at most that many frames at a time), so that the
/// first frames arrive soon after a start and a stop loses little.
public protocol AudioInputDevice: AnyObject, Sendable {
    /// Which device this is; `note` says how it differs from what was asked (for example a
    /// source running at another rate, which the server converts).
    var info: AudioDeviceInfo { get }
    /// The format the device records: interleaved Float32.
    var format: AudioStreamBasicDescription { get }
    /// Starts recording into `sink` on the device's I/O thread.
    func start(sink: any AudioCaptureSink) throws(AudioDeviceError)
    /// Stops recording. Either way, once this returns the sink is not called again.
    ///
    /// With `drain`, everything recorded before the call that the device or its server still
    /// holds is delivered to the sink first; that takes about a fragment, and never much more
    /// than 100 ms. Without, it is dropped. Called on the device's I/O thread (from the sink),
    /// it does not wait and does not drain: what the device holds is dropped.
    func stop(drain: Bool)
    /// Frames delivered to the sink since the device was opened.
    var framesCaptured: Int64 { get }
    /// Releases the device; it cannot be started again.
    func close()
}

extension AudioInputDevice {
    /// Stops recording and drops what the device holds: `stop(drain: false)`.
    public func stop() { stop(drain: false) }
}
