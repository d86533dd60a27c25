import Foundation
import Testing
import AudioCodecs
import AudioConverterServices
import ProcessSupport

/// The conversions every sample-rate test runs: input rate, output rate.
let ratePairs: [(Double, Double)] = [(44100, 48000), (48000, 44100), (44100, 8000), (8000, 96000), (22050, 44100)]

/// SampleRateConverter on its own: lengths, delay, streaming, reset, errors, alignment.
@Suite struct SampleRateConverterTests {
    /// N input frames give exactly round(N × B / A) output frames (one half rounds up), for
    /// lengths that land on, just below and just above a half.
    @Test(arguments: ratePairs)
    func exactLength(_ inputRate: Double, _ outputRate: Double) throws {
        var random = SplitMix(seed: 7)
        for frames in [0, 1, 2, 3, 147, 441, 1000, 4409, 22_051, 44_101] {
            let converter = try SampleRateConverter(inputRate: inputRate, outputRate: outputRate, channels: 2, quality: .high)
            let input = (0..<(2 * frames)).map { _ in Float.random(in: -0.5...0.5, using: &random) }
            let output = Signals.convert(input, with: converter)
            let exact = Double(frames) * outputRate / inputRate
            let expected = Int((exact + 0.5).rounded(.down))
            #expect(output.count == 2 * expected, "\(frames) frames \(inputRate) → \(outputRate): \(output.count / 2), want \(expected)")
            #expect(converter.outputFramesProduced == Int64(expected))
            #expect(converter.inputFramesConsumed == Int64(frames))
            #expect(converter.outputLength(forInputFrames: Int64(frames)) == Int64(expected))
        }
    }

    /// One half rounds up: 44100 → 22050 Hz of 20001 frames gives 10001.
    @Test func halfRoundsUp() throws {
        let converter = try SampleRateConverter(inputRate: 44100, outputRate: 22050, channels: 1, quality: .max)
        #expect(converter.outputLength(forInputFrames: 20001) == 10001)
        #expect(Signals.convert([Float](repeating: 0.25, count: 20001), with: converter).count == 10001)
    }

