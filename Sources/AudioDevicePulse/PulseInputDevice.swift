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
public final class PulseInputDevice: AudioInputDevice, PulseStreamOwner, @unchecked Sendable {
    public var info: AudioDeviceInfo { pulse.info }
    public var format: AudioStreamBasicDescription { pulse.format }

    private let pulse: PulseStream
    private let captured = Atomic<Int64>(0)
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
    private var sink: (any AudioCaptureSink)?
    private var startReported = false
    /// Bytes of a partial frame waiting in ``scratch``.
    private var carry = 0

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
        pulse = try PulseStream(
            .input, name: source, sampleRate: sampleRate, channels: channels, bufferFrames: bufferFrames,
            applicationName: applicationName
        )
        pulse.attributes.fragsize = UInt32(pulse.bufferFrames * pulse.frameBytes)
        scratch = .allocate(byteCount: scratchFrames * pulse.frameBytes, alignment: MemoryLayout<Float>.alignment)
        zeros = .allocate(capacity: scratchFrames * channels)
        zeros.initialize(repeating: 0, count: scratchFrames * channels)
        try pulse.attach(self)
    }

    deinit {
        close()
        scratch.deallocate()
        zeros.deallocate()
    }

    /// Starts recording into `sink` on the main loop's thread. Throws
    /// `.disconnected` once the server has gone away.
    public func start(sink: any AudioCaptureSink) throws(AudioDeviceError) {
        try pulse.withLock { () throws(AudioDeviceError) in
            switch phase {
            case .closed: throw AudioDeviceError(.invalidState, "\(info.uid) is closed")
            case .running: throw AudioDeviceError(.invalidState, "\(info.uid) is already recording")
            case .idle: break
            }
            if let lost = pulse.lost { throw lost }
            if pulse.readyStream == nil { try pulse.open() }
            guard let stream = pulse.stream else { throw AudioDeviceError(.invalidState, "\(info.uid) has no stream") }
            self.sink = sink
            phase = .running
            startReported = false
            carry = 0
            pulse.cork(stream, false)
        }
    }

    /// Stops recording: corks the stream and drops what it holds. Once this returns the sink is
    /// not called again.
    public func stop() {
        pulse.withLock {
            guard phase == .running else { return }
            phase = .idle
            sink = nil
            guard let stream = pulse.readyStream else { return }
            pulse.cork(stream, true)
            pulse.flush(stream)
        }
    }

    public var framesCaptured: Int64 { captured.load(ordering: .acquiring) }

    /// Disconnects the stream and the context and stops the main loop. Idempotent.
    public func close() {
        pulse.withLock {
            guard phase != .closed else { return }
            phase = .closed
            sink = nil
        }
        pulse.close()
    }

    // MARK: Callbacks (on the main loop's thread, lock held)

    func pulseStreamRequest() { read() }

    /// Hands every fragment the stream holds to the sink (or drops it when not recording).
    private func read() {
        guard let stream = pulse.stream else { return }
        while true {
            var data: UnsafeRawPointer?
            var size = 0
            guard pa_stream_peek(stream, &data, &size) == 0, size > 0 else { return }
            if phase == .running, let sink {
                deliver(data, size, to: sink)
                // The sink may have closed the device, freeing the stream, from inside capture.
                guard pulse.stream == stream else { return }
            }
            pa_stream_drop(stream)
        }
    }

    /// Delivers `count` bytes at `data` (nil: that much silence) in whole frames.
    private func deliver(_ data: UnsafeRawPointer?, _ count: Int, to sink: any AudioCaptureSink) {
        var offset = 0
        if carry > 0 {
            let take = min(pulse.frameBytes - carry, count)
            copy(data, offset, take, to: scratch + carry)
            carry += take
            offset += take
            guard carry == pulse.frameBytes else { return }
            carry = 0
            emit(scratch, 1, to: sink)
        }
        while phase == .running, count - offset >= pulse.frameBytes {
            let whole = (count - offset) / pulse.frameBytes
            if let data, Int(bitPattern: data + offset) % MemoryLayout<Float>.alignment == 0 {
                emit(data + offset, whole, to: sink)
                offset += whole * pulse.frameBytes
            } else {
                let n = min(whole, scratchFrames)
                if let data {
                    scratch.copyMemory(from: data + offset, byteCount: n * pulse.frameBytes)
                    emit(scratch, n, to: sink)
                } else {
                    emit(zeros, n, to: sink)
                }
                offset += n * pulse.frameBytes
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
        sink.capture(samples.assumingMemoryBound(to: Float.self), frameCount: frames)
        captured.add(Int64(frames), ordering: .releasing)
        if !startReported && phase == .running {
            startReported = true
            sink.device(self, didReport: .started(hostTime: HostTime.now()))
        }
    }

    func pulseStreamXrun() {
        guard phase == .running, let sink else { return }
        sink.device(self, didReport: .overrun)
    }

    /// The stream or the server is gone: stop, and tell the sink if it was recording.
    func pulseStreamFailed(_ error: AudioDeviceError) {
        let sink = self.sink
        let wasRunning = phase == .running
        if phase != .closed { phase = .idle }
        self.sink = nil
        if wasRunning, let sink { sink.device(self, didReport: .failed(error)) }
    }
}
