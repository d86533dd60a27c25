public import AudioCore
public import AudioDevices
import CPulseAudio
import Synchronization

/// Plays through a PulseAudio sink: a playback stream of interleaved 32-bit float on the
/// process's connection to the server.
///
/// The devices of a process share one threaded main loop and one context per server,
/// connected by the first of them before its initializer returns; each has a playback stream,
/// created corked. The main loop's thread is the devices' I/O thread: the server's requests
/// for data call the source's `renderReady(into:frameCount:)` there, which renders straight
/// into the buffer that goes to the server, and events are reported from there too. A source
/// that has run dry is not asked again (the stream idles once the server has played what it
/// has) until it calls ``sourceHasAudio()``. That thread holds the main loop's lock while it
/// calls the source, so the source must not wait for anything that waits for a device on the
/// same connection (their methods take that lock).
///
/// Every ``start(source:)`` after the first plays on a fresh stream. When the server goes away
/// while the device is running it reports `.failed` with
/// `.disconnected`, and it cannot be started again.
public final class PulseOutputDevice: AudioOutputDevice, PulseStreamOwner, @unchecked Sendable {
    public var info: AudioDeviceInfo { pulse.info }
    public var format: AudioStreamBasicDescription { pulse.format }

    private let pulse: PulseStream
    private var connection: PulseConnection { pulse.connection }
    private let rendered = Atomic<Int64>(0)

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
    private var source: (any AudioRenderSource)?
    /// The source of a paused stream: it is not pulled, but hears that the stream moved.
    private var pausedSource: (any AudioRenderSource)?
    /// The current stream has played (or failed): the next start makes a new one.
    private var streamUsed = false
    private var corked = true
    private var startReported = false
    private var drainOperation: OpaquePointer?
    /// Fills the stream from the loop's thread after `start`.
    private var kick: OpaquePointer?
    /// The current stream's position, from the server's timing reports.
    private var clock: PulseClock
    /// The source ran dry (``AudioRenderSource/renderReady(into:frameCount:)`` had nothing):
    /// requests are left unanswered until ``sourceHasAudio()``, so that the server plays out
    /// what it has and the stream idles, waking nobody.
    private var parked = false
    /// This dry spell's silence has been written (``fill()``).
    private var padded = false
    /// The server ran out of what the parked source gave it: the stream is idle, waiting for
    /// its prebuffer, and a trigger starts it again when audio comes.
    private var needsTrigger = false
    /// Since when the idle stream's position has not advanced (host time), while the queue's
    /// time goes on: the sink plays silence.
    private var idleSince: UInt64?
    /// Frames of silence the sink played while the stream idled, before `idleSince`.
    private var idleFrames: Double = 0
    /// The current stream, counted: what ``position`` calls an epoch.
    private var streamCount: UInt = 0
    /// ``framesPlayed`` for any thread without the main loop's lock: published by the main
    /// loop's thread whenever what it is worked out from changes (``publishPosition()``).
    private let position: PublishedPosition
    /// When to ask the server for the stream's timing.
    private var timing: PulseTimingSchedule!

    /// Opens `sink` (nil: the server's default) for interleaved Float32 at `sampleRate` with
    /// `channels`, with a target latency of about `bufferFrames` frames.
    ///
    /// Connects to the server libpulse finds by default (`PULSE_SERVER`, `PULSE_RUNTIME_PATH`,
    /// the user's session), without starting one, and prepares a corked stream. Throws
    /// `.openFailed` when no server answers,
    /// `.notFound` when there is no such sink and
    /// `.formatNotSupported` for a format PulseAudio
    /// cannot carry.
    public convenience init(
        sink: String? = nil, sampleRate: Double, channels: Int, bufferFrames: Int,
        applicationName: String = "swift-audio-queue"
    ) throws(AudioDeviceError) {
        try self.init(sink: sink, sampleRate: sampleRate, channels: channels, bufferFrames: bufferFrames,
                      applicationName: applicationName, server: nil)
    }

