import Foundation
import ProcessSupport
import Testing

/// C/tap_meter.c: a guide-style player whose post-effects siphon tap measures the level of what
/// the queue plays, rendered offline. The levels are checked against sox's `stats` of the file.
@Suite("Processing taps from C: a level meter")
struct TapMeterTests {
    static let program = Result { try CPrograms.build("tap_meter", sources: ["Tests/AudioToolboxTests/C/tap_meter.c"]) }

    /// Three seconds of 16-bit stereo at 44.1 kHz made by sox: 440 Hz at half scale on the left,
    /// 1 kHz at a quarter on the right.
    static let fixture = Result { () throws -> String in
        let path = CPrograms.scratch.appendingPathComponent("tap-meter-tones.wav").path
        let r = try runProcess("/usr/bin/sox", [
            "-n", "-r", "44100", "-b", "16", "-c", "2", path, "synth", "3", "sine", "440", "sine", "1000", "remix", "1v0.5", "2v0.25",
        ])
        guard r.status == 0 else { throw CPrograms.Failure(description: "sox: \(r.err)") }
        return path
    }

    /// sox's RMS level of each channel, in dB.
    static func soxLevels(_ path: String) throws -> [Double] {
        let r = try runProcess("/usr/bin/sox", [path, "-n", "stats"])
        let line = try #require(r.err.split(separator: "\n").first { $0.hasPrefix("RMS lev dB") }, "sox stats: \(r.err)")
        return line.split(separator: " ").compactMap { Double($0) }.dropFirst().map { $0 }
    }

    struct Measured {
        var levels: [Double] = []
        var tapFrames = 0
        var queueFrames = 0
        var queueTimeErrors = -1
        var format = ""
    }

    static func run(rate: String) throws -> Measured {
        let program = try program.get()
        let path = try fixture.get()
        let r = try runProcess("/usr/bin/timeout", ["-k", "5", "60", program, path, rate, "offline"], environment: ["AUDIOQUEUE_BACKEND": "null"])
        try #require(r.status == 0, "tap_meter: \(r.err)")
        var m = Measured()
        for line in r.out.split(separator: "\n") {
            let words = line.split(separator: " ")
            if line.hasPrefix("channel"), let i = words.firstIndex(of: "RMS"), i + 1 < words.count, let db = Double(words[i + 1]) {
                m.levels.append(db)
            } else if line.hasPrefix("tap frames"), words.count >= 10 {
                // "tap frames N, queue frames M, queue time errors E"
                m.tapFrames = Int(words[2].trimmingCharacters(in: [","])) ?? -1
                m.queueFrames = Int(words[5].trimmingCharacters(in: [","])) ?? -1
                m.queueTimeErrors = Int(words[9]) ?? -1
            } else if line.hasPrefix("tap:") {
                m.format = String(line)
            }
        }
        return m
    }

    @Test("At rate 1 the tap measures sox's RMS levels, and every frame of queue time")
    func levelsAtNormalSpeed() throws {
        let reference = try Self.soxLevels(try Self.fixture.get())
        let m = try Self.run(rate: "1")
        #expect(m.format.contains("2048 frames at most, 2 channels at 44100 Hz, format flags 0x29"), "\(m.format)")
        #expect(reference.count == 2 && m.levels.count == 2)
        for (got, want) in zip(m.levels, reference) { #expect(abs(got - want) < 0.01, "\(got) dB, sox \(want) dB") }
        #expect(m.tapFrames == 132_300 && m.queueFrames == 132_300 && m.queueTimeErrors == 0)
    }

    /// At 1.5× the post-effects tap sees two thirds of the frames, each covering 1.5 frames of
    /// queue time, and tones keep their level through the time/pitch unit.
    @Test("At rate 1.5 the tap sees 1/1.5 of the frames, all the queue time, the same levels")
    func levelsAtOneAndAHalf() throws {
        let reference = try Self.soxLevels(try Self.fixture.get())
        let m = try Self.run(rate: "1.5")
        #expect(reference.count == 2 && m.levels.count == 2)
        for (got, want) in zip(m.levels, reference) { #expect(abs(got - want) < 0.5, "\(got) dB, sox \(want) dB") }
        #expect(abs(Double(m.tapFrames) - 132_300 / 1.5) < 132_300 / 1.5 * 0.02, "\(m.tapFrames) tap frames")
        #expect(abs(Double(m.queueFrames) - 132_300) < 132_300 * 0.02, "\(m.queueFrames) queue frames")
        #expect(m.queueTimeErrors == 0)
    }
}
