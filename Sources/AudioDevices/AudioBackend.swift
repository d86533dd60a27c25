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

/// A backend whose default device a program can change (the PulseAudio server's default sink
/// and source): what setting `kAudioHardwarePropertyDefaultOutputDevice` does.
public protocol AudioDefaultDeviceSetting: AudioBackend {
    /// Makes device `name` the backend's default for `direction`, for every program, as the
    /// backend's own tools do; streams that follow the default move to it.
    func setDefaultDevice(_ name: String, direction: AudioDeviceDirection) throws(AudioDeviceError)
}
