import AudioDevices
import CPulseAudio
import Locking
#if canImport(Glibc)
import Glibc
#endif

/// A sink or source as the server describes it.
struct PulseEndpoint: Sendable {
    var name: String
    var description: String
    /// The device's own sample rate and channel count (0 when the server did not say).
    var rate: UInt32 = 0
    var channels: Int = 0
    /// The device's own channel map (nil when the server did not say).
    var channelMap: pa_channel_map? = nil
}

/// A threaded main loop with a context connected on it, shared by every device and
/// enumeration of the process on the same server (``shared(applicationName:server:timeout:)``):
/// one thread and one server connection for all of them, however many queues play.
///
/// The main loop's lock guards the context, the streams made on it and the state of the
/// objects that own them. Callbacks run on the main loop's thread with the lock held, so
/// ``withLock(_:)`` does not take it there (taking it on that thread is an error in libpulse);
/// ``wait(timeout:until:)`` releases it while waiting and must not be called on that thread.
///
/// ``shutdown()`` disconnects and stops the loop's thread; the loop itself is freed in
/// `deinit`, so the lock stays usable (and a closed owner can still check its state under it)
/// for as long as anyone holds the connection.
final class PulseConnection: @unchecked Sendable {
    let mainloop: OpaquePointer
    let context: OpaquePointer
    /// The main loop's lock, ranked `device` in the package's lock order.
    private let lock: ForeignLock
    let api: UnsafeMutablePointer<pa_mainloop_api>
    /// Guarded by the lock.
    private var isShutDown = false
    /// Streams given up on the loop's thread, released once that thread has stopped (a stream
    /// must not be freed inside its own callback). Guarded by the lock.
    private var retired: [OpaquePointer] = []
    /// The streams that hear of the context's state changes. Guarded by the lock.
    private var observers: [WeakStream] = []
    /// What is called when the server's sinks, sources or defaults change
    /// (PulseChanges.swift), by number. Guarded by the lock.
    var changeHandlers: [Int: @Sendable () -> Void] = [:]
    var nextChangeHandler = 0
    /// Whether the context subscribes to the server's events. Guarded by the lock.
    var subscribedToChanges = false
    /// How many of the server's events have come since the subscription (PulseChanges.swift),
    /// and the sinks and sources listed when it was a given number. Guarded by the lock.
    var changeGeneration = 0
    var keptEndpoints: (generation: Int, sinks: [PulseEndpoint], sources: [PulseEndpoint])?
    /// The server's name and address, once asked (they stay for the connection). Guarded by the lock.
    private var knownIdentity: (name: String?, address: String?)?

    /// Connects to `server` (a PulseAudio server address such as `unix:/path/native`), or when
    /// nil to the server libpulse finds by default (`PULSE_SERVER`, `PULSE_RUNTIME_PATH`, the
    /// per-user socket), without spawning one; `timeout` is in microseconds.
    init(applicationName: String, server: String? = nil, timeout: UInt64) throws(AudioDeviceError) {
        guard let mainloop = pa_threaded_mainloop_new() else {
            throw AudioDeviceError(.openFailed, "no PulseAudio server: cannot create a main loop")
        }
        let api = pa_threaded_mainloop_get_api(mainloop)!
        guard let context = pa_context_new(api, applicationName) else {
            pa_threaded_mainloop_free(mainloop)
            throw AudioDeviceError(.openFailed, "no PulseAudio server: cannot create a context")
        }
        // Until an owner installs its own, the state callback only wakes waiters.
        pa_context_set_state_callback(context, { _, userdata in
            pa_threaded_mainloop_signal(OpaquePointer(userdata), 0)
        }, UnsafeMutableRawPointer(mainloop))
        if pa_context_connect(context, server, PA_CONTEXT_NOAUTOSPAWN, nil) < 0 {
            let reason = PulseConnection.errorText(pa_context_errno(context))
            pa_context_unref(context)
            pa_threaded_mainloop_free(mainloop)
            throw AudioDeviceError(.openFailed, "no PulseAudio server: \(reason)")
        }
        self.mainloop = mainloop
        self.context = context
        self.api = api
        lock = ForeignLock(
            rank: .device, lock: { pa_threaded_mainloop_lock(mainloop) }, unlock: { pa_threaded_mainloop_unlock(mainloop) },
            heldByLibrary: { pa_threaded_mainloop_in_thread(mainloop) != 0 })
        guard pa_threaded_mainloop_start(mainloop) >= 0 else {
            shutdown()
            throw AudioDeviceError(.openFailed, "no PulseAudio server: cannot start the main loop thread")
        }
        let failure: String? = withLock {
            let finished = wait(timeout: timeout) {
                let state = pa_context_get_state(context)
                return state == PA_CONTEXT_READY || PA_CONTEXT_IS_GOOD(state) == 0
            }
            if pa_context_get_state(context) == PA_CONTEXT_READY { return nil }
            return finished ? PulseConnection.errorText(pa_context_errno(context)) : "no answer within \(timeout / 1000) ms"
        }
        if let failure {
            shutdown()
            throw AudioDeviceError(.openFailed, "no PulseAudio server: \(failure)")
        }
        withLock {
            guard !isShutDown else { return }
            pa_context_set_state_callback(context, { _, userdata in
                Unmanaged<PulseConnection>.fromOpaque(userdata!).takeUnretainedValue().contextChanged()
            }, Unmanaged.passUnretained(self).toOpaque())
        }
    }

