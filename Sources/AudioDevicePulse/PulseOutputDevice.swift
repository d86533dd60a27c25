public import AudioCore
public import AudioDevices
import CPulseAudio
import Synchronization

/// Plays through a PulseAudio sink: a playback stream of interleaved 32-bit float on a
/// connection of its own.
///
/// Each device owns a threaded main loop and a context, connected before the initializer
/// returns, and a playback stream created corked. The main loop's thread is the device's I/O
/// thread: the server's requests for data call the source's
/// `render(into:frameCount:)` there, which renders straight
/// into the buffer that goes to the server, and events are reported from there too. That thread
/// holds the main loop's lock while it calls the source, so the source must not wait for
/// anything that waits for this device (its methods take that lock).
///
/// Every ``start(source:)`` after the first plays on a fresh stream. When the server goes away
/// while the device is running it reports `.failed` with
/// `.disconnected`, and it cannot be started again.
public final class PulseOutputDevice: AudioOutputDevice, @unchecked Sendable {
    public let info: AudioDeviceInfo
    public let format: AudioStreamBasicDescription

    private let connection: PulseConnection
    /// The sink asked for; nil for the server's default (the stream follows it).
    private let sinkName: String?
    private let streamName: String
    private let frameBytes: Int
    private let rendered = Atomic<Int64>(0)
    private var spec: pa_sample_spec
    private var channelMap: pa_channel_map
    private var attributes: pa_buffer_attr

    private enum Phase {
        /// Not playing; the stream (if any) is corked.
        case idle
        /// Pulling from the source.
        case running
        /// The source ended; the server is playing out what it has, then `.stopped` is reported.
        case ending
        /// `stop(drain: true)`: the server is playing out what it has; nothing is reported.
        case stopping
        /// `pause()`: the stream is corked, holding what the server has for the next start.
        case paused
        case closed
    }

    // Guarded by the main loop's lock.
    private var phase = Phase.idle
    /// Paused while `.ending`: the resumed stream goes on draining and then reports `.stopped`.
    private var pausedWhileEnding = false
    private var stream: OpaquePointer?
    private var source: (any AudioRenderSource)?
    /// The current stream has played (or failed): the next start makes a new one.
    private var streamUsed = false
    private var corked = true
    private var startReported = false
    /// Why the device cannot run any more (the server went away).
    private var lost: AudioDeviceError?
    private var drainOperation: OpaquePointer?
    /// Fills the stream from the loop's thread after `start`.
    private var kick: OpaquePointer?

    /// Opens `sink` (nil: the server's default) for interleaved Float32 at `sampleRate` with
    /// `channels`, with a target latency of about `bufferFrames` frames.
    ///
    /// Connects to the server libpulse finds by default (`PULSE_SERVER`, `PULSE_RUNTIME_PATH`,
    /// the user's session), without starting one, and prepares a corked stream. Throws
    /// `.openFailed` when no server answers,
    /// `.notFound` when there is no such sink and
    /// `.formatNotSupported` for a format PulseAudio
    /// cannot carry.
    public init(
        sink: String? = nil, sampleRate: Double, channels: Int, bufferFrames: Int,
        applicationName: String = "swift-audio-queue"
    ) throws(AudioDeviceError) {
        let (spec, map) = try pulseFormat(sampleRate: sampleRate, channels: channels, for: "play")
        let connection = try PulseConnection(applicationName: applicationName, timeout: PulseTimeout.open)
        let endpoint: PulseEndpoint
        let defaults: (sink: String?, source: String?)
        do throws(AudioDeviceError) {
            guard let found = try connection.endpoint(.output, named: sink, timeout: PulseTimeout.open) else {
                throw AudioDeviceError(.notFound, sink.map { "no PulseAudio sink '\($0)'" } ?? "the PulseAudio server has no default sink")
            }
            endpoint = found
            defaults = try connection.defaults(timeout: PulseTimeout.open)
        } catch {
            connection.shutdown()
            throw error
        }
        let frameBytes = channels * MemoryLayout<Float>.size
        let frames = min(max(bufferFrames, Int(spec.rate) / 200), Int(spec.rate) * 2)
        let target = UInt32(frames * frameBytes)
        self.connection = connection
        self.sinkName = sink
        self.spec = spec
        self.channelMap = map
        self.frameBytes = frameBytes
        self.attributes = pa_buffer_attr(
            maxlength: UInt32.max, tlength: target, prebuf: UInt32.max,
            minreq: max(UInt32(frameBytes), target / 4 / UInt32(frameBytes) * UInt32(frameBytes)), fragsize: UInt32.max
        )
        self.streamName = "\(applicationName) playback"
        self.format = .deviceFloat(sampleRate: sampleRate, channels: channels)
        self.info = AudioDeviceInfo(
            backend: "pulse", name: endpoint.name, description: endpoint.description, direction: .output,
            isDefault: sink == nil || endpoint.name == defaults.sink
        )
        try connection.withLock { () throws(AudioDeviceError) in
            let me = Unmanaged.passUnretained(self).toOpaque()
            pa_context_set_state_callback(connection.context, { _, userdata in
                Unmanaged<PulseOutputDevice>.fromOpaque(userdata!).takeUnretainedValue().contextChanged()
            }, me)
            if let event = connection.api.pointee.defer_new?(connection.api, { api, event, userdata in
                api?.pointee.defer_enable?(event, 0)
                Unmanaged<PulseOutputDevice>.fromOpaque(userdata!).takeUnretainedValue().fill()
            }, me) {
                connection.api.pointee.defer_enable?(event, 0)
                kick = event
            }
            try openStream()
        }
    }

