import Foundation
import Testing
import AudioCodecs
import AudioConverterServices
import ProcessSupport

/// What SampleRateConverter's output sounds like: the tone's frequency, what aliases and images
/// leak, how close it comes to sox's very-high-quality resampler, and restarting at an aligned
/// point with pre-roll.
@Suite struct SampleRateQualityTests {
    /// A 997 Hz sine keeps its frequency to 0.01 Hz (measured by a phase fit over 10 s of output).
    @Test(arguments: ratePairs)
    func sineFrequency(_ inputRate: Double, _ outputRate: Double) throws {
        let input = Signals.sine(997, rate: inputRate, frames: Int(10 * inputRate))
        let output = Signals.convert(input, with: try SampleRateConverter(inputRate: inputRate, outputRate: outputRate, channels: 1, quality: .max))
        let frequency = Signals.toneFrequency(output, rate: outputRate, nominal: 997)
        print("997 Hz \(inputRate) → \(outputRate): \(frequency) Hz")
        #expect(abs(frequency - 997) < 0.01, "\(inputRate) → \(outputRate): 997 Hz came out at \(frequency) Hz")
    }

    /// At Max quality what is not the tone (images, aliases, noise) stays 100 dB below it: a
    /// 20 kHz tone from 44.1 to 48 kHz (its image at 24.1 kHz must go), a 3.5 kHz tone from 44.1
    /// to 8 kHz, a 3.9 kHz tone from 8 to 96 kHz (images at 4.1, 11.9, 12.1 kHz …) and a 10 kHz
    /// tone from 22.05 to 44.1 kHz. Edges (the filter's start and end) are left out.
    @Test(arguments: [(44100.0, 48000.0, 20_000.0), (48000, 44100, 20_000), (44100, 8000, 3500), (8000, 96000, 3900), (22050, 44100, 10_000)])
    func imagesAndAliases(_ inputRate: Double, _ outputRate: Double, _ tone: Double) throws {
        let input = Signals.sine(tone, rate: inputRate, frames: Int(2 * inputRate))
        let output = Signals.convert(input, with: try SampleRateConverter(inputRate: inputRate, outputRate: outputRate, channels: 1, quality: .max))
        let edge = Int(0.1 * outputRate)
        let residual = Signals.residualBelowTone(output, range: edge..<(output.count - edge), frequency: tone, rate: outputRate)
        print("\(tone) Hz \(inputRate) → \(outputRate): everything else \(residual) dB")
        #expect(residual < -100, "\(inputRate) → \(outputRate), \(tone) Hz: \(residual) dB")
    }

    /// A tone above the output's Nyquist frequency is removed, not folded back: 23 kHz from 48 to
    /// 44.1 kHz comes out more than 100 dB below its input level.
    @Test func toneAboveNyquistRemoved() throws {
        let input = Signals.sine(23_000, rate: 48000, frames: 96_000)
        let output = Signals.convert(input, with: try SampleRateConverter(inputRate: 48000, outputRate: 44100, channels: 1, quality: .max))
        let middle = output[4410..<(output.count - 4410)]
        let rms = sqrt(middle.reduce(0) { $0 + Double($1) * Double($1) } / Double(middle.count))
        let level = 20 * log10(rms / (0.5 / 2.0.squareRoot()))
        print("23 kHz 48000 → 44100: \(level) dB")
        #expect(level < -100, "23 kHz leaks at \(level) dB")
    }

