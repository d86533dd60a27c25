#if canImport(Glibc)
import Glibc
#endif
import AudioCore
import AudioDevices
import CPipeWire

/// What a device hears from its ``PipeWireStream``.
protocol PipeWireStreamHandler: AnyObject {
    /// The stream has a buffer to fill (output) or a buffer filled (input): on the data
    /// thread, with nothing locked. Must not allocate or wait.
    func pipeWireProcess()
    /// The stream's state changed (the loop's thread, its lock held).
    func pipeWireState(_ state: pw_stream_state, error: String?)
    /// Output: everything queued before a drain has been played (the loop's thread, lock held).
    func pipeWireDrained()
    /// The connection to the server is gone (the loop's thread, lock held).
    func pipeWireLost(_ error: AudioDeviceError)
    /// A stop made on the data thread is to be finished: pause the stream if it is still
    /// stopped (the loop's thread, lock held).
    func pipeWireSettleStop()
}

/// One `pw_stream` of raw interleaved audio on the process's connection: its properties, its
/// format, connecting it, its events, and destroying it. A device (``PipeWireOutputDevice``,
/// ``PipeWireInputDevice``) is built on one.
///
/// Made, connected and destroyed with the loop's lock held (the initializer and ``destroy()``
/// take it); `pointer` is used from the data thread in the process callback only.
final class PipeWireStream: @unchecked Sendable {
    let connection: PipeWireConnection
    var context: PipeWireContext { connection.context }
    /// The `pw_stream`; nil once destroyed.
    private(set) var pointer: OpaquePointer?
    let direction: AudioDeviceDirection
    let sampleRate: Double
    let channels: Int
    let sampleFormat: PipeWireSampleFormat
    /// Bytes per frame in the stream's format.
    let frameBytes: Int
    /// The quantum asked for (`node.latency`), in frames at the stream's rate.
    let latencyFrames: Int
    /// The stream's state (lock held) and the error that ended it.
    private(set) var state = PW_STREAM_STATE_UNCONNECTED
    private(set) var stateError: String?

    private let hook: UnsafeMutablePointer<spa_hook>
    private let events: UnsafeMutablePointer<pw_stream_events>
    private let box: HandlerBox
    private var listener: Int?

    /// Holds the handler for the C callbacks, without retaining it: the device destroys the
    /// stream before it goes away.
    private final class HandlerBox {
        unowned(unsafe) let handler: any PipeWireStreamHandler
        /// The stream, once made (its state is noted before the handler hears of it).
        unowned(unsafe) var stream: PipeWireStream?
        init(_ handler: any PipeWireStreamHandler) { self.handler = handler }
    }

    /// Makes and connects an inactive stream to `target` (a node name; nil: the default, which
    /// the stream follows), with the properties a music player's stream has. `latencyFrames`
    /// becomes `node.latency`; `remote` names another server than the default. Throws `.openFailed` when no server answers and
    /// `.formatNotSupported` for a format PipeWire cannot carry.
    init(
        _ direction: AudioDeviceDirection, target: String?, sampleRate: Double, channels: Int, sampleFormat: PipeWireSampleFormat,
        latencyFrames: Int, channelsByIndex: Bool, applicationName: String, remote: String?, handler: any PipeWireStreamHandler
    ) throws(AudioDeviceError) {
        guard sampleRate >= 1, sampleRate <= 768_000, sampleRate == sampleRate.rounded(),
              channels >= 1, channels <= Int(SPA_AUDIO_MAX_CHANNELS) else {
            throw AudioDeviceError(.formatNotSupported, "PipeWire cannot carry \(channels) channels at \(sampleRate) Hz")
        }
        let context = try PipeWireContext.shared()
        connection = try context.connection(remote: remote)
        self.direction = direction
        self.sampleRate = sampleRate
        self.channels = channels
        self.sampleFormat = sampleFormat
        frameBytes = channels * sampleFormat.bytes
        self.latencyFrames = min(max(latencyFrames, 32), 8192)
        hook = .allocate(capacity: 1)
        hook.initialize(to: spa_hook())
        events = .allocate(capacity: 1)
        box = HandlerBox(handler)
        var e = pw_stream_events()
        e.version = UInt32(PW_VERSION_STREAM_EVENTS)
        e.process = { data in Unmanaged<HandlerBox>.fromOpaque(data!).takeUnretainedValue().handler.pipeWireProcess() }
        e.state_changed = { data, _, state, error in
            let box = Unmanaged<HandlerBox>.fromOpaque(data!).takeUnretainedValue()
            box.stream?.noteState(state, error: error.map { String(cString: $0) })
            box.handler.pipeWireState(state, error: error.map { String(cString: $0) })
        }
        e.drained = { data in Unmanaged<HandlerBox>.fromOpaque(data!).takeUnretainedValue().handler.pipeWireDrained() }
        events.initialize(to: e)
        box.stream = self
        try context.withLock { () throws(AudioDeviceError) in try connect(target: target, channelsByIndex: channelsByIndex, applicationName: applicationName) }
    }

    deinit {
        destroy()
        hook.deallocate()
        events.deallocate()
    }

