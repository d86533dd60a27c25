public import AudioCore
public import AudioDevices
import CPulseAudio
import Synchronization

/// Records from a PulseAudio source (a microphone, or a sink's monitor such as
/// `mysink.monitor`, which records what that sink plays): a record stream of interleaved
/// 32-bit float on the process's connection to the server.
///
/// The devices of a process share one threaded main loop and one context per server,
/// connected by the first of them before its initializer returns; each has a record stream,
/// created corked. The main loop's thread is the devices' I/O thread: it hands what the
/// server sends to the sink's `capture(_:frameCount:hostTime:)`, and reports events. The
/// stream asks for fragments of `bufferFrames`, so the source and the server hand on about
/// that much at a time; the device delivers pieces of `bufferFrames` (in place when a fragment
/// holds whole pieces, else gathered), and a remainder of at least half a piece when nothing
/// more has come. That thread holds the main loop's lock while it calls the sink, so the sink
/// must not wait for anything that waits for a device on the same connection (their methods
/// take that lock).
///
/// Host times come from the server's timing information (the latest, asked for every so often
/// while recording): when it answered, it had had so many bytes from the source for the stream
/// and the source held so much more, so the frame the device reads next was recorded that much
/// before the answer, less what the device has read since. For a sink's monitor the server
/// counts until the sink plays what it records, so there the host time is when the frame is
/// played (the same clock playback runs on), which can be a little after it is delivered.
///
/// The server converts when the source's own rate or channel count differs from what the device
/// was opened with; `info.note` says so. Gaps the server marks in the stream are delivered as
/// silence of the same length. The server keeps up to a second for the stream while the I/O
/// thread is held up; beyond that it drops what the source records, which shows as a jump in the
/// host times, and the device reports `.overrun`. When the server goes away while recording,
/// it reports `.failed` with `.disconnected` and cannot be started again.
public final class PulseInputDevice: AudioInputDevice, PulseStreamOwner, @unchecked Sendable {
    public var info: AudioDeviceInfo { pulse.info }
    public var format: AudioStreamBasicDescription { pulse.format }

    private let pulse: PulseStream
    private let captured = Atomic<Int64>(0)
    /// Bytes of a piece: `bufferFrames` frames.
    private let pieceBytes: Int
    /// Gathers a piece from fragments smaller than one (some sources hand the server a few
    /// frames at a time), a frame split across fragments, fragments that are not float-aligned,
    /// and the silence of gaps.
    private let scratch: UnsafeMutableRawPointer
    /// Nanoseconds a frame lasts.
    private let frameNanoseconds: Double

    private enum Phase {
        case idle
        case running
        /// `stop(drain: true)`: delivering what the server still holds.
        case draining
        case closed
    }

    // Guarded by the main loop's lock.
    private var phase = Phase.idle
    private var sink: (any AudioCaptureSink)?
    private var startReported = false
    /// Bytes waiting in ``scratch``, and when the first of them was recorded.
    private var pending = 0
    private var pendingHostTime: UInt64 = 0
    /// When the frame after the last one delivered was recorded, by the estimate then.
    private var expectedHostTime: UInt64?
    /// When the last fragment was read.
    private var lastRead: UInt64 = 0
    /// Delivers what is gathered from the loop's thread when a draining stop begins.
    private var flushEvent: OpaquePointer?

    /// Opens `source` (nil: the server's default) for interleaved Float32 at `sampleRate` with
    /// `channels`, delivering at most `bufferFrames` frames (at least 5 ms) at a time.
    ///
    /// Connects to the server libpulse finds by default (`PULSE_SERVER`, `PULSE_RUNTIME_PATH`,
    /// the user's session), without starting one, and prepares a corked stream. Throws
    /// `.openFailed` when no server answers,
    /// `.notFound` when there is no such source and
    /// `.formatNotSupported` for a format PulseAudio
    /// cannot carry.
    public convenience init(
        source: String? = nil, sampleRate: Double, channels: Int, bufferFrames: Int,
        applicationName: String = "swift-audio-queue"
    ) throws(AudioDeviceError) {
        try self.init(source: source, sampleRate: sampleRate, channels: channels, bufferFrames: bufferFrames,
                      applicationName: applicationName, server: nil)
    }

