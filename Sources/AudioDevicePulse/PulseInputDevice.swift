public import AudioCore
public import AudioDevices
import CPulseAudio
import Synchronization

/// Records from a PulseAudio source (a microphone, or a sink's monitor such as
/// `mysink.monitor`, which records what that sink plays): a record stream of interleaved
/// 32-bit float on a connection of its own.
///
/// Each device owns a threaded main loop and a context, connected before the initializer
/// returns, and a record stream created corked. The main loop's thread is the device's I/O
/// thread: it hands what the server sends to the sink's
/// `capture(_:frameCount:)` in place, and reports events. That
/// thread holds the main loop's lock while it calls the sink, so the sink must not wait for
/// anything that waits for this device (its methods take that lock).
///
/// Gaps the server marks in the stream are delivered as silence of the same length. When the
/// server goes away while recording, the device reports
/// `.failed` with
/// `.disconnected` and cannot be started again.
public final class PulseInputDevice: AudioInputDevice, @unchecked Sendable {
    public let info: AudioDeviceInfo
    public let format: AudioStreamBasicDescription

    private let connection: PulseConnection
    /// The source asked for; nil for the server's default.
    private let sourceName: String?
    private let streamName: String
    private let frameBytes: Int
    private let captured = Atomic<Int64>(0)
    private var spec: pa_sample_spec
    private var channelMap: pa_channel_map
    private var attributes: pa_buffer_attr
    /// Frames ``scratch`` and ``zeros`` hold.
    private let scratchFrames = 4096
    /// Holds a frame split across two fragments (and whole frames, should a fragment not be
    /// float-aligned).
    private let scratch: UnsafeMutableRawPointer
    /// Silence for the gaps.
    private let zeros: UnsafeMutablePointer<Float>

    private enum Phase {
        case idle
        case running
        case closed
    }

    // Guarded by the main loop's lock.
    private var phase = Phase.idle
    private var stream: OpaquePointer?
    private var sink: (any AudioCaptureSink)?
    private var startReported = false
    /// Bytes of a partial frame waiting in ``scratch``.
    private var carry = 0
    /// Why the device cannot run any more (the server went away).
    private var lost: AudioDeviceError?

    /// Opens `source` (nil: the server's default) for interleaved Float32 at `sampleRate` with
    /// `channels`, delivering about `bufferFrames` frames at a time.
    ///
    /// Connects to the server libpulse finds by default (`PULSE_SERVER`, `PULSE_RUNTIME_PATH`,
    /// the user's session), without starting one, and prepares a corked stream. Throws
    /// `.openFailed` when no server answers,
    /// `.notFound` when there is no such source and
    /// `.formatNotSupported` for a format PulseAudio
    /// cannot carry.
    public init(
        source: String? = nil, sampleRate: Double, channels: Int, bufferFrames: Int,
        applicationName: String = "swift-audio-queue"
    ) throws(AudioDeviceError) {
        let (spec, map) = try pulseFormat(sampleRate: sampleRate, channels: channels, for: "record")
        let connection = try PulseConnection(applicationName: applicationName, timeout: PulseTimeout.open)
        let endpoint: PulseEndpoint
        let defaults: (sink: String?, source: String?)
        do throws(AudioDeviceError) {
            guard let found = try connection.endpoint(.input, named: source, timeout: PulseTimeout.open) else {
                throw AudioDeviceError(.notFound, source.map { "no PulseAudio source '\($0)'" } ?? "the PulseAudio server has no default source")
            }
            endpoint = found
            defaults = try connection.defaults(timeout: PulseTimeout.open)
        } catch {
            connection.shutdown()
            throw error
        }
        let frameBytes = channels * MemoryLayout<Float>.size
        let frames = min(max(bufferFrames, Int(spec.rate) / 200), Int(spec.rate) * 2)
        self.connection = connection
        self.sourceName = source
        self.spec = spec
        self.channelMap = map
        self.frameBytes = frameBytes
        self.attributes = pa_buffer_attr(
            maxlength: UInt32.max, tlength: UInt32.max, prebuf: UInt32.max, minreq: UInt32.max,
            fragsize: UInt32(frames * frameBytes)
        )
        self.streamName = "\(applicationName) recording"
        self.format = .deviceFloat(sampleRate: sampleRate, channels: channels)
        self.info = AudioDeviceInfo(
            backend: "pulse", name: endpoint.name, description: endpoint.description, direction: .input,
            isDefault: source == nil || endpoint.name == defaults.source
        )
        scratch = .allocate(byteCount: scratchFrames * frameBytes, alignment: MemoryLayout<Float>.alignment)
        zeros = .allocate(capacity: scratchFrames * channels)
        zeros.initialize(repeating: 0, count: scratchFrames * channels)
        try connection.withLock { () throws(AudioDeviceError) in
            pa_context_set_state_callback(connection.context, { _, userdata in
                Unmanaged<PulseInputDevice>.fromOpaque(userdata!).takeUnretainedValue().contextChanged()
            }, Unmanaged.passUnretained(self).toOpaque())
            try openStream()
        }
    }