    /// The context's state changed (on the loop's thread): wake the waiters and tell the streams.
    private func contextChanged() {
        signal()
        observers.removeAll { $0.stream == nil }
        for observer in observers { observer.stream?.contextChanged() }
    }

    /// `stream` hears of the context's state changes from now on (lock held).
    func addObserver(_ stream: PulseStream) {
        observers.removeAll { $0.stream == nil }
        observers.append(WeakStream(stream: stream))
    }

    /// `stream` no longer hears of them (lock held).
    func removeObserver(_ stream: PulseStream) {
        observers.removeAll { $0.stream == nil || $0.stream === stream }
    }

    private struct WeakStream {
        weak var stream: PulseStream?
    }

    deinit {
        shutdown()
        let mainloop = self.mainloop, context = self.context, retired = self.retired
        let release = Release(mainloop: mainloop, context: context, streams: retired)
        if pa_threaded_mainloop_in_thread(mainloop) != 0 {
            // The last reference went away inside a callback: the loop cannot stop itself.
            var thread = pthread_t()
            let box = Unmanaged.passRetained(release).toOpaque()
            let status = pthread_create(&thread, nil, { raw in
                Unmanaged<Release>.fromOpaque(raw!).takeRetainedValue().run()
                return nil
            }, box)
            if status == 0 {
                pthread_detach(thread)
            } else {
                Unmanaged<Release>.fromOpaque(box).release()
            }
        } else {
            release.run()
        }
    }

    /// Stops the loop, then frees the streams, the context and the loop, in that order.
    private final class Release {
        let mainloop: OpaquePointer
        let context: OpaquePointer
        let streams: [OpaquePointer]
        init(mainloop: OpaquePointer, context: OpaquePointer, streams: [OpaquePointer]) {
            self.mainloop = mainloop
            self.context = context
            self.streams = streams
        }
        func run() {
            pa_threaded_mainloop_stop(mainloop)
            for stream in streams { pa_stream_unref(stream) }
            pa_context_unref(context)
            pa_threaded_mainloop_free(mainloop)
        }
    }

    /// True on the main loop's thread (inside a callback).
    var isLoopThread: Bool { pa_threaded_mainloop_in_thread(mainloop) != 0 }

    /// Runs `body` with the main loop locked (on the loop's own thread the lock is already held).
    func withLock<R, E: Error>(file: StaticString = #fileID, line: UInt = #line, _ body: () throws(E) -> R) throws(E) -> R {
        // The device rank of the package's lock order: taken under a queue's transitions or
        // pipeline lock (a device started, stopped, woken), never under its state lock.
        try lock.withLock(file: file, line: line, body)
    }

    /// Wakes every thread in ``wait(timeout:until:)``.
    func signal() { pa_threaded_mainloop_signal(mainloop, 0) }

