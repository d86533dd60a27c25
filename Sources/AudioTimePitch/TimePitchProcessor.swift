/// The three ways an audio queue changes playback rate and pitch (Apple's
/// `kAudioQueueProperty_TimePitchAlgorithm` values), as an open set.
public struct TimePitchAlgorithm: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// Apple's four-character code.
    public var rawValue: UInt32
    /// The algorithm whose code is `rawValue`, known or not.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// `kAudioQueueTimePitchAlgorithm_Spectral` (`'spec'`): highest quality, for music; the only
    /// one that shifts pitch independently of rate.
    public static let spectral = TimePitchAlgorithm(rawValue: 0x7370_6563)
    /// `kAudioQueueTimePitchAlgorithm_TimeDomain` (`'tido'`): modest quality, cheaper; suits speech.
    public static let timeDomain = TimePitchAlgorithm(rawValue: 0x7469_646F)
    /// `kAudioQueueTimePitchAlgorithm_Varispeed` (`'vspd'`): resampling; pitch follows rate.
    public static let varispeed = TimePitchAlgorithm(rawValue: 0x7673_7064)
    /// `kAudioQueueTimePitchAlgorithm_LowQualityZeroLatency` (`'lqzl'`): deprecated by Apple;
    /// accepted and played as ``timeDomain``.
    public static let lowQualityZeroLatency = TimePitchAlgorithm(rawValue: 0x6C71_7A6C)

    /// The algorithms a queue accepts.
    public static let allCases: [TimePitchAlgorithm] = [.spectral, .timeDomain, .varispeed, .lowQualityZeroLatency]

    /// The name (`spectral`), or the code in quotes.
    public var description: String {
        switch self {
        case .spectral: "spectral"
        case .timeDomain: "timeDomain"
        case .varispeed: "varispeed"
        case .lowQualityZeroLatency: "lowQualityZeroLatency"
        default:
            "'" + String(decoding: [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: rawValue >> $0) }, as: UTF8.self) + "'"
        }
    }
}

/// A streaming time/pitch processor over interleaved Float32 audio at one sample rate and
/// channel count: the audio queue's time/pitch unit.
///
/// The contract every processor keeps:
/// - **Alignment**: output frame 0 is input frame 0 — the processor absorbs its own latency
///   (it discards its leading delay), so a click at input frame k comes out at frame ≈ k / rate.
/// - **Length**: after ``finish()``, the total output is the input's duration at the rate(s) in
///   force when each input frame was written: round(Σ framesᵢ / rateᵢ), within one frame.
/// - **Rate and pitch** may change between calls; a change applies to input written after it
///   (smoothly, without clicks).
/// - **No allocation** in ``write(_:frames:)`` and ``read(into:frames:)`` once the processor has
///   seen a first block of the largest size it will be given (``maximumBlockFrames``).
///
/// Not thread-safe: one thread at a time (the queue's render lock).
public protocol TimePitchProcessor: AnyObject {
    /// Which algorithm this is.
    var algorithm: TimePitchAlgorithm { get }
    /// The sample rate (Hz), in and out.
    var sampleRate: Double { get }
    /// Channels per frame, in and out.
    var channels: Int { get }
    /// Playback rate: output duration = input duration / rate (default 1). The queue allows
    /// 0.5 … 2; processors accept 1/32 … 32.
    var rate: Double { get set }
    /// Pitch shift in cents (−2400 … 2400, default 0). Spectral only: the others ignore it
    /// (Varispeed's pitch follows its rate).
    var pitchCents: Double { get set }
    /// Input frames to write before ``availableFrames`` reaches `outputFrames` (a hint, ≥ 1).
    func inputFramesNeeded(forOutput outputFrames: Int) -> Int
    /// Takes `frames` interleaved input frames.
    func write(_ input: UnsafePointer<Float>, frames: Int)
    /// Marks the end of the input: what the processor holds becomes available, so that the
    /// length rule holds. Further writes start a new stream only after ``reset()``.
    func finish()
    /// Output frames ready to read.
    var availableFrames: Int { get }
    /// Reads up to `frames` interleaved output frames; returns how many.
    func read(into output: UnsafeMutablePointer<Float>, frames: Int) -> Int
    /// Drops all state: the next input starts a new stream. Rate and pitch are kept.
    func reset()
}

/// Makes the processor for an algorithm.
public enum TimePitch {
    /// The largest block a queue writes or reads at once.
    public static let maximumBlockFrames = 4096

    /// A processor of `algorithm` for `channels` interleaved channels at `sampleRate`; nil for
    /// an algorithm not in ``TimePitchAlgorithm/allCases`` or a format it cannot process
    /// (1 … 16 channels, 8 … 384 kHz). Spectral is a phase vocoder with a libsoxr pitch stage,
    /// TimeDomain (and LowQualityZeroLatency) is SoundTouch, Varispeed is libsoxr's
    /// variable-rate resampler.
    public static func make(_ algorithm: TimePitchAlgorithm, sampleRate: Double, channels: Int) -> (any TimePitchProcessor)? {
        guard channels >= 1, channels <= 16, sampleRate.isFinite, sampleRate >= 8000, sampleRate <= 384_000 else { return nil }
        switch algorithm {
        case .spectral: return SpectralProcessor(sampleRate: sampleRate, channels: channels)
        case .timeDomain, .lowQualityZeroLatency:
            return TimeDomainProcessor(algorithm: algorithm, sampleRate: sampleRate, channels: channels)
        case .varispeed: return VarispeedProcessor(sampleRate: sampleRate, channels: channels)
        default: return nil
        }
    }
}
