import AudioTimePitch
import Foundation
import Testing

/// What only Spectral does: pitch apart from rate, and transparency at rate 1.
@Suite struct SpectralTests {
    static let shifts: [(cents: Double, frequency: Double)] = [(1200, 2000), (-1200, 500), (700, 1000 * 1.498_307_077), (-2400, 250)]

    @Test(arguments: 0..<4)
    func pitchShiftKeepsTheDuration(_ index: Int) throws {
        let (cents, expected) = Self.shifts[index]
        for (sampleRate, channels) in [(44_100.0, 1), (48_000.0, 2)] {
            let frames = Int(sampleRate)
            let input = Signals.sine(1000, sampleRate: sampleRate, channels: channels, frames: frames)
            let p = try #require(TimePitch.make(.spectral, sampleRate: sampleRate, channels: channels))
            p.pitchCents = cents
            let out = Signals.run(p, input, chunk: 1000)
            #expect(abs(out.count / channels - frames) <= 1)
            for c in 0..<channels {
                let f = Signals.frequency(Signals.channel(out, c, of: channels), sampleRate: sampleRate)
                #expect(abs(f - expected) <= 1, "\(cents) cents at \(sampleRate) Hz: \(f) Hz, expected \(expected)")
            }
        }
    }

    @Test func pitchAndRateTogether() throws {
        let input = Signals.sine(1000, sampleRate: 44_100, channels: 1, frames: 44_100)
        let p = try #require(TimePitch.make(.spectral, sampleRate: 44_100, channels: 1))
        p.rate = 1.5
        p.pitchCents = -1200
        let out = Signals.run(p, input)
        #expect(abs(Double(out.count) - (44_100 / 1.5).rounded()) <= 1)
        #expect(abs(Signals.frequency(out, sampleRate: 44_100) - 500) <= 1)
    }

    /// At rate 1 and pitch 0 the output is the input: noise in, SNR over the middle.
    @Test(.disabled("libsoxr's variable-rate engine is not linear-phase: the pitch stage is replaced next"))
    func rateOneIsNearlyTransparent() throws {
        for channels in [1, 2] {
            let input = Signals.noise(channels: channels, frames: 44_100)
            let p = try #require(TimePitch.make(.spectral, sampleRate: 44_100, channels: channels))
            let out = Signals.run(p, input, chunk: 999)
            #expect(out.count == input.count)
            let snr = Signals.snr(out, input, 4096 * channels..<(input.count - 4096 * channels))
            #expect(snr > 50, "SNR \(snr) dB")
        }
    }

    /// Identical channels stay identical (the channels share their peaks and regions).
    @Test func identicalChannelsStayIdentical() throws {
        let mono = Signals.noise(channels: 1, frames: 44_100)
        let stereo = mono.flatMap { [$0, $0] }
        let p = try #require(TimePitch.make(.spectral, sampleRate: 44_100, channels: 2))
        p.rate = 0.75
        p.pitchCents = 300
        let out = Signals.run(p, stereo)
        let left = Signals.channel(out, 0, of: 2)
        let right = Signals.channel(out, 1, of: 2)
        #expect(left == right)
    }
}
