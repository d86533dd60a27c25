/// Varispeed (`'vspd'`): resampling with libsoxr's variable-rate engine, so pitch follows rate
/// (1 kHz at rate 1.5 plays as 1.5 kHz). A rate change glides over 10 ms of output.
final class VarispeedProcessor: FrameQueueOutput {
    let algorithm = TimePitchAlgorithm.varispeed
    let sampleRate: Double
    let channels: Int
    private let resampler: VariableResampler
    let queue: FrameQueue
    var inputSlack: Int { 64 }
    /// A block with its NaNs and infinities replaced by silence (libsoxr's state would keep them).
    private let clean: UnsafeMutablePointer<Float>

    var rate: Double = 1 {
        didSet {
            rate = RateRange.clamp(rate)
            resampler.setRatio(rate)
        }
    }

    var pitchCents: Double = 0 {
        didSet { pitchCents = RateRange.clampCents(pitchCents) }
    }

    init?(sampleRate: Double, channels: Int) {
        guard let r = VariableResampler(channels: channels, ratio: 1, transitionFrames: max(1, Int(sampleRate / 100))) else {
            return nil
        }
        self.sampleRate = sampleRate
        self.channels = channels
        resampler = r
        queue = FrameQueue(channels: channels, capacity: TimePitch.maximumBlockFrames * 4)
        clean = .allocate(capacity: TimePitch.maximumBlockFrames * channels)
    }

    deinit { clean.deallocate() }


    func write(_ input: UnsafePointer<Float>, frames: Int) {
        guard frames > 0, !queue.finished else { return }
        queue.owe(frames, rate: rate)
        var offset = 0
        while offset < frames {
            let n = min(frames - offset, TimePitch.maximumBlockFrames)
            resampler.process(finiteSamples(input + offset * channels, count: n * channels, scratch: clean), frames: n, into: queue)
            offset += n
        }
    }

    func finish() {
        guard !queue.finished else { return }
        resampler.flush(into: queue)
        queue.finish()
    }

    func reset() {
        resampler.reset()
        queue.reset()
    }
}
