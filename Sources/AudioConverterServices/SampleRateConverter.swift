public import AudioCodecs
import CSoxr

/// Streaming sample-rate conversion of interleaved Float32 audio over libsoxr: the stage of
/// ``AudioConverter`` that changes the sample rate.
///
/// Lengths are sample-exact over a whole stream: N input frames at rate A give exactly
/// round(N × B / A) output frames at rate B, a fraction of exactly one half rounding up (as
/// libsoxr itself rounds). The filter's delay is trimmed (libsoxr's linear-phase filters remove
/// it themselves; ``finish(into:capacity:)`` pads or cuts the last frames to the exact length),
/// so output frame j is the input at time j × A / B: a pulse at input frame k appears at output
/// frame k × B / A.
///
/// The output does not depend on how the input is split into calls, nor on how much output room
/// each call has. Equal rates pass the samples through unchanged.
///
/// Use: call ``process(_:frames:into:capacity:)`` with the input as it comes, then
/// ``finish(into:capacity:)`` until it returns 0, then ``reset()`` before the next stream.
/// Not thread-safe: one thread at a time.
public final class SampleRateConverter {
    /// The input sample rate (Hz).
    public let inputRate: Double
    /// The output sample rate (Hz).
    public let outputRate: Double
    /// Channels per frame, in and out.
    public let channels: Int
    /// The quality asked for.
    public let quality: SampleRateConverterQuality

    /// libsoxr's resampler; nil when the rates are equal (pass-through).
    private let soxr: soxr_t?
    /// Input and output rates over their greatest common divisor, when both are whole numbers.
    private let reduced: (input: Int64, output: Int64)?
    private var consumed: Int64 = 0
    private var produced: Int64 = 0
    /// ``finish(into:capacity:)`` was called: no more input until ``reset()``.
    private var ending = false

    /// A converter from `inputRate` to `outputRate` for `channels` interleaved channels.
    ///
    /// Throws `kAudioConverterErr_InputSampleRateOutOfRange` or
    /// `kAudioConverterErr_OutputSampleRateOutOfRange` for a rate that is not a positive finite
    /// number (or one libsoxr refuses), and `kAudioConverterErr_FormatNotSupported` for fewer
    /// than one channel.
    public init(inputRate: Double, outputRate: Double, channels: Int, quality: SampleRateConverterQuality) throws(AudioCodecError) {
        guard inputRate.isFinite, inputRate > 0 else {
            throw AudioCodecError(.inputSampleRateOutOfRange, "input sample rate \(inputRate) is not a positive finite number")
        }
        guard outputRate.isFinite, outputRate > 0 else {
            throw AudioCodecError(.outputSampleRateOutOfRange, "output sample rate \(outputRate) is not a positive finite number")
        }
        guard channels >= 1, channels <= Int(UInt32.max) else {
            throw AudioCodecError(.formatNotSupported, "\(channels) channels")
        }
        self.inputRate = inputRate
        self.outputRate = outputRate
        self.channels = channels
        self.quality = quality
        if let ratio = Self.alignment(inputRate: inputRate, outputRate: outputRate) {
            reduced = (Int64(ratio.inputFrames), Int64(ratio.outputFrames))
        } else {
            reduced = nil
        }
        if inputRate == outputRate {
            soxr = nil
            return
        }
        var io = soxr_io_spec(SOXR_FLOAT32_I, SOXR_FLOAT32_I)
        var spec = soxr_quality_spec(quality.soxrRecipe, 0)
        var error: soxr_error_t? = nil
        let resampler = soxr_create(inputRate, outputRate, UInt32(channels), &error, &io, &spec, nil)
        guard let resampler, error == nil else {
            if let resampler { soxr_delete(resampler) }
            let message = error.map { String(cString: $0) } ?? "soxr_create failed"
            throw AudioCodecError(.outputSampleRateOutOfRange, "libsoxr refuses \(inputRate) Hz to \(outputRate) Hz: \(message)")
        }
        soxr = resampler
    }

    deinit {
        if let soxr { soxr_delete(soxr) }
    }

    /// Whether the rates are equal and samples are copied unchanged.
    public var isPassThrough: Bool { soxr == nil }

    /// Input frames taken since the converter was made or reset.
    public var inputFramesConsumed: Int64 { consumed }
    /// Output frames written since the converter was made or reset.
    public var outputFramesProduced: Int64 { produced }

    /// Converts up to `frames` interleaved frames from `input`, writing at most `capacity` frames
    /// to `output`; what it took and what it wrote. It may take fewer frames than offered when
    /// the output is full (offer the rest again), and output can lag input by the filter's
    /// delay, which ``finish(into:capacity:)`` drains. After ``finish(into:capacity:)`` it takes
    /// nothing until ``reset()``. Allocates nothing.
    public func process(
        _ input: UnsafePointer<Float>, frames: Int, into output: UnsafeMutablePointer<Float>, capacity: Int
    ) -> (consumed: Int, produced: Int) {
        guard !ending, frames >= 0, capacity >= 0 else { return (0, 0) }
        guard let soxr else {
            let count = Swift.min(frames, capacity)
            output.update(from: input, count: count * channels)
            consumed += Int64(count)
            produced += Int64(count)
            return (count, count)
        }
        var taken = 0
        var written = 0
        let error = soxr_process(soxr, input, frames, &taken, output, capacity, &written)
        guard error == nil else { return (0, 0) }
        consumed += Int64(taken)
        produced += Int64(written)
        return (taken, written)
    }

