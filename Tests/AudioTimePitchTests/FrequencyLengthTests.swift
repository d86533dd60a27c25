import AudioTimePitch
import Testing

/// A 1 kHz sine through each processor: the frequency over the steady middle and the length.
@Suite struct FrequencyLengthTests {
    static let formats: [(sampleRate: Double, channels: Int)] = [(44_100, 1), (44_100, 2), (48_000, 1), (48_000, 2)]
    static let rates = [0.5, 0.75, 1.5, 2]
    static let algorithms: [TimePitchAlgorithm] = [.spectral, .timeDomain, .varispeed, .lowQualityZeroLatency]

    @Test(arguments: algorithms)
    func sineKeepsItsFrequencyAndTheLengthIsExact(_ algorithm: TimePitchAlgorithm) throws {
        for format in Self.formats {
            let frames = Int(format.sampleRate)  // one second
            let input = Signals.sine(1000, sampleRate: format.sampleRate, channels: format.channels, frames: frames)
            for rate in Self.rates {
                let p = try #require(TimePitch.make(algorithm, sampleRate: format.sampleRate, channels: format.channels))
                p.rate = rate
                let out = Signals.run(p, input)
                let outFrames = out.count / format.channels
                let expected = (Double(frames) / rate).rounded()
                #expect(abs(Double(outFrames) - expected) <= 1, "\(algorithm) \(format) rate \(rate): \(outFrames) frames, expected \(expected)")
                let want = algorithm == .varispeed ? 1000 * rate : 1000
                for c in 0..<format.channels {
                    let f = Signals.frequency(Signals.channel(out, c, of: format.channels), sampleRate: format.sampleRate)
                    #expect(abs(f - want) <= 1, "\(algorithm) \(format) rate \(rate) channel \(c): \(f) Hz, expected \(want)")
                }
            }
        }
    }

    @Test(arguments: algorithms)
    func rateChangeMidStreamGivesTheSummedLength(_ algorithm: TimePitchAlgorithm) throws {
        let sampleRate = 44_100.0
        let frames = 88_200
        let input = Signals.sine(1000, sampleRate: sampleRate, channels: 2, frames: frames)
        let p = try #require(TimePitch.make(algorithm, sampleRate: sampleRate, channels: 2))
        let out = Signals.run(p, input, chunk: 1000, rates: [(0, 1.5), (30_000, 0.75), (60_000, 1)])
        let expected = (30_000 / 1.5 + 30_000 / 0.75 + 28_200).rounded()
        #expect(abs(Double(out.count / 2) - expected) <= 1, "\(out.count / 2) frames, expected \(expected)")
        // No click where the rate changes: the largest step stays that of the sine (or the
        // resampled sine) with some headroom.
        let left = Signals.channel(out, 0, of: 2)
        let step = Signals.largestStep(left, 2000..<(left.count - 2000))
        let sineStep = Float(0.5 * 2 * Double.pi * 1000 * 1.5 / sampleRate)
        #expect(step < 1.6 * sineStep, "\(algorithm): largest step \(step)")
    }

    @Test(arguments: algorithms)
    func rateOneIsTheSamePathAndKeepsTheLength(_ algorithm: TimePitchAlgorithm) throws {
        let input = Signals.sine(1000, sampleRate: 48_000, channels: 1, frames: 48_000)
        let p = try #require(TimePitch.make(algorithm, sampleRate: 48_000, channels: 1))
        let out = Signals.run(p, input, chunk: 777, rates: [(0, 1), (24_000, 1.25)])
        let expected = (24_000 + 24_000 / 1.25).rounded()
        #expect(abs(Double(out.count) - expected) <= 1)
        let step = Signals.largestStep(out, 2000..<(out.count - 2000))
        #expect(step < 1.6 * Float(0.5 * 2 * Double.pi * 1250 / 48_000), "\(algorithm): largest step \(step)")
    }

    @Test func extremeRatesAreAccepted() throws {
        let input = Signals.sine(1000, sampleRate: 44_100, channels: 1, frames: 44_100)
        for algorithm in Self.algorithms {
            for rate in [1.0 / 32, 32] {
                let p = try #require(TimePitch.make(algorithm, sampleRate: 44_100, channels: 1))
                p.rate = rate
                let out = Signals.run(p, input, chunk: 4096)
                #expect(abs(Double(out.count) - (44_100 / rate).rounded()) <= 1, "\(algorithm) rate \(rate): \(out.count)")
                #expect(out.allSatisfy { $0.isFinite && abs($0) < 2 })
            }
            let p = try #require(TimePitch.make(algorithm, sampleRate: 44_100, channels: 1))
            p.rate = 100
            #expect(p.rate == 32)
            p.rate = 0
            #expect(p.rate == 1.0 / 32)
        }
    }

    @Test func unknownAlgorithmAndBadFormatsAreRefused() {
        #expect(TimePitch.make(TimePitchAlgorithm(rawValue: 0x7878_7878), sampleRate: 44_100, channels: 2) == nil)
        #expect(TimePitch.make(.spectral, sampleRate: 44_100, channels: 0) == nil)
        #expect(TimePitch.make(.varispeed, sampleRate: 0, channels: 1) == nil)
        #expect(TimePitch.make(.timeDomain, sampleRate: .nan, channels: 1) == nil)
        for algorithm in TimePitchAlgorithm.allCases {
            #expect(TimePitch.make(algorithm, sampleRate: 44_100, channels: 2)?.algorithm == algorithm)
        }
    }
}
