package import AudioCore
import Locking
import Synchronization

/// How fast a device without a clock of its own consumes audio.
public enum AudioDevicePacing: Sendable, Hashable {
    /// At the sample rate, as a sound card would: a 10-second file takes 10 seconds.
    case realTime
    /// As fast as the source renders. Only for sources that never run dry: an audio queue whose
    /// decode ring is momentarily empty fills the gap with silence, and an unpaced device takes
    /// that silence as fast as it can.
    case unpaced
}

/// The I/O loop shared by the devices that have no hardware behind them: pulls periods from
/// the source on its own thread, paced by the monotonic clock, and hands each to `consume`.
package final class PacedIOLoop: @unchecked Sendable {
    let format: AudioStreamBasicDescription
    package let pacing: AudioDevicePacing
    let periodFrames: Int
    private let channels: Int
    private let state = Guarded<(thread: IOThread?, generation: Int)>((nil, 0))
    private let running = Atomic<Bool>(false)
    private let rendered = Atomic<Int64>(0)
    private let scratch: UnsafeMutablePointer<Float>

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
            // Paced, the loop sleeps between periods: real-time. Unpaced, it never sleeps.
            s.thread = try IOThread(name: "aq.\(device.info.backend)", priority: pacing == .realTime ? .deviceIO : .normal) { [self] in
                var next = HostTime.now()
                var first = true
                let nanosPerPeriod = Double(period) / rate * 1e9
                var periods = 0.0
                let origin = next
                while running.load(ordering: .acquiring) {
                    let n = min(max(source.render(into: buffer.baseAddress!, frameCount: period), 0), period)
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
                    if n < period {
                        running.store(false, ordering: .releasing)
                        if pacing == .realTime {
                            // The last frames "play" before the device reports it drained.
                            HostTime.sleep(until: origin + UInt64((periods * nanosPerPeriod) + Double(n) / rate * 1e9))
                        }
                        finish()
                        source.device(device, didReport: .stopped(drained: true))
                        return
                    }
                    if pacing == .realTime {
                        periods += 1
                        next = origin + UInt64(periods * nanosPerPeriod)
                        HostTime.sleep(until: next)
                    }
                }
            }
        }
    }

    /// Stops the loop and waits for it (unless called from the loop itself). Returns true when
    /// the loop was still running, i.e. the stop was not the source ending.
    @discardableResult
    package func stop() -> Bool {
        let wasRunning = running.exchange(false, ordering: .acquiringAndReleasing)
        let thread = state.withLock { s in
            let t = s.thread
            s.thread = nil
            return t
        }
        if let thread, !thread.isCurrent { thread.join() }
        return wasRunning
    }
}