    /// Opens `source` on the server at address `server` (nil: the one libpulse finds by default).
    /// `queueFrames` is what the server is asked to keep for the stream while the I/O thread falls
    /// behind (its `maxlength`): nil for a second, and at least four pieces.
    init(
        source: String?, sampleRate: Double, channels: Int, bufferFrames: Int, applicationName: String, server: String?,
        queueFrames: Int? = nil, channelsByIndex: Bool = false
    ) throws(AudioDeviceError) {
        pulse = try PulseStream(
            .input, name: source, sampleRate: sampleRate, channels: channels, bufferFrames: bufferFrames,
            applicationName: applicationName, server: server
        )
        pulse.channelsByIndex = channelsByIndex
        pulse.attributes.fragsize = UInt32(pulse.bufferFrames * pulse.frameBytes)
        pulse.attributes.maxlength = UInt32(max(queueFrames ?? Int(sampleRate), 4 * pulse.bufferFrames) * pulse.frameBytes)
        frameNanoseconds = 1e9 / sampleRate
        pieceBytes = pulse.bufferFrames * pulse.frameBytes
        scratch = .allocate(byteCount: pieceBytes, alignment: MemoryLayout<Float>.alignment)
        let connection = pulse.connection
        connection.withLock {
            if let event = connection.api.pointee.defer_new?(connection.api, { api, event, userdata in
                api?.pointee.defer_enable?(event, 0)
                let me = Unmanaged<PulseInputDevice>.fromOpaque(userdata!).takeUnretainedValue()
                if me.phase == .draining { me.read() }
                me.pulse.connection.signal()
            }, Unmanaged.passUnretained(self).toOpaque()) {
                connection.api.pointee.defer_enable?(event, 0)
                flushEvent = event
            }
        }
        try pulse.attach(self)
    }

    deinit {
        close()
        scratch.deallocate()
    }

    /// Starts recording into `sink` on the main loop's thread. Throws
    /// `.disconnected` once the server has gone away.
    public func start(sink: any AudioCaptureSink) throws(AudioDeviceError) {
        try pulse.withLock { () throws(AudioDeviceError) in
            switch phase {
            case .closed: throw AudioDeviceError(.invalidState, "\(info.uid) is closed")
            case .running, .draining: throw AudioDeviceError(.invalidState, "\(info.uid) is already recording")
            case .idle: break
            }
            if let lost = pulse.lost { throw lost }
            if pulse.readyStream == nil { try pulse.open() }
            guard let stream = pulse.stream else { throw AudioDeviceError(.invalidState, "\(info.uid) has no stream") }
            self.sink = sink
            phase = .running
            startReported = false
            expectedHostTime = nil
            lastRead = HostTime.now()
            pending = 0
            discardHeld(stream)
            pulse.cork(stream, false)
        }
    }

    /// Stops recording: corks the stream and drops what it holds. Once this returns the sink is
    /// not called again.
    ///
    /// With `drain`, it first asks the server how much it has recorded for the stream (a timing
    /// update: its write index, and what the source holds still) and waits, up to 100 ms, until
    /// the I/O thread has delivered that much, and what it had gathered. Called on the main loop's thread (from the sink)
    /// it does neither.
    public func stop(drain: Bool) {
        pulse.withLock {
            switch phase {
            case .running: break
            case .draining: return halt()   // another stop is draining: it ends now
            case .idle, .closed: return
            }
            guard drain, !pulse.connection.isLoopThread, let stream = pulse.readyStream else { return halt() }
            phase = .draining
            // What libpulse holds and what is gathered go first (from the loop's thread, as all
            // deliveries do).
            if let flushEvent { pulse.connection.api.pointee.defer_enable?(flushEvent, 1) }
            let deadline = HostTime.now() + PulseTimeout.recordDrain * 1000
            func remaining() -> UInt64 {
                let now = HostTime.now()
                return now < deadline ? (deadline - now) / 1000 : 0
            }
            if pulse.updateTiming(stream, timeout: remaining()), phase == .draining, pulse.stream == stream,
               let timing = pulse.timing(stream) {
                // Everything the server had from the source, and what the source held then.
                let held = Int64(pulse.frames(microseconds: min(timing.source_usec, PulseTimeout.recordDrain)) * pulse.frameBytes)
                let target = timing.write_index + held
                _ = pulse.connection.wait(timeout: remaining()) {
                    phase != .draining || pulse.stream != stream
                        || ((pulse.timing(stream)?.read_index ?? .max) >= target && pending < pulse.frameBytes)
                }
            } else {
                _ = pulse.connection.wait(timeout: remaining()) { phase != .draining || pending < pulse.frameBytes }
            }
            if phase == .draining { halt() }
        }
    }

