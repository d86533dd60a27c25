public import AudioDevices

extension PipeWireBackend: AudioDefaultDeviceSetting, AudioDeviceChangeReporting {
    /// Makes node `name` (for input also `<sink>.monitor`) the server's default sink or source,
    /// as `pactl set-default-sink` and `set-default-source` do through pipewire-pulse: the
    /// `default` metadata's `default.configured.audio.sink` (or `.source`), which the session
    /// manager follows, moving the streams that follow the default.
    public func setDefaultDevice(_ name: String, direction: AudioDeviceDirection) throws(AudioDeviceError) {
        try PipeWireGraph.shared().setDefault(name, direction: direction)
    }

    /// Calls `handler` when the server's audio nodes or defaults change, and once when the
    /// server goes away, while the returned subscription is held; nil when no server answers.
    public func reportChanges(_ handler: @escaping @Sendable () -> Void) -> (any AudioDeviceChangeSubscription)? {
        guard let graph = try? PipeWireGraph.shared() else { return nil }
        return PipeWireChangeSubscription(graph: graph, handler: handler)
    }

    /// Where the server is: the socket that accepts a connection, and the remote to connect to
    /// (nil: libpipewire's own default, the environment's socket; else the socket found beside
    /// the PulseAudio server's, `AudioServerIdentifying`). nil when no server answers.
    package static func located() -> (socket: String, remote: String?)? {
        guard let socket = PipeWireServerLocation.find(pulse: {
            (AudioBackends.backend(named: "pulse") as? any AudioServerIdentifying)?.serverIdentity()
        }) else { return nil }
        return (socket, socket == PipeWireServerLocation.environmentSocket()?.path ? nil : socket)
    }

    /// The remote to connect to (see ``located()``); nil for the default.
    static func remote() -> String? { located()?.remote }

    /// The devices the server's audio nodes stand for, by the registry: sinks (outputs), their
    /// monitors `<sink>.monitor` and sources (inputs), with the channel counts and rates the
    /// nodes give, the `default` metadata's defaults marked. Throws `.openFailed` when no
    /// server answers.
    func graphDevices() throws(AudioDeviceError) -> [AudioDeviceInfo] {
        try PipeWireGraph.shared().devices()
    }
}

/// Reports of one graph's changes, while held (``PipeWireBackend/reportChanges(_:)``).
final class PipeWireChangeSubscription: AudioDeviceChangeSubscription {
    let graph: PipeWireGraph
    let number: Int

    init(graph: PipeWireGraph, handler: @escaping @Sendable () -> Void) {
        self.graph = graph
        number = graph.addChangeHandler(handler)
    }

    var isActive: Bool { graph.isFollowing }

    deinit { graph.removeChangeHandler(number) }
}
