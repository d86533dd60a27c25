import AudioCore
public import AudioDevices
import CALSA
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An ALSA playback PCM: a sound card (`hw:0,0`, `plughw:0`), the `default` device, or any
/// PCM alsa-lib's configuration defines (`pulse`, `null`, `file:FILE=/path,FORMAT=raw`, ...).
///
/// The PCM is set up as ``ALSADevice`` says; the device converts what the source renders to
/// an integer format with rounding and clipping.
///
/// Between ``start(source:)`` and ``stop(drain:)`` a dedicated thread renders a period at a
/// time from the source and writes it to the PCM. Playback begins as soon as the first period
/// is written. Audio the source is late with is waited for while the PCM still has more than
/// two periods to play. The thread allocates nothing and takes no lock the program can hold;
/// an xrun is recovered from and reported as `AudioDeviceEvent.underrun`.
public final class ALSAOutputDevice: ALSADevice, AudioOutputDevice, @unchecked Sendable {
    /// Frames taken from the source.
    private let rendered = Atomic<Int64>(0)
    /// Frames handed to the PCM (or given up on by a stop), for the clock.
    private let written = Atomic<Int64>(0)
    private let clock: PlaybackClock

    // Used by one thread at a time: the I/O thread while it runs, else a start, stop or pause
    // (under the loop's lock, after the I/O thread has been joined).
    /// The scratch buffer holds a rendered period whose frames from `pendingFrom` to
    /// `pendingTo` are not written yet (a pause came in the middle of writing it).
    private nonisolated(unsafe) var pendingFrom = 0
    private nonisolated(unsafe) var pendingTo = 0
    /// Paused holding the PCM's buffer: the next start resumes instead of starting afresh.
    private nonisolated(unsafe) var paused = false

    /// Opens ALSA PCM `name` for playback of interleaved Float32 at `sampleRate` with `channels`.
    ///
    /// `bufferFrames` is how much audio the caller keeps ahead: the period is about a quarter
    /// of it (256 to 4096 frames) and the PCM buffers about four periods, and at least a
    /// quarter of a second when it has a clock (a sound card, a sound server's PCM).
    ///
    /// - Throws: `AudioDeviceError` `.notFound` when there is no such PCM, `.openFailed` when
    ///   it exists but cannot be opened (busy, no permission, no server), `.formatNotSupported`
    ///   when it cannot play the format even through `plughw:`.
    public init(name: String = "default", sampleRate: Double, channels: Int, bufferFrames: Int = 4096) throws(AudioDeviceError) {
        clock = PlaybackClock(sampleRate: sampleRate)
        try super.init(
            name: name, stream: .playback, sampleRate: sampleRate, channels: channels,
            periodTarget: bufferFrames > 0 ? bufferFrames / 4 : 1024, threadName: "aq.alsa.out")
    }

    /// Starts pulling from `source` on the I/O thread; after ``pause()``, first plays what the
    /// PCM held and the rest of the period being written when it paused.
    public func start(source: any AudioRenderSource) throws(AudioDeviceError) {
        try loop.start(uid: info.uid, prepare: { [self] pcm throws(AudioDeviceError) in
            let state = snd_pcm_state(pcm)
            if paused && clockless == true {
                // It holds nothing; the unwritten part of a period is still here.
            } else if paused && state == SND_PCM_STATE_PAUSED && snd_pcm_pause(pcm, 0) >= 0 {
                // Resumed where it paused.
            } else if paused && state == SND_PCM_STATE_PREPARED {
                // Paused before it reached its start threshold: what it holds is still there.
            } else {
                pendingFrom = 0
                pendingTo = 0
                try prepare()
                settleClock()
            }
            paused = false
            pacedFrames = 0
        }, body: { [self] in
            run(source: source)
        })
    }

    /// Stops pulling from the source; returns when the I/O thread no longer calls it. With
    /// `drain`, what the PCM holds plays out first (`snd_pcm_drain`), else it is dropped.
    public func stop(drain: Bool) {
        loop.stop { [self] pcm in
            paused = false
            if drain && snd_pcm_state(pcm) != SND_PCM_STATE_PAUSED {
                // The rest of the period the I/O thread was writing plays too.
                _ = snd_pcm_nonblock(pcm, 0)
                if pendingTo > pendingFrom {
                    let n = snd_pcm_writei(pcm, pcmData + pendingFrom * bytesPerFrame, snd_pcm_uframes_t(pendingTo - pendingFrom))
                    if n > 0 { written.add(Int64(n), ordering: .relaxed) }
                }
                Self.drainBlocking(pcm)
            } else {
                _ = snd_pcm_drop(pcm)
            }
            pendingFrom = 0
            pendingTo = 0
            _ = snd_pcm_prepare(pcm)
            settleClock()
        }
    }

