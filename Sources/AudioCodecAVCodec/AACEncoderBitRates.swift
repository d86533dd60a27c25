import AudioCore

/// The bit rates ``AACEncoder`` offers for a sampling rate and channel count, on the pattern of
/// Apple's AAC encoder, whose list for 44.1 kHz stereo is 64–320 kb/s in the steps below.
///
/// Per channel, a rate runs from 32 kb/s (at 32 kHz and above; at lower rates, 32 kb/s scaled by
/// rate / 44100, at least 8 kb/s) to 160 kb/s or 4 × the sampling rate (4096 bits per 1024-frame
/// packet), whichever is less. The second bound keeps packets within the standard's 6144 bits
/// per channel: libavcodec's rate control lets a packet overshoot its target (on full-scale
/// white noise at 8 kHz and 6 × the rate, a packet of 6304 bits). The applicable rates are the steps of
/// ``steps`` within those bounds times the channel count. The default is 64 kb/s per channel
/// scaled by rate / 44100 at rates below 44.1 kHz (128 kb/s for stereo at 44.1 and 48 kHz, as
/// Apple's encoder), taken as the nearest applicable rate.
public struct AACEncoderBitRates: Hashable, Sendable {
    /// The AAC sampling frequencies the encoder takes, 8000–96000 Hz (ISO/IEC 14496-3,
    /// Table 1.18, without 7350 Hz).
    public static let sampleRates: Set<Int> = Set(MPEG4Audio.samplingFrequencies.filter { $0 >= 8000 })

    /// The rates the applicable ones are taken from, in bits per second.
    public static let steps: [Int] = [
        8, 12, 16, 20, 24, 28, 32, 40, 48, 56, 64, 72, 80, 96, 112, 128, 144, 160, 192, 224, 256, 288, 320, 384, 448, 512,
        576, 640, 768, 896, 1024, 1152, 1280,
    ].map { $0 * 1000 }

    /// The applicable rates, ascending.
    public let values: [Int]
    /// The rate an encoder starts with.
    public let defaultRate: Int

    /// The rates for `sampleRate` Hz and `channels` channels.
    public init(sampleRate: Int, channels: Int) {
        let low = channels * (sampleRate >= 32000 ? 32000 : max(8000, sampleRate * 32000 / 44100 / 1000 * 1000))
        let high = channels * min(160_000, 4 * sampleRate)
        let values = Self.steps.filter { $0 >= low && $0 <= high }
        self.values = values.isEmpty ? [low] : values
        let wanted = channels * 64000 * min(sampleRate, 44100) / 44100
        defaultRate = Self.nearest(to: wanted, in: self.values)
    }

    /// The applicable rate nearest `bitRate` (the lower of two as near).
    public func nearest(to bitRate: Int) -> Int { Self.nearest(to: bitRate, in: values) }

    private static func nearest(to bitRate: Int, in values: [Int]) -> Int {
        values.min { abs($0 - bitRate) < abs($1 - bitRate) } ?? bitRate
    }
}
