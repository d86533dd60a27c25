#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

package import AudioDevices

/// Where a native PipeWire client finds the server, the way libpipewire looks for it: the socket
/// `PIPEWIRE_REMOTE` names (default `pipewire-0`; a path when it starts with `/`) in
/// `PIPEWIRE_RUNTIME_DIR`, else in `XDG_RUNTIME_DIR`. When neither `PIPEWIRE_REMOTE` nor
/// `PIPEWIRE_RUNTIME_DIR` is set and no socket answers there, a PulseAudio server that says it
/// runs on PipeWire gives the place: PipeWire's `pipewire-0` sits beside the `pulse` directory of
/// pipewire-pulse's socket (`RUNTIME/pulse/native` and `RUNTIME/pipewire-0`).
package enum PipeWireServerLocation {
    /// The socket the environment names, and whether it names it explicitly
    /// (`PIPEWIRE_REMOTE` or `PIPEWIRE_RUNTIME_DIR` set); nil when no runtime directory is known.
    package static func environmentSocket() -> (path: String, explicit: Bool)? {
        let remote = AudioBackends.environment("PIPEWIRE_REMOTE")
        let runtime = AudioBackends.environment("PIPEWIRE_RUNTIME_DIR")
        let explicit = remote != nil || runtime != nil
        let name = remote ?? "pipewire-0"
        if name.hasPrefix("/") { return (name, true) }
        guard let directory = runtime ?? AudioBackends.environment("XDG_RUNTIME_DIR") ?? AudioBackends.environment("USERPROFILE") else {
            return nil
        }
        return (directory + "/" + name, explicit)
    }

    /// The socket of the PipeWire server beside the PulseAudio server `identity`, when that says
    /// it runs on PipeWire and its socket is `…/pulse/native`.
    package static func socket(besides identity: AudioServerIdentity) -> String? {
        guard identity.isPipeWire, var path = identity.socketPath else { return nil }
        if path.hasPrefix("unix:") { path.removeFirst(5) }
        var parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count >= 3, parts.last == "native", parts[parts.count - 2] == "pulse" else { return nil }
        parts.removeLast(2)
        return parts.joined(separator: "/") + "/pipewire-0"
    }

    /// The socket of a PipeWire server that accepts a connection now: the environment's (see
    /// the type's description), else, when the environment names none, the one beside the
    /// PulseAudio server `pulse` describes (asked only then). nil when no server answers.
    package static func find(pulse: () -> AudioServerIdentity?) -> String? {
        let named = environmentSocket()
        if let named, acceptsConnection(named.path) { return named.path }
        if named?.explicit == true { return nil }
        guard let identity = pulse(), let beside = socket(besides: identity), acceptsConnection(beside) else { return nil }
        return beside
    }

    /// True when a Unix socket at `path` accepts a connection (which is closed at once).
    package static func acceptsConnection(_ path: String) -> Bool {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        #if canImport(Glibc)
        let fd = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        #else
        let fd = Musl.socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)
        #endif
        guard fd >= 0 else { return false }
        defer { close(fd) }
        let length = socklen_t(MemoryLayout<sockaddr_un>.size)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, length) }
        }
        return result == 0
    }
}
