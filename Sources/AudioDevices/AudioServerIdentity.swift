/// What a sound server says it is: PulseAudio's server name ("pulseaudio", or "PulseAudio (on
/// PipeWire 0.3.65)" for PipeWire's PulseAudio server) and the socket the client reached it at.
public struct AudioServerIdentity: Hashable, Sendable {
    /// The server's name, as `pactl info` shows it.
    public var name: String
    /// The path of the socket the client is connected to, when it is a local socket.
    public var socketPath: String?

    /// A server called `name`, reached at `socketPath`.
    public init(name: String, socketPath: String?) {
        self.name = name
        self.socketPath = socketPath
    }

    /// True when the server says it runs on PipeWire ("PulseAudio (on PipeWire …)").
    public var isPipeWire: Bool { name.contains("on PipeWire") }
}

/// A backend that can say which server it talks to (the PulseAudio backend): how the PipeWire
/// backend finds a PipeWire server that runs the PulseAudio server a program reaches when the
/// environment names no PipeWire socket of its own.
public protocol AudioServerIdentifying: AudioBackend {
    /// The server the backend reaches now; nil when none answers.
    func serverIdentity() -> AudioServerIdentity?
}
