import AudioTimePitch
import Foundation
import ProcessSupport
import Testing

/// Varispeed against sox's `speed` effect (resampling, pitch with tempo): the same tones at the
/// same levels and the same length.
@Suite struct ReferenceTests {
    static let sox = "/usr/bin/sox"

    /// The amplitude of `frequency` over the middle half of `x` (Hann-windowed correlation).
    static func amplitude(_ x: [Float], _ frequency: Double, sampleRate: Double) -> Double {
        let from = x.count / 4, to = x.count * 3 / 4
        var re = 0.0, im = 0.0, wsum = 0.0
        for i in from..<to {
            let w = 0.5 - 0.5 * cos(2 * Double.pi * Double(i - from) / Double(to - from))
            let a = 2 * Double.pi * frequency * Double(i) / sampleRate
            re += w * Double(x[i]) * cos(a)
            im += w * Double(x[i]) * sin(a)
            wsum += w
        }
        return 2 * (re * re + im * im).squareRoot() / wsum
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: sox), "sox is not installed (Scripts/test installs it)"))
    func varispeedMatchesSoxSpeed() throws {
        let sampleRate = 44_100.0
        let frames = 88_200
        let tones = [(440.0, 0.2), (1000.0, 0.15), (3000.0, 0.1)]
        let input: [Float] = (0..<frames).map { i in
            Float(tones.reduce(0) { $0 + $1.1 * sin(2 * Double.pi * $1.0 * Double(i) / sampleRate) })
        }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tp-ref-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let inURL = dir.appendingPathComponent("in.f32"), outURL = dir.appendingPathComponent("out.f32")
        try input.withUnsafeBytes { Data($0) }.write(to: inURL)
        for rate in [0.75, 1.5] {
            let sox = try runProcess(
                Self.sox,
                ["-t", "f32", "-r", "44100", "-c", "1", inURL.path, "-t", "f32", outURL.path, "speed", "\(rate)", "rate", "-v", "44100"])
            #expect(sox.status == 0, "\(sox.err)")
            let reference = try Fixtures.float32(outURL)
            let p = try #require(TimePitch.make(.varispeed, sampleRate: sampleRate, channels: 1))
            p.rate = rate
            let ours = Signals.run(p, input)
            #expect(abs(ours.count - reference.count) <= 1, "rate \(rate): \(ours.count) frames, sox \(reference.count)")
            for (f, _) in tones {
                let a = Self.amplitude(ours, f * rate, sampleRate: sampleRate)
                let b = Self.amplitude(reference, f * rate, sampleRate: sampleRate)
                #expect(abs(20 * log10(a / b)) < 0.2, "rate \(rate), \(f * rate) Hz: ours \(a), sox \(b)")
                // Nothing left at the original frequency.
                #expect(Self.amplitude(ours, f, sampleRate: sampleRate) < 1e-3, "rate \(rate): \(f) Hz remains")
            }
        }
    }
}