    public var framesCaptured: Int64 { captured.load(ordering: .acquiring) }

    /// What the server granted the stream, in frames: the most it keeps for the stream while
    /// the I/O thread falls behind (`maxlength`), and the fragment it hands on at a time
    /// (`fragsize`). Nil while the stream is not ready.
    var grantedBuffer: (queueFrames: Int, fragmentFrames: Int)? {
        pulse.withLock {
            guard let stream = pulse.readyStream, let attributes = pa_stream_get_buffer_attr(stream)?.pointee else { return nil }
            return (Int(attributes.maxlength) / pulse.frameBytes, Int(attributes.fragsize) / pulse.frameBytes)
        }
    }

    /// Disconnects the stream and the context and stops the main loop. Idempotent.
    public func close() {
        pulse.withLock {
            guard phase != .closed else { return }
            phase = .closed
            sink = nil
            if let flushEvent { pulse.connection.api.pointee.defer_free?(flushEvent) }
            flushEvent = nil
        }
        pulse.close()
    }

    /// Stops at once (lock held): corks the stream and drops what the server holds.
    private func halt() {
        phase = .idle
        sink = nil
        pulse.connection.signal()
        guard let stream = pulse.readyStream else { return }
        pulse.cork(stream, true)
        pulse.flush(stream)
    }

    private var isDelivering: Bool { phase == .running || phase == .draining }

    /// How far the host time of the next frame may run ahead of where the frames delivered
    /// before it ends before that counts as frames lost: two fragments, and at least 20 ms (the
    /// estimate's jitter is a fraction of a millisecond).
    private var lossThreshold: UInt64 { UInt64(max(2 * Double(pulse.bufferFrames) * frameNanoseconds, 20_000_000)) }

    // MARK: Callbacks (on the main loop's thread, lock held)

    func pulseStreamRequest(bytes: Int) { read(held: bytes) }

