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

    /// A pitch change mid-stream: the frequency before and after, no click between, the length.
    @Test func pitchChangeMidStream() throws {
        let sampleRate = 44_100.0
        let input = Signals.sine(1000, sampleRate: sampleRate, channels: 1, frames: 88_200)
        let p = try #require(TimePitch.make(.spectral, sampleRate: sampleRate, channels: 1))
        var output: [Float] = []
        var block = [Float](repeating: 0, count: 4096)
        for start in stride(from: 0, to: 88_200, by: 1050) {
            if start == 44_100 { p.pitchCents = 700 }
            input.withUnsafeBufferPointer { p.write($0.baseAddress! + start, frames: min(1050, 88_200 - start)) }
            while p.availableFrames > 0 {
                let n = block.withUnsafeMutableBufferPointer { p.read(into: $0.baseAddress!, frames: 4096) }
                output += block[0..<n]
            }
        }
        p.finish()
        while p.availableFrames > 0 {
            let n = block.withUnsafeMutableBufferPointer { p.read(into: $0.baseAddress!, frames: 4096) }
            output += block[0..<n]
        }
        #expect(output.count == 88_200)
        let before = Signals.frequency(Array(output[0..<40_000]), sampleRate: sampleRate)
        let after = Signals.frequency(Array(output[48_000...]), sampleRate: sampleRate)
        #expect(abs(before - 1000) <= 1, "before: \(before) Hz")
        #expect(abs(after - 1498.307) <= 1, "after: \(after) Hz")
        let step = Signals.largestStep(output, 1000..<87_000)
        #expect(step < 1.3 * Float(0.5 * 2 * Double.pi * 1498.307 / sampleRate), "largest step \(step)")
    }

    /// At rate 1 and pitch 0 the output is the input: noise in, SNR over the middle.
    @Test func rateOneIsNearlyTransparent() throws {
        for channels in [1, 2] {
            let input = Signals.noise(channels: channels, frames: 44_100)
            let p = try #require(TimePitch.make(.spectral, sampleRate: 44_100, channels: channels))
            let out = Signals.run(p, input, chunk: 999)
            #expect(out.count == input.count)
            let snr = Signals.snr(out, input, 4096 * channels..<(input.count - 4096 * channels))
            print("Spectral rate 1, \(channels) channel(s): SNR \(snr) dB")
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
