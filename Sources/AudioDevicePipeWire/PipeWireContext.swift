#if canImport(Glibc)
import Glibc
#endif
package import AudioDevices
import CPipeWire
import Locking

/// The process's PipeWire client: one `pw_thread_loop` and one `pw_context`, created on first
/// use and kept for the life of the process, and the connection to the server
/// (``PipeWireConnection``, a `pw_core`), made on first use and made again after the server
/// went away. Every stream and every registry listener of the process runs on this loop.
///
/// Everything PipeWire is called with the loop's lock held: ``withLock(_:)``, or from a callback
/// on the loop's thread (which holds it). The lock is recursive, so a callback may call
/// ``withLock(_:)``. The data threads of the streams (their `process` callbacks) never take it.
///
/// For the code that builds on it (device enumeration, defaults), the internal API is:
/// ``shared()``, ``withLock(_:)``, ``connection()`` (its `core` and `registry`, and
/// ``PipeWireConnection/addListener(_:)`` for the core's events), ``wait(until:timeout:)`` and
/// ``signal()``.
package final class PipeWireContext: @unchecked Sendable {
    /// The `pw_thread_loop`.
    package let loop: OpaquePointer
    /// The `pw_context`.
    package let context: OpaquePointer
    /// The loop's (recursive) lock, ranked `device` in the package's lock order.
    private let lock: ForeignLock
    /// The connections handed out last, by remote ("": the default server); none before the
    /// first and after one was lost (lock held).
    private var current: [String: PipeWireConnection] = [:]

    private static let instance = Guarded<PipeWireContext?>(nil)

    /// The process's context, created (with `pw_init`) on first use. Throws `.openFailed` when
    /// libpipewire cannot make a loop or a context. Does not connect: ``connection()`` does.
    package static func shared() throws(AudioDeviceError) -> PipeWireContext {
        try instance.withLock { (existing: inout PipeWireContext?) throws(AudioDeviceError) -> PipeWireContext in
            if let existing { return existing }
            let made = try PipeWireContext()
            existing = made
            return made
        }
    }

    private init() throws(AudioDeviceError) {
        pw_init(nil, nil)
        guard let loop = pw_thread_loop_new("aq-pipewire", nil) else {
            throw AudioDeviceError(.openFailed, "PipeWire: cannot create a thread loop")
        }
        // client-rt.conf: the data thread runs with real-time priority where the process may
        // have it (libpipewire-module-rt, through RTKit or the process's own limits).
        let props = cpw_properties_new()
        pw_properties_set(props, PW_KEY_CONFIG_NAME, "client-rt.conf")
        guard let context = pw_context_new(pw_thread_loop_get_loop(loop), props, 0) else {
            pw_thread_loop_destroy(loop)
            throw AudioDeviceError(.openFailed, "PipeWire: cannot create a context")
        }
        guard pw_thread_loop_start(loop) == 0 else {
            pw_context_destroy(context)
            pw_thread_loop_destroy(loop)
            throw AudioDeviceError(.openFailed, "PipeWire: cannot start the thread loop")
        }
        self.loop = loop
        self.context = context
        lock = ForeignLock(
            rank: .device, lock: { pw_thread_loop_lock(loop) }, unlock: { pw_thread_loop_unlock(loop) },
            heldByLibrary: { pw_thread_loop_in_thread(loop) })
    }

    /// Runs `body` with the loop's lock held.
    package func withLock<T, E: Error>(file: StaticString = #fileID, line: UInt = #line, _ body: () throws(E) -> T) throws(E) -> T {
        try lock.withLock(file: file, line: line, body)
    }

    /// True on the loop's own thread (in a callback).
    package var isLoopThread: Bool { pw_thread_loop_in_thread(loop) }

    /// Wakes the threads waiting in ``wait(until:timeout:)`` (lock held).
    package func signal() { pw_thread_loop_signal(loop, false) }

    /// Waits, lock held, until `done()` is true or `timeout` seconds have passed; returns
    /// `done()`. Callbacks that change what `done` looks at call ``signal()``. Never waits on
    /// the loop's own thread.
    @discardableResult
    package func wait(until done: () -> Bool, timeout: Double) -> Bool {
        if isLoopThread { return done() }
        var deadline = timespec()
        pw_thread_loop_get_time(loop, &deadline, Int64(timeout * 1e9))
        while !done() {
            if lock.whileWaiting({ pw_thread_loop_timed_wait_full(loop, &deadline) }) != 0 { return done() }
        }
        return true
    }

    /// The connection to the server (lock held or not): the current one while the server is
    /// there, else a new one. Throws `.openFailed` when no server answers: no socket, a
    /// refused connection (at once), or no answer to a first round trip within `timeout`
    /// seconds.
    /// `remote` (a socket path or name, as `PIPEWIRE_REMOTE` takes) names another server than
    /// the default; each has its connection.
    package func connection(remote: String? = nil, timeout: Double = 1) throws(AudioDeviceError) -> PipeWireConnection {
        try withLock { () throws(AudioDeviceError) -> PipeWireConnection in
            let key = remote ?? ""
            if let existing = current[key], existing.lost == nil { return existing }
            current[key] = nil
            let made = try PipeWireConnection(context: self, remote: remote, timeout: timeout)
            current[key] = made
            return made
        }
    }

    /// Connects to the server at `remote` (a socket path or name, as `PIPEWIRE_REMOTE` takes)
    /// and disconnects again: throws as ``connection(timeout:)`` does when it does not answer.
    /// The shared connection is not touched.
    package func probe(remote: String, timeout: Double = 1) throws(AudioDeviceError) {
        _ = try withLock { () throws(AudioDeviceError) -> PipeWireConnection in
            try PipeWireConnection(context: self, remote: remote, timeout: timeout)
        }
    }

    /// The current connection if there is one and it is not lost, without connecting.
    package var currentConnection: PipeWireConnection? {
        withLock { current[""].flatMap { $0.lost == nil ? $0 : nil } }
    }
}

