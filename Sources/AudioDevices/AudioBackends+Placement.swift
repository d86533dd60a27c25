extension AudioBackends {
    /// The device a UID names (`backend:name`; a bare backend name or `backend:default` for its
    /// default), as its backend lists it for `direction`; nil when no registered backend has
    /// that name, the backend cannot list its devices, or does not list that one (ALSA PCM
    /// names and file paths are open-ended: a backend opens more than it lists).
    public static func listedDevice(uid: String, direction: AudioDeviceDirection) -> AudioDeviceInfo? {
        let (backendName, name) = split(uid)
        guard let backend = backend(named: backendName), let devices = try? backend.devices() else { return nil }
        let candidates = devices.filter { $0.direction == direction }
        guard let name, name != "default" else { return candidates.first { $0.isDefault } }
        return candidates.first { $0.name == name }
    }
}

/// A backend whose devices can take a stream's channels by index — the stream's channel N on
/// the device's channel N — where it would otherwise place them by the positions it gives them
/// (PulseAudio remaps channels by name). Devices opened for a ``ChannelPlacement`` are opened
/// so; a backend that is not one already plays channel N on the device's channel N (ALSA, a
/// file).
public protocol AudioIndexedChannelsBackend: AudioBackend {
    /// Opens output `name` as ``AudioBackend/makeOutput(name:sampleRate:channels:bufferFrames:)``
    /// does, by index with `channelsByIndex`.
    func makeOutput(name: String?, sampleRate: Double, channels: Int, bufferFrames: Int, channelsByIndex: Bool) throws(AudioDeviceError) -> any AudioOutputDevice
    /// Opens input `name` as ``AudioBackend/makeInput(name:sampleRate:channels:bufferFrames:)``
    /// does, by index with `channelsByIndex`.
    func makeInput(name: String?, sampleRate: Double, channels: Int, bufferFrames: Int, channelsByIndex: Bool) throws(AudioDeviceError) -> any AudioInputDevice
}
