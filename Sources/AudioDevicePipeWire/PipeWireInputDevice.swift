public import AudioCore
public import AudioDevices
import CPipeWire
import Locking
import Synchronization

/// Records through PipeWire: a capture `pw_stream` on the process's connection, linked by the
/// session manager to a node (a source, or a sink's monitor) or to the default.
///
/// The stream's `process` callback runs on PipeWire's data thread (the device's I/O thread):
/// it converts each buffer the graph delivers (whatever the quantum) to Float32 in a buffer
/// made at opening and hands it to the sink in pieces of at most the `bufferFrames` the device
/// was opened with, each stamped with the host time its first frame was recorded: the cycle's
/// time less the graph's delay from the device and the frames of the buffer. It takes no lock
/// but the device's own, briefly, and does not allocate.
public final class PipeWireInputDevice: AudioInputDevice, PipeWireStreamDevice, @unchecked Sendable {
    /// The device: the node the stream is linked to once the graph has seen it (PipeWireGraph).
    public var info: AudioDeviceInfo { base.info }
    public let format: AudioStreamBasicDescription
    /// The sample format the stream carries (the device converts it to Float32).
    public let sampleFormat: PipeWireSampleFormat

    /// The stream, the state and the graph's watch (PipeWireStreamDevice.swift).
    let base: PipeWireStreamBase<State>
    private let captured = Atomic<Int64>(0)
    private let channels: Int
    private let pieceFrames: Int
    private let scratch: UnsafeMutablePointer<Float>

    enum Phase { case idle, running, closed }

    struct State: PipeWireDeviceState {
        var phase = Phase.idle
        var sink: (any AudioCaptureSink)?
        /// The data thread is in the sink's capture.
        var capturing = false
        var startReported = false
        /// Cycles delivered since the latest start (a draining stop waits for one more).
        var cycles = 0
        var lastTicks: UInt64 = 0
        var lastFrames: Double = 0
        var lost: AudioDeviceError?

        var inClient: Bool { capturing }

        mutating func close() -> Bool {
            guard phase != .closed else { return false }
            phase = .closed
            sink = nil
            return true
        }

        mutating func endRun() -> (ended: Bool, client: (any AudioCaptureSink)?) {
            guard phase == .running else { return (false, nil) }
            defer { sink = nil }
            phase = .idle
            return (true, sink)
        }

        var listener: (any AudioCaptureSink)? { phase == .running ? sink : nil }
    }

    /// Opens node `source` (nil: the default; `<sink>.monitor`: what the sink plays) for
    /// interleaved Float32 at `sampleRate` with `channels`, carried as `sampleFormat`, with a
    /// quantum of about `bufferFrames` frames (`node.latency`). Throws `.openFailed` when no
    /// PipeWire server answers, `.formatNotSupported` for a format PipeWire cannot carry.
    public convenience init(
        source: String? = nil, sampleRate: Double, channels: Int, bufferFrames: Int, sampleFormat: PipeWireSampleFormat = .float32,
        channelsByIndex: Bool = false, applicationName: String = "swift-audio-queue"
    ) throws(AudioDeviceError) {
        try self.init(
            source: source, sampleRate: sampleRate, channels: channels, bufferFrames: bufferFrames, sampleFormat: sampleFormat,
            channelsByIndex: channelsByIndex, applicationName: applicationName, remote: nil)
    }

    /// Opens the device on the server at `remote` (a socket path; nil: the default server).
    package init(
        source: String?, sampleRate: Double, channels: Int, bufferFrames: Int, sampleFormat: PipeWireSampleFormat,
        channelsByIndex: Bool, applicationName: String, remote: String?
    ) throws(AudioDeviceError) {
        base = PipeWireStreamBase(info: AudioDeviceInfo(
            backend: "pipewire", name: source ?? "default", description: source ?? "PipeWire default input", direction: .input,
            isDefault: source == nil))
        format = .deviceFloat(sampleRate: sampleRate, channels: channels)
        self.sampleFormat = sampleFormat
        self.channels = max(channels, 1)
        pieceFrames = min(max(bufferFrames, 1), 8192)
        // The largest buffer a graph hands out (its quantum limit) fits.
        scratch = .allocate(capacity: 8192 * 2 * max(channels, 1))
        try base.open(
            .input, target: source, sampleRate: sampleRate, channels: channels, bufferFrames: bufferFrames, sampleFormat: sampleFormat,
            channelsByIndex: channelsByIndex, applicationName: applicationName, remote: remote, device: self)
    }

    deinit {
        close()
        scratch.deallocate()
    }

