import AudioTimePitch
import Testing

/// Output frame 0 is input frame 0: an event at input frame k comes out near k / rate.
@Suite struct AlignmentTests {
    static let rates = [0.5, 0.75, 1, 1.5, 2]

    /// A click through Spectral and Varispeed: the largest output sample within 3 ms of k / rate.
    @Test(arguments: [TimePitchAlgorithm.spectral, .varispeed])
    func clickComesOutAtItsScaledTime(_ algorithm: TimePitchAlgorithm) throws {
        for sampleRate in [44_100.0, 48_000] {
            let k = Int(sampleRate * 0.6)
            let input = Signals.click(at: k, channels: 2, frames: Int(sampleRate) + 3000)
            for rate in Self.rates {
                let p = try #require(TimePitch.make(algorithm, sampleRate: sampleRate, channels: 2))
                p.rate = rate
                let out = Signals.channel(Signals.run(p, input, chunk: 512), 1, of: 2)
                let error = Double(Signals.peak(out)) - Double(k) / rate
                #expect(abs(error) <= 0.003 * sampleRate, "\(algorithm) \(sampleRate) Hz rate \(rate): off by \(error) frames")
            }
        }
    }

    /// A tone's onset through TimeDomain. WSOLA copies whole sequences, so an onset inside a
    /// sequence moves by up to half a sequence × |1/rate − 1| around its place (SoundTouch's
    /// sequence is 40…90 ms, longer at slower rates); the bound is that plus 5 ms.
    @Test(arguments: [TimePitchAlgorithm.timeDomain, .lowQualityZeroLatency])
    func onsetComesOutNearItsScaledTime(_ algorithm: TimePitchAlgorithm) throws {
        for sampleRate in [44_100.0, 48_000] {
            let k = Int(sampleRate * 0.5)
            let input = Signals.sine(1000, sampleRate: sampleRate, channels: 1, frames: Int(sampleRate) * 2, from: k)
            for rate in Self.rates {
                let p = try #require(TimePitch.make(algorithm, sampleRate: sampleRate, channels: 1))
                p.rate = rate
                let out = Signals.run(p, input, chunk: 1024)
                let onset = try #require(Signals.onset(out, threshold: 0.05))
                let error = Double(onset) - Double(k) / rate
                let bound = (0.045 * abs(1 / rate - 1) + 0.005) * sampleRate
                #expect(abs(error) <= bound, "\(algorithm) \(sampleRate) Hz rate \(rate): off by \(error) frames (bound \(bound))")
            }
        }
    }
}
