import CSoundTouchShim

/// TimeDomain (`'tido'`, and `'lqzl'`): SoundTouch's WSOLA time stretch (setTempo), pitch
/// unchanged. SoundTouch 2.3 trims its own start-up delay; what is left is aligned at the start
/// of a stream:
/// - rate > 1: SoundTouch's output runs 2.7 ms late (measured with a tone onset at 44.1 and
///   48 kHz, rates 1.25…2): those frames are dropped;
/// - rate < 1: each output sequence repeats input from the start of its input sequence, so an
///   event comes out between 0 and sequence × (1/rate − 1) early; the output is delayed by half of
///   that, which centres the error (±45 ms at rate 0.5 with SoundTouch's 90 ms sequence).
/// ``finish()`` flushes SoundTouch and trims to the exact length.
final class TimeDomainProcessor: TimePitchProcessor {
    let algorithm: TimePitchAlgorithm
    let sampleRate: Double
    let channels: Int
    private let touch: OpaquePointer
    private let queue: FrameQueue
    /// Nothing written since the stream began (alignment is set at the first write).
    private var streamStarted = false
    /// Output frames still to drop at the start of the stream.
    private var lead = 0

    var rate: Double = 1 {
        didSet {
            rate = RateRange.clamp(rate)
            stshim_set_tempo(touch, rate)
        }
    }

    var pitchCents: Double = 0 {
        didSet { pitchCents = RateRange.clampCents(pitchCents) }
    }

    init?(algorithm: TimePitchAlgorithm, sampleRate: Double, channels: Int) {
        guard sampleRate >= 8000, sampleRate <= 384_000,
            let st = stshim_create(UInt32(channels), UInt32(sampleRate.rounded()))
        else { return nil }
        touch = st
        self.algorithm = algorithm
        self.sampleRate = sampleRate
        self.channels = channels
        queue = FrameQueue(channels: channels, capacity: TimePitch.maximumBlockFrames * 8)
        stshim_set_tempo(st, 1)
    }

    deinit { stshim_destroy(touch) }

    func inputFramesNeeded(forOutput outputFrames: Int) -> Int {
        let missing = max(0, outputFrames - queue.available)
        return max(1, Int((Double(missing) * rate).rounded(.up)))
    }

    /// The sequence SoundTouch 2.3 chooses for a tempo when left to choose (its TDStretch
    /// AUTOSEQ constants: 90 ms at tempo 0.5 down to 40 ms at tempo 2; getSetting reports 0 then).
    static func sequenceSeconds(tempo: Double) -> Double {
        let ms = 90 + (40 - 90) / (2 - 0.5) * (tempo - 0.5)
        return min(90, max(40, ms)) / 1000
    }

    private func startStream() {
        streamStarted = true
        if rate > 1 {
            lead = Int((0.0027 * sampleRate).rounded())
        } else if rate < 1 {
            let sequence = Self.sequenceSeconds(tempo: rate) * sampleRate
            let delay = Int((sequence * (1 / rate - 1) / 2).rounded())
            let p = queue.reserve(delay)
            p.initialize(repeating: 0, count: delay * channels)
            queue.commit(delay)
        }
    }

    func write(_ input: UnsafePointer<Float>, frames: Int) {
        guard frames > 0, !queue.finished else { return }
        if !streamStarted { startStream() }
        queue.owe(frames, rate: rate)
        var offset = 0
        while offset < frames {
            let n = min(frames - offset, 8192)
            stshim_put(touch, input + offset * channels, UInt32(n))
            offset += n
            drain()
        }
    }

    private func drain() {
        while true {
            let ready = Int(stshim_available(touch))
            guard ready > 0 else { return }
            let out = queue.reserve(ready)
            let got = Int(stshim_receive(touch, out, UInt32(ready)))
            queue.commit(got)
            if lead > 0 { lead -= queue.discard(min(lead, got)) }
            if got == 0 { return }
        }
    }

    func finish() {
        guard !queue.finished else { return }
        if streamStarted {
            stshim_flush(touch)
            drain()
        }
        queue.finish()
    }

    var availableFrames: Int { queue.available }

    func read(into output: UnsafeMutablePointer<Float>, frames: Int) -> Int {
        queue.read(into: output, frames: frames)
    }

    func reset() {
        stshim_clear(touch)
        stshim_set_tempo(touch, rate)
        queue.reset()
        streamStarted = false
        lead = 0
    }
}
