import AudioDevices
import CPulseAudio

/// A playback stream's position, in frames, at any host time: the queue's clock.
///
/// Built from the server's timing reports rather than libpulse's interpolated time, because a
/// server may report positions only at the granularity of its processing cycle: PipeWire's
/// PulseAudio server (0.3.65) advances a stream's read index by a whole graph quantum (2048
/// frames, 43 ms, at its null sink) when a cycle begins, and stamps the report with the time
/// of the request, so each report is ahead of what has played by anything up to a quantum.
/// libpulse fits a rate through a few such reports and runs up to 2 % fast or slow for
/// seconds at a time, then jumps. The sink's own clock does not drift (its read index keeps
/// to 48 kHz against the monotonic clock within 0.02 %).
///
/// So the clock runs at the stream's rate from the lowest offset (position less rate × host
/// time) among the latest reports: a report can only be ahead of the stream, never behind it,
/// so the lowest is the closest. A sound card whose clock drifts from the host's moves the
/// offsets slowly, and the window (16 reports, about 24 s at libpulse's 1.5 s interval)
/// follows it. The clock never goes back; while the stream does not advance (corked, not yet
/// playing, or run dry) it holds where the last report put it.
///
/// Used with the main loop's lock held.
struct PulseClock {
    private let rate: Double
    private static let window = 16
    /// The offsets of the latest reports, in frames (a ring of ``window``).
    private var offsets: [Double]
    private var count = 0
    private var next = 0
    /// Where the stream is while it does not advance.
    private var held: Double? = 0
    /// The latest position handed out: the clock never goes back.
    private var latest: Double = 0

    init(rate: Double) {
        self.rate = rate
        offsets = [Double](repeating: 0, count: Self.window)
    }

    /// A new stream: position 0, nothing reported.
    mutating func reset() {
        count = 0
        held = 0
        latest = 0
    }

    /// The stream stops advancing now (it was corked), or its timing changed (it moved to
    /// another sink): hold the position until the next report that says it advances.
    mutating func hold(at host: UInt64) {
        held = frames(at: host)
        count = 0
    }

    /// A report: the stream was at `position` at `host`, and was advancing or not.
    mutating func report(position: Double, at host: UInt64, advancing: Bool) {
        guard advancing else {
            held = position
            count = 0
            return
        }
        held = nil
        offsets[next] = position - seconds(host) * rate
        next = (next + 1) % Self.window
        count = min(count + 1, Self.window)
    }

    /// The position at `host` (at least the latest one given).
    mutating func frames(at host: UInt64) -> Double {
        var position = latest
        if let held {
            position = held
        } else if count > 0 {
            position = seconds(host) * rate + offsets[0..<count].min()!
        }
        latest = max(latest, position)
        return latest
    }

    private func seconds(_ host: UInt64) -> Double { Double(host) / 1e9 }

    /// How to work out the position at any host time without this clock: where it holds, or
    /// the offset it runs from, and the least it may say (``PublishedPosition``).
    var description: (held: Double?, offset: Double, floor: Double) {
        if let held { return (held, 0, latest) }
        guard count > 0 else { return (latest, 0, latest) }
        return (nil, offsets[0..<count].min()!, latest)
    }
}

extension PulseClock {
    /// Adds the report in `info` for a playback stream of `frameBytes`-byte frames, as
    /// libpulse's own time does: the read index, plus the time the answer took to come back,
    /// less what the sink holds; stamped with the (wall-clock) time of the request, moved to
    /// the monotonic clock. Reports on a corked stream are left out: the clock holds where
    /// it was when the stream was corked (``hold(at:)``).
    mutating func report(_ info: pa_timing_info, frameBytes: Int, corked: Bool) {
        guard info.read_index_corrupt == 0, !corked else { return }
        var timestamp = info.timestamp
        let age = pa_timeval_age(&timestamp)
        let host = HostTime.now() &- UInt64(age) &* 1000
        let position = Double(max(info.read_index, 0) / Int64(frameBytes))
            + (Double(info.transport_usec) - Double(info.sink_usec)) * rate / 1e6
        report(position: max(position, 0), at: host, advancing: info.playing != 0)
    }
}
