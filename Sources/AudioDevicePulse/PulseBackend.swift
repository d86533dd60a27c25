public import AudioDevices

/// The PulseAudio backend (`"pulse"`): sinks to play to and sources to record from, on the
/// server libpulse finds by default.
///
/// That is the server `PULSE_SERVER` names, else the one whose socket is in
/// `PULSE_RUNTIME_PATH` (or the user's runtime directory), as for any PulseAudio client; a
/// server is never started on demand. PipeWire's PulseAudio server works the same way.
///
/// Device names are sink and source names as `pactl list short sinks` shows them; a sink's
/// monitor source (`<sink>.monitor`) records what that sink plays. `nil` or `"default"` is the
/// server's default sink or source.
public struct PulseBackend: AudioDefaultDeviceSetting, AudioDeviceChangeReporting {
    /// The name the server shows for this program's connections and streams.
    public let applicationName: String

    /// A backend whose connections call themselves `applicationName`.
    public init(applicationName: String = "swift-audio-queue") {
        self.applicationName = applicationName
    }

    /// `"pulse"`.
    public var name: String { "pulse" }
    public var manufacturer: String { "PulseAudio" }

    /// True when the process is connected to a server, or one accepts a connection within
    /// about a second.
    public func isAvailable() -> Bool {
        (try? PulseConnection.shared(applicationName: applicationName, timeout: PulseTimeout.probe)) != nil
    }

    /// Every sink (output) and source (input, monitors included), the server's defaults marked,
    /// with their descriptions, channel counts and rates (and, on PipeWire's PulseAudio server,
    /// `pipewire` as their `AudioDeviceInfo.nativeBackend`). While a ``reportChanges(_:)``
    /// subscription is held, the sinks and sources are kept between the server's events, and a
    /// listing costs one round trip (the defaults'), after which every event sent before it has
    /// been seen.
    public func devices() throws(AudioDeviceError) -> [AudioDeviceInfo] {
        let connection = try PulseConnection.shared(applicationName: applicationName, timeout: PulseTimeout.open)
        let (defaults, sinks, sources) = try connection.listing(timeout: PulseTimeout.open)
        // PipeWire's PulseAudio server: the PipeWire backend lists the same nodes itself.
        let onPipeWire = (try? connection.serverIdentity(timeout: PulseTimeout.open))?.name.map {
            AudioServerIdentity(name: $0, socketPath: nil).isPipeWire
        } ?? false
        return sinks.map { info($0, .output, isDefault: $0.name == defaults.sink, onPipeWire: onPipeWire) }
            + sources.map { info($0, .input, isDefault: $0.name == defaults.source, onPipeWire: onPipeWire) }
    }

    /// Makes sink or source `name` the server's default (`pactl set-default-sink` and
    /// `set-default-source` do the same): streams on the default move to it.
    public func setDefaultDevice(_ name: String, direction: AudioDeviceDirection) throws(AudioDeviceError) {
        let connection = try PulseConnection.shared(applicationName: applicationName, timeout: PulseTimeout.open)
        try connection.setDefault(direction, name, timeout: PulseTimeout.open)
    }

    /// Calls `handler` when the server's sinks, sources or defaults change, while the returned
    /// subscription is held; nil when no server answers.
    public func reportChanges(_ handler: @escaping @Sendable () -> Void) -> (any AudioDeviceChangeSubscription)? {
        guard let connection = try? PulseConnection.shared(applicationName: applicationName, timeout: PulseTimeout.probe) else { return nil }
        return PulseChangeSubscription(connection: connection, handler: handler)
    }

    /// The device a sink or source stands for, with its own channel count and rate.
    private func info(_ endpoint: PulseEndpoint, _ direction: AudioDeviceDirection, isDefault: Bool, onPipeWire: Bool) -> AudioDeviceInfo {
        AudioDeviceInfo(
            backend: name, name: endpoint.name, description: endpoint.description, direction: direction, isDefault: isDefault,
            channels: endpoint.channels > 0 ? endpoint.channels : nil, sampleRate: endpoint.rate > 0 ? Double(endpoint.rate) : nil,
            nativeBackend: onPipeWire ? "pipewire" : nil
        )
    }

    /// A ``PulseOutputDevice`` playing to sink `name` (nil or `"default"`: the server's default).
    public func makeOutput(name: String?, sampleRate: Double, channels: Int, bufferFrames: Int) throws(AudioDeviceError) -> any AudioOutputDevice {
        try PulseOutputDevice(
            sink: name == "default" ? nil : name, sampleRate: sampleRate, channels: channels, bufferFrames: bufferFrames,
            applicationName: applicationName
        )
    }

    /// A ``PulseInputDevice`` recording from source `name` (nil or `"default"`: the server's default).
    public func makeInput(name: String?, sampleRate: Double, channels: Int, bufferFrames: Int) throws(AudioDeviceError) -> any AudioInputDevice {
        try PulseInputDevice(
            source: name == "default" ? nil : name, sampleRate: sampleRate, channels: channels, bufferFrames: bufferFrames,
            applicationName: applicationName
        )
    }
}

extension PulseBackend: AudioIndexedChannelsBackend {
    /// A ``PulseOutputDevice`` on sink `name` whose channel N plays on the sink's channel N
    /// (`PA_STREAM_NO_REMAP_CHANNELS`) with `channelsByIndex`, whatever the sink's channel map.
    public func makeOutput(name: String?, sampleRate: Double, channels: Int, bufferFrames: Int, channelsByIndex: Bool) throws(AudioDeviceError) -> any AudioOutputDevice {
        try PulseOutputDevice(
            sink: name == "default" ? nil : name, sampleRate: sampleRate, channels: channels, bufferFrames: bufferFrames,
            applicationName: applicationName, server: nil, channelsByIndex: channelsByIndex
        )
    }

    /// A ``PulseInputDevice`` on source `name` whose channel N records the source's channel N
    /// with `channelsByIndex`.
    public func makeInput(name: String?, sampleRate: Double, channels: Int, bufferFrames: Int, channelsByIndex: Bool) throws(AudioDeviceError) -> any AudioInputDevice {
        try PulseInputDevice(
            source: name == "default" ? nil : name, sampleRate: sampleRate, channels: channels, bufferFrames: bufferFrames,
            applicationName: applicationName, server: nil, channelsByIndex: channelsByIndex
        )
    }
}