    /// Ends the stream: writes up to `capacity` of the frames still owed and returns how many;
    /// call until it returns 0. The stream's output then holds exactly
    /// ``outputLength(forInputFrames:)`` of ``inputFramesConsumed`` frames (libsoxr's last
    /// frames cut, or silence added, to make it so). Allocates nothing.
    public func finish(into output: UnsafeMutablePointer<Float>, capacity: Int) -> Int {
        ending = true
        let owed = outputLength(forInputFrames: consumed) - produced
        guard let soxr, owed > 0, capacity > 0 else { return 0 }
        let want = Int(Swift.min(Int64(capacity), owed))
        var written = 0
        let error = soxr_process(soxr, nil, 0, nil, output, want, &written)
        if error != nil || written == 0 {
            // libsoxr has nothing more: the rest is silence.
            output.update(repeating: 0, count: want * channels)
            written = want
        }
        produced += Int64(written)
        return written
    }

    /// How many output frames a whole stream of `inputFrames` frames gives: round(N × B / A),
    /// one half rounding up (exact integer arithmetic when both rates are whole numbers).
    public func outputLength(forInputFrames inputFrames: Int64) -> Int64 {
        if soxr == nil { return inputFrames }
        if let (a, b) = reduced {
            let exact = (Int128(inputFrames) * Int128(b) * 2 + Int128(a)) / (Int128(a) * 2)
            return Int64(clamping: exact)
        }
        return Int64((Double(inputFrames) * outputRate / inputRate + 0.5).rounded(.down))
    }

    /// Room for the output of the next ``process(_:frames:into:capacity:)`` call offered `n`
    /// frames: with this much capacity it takes all `n` frames. It depends on what the converter
    /// holds, so ask before each call (or size for the largest answer); at most
    /// ⌈n × B / A⌉ + the filter's delay in output frames + 1.
    public func maximumOutputFrames(forInputFrames n: Int) -> Int {
        guard n > 0 else { return 0 }
        if soxr == nil { return n }
        // Output frame j needs input up to time j × A / B, so what has come out never runs ahead
        // of what has gone in: after the call, produced ≤ (consumed + n) × B / A.
        let ceiling = (Double(consumed) + Double(n)) * outputRate / inputRate
        let bound = Int64(ceiling.rounded(.up)) + 1 - produced
        return Int(Swift.max(bound, 0))
    }

    /// Forgets the stream: the next input starts a new one, converted exactly as the first was.
    public func reset() {
        if let soxr { soxr_clear(soxr) }
        consumed = 0
        produced = 0
        ending = false
    }

    /// The smallest input and output frame counts that span exactly the same time (44100 to
    /// 48000 Hz: 147 and 160), or nil when either rate is not a whole number of hertz (44100.5 Hz:
    /// no such point short of huge counts) or is not positive.
    ///
    /// A reader seeking to output frame m × `outputFrames` can restart a converter at input
    /// frame m × `inputFrames` − P (P a multiple of `inputFrames`, the pre-roll), drop the first
    /// P × B / A output frames and land on the same output grid as a continuous run. The frames
    /// then differ from the continuous run only by the filter's missing history; with a pre-roll
    /// of at least ``recommendedPreRoll(inputRate:outputRate:)`` input frames they agree to
    /// within 1e-6 at every quality (measured by SampleRateQualityTests.preRoll).
    public static func alignment(inputRate: Double, outputRate: Double) -> (inputFrames: Int, outputFrames: Int)? {
        let limit = Double(Int32.max)
        guard inputRate > 0, outputRate > 0, inputRate <= limit, outputRate <= limit,
              inputRate.rounded() == inputRate, outputRate.rounded() == outputRate else { return nil }
        var a = Int(inputRate), b = Int(outputRate)
        let (x, y) = (a, b)
        while b != 0 { (a, b) = (b, a % b) }
        return (x / a, y / a)
    }

    /// The pre-roll (input frames) that makes a restarted converter's output agree with a
    /// continuous run to within 1e-6 at every quality: 256 periods of the lower of the two rates,
    /// counted in input frames, rounded up to a multiple of the alignment's input frames when
    /// there is one (44.1 → 48 kHz: 294; 44.1 → 8 kHz: 1764; 8 → 96 kHz: 256).
    ///
    /// Measured (SampleRateQualityTests.preRoll, a music-like signal, largest difference over
    /// 2000 output frames): 44.1 ↔ 48 kHz agree exactly (Max) or to 1e-7 from one alignment
    /// step (147 or 160 frames) on; 44.1 → 8 kHz needs 882 input frames (Max: 1e-6 at 441);
    /// upsampling from 8 or 22.05 kHz at Max quality is still 2e-5 off after 64 input frames and
    /// within 1.3e-7 after 128 (the filter reaches further in periods of the lower rate). Min
    /// quality (cubic) needs 4 frames; 8 → 96 kHz at Min stays 5e-7 off, rounding in its phase.
    public static func recommendedPreRoll(inputRate: Double, outputRate: Double) -> Int {
        let lower = Swift.min(inputRate, outputRate)
        let frames = Int((256 * inputRate / lower).rounded(.up))
        guard let step = alignment(inputRate: inputRate, outputRate: outputRate)?.inputFrames else { return frames }
        return (frames + step - 1) / step * step
    }
}