    /// Hands every fragment the stream holds to the sink (or drops it when not recording), in
    /// pieces of `bufferFrames`: fragments of that size or more go straight from libpulse's
    /// memory, smaller ones are gathered until a piece is full; what is left when the stream
    /// holds no more goes too once it is half a piece (and always while draining).
    ///
    /// While recording, fragments stay in libpulse (`held` bytes) until, with what is gathered,
    /// they make half a piece: that is when the remainder would go anyway, and taking them
    /// together hands their blocks back to the server together (each block given back is a
    /// message to the server, which some sources send every few milliseconds).
    ///
    /// Frames the server had to drop (its queue for the stream holds a second) show as a jump
    /// forward in the host time of the next frame, by more than `lossThreshold`: that is
    /// reported as `.overrun`, before the frames after the gap. After a gap between fragments of
    /// more than a quarter of a second, new timing information is asked for at once, so that the
    /// jump shows where the frames were lost.
    private func read(held: Int? = nil) {
        guard let stream = pulse.stream else { return }
        let now = HostTime.now()
        if isDelivering, now > lastRead &+ 250_000_000 { pulseDiscard(pa_stream_update_timing_info(stream, nil, nil)) }
        lastRead = now
        if phase == .running, let held, pending + held < pieceBytes / 2 { return }
        // The timing information cannot change while this runs: the host time of each fragment
        // after the first follows from the bytes read since.
        var base: (hostTime: UInt64, read: Int)?
        var read = 0
        while true {
            var data: UnsafeRawPointer?
            var size = 0
            guard pa_stream_peek(stream, &data, &size) == 0, size > 0 else { break }
            if isDelivering, let sink {
                let known = base ?? (smoothedHostTime(nextFrameHostTime(stream)), read)
                base = known
                let hostTime = known.hostTime &+ UInt64(Double(read - known.read) / Double(pulse.frameBytes) * frameNanoseconds)
                if let expected = expectedHostTime, hostTime > expected &+ lossThreshold {
                    // The server's clock ran on past frames it never sent: they were lost.
                    sink.device(self, didReport: .overrun)
                    guard isDelivering, pulse.stream == stream else { return }
                }
                expectedHostTime = hostTime &+ UInt64(Double(size / pulse.frameBytes) * frameNanoseconds)
                gather(data, size, recordedAt: hostTime, to: sink)
                // The sink may have closed the device, freeing the stream, from inside capture.
                guard pulse.stream == stream else { return }
            }
            pa_stream_drop(stream)
            read += size
            if phase == .draining { pulse.connection.signal() }
        }
        // A remainder of less than half a piece waits for the next fragment, unless draining.
        if isDelivering, let sink, phase == .draining || pending >= pieceBytes / 2 { flush(to: sink) }
    }

    /// Drops what libpulse still holds for the stream from before the last stop (while recording,
    /// fragments wait there until they make half a piece).
    private func discardHeld(_ stream: OpaquePointer) {
        var data: UnsafeRawPointer?
        var size = 0
        while pa_stream_peek(stream, &data, &size) == 0, size > 0 { pa_stream_drop(stream) }
    }

    /// The host time a batch starts at: the server's estimate, followed smoothly. Within
    /// `lossThreshold` of where the frames already delivered put it, the time moves an eighth of
    /// the way to the estimate — servers that update their timing once per graph cycle
    /// (PipeWire's PulseAudio layer) move their estimates by milliseconds from read to read, and
    /// consecutive frames should not — so a drift is followed within about a second. Further
    /// off, the estimate is taken as it is: frames were lost (the caller reports the overrun) or
    /// the stream started anew.
    private func smoothedHostTime(_ estimate: UInt64) -> UInt64 {
        guard let expected = expectedHostTime else { return estimate }
        let error = Double(estimate) - Double(expected)
        guard abs(error) <= Double(lossThreshold) else { return estimate }
        return UInt64(max(0, Double(expected) + error / 8))
    }

    /// When the next frame to be read was recorded, from the server's latest timing information:
    /// at the time the server answered, it had written `write_index` bytes for the stream and the
    /// source held `source_usec` more (for a monitor, the sink plays them `sink_usec` later); the
    /// frame at `read_index` lies that many bytes before. Without timing information, now less
    /// what libpulse holds for the stream.
    private func nextFrameHostTime(_ stream: OpaquePointer) -> UInt64 {
        let now = HostTime.now()
        guard var timing = pulse.timing(stream) else {
            let held = max(0, pa_stream_readable_size(stream)) / pulse.frameBytes
            let nanoseconds = UInt64(Double(held) * frameNanoseconds)
            return now > nanoseconds ? now - nanoseconds : 0
        }
        var wall = timeval()
        pa_gettimeofday(&wall)
        // The timestamp is wall-clock time: its age is measured on that clock, and taken off now.
        let age = Double(pa_timeval_diff(&wall, &timing.timestamp)) * (pa_timeval_cmp(&wall, &timing.timestamp) >= 0 ? 1 : -1)
        let ahead = Double(timing.sink_usec) - Double(timing.source_usec)
        let behind = Double(timing.read_index - timing.write_index) / Double(pulse.frameBytes) * frameNanoseconds
        let time = Double(now) + (ahead - age) * 1000 + behind
        return time > 0 ? UInt64(time) : 0
    }