    deinit {
        close()
        scratch.deallocate()
        zeros.deallocate()
    }

    /// Starts recording into `sink` on the main loop's thread. Throws
    /// `.disconnected` once the server has gone away.
    public func start(sink: any AudioCaptureSink) throws(AudioDeviceError) {
        try connection.withLock { () throws(AudioDeviceError) in
            switch phase {
            case .closed: throw AudioDeviceError(.invalidState, "\(info.uid) is closed")
            case .running: throw AudioDeviceError(.invalidState, "\(info.uid) is already recording")
            case .idle: break
            }
            if let lost { throw lost }
            if stream.map({ pa_stream_get_state($0) != PA_STREAM_READY }) ?? true { try openStream() }
            guard let stream else { throw AudioDeviceError(.invalidState, "\(info.uid) has no stream") }
            self.sink = sink
            phase = .running
            startReported = false
            carry = 0
            pulseDiscard(pa_stream_cork(stream, 0, nil, nil))
        }
    }

    /// Stops recording: corks the stream and drops what it holds. Once this returns the sink is
    /// not called again.
    public func stop(drain: Bool) {
        connection.withLock {
            guard phase == .running else { return }
            phase = .idle
            sink = nil
            guard let stream, pa_stream_get_state(stream) == PA_STREAM_READY else { return }
            pulseDiscard(pa_stream_cork(stream, 1, nil, nil))
            pulseDiscard(pa_stream_flush(stream, nil, nil))
        }
    }

    public var framesCaptured: Int64 { captured.load(ordering: .acquiring) }

    /// Disconnects the stream and the context and stops the main loop. Idempotent.
    public func close() {
        connection.withLock {
            guard phase != .closed else { return }
            phase = .closed
            sink = nil
            closeStream()
            pa_context_set_state_callback(connection.context, nil, nil)
        }
        connection.shutdown()
    }

    // MARK: The stream (lock held)

    private func openStream() throws(AudioDeviceError) {
        closeStream()
        guard connection.isReady else {
            throw lost ?? AudioDeviceError(.disconnected, "the PulseAudio server went away: \(connection.lastError)")
        }
        guard let stream = pa_stream_new(connection.context, streamName, &spec, &channelMap) else {
            throw AudioDeviceError(.openFailed, "cannot create a PulseAudio stream: \(connection.lastError)")
        }
        let me = Unmanaged.passUnretained(self).toOpaque()
        pa_stream_set_state_callback(stream, { stream, userdata in
            Unmanaged<PulseInputDevice>.fromOpaque(userdata!).takeUnretainedValue().streamChanged(stream)
        }, me)
        pa_stream_set_read_callback(stream, { stream, _, userdata in
            Unmanaged<PulseInputDevice>.fromOpaque(userdata!).takeUnretainedValue().read(stream)
        }, me)
        pa_stream_set_overflow_callback(stream, { stream, userdata in
            Unmanaged<PulseInputDevice>.fromOpaque(userdata!).takeUnretainedValue().overflow(stream)
        }, me)
        let flags = pa_stream_flags_t(
            PA_STREAM_ADJUST_LATENCY.rawValue | PA_STREAM_INTERPOLATE_TIMING.rawValue
                | PA_STREAM_AUTO_TIMING_UPDATE.rawValue | PA_STREAM_START_CORKED.rawValue
        )
        self.stream = stream
        if pa_stream_connect_record(stream, sourceName, &attributes, flags) < 0 {
            let error = AudioDeviceError(.openFailed, "cannot connect a PulseAudio stream to \(info.name): \(connection.lastError)")
            closeStream()
            throw error
        }
        if connection.isLoopThread { return }
        _ = connection.wait(timeout: PulseTimeout.open) { pa_stream_get_state(stream) != PA_STREAM_CREATING }
        let state = pa_stream_get_state(stream)
        guard state != PA_STREAM_READY else { return }
        let error: AudioDeviceError
        if state == PA_STREAM_CREATING {
            error = AudioDeviceError(.openFailed, "PulseAudio did not set up a stream from \(info.name) in time")
        } else if connection.lastErrorCode == PA_ERR_NOENTITY.rawValue {
            error = AudioDeviceError(.notFound, "no PulseAudio source '\(info.name)'")
        } else if !connection.isReady {
            error = lost ?? AudioDeviceError(.disconnected, "the PulseAudio server went away: \(connection.lastError)")
        } else {
            error = AudioDeviceError(.openFailed, "PulseAudio refused a stream from \(info.name): \(connection.lastError)")
        }
        closeStream()
        throw error
    }