    deinit { close() }

    /// Starts pulling from `source` on the main loop's thread. Throws
    /// `.disconnected` once the server has gone away.
    public func start(source: any AudioRenderSource) throws(AudioDeviceError) {
        try connection.withLock { () throws(AudioDeviceError) in
            var resuming = false
            switch phase {
            case .closed: throw AudioDeviceError(.invalidState, "\(info.uid) is closed")
            case .running, .ending: throw AudioDeviceError(.invalidState, "\(info.uid) is already running")
            case .stopping: halt()
            case .paused:
                // The corked stream still holds what was written before the pause.
                if let stream, pa_stream_get_state(stream) == PA_STREAM_READY { resuming = true } else { halt() }
            case .idle: break
            }
            if let lost { throw lost }
            if resuming, let stream {
                self.source = source
                phase = pausedWhileEnding ? .ending : .running
                pausedWhileEnding = false
                uncork(stream)
                if phase == .running, let kick { connection.api.pointee.defer_enable?(kick, 1) }
                // A drain that finished while paused is asked for again, to report the end.
                if phase == .ending && drainOperation == nil { startDrain(stream) }
                return
            }
            if streamUsed || stream == nil { try openStream() }
            self.source = source
            phase = .running
            startReported = false
            streamUsed = true
            if let kick { connection.api.pointee.defer_enable?(kick, 1) }
        }
    }

    /// Stops pulling. With `drain`, waits (up to 2 seconds) for the server to play what it
    /// has; without, drops it. Either way the source is not called once this returns. Called on
    /// the main loop's thread (from an event), it does not wait: the play-out finishes on its own.
    public func stop(drain: Bool) {
        connection.withLock {
            switch phase {
            case .running:
                source = nil
                guard drain, let stream, pa_stream_get_state(stream) == PA_STREAM_READY else { return halt() }
                phase = .stopping
                startDrain(stream)
            case .ending, .stopping:
                source = nil
                phase = .stopping
                if !drain { return halt() }
            case .paused:
                return halt()
            case .idle, .closed:
                return
            }
            if connection.isLoopThread { return }
            _ = connection.wait(timeout: PulseTimeout.drain) { phase != .stopping }
            if phase == .stopping { halt() }
        }
    }

    /// Stops pulling from the source and corks the stream, which keeps what the server holds:
    /// the next ``start(source:)`` uncorks it and plays on from there.
    public func pause() {
        connection.withLock {
            switch phase {
            case .running, .ending:
                // Ending: the source has ended and the server drains; the drain waits for the
                // stream to be uncorked.
                pausedWhileEnding = phase == .ending
                source = nil
                phase = .paused
                guard let stream, pa_stream_get_state(stream) == PA_STREAM_READY else { return halt() }
                if !corked {
                    pulseDiscard(pa_stream_cork(stream, 1, nil, nil))
                    corked = true
                }
            case .stopping:
                halt()
            case .paused, .idle, .closed:
                return
            }
        }
    }

    /// Frames between what the source rendered and what the sink plays now (the stream's latency).
    public var presentationDelay: Int {
        connection.withLock {
            guard phase != .closed, let stream, pa_stream_get_state(stream) == PA_STREAM_READY else { return 0 }
            var usec: pa_usec_t = 0
            var negative: Int32 = 0
            guard pa_stream_get_latency(stream, &usec, &negative) == 0, negative == 0 else { return 0 }
            return Int((Double(usec) * format.sampleRate / 1_000_000).rounded())
        }
    }

    public var framesRendered: Int64 { rendered.load(ordering: .acquiring) }