    /// Opens `sink` on the server at address `server` (nil: the one libpulse finds by default);
    /// with `channelsByIndex`, channel N plays on the sink's channel N (see `PulseStream`).
    init(
        sink: String?, sampleRate: Double, channels: Int, bufferFrames: Int, applicationName: String, server: String?,
        channelsByIndex: Bool = false
    ) throws(AudioDeviceError) {
        pulse = try PulseStream(
            .output, name: sink, sampleRate: sampleRate, channels: channels, bufferFrames: bufferFrames,
            applicationName: applicationName, server: server
        )
        pulse.channelsByIndex = channelsByIndex
        clock = PulseClock(rate: sampleRate)
        position = PublishedPosition(rate: sampleRate)
        pulse.attributes = Self.bufferAttributes(
            bufferFrames: pulse.bufferFrames, frameBytes: pulse.frameBytes, sampleRate: sampleRate)
        pulse.autoTimingUpdates = false
        let connection = pulse.connection
        connection.withLock {
            timing = PulseTimingSchedule(api: connection.api) { [unowned self] in askForTiming() }
            if let event = connection.api.pointee.defer_new?(connection.api, { api, event, userdata in
                api?.pointee.defer_enable?(event, 0)
                Unmanaged<PulseOutputDevice>.fromOpaque(userdata!).takeUnretainedValue().fill()
            }, Unmanaged.passUnretained(self).toOpaque()) {
                connection.api.pointee.defer_enable?(event, 0)
                kick = event
            }
        }
        try pulse.attach(self)
    }

    deinit { close() }

    /// Starts pulling from `source` on the main loop's thread. Throws
    /// `.disconnected` once the server has gone away.
    public func start(source: any AudioRenderSource) throws(AudioDeviceError) {
        try pulse.withLock { () throws(AudioDeviceError) in
            defer { publishPosition() }
            var resuming = false
            switch phase {
            case .closed: throw AudioDeviceError(.invalidState, "\(info.uid) is closed")
            case .running, .ending: throw AudioDeviceError(.invalidState, "\(info.uid) is already running")
            case .stopping: halt()
            case .paused:
                // The corked stream still holds what was written before the pause.
                if pulse.readyStream != nil { resuming = true } else { halt() }
            case .idle: break
            }
            if let lost = pulse.lost { throw lost }
            if resuming, let stream = pulse.stream {
                self.source = source
                pausedSource = nil
                phase = pausedWhileEnding ? .ending : .running
                pausedWhileEnding = false
                parked = false
                padded = false
                // Still idle from before the pause: the queue's time runs again from now.
                if needsTrigger { idleSince = HostTime.now() }
                uncork(stream)
                if phase == .running, let kick { connection.api.pointee.defer_enable?(kick, 1) }
                // A drain that finished while paused is asked for again, to report the end.
                if phase == .ending && drainOperation == nil { startDrain(stream) }
                return
            }
            if streamUsed || pulse.stream == nil { try openStream() }
            self.source = source
            phase = .running
            parked = false
            padded = false
            startReported = false
            streamUsed = true
            if let kick { connection.api.pointee.defer_enable?(kick, 1) }
        }
    }

