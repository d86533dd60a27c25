public import AudioCore

/// What went wrong opening, starting or running a device.
public struct AudioDeviceError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kind of failure.
    public enum Code: Hashable, Sendable {
        /// No device or backend by that name.
        case notFound
        /// The device exists but could not be opened (busy, no server, permissions).
        case openFailed
        /// The device cannot play or record this format.
        case formatNotSupported
        /// The device was lost while running (server gone, unplugged).
        case disconnected
        /// Reading or writing audio failed.
        case ioFailed
        /// A call that does not fit the device's state (start twice, use after close).
        case invalidState
    }

    /// The kind of failure.
    public var code: Code
    /// What happened, in words (the backend's own message where it has one).
    public var reason: String

    /// An error of kind `code` explained by `reason`.
    public init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }

    public var description: String { reason }
}

/// Which way audio flows through a device.
public enum AudioDeviceDirection: String, Hashable, Sendable {
    /// Plays audio.
    case output
    /// Records audio.
    case input
}

/// A device a backend can open: what enumeration lists and what
/// `kAudioQueueProperty_CurrentDevice` names.
public struct AudioDeviceInfo: Hashable, Sendable, CustomStringConvertible {
    /// The backend that owns the device (`"pulse"`, `"alsa"`, `"file"`, `"null"`).
    public var backend: String
    /// The name the backend opens it by (`"default"`, `"hw:0,0"`, a sink name, a file path).
    public var name: String
    /// A description for people.
    public var description: String
    /// Playback or capture.
    public var direction: AudioDeviceDirection
    /// True for the backend's default device.
    public var isDefault: Bool
    /// How an open device differs from what was asked for, for people (for example "hw:0
    /// cannot play 44100 Hz; using plughw:0 (alsa-lib converts)"); nil when it does not.
    public var note: String?

    /// A device `name` of `backend`.
    public init(
        backend: String, name: String, description: String, direction: AudioDeviceDirection = .output, isDefault: Bool = false,
        note: String? = nil
    ) {
        self.backend = backend
        self.name = name
        self.description = description
        self.direction = direction
        self.isDefault = isDefault
        self.note = note
    }

    /// The unique identifier: `backend:name` (what `kAudioQueueProperty_CurrentDevice` holds).
    public var uid: String { "\(backend):\(name)" }
}

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

/// Feeds an output device: the audio queue implements it.
///
/// ``render(into:frameCount:)`` is called on the device's I/O thread. It must not block on
/// anything user code can hold, and must not allocate in the steady state.
public protocol AudioRenderSource: AnyObject, Sendable {
    /// Writes up to `frameCount` interleaved Float32 frames in the device's format into
    /// `buffer` and returns how many it wrote. Fewer than `frameCount` means the stream has
    /// ended: the device plays what it got, drains, stops and reports `.stopped(drained: true)`.
    func render(into buffer: UnsafeMutablePointer<Float>, frameCount: Int) -> Int
    /// Writes up to `frameCount` frames of what is ready now, without making up a shortfall
    /// with silence, for a device whose output can run idle while the source has nothing to
    /// play (a sound server plays silence on its own when a stream runs dry). Returns the
    /// frames written and whether the stream has ended after them.
    ///
    /// Fewer frames than asked without `ended` means the rest is not ready yet. None means the
    /// source has run dry: the device writes nothing more, lets its output play out and idle,
    /// and asks again only when it is told ``AudioOutputDevice/sourceHasAudio()``. The source
    /// calls that once audio is ready again or the stream has ended, and counts the dry spell
    /// as one underrun. Called on the device's I/O thread, under the same rules as
    /// ``render(into:frameCount:)``; by default it is that call, whose silence never leaves
    /// the device idle.
    func renderReady(into buffer: UnsafeMutablePointer<Float>, frameCount: Int) -> (frames: Int, ended: Bool)
    /// An event from the device, on its I/O thread.
    func device(_ device: any AudioOutputDevice, didReport event: AudioDeviceEvent)
}

extension AudioRenderSource {
    public func renderReady(into buffer: UnsafeMutablePointer<Float>, frameCount: Int) -> (frames: Int, ended: Bool) {
        let frames = render(into: buffer, frameCount: frameCount)
        return (frames, frames < frameCount)
    }
}

