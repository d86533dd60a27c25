public import AudioCore
public import AudioDevices
import CPipeWire
import Locking
import Synchronization

/// Plays through PipeWire: a playback `pw_stream` on the process's connection, linked by the
/// session manager to a node (a sink) or to the default.
///
/// The stream's `process` callback runs on PipeWire's data thread (the device's I/O thread):
/// it asks the source for exactly the frames the graph wants this cycle (the buffer's
/// `requested`, at most what the buffer holds) — whatever the graph's quantum, 1024, 441 or
/// 104 frames — and renders them straight into the buffer (Float32), or through a scratch
/// buffer made at opening into 16-, 24- or 32-bit integers. It takes no lock but the device's
/// own, which nothing but the device holds, and only briefly; it does not allocate.
///
/// The device's clock (``framesPlayed``) comes from `pw_stream_get_time_n` on every cycle:
/// the frame about to be queued plays at the cycle's time plus the graph's delay to the device
/// plus what the stream and its converter still hold; between cycles it runs at the stream's
/// rate. It is read without a lock.
///
/// A source that ends (renders fewer frames than asked) has what it rendered played out (the
/// stream drains) and hears `.stopped(drained: true)`. When the server goes away the running
/// device reports `.failed` with `.disconnected`, and cannot be started again.
public final class PipeWireOutputDevice: AudioOutputDevice, PipeWireStreamDevice, @unchecked Sendable {
    /// The device: the node the stream is linked to once the graph has seen it (PipeWireGraph).
    public var info: AudioDeviceInfo { base.info }
    public let format: AudioStreamBasicDescription
    /// The sample format the stream carries (the device converts Float32 to it).
    public let sampleFormat: PipeWireSampleFormat

    /// The stream, the state and the graph's watch (PipeWireStreamDevice.swift).
    let base: PipeWireStreamBase<State>
    private let clock: PipeWireClock
    private let rendered = Atomic<Int64>(0)
    private let delay = Atomic<Int>(0)
    private let channels: Int
    /// Where non-Float32 samples are rendered before they are converted.
    private let scratch: UnsafeMutablePointer<Float>
    private static let scratchFrames = 1024

    enum Phase {
        case idle, running
        /// The source ended: the stream drains, then `.stopped` is reported.
        case ending
        /// `stop(drain: true)`: the stream drains; nothing is reported.
        case stopping
        case paused, closed
    }

    /// The device's state: taken briefly by the data thread and by the device's methods.
    struct State: PipeWireDeviceState {
        var phase = Phase.idle
        var source: (any AudioRenderSource)?
        var pausedSource: (any AudioRenderSource)?
        /// The data thread is in the source's render.
        var rendering = false
        var startReported = false
        /// The current start (the clock's epoch), and the frames given to the stream in it.
        var epoch: UInt = 0
        var written: Int64 = 0
        /// The clock's description: running from `offset`, or held.
        var held: Double? = 0
        var offset: Double = 0
        /// The graph's ticks at the last cycle and the frames asked then, at the graph's rate.
        var lastTicks: UInt64 = 0
        var lastTickFrames: Double = 0
        var lost: AudioDeviceError?

        var inClient: Bool { rendering }

        mutating func close() -> Bool {
            guard phase != .closed else { return false }
            phase = .closed
            source = nil
            pausedSource = nil
            return true
        }

        mutating func endRun() -> (ended: Bool, client: (any AudioRenderSource)?) {
            guard phase == .running || phase == .ending || phase == .stopping else { return (false, nil) }
            defer { source = nil }
            phase = .idle
            return (true, source)
        }

        var listener: (any AudioRenderSource)? {
            phase == .running || phase == .ending ? source : phase == .paused ? pausedSource : nil
        }
    }

    /// Opens node `target` (nil: the default, which the stream follows) for interleaved Float32
    /// at `sampleRate` with `channels`, carried as `sampleFormat`, with a quantum of about
    /// `bufferFrames` frames (`node.latency`, between 32 and 8192). With `channelsByIndex` the
    /// channels are `AUX0`…, linked to the device's channels in order.
    ///
    /// Throws `.openFailed` when no PipeWire server answers, and `.formatNotSupported` for a
    /// rate or channel count PipeWire cannot carry.
    public convenience init(
        target: String? = nil, sampleRate: Double, channels: Int, bufferFrames: Int, sampleFormat: PipeWireSampleFormat = .float32,
        channelsByIndex: Bool = false, applicationName: String = "swift-audio-queue"
    ) throws(AudioDeviceError) {
        try self.init(
            target: target, sampleRate: sampleRate, channels: channels, bufferFrames: bufferFrames, sampleFormat: sampleFormat,
            channelsByIndex: channelsByIndex, applicationName: applicationName, remote: nil)
    }