    /// The filter's delay is trimmed: a pulse at input frame k, where k × B / A is a whole number,
    /// peaks at output frame k × B / A, with equal neighbours on both sides (a linear-phase
    /// filter's response centred there), at every quality.
    @Test(arguments: ratePairs)
    func pulsePosition(_ inputRate: Double, _ outputRate: Double) throws {
        let step = try #require(SampleRateConverter.alignment(inputRate: inputRate, outputRate: outputRate))
        let k = step.inputFrames * max(1, 3000 / step.inputFrames)
        let at = k / step.inputFrames * step.outputFrames
        for quality in [SampleRateConverterQuality.max, .high, .medium, .low] {
            var input = [Float](repeating: 0, count: 4 * k)
            input[k] = 1
            let converter = try SampleRateConverter(inputRate: inputRate, outputRate: outputRate, channels: 1, quality: quality)
            let output = Signals.convert(input, with: converter)
            let peak = output.indices.max { abs(output[$0]) < abs(output[$1]) }!
            #expect(peak == at, "\(quality.rawValue) \(inputRate) → \(outputRate): pulse at \(k) peaks at \(peak), want \(at)")
            #expect(abs(output[at - 1] - output[at + 1]) < 1e-4 * abs(output[at]),
                    "\(quality.rawValue) \(inputRate) → \(outputRate): around \(at): \(output[at - 1]) \(output[at]) \(output[at + 1])")
        }
    }

    /// Input in odd-sized chunks, and output in small pieces, give exactly the one-shot output.
    @Test(arguments: ratePairs)
    func streamingEqualsOneShot(_ inputRate: Double, _ outputRate: Double) throws {
        let input = Signals.music(rate: inputRate, frames: 30_011, bandLimit: 0.45 * min(inputRate, outputRate))
        let stereo = zip(input, input.reversed()).flatMap { [$0, $1] }
        let oneShot = Signals.convert(stereo, with: try SampleRateConverter(inputRate: inputRate, outputRate: outputRate, channels: 2, quality: .max))
        var random = SplitMix(seed: 3)
        for (chunks, room) in [(1, nil), (7, nil), (331, nil), (4099, nil), (997, 13)] as [(Int, Int?)] {
            let converter = try SampleRateConverter(inputRate: inputRate, outputRate: outputRate, channels: 2, quality: .max)
            let streamed = Signals.convert(stereo, with: converter, nextChunk: { Int.random(in: 1...chunks, using: &random) }, outputRoom: room)
            #expect(streamed == oneShot, "chunks up to \(chunks), room \(room.map(String.init) ?? "bounded"): \(streamed.count) vs \(oneShot.count) samples")
        }
    }

    /// After reset() the converter gives the same output for the same input, also after a stream
    /// it left unfinished.
    @Test(arguments: ratePairs)
    func resetReproduces(_ inputRate: Double, _ outputRate: Double) throws {
        let input = Signals.music(rate: inputRate, frames: 12_345, bandLimit: 0.45 * min(inputRate, outputRate))
        let converter = try SampleRateConverter(inputRate: inputRate, outputRate: outputRate, channels: 1, quality: .high)
        let first = Signals.convert(input, with: converter)
        converter.reset()
        #expect(converter.inputFramesConsumed == 0 && converter.outputFramesProduced == 0)
        #expect(Signals.convert(input, with: converter) == first)
        // Half a stream, then reset.
        converter.reset()
        var room = [Float](repeating: 0, count: 20_000)
        _ = input.withUnsafeBufferPointer { converter.process($0.baseAddress!, frames: 5000, into: &room, capacity: 20_000) }
        converter.reset()
        #expect(Signals.convert(input, with: converter) == first)
    }

    /// Nothing is taken between finish() and reset().
    @Test func noInputAfterFinish() throws {
        let converter = try SampleRateConverter(inputRate: 44100, outputRate: 48000, channels: 1, quality: .high)
        var room = [Float](repeating: 0, count: 4096)
        let input = [Float](repeating: 0.1, count: 100)
        _ = input.withUnsafeBufferPointer { converter.process($0.baseAddress!, frames: 100, into: &room, capacity: 4096) }
        while converter.finish(into: &room, capacity: 4096) > 0 {}
        let after = input.withUnsafeBufferPointer { converter.process($0.baseAddress!, frames: 100, into: &room, capacity: 4096) }
        #expect(after == (0, 0))
        #expect(converter.outputFramesProduced == 109)  // round(100 × 48000 / 44100) = round(108.84)
    }

    /// Equal rates copy the samples.
    @Test func equalRatesPassThrough() throws {
        let converter = try SampleRateConverter(inputRate: 48000, outputRate: 48000, channels: 2, quality: .max)
        #expect(converter.isPassThrough)
        var random = SplitMix(seed: 11)
        let input = (0..<2002).map { _ in Float.random(in: -1...1, using: &random) }
        #expect(Signals.convert(input, with: converter) == input)
        converter.reset()
        #expect(Signals.convert(input, with: converter, nextChunk: { 3 }, outputRoom: 2) == input)
    }

    /// A rate that is not a whole number converts, to the exact length, and has no alignment.
    @Test func fractionalRate() throws {
        #expect(SampleRateConverter.alignment(inputRate: 44100.5, outputRate: 48000) == nil)
        let converter = try SampleRateConverter(inputRate: 44100.5, outputRate: 48000, channels: 1, quality: .max)
        let input = Signals.sine(997, rate: 44100.5, frames: 441_005)
        let output = Signals.convert(input, with: converter)
        #expect(output.count == Int((441_005.0 * 48000 / 44100.5 + 0.5).rounded(.down)))
        let frequency = Signals.toneFrequency(output, rate: 48000, nominal: 997)
        #expect(abs(frequency - 997) < 0.01, "997 Hz came out at \(frequency) Hz")
    }

    /// Rates that are not positive finite numbers are Apple's out-of-range errors.
    @Test func badRates() {
        for bad in [0, -44100, .nan, .infinity] as [Double] {
            #expect(throws: AudioCodecError.self) { try SampleRateConverter(inputRate: bad, outputRate: 48000, channels: 1, quality: .high) }
            do {
                _ = try SampleRateConverter(inputRate: bad, outputRate: 48000, channels: 1, quality: .high)
            } catch {
                #expect(error.code == .inputSampleRateOutOfRange)
            }
            do {
                _ = try SampleRateConverter(inputRate: 48000, outputRate: bad, channels: 1, quality: .high)
                Issue.record("output rate \(bad) accepted")
            } catch {
                #expect(error.code == .outputSampleRateOutOfRange)
            }
        }
        do {
            _ = try SampleRateConverter(inputRate: 44100, outputRate: 48000, channels: 0, quality: .high)
            Issue.record("0 channels accepted")
        } catch {
            #expect(error.code == .formatNotSupported)
        }
    }

    /// Apple's quality values map to the nearest named one.
    @Test func qualityMapping() {
        let cases: [(UInt32, SampleRateConverterQuality)] = [
            (0x7F, .max), (0xFF, .max), (0x70, .max), (0x6F, .high), (0x60, .high), (0x50, .high), (0x4F, .medium),
            (0x40, .medium), (0x30, .medium), (0x2F, .low), (0x20, .low), (0x10, .low), (0x0F, .min), (0, .min),
        ]
        for (raw, named) in cases {
            #expect(SampleRateConverterQuality(rawValue: raw).nearestNamed == named, "0x\(String(raw, radix: 16))")
        }
    }

    /// The smallest frame counts that span the same time.
    @Test func alignment() {
        #expect(SampleRateConverter.alignment(inputRate: 44100, outputRate: 48000)! == (147, 160))
        #expect(SampleRateConverter.alignment(inputRate: 48000, outputRate: 44100)! == (160, 147))
        #expect(SampleRateConverter.alignment(inputRate: 8000, outputRate: 96000)! == (1, 12))
        #expect(SampleRateConverter.alignment(inputRate: 44100, outputRate: 8000)! == (441, 80))
        #expect(SampleRateConverter.alignment(inputRate: 22050, outputRate: 44100)! == (1, 2))
        #expect(SampleRateConverter.alignment(inputRate: 0, outputRate: 44100) == nil)
    }
}
