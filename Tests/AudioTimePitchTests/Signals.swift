import AudioTimePitch
import Foundation

/// Test signals and the measurements the time/pitch tests make on the output.
enum Signals {
    /// A sine of `frequency` Hz, amplitude 0.5, the same in every channel (interleaved).
    static func sine(_ frequency: Double, sampleRate: Double, channels: Int, frames: Int, from start: Int = 0) -> [Float] {
        var out = [Float](repeating: 0, count: frames * channels)
        for i in 0..<frames where i >= start {
            let v = Float(0.5 * sin(2 * Double.pi * frequency * Double(i - start) / sampleRate))
            for c in 0..<channels { out[i * channels + c] = v }
        }
        return out
    }

    /// Silence with one full-scale sample at frame `at` in every channel.
    static func click(at: Int, channels: Int, frames: Int) -> [Float] {
        var out = [Float](repeating: 0, count: frames * channels)
        for c in 0..<channels { out[at * channels + c] = 1 }
        return out
    }

    /// Deterministic white noise (xorshift), amplitude 0.3.
    static func noise(channels: Int, frames: Int, seed: UInt64 = 0x9E37_79B9_7F4A_7C15) -> [Float] {
        var state = seed
        return (0..<(frames * channels)).map { _ in
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return Float(Double(state >> 11) / Double(1 << 53) * 0.6 - 0.3)
        }
    }

    /// Runs `input` through `processor` in blocks of `chunk` frames, setting the rate given for
    /// the first input frame of a block (`rates` maps input frames to rates), reading as it goes;
    /// finishes and returns the whole output.
    static func run(
        _ processor: any TimePitchProcessor, _ input: [Float], chunk: Int = 1024, rates: [(from: Int, rate: Double)] = []
    ) -> [Float] {
        let ch = processor.channels
        let frames = input.count / ch
        var output: [Float] = []
        var block = [Float](repeating: 0, count: 4096 * ch)
        func drain() {
            while processor.availableFrames > 0 {
                let n = block.withUnsafeMutableBufferPointer { processor.read(into: $0.baseAddress!, frames: 4096) }
                if n == 0 { break }
                output.append(contentsOf: block[0..<(n * ch)])
            }
        }
        var i = 0
        while i < frames {
            var n = min(chunk, frames - i)
            for change in rates where change.from > i && change.from < i + n { n = change.from - i }
            if let change = rates.last(where: { $0.from <= i }) { processor.rate = change.rate }
            input.withUnsafeBufferPointer { processor.write($0.baseAddress! + i * ch, frames: n) }
            drain()
            i += n
        }
        processor.finish()
        drain()
        return output
    }

    /// Channel `channel` of interleaved audio.
    static func channel(_ x: [Float], _ channel: Int, of channels: Int) -> [Float] {
        stride(from: channel, to: x.count, by: channels).map { x[$0] }
    }

    /// The frequency of a mono signal over its middle half, from its rising zero crossings
    /// (interpolated between samples).
    static func frequency(_ x: [Float], sampleRate: Double) -> Double {
        let from = x.count / 4
        let to = x.count * 3 / 4
        var first = -1.0
        var last = -1.0
        var crossings = 0
        for i in from..<(to - 1) where x[i] < 0 && x[i + 1] >= 0 {
            let t = Double(i) + Double(-x[i] / (x[i + 1] - x[i]))
            if first < 0 { first = t }
            last = t
            crossings += 1
        }
        guard crossings > 1 else { return 0 }
        return Double(crossings - 1) / (last - first) * sampleRate
    }

    /// The frame of the largest magnitude.
    static func peak(_ x: [Float]) -> Int {
        var best = 0
        for i in x.indices where abs(x[i]) > abs(x[best]) { best = i }
        return best
    }

    /// The first frame whose magnitude reaches `threshold`.
    static func onset(_ x: [Float], threshold: Float) -> Int? {
        x.firstIndex { abs($0) >= threshold }
    }

    /// 10 log10(Σ reference² / Σ (x − reference)²) over `range`.
    static func snr(_ x: [Float], _ reference: [Float], _ range: Range<Int>) -> Double {
        var signal = 0.0
        var error = 0.0
        for i in range {
            signal += Double(reference[i]) * Double(reference[i])
            let d = Double(x[i]) - Double(reference[i])
            error += d * d
        }
        return 10 * log10(signal / max(error, 1e-30))
    }

    /// The largest sample-to-sample step of a mono signal over `range` (a click shows as a jump).
    static func largestStep(_ x: [Float], _ range: Range<Int>) -> Float {
        var m: Float = 0
        for i in range.dropFirst() { m = max(m, abs(x[i] - x[i - 1])) }
        return m
    }
}
