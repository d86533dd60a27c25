import Foundation
import Testing
import AudioCodecs
import AudioConverterServices
import ProcessSupport

/// Test signals and the measurements the sample-rate tests make on the output.
enum Signals {
    /// A sine of `frequency` Hz at `rate`, `frames` long, peak `amplitude`.
    static func sine(_ frequency: Double, rate: Double, frames: Int, amplitude: Double = 0.5) -> [Float] {
        (0..<frames).map { Float(amplitude * sin(2 * .pi * frequency * Double($0) / rate)) }
    }

    /// A music-like mono signal: three notes of eight partials each (1/k amplitudes) whose
    /// loudness swells and fades at different slow rates, partials kept below `bandLimit` Hz so
    /// that every conversion's filters pass all of it.
    static func music(rate: Double, frames: Int, bandLimit: Double) -> [Float] {
        let notes: [(frequency: Double, swell: Double)] = [(220, 0.7), (277.18, 1.1), (329.63, 1.9)]
        var out = [Float](repeating: 0, count: frames)
        for note in notes {
            for k in 1...8 {
                let f = note.frequency * Double(k) * (1 + 0.0013 * Double(k * k))  // a little inharmonic, as strings are
                guard f < bandLimit else { continue }
                let w = 2 * .pi * f / rate
                let a = 0.09 / Double(k)
                for n in 0..<frames {
                    let t = Double(n) / rate
                    let envelope = 0.6 + 0.4 * sin(2 * .pi * note.swell * t)
                    out[n] += Float(a * envelope * sin(w * Double(n) + Double(k)))
                }
            }
        }
        return out
    }

