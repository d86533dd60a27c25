public import AudioDevices

/// The PipeWire backend (`"pipewire"`): native `pw_stream`s on the server libpipewire finds
/// by default — the socket `PIPEWIRE_REMOTE` names (default `pipewire-0`) in
/// `PIPEWIRE_RUNTIME_DIR`, else `XDG_RUNTIME_DIR`. A server is never started on demand; without
/// one the backend is unavailable and opening a device fails at once with `.openFailed`.
///
/// Device names are node names (`node.name`, as `pw-cli ls Node` shows them): a sink's or
/// source's; for input, `<sink>.monitor` records what that sink plays. `nil` or `"default"`
/// is the default the session manager links the stream to, which the stream follows.
public struct PipeWireBackend: AudioIndexedChannelsBackend {
    /// What the server shows as the streams' application and node name.
    public let applicationName: String
    /// The sample format the streams carry (the devices convert from and to Float32).
    public let sampleFormat: PipeWireSampleFormat

    /// A backend whose streams call themselves `applicationName` and carry `sampleFormat`.
    public init(applicationName: String = "swift-audio-queue", sampleFormat: PipeWireSampleFormat = .float32) {
        self.applicationName = applicationName
        self.sampleFormat = sampleFormat
    }

    /// `"pipewire"`.
    public var name: String { "pipewire" }
    public var manufacturer: String { "PipeWire" }

    /// True when a PipeWire server's socket accepts a connection (where `PIPEWIRE_RUNTIME_DIR`,
    /// `XDG_RUNTIME_DIR` and `PIPEWIRE_REMOTE` say, or beside the socket of a PulseAudio server
    /// that says it runs on PipeWire: `located()`) and the server answers a round trip within
    /// about a second. No socket, or a refused connection, answers false at once.
    public func isAvailable() -> Bool {
        guard let server = Self.located(), let context = try? PipeWireContext.shared() else { return false }
        return (try? context.connection(remote: server.remote)) != nil
    }

    /// The devices the server's audio nodes stand for, from its registry
    /// (PipeWireBackend+Graph.swift): sinks, their monitors and sources, the defaults marked.
    /// Throws `.openFailed` when no server answers (at once when no socket accepts a
    /// connection, before libpipewire is set up).
    public func devices() throws(AudioDeviceError) -> [AudioDeviceInfo] {
        // No socket accepts a connection: no server, found without starting libpipewire.
        guard Self.located() != nil else { throw AudioDeviceError(.openFailed, "PipeWire: no server answers") }
        return try graphDevices()
    }

    /// A ``PipeWireOutputDevice`` playing to node `name` (nil or `"default"`: the default).
    public func makeOutput(name: String?, sampleRate: Double, channels: Int, bufferFrames: Int) throws(AudioDeviceError) -> any AudioOutputDevice {
        try makeOutput(name: name, sampleRate: sampleRate, channels: channels, bufferFrames: bufferFrames, channelsByIndex: false)
    }

    /// A ``PipeWireInputDevice`` recording from node `name` (nil or `"default"`: the default).
    public func makeInput(name: String?, sampleRate: Double, channels: Int, bufferFrames: Int) throws(AudioDeviceError) -> any AudioInputDevice {
        try makeInput(name: name, sampleRate: sampleRate, channels: channels, bufferFrames: bufferFrames, channelsByIndex: false)
    }

    /// A ``PipeWireOutputDevice`` on node `name` whose channels are `AUX0`… with
    /// `channelsByIndex`: channel N plays on the device's channel N.
    public func makeOutput(name: String?, sampleRate: Double, channels: Int, bufferFrames: Int, channelsByIndex: Bool) throws(AudioDeviceError) -> any AudioOutputDevice {
        try PipeWireOutputDevice(
            target: name == "default" ? nil : name, sampleRate: sampleRate, channels: channels, bufferFrames: bufferFrames,
            sampleFormat: sampleFormat, channelsByIndex: channelsByIndex, applicationName: applicationName, remote: Self.remote())
    }

    /// A ``PipeWireInputDevice`` on node `name` whose channel N records the device's channel N
    /// with `channelsByIndex`.
    public func makeInput(name: String?, sampleRate: Double, channels: Int, bufferFrames: Int, channelsByIndex: Bool) throws(AudioDeviceError) -> any AudioInputDevice {
        try PipeWireInputDevice(
            source: name == "default" ? nil : name, sampleRate: sampleRate, channels: channels, bufferFrames: bufferFrames,
            sampleFormat: sampleFormat, channelsByIndex: channelsByIndex, applicationName: applicationName, remote: Self.remote())
    }
}