    /// Stops pulling from the source and pauses the PCM (`snd_pcm_pause`) holding what it has,
    /// with the part of a period not yet written; the next ``start(source:)`` plays them first.
    /// A PCM that cannot pause drops what it holds, as ``stop(drain:)`` does without draining.
    public func pause() {
        loop.stop { [self] pcm in
            let state = snd_pcm_state(pcm)
            if clockless == true {
                // It holds nothing but the unwritten part of a period, which is kept.
                paused = true
            } else if state == SND_PCM_STATE_RUNNING && canPause && snd_pcm_pause(pcm, 1) >= 0 {
                paused = true
                measure()
            } else if state == SND_PCM_STATE_PREPARED || state == SND_PCM_STATE_PAUSED {
                // Not started yet (or already paused): it holds its frames as it is.
                paused = true
            } else {
                paused = false
                pendingFrom = 0
                pendingTo = 0
                _ = snd_pcm_drop(pcm)
                _ = snd_pcm_prepare(pcm)
                settleClock()
            }
        }
    }

    /// Frames rendered and not yet played: those the PCM holds (`snd_pcm_delay`, measured by
    /// the I/O thread after every write and counted down at the sample rate since) plus any
    /// rendered but not yet written. 0 when the device is stopped.
    ///
    /// It never calls into alsa-lib: some PCMs (the `pulse` plugin) lose their position when
    /// asked from another thread while the I/O thread writes.
    public var presentationDelay: Int {
        Int(clamping: max(0, rendered.load(ordering: .acquiring) - clock.playedNow()))
    }

    public var framesRendered: Int64 { rendered.load(ordering: .acquiring) }

    /// Frames rendered less those not yet played: both from what the I/O thread publishes
    /// (an atomic and the `PlaybackClock`), never a call into alsa-lib.
    public var framesPlayed: Int64 { max(0, framesRendered - Int64(presentationDelay)) }

    /// Stops without draining and closes the PCM. Calling it again does nothing.
    public func close() {
        loop.close { [self] pcm in
            _ = snd_pcm_drop(pcm)
            settleClock()
        }
    }

    // MARK: - The I/O thread

    private enum WriteResult {
        case written
        case stopRequested
        case failed(AudioDeviceError)
    }

    private func run(source: any AudioRenderSource) {
        let period = periodFrames
        var first = true
        // What a pause left unwritten goes first.
        if pendingTo > pendingFrom {
            switch write(from: pendingFrom, to: pendingTo, source: source) {
            case .written: break
            case .stopRequested: return
            case .failed(let error): return fail(error, source: source)
            }
        }
        while !loop.shouldStop {
            let n = renderPeriod(from: source, frames: period)
            rendered.add(Int64(n), ordering: .releasing)
            if n > 0 {
                if let converted = converted {
                    SampleConversion.encode(scratch, count: n * channels, into: converted, format: sampleFormat)
                }
                pendingFrom = 0
                pendingTo = n
                if loop.shouldStop { return }
                switch write(from: 0, to: n, source: source) {
                case .written: break
                case .stopRequested: return
                case .failed(let error): return fail(error, source: source)
                }
            } else if loop.shouldStop {
                return
            }
            if first {
                first = false
                source.device(self, didReport: .started(hostTime: HostTime.now()))
            }
            if n < period {
                // The stream ended: play out what was written, then stop by ourselves.
                if clockless == true {
                    pace(until: pacedFrames)
                } else {
                    Self.drainBlocking(pcm)
                }
                settleClock()
                if !loop.shouldStop {
                    source.device(self, didReport: .stopped(drained: true))
                }
                return
            }
        }
    }