    /// Opens the device on the server at `remote` (a socket path; nil: the default server).
    package init(
        target: String?, sampleRate: Double, channels: Int, bufferFrames: Int, sampleFormat: PipeWireSampleFormat,
        channelsByIndex: Bool, applicationName: String, remote: String?
    ) throws(AudioDeviceError) {
        base = PipeWireStreamBase(info: AudioDeviceInfo(
            backend: "pipewire", name: target ?? "default", description: target ?? "PipeWire default output", direction: .output,
            isDefault: target == nil, channels: nil, sampleRate: nil))
        format = .deviceFloat(sampleRate: sampleRate, channels: channels)
        self.sampleFormat = sampleFormat
        self.channels = max(channels, 1)
        clock = PipeWireClock(rate: sampleRate)
        scratch = .allocate(capacity: Self.scratchFrames * max(channels, 1))
        try base.open(
            .output, target: target, sampleRate: sampleRate, channels: channels, bufferFrames: bufferFrames, sampleFormat: sampleFormat,
            channelsByIndex: channelsByIndex, applicationName: applicationName, remote: remote, device: self)
    }

    deinit {
        close()
        scratch.deallocate()
    }

    /// Starts pulling from `source` on the data thread (a paused device plays on from where it
    /// paused). Throws `.disconnected` once the server has gone away.
    public func start(source: any AudioRenderSource) throws(AudioDeviceError) {
        let fresh = try state.withLock { (s: inout State) throws(AudioDeviceError) -> Bool in
            switch s.phase {
            case .closed: throw AudioDeviceError(.invalidState, "\(info.uid) is closed")
            case .running, .ending: throw AudioDeviceError(.invalidState, "\(info.uid) is already running")
            default: break
            }
            if let lost = s.lost { throw lost }
            let resuming = s.phase == .paused
            if !resuming {
                s.epoch &+= 1
                s.written = 0
                s.held = 0
                s.startReported = false
            }
            // The graph's ticks went on while the stream did not run: no underrun.
            s.lastTicks = 0
            s.pausedSource = nil
            s.source = source
            s.phase = .running
            publish(&s)
            return !resuming
        }
        context?.withLock {
            if fresh { stream.flush() }
            stream.setActive(true)
        }
    }

    /// Stops pulling. With `drain`, waits (up to 2 seconds) for what the stream holds to play;
    /// without, drops it. The source is not called once this returns. Called on the data thread
    /// (from the source), it does not wait or drain: the stream is paused soon after, on the
    /// loop's thread.
    public func stop(drain: Bool) {
        let onIOThread = base.onIOThread
        let draining = state.withLock { s -> Bool in
            switch s.phase {
            case .running, .ending, .stopping:
                s.source = nil
                s.phase = drain && !onIOThread ? .stopping : .idle
            case .paused:
                s.pausedSource = nil
                s.phase = .idle
            case .idle, .closed:
                return false
            }
            if !onIOThread { while s.rendering { state.wait(timeoutNanos: 10_000_000) } }
            if s.phase == .idle { hold(&s) }
            return s.phase == .stopping
        }
        guard !onIOThread else { return stream.settleStopSoon() }
        context?.withLock {
            if draining, let pointer = stream.pointer, stream.connection.lost == nil {
                pw_stream_flush(pointer, true)
                context?.wait(until: { state.withLock { $0.phase != .stopping } }, timeout: 2)
            }
            state.withLock { s in
                if s.phase == .stopping { s.phase = .idle }
                hold(&s)
            }
            stream.setActive(false)
            stream.flush()
        }
    }

    /// Stops pulling and pauses the stream, which keeps what it has queued: the next
    /// ``start(source:)`` plays on from there, in the same epoch of the clock.
    public func pause() {
        let paused = state.withLock { s -> Bool in
            guard s.phase == .running || s.phase == .ending else { return false }
            s.pausedSource = s.source
            s.source = nil
            s.phase = .paused
            while s.rendering { state.wait(timeoutNanos: 10_000_000) }
            hold(&s)
            return true
        }
        if paused { context?.withLock { stream.setActive(false) } }
    }

    /// Frames between what the source rendered last and what is audible: the graph's delay to
    /// the device and what the stream and its converter hold, as of the last cycle.
    public var presentationDelay: Int { delay.load(ordering: .relaxed) }

    public var framesRendered: Int64 { rendered.load(ordering: .relaxed) }

    /// Frames played (audible) since the latest start, from the stream's timing, without a lock.
    public var framesPlayed: Int64 { clock.frames(at: HostTime.now()) }

    /// Destroys the stream. Idempotent.
    public func close() { closeStream() }

    // MARK: The clock (state lock held)

    /// Publishes the clock's description.
    private func publish(_ s: inout State) {
        clock.publish(epoch: s.epoch, held: s.held, offset: s.offset, ceiling: Double(s.written))
    }

    /// Closed, or failed while running: the clock holds.
    func settle(_ s: inout State) { hold(&s) }

    func tell(_ source: any AudioRenderSource, _ event: AudioDeviceEvent) {
        source.device(self, didReport: event)
    }

    /// Holds the clock where it is now.
    private func hold(_ s: inout State) {
        if s.held == nil {
            s.held = min(Double(s.written), max(0, Double(HostTime.now()) / 1e9 * format.sampleRate + s.offset))
        }
        publish(&s)
    }