/// Where an output queue's PCM goes: a sound server, a sound card, a file, or nowhere.
///
/// Devices take interleaved Float32 at the rate and channel count the queue asks for; a
/// backend converts to what its hardware needs. A device pulls from its source on its own
/// I/O thread between ``start(source:)`` and ``stop(drain:)``; it may be started again after
/// it stops.
public protocol AudioOutputDevice: AnyObject, Sendable {
    /// Which device this is.
    var info: AudioDeviceInfo { get }
    /// The format the device plays: interleaved Float32 at the rate and channels it was opened with.
    var format: AudioStreamBasicDescription { get }
    /// Starts pulling audio from `source` on the device's I/O thread.
    func start(source: any AudioRenderSource) throws(AudioDeviceError)
    /// Stops pulling. With `drain`, what was already handed to the output plays out first;
    /// without, it is dropped. Returns when the I/O thread has stopped calling the source.
    func stop(drain: Bool)
    /// Stops pulling from the source, as `stop(drain: false)` does, but keeps what the device
    /// holds where it can (a corked stream, a paused PCM), so that the next
    /// ``start(source:)`` plays that before anything new: nothing already rendered is lost
    /// across a pause. A device that cannot hold its buffer drops it (the default).
    func pause()
    /// Frames between what the source rendered and what is audible now (buffered in the
    /// device or server).
    var presentationDelay: Int { get }
    /// Frames the device has taken from its source since it was opened (silence it inserted
    /// on underruns not included).
    var framesRendered: Int64 { get }
    /// The device's clock: frames it has played (made audible) — counting from when it was
    /// opened or from its latest start, as the backend's own clock does. The queue's time is
    /// measured on it. By default ``framesRendered`` less ``presentationDelay``.
    var framesPlayed: Int64 { get }
    /// The source has audio again, or has ended, after
    /// ``AudioRenderSource/renderReady(into:frameCount:)`` found it dry: a device that stopped
    /// asking asks again. Called from any thread but the device's I/O thread; harmless when
    /// the device is asking anyway. By default nothing: a device that never idles has no need.
    func sourceHasAudio()
    /// Releases the device; it cannot be started again.
    func close()
}

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

extension AudioOutputDevice {
    public var framesPlayed: Int64 { max(0, framesRendered - Int64(presentationDelay)) }

    /// Stops without draining: what the device holds is dropped.
    public func pause() { stop(drain: false) }

    /// Nothing: the device asks its source on every period.
    public func sourceHasAudio() {}
}

/// A family of devices (PulseAudio, ALSA, files): enumerates and opens them.
public protocol AudioBackend: Sendable {
    /// The name used in `AUDIOQUEUE_BACKEND`, `aqplay --backend` and device UIDs.
    var name: String { get }
    /// True when the backend can open its default output right now (a server answers, a
    /// card opens). Cheap enough to call when choosing the default device.
    func isAvailable() -> Bool
    /// The devices the backend can open.
    func devices() throws(AudioDeviceError) -> [AudioDeviceInfo]
    /// Opens output device `name` (nil: the backend's default) for interleaved Float32 at
    /// `sampleRate` with `channels`; `bufferFrames` is how much audio the caller keeps
    /// decoded ahead, a hint for the device's own buffer.
    func makeOutput(name: String?, sampleRate: Double, channels: Int, bufferFrames: Int) throws(AudioDeviceError) -> any AudioOutputDevice
    /// Opens input device `name` (nil: the backend's default) for interleaved Float32 at
    /// `sampleRate` with `channels`, delivering about `bufferFrames` frames at a time.
    func makeInput(name: String?, sampleRate: Double, channels: Int, bufferFrames: Int) throws(AudioDeviceError) -> any AudioInputDevice
}

extension AudioBackend {
    /// Backends without capture refuse.
    public func makeInput(name: String?, sampleRate: Double, channels: Int, bufferFrames: Int) throws(AudioDeviceError) -> any AudioInputDevice {
        throw AudioDeviceError(.notFound, "the \(self.name) backend has no input devices")
    }
}

/// A backend that stands in for sound hardware: when no sound backend opens the default
/// output, ``AudioBackends`` asks the first one registered for a device in its place (the file
/// backend of `AudioDeviceFile`, whose device writes what would have played to a WAVE file).
public protocol AudioFallbackBackend: AudioBackend {
    /// Opens the output that stands in for the default device, for interleaved Float32 at
    /// `sampleRate` with `channels`. `reason` says why no sound backend played: the device's
    /// ``AudioDeviceInfo/note``, and what the backend tells the user along with where the
    /// audio goes.
    func makeFallbackOutput(sampleRate: Double, channels: Int, bufferFrames: Int, reason: String) throws(AudioDeviceError) -> any AudioOutputDevice
}

extension AudioStreamBasicDescription {
    /// Interleaved native-endian Float32 at `sampleRate` with `channels`: what devices take.
    public static func deviceFloat(sampleRate: Double, channels: Int) -> AudioStreamBasicDescription {
        .linearPCM(sampleRate: sampleRate, channels: UInt32(channels), bitsPerChannel: 32, isFloat: true)
    }
}