    /// Waits, with the lock held and off the loop's thread, until `done` is true or `timeout`
    /// microseconds have passed; returns `done()`. Whatever makes `done` true must call ``signal()``.
    func wait(timeout: UInt64, until done: () -> Bool) -> Bool {
        if done() { return true }
        if isLoopThread || isShutDown { return false }
        let timer = Timer(mainloop: mainloop)
        var when = timeval()
        pa_gettimeofday(&when)
        pa_timeval_add(&when, timeout)
        guard let event = api.pointee.time_new?(api, &when, { _, _, _, userdata in
            let timer = Unmanaged<Timer>.fromOpaque(userdata!).takeUnretainedValue()
            timer.fired = true
            pa_threaded_mainloop_signal(timer.mainloop, 0)
        }, Unmanaged.passUnretained(timer).toOpaque()) else { return done() }
        while !done() && !timer.fired && !isShutDown {
            lock.whileWaiting { pa_threaded_mainloop_wait(mainloop) }
        }
        api.pointee.time_free?(event)
        withExtendedLifetime(timer) {}
        return done()
    }

    private final class Timer {
        let mainloop: OpaquePointer
        var fired = false
        init(mainloop: OpaquePointer) { self.mainloop = mainloop }
    }

    /// Waits (lock held, off the loop's thread) for `operation` to complete, then releases it.
    /// False when it did not complete in time or the connection failed.
    func finish(_ operation: OpaquePointer?, timeout: UInt64) -> Bool {
        guard let operation else { return false }
        let done = wait(timeout: timeout) {
            pa_operation_get_state(operation) != PA_OPERATION_RUNNING || PA_CONTEXT_IS_GOOD(pa_context_get_state(context)) == 0
        }
        if pa_operation_get_state(operation) == PA_OPERATION_RUNNING { pa_operation_cancel(operation) }
        pa_operation_unref(operation)
        return done
    }

    /// True while the context is connected (lock held).
    var isReady: Bool { !isShutDown && pa_context_get_state(context) == PA_CONTEXT_READY }

    /// The text of the context's last error (lock held).
    var lastError: String { PulseConnection.errorText(pa_context_errno(context)) }

    /// The last error's code (lock held).
    var lastErrorCode: Int32 { pa_context_errno(context) }

    static func errorText(_ code: Int32) -> String {
        guard let text = pa_strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }

    /// Releases `stream` (lock held): at once off the loop's thread, after the loop has stopped on it.
    func release(_ stream: OpaquePointer) {
        if isLoopThread {
            retired.append(stream)
        } else {
            pa_stream_unref(stream)
            // Those given up inside callbacks earlier are out of them by now.
            for old in retired { pa_stream_unref(old) }
            retired.removeAll()
        }
    }

    /// Disconnects the context and stops the loop's thread (unless called on it, in which case
    /// it stops when the connection is freed). Idempotent.
    func shutdown() {
        let first: Bool = withLock {
            guard !isShutDown else { return false }
            isShutDown = true
            pa_context_set_state_callback(context, nil, nil)
            pa_context_disconnect(context)
            signal()
            return true
        }
        if first && !isLoopThread { pa_threaded_mainloop_stop(mainloop) }
    }

    // MARK: Queries (without the lock; each waits up to `timeout` microseconds)

    private final class Collector {
        let mainloop: OpaquePointer
        var endpoints: [PulseEndpoint] = []
        var defaultSink: String?
        var defaultSource: String?
        var serverName: String?
        var failed = false
        init(mainloop: OpaquePointer) { self.mainloop = mainloop }

        /// One entry of a sink or source list (`eol` 0), its end (1) or its failure (negative).
        static func add(_ userdata: UnsafeMutableRawPointer?, _ endpoint: PulseEndpoint?, _ eol: Int32) {
            let collector = Unmanaged<Collector>.fromOpaque(userdata!).takeUnretainedValue()
            if let endpoint { collector.endpoints.append(endpoint) }
            if eol < 0 { collector.failed = true }
            if eol != 0 { pa_threaded_mainloop_signal(collector.mainloop, 0) }
        }
    }