    /// Renders a period into ``scratch``. Audio that is late (the source says it is on its
    /// way) is waited for while the PCM has more than two periods left to play, a few
    /// milliseconds at a time; only then does the source make up the rest with silence, as an
    /// underrun. Fewer frames than `frames` means the stream has ended (or a stop came). A
    /// PCM without a clock is paced instead: it takes what the source renders.
    private func renderPeriod(from source: any AudioRenderSource, frames: Int) -> Int {
        guard clockless == false else { return min(max(source.render(into: scratch, frameCount: frames), 0), frames) }
        var got = 0
        while true {
            let (n, ended) = source.renderAwaiting(into: scratch + got * channels, frameCount: frames - got)
            got += min(max(n, 0), frames - got)
            if got == frames || ended || loop.shouldStop { return got }
            var delay: snd_pcm_sframes_t = 0
            guard snd_pcm_delay(pcm, &delay) >= 0, delay > 2 * frames else {
                return got + min(max(source.render(into: scratch + got * channels, frameCount: frames - got), 0), frames - got)
            }
            var pause = timespec(tv_sec: 0, tv_nsec: 2_000_000)
            nanosleep(&pause, nil)
        }
    }

    private func fail(_ error: AudioDeviceError, source: any AudioRenderSource) {
        pendingFrom = 0
        pendingTo = 0
        settleClock()
        source.device(self, didReport: .failed(error))
    }

    /// Publishes how far playback has got (on the I/O thread, the only one using the PCM).
    private func measure() {
        let total = written.load(ordering: .relaxed)
        if clockless == true {
            // Frames written ahead of the clock pacing the PCM count as queued.
            let due = Int64(Double(HostTime.now() &- paceOrigin) * format.sampleRate / 1e9)
            let queued = min(max(pacedFrames - due, 0), total)
            clock.publish(played: total - queued, queued: queued, running: true)
            return
        }
        var delay: snd_pcm_sframes_t = 0
        guard snd_pcm_delay(pcm, &delay) >= 0 else { return }
        let queued = min(max(Int64(delay), 0), total)
        clock.publish(played: total - queued, queued: queued, running: snd_pcm_state(pcm) == SND_PCM_STATE_RUNNING)
    }

    /// Nothing is waiting to play: everything rendered counts as played (or dropped). Called
    /// where only one thread uses the device: on the I/O thread, or by a start or stop (with
    /// the PCM, under the loop's lock) while the I/O thread is not running.
    private func settleClock() {
        let total = rendered.load(ordering: .acquiring)
        written.store(total, ordering: .relaxed)
        clock.publish(played: total, queued: 0, running: false)
    }

    /// Writes frames `from..<to` of the rendered period (converted already if the PCM is not
    /// float); waits for room, recovers from xruns. Keeps `pendingFrom` at the first frame not
    /// yet written, so that a pause loses nothing.
    private func write(from: Int, to: Int, source: any AudioRenderSource) -> WriteResult {
        let data = UnsafeRawPointer(pcmData)
        var done = from
        while done < to {
            pendingFrom = done
            if loop.shouldStop { return .stopRequested }
            let result = snd_pcm_writei(pcm, data + done * bytesPerFrame, snd_pcm_uframes_t(to - done))
            if result >= 0 {
                done += result
                written.add(Int64(result), ordering: .relaxed)
                if result > 0 && clockless == nil { clockless = hasNoClock() }
                if clockless == true && result > 0 {
                    countPaced(result)
                    // One buffer ahead of the clock, as a sound card's buffer would be.
                    pace(until: pacedFrames - Int64(pcmBufferFrames))
                } else if result == 0 {
                    loop.waiter.wait(timeoutMilliseconds: waitTimeout)
                }
                measure()
                continue
            }
            switch handle(Int32(truncatingIfNeeded: result), transfer: "writing to") {
            case .retry:
                continue
            case .waited:
                measure()
            case .xrun:
                source.device(self, didReport: .underrun)
            case .fatal(let error):
                return .failed(error)
            }
        }
        pendingFrom = to
        return .written
    }

    /// Plays out what the PCM holds and stops it (blocking; bounded by the buffer's length).
    private static func drainBlocking(_ pcm: OpaquePointer) {
        _ = snd_pcm_nonblock(pcm, 0)
        _ = snd_pcm_drain(pcm)
        _ = snd_pcm_nonblock(pcm, 1)
    }
}

extension ALSAOutputDevice: ClockPacedDevice {
    /// The PCM's clock paces it, or the monotonic clock for a PCM without one.
    package var isPacedByClock: Bool { true }
}
