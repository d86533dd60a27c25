import AudioTimePitch
import Testing

/// Streams: reset, chunk sizes, and the no-allocation hint's companions.
@Suite struct StreamTests {
    static let algorithms: [TimePitchAlgorithm] = [.spectral, .timeDomain, .varispeed]

    @Test(arguments: algorithms)
    func resetStartsANewStream(_ algorithm: TimePitchAlgorithm) throws {
        let input = Signals.sine(1000, sampleRate: 44_100, channels: 2, frames: 30_000)
        let fresh = try #require(TimePitch.make(algorithm, sampleRate: 44_100, channels: 2))
        fresh.rate = 1.5
        let expected = Signals.run(fresh, input)
        let reused = try #require(TimePitch.make(algorithm, sampleRate: 44_100, channels: 2))
        reused.rate = 1.5
        // Half a stream, not finished, then reset.
        input.withUnsafeBufferPointer { reused.write($0.baseAddress!, frames: 12_345) }
        reused.reset()
        #expect(reused.availableFrames == 0)
        #expect(reused.rate == 1.5)
        let again = Signals.run(reused, input)
        #expect(again.count == expected.count)
        let diff = zip(again, expected).map { abs($0 - $1) }.max() ?? 0
        #expect(diff < 1e-5, "\(algorithm): largest difference \(diff)")
        // And after a finished stream.
        reused.reset()
        let third = Signals.run(reused, input)
        #expect(third.count == expected.count)
    }

    /// The output does not depend on how the input is cut into blocks (beyond rounding).
    @Test(arguments: algorithms)
    func chunkingDoesNotChangeTheOutput(_ algorithm: TimePitchAlgorithm) throws {
        let input = Signals.noise(channels: 2, frames: 40_000)
        var outputs: [[Float]] = []
        for chunk in [4096, 1000, 37] {
            let p = try #require(TimePitch.make(algorithm, sampleRate: 48_000, channels: 2))
            p.rate = 0.75
            outputs.append(Signals.run(p, input, chunk: chunk))
        }
        for other in outputs.dropFirst() {
            #expect(other.count == outputs[0].count)
            let snr = Signals.snr(other, outputs[0], 0..<min(other.count, outputs[0].count))
            #expect(snr > 60, "\(algorithm): outputs differ by chunk size, SNR \(snr) dB")
        }
    }

    @Test(arguments: algorithms)
    func emptyStreamFinishesEmpty(_ algorithm: TimePitchAlgorithm) throws {
        let p = try #require(TimePitch.make(algorithm, sampleRate: 44_100, channels: 1))
        p.finish()
        #expect(p.availableFrames == 0)
        #expect(p.inputFramesNeeded(forOutput: 1024) >= 1)
    }
}