    /// The server's default sink and source names.
    func defaults(timeout: UInt64) throws(AudioDeviceError) -> (sink: String?, source: String?) {
        let collector = Collector(mainloop: mainloop)
        try run(collector, timeout: timeout, what: "the server's defaults") { context, userdata in
            pa_context_get_server_info(context, { _, info, userdata in
                let collector = Unmanaged<Collector>.fromOpaque(userdata!).takeUnretainedValue()
                if let info {
                    collector.defaultSink = info.pointee.default_sink_name.map { String(cString: $0) }
                    collector.defaultSource = info.pointee.default_source_name.map { String(cString: $0) }
                } else {
                    collector.failed = true
                }
                pa_threaded_mainloop_signal(collector.mainloop, 0)
            }, userdata)
        }
        return (collector.defaultSink, collector.defaultSource)
    }

    /// The server's name ("pulseaudio", "PulseAudio (on PipeWire 0.3.65)") and the address the
    /// context reached it at.
    func serverIdentity(timeout: UInt64) throws(AudioDeviceError) -> (name: String?, address: String?) {
        if let known = withLock({ knownIdentity }) { return known }
        let collector = Collector(mainloop: mainloop)
        try run(collector, timeout: timeout, what: "the server's name") { context, userdata in
            pa_context_get_server_info(context, { _, info, userdata in
                let collector = Unmanaged<Collector>.fromOpaque(userdata!).takeUnretainedValue()
                if let info { collector.serverName = info.pointee.server_name.map { String(cString: $0) } } else { collector.failed = true }
                pa_threaded_mainloop_signal(collector.mainloop, 0)
            }, userdata)
        }
        let address = withLock { pa_context_get_server(context).map { String(cString: $0) } }
        withLock { knownIdentity = (collector.serverName, address) }
        return (collector.serverName, address)
    }

    /// Every sink (`direction == .output`) or source.
    func endpoints(_ direction: AudioDeviceDirection, timeout: UInt64) throws(AudioDeviceError) -> [PulseEndpoint] {
        let collector = Collector(mainloop: mainloop)
        try run(collector, timeout: timeout, what: direction == .output ? "the sinks" : "the sources") { context, userdata in
            switch direction {
            case .output:
                pa_context_get_sink_info_list(context, { _, info, eol, userdata in
                    Collector.add(userdata, info.map { PulseEndpoint($0.pointee.name, $0.pointee.description, $0.pointee.sample_spec, $0.pointee.channel_map) }, eol)
                }, userdata)
            case .input:
                pa_context_get_source_info_list(context, { _, info, eol, userdata in
                    Collector.add(userdata, info.map { PulseEndpoint($0.pointee.name, $0.pointee.description, $0.pointee.sample_spec, $0.pointee.channel_map) }, eol)
                }, userdata)
            }
        }
        return collector.endpoints
    }

    /// The sink (`.output`) or source called `name` (nil: the server's default), or nil when
    /// there is none.
    func endpoint(_ direction: AudioDeviceDirection, named name: String?, timeout: UInt64) throws(AudioDeviceError) -> PulseEndpoint? {
        let collector = Collector(mainloop: mainloop)
        let key = name ?? (direction == .output ? "@DEFAULT_SINK@" : "@DEFAULT_SOURCE@")
        try run(collector, timeout: timeout, what: "\(direction == .output ? "sink" : "source") \(key)", noEntityIsEmpty: true) { context, userdata in
            switch direction {
            case .output:
                pa_context_get_sink_info_by_name(context, key, { _, info, eol, userdata in
                    Collector.add(userdata, info.map { PulseEndpoint($0.pointee.name, $0.pointee.description, $0.pointee.sample_spec, $0.pointee.channel_map) }, eol)
                }, userdata)
            case .input:
                pa_context_get_source_info_by_name(context, key, { _, info, eol, userdata in
                    Collector.add(userdata, info.map { PulseEndpoint($0.pointee.name, $0.pointee.description, $0.pointee.sample_spec, $0.pointee.channel_map) }, eol)
                }, userdata)
            }
        }
        return collector.endpoints.first
    }

