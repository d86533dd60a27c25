import Foundation
import Testing
import ProcessSupport
import AudioCore
import AudioFileServices

/// aqplay's time/pitch options: `--rate`, `--pitch`, `--algorithm`, checked on the command line
/// and by a short offline render.
@Suite("aqplay: time and pitch")
struct AqplayTimePitchTests {
    @Test func refusesBadTimePitchArguments() throws {
        let input = Fixtures.path("wav-pcm_s16le-2ch-44100.wav")
        let out = AqplayTests.output("tp-bad")
        for arguments in [
            ["--rate", "2.5", input], ["--rate", "0.4", input], ["--rate", "fast", input], ["--rate"],
            ["--pitch", "2401", input], ["--pitch", "-3000", input], ["--algorithm", "lqzl", input], ["--algorithm", "spectra", input],
            ["--rate", "1.5", "-"], ["--algorithm", "varispeed", "--offline", out, "http://127.0.0.1:9/x"],
        ] {
            let result = try runProcess(aqplay, arguments)
            #expect(result.status == 2, "\(arguments): exit \(result.status)")
            #expect(result.err.contains("usage"), "\(arguments): \(result.err)")
        }
    }

    /// `--rate 2 --algorithm A --offline`: the rendering lasts half the file (± 0.5 %).
    @Test(arguments: ["spectral", "timedomain", "varispeed"])
    func rendersAtTheRate(algorithm: String) throws {
        let input = Fixtures.path("wav-pcm_s16le-2ch-44100.wav")
        let out = AqplayTests.output("tp-\(algorithm)")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let result = try runProcess(aqplay, ["--rate", "2", "--algorithm", algorithm, "--offline", out, input])
        #expect(result.status == 0, "\(result.err)")
        let source = try AudioFile(path: input)
        let frames = Double(source.dataByteCount) / Double(source.dataFormat.bytesPerFrame)
        let (rendered, format) = try AqplayTests.floats(out)
        let got = Double(rendered.count) / Double(format.channelsPerFrame)
        #expect(abs(got - frames / 2) <= frames / 2 * 0.005, "\(got) frames for \(frames) at rate 2")
    }
}
