import Foundation
import Testing
import ProcessSupport
import AudioCore
import AudioFileServices
import AudioTestSupport

/// aqplay looping Ogg Opus files offline: the pre-skip (priming) and the end trimming
/// (remainder) come from the Ogg pages, so the loop joins without a gap.
@Suite("aqplay with Ogg Opus")
struct AqplayOpusTests {
    /// `--loops 3 --offline`: three copies of the valid frames; ffmpeg's libopus decode repeated
    /// three times. The decoder runs on across each seam (as for AAC), where a fresh decoder
    /// would start from silence, so the seams match the fresh decode closely but not exactly.
    @Test(arguments: ["opusenc-stereo-44100.opus", "ffmpeg-stereo.opus"])
    func loopsGaplesslyOffline(_ name: String) throws {
        let file = Fixtures.opus.appendingPathComponent(name).path
        let out = AqplayTests.output("opus-loops-\(name)")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let result = try runProcess(aqplay, ["--loops", "3", "--offline", out, file])
        #expect(result.status == 0, "\(result.err)")
        let valid = Int(try AudioFile(path: file).validFrames)
        #expect(valid == 9600)
        #expect(result.out.contains("wrote \(3 * valid) frames"), "\(result.out)")
        let (rendered, format) = try AqplayTests.floats(out)
        #expect(format.sampleRate == 48000 && format.channelsPerFrame == 2)
        guard rendered.count == 3 * valid * 2 else { Issue.record("\(rendered.count) samples"); return }
        let data = try Data(contentsOf: URL(fileURLWithPath: file + ".f32"))
        let once: [Float] = data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        let looped = once + once + once
        for c in 0..<2 {
            let first = snr(reference: looped, refChannels: 2, refChannel: c, test: rendered, testChannels: 2, testChannel: c, from: 0, frames: valid)
            #expect(first > 80, "first play, channel \(c): \(first) dB against ffmpeg")
            for seam in 1...2 {
                let around = snr(reference: looped, refChannels: 2, refChannel: c, test: rendered, testChannels: 2, testChannel: c,
                                 from: seam * valid - 2048, frames: 4096)
                #expect(around > 60, "seam \(seam), channel \(c): \(around) dB")
            }
        }
    }
}