/// What a core listener hears (on the loop's thread, lock held).
package enum PipeWireCoreEvent: Sendable {
    /// The server answered a sync (`pw_core_sync`) with sequence number `seq`.
    case done(id: UInt32, seq: Int32)
    /// The server reported an error on object `id` (`res` a negative errno).
    case error(id: UInt32, seq: Int32, res: Int32, message: String)
    /// The connection is gone (the server died or refused us): nothing on it works any more.
    case lost(AudioDeviceError)
}

/// One connection to the server: a `pw_core` (and its registry) on the process's
/// ``PipeWireContext``. Streams made on it keep it; it disconnects when the last one lets go.
/// Once ``lost`` is set (the server died: a core error on `PW_ID_CORE`, `-EPIPE` on a hang-up),
/// nothing on it works, its listeners have heard ``PipeWireCoreEvent/lost(_:)``, and
/// ``PipeWireContext/connection(timeout:)`` makes a new one.
package final class PipeWireConnection: @unchecked Sendable {
    package let context: PipeWireContext
    /// The `pw_core`.
    package let core: OpaquePointer
    /// The `pw_registry` of the core, made with it (no listener of its own).
    package let registry: OpaquePointer?
    /// Why the connection is gone (lock held); nil while it works.
    package private(set) var lost: AudioDeviceError?

    private let hook: UnsafeMutablePointer<spa_hook>
    private let events: UnsafeMutablePointer<pw_core_events>
    private var listeners: [Int: (PipeWireCoreEvent) -> Void] = [:]
    private var nextListener = 0
    private var syncSeen: Int32 = -1

    /// Connects (lock held); see ``PipeWireContext/connection(timeout:)``.
    fileprivate init(context: PipeWireContext, remote: String? = nil, timeout: Double) throws(AudioDeviceError) {
        self.context = context
        errno = 0
        var props: UnsafeMutablePointer<pw_properties>?
        if let remote {
            props = cpw_properties_new()
            pw_properties_set(props, PW_KEY_REMOTE_NAME, remote)
        }
        guard let core = pw_context_connect(context.context, props, 0) else {
            let code = errno
            let why = code != 0 ? String(cString: strerror(code)) : "no server"
            throw AudioDeviceError(.openFailed, "PipeWire: cannot connect to the server (\(why))")
        }
        self.core = core
        hook = .allocate(capacity: 1)
        hook.initialize(to: spa_hook())
        events = .allocate(capacity: 1)
        var e = pw_core_events()
        e.version = UInt32(PW_VERSION_CORE_EVENTS)
        e.done = { data, id, seq in Unmanaged<PipeWireConnection>.fromOpaque(data!).takeUnretainedValue().done(id: id, seq: seq) }
        e.error = { data, id, seq, res, message in
            Unmanaged<PipeWireConnection>.fromOpaque(data!).takeUnretainedValue().error(
                id: id, seq: seq, res: res, message: message.map { String(cString: $0) } ?? "")
        }
        events.initialize(to: e)
        registry = cpw_core_get_registry(core)
        cpw_core_add_listener(core, hook, events, Unmanaged.passUnretained(self).toOpaque())
        // A round trip: a socket that accepts but never answers is no server either.
        let seq = cpw_core_sync(core, 0)
        let answered = context.wait(until: { [unowned self] in syncSeen >= seq || lost != nil }, timeout: timeout)
        if let lost { throw AudioDeviceError(.openFailed, "PipeWire: \(lost.reason)") }
        if !answered { throw AudioDeviceError(.openFailed, "PipeWire: the server does not answer") }
    }

    deinit {
        context.withLock {
            spa_hook_remove(hook)
            if let registry { cpw_proxy_destroy(UnsafeMutableRawPointer(registry)) }
            pw_core_disconnect(core)
        }
        hook.deallocate()
        events.deinitialize(count: 1)
        events.deallocate()
    }

    /// Calls `handler` on the loop's thread, lock held, for every event of the core, until the
    /// returned token is passed to ``removeListener(_:)`` (lock held). A listener added after
    /// the connection was lost hears ``PipeWireCoreEvent/lost(_:)`` at once.
    package func addListener(_ handler: @escaping (PipeWireCoreEvent) -> Void) -> Int {
        nextListener += 1
        listeners[nextListener] = handler
        if let lost { handler(.lost(lost)) }
        return nextListener
    }

    /// Stops the calls of a listener (lock held).
    package func removeListener(_ token: Int) { listeners[token] = nil }

    /// Asks the server for a round trip; the `done` event with the returned number follows.
    package func sync() -> Int32 { cpw_core_sync(core, 0) }

    private func done(id: UInt32, seq: Int32) {
        if id == UInt32(PW_ID_CORE) { syncSeen = max(syncSeen, seq) }
        notify(.done(id: id, seq: seq))
        context.signal()
    }

    private func error(id: UInt32, seq: Int32, res: Int32, message: String) {
        notify(.error(id: id, seq: seq, res: res, message: message))
        // An error on the core itself: the server hung up (-EPIPE) or refuses us.
        if id == UInt32(PW_ID_CORE) && lost == nil {
            let why = res == -EPIPE ? "the PipeWire server went away" : "PipeWire server error: \(message) (\(String(cString: strerror(-res))))"
            let error = AudioDeviceError(.disconnected, why)
            lost = error
            notify(.lost(error))
        }
        context.signal()
    }

    private func notify(_ event: PipeWireCoreEvent) {
        for (_, handler) in listeners.sorted(by: { $0.key < $1.key }) { handler(event) }
    }
}
