import AudioDevices
import Locking

extension PulseConnection {
    /// The process's connection to `server` (nil: the one libpulse finds by default) under
    /// `applicationName`: the one already open when it is still connected, else a new one,
    /// which the next caller shares for as long as anyone holds it. `timeout` (microseconds)
    /// bounds the wait for a new connection.
    ///
    /// A server accepts a limited number of clients (PulseAudio 64): a connection per queue
    /// would refuse the 64th queue of a program, and cost a thread and a server client each.
    static func shared(applicationName: String, server: String? = nil, timeout: UInt64) throws(AudioDeviceError) -> PulseConnection {
        let key = PoolKey(applicationName: applicationName, server: server)
        return try pool.withLock { connections throws(AudioDeviceError) -> PulseConnection in
            connections = connections.filter { $0.value.connection != nil }
            if let existing = connections[key]?.connection, existing.withLock({ existing.isReady }) {
                return existing
            }
            let connection = try PulseConnection(applicationName: applicationName, server: server, timeout: timeout)
            connections[key] = PoolEntry(connection: connection)
            return connection
        }
    }
}

private struct PoolKey: Hashable {
    var applicationName: String
    var server: String?
}

private struct PoolEntry {
    weak var connection: PulseConnection?
}

/// The connections handed out, held weakly: the last device to let go of one closes it.
private let pool = Guarded<[PoolKey: PoolEntry]>([:], rank: .registry)
