import CSoundTouchShim

/// TimeDomain (`'tido'`, and `'lqzl'`): SoundTouch's WSOLA time stretch (setTempo), pitch
/// unchanged, with SoundTouch's speech settings (sequence 40 ms, seek window 15 ms, overlap 8 ms,
/// as `soundstretch -speech`): measured against Rubber Band R3's output they bring the
/// log-spectral distance down at rates 0.75…1.5 on speech (1.20 → 0.92 dB at 0.75) and on music
/// (5.35 → 4.53 dB), and equal the automatic settings at rate 2.
///
/// SoundTouch 2.3 trims its own start-up delay. WSOLA copies whole 40 ms sequences, so an event
/// inside a sequence comes out up to sequence × |1/rate − 1| early (rate < 1) or late (rate > 1);
/// the start of the stream is shifted by half of that (silence added before rate < 1, frames
/// dropped at rate > 1), which centres the error: ±10 ms at rate 0.75, ±20 ms at 0.5 (measured
/// with tone onsets at 44.1 and 48 kHz, within the seek window's ±7.5 ms more).
/// ``finish()`` flushes SoundTouch and trims to the exact length.
final class TimeDomainProcessor: FrameQueueOutput {
    let algorithm: TimePitchAlgorithm
    let sampleRate: Double
    let channels: Int
    private let touch: OpaquePointer
    /// A block with NaN and infinities made silence (they would spread through SoundTouch's
    /// overlap buffers for the rest of the stream).
    private let clean: UnsafeMutablePointer<Float>
    let queue: FrameQueue
    var inputSlack: Int { 0 }
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
        clean = .allocate(capacity: TimePitch.maximumBlockFrames * channels)
        stshim_set_tempo(st, 1)
        // SETTING_SEQUENCE_MS, SETTING_SEEKWINDOW_MS, SETTING_OVERLAP_MS.
        _ = stshim_set_setting(st, 3, Int32(Self.sequenceMilliseconds))
        _ = stshim_set_setting(st, 4, 15)
        _ = stshim_set_setting(st, 5, 8)
    }

    deinit {
        stshim_destroy(touch)
        clean.deallocate()
    }


    /// SoundTouch's sequence length here.
    static let sequenceMilliseconds = 40

    private func startStream() {
        streamStarted = true
        let shift = Double(Self.sequenceMilliseconds) / 1000 * sampleRate * (1 / rate - 1) / 2
        let frames = Int(abs(shift).rounded())
        if shift < 0 {
            lead = frames
        } else if frames > 0 {
            let p = queue.reserve(frames)
            p.initialize(repeating: 0, count: frames * channels)
            queue.commit(frames)
        }
    }

    func write(_ input: UnsafePointer<Float>, frames: Int) {
        guard frames > 0, !queue.finished else { return }
        if !streamStarted { startStream() }
        queue.owe(frames, rate: rate)
        var offset = 0
        while offset < frames {
            let n = min(frames - offset, TimePitch.maximumBlockFrames)
            stshim_put(touch, finiteSamples(input + offset * channels, count: n * channels, scratch: clean), UInt32(n))
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

    func reset() {
        stshim_clear(touch)
        stshim_set_tempo(touch, rate)
        queue.reset()
        streamStarted = false
        lead = 0
    }
}