    /// Delivers `count` bytes at `data` (nil: that much silence), whose first byte was recorded
    /// at `hostTime`: whole pieces straight from `data` while nothing is gathered, the rest
    /// gathered in ``scratch``.
    private func gather(_ data: UnsafeRawPointer?, _ count: Int, recordedAt hostTime: UInt64, to sink: any AudioCaptureSink) {
        let frameBytes = pulse.frameBytes
        var offset = 0
        func time(at offset: Int) -> UInt64 { hostTime &+ UInt64(Double(offset / frameBytes) * frameNanoseconds) }
        while offset < count, isDelivering {
            let whole = (count - offset) / pieceBytes * pieceBytes
            if pending == 0, whole > 0, let data, Int(bitPattern: data + offset) % MemoryLayout<Float>.alignment == 0 {
                guard emit(data + offset, whole / frameBytes, at: time(at: offset), to: sink) else { return }
                offset += whole
                continue
            }
            if pending == 0 { pendingHostTime = time(at: offset) }
            let take = min(pieceBytes - pending, count - offset)
            if let data {
                (scratch + pending).copyMemory(from: data + offset, byteCount: take)
            } else {
                (scratch + pending).initializeMemory(as: UInt8.self, repeating: 0, count: take)
            }
            pending += take
            offset += take
            if pending == pieceBytes {
                pending = 0
                guard emit(scratch, pulse.bufferFrames, at: pendingHostTime, to: sink) else { return }
            }
        }
    }

    /// Delivers the whole frames gathered so far; keeps a partial frame for the next fragment.
    private func flush(to sink: any AudioCaptureSink) {
        let frameBytes = pulse.frameBytes
        let frames = pending / frameBytes
        guard frames > 0 else { return }
        let rest = pending - frames * frameBytes
        let time = pendingHostTime
        pending = 0
        guard emit(scratch, frames, at: time, to: sink) else { return }
        if rest > 0 {
            scratch.copyMemory(from: scratch + frames * frameBytes, byteCount: rest)
            pending = rest
            pendingHostTime = time &+ UInt64(Double(frames) * frameNanoseconds)
        }
    }

    /// Hands `frames` frames recorded from `hostTime` on to the sink, at most `bufferFrames` at a
    /// time, reporting `.started` before the first. False once the sink has stopped the device.
    private func emit(_ samples: UnsafeRawPointer, _ frames: Int, at hostTime: UInt64, to sink: any AudioCaptureSink) -> Bool {
        let piece = pulse.bufferFrames
        var done = 0
        while done < frames {
            let time = hostTime &+ UInt64(Double(done) * frameNanoseconds)
            if !startReported {
                startReported = true
                sink.device(self, didReport: .started(hostTime: time))
            }
            guard isDelivering else { return false }
            let n = min(piece, frames - done)
            let start = (samples + done * pulse.frameBytes).assumingMemoryBound(to: Float.self)
            sink.capture(start, frameCount: n, hostTime: time)
            captured.add(Int64(n), ordering: .releasing)
            done += n
        }
        return isDelivering
    }

    /// An overflow, should the server report one for a record stream (PulseAudio itself reports
    /// them for playback streams only; it drops what its queue for a record stream cannot hold).
    func pulseStreamXrun() {
        guard isDelivering, let sink else { return }
        sink.device(self, didReport: .overrun)
    }

    /// The server moved the stream to another source (it follows the default).
    func pulseStreamMoved(_ info: AudioDeviceInfo) {
        guard phase == .running, let sink else { return }
        sink.device(self, didReport: .moved(info))
    }

    /// The stream or the server is gone: stop, and tell the sink if it was recording.
    func pulseStreamFailed(_ error: AudioDeviceError) {
        let sink = self.sink
        let wasRunning = phase == .running
        if phase != .closed { phase = .idle }
        self.sink = nil
        pulse.connection.signal()
        if wasRunning, let sink { sink.device(self, didReport: .failed(error)) }
    }
}

extension PulseInputDevice: ClockPacedDevice {
    /// The server's clock paces the stream.
    package var isPacedByClock: Bool { true }
}