    /// Our output against `sox … rate -v B` (sox's very high quality), aligned (the best shift
    /// must be 0: both trim their delay) and compared away from the ends: the same length and a
    /// signal-to-difference ratio above 100 dB for the sine and 90 dB for the music-like signal.
    @Test(arguments: ratePairs)
    func matchesSox(_ inputRate: Double, _ outputRate: Double) throws {
        let frames = Int(3 * inputRate) + 17
        let signals: [(String, [Float], Double)] = [
            ("997 Hz sine", Signals.sine(997, rate: inputRate, frames: frames), 100),
            ("music", Signals.music(rate: inputRate, frames: frames, bandLimit: 0.43 * min(inputRate, outputRate)), 90),
        ]
        for (name, input, floor) in signals {
            let ours = Signals.convert(input, with: try SampleRateConverter(inputRate: inputRate, outputRate: outputRate, channels: 1, quality: .max))
            let theirs = try Sox.resample(input, from: inputRate, to: outputRate)
            let expected = Int((Double(frames) * outputRate / inputRate + 0.5).rounded(.down))
            #expect(ours.count == expected)
            let edge = Int(0.05 * outputRate)
            let middle = edge..<(min(ours.count, theirs.count) - edge)
            let shift = Signals.bestShift(ours, theirs, range: middle, limit: 8)
            let snr = Signals.snr(ours, theirs, range: middle)
            print("\(name) \(inputRate) → \(outputRate): ours \(ours.count) frames, sox \(theirs.count), shift \(shift), SNR \(snr) dB")
            #expect(shift == 0, "\(name) \(inputRate) → \(outputRate): sox's output is \(shift) frames off ours")
            #expect(snr > floor, "\(name) \(inputRate) → \(outputRate): \(snr) dB against sox")
        }
    }

    /// Restarting at an aligned point (input m × 147 − P for 44.1 → 48 kHz) with P frames of
    /// pre-roll and dropping P × 160 / 147 output frames lands on the continuous run's grid; the
    /// frames differ by the missing history only, and with the recommended pre-roll by less than
    /// 1e-6 at every quality. The table of P against the largest difference is printed.
    @Test(arguments: ratePairs)
    func preRoll(_ inputRate: Double, _ outputRate: Double) throws {
        let step = try #require(SampleRateConverter.alignment(inputRate: inputRate, outputRate: outputRate))
        let input = Signals.music(rate: inputRate, frames: Int(inputRate), bandLimit: 0.45 * min(inputRate, outputRate))
        let recommended = SampleRateConverter.recommendedPreRoll(inputRate: inputRate, outputRate: outputRate)
        #expect(recommended % step.inputFrames == 0)
        for quality in [SampleRateConverterQuality.max, .high, .medium, .low, .min] {
            let continuous = Signals.convert(input, with: try SampleRateConverter(inputRate: inputRate, outputRate: outputRate, channels: 1, quality: quality))
            let m = Int(0.5 * inputRate) / step.inputFrames
            let seekIn = m * step.inputFrames, seekOut = m * step.outputFrames
            var table: [String] = []
            var atRecommended = Float.infinity
            var preRolls = [0, 1, 2, 4, 8, 16, 32, 64, 128, 256].map { $0 * step.inputFrames }.filter { $0 <= seekIn }
            if !preRolls.contains(recommended) { preRolls.append(recommended) }
            for preRoll in preRolls.sorted() {
                let converter = try SampleRateConverter(inputRate: inputRate, outputRate: outputRate, channels: 1, quality: quality)
                let restarted = Signals.convert(Array(input[(seekIn - preRoll)...]), with: converter)
                let drop = preRoll / step.inputFrames * step.outputFrames
                // Compare 2000 output frames from the seek point.
                var worst: Float = 0
                for j in 0..<2000 { worst = max(worst, abs(restarted[drop + j] - continuous[seekOut + j])) }
                table.append("\(preRoll): \(worst)")
                if preRoll == recommended { atRecommended = worst }
            }
            print("pre-roll \(inputRate) → \(outputRate) quality 0x\(String(quality.rawValue, radix: 16)) (input frames: largest difference) \(table.joined(separator: ", "))")
            #expect(atRecommended < 1e-6, "\(inputRate) → \(outputRate) quality \(quality.rawValue): \(atRecommended) at the recommended \(recommended)")
        }
    }
}
