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
    /// Who makes the devices, as the HAL's `kAudioObjectPropertyManufacturer` reports it
    /// (default: ``name``).
    var manufacturer: String { get }
    /// True when the devices are the machine's own sound hardware (the HAL's transport type
    /// `kAudioDeviceTransportTypeBuiltIn`), false for a sound server's or a virtual device
    /// (`kAudioDeviceTransportTypeVirtual`; the default).
    var isHardware: Bool { get }
}

extension AudioBackend {
    public var manufacturer: String { name }
    public var isHardware: Bool { false }

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

/// A backend whose default device a program can change (the PulseAudio server's default sink
/// and source): what setting `kAudioHardwarePropertyDefaultOutputDevice` does.
public protocol AudioDefaultDeviceSetting: AudioBackend {
    /// Makes device `name` the backend's default for `direction`, for every program, as the
    /// backend's own tools do; streams that follow the default move to it.
    func setDefaultDevice(_ name: String, direction: AudioDeviceDirection) throws(AudioDeviceError)
}

/// A backend that says when its devices or its defaults change (the PulseAudio server's
/// events), so that whoever shows them (the HAL's listeners) need not wait for its next look.
public protocol AudioDeviceChangeReporting: AudioBackend {
    /// Calls `handler`, on a thread of the backend's, soon after a device comes or goes or a
    /// default changes, for as long as the returned subscription is held and active; nil when
    /// the backend cannot report now (no server answers). `handler` must return at once.
    func reportChanges(_ handler: @escaping @Sendable () -> Void) -> (any AudioDeviceChangeSubscription)?
}

/// What ``AudioDeviceChangeReporting/reportChanges(_:)`` returns: reports come while it is held.
public protocol AudioDeviceChangeSubscription: AnyObject, Sendable {
    /// False once the backend can no longer report through it (the server went away): ask for
    /// a new one.
    var isActive: Bool { get }
}