    private func closeStream() {
        guard let stream else { return }
        self.stream = nil
        pa_stream_set_state_callback(stream, nil, nil)
        pa_stream_set_read_callback(stream, nil, nil)
        pa_stream_set_overflow_callback(stream, nil, nil)
        let state = pa_stream_get_state(stream)
        if state == PA_STREAM_READY || state == PA_STREAM_CREATING { pa_stream_disconnect(stream) }
        connection.release(stream)
    }

    // MARK: Callbacks (on the main loop's thread, lock held)

    /// Hands every fragment the stream holds to the sink (or drops it when not recording).
    private func read(_ changed: OpaquePointer?) {
        guard let stream, changed == stream else { return }
        while true {
            var data: UnsafeRawPointer?
            var size = 0
            guard pa_stream_peek(stream, &data, &size) == 0, size > 0 else { return }
            if phase == .running, let sink {
                deliver(data, size, to: sink)
                // The sink may have closed the device, freeing the stream, from inside capture.
                guard self.stream == stream else { return }
            }
            pa_stream_drop(stream)
        }
    }

    /// Delivers `count` bytes at `data` (nil: that much silence) in whole frames.
    private func deliver(_ data: UnsafeRawPointer?, _ count: Int, to sink: any AudioCaptureSink) {
        var offset = 0
        if carry > 0 {
            let take = min(frameBytes - carry, count)
            copy(data, offset, take, to: scratch + carry)
            carry += take
            offset += take
            guard carry == frameBytes else { return }
            carry = 0
            emit(scratch, 1, to: sink)
        }
        while phase == .running, count - offset >= frameBytes {
            let whole = (count - offset) / frameBytes
            if let data, Int(bitPattern: data + offset) % MemoryLayout<Float>.alignment == 0 {
                emit(data + offset, whole, to: sink)
                offset += whole * frameBytes
            } else {
                let n = min(whole, scratchFrames)
                if let data {
                    scratch.copyMemory(from: data + offset, byteCount: n * frameBytes)
                    emit(scratch, n, to: sink)
                } else {
                    emit(zeros, n, to: sink)
                }
                offset += n * frameBytes
            }
        }
        if phase == .running, offset < count {
            copy(data, offset, count - offset, to: scratch)
            carry = count - offset
        }
    }

    private func copy(_ data: UnsafeRawPointer?, _ offset: Int, _ count: Int, to target: UnsafeMutableRawPointer) {
        if let data {
            target.copyMemory(from: data + offset, byteCount: count)
        } else {
            target.initializeMemory(as: UInt8.self, repeating: 0, count: count)
        }
    }

    private func emit(_ samples: UnsafeRawPointer, _ frames: Int, to sink: any AudioCaptureSink) {
        sink.capture(samples.assumingMemoryBound(to: Float.self), frameCount: frames, hostTime: HostTime.now())
        captured.add(Int64(frames), ordering: .releasing)
        if !startReported && phase == .running {
            startReported = true
            sink.device(self, didReport: .started(hostTime: HostTime.now()))
        }
    }

    private func overflow(_ changed: OpaquePointer?) {
        guard phase == .running, changed == stream, let sink else { return }
        sink.device(self, didReport: .overrun)
    }

    private func streamChanged(_ changed: OpaquePointer?) {
        connection.signal()
        guard let stream, changed == stream else { return }
        let state = pa_stream_get_state(stream)
        guard PA_STREAM_IS_GOOD(state) == 0 else { return }
        let reason = connection.isReady ? "the PulseAudio stream from \(info.name) failed: \(connection.lastError)"
            : "the PulseAudio server went away: \(connection.lastError)"
        fail(AudioDeviceError(.disconnected, reason))
    }

    private func contextChanged() {
        connection.signal()
        let state = pa_context_get_state(connection.context)
        guard PA_CONTEXT_IS_GOOD(state) == 0, lost == nil, phase != .closed else { return }
        let error = AudioDeviceError(.disconnected, "the PulseAudio server went away: \(connection.lastError)")
        lost = error
        fail(error)
    }

    /// The stream or the server is gone: stop, and tell the sink if it was recording.
    private func fail(_ error: AudioDeviceError) {
        let sink = self.sink
        let wasRunning = phase == .running
        if phase != .closed { phase = .idle }
        self.sink = nil
        if wasRunning, let sink { sink.device(self, didReport: .failed(error)) }
    }
}
