public import AudioDevices

extension PulseBackend: AudioServerIdentifying {
    /// The server libpulse reaches (its name, as `pactl info` shows it, and its socket's path);
    /// nil when none answers within about a second. PipeWire's PulseAudio server calls itself
    /// "PulseAudio (on PipeWire …)": how the PipeWire backend finds a server the environment
    /// names no socket of.
    public func serverIdentity() -> AudioServerIdentity? {
        guard let connection = try? PulseConnection.shared(applicationName: applicationName, timeout: PulseTimeout.probe),
            let (name, address) = try? connection.serverIdentity(timeout: PulseTimeout.probe), let name
        else { return nil }
        let path = address.map { $0.hasPrefix("unix:") ? String($0.dropFirst(5)) : $0 }
        return AudioServerIdentity(name: name, socketPath: path?.hasPrefix("/") == true ? path : nil)
    }
}