    /// All of `input` through `converter` in chunks `nextChunk` sizes (all at once when nil),
    /// with `outputRoom` frames of output room per call (``SampleRateConverter/maximumOutputFrames(forInputFrames:)``
    /// when nil), then drained; every call's output is checked against that bound.
    static func convert(
        _ input: [Float], with converter: SampleRateConverter,
        nextChunk: (() -> Int)? = nil, outputRoom: Int? = nil
    ) -> [Float] {
        let c = converter.channels
        let frames = input.count / c
        var output: [Float] = []
        var scratch = [Float](repeating: 0, count: 1 << 16)
        var position = 0
        input.withUnsafeBufferPointer { source in
            while position < frames {
                let chunk = Swift.min(nextChunk?() ?? frames, frames - position)
                let bound = converter.maximumOutputFrames(forInputFrames: chunk)
                let room = outputRoom ?? bound
                if scratch.count < room * c { scratch = [Float](repeating: 0, count: room * c) }
                let (taken, written) = scratch.withUnsafeMutableBufferPointer {
                    converter.process(source.baseAddress! + position * c, frames: chunk, into: $0.baseAddress!, capacity: room)
                }
                #expect(written <= bound, "\(written) frames out of a call bounded at \(bound)")
                if outputRoom == nil { #expect(taken == chunk, "offered \(chunk) frames with room \(room), took \(taken)") }
                if taken == 0, written == 0 {
                    Issue.record("no progress at input frame \(position) of \(frames)")
                    break
                }
                position += taken
                output += scratch[0..<(written * c)]
            }
        }
        let room = outputRoom ?? 4096
        if scratch.count < room * c { scratch = [Float](repeating: 0, count: room * c) }
        while true {
            let written = scratch.withUnsafeMutableBufferPointer { converter.finish(into: $0.baseAddress!, capacity: room) }
            if written == 0 { break }
            output += scratch[0..<(written * c)]
        }
        return output
    }

    /// The frequency of the tone near `nominal` Hz in `x` at `rate`: the slope of its phase over
    /// 0.1 s Hann-windowed blocks (demodulated at `nominal`), fitted by least squares over the
    /// blocks away from both ends.
    static func toneFrequency(_ x: [Float], rate: Double, nominal: Double) -> Double {
        let block = Int(rate / 10)
        let window = (0..<block).map { 0.5 - 0.5 * cos(2 * .pi * Double($0) / Double(block)) }
        var times: [Double] = [], phases: [Double] = []
        var start = block
        while start + 2 * block <= x.count {
            var re = 0.0, im = 0.0
            for i in 0..<block {
                let n = start + i
                let p = 2 * .pi * nominal * Double(n) / rate
                let v = window[i] * Double(x[n])
                re += v * cos(p)
                im -= v * sin(p)
            }
            var phase = atan2(im, re)
            if let last = phases.last {
                while phase - last > .pi { phase -= 2 * .pi }
                while phase - last < -.pi { phase += 2 * .pi }
            }
            phases.append(phase)
            times.append((Double(start) + Double(block) / 2) / rate)
            start += block
        }
        let n = Double(times.count)
        let mt = times.reduce(0, +) / n, mp = phases.reduce(0, +) / n
        var sxy = 0.0, sxx = 0.0
        for (t, p) in zip(times, phases) {
            sxy += (t - mt) * (p - mp)
            sxx += (t - mt) * (t - mt)
        }
        return nominal - sxy / sxx / (2 * .pi)
    }

    /// The energy of `x[range]` left over once the best sinusoid of exactly `frequency` Hz (and a
    /// constant) is taken out, relative to that sinusoid's energy, in dB.
    static func residualBelowTone(_ x: [Float], range: Range<Int>, frequency: Double, rate: Double) -> Double {
        // Least squares on cos, sin and 1: solve the 3×3 normal equations.
        var m = [[Double]](repeating: [0, 0, 0], count: 3)
        var v = [0.0, 0.0, 0.0]
        for n in range {
            let p = 2 * .pi * frequency * Double(n) / rate
            let basis = [cos(p), sin(p), 1]
            for i in 0..<3 {
                v[i] += basis[i] * Double(x[n])
                for j in 0..<3 { m[i][j] += basis[i] * basis[j] }
            }
        }
        let c = solve3(m, v)
        var tone = 0.0, rest = 0.0
        for n in range {
            let p = 2 * .pi * frequency * Double(n) / rate
            let fit = c[0] * cos(p) + c[1] * sin(p)
            tone += fit * fit
            let e = Double(x[n]) - fit - c[2]
            rest += e * e
        }
        return 10 * log10(rest / tone)
    }

    private static func solve3(_ a: [[Double]], _ b: [Double]) -> [Double] {
        var m = a, v = b
        for col in 0..<3 {
            let pivot = (col..<3).max { abs(m[$0][col]) < abs(m[$1][col]) }!
            m.swapAt(col, pivot)
            v.swapAt(col, pivot)
            for row in 0..<3 where row != col {
                let f = m[row][col] / m[col][col]
                for k in 0..<3 { m[row][k] -= f * m[col][k] }
                v[row] -= f * v[col]
            }
        }
        return (0..<3).map { v[$0] / m[$0][$0] }
    }

    /// Signal-to-difference ratio of `ours` against `reference` over `range`, in dB.
    static func snr(_ ours: [Float], _ reference: [Float], range: Range<Int>) -> Double {
        var signal = 0.0, noise = 0.0
        for i in range {
            signal += Double(reference[i]) * Double(reference[i])
            let d = Double(ours[i]) - Double(reference[i])
            noise += d * d
        }
        return 10 * log10(signal / Swift.max(noise, 1e-300))
    }

    /// The shift (within ±`limit` frames) at which `b` best matches `a`: `a[i]` ≈ `b[i + shift]`.
    static func bestShift(_ a: [Float], _ b: [Float], range: Range<Int>, limit: Int) -> Int {
        var best = 0, bestScore = -Double.infinity
        for shift in -limit...limit {
            var score = 0.0
            for i in range where i + shift >= 0 && i + shift < b.count { score += Double(a[i]) * Double(b[i + shift]) }
            if score > bestScore { (best, bestScore) = (shift, score) }
        }
        return best
    }
}