    /// Starts recording into `sink` on the data thread. Throws `.disconnected` once the server
    /// has gone away.
    public func start(sink: any AudioCaptureSink) throws(AudioDeviceError) {
        try state.withLock { (s: inout State) throws(AudioDeviceError) in
            switch s.phase {
            case .closed: throw AudioDeviceError(.invalidState, "\(info.uid) is closed")
            case .running: throw AudioDeviceError(.invalidState, "\(info.uid) is already running")
            case .idle: break
            }
            if let lost = s.lost { throw lost }
            s.sink = sink
            s.phase = .running
            s.startReported = false
            s.cycles = 0
            s.lastTicks = 0
        }
        context?.withLock {
            stream.flush()
            stream.setActive(true)
        }
    }

    /// Stops recording. With `drain`, what the graph recorded before the call is delivered
    /// first (the next cycle, up to 100 ms). Once this returns the sink is not called again.
    public func stop(drain: Bool) {
        let onIOThread = base.onIOThread
        let wasRunning = state.withLock { s -> Bool in
            guard s.phase == .running else { return false }
            if drain && !onIOThread {
                let target = s.cycles + 1
                let deadline = HostTime.now() + 100_000_000
                while s.phase == .running && s.cycles < target && HostTime.now() < deadline { state.wait(timeoutNanos: 10_000_000) }
            }
            guard s.phase == .running else { return false }
            s.phase = .idle
            s.sink = nil
            if !onIOThread { while s.capturing { state.wait(timeoutNanos: 10_000_000) } }
            return true
        }
        guard wasRunning else { return }
        if onIOThread { return stream.settleStopSoon() }
        context?.withLock { stream.setActive(false) }
    }

    public var framesCaptured: Int64 { captured.load(ordering: .relaxed) }

    /// Destroys the stream. Idempotent.
    public func close() { closeStream() }

    func settle(_ s: inout State) {}

    func tell(_ sink: any AudioCaptureSink, _ event: AudioDeviceEvent) {
        sink.device(self, didReport: event)
    }

    // MARK: The data thread

    func pipeWireProcess() {
        base.process { cycle in deliver(cycle) }
    }

    /// Hands what the cycle's buffer holds to the sink and queues the buffer.
    private func deliver(_ cycle: PipeWireCycle) {
        defer { cycle.queue() }
        let (data, chunk, maxsize) = (cycle.data, cycle.chunk, cycle.maxsize)
        let frameBytes = stream.frameBytes
        let offset = Int(chunk.pointee.offset) % max(maxsize, 1)
        let frames = min(Int(chunk.pointee.size), maxsize - offset) / frameBytes
        let time = stream.time()
        let rate = format.sampleRate
        var overrun = false
        var first = HostTime.now() &- UInt64(Double(frames) * 1e9 / rate)
        let (sink, reportStart) = state.withLock { s -> ((any AudioCaptureSink)?, Bool) in
            guard s.phase == .running, let sink = s.sink else { return (nil, false) }
            s.capturing = true
            if let time, time.rate.denom > 0, time.now > 0 {
                // Recorded before the cycle began, less the graph's delay from the device.
                let at = Double(time.now) - time.nanoseconds(ofTicks: time.delay) - Double(frames) * 1e9 / rate
                first = UInt64(max(at, 0))
                if s.lastTicks > 0, Double(time.ticks &- s.lastTicks) > 2.5 * s.lastFrames { overrun = true }
                s.lastTicks = time.ticks
                s.lastFrames = Double(frames) * Double(time.rate.denom) / Double(max(time.rate.num, 1)) / rate
            }
            defer { s.startReported = true }
            return (sink, !s.startReported)
        }
        guard let sink else { return }
        if reportStart { sink.device(self, didReport: .started(hostTime: first)) }
        if overrun { sink.device(self, didReport: .overrun) }
        var done = 0
        let limit = min(pieceFrames, 8192 * 2)
        while done < frames {
            let n = min(frames - done, limit)
            sampleFormat.decode(UnsafeRawPointer(data) + offset + done * frameBytes, to: scratch, count: n * channels)
            sink.capture(scratch, frameCount: n, hostTime: first &+ UInt64(Double(done) * 1e9 / rate))
            captured.add(Int64(n), ordering: .relaxed)
            done += n
        }
        state.withLock { s in
            s.capturing = false
            s.cycles += 1
            state.broadcast()
        }
    }

    // MARK: The loop's thread (its lock held)

    func pipeWireDrained() {}

    func pipeWireSettleStop() {
        if state.withLock({ $0.phase == .idle }) { stream.setActive(false) }
    }
}

extension PipeWireInputDevice: ClockPacedDevice {
    /// The server's clock paces the stream.
    package var isPacedByClock: Bool { true }
}
