import AudioCore
public import AudioDevices
import CALSA
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An ALSA capture PCM: a sound card (`hw:0,0`, `plughw:0`), the `default` device, or any
/// PCM alsa-lib's configuration defines (`pulse`, `null`, which records silence, ...).
///
/// The PCM is set up as ``ALSADevice`` says, with a period of the `bufferFrames` asked for;
/// integer samples are converted to Float32. Between ``start(sink:)`` and ``stop(drain:)`` a
/// dedicated thread reads a period at a time and hands it to the sink; an overrun is recovered
/// from and reported as `AudioDeviceEvent.overrun`.
///
/// Each piece's host time is estimated from `snd_pcm_delay`, read on the I/O thread right after
/// the read: the frames the PCM has captured and not yet given, so the first frame read was
/// recorded at about the time of the read less those and the frames read, at the sample rate.
/// A PCM without a clock (alsa-lib's `null`) gives any amount at once; the thread then reads at
/// the sample rate by the monotonic clock, as a card would record, and the host times are those
/// of that clock. Should the sink hold the thread up for longer than the PCM's buffer lasts,
/// that is an overrun, as on a card: the frames of that time are lost and `.overrun` reported.
public final class ALSAInputDevice: ALSADevice, AudioInputDevice, @unchecked Sendable {
    private let captured = Atomic<Int64>(0)
    /// On the I/O thread: when the frame after the last one read was recorded, by the estimate
    /// then (nil after a start or an overrun).
    private nonisolated(unsafe) var expectedHostTime: UInt64?
    /// On the I/O thread: how long the frames of the last read last.
    private nonisolated(unsafe) var previousNanoseconds = 0.0

    /// Opens ALSA PCM `name` for capture of interleaved Float32 at `sampleRate` with `channels`,
    /// delivering `bufferFrames` frames at a time (the period: 256 to 4096 frames, as near as
    /// the PCM allows; the PCM buffers about four periods).
    ///
    /// - Throws: `AudioDeviceError` `.notFound` when there is no such PCM, `.openFailed` when
    ///   it exists but cannot be opened, `.formatNotSupported` when it cannot record the format
    ///   even through `plughw:`.
    public init(name: String = "default", sampleRate: Double, channels: Int, bufferFrames: Int = 1024) throws(AudioDeviceError) {
        try super.init(
            name: name, stream: .capture, sampleRate: sampleRate, channels: channels,
            periodTarget: bufferFrames > 0 ? bufferFrames : 1024, threadName: "aq.alsa.in")
    }

    public func start(sink: any AudioCaptureSink) throws(AudioDeviceError) {
        try loop.start(uid: info.uid, prepare: { [self] pcm throws(AudioDeviceError) in
            try prepare()
            let status = snd_pcm_start(pcm)
            guard status >= 0 else { throw runtimeError(status, "cannot start ALSA PCM \(pcmName)") }
            pacedFrames = 0
            expectedHostTime = nil
        }, body: { [self] in
            run(sink: sink)
        })
    }

    /// Stops recording; returns when the I/O thread no longer calls the sink. With `drain`, the
    /// I/O thread first reads and delivers what the PCM holds (`snd_pcm_avail`; for a PCM
    /// without a clock, the frames due by the time of the stop); what is left is dropped.
    /// From the I/O thread (inside the sink) it does not drain.
    public func stop(drain: Bool) {
        loop.stop(drain: drain) { pcm in
            _ = snd_pcm_drop(pcm)
            _ = snd_pcm_prepare(pcm)
        }
    }

    public var framesCaptured: Int64 { captured.load(ordering: .acquiring) }

    /// Stops and closes the PCM. Calling it again does nothing.
    public func close() {
        loop.close { pcm in _ = snd_pcm_drop(pcm) }
    }

    // MARK: - The I/O thread

    private func run(sink: any AudioCaptureSink) {
        var first = true
        while !loop.shouldStop {
            if clockless == true {
                if pacedFrames > 0 && pacedBehind() > Int64(pcmBufferFrames) {
                    // A card would have overrun its buffer meanwhile: those frames are lost,
                    // and recording goes on from now.
                    pacedFrames = 0
                    sink.device(self, didReport: .overrun)
                    continue
                }
                // Read no faster than a card would record.
                pace(until: pacedFrames + Int64(periodFrames))
                if loop.shouldStop { break }
            }
            switch read(periodFrames, to: sink, first: &first) {
            case .delivered, .retry: continue
            case .empty: loop.waiter.wait(timeoutMilliseconds: waitTimeout)
            case .stopped: return
            }
        }
        if loop.shouldDrain { drainHeld(to: sink, first: &first) }
    }

