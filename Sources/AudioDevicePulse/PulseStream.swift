import AudioCore
import AudioDevices
import CPulseAudio
import Locking

/// What a device hears from its ``PulseStream``: called on the main loop's thread with the lock
/// held, for the stream the device has now only.
protocol PulseStreamOwner: AnyObject {
    /// The stream is set up and can play or record.
    func pulseStreamReady()
    /// Playback: the server asks for `bytes` more. Record: the server has sent data, and libpulse
    /// now holds `bytes` for the stream.
    func pulseStreamRequest(bytes: Int)
    /// Playback: the server ran dry (an underflow). Record: the server says data was lost.
    func pulseStreamXrun()
    /// New timing information has arrived from the server (``PulseStream/timing``).
    func pulseStreamTimingUpdated()
    /// Playback: the server has begun to play the stream (its first frames, or the first after
    /// an underflow).
    func pulseStreamStarted()
    /// The stream failed, or the server went away (``PulseStream/lost`` is then set).
    func pulseStreamFailed(_ error: AudioDeviceError)
    /// The server moved the stream to another sink or source, which `info` (and
    /// ``PulseStream/info``) now describes.
    func pulseStreamMoved(_ info: AudioDeviceInfo)
}

extension PulseStreamOwner {
    func pulseStreamReady() {}
    func pulseStreamTimingUpdated() {}
    func pulseStreamStarted() {}
    func pulseStreamMoved(_ info: AudioDeviceInfo) {}
}

/// The process's connection to the server (shared by all its devices) and the one stream a
/// device plays or records on it: finding the
/// sink or source, the stream's format, creating and connecting the stream, waiting for it,
/// mapping its failures to device errors, noticing that the server went away, and closing.
/// ``PulseOutputDevice`` and ``PulseInputDevice`` are each built on one.
///
/// Everything but ``init(_:name:sampleRate:channels:bufferFrames:applicationName:)`` and
/// ``close()`` is called with the main loop's lock held (``withLock(_:)``, or a callback).
final class PulseStream: @unchecked Sendable {
    let connection: PulseConnection
    let direction: AudioDeviceDirection
    /// The device: its sink or source as found on opening, or the one the server moved the
    /// stream to since. For a source whose own rate or channel count differs from the stream's,
    /// `note` says that PulseAudio converts.
    var info: AudioDeviceInfo { currentInfo.withLock { $0 } }
    let currentInfo: Guarded<AudioDeviceInfo>
    let format: AudioStreamBasicDescription
    let frameBytes: Int
    /// The buffer size asked for, between 5 ms and 2 s.
    let bufferFrames: Int
    /// How the stream is to be buffered; set before the first ``open()``.
    var attributes: pa_buffer_attr
    /// The device the stream reports to.
    weak var owner: (any PulseStreamOwner)?
    /// Whether libpulse asks for timing on its own schedule (set before the first ``open()``).
    var autoTimingUpdates = true
    /// Channels by index (`PA_STREAM_NO_REMAP_CHANNELS`): the stream's channel N is the sink's
    /// or source's channel N, whatever the channel maps name them. Set before the stream connects.
    var channelsByIndex = false

    /// The sink or source asked for; nil for the server's default (the stream follows it).
    let endpointName: String?
    private let streamName: String
    private var spec: pa_sample_spec
    private var channelMap: pa_channel_map
    /// The sink's or source's own channel map, for a stream with ``channelsByIndex``.
    private let endpointMap: pa_channel_map?

    // Guarded by the main loop's lock.
    /// The current stream, if any.
    private(set) var stream: OpaquePointer?
    /// Why the stream cannot run any more (the server went away).
    private(set) var lost: AudioDeviceError?
    private var closed = false
    /// The sink or source the server moved the stream to, while its description is looked up.
    var movingTo: String?

