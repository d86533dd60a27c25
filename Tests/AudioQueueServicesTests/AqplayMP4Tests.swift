import Foundation
import Testing
import ProcessSupport
import AudioCore
import AudioFileServices

/// aqplay looping an iTunes-style gapless M4A (iTunSMPB: 2112 priming, a remainder) offline.
@Suite("aqplay with M4A")
struct AqplayMP4Tests {
    static let file = Fixtures.root.appendingPathComponent("mp4/built-itunsmpb-2ch-44100.m4a").path

    /// `--loops 3 --offline`: three copies of the valid frames and nothing else; ffmpeg's decode
    /// (priming skipped) repeated three times, seams included.
    @Test func loopsGaplesslyOffline() throws {
        let out = AqplayTests.output("m4a-loops")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let result = try runProcess(aqplay, ["--loops", "3", "--offline", out, Self.file])
        #expect(result.status == 0, "\(result.err)")
        let valid = Int(try AudioFile(path: Self.file).validFrames)
        #expect(valid == 22050)
        #expect(result.out.contains("wrote \(3 * valid) frames"), "\(result.out)")
        let (rendered, format) = try AqplayTests.floats(out)
        #expect(format.sampleRate == 44100 && format.channelsPerFrame == 2)
        #expect(rendered.count == 3 * valid * 2)
        guard rendered.count == 3 * valid * 2 else { return }
        let data = try Data(contentsOf: URL(fileURLWithPath: Self.file + ".f32"))
        let ffmpeg: [Float] = data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        let once = Array(ffmpeg[0..<(valid * 2)])
        let looped = once + once + once
        for c in 0..<2 {
            let db = snr(reference: looped, refChannels: 2, refChannel: c, test: rendered, testChannels: 2, testChannel: c)
            #expect(db > 60, "channel \(c): \(db) dB against three ffmpeg decodes")
            for seam in 1...2 {
                let around = snr(reference: looped, refChannels: 2, refChannel: c, test: rendered, testChannels: 2, testChannel: c,
                                 from: seam * valid - 2048, frames: 4096)
                #expect(around > 60, "seam \(seam), channel \(c): \(around) dB")
            }
        }
    }
}