    private func connect(target: String?, channelsByIndex: Bool, applicationName: String) throws(AudioDeviceError) {
        if let lost = connection.lost { throw AudioDeviceError(.openFailed, lost.reason) }
        let props = cpw_properties_new()
        let rate = Int(sampleRate)
        var pairs: [(String, String)] = [
            (PW_KEY_MEDIA_TYPE, "Audio"),
            (PW_KEY_MEDIA_CATEGORY, direction == .output ? "Playback" : "Capture"),
            (PW_KEY_MEDIA_ROLE, "Music"),
            (PW_KEY_APP_NAME, applicationName),
            (PW_KEY_NODE_NAME, applicationName),
            (PW_KEY_NODE_LATENCY, "\(latencyFrames)/\(rate)"),
        ]
        if var target {
            // A sink's monitor, as PulseAudio names it: capture what the sink plays.
            if direction == .input, target.hasSuffix(".monitor") {
                target.removeLast(".monitor".count)
                pairs.append((PW_KEY_STREAM_CAPTURE_SINK, "true"))
            }
            pairs.append((PW_KEY_TARGET_OBJECT, target))
            // A stream on a named node stays there: when the node goes away the session manager
            // does not move it to the default, and the device reports the loss (PipeWireGraph).
            pairs.append((PW_KEY_NODE_DONT_RECONNECT, "true"))
        }
        for (key, value) in pairs { pw_properties_set(props, key, value) }
        let name = direction == .output ? "playback" : "capture"
        guard let stream = pw_stream_new(connection.core, name, props) else {
            throw AudioDeviceError(.openFailed, "PipeWire: cannot create a stream (\(String(cString: strerror(errno))))")
        }
        pointer = stream
        pw_stream_add_listener(stream, hook, events, Unmanaged.passUnretained(box).toOpaque())
        listener = connection.addListener { [unowned self] event in
            if case .lost(let error) = event { box.handler.pipeWireLost(error) }
        }
        let positions = PipeWireChannelPositions.positions(channels: channels, byIndex: channelsByIndex)
        var buffer = [UInt8](repeating: 0, count: 1024)
        let result: Int32 = buffer.withUnsafeMutableBufferPointer { bytes in
            positions.withUnsafeBufferPointer { p in
                guard let param = cpw_audio_format(bytes.baseAddress, UInt32(bytes.count), sampleFormat.spa, UInt32(rate), UInt32(channels), p.baseAddress)
                else { return -EINVAL }
                var params: [UnsafePointer<spa_pod>?] = [param]
                let flags = PW_STREAM_FLAG_AUTOCONNECT.rawValue | PW_STREAM_FLAG_MAP_BUFFERS.rawValue | PW_STREAM_FLAG_RT_PROCESS.rawValue
                    | PW_STREAM_FLAG_INACTIVE.rawValue
                return pw_stream_connect(
                    stream, direction == .output ? SPA_DIRECTION_OUTPUT : SPA_DIRECTION_INPUT, UInt32.max, pw_stream_flags(flags), &params, 1)
            }
        }
        if result < 0 {
            destroy()
            throw AudioDeviceError(.formatNotSupported, "PipeWire: cannot connect the stream (\(String(cString: strerror(-result))))")
        }
    }

    /// Records the state (lock held).
    fileprivate func noteState(_ new: pw_stream_state, error: String?) {
        state = new
        if new == PW_STREAM_STATE_ERROR { stateError = error ?? "stream error" }
        context.signal()
    }

    /// Waits up to `timeout` seconds for the stream to be linked and its format settled
    /// (paused or streaming) or to fail; true when it is linked.
    func waitUntilLinked(timeout: Double) -> Bool {
        context.withLock {
            context.wait(until: { state == PW_STREAM_STATE_PAUSED || state == PW_STREAM_STATE_STREAMING || state == PW_STREAM_STATE_ERROR
                || connection.lost != nil }, timeout: timeout)
            return state == PW_STREAM_STATE_PAUSED || state == PW_STREAM_STATE_STREAMING
        }
    }

    /// Activates or pauses the stream (lock held).
    func setActive(_ active: Bool) {
        guard let pointer, connection.lost == nil else { return }
        pw_stream_set_active(pointer, active)
    }

    /// Drops what the stream has queued (lock held).
    func flush() {
        guard let pointer, connection.lost == nil else { return }
        pw_stream_flush(pointer, false)
    }

    /// From the data thread: asks the handler, soon on the loop's thread with its lock held,
    /// to settle a stop made there (``PipeWireStreamHandler/pipeWireSettleStop()``), unless
    /// the stream is destroyed by then. Does not wait, lock or allocate.
    func settleStopSoon() {
        // The call keeps the stream until the loop has made it.
        let retained = Unmanaged.passRetained(self)
        if cpw_thread_loop_invoke(context.loop, { data in
            let stream = Unmanaged<PipeWireStream>.fromOpaque(data!).takeRetainedValue()
            if stream.pointer != nil { stream.box.handler.pipeWireSettleStop() }
        }, retained.toOpaque()) < 0 {
            retained.release()
        }
    }

    /// The stream's time now (any thread; the data thread in its callback).
    func time() -> pw_time? {
        guard let pointer else { return nil }
        var t = pw_time()
        return pw_stream_get_time_n(pointer, &t, MemoryLayout<pw_time>.size) == 0 ? t : nil
    }

    /// Disconnects and destroys the stream (takes the lock). Idempotent.
    func destroy() {
        context.withLock {
            if let listener { connection.removeListener(listener) }
            listener = nil
            guard let stream = pointer else { return }
            // Disconnecting waits for the data thread to leave the stream's node: after it no
            // callback runs, and the pointer the process callback reads can be cleared.
            pw_stream_disconnect(stream)
            spa_hook_remove(hook)
            pw_stream_destroy(stream)
            pointer = nil
        }
    }
}

extension pw_time {
    /// Nanoseconds of `frames` at the graph's rate (`rate`, ticks per second as a fraction).
    func nanoseconds(ofTicks ticks: Int64) -> Double {
        guard rate.denom > 0 else { return 0 }
        return Double(ticks) * Double(rate.num) * 1e9 / Double(rate.denom)
    }
}