    /// Connects to `server` (nil: the server libpulse finds by default), without starting one,
    /// and finds sink or source `name` (nil: the server's default). Throws `.formatNotSupported` for a format PulseAudio cannot carry,
    /// `.openFailed` when no server answers and `.notFound` when there is no such device.
    init(
        _ direction: AudioDeviceDirection, name: String?, sampleRate: Double, channels: Int, bufferFrames: Int,
        applicationName: String, server: String? = nil
    ) throws(AudioDeviceError) {
        let (spec, map) = try pulseFormat(sampleRate: sampleRate, channels: channels, for: direction == .output ? "play" : "record")
        let connection = try PulseConnection.shared(applicationName: applicationName, server: server, timeout: PulseTimeout.open)
        let endpoint: PulseEndpoint
        let defaults: (sink: String?, source: String?)
        guard let found = try connection.endpoint(direction, named: name, timeout: PulseTimeout.open) else {
            let kind = direction == .output ? "sink" : "source"
            throw AudioDeviceError(.notFound, name.map { "no PulseAudio \(kind) '\($0)'" } ?? "the PulseAudio server has no default \(kind)")
        }
        endpoint = found
        defaults = try connection.defaults(timeout: PulseTimeout.open)
        self.connection = connection
        self.direction = direction
        self.endpointName = name
        self.spec = spec
        self.channelMap = map
        self.endpointMap = found.channelMap
        self.frameBytes = channels * MemoryLayout<Float>.size
        self.bufferFrames = min(max(bufferFrames, Int(spec.rate) / 200), Int(spec.rate) * 2)
        self.attributes = pa_buffer_attr(maxlength: .max, tlength: .max, prebuf: .max, minreq: .max, fragsize: .max)
        self.streamName = "\(applicationName) \(direction == .output ? "playback" : "recording")"
        self.format = .deviceFloat(sampleRate: sampleRate, channels: channels)
        let isDefault = name == nil || endpoint.name == (direction == .output ? defaults.sink : defaults.source)
        self.currentInfo = Guarded(AudioDeviceInfo(
            backend: "pulse", name: endpoint.name, description: endpoint.description, direction: direction,
            isDefault: isDefault, note: direction == .input ? endpoint.conversionNote(to: spec) : nil
        ))
    }

    /// Reports to `owner` from now on (the context's state too) and sets up the first stream.
    func attach(_ owner: any PulseStreamOwner) throws(AudioDeviceError) {
        try withLock { () throws(AudioDeviceError) in
            self.owner = owner
            connection.addObserver(self)
            try open()
        }
    }

