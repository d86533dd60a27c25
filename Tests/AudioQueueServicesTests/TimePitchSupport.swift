import Foundation
import AudioCore
import AudioQueueServices

/// A stand-in time/pitch processor that keeps the protocol's contract in the simplest way, so
/// that the queue's side of the seam (where rate changes fall, what is held back and given out
/// at the end, the queue's time) can be checked frame for frame: each block written comes out
/// resampled by nearest neighbour to round(Σ frames / rate) frames in all, and the last
/// `latency` frames are held back until ``finish()``.
final class StandInTimePitch: TimePitchProcessor {
    let algorithm: TimePitchAlgorithm
    let sampleRate: Double
    let channels: Int
    var rate = 1.0
    var pitchCents = 0.0
    let latency: Int
    private var out: [Float] = []
    private var head = 0
    private var owed = 0.0
    private var produced = 0
    private var finished = false

    init(algorithm: TimePitchAlgorithm = .varispeed, sampleRate: Double, channels: Int, latency: Int = 300) {
        self.algorithm = algorithm
        self.sampleRate = sampleRate
        self.channels = channels
        self.latency = latency
    }

    /// A factory for ``AudioQueue/setTimePitchProcessorFactory(_:)``.
    static func factory(latency: Int = 300) -> @Sendable (TimePitchAlgorithm, Double, Int) -> (any TimePitchProcessor)? {
        { StandInTimePitch(algorithm: $0, sampleRate: $1, channels: $2, latency: latency) }
    }

    func inputFramesNeeded(forOutput outputFrames: Int) -> Int { max(1, Int((Double(outputFrames) * rate).rounded(.up))) }

    func write(_ input: UnsafePointer<Float>, frames: Int) {
        owed += Double(frames) / rate
        let total = Int(owed.rounded())
        let k = total - produced
        guard k > 0, frames > 0 else { return }
        for j in 0..<k {
            let source = min(frames - 1, j * frames / k)
            for c in 0..<channels { out.append(input[source * channels + c]) }
        }
        produced = total
    }

    func finish() { finished = true }

    var availableFrames: Int { max(0, (out.count - head) / channels - (finished ? 0 : latency)) }

    func read(into output: UnsafeMutablePointer<Float>, frames: Int) -> Int {
        let n = min(frames, availableFrames)
        out.withUnsafeBufferPointer { output.update(from: $0.baseAddress! + head, count: n * channels) }
        head += n * channels
        return n
    }

    func reset() {
        out = []
        head = 0
        owed = 0
        produced = 0
        finished = false
    }
}

/// Interleaved samples of a sine of `frequency` Hz, amplitude 0.5, on every channel.
func sine(frequency: Double, frames: Int, channels: Int, rate: Double = 48000) -> [Float] {
    var out = [Float](repeating: 0, count: frames * channels)
    for i in 0..<frames {
        let v = Float(0.5 * sin(2 * Double.pi * frequency * Double(i) / rate))
        for c in 0..<channels { out[i * channels + c] = v }
    }
    return out
}

/// The frequency of channel 0 of `samples` over frames `range`, from its rising zero crossings
/// (interpolated between samples).
func zeroCrossingFrequency(_ samples: [Float], channels: Int, range: Range<Int>, rate: Double = 48000) -> Double {
    var first: Double?, last = 0.0, count = 0
    for i in (range.lowerBound + 1)..<range.upperBound {
        let a = samples[(i - 1) * channels], b = samples[i * channels]
        guard a < 0, b >= 0 else { continue }
        let t = Double(i - 1) + Double(-a / (b - a))
        if first == nil { first = t } else { count += 1 }
        last = t
    }
    guard let first, count > 0 else { return 0 }
    return Double(count) * rate / (last - first)
}