    /// Makes sink (`.output`) or source `name` the server's default.
    func setDefault(_ direction: AudioDeviceDirection, _ name: String, timeout: UInt64) throws(AudioDeviceError) {
        let collector = Collector(mainloop: mainloop)
        let what = "\(direction == .output ? "sink" : "source") \(name)"
        try run(collector, timeout: timeout, what: what) { context, userdata in
            let done: pa_context_success_cb_t = { _, success, userdata in
                let collector = Unmanaged<Collector>.fromOpaque(userdata!).takeUnretainedValue()
                if success == 0 { collector.failed = true }
                pa_threaded_mainloop_signal(collector.mainloop, 0)
            }
            return direction == .output
                ? pa_context_set_default_sink(context, name, done, userdata)
                : pa_context_set_default_source(context, name, done, userdata)
        }
    }

    /// Starts an introspection operation whose callbacks fill `collector`, and waits for it.
    private func run(
        _ collector: Collector, timeout: UInt64, what: String, noEntityIsEmpty: Bool = false,
        _ start: (OpaquePointer, UnsafeMutableRawPointer) -> OpaquePointer?
    ) throws(AudioDeviceError) {
        try withExtendedLifetime(collector) { () throws(AudioDeviceError) in
            try withLock { () throws(AudioDeviceError) in
                guard isReady else { throw AudioDeviceError(.disconnected, "the PulseAudio server went away: \(lastError)") }
                let completed = finish(start(context, Unmanaged.passUnretained(collector).toOpaque()), timeout: timeout)
                if !completed {
                    if !isReady { throw AudioDeviceError(.disconnected, "the PulseAudio server went away: \(lastError)") }
                    throw AudioDeviceError(.ioFailed, "PulseAudio did not answer a query for \(what)")
                }
                if collector.failed && !(noEntityIsEmpty && lastErrorCode == PA_ERR_NOENTITY.rawValue) {
                    throw AudioDeviceError(.ioFailed, "PulseAudio could not list \(what): \(lastError)")
                }
            }
        }
    }
}

extension PulseEndpoint {
    init(_ name: UnsafePointer<CChar>?, _ description: UnsafePointer<CChar>?, _ spec: pa_sample_spec, _ map: pa_channel_map) {
        let name = name.map { String(cString: $0) } ?? ""
        var map = map
        self.init(
            name: name, description: description.map { String(cString: $0) } ?? name, rate: spec.rate, channels: Int(spec.channels),
            channelMap: pa_channel_map_valid(&map) != 0 ? map : nil
        )
    }

    /// For a source whose own rate or channel count differs from `spec`'s, what the server does
    /// about it, for people (for example "source mic runs at 48000 Hz; PulseAudio resamples to
    /// 44100 Hz"); nil when they agree or the source's are not known.
    func conversionNote(to spec: pa_sample_spec) -> String? {
        let resamples = rate != 0 && rate != spec.rate
        let remixes = channels != 0 && channels != Int(spec.channels)
        func count(_ n: Int) -> String { n == 1 ? "1 channel" : "\(n) channels" }
        switch (resamples, remixes) {
        case (true, true):
            return "source \(name) runs at \(rate) Hz with \(count(channels)); PulseAudio resamples to \(spec.rate) Hz and remixes to \(count(Int(spec.channels)))"
        case (true, false):
            return "source \(name) runs at \(rate) Hz; PulseAudio resamples to \(spec.rate) Hz"
        case (false, true):
            return "source \(name) has \(count(channels)); PulseAudio remixes to \(count(Int(spec.channels)))"
        case (false, false):
            return nil
        }
    }
}

/// Microseconds.
enum PulseTimeout {
    /// How long ``PulseBackend/isAvailable()`` waits for a server.
    static let probe: UInt64 = 1_000_000
    /// How long opening a device or listing devices waits for the server.
    static let open: UInt64 = 3_000_000
    /// How long `stop(drain: true)` waits for the server to play out.
    static let drain: UInt64 = 2_000_000
    /// How long `stop(drain: true)` of a record stream waits for what the server holds.
    static let recordDrain: UInt64 = 100_000
}

/// Releases an operation nobody waits for.
@inline(__always)
func pulseDiscard(_ operation: OpaquePointer?) {
    if let operation { pa_operation_unref(operation) }
}
