package import AudioCore
import Dispatch
import Locking
import Synchronization

/// How fast a device without a clock of its own consumes audio.
///
/// Either way such a device never takes silence in place of audio that is late: when its
/// source has audio on its way but not yet ready (an audio queue decoding late on a busy
/// machine, or a program still refilling a buffer in its callback), the device waits for it,
/// so that what it writes is exactly what the source rendered.
public enum AudioDevicePacing: Sendable, Hashable {
    /// At the sample rate, as a sound card would: a 10-second file takes 10 seconds. After
    /// waiting for audio that was late, the device goes on at the sample rate from then on,
    /// without hurrying to make up the time it waited: its clock stays a steady clock, and
    /// the stream ends that much later.
    case realTime
    /// As fast as the source renders. An audio queue with nothing enqueued and no callback
    /// outstanding (a program that has paused its stream of its own accord) fills that gap
    /// with silence, which an unpaced device takes as fast as it can.
    case unpaced
}

/// The I/O loop shared by the devices that have no hardware behind them: pulls periods from
/// the source on its own thread, paced by the monotonic clock, and hands each to `consume`.
///
/// It asks with ``AudioRenderSource/renderAwaiting(into:frameCount:)``: a period the source
/// cannot complete yet is waited for, never filled with silence — woken by
/// ``sourceHasAudio()``, else looking again every few milliseconds at first and less often
/// as the wait goes on — until the period is complete, the stream ends or the loop is
/// stopped. There is no limit on the wait: the device has no clock to miss, and any limit is
/// one a machine busy enough exceeds. A source whose audio never comes (a program whose
/// callback never returns) holds the device until it is stopped, as it holds the program.
/// Real-time pacing starts again from the end of a wait (see ``AudioDevicePacing/realTime``).
package final class PacedIOLoop: @unchecked Sendable {
    let format: AudioStreamBasicDescription
    package let pacing: AudioDevicePacing
    let periodFrames: Int
    private let channels: Int
    private let state = Guarded<(thread: IOThread?, generation: Int)>((nil, 0))
    private let running = Atomic<Bool>(false)
    private let rendered = Atomic<Int64>(0)
    private let scratch: UnsafeMutablePointer<Float>
    /// Set while the loop waits for its source; whoever clears it signals ``wakeUp``.
    private let waiting = Atomic<Bool>(false)
    private let wakeUp = DispatchSemaphore(value: 0)
    /// Times the loop has found its source not ready and waited, each look counted, since it
    /// was made (for the package's tests).
    private let waits = Atomic<Int>(0)

    package init(format: AudioStreamBasicDescription, pacing: AudioDevicePacing, periodFrames: Int) {
        self.format = format
        self.pacing = pacing
        self.periodFrames = max(16, periodFrames)
        channels = Int(format.channelsPerFrame)
        scratch = .allocate(capacity: self.periodFrames * channels)
        scratch.initialize(repeating: 0, count: self.periodFrames * channels)
    }

    deinit { scratch.deallocate() }

    package var framesRendered: Int64 { rendered.load(ordering: .acquiring) }

    /// How many times the loop has found its source not ready and waited (each look counts:
    /// the count goes on rising while a wait lasts).
    package var waitCount: Int { waits.load(ordering: .acquiring) }

    /// Wakes the loop if it waits for its source (from any thread but the loop's).
    package func sourceHasAudio() {
        if waiting.exchange(false, ordering: .acquiringAndReleasing) { wakeUp.signal() }
    }

    /// What the running loop's thread got from the scheduler; nil while stopped or starting.
    package var threadScheduling: ThreadScheduling? { state.withLock { $0.thread?.scheduling } }

    /// Starts the loop. `consume` gets each period's samples (on the I/O thread); `finish`
    /// runs on the I/O thread when the source ends, before `.stopped(drained: true)` is reported.
    package func start(
        device: any AudioOutputDevice, source: any AudioRenderSource,
        consume: @escaping @Sendable (UnsafeBufferPointer<Float>) throws(AudioDeviceError) -> Void,
        finish: @escaping @Sendable () -> Void
    ) throws(AudioDeviceError) {
        try state.withLock { s throws(AudioDeviceError) in
            guard s.thread == nil else { throw AudioDeviceError(.invalidState, "\(device.info.uid) is already running") }
            running.store(true, ordering: .releasing)
            let period = periodFrames, channels = self.channels, rate = format.sampleRate
            let scratch = UnsafeMutableBufferPointer(start: self.scratch, count: period * channels)
            nonisolated(unsafe) let buffer = scratch
            // How long a wait lasts when nobody says the audio is ready: a quarter of a period,
            // between 1 and 5 ms, doubling while the wait goes on, up to 50 ms.
            let firstPoll = min(max(Double(period) / rate * 0.25e9, 1e6), 5e6)
            // Paced, the loop sleeps between periods (and waits for late audio): real-time.
            // Unpaced, it never sleeps but to wait for late audio: normal scheduling.
            s.thread = try IOThread(name: "aq.\(device.info.backend)", priority: pacing == .realTime ? .deviceIO : .normal) { [self] in
                // Real-time pacing: frame `paced` plays at `anchor` plus its time at the rate.
                var anchor = HostTime.now()
                var paced: Int64 = 0
                var first = true
                func time(of frames: Int64) -> UInt64 { anchor + UInt64(Double(frames) / rate * 1e9) }
                while running.load(ordering: .acquiring) {
                    var n = 0
                    var ended = false
                    var waited = false
                    var poll = firstPoll
                    while true {
                        let (got, end) = source.renderAwaiting(into: buffer.baseAddress! + n * channels, frameCount: period - n)
                        n += min(max(got, 0), period - n)
                        if end || n == period {
                            ended = end
                            break
                        }
                        // The rest is on its way: wait for it rather than play silence.
                        waits.add(1, ordering: .releasing)
                        waited = true
                        waiting.store(true, ordering: .releasing)
                        _ = wakeUp.wait(timeout: .now() + .nanoseconds(Int(poll)))
                        waiting.store(false, ordering: .releasing)
                        poll = min(poll * 2, 50e6)
                        guard running.load(ordering: .acquiring) else { return }
                    }
                    if n > 0 {
                        do throws(AudioDeviceError) {
                            try consume(UnsafeBufferPointer(rebasing: buffer[0..<(n * channels)]))
                        } catch {
                            running.store(false, ordering: .releasing)
                            source.device(device, didReport: .failed(error))
                            return
                        }
                        rendered.add(Int64(n), ordering: .releasing)
                    }
                    if first {
                        // The first period has been handed over (and counted).
                        first = false
                        source.device(device, didReport: .started(hostTime: HostTime.now()))
                    }
                    if waited {
                        // What was waited for plays from now: the pacing does not hurry to
                        // make up for the wait.
                        anchor = HostTime.now()
                        paced = 0
                    }
                    paced += Int64(n)
                    if ended {
                        running.store(false, ordering: .releasing)
                        // The last frames "play" before the device reports it drained.
                        if pacing == .realTime { HostTime.sleep(until: time(of: paced)) }
                        finish()
                        source.device(device, didReport: .stopped(drained: true))
                        return
                    }
                    if pacing == .realTime { HostTime.sleep(until: time(of: paced)) }
                }
            }
        }
    }

    /// Stops the loop and waits for it (unless called from the loop itself). Returns true when
    /// the loop was still running, i.e. the stop was not the source ending.
    @discardableResult
    package func stop() -> Bool {
        let wasRunning = running.exchange(false, ordering: .acquiringAndReleasing)
        sourceHasAudio()
        let thread = state.withLock { s in
            let t = s.thread
            s.thread = nil
            return t
        }
        if let thread, !thread.isCurrent { thread.join() }
        return wasRunning
    }
}