    private enum ReadResult {
        /// Frames were read and handed on.
        case delivered
        /// Nothing to read yet.
        case empty
        /// Interrupted, waited for the PCM, or recovered from an overrun: try again.
        case retry
        /// The sink stopped the device, or the PCM failed (reported).
        case stopped
    }

    /// Reads up to `frames` (at most a period) and hands them to the sink with their host time.
    private func read(_ frames: Int, to sink: any AudioCaptureSink, first: inout Bool) -> ReadResult {
        let result = snd_pcm_readi(pcm, pcmData, snd_pcm_uframes_t(min(frames, periodFrames)))
        if result > 0 {
            let n = min(Int(result), periodFrames)
            if clockless == nil { clockless = hasNoClock() }
            let hostTime = recordedHostTime(of: n)
            if let raw = converted { SampleConversion.decode(raw, count: n * channels, format: sampleFormat, into: scratch) }
            if first {
                first = false
                sink.device(self, didReport: .started(hostTime: hostTime))
            }
            if loop.shouldStop && !loop.shouldDrain { return .stopped }
            sink.capture(scratch, frameCount: n, hostTime: hostTime)
            captured.add(Int64(n), ordering: .releasing)
            return .delivered
        }
        if result == 0 { return .empty }
        switch handle(Int32(truncatingIfNeeded: result), transfer: "reading from") {
        case .waited, .retry:
            return .retry
        case .xrun:
            _ = snd_pcm_start(pcm)
            pacedFrames = 0
            expectedHostTime = nil
            sink.device(self, didReport: .overrun)
            return .retry
        case .fatal(let error):
            sink.device(self, didReport: .failed(error))
            return .stopped
        }
    }

    /// When the first of `frames` just read was recorded: now, less what the PCM holds still
    /// (`snd_pcm_delay`, at most the rest of its buffer) and the frames read, at the sample rate; for a PCM without a clock, the
    /// time the pacing clock gives it.
    ///
    /// A plugin's delay comes in steps and jumps (the `pulse` PCM's is libpulse's interpolated
    /// latency), so the estimate is smoothed: within half a second of where the previous read's
    /// frames end, the time moves an eighth of the way from there to the estimate (never back
    /// past the middle of those frames), so that the times advance with the frames and follow
    /// the device's clock. Farther off, the estimate is taken as it is. An overrun starts afresh.
    private func recordedHostTime(of frames: Int) -> UInt64 {
        if clockless == true {
            countPaced(frames)
            return pacedHostTime(of: pacedFrames - Int64(frames))
        }
        let now = HostTime.now()
        var delay: snd_pcm_sframes_t = 0
        if snd_pcm_delay(pcm, &delay) < 0 { delay = 0 }
        // What the PCM holds cannot be more than its buffer (a plugin may claim more: the
        // `pulse` PCM's delay is libpulse's latency estimate, far off for a while after a start).
        let held = min(max(Int(delay), 0), max(pcmBufferFrames - frames, 0))
        let back = UInt64(Double(held + frames) / format.sampleRate * 1e9)
        var time = now > back ? now - back : 0
        if let expected = expectedHostTime {
            let error = Double(time) - Double(expected)
            if abs(error) <= 500_000_000 {
                // Never back past the middle of the previous read's frames.
                time = UInt64(Double(expected) + max(error / 8, -previousNanoseconds / 2))
            }
        }
        previousNanoseconds = Double(frames) / format.sampleRate * 1e9
        expectedHostTime = time &+ UInt64(previousNanoseconds)
        return time
    }

    /// For a clockless PCM: frames due by now at the sample rate that have not been read.
    private func pacedBehind() -> Int64 {
        Int64(Double(HostTime.now() &- paceOrigin) * format.sampleRate / 1e9) - pacedFrames
    }

    /// After a draining stop: reads and delivers what the PCM holds now (for a clockless PCM,
    /// what is due by now), never more than its buffer.
    private func drainHeld(to sink: any AudioCaptureSink, first: inout Bool) {
        var held: Int
        if clockless == true {
            held = Int(clamping: max(0, pacedBehind()))
        } else {
            held = max(0, Int(snd_pcm_avail(pcm)))
        }
        held = min(held, pcmBufferFrames)
        var tries = 0
        while held > 0 && tries < 8 {
            let before = captured.load(ordering: .relaxed)
            switch read(held, to: sink, first: &first) {
            case .delivered: held -= Int(captured.load(ordering: .relaxed) - before)
            case .retry: tries += 1
            case .empty, .stopped: return
            }
        }
    }
}

extension ALSAInputDevice: ClockPacedDevice {
    /// The PCM's clock paces it, or the monotonic clock for a PCM without one.
    package var isPacedByClock: Bool { true }
}