    /// The stream's playback position in microseconds (the server's clock, interpolated), or
    /// nil before the server has reported timing for the current stream.
    public var streamTime: UInt64? {
        connection.withLock {
            guard phase != .closed, let stream, pa_stream_get_state(stream) == PA_STREAM_READY else { return nil }
            var usec: pa_usec_t = 0
            return pa_stream_get_time(stream, &usec) == 0 ? usec : nil
        }
    }

    /// Frames played by the current stream, from the server's interpolated clock
    /// (``streamTime``): smooth even when the sink takes audio in bursts.
    public var framesPlayed: Int64 {
        guard let time = streamTime else { return 0 }
        return Int64((Double(time) * format.sampleRate / 1_000_000).rounded())
    }

    /// Disconnects the stream and the context and stops the main loop. Idempotent.
    public func close() {
        connection.withLock {
            guard phase != .closed else { return }
            phase = .closed
            source = nil
            closeStream()
            if let kick { connection.api.pointee.defer_free?(kick) }
            kick = nil
            pa_context_set_state_callback(connection.context, nil, nil)
        }
        connection.shutdown()
    }

    // MARK: The stream (lock held)

    private func openStream() throws(AudioDeviceError) {
        closeStream()
        streamUsed = false
        corked = true
        guard connection.isReady else {
            throw lost ?? AudioDeviceError(.disconnected, "the PulseAudio server went away: \(connection.lastError)")
        }
        guard let stream = pa_stream_new(connection.context, streamName, &spec, &channelMap) else {
            throw AudioDeviceError(.openFailed, "cannot create a PulseAudio stream: \(connection.lastError)")
        }
        let me = Unmanaged.passUnretained(self).toOpaque()
        pa_stream_set_state_callback(stream, { stream, userdata in
            Unmanaged<PulseOutputDevice>.fromOpaque(userdata!).takeUnretainedValue().streamChanged(stream)
        }, me)
        pa_stream_set_write_callback(stream, { _, _, userdata in
            Unmanaged<PulseOutputDevice>.fromOpaque(userdata!).takeUnretainedValue().fill()
        }, me)
        pa_stream_set_underflow_callback(stream, { stream, userdata in
            Unmanaged<PulseOutputDevice>.fromOpaque(userdata!).takeUnretainedValue().underflow(stream)
        }, me)
        let flags = pa_stream_flags_t(
            PA_STREAM_ADJUST_LATENCY.rawValue | PA_STREAM_INTERPOLATE_TIMING.rawValue
                | PA_STREAM_AUTO_TIMING_UPDATE.rawValue | PA_STREAM_START_CORKED.rawValue
        )
        self.stream = stream
        if pa_stream_connect_playback(stream, sinkName, &attributes, flags, nil, nil) < 0 {
            let error = AudioDeviceError(.openFailed, "cannot connect a PulseAudio stream to \(info.name): \(connection.lastError)")
            closeStream()
            throw error
        }
        // On the loop's thread the stream becomes ready later; `streamChanged` takes it from there.
        if connection.isLoopThread { return }
        _ = connection.wait(timeout: PulseTimeout.open) { pa_stream_get_state(stream) != PA_STREAM_CREATING }
        let state = pa_stream_get_state(stream)
        guard state != PA_STREAM_READY else { return }
        let error: AudioDeviceError
        if state == PA_STREAM_CREATING {
            error = AudioDeviceError(.openFailed, "PulseAudio did not set up a stream to \(info.name) in time")
        } else if connection.lastErrorCode == PA_ERR_NOENTITY.rawValue {
            error = AudioDeviceError(.notFound, "no PulseAudio sink '\(info.name)'")
        } else if !connection.isReady {
            error = lost ?? AudioDeviceError(.disconnected, "the PulseAudio server went away: \(connection.lastError)")
        } else {
            error = AudioDeviceError(.openFailed, "PulseAudio refused a stream to \(info.name): \(connection.lastError)")
        }
        closeStream()
        throw error
    }

    private func closeStream() {
        cancelDrain()
        guard let stream else { return }
        self.stream = nil
        pa_stream_set_state_callback(stream, nil, nil)
        pa_stream_set_write_callback(stream, nil, nil)
        pa_stream_set_underflow_callback(stream, nil, nil)
        let state = pa_stream_get_state(stream)
        if state == PA_STREAM_READY || state == PA_STREAM_CREATING { pa_stream_disconnect(stream) }
        connection.release(stream)
    }

    /// Stops at once: drops what the server holds and corks.
    private func halt() {
        cancelDrain()
        phase = .idle
        pausedWhileEnding = false
        source = nil
        streamUsed = true
        guard let stream, pa_stream_get_state(stream) == PA_STREAM_READY else { return }
        pulseDiscard(pa_stream_cork(stream, 1, nil, nil))
        pulseDiscard(pa_stream_flush(stream, nil, nil))
        corked = true
    }