    /// Runs `body` with the main loop locked (on the loop's own thread the lock is already held).
    func withLock<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
        try connection.withLock(body)
    }

    /// The current stream when it is connected and ready.
    var readyStream: OpaquePointer? {
        guard let stream, pa_stream_get_state(stream) == PA_STREAM_READY else { return nil }
        return stream
    }

    /// The server's latest timing information for `stream` when its read and write indexes are
    /// valid (libpulse advances the read index locally as a record stream's data is dropped).
    func timing(_ stream: OpaquePointer) -> pa_timing_info? {
        guard let info = pa_stream_get_timing_info(stream)?.pointee,
              info.read_index_corrupt == 0, info.write_index_corrupt == 0 else { return nil }
        return info
    }

    /// Asks the server for new timing information and waits (off the loop's thread, up to
    /// `timeout` microseconds) for it; true when it arrived.
    func updateTiming(_ stream: OpaquePointer, timeout: UInt64) -> Bool {
        let operation = pa_stream_update_timing_info(stream, { _, _, userdata in
            pa_threaded_mainloop_signal(OpaquePointer(userdata), 0)
        }, UnsafeMutableRawPointer(connection.mainloop))
        return connection.finish(operation, timeout: timeout)
    }

    /// Microseconds of audio as frames at the stream's rate.
    func frames(microseconds: UInt64) -> Int {
        Int((Double(microseconds) * format.sampleRate / 1_000_000).rounded())
    }

    /// Replaces the stream with a new one, created corked, and (off the loop's thread) waits until
    /// it is ready. On the loop's thread it becomes ready later, reported by
    /// ``PulseStreamOwner/pulseStreamReady()``.
    func open() throws(AudioDeviceError) {
        closeStream()
        guard connection.isReady else {
            throw lost ?? AudioDeviceError(.disconnected, "the PulseAudio server went away: \(connection.lastError)")
        }
        // Channels by index: the stream also names its channels as the device does, so that a
        // server that maps by position rather than honouring PA_STREAM_NO_REMAP_CHANNELS
        // (PipeWire's PulseAudio server) still puts channel N on the device's channel N.
        var map = channelMap
        if channelsByIndex, let own = endpointMap, Int(own.channels) == Int(spec.channels) { map = own }
        guard let stream = pa_stream_new(connection.context, streamName, &spec, &map) else {
            throw AudioDeviceError(.openFailed, "cannot create a PulseAudio stream: \(connection.lastError)")
        }
        installCallbacks(on: stream)
        // A stream on the default follows it (the server moves it when the default changes or
        // its sink goes away); one on a named sink or source stays there, and the server ends
        // it when that goes away.
        let flags = pa_stream_flags_t(
            PA_STREAM_ADJUST_LATENCY.rawValue | PA_STREAM_INTERPOLATE_TIMING.rawValue
                | (autoTimingUpdates ? PA_STREAM_AUTO_TIMING_UPDATE.rawValue : 0) | PA_STREAM_START_CORKED.rawValue
                | (endpointName == nil ? 0 : PA_STREAM_DONT_MOVE.rawValue)
                | (channelsByIndex ? PA_STREAM_NO_REMAP_CHANNELS.rawValue : 0)
        )
        self.stream = stream
        let preposition = direction == .output ? "to" : "from"
        let status = direction == .output
            ? pa_stream_connect_playback(stream, endpointName, &attributes, flags, nil, nil)
            : pa_stream_connect_record(stream, endpointName, &attributes, flags)
        if status < 0 {
            let error = AudioDeviceError(.openFailed, "cannot connect a PulseAudio stream \(preposition) \(info.name): \(connection.lastError)")
            closeStream()
            throw error
        }
        if connection.isLoopThread { return }
        _ = connection.wait(timeout: PulseTimeout.open) { pa_stream_get_state(stream) != PA_STREAM_CREATING }
        let state = pa_stream_get_state(stream)
        guard state != PA_STREAM_READY else { return }
        let error: AudioDeviceError
        if state == PA_STREAM_CREATING {
            error = AudioDeviceError(.openFailed, "PulseAudio did not set up a stream \(preposition) \(info.name) in time")
        } else if connection.lastErrorCode == PA_ERR_NOENTITY.rawValue {
            error = AudioDeviceError(.notFound, "no PulseAudio \(direction == .output ? "sink" : "source") '\(info.name)'")
        } else if !connection.isReady {
            error = lost ?? AudioDeviceError(.disconnected, "the PulseAudio server went away: \(connection.lastError)")
        } else {
            error = AudioDeviceError(.openFailed, "PulseAudio refused a stream \(preposition) \(info.name): \(connection.lastError)")
        }
        closeStream()
        throw error
    }

    /// Disconnects and releases the current stream, if any.
    func closeStream() {
        guard let stream else { return }
        self.stream = nil
        pa_stream_set_state_callback(stream, nil, nil)
        pa_stream_set_write_callback(stream, nil, nil)
        pa_stream_set_underflow_callback(stream, nil, nil)
        pa_stream_set_read_callback(stream, nil, nil)
        pa_stream_set_overflow_callback(stream, nil, nil)
        pa_stream_set_latency_update_callback(stream, nil, nil)
        pa_stream_set_moved_callback(stream, nil, nil)
        pa_stream_set_started_callback(stream, nil, nil)
        movingTo = nil
        let state = pa_stream_get_state(stream)
        if state == PA_STREAM_READY || state == PA_STREAM_CREATING { pa_stream_disconnect(stream) }
        connection.release(stream)
    }

    /// Closes the stream and stops hearing of the connection (without the lock). Idempotent.
    /// The connection, shared with the process's other devices, closes when the last of
    /// them lets go of it.
    func close() {
        withLock {
            closed = true
            closeStream()
            connection.removeObserver(self)
        }
    }

    /// Corks (`true`) or uncorks the current stream, without waiting.
    func cork(_ stream: OpaquePointer, _ corked: Bool) {
        pulseDiscard(pa_stream_cork(stream, corked ? 1 : 0, nil, nil))
    }

    /// Drops what the server holds for the current stream, without waiting.
    func flush(_ stream: OpaquePointer) {
        pulseDiscard(pa_stream_flush(stream, nil, nil))
    }

    // MARK: Callbacks (on the main loop's thread, lock held)

    private func installCallbacks(on stream: OpaquePointer) {
        let me = Unmanaged.passUnretained(self).toOpaque()
        pa_stream_set_state_callback(stream, { stream, userdata in
            Unmanaged<PulseStream>.fromOpaque(userdata!).takeUnretainedValue().streamChanged(stream)
        }, me)
        // The same two callbacks serve both directions: the server's request for data or its
        // data (write, read), and its underflow or overflow.
        let request: pa_stream_request_cb_t = { stream, bytes, userdata in
            let me = Unmanaged<PulseStream>.fromOpaque(userdata!).takeUnretainedValue()
            if me.isCurrent(stream) { me.owner?.pulseStreamRequest(bytes: bytes) }
        }
        let xrun: pa_stream_notify_cb_t = { stream, userdata in
            let me = Unmanaged<PulseStream>.fromOpaque(userdata!).takeUnretainedValue()
            if me.isCurrent(stream) { me.owner?.pulseStreamXrun() }
        }
        pa_stream_set_latency_update_callback(stream, { stream, userdata in
            let me = Unmanaged<PulseStream>.fromOpaque(userdata!).takeUnretainedValue()
            if me.isCurrent(stream) { me.owner?.pulseStreamTimingUpdated() }
        }, me)
        pa_stream_set_moved_callback(stream, { stream, userdata in
            Unmanaged<PulseStream>.fromOpaque(userdata!).takeUnretainedValue().streamMoved(stream)
        }, me)
        switch direction {
        case .output:
            pa_stream_set_write_callback(stream, request, me)
            pa_stream_set_underflow_callback(stream, xrun, me)
            pa_stream_set_started_callback(stream, { stream, userdata in
                let me = Unmanaged<PulseStream>.fromOpaque(userdata!).takeUnretainedValue()
                if me.isCurrent(stream) { me.owner?.pulseStreamStarted() }
            }, me)
        case .input:
            pa_stream_set_read_callback(stream, request, me)
            pa_stream_set_overflow_callback(stream, xrun, me)
        }
    }

    func isCurrent(_ changed: OpaquePointer?) -> Bool {
        stream != nil && changed == stream
    }

    private func streamChanged(_ changed: OpaquePointer?) {
        connection.signal()
        guard let stream, changed == stream else { return }
        let state = pa_stream_get_state(stream)
        if state == PA_STREAM_READY {
            // A new stream on the default goes to the default of now, which may have changed.
            if endpointName == nil { streamMoved(stream) }
            owner?.pulseStreamReady()
        } else if PA_STREAM_IS_GOOD(state) == 0 {
            let kind = direction == .output ? "sink" : "source"
            let reason = !connection.isReady
                ? "the PulseAudio server went away: \(connection.lastError)"
                : connection.lastErrorCode == PA_ERR_KILLED.rawValue
                ? "the PulseAudio \(kind) \(info.name) went away (the server ended the stream)"
                : "the PulseAudio stream \(direction == .output ? "to" : "from") \(info.name) failed: \(connection.lastError)"
            owner?.pulseStreamFailed(AudioDeviceError(.disconnected, reason))
        }
    }

    /// The connection's context changed state (on the loop's thread): a failed context is a
    /// lost server.
    func contextChanged() {
        let state = pa_context_get_state(connection.context)
        guard PA_CONTEXT_IS_GOOD(state) == 0, lost == nil, !closed else { return }
        let error = AudioDeviceError(.disconnected, "the PulseAudio server went away: \(connection.lastError)")
        lost = error
        owner?.pulseStreamFailed(error)
    }
}

/// The sample spec and channel map for interleaved Float32 at `sampleRate` with `channels`
/// (WAVE channel order), or `.formatNotSupported`.
func pulseFormat(sampleRate: Double, channels: Int, for verb: String) throws(AudioDeviceError) -> (pa_sample_spec, pa_channel_map) {
    guard sampleRate.isFinite, sampleRate >= 1, sampleRate <= Double(PA_RATE_MAX), sampleRate.rounded() == sampleRate,
          channels > 0, channels <= Int(PA_CHANNELS_MAX) else {
        throw AudioDeviceError(.formatNotSupported, "PulseAudio cannot \(verb) \(channels) channels at \(sampleRate) Hz")
    }
    var spec = pa_sample_spec(format: PA_SAMPLE_FLOAT32LE, rate: UInt32(sampleRate), channels: UInt8(channels))
    var map = pa_channel_map()
    guard pa_sample_spec_valid(&spec) != 0, pa_channel_map_init_extend(&map, UInt32(channels), PA_CHANNEL_MAP_WAVEEX) != nil else {
        throw AudioDeviceError(.formatNotSupported, "PulseAudio cannot \(verb) \(channels) channels at \(sampleRate) Hz")
    }
    return (spec, map)
}