    /// Stops pulling. With `drain`, waits (up to 2 seconds) for the server to play what it
    /// has; without, drops it. Either way the source is not called once this returns. Called on
    /// the main loop's thread (from an event), it does not wait: the play-out finishes on its own.
    public func stop(drain: Bool) {
        pulse.withLock {
            defer { publishPosition() }
            switch phase {
            case .running:
                source = nil
                guard drain, let stream = pulse.readyStream else { return halt() }
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
        pulse.withLock {
            defer { publishPosition() }
            switch phase {
            case .running, .ending:
                // Ending: the source has ended and the server drains; the drain waits for the
                // stream to be uncorked.
                pausedWhileEnding = phase == .ending
                pausedSource = source
                source = nil
                phase = .paused
                guard let stream = pulse.readyStream else { return halt() }
                settleIdle()
                if !corked {
                    pulse.cork(stream, true)
                    corked = true
                    clock.hold(at: HostTime.now())
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
        pulse.withLock {
            guard phase != .closed, let stream = pulse.readyStream else { return 0 }
            var usec: pa_usec_t = 0
            var negative: Int32 = 0
            guard pa_stream_get_latency(stream, &usec, &negative) == 0, negative == 0 else { return 0 }
            return pulse.frames(microseconds: usec)
        }
    }

    public var framesRendered: Int64 { rendered.load(ordering: .acquiring) }

    /// The stream's playback position in microseconds (the server's clock, interpolated), or
    /// nil before the server has reported timing for the current stream.
    public var streamTime: UInt64? {
        pulse.withLock {
            guard phase != .closed, let stream = pulse.readyStream else { return nil }
            var usec: pa_usec_t = 0
            return pa_stream_get_time(stream, &usec) == 0 ? usec : nil
        }
    }

    /// Frames played by the current stream, from the server's timing reports: at the
    /// stream's rate between them, smooth even when the sink takes audio in bursts or reports
    /// positions a processing cycle at a time (PipeWire).
    ///
    /// Read without the main loop's lock (from what the loop's thread last published), so a
    /// queue may ask under its own lock while another thread holds the loop's.
    public var framesPlayed: Int64 { position.frames(at: HostTime.now()) }

    /// Runs `body` holding the lock of the main loop this device shares with every stream of
    /// the process on its server: what a client of the server waits for while another thread
    /// talks to it. For the package's tests.
    package func withMainLoopLocked<T>(_ body: () -> T) -> T { connection.withLock(body) }

    /// Publishes what ``framesPlayed`` is worked out from (lock held): after every change of
    /// the clock, the idle count, the phase or the stream.
    private func publishPosition() {
        let (held, offset, floor) = clock.description
        position.publish(PublishedPosition.Description(
            epoch: streamCount, valid: phase != .closed && pulse.readyStream != nil, held: held, offset: offset, floor: floor,
            idleFrames: idleFrames, idleSince: idleSince))
    }

    /// The source has audio again after running dry: answer the server's requests again,
    /// starting now on the main loop's thread.
    public func sourceHasAudio() {
        pulse.withLock {
            guard parked, phase == .running, let kick else { return }
            parked = false
            connection.api.pointee.defer_enable?(kick, 1)
        }
    }

    /// Ends an idle spell's count: its silence joins ``idleFrames`` (lock held).
    private func settleIdle() {
        guard let since = idleSince else { return }
        idleSince = nil
        let now = HostTime.now()
        if now > since { idleFrames += Double(now - since) * format.sampleRate / 1e9 }
    }

    /// Disconnects the stream and the context and stops the main loop. Idempotent.
    public func close() {
        pulse.withLock {
            defer { publishPosition() }
            guard phase != .closed else { return }
            phase = .closed
            source = nil
            pausedSource = nil
            cancelDrain()
            if let kick { connection.api.pointee.defer_free?(kick) }
            kick = nil
            timing.close()
        }
        pulse.close()
    }

    // MARK: The stream (lock held)

    /// A new stream for the next start.
    private func openStream() throws(AudioDeviceError) {
        cancelDrain()
        streamUsed = false
        corked = true
        clock.reset()
        parked = false
        padded = false
        needsTrigger = false
        idleSince = nil
        idleFrames = 0
        streamCount &+= 1
        defer { publishPosition() }
        try pulse.open()
    }

    /// Stops at once: drops what the server holds and corks.
    private func halt() {
        cancelDrain()
        settleIdle()
        phase = .idle
        pausedWhileEnding = false
        parked = false
        padded = false
        source = nil
        pausedSource = nil
        streamUsed = true
        guard let stream = pulse.readyStream else { return }
        pulse.cork(stream, true)
        pulse.flush(stream)
        corked = true
        clock.hold(at: HostTime.now())
    }

    private func startDrain(_ stream: OpaquePointer) {
        cancelDrain()
        uncork(stream)
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

    /// The stream's buffer: the server holds at least ``heldSeconds`` of audio (more when
    /// `bufferFrames` asks for more), starts playing once it has `bufferFrames`, and asks for
    /// more each time a quarter of `bufferFrames` has played.
    ///
    /// What the server holds is what plays while this process is not scheduled — on a busy
    /// machine its threads can wait that long for a core or for a page read back from disk —
    /// so it is not the client's decode-ahead (`bufferFrames`, what the source can give at
    /// once, which also sets the start and the refill step) but a floor of its own. The
    /// source's audio reaches the server a request at a time until it holds the target.
    static func bufferAttributes(bufferFrames: Int, frameBytes: Int, sampleRate: Double) -> pa_buffer_attr {
        let asked = UInt32(bufferFrames * frameBytes)
        let held = max(asked, UInt32((sampleRate * heldSeconds).rounded(.up)) * UInt32(frameBytes))
        return pa_buffer_attr(
            maxlength: UInt32.max, tlength: held, prebuf: asked,
            minreq: max(UInt32(frameBytes), asked / 4 / UInt32(frameBytes) * UInt32(frameBytes)), fragsize: UInt32.max
        )
    }

    /// The least the server holds for the stream: 0.17 s, what a busy machine needs (85 ms let
    /// the stream underrun under load). A target of a quarter second or more keeps a PulseAudio
    /// stream that has run dry from idling: the server holds its last frames back, and the next
    /// sound follows them with no gap.
    static let heldSeconds = 0.17

    /// Frames of a refill: what the server asks for at a time (a quarter of `bufferFrames`).
    private var refillFrames: Int { max(pulse.bufferFrames / 4, 1) }

    /// Frames the server holds for the stream and has not played: its target less what it
    /// asks for (lock held).
    private func heldFrames(_ stream: OpaquePointer, writable: Int) -> Int {
        guard let attributes = pa_stream_get_buffer_attr(stream) else { return 0 }
        return max(Int(attributes.pointee.tlength) - writable, 0) / pulse.frameBytes
    }

    // MARK: Callbacks (on the main loop's thread, lock held)

    func pulseStreamReady() { fill() }

    func pulseStreamRequest(bytes: Int) { fill() }

    /// Writes as much as the server asks for, rendered straight into its buffers.
    private func fill() {
        defer { publishPosition() }
        guard phase == .running, let source, let stream = pulse.readyStream else { return }
        let frameBytes = pulse.frameBytes
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
            let (ready, ended) = source.renderReady(into: data.assumingMemoryBound(to: Float.self), frameCount: frames)
            let n = min(max(ready, 0), frames)
            // The source may have stopped or closed the device from inside render.
            guard phase == .running, pulse.stream == stream else { return }
            if n > 0 {
                pa_stream_write(stream, data, n * frameBytes, nil, 0, PA_SEEK_RELATIVE)
                rendered.add(Int64(n), ordering: .releasing)
                padded = false
            } else if !ended && !padded && heldFrames(stream, writable: wanted) <= refillFrames {
                // Run dry, and the server is nearly out too: a refill's worth of silence, once,
                // so that a server that plays in whole periods (PipeWire's) plays the end of
                // the audio before it idles instead of holding it back until the next sound.
                // While the server still holds more, it plays that meanwhile: the source may
                // only be late.
                let silent = min(frames, refillFrames)
                data.initializeMemory(as: Float.self, repeating: 0, count: silent * frameBytes / MemoryLayout<Float>.size)
                pa_stream_write(stream, data, silent * frameBytes, nil, 0, PA_SEEK_RELATIVE)
                padded = true
            } else {
                pa_stream_cancel_write(stream)
            }
            if n > 0 && needsTrigger {
                // Back from idle: the stream waits for its prebuffer; start it now.
                needsTrigger = false
                settleIdle()
                pulseDiscard(pa_stream_trigger(stream, nil, nil))
                timing.resetRetry()
                askForTiming()
            }
            if ended { return endOfSource(stream) }
            if n == 0 {
                // Run dry: the server plays out what it has and the stream idles until the
                // source has audio again.
                parked = true
                return
            }
            if !startReported {
                uncork(stream)
                startReported = true
                source.device(self, didReport: .started(hostTime: HostTime.now()))
                guard phase == .running, pulse.stream == stream else { return }
            }
            if n < frames { return }
            wanted -= frames * frameBytes
        }
    }

    private func uncork(_ stream: OpaquePointer) {
        guard corked else { return }
        pulse.cork(stream, false)
        corked = false
        // The clock holds until a report says the stream advances: ask for one now, and
        // often at first.
        pulseDiscard(pa_stream_update_timing_info(stream, nil, nil))
        timing.restart()
    }

    /// Asks the server for the stream's timing, and arms the next request, unless the stream
    /// does not advance (corked, idle, stopped): the next start, uncork or trigger asks again.
    private func askForTiming() {
        guard phase == .running || phase == .ending || phase == .stopping, !corked, !needsTrigger,
              let stream = pulse.readyStream else { return }
        pulseDiscard(pa_stream_update_timing_info(stream, nil, nil))
        timing.next()
    }

    /// The source rendered less than asked: play out what the server has, then report.
    private func endOfSource(_ stream: OpaquePointer) {
        let source = self.source
        phase = .ending
        if !startReported {
            startReported = true
            source?.device(self, didReport: .started(hostTime: HostTime.now()))
            guard phase == .ending, pulse.stream == stream else { return }
        }
        startDrain(stream)
    }

    private func drained() {
        defer { publishPosition() }
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

    func pulseStreamTimingUpdated() {
        defer { publishPosition() }
        guard let stream = pulse.readyStream, let info = pa_stream_get_timing_info(stream)?.pointee else { return }
        clock.report(info, frameBytes: pulse.frameBytes, corked: corked)
        // Started or triggered, but not playing yet: the clock holds until a report says it
        // advances, so ask again soon, and less often the longer it waits.
        if info.playing == 0, phase == .running, !corked, !needsTrigger, startReported {
            timing.retry()
        } else if info.playing != 0 {
            timing.resetRetry()
        }
    }

    /// The server has begun to play the stream: the clock, held since the start, can run from
    /// the next report, so ask for one now and often at first. Until this, reports that say
    /// the stream does not advance yet are followed by ever longer waits (``PulseTimingSchedule/retry()``).
    func pulseStreamStarted() {
        guard phase == .running || phase == .ending, !corked, !needsTrigger, let stream = pulse.readyStream else { return }
        pulseDiscard(pa_stream_update_timing_info(stream, nil, nil))
        timing.restart()
    }

    /// The server moved the stream (it follows the default): the stream's timing changes with
    /// the sink, so the clock holds until the next report; the source hears of it.
    func pulseStreamMoved(_ info: AudioDeviceInfo) {
        defer { publishPosition() }
        if let stream = pulse.readyStream {
            clock.hold(at: HostTime.now())
            pulseDiscard(pa_stream_update_timing_info(stream, nil, nil))
            timing.restart()
        }
        let listener = phase == .running || phase == .ending ? source : phase == .paused ? pausedSource : nil
        listener?.device(self, didReport: .moved(info))
    }

    func pulseStreamXrun() {
        defer { publishPosition() }
        guard phase == .running, startReported, let source else { return }
        if parked || needsTrigger {
            // The parked source's audio has all played: the stream idles, and the queue's
            // time goes on by the host clock (the source counted the dry spell).
            if idleSince == nil {
                let now = HostTime.now()
                clock.hold(at: now)
                idleSince = now
            }
            needsTrigger = true
            return
        }
        source.device(self, didReport: .underrun)
    }

    /// The stream or the server is gone: stop, and tell the source if it was playing.
    func pulseStreamFailed(_ error: AudioDeviceError) {
        defer { publishPosition() }
        let source = self.source
        let wasActive = phase == .running || phase == .ending
        cancelDrain()
        if phase != .closed { phase = .idle }
        self.source = nil
        pausedSource = nil
        streamUsed = true
        if wasActive, let source { source.device(self, didReport: .failed(error)) }
    }
}

extension PulseOutputDevice: ClockPacedDevice {
    /// The server's clock paces the stream.
    package var isPacedByClock: Bool { true }
}