    private func startDrain(_ stream: OpaquePointer) {
        cancelDrain()
        if corked {
            pulseDiscard(pa_stream_cork(stream, 0, nil, nil))
            corked = false
        }
        drainOperation = pa_stream_drain(stream, { _, _, userdata in
            Unmanaged<PulseOutputDevice>.fromOpaque(userdata!).takeUnretainedValue().drained()
        }, Unmanaged.passUnretained(self).toOpaque())
        if drainOperation == nil { drained() }
    }

    private func cancelDrain() {
        guard let operation = drainOperation else { return }
        drainOperation = nil
        pa_operation_cancel(operation)
        pa_operation_unref(operation)
    }

    // MARK: Callbacks (on the main loop's thread, lock held)

    /// Writes as much as the server asks for, rendered straight into its buffers.
    private func fill() {
        guard phase == .running, let source, let stream, pa_stream_get_state(stream) == PA_STREAM_READY else { return }
        var wanted = pa_stream_writable_size(stream)
        while wanted >= frameBytes {
            var data: UnsafeMutableRawPointer?
            var size = wanted
            guard pa_stream_begin_write(stream, &data, &size) == 0, let data else { break }
            let frames = min(size, wanted) / frameBytes
            // libpulse's blocks are at least pointer-aligned.
            guard frames > 0 else {
                pa_stream_cancel_write(stream)
                break
            }
            let n = min(max(source.render(into: data.assumingMemoryBound(to: Float.self), frameCount: frames), 0), frames)
            // The source may have stopped or closed the device from inside render.
            guard phase == .running, self.stream == stream else { return }
            if n > 0 {
                pa_stream_write(stream, data, n * frameBytes, nil, 0, PA_SEEK_RELATIVE)
                rendered.add(Int64(n), ordering: .releasing)
            } else {
                pa_stream_cancel_write(stream)
            }
            if n < frames { return endOfSource(stream) }
            if !startReported {
                uncork(stream)
                startReported = true
                source.device(self, didReport: .started(hostTime: HostTime.now()))
                guard phase == .running, self.stream == stream else { return }
            }
            wanted -= frames * frameBytes
        }
    }

    private func uncork(_ stream: OpaquePointer) {
        guard corked else { return }
        pulseDiscard(pa_stream_cork(stream, 0, nil, nil))
        corked = false
    }

    /// The source rendered less than asked: play out what the server has, then report.
    private func endOfSource(_ stream: OpaquePointer) {
        let source = self.source
        phase = .ending
        if !startReported {
            startReported = true
            source?.device(self, didReport: .started(hostTime: HostTime.now()))
            guard phase == .ending, self.stream == stream else { return }
        }
        startDrain(stream)
    }

    private func drained() {
        if let operation = drainOperation {
            drainOperation = nil
            pa_operation_unref(operation)
        }
        defer { connection.signal() }
        switch phase {
        case .ending:
            let source = self.source
            halt()
            source?.device(self, didReport: .stopped(drained: true))
        case .stopping:
            halt()
        default:
            break
        }
    }

    private func underflow(_ stream: OpaquePointer?) {
        guard phase == .running, startReported, stream == self.stream, let source else { return }
        source.device(self, didReport: .underrun)
    }

    private func streamChanged(_ changed: OpaquePointer?) {
        connection.signal()
        guard let stream, changed == stream else { return }
        let state = pa_stream_get_state(stream)
        if state == PA_STREAM_READY {
            fill()
        } else if PA_STREAM_IS_GOOD(state) == 0 {
            let reason = connection.isReady ? "the PulseAudio stream to \(info.name) failed: \(connection.lastError)"
                : "the PulseAudio server went away: \(connection.lastError)"
            fail(AudioDeviceError(.disconnected, reason))
        }
    }

    private func contextChanged() {
        connection.signal()
        let state = pa_context_get_state(connection.context)
        guard PA_CONTEXT_IS_GOOD(state) == 0, lost == nil, phase != .closed else { return }
        let error = AudioDeviceError(.disconnected, "the PulseAudio server went away: \(connection.lastError)")
        lost = error
        fail(error)
    }

    /// The stream or the server is gone: stop, and tell the source if it was playing.
    private func fail(_ error: AudioDeviceError) {
        let source = self.source
        let wasActive = phase == .running || phase == .ending
        cancelDrain()
        if phase != .closed { phase = .idle }
        self.source = nil
        streamUsed = true
        if wasActive, let source { source.device(self, didReport: .failed(error)) }
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