    // MARK: The data thread

    func pipeWireProcess() {
        base.process { cycle in fill(cycle) }
    }

    /// Fills the cycle's buffer from the source and queues it.
    private func fill(_ cycle: PipeWireCycle) {
        let (pointer, buffer, data, chunk) = (cycle.stream, cycle.buffer, cycle.data, cycle.chunk)
        let frameBytes = stream.frameBytes
        var frames = cycle.maxsize / frameBytes
        let requested = Int(clamping: buffer.pointee.requested)
        if requested > 0 { frames = min(frames, requested) }
        let time = stream.time()
        var underrun = false
        let source = state.withLock { s -> (any AudioRenderSource)? in
            guard s.phase == .running, let source = s.source else { return nil }
            s.rendering = true
            if let time, time.rate.denom > 0, time.now > 0 {
                // The first frame of this buffer plays after the graph's delay and what the
                // stream and its converter still hold.
                let held = Double(time.buffered) + Double(time.queued)
                let at: Double = Double(time.now) + time.nanoseconds(ofTicks: time.delay) + held * 1e9 / format.sampleRate
                s.offset = Double(s.written) - at / 1e9 * format.sampleRate
                s.held = nil
                // The graph skipped cycles (its driver stalled): the device played silence.
                if s.lastTicks > 0, s.startReported, Double(time.ticks &- s.lastTicks) > 2.5 * s.lastTickFrames { underrun = true }
                s.lastTicks = time.ticks
                s.lastTickFrames = Double(frames) * Double(time.rate.denom) / Double(max(time.rate.num, 1)) / format.sampleRate
                let graphDelay = time.nanoseconds(ofTicks: time.delay) * format.sampleRate / 1e9
                delay.store(Int(graphDelay + held), ordering: .relaxed)
            }
            return source
        }
        var got = frames
        if let source {
            got = render(source, into: data, frames: frames)
        } else {
            data.initializeMemory(as: UInt8.self, repeating: 0, count: frames * frameBytes)
        }
        // The last buffer of a source that ended is made whole with silence: the stream's
        // converter holds back a partial one (0.3.65) and would drop it when the stream drains.
        if got < frames { (data + got * frameBytes).initializeMemory(as: UInt8.self, repeating: 0, count: (frames - got) * frameBytes) }
        chunk.pointee.offset = 0
        chunk.pointee.stride = Int32(frameBytes)
        chunk.pointee.size = UInt32(frames * frameBytes)
        buffer.pointee.size = UInt64(frames)
        cycle.queue()
        guard let source else { return }
        rendered.add(Int64(got), ordering: .relaxed)
        let ended = got < frames
        let reportStart = state.withLock { s -> Bool in
            s.rendering = false
            state.broadcast()
            guard s.phase == .running else { return false }
            s.written += Int64(got)
            if ended { s.phase = .ending }
            publish(&s)
            defer { s.startReported = true }
            return !s.startReported
        }
        // The end: play out what was queued; `drained` follows on the loop's thread.
        if ended { pw_stream_flush(pointer, true) }
        if reportStart { source.device(self, didReport: AudioDeviceEvent.started(hostTime: HostTime.now())) }
        if underrun { source.device(self, didReport: AudioDeviceEvent.underrun) }
    }

    /// Renders `frames` frames into the buffer at `data`, converting through the scratch
    /// buffer for integer formats; returns the frames rendered (fewer: the source ended).
    private func render(_ source: any AudioRenderSource, into data: UnsafeMutableRawPointer, frames: Int) -> Int {
        if sampleFormat == .float32 {
            return min(max(source.render(into: data.assumingMemoryBound(to: Float.self), frameCount: frames), 0), frames)
        }
        var done = 0
        while done < frames {
            let asked = min(frames - done, Self.scratchFrames)
            let got = min(max(source.render(into: scratch, frameCount: asked), 0), asked)
            sampleFormat.encode(scratch, to: data + done * stream.frameBytes, count: got * channels)
            done += got
            if got < asked { break }
        }
        return done
    }

    // MARK: The loop's thread (its lock held)

    func pipeWireDrained() {
        let (source, report) = state.withLock { s -> ((any AudioRenderSource)?, Bool) in
            let ending = s.phase == .ending
            guard ending || s.phase == .stopping else { return (nil, false) }
            let source = s.source
            s.phase = .idle
            s.source = nil
            s.held = Double(s.written)
            publish(&s)
            return (source, ending)
        }
        if report {
            stream.setActive(false)
            stream.flush()
            source?.device(self, didReport: .stopped(drained: true))
        }
        context?.signal()
    }

    func pipeWireSettleStop() {
        guard state.withLock({ $0.phase == .idle }) else { return }
        stream.setActive(false)
        stream.flush()
    }
}

extension PipeWireOutputDevice: ClockPacedDevice {
    /// The server's clock paces the stream.
    package var isPacedByClock: Bool { true }
}
