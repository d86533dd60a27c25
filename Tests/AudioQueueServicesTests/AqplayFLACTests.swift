import Foundation
import Testing
import ProcessSupport
import AudioCore
import AudioFileServices

/// aqplay plays FLAC: rendered offline, the samples are ffmpeg's decode exactly (16-bit samples
/// are exact in Float32), looped without a gap.
@Suite("aqplay FLAC")
struct AqplayFLACTests {
    static func path(_ name: String) -> String { Fixtures.root.appendingPathComponent("flac/\(name)").path }

    /// ffmpeg's Float32 decode of `path`.
    static func ffmpegFloats(_ path: String) throws -> [Float] {
        let raw = FileManager.default.temporaryDirectory.appendingPathComponent("aqplay-flac-\(getpid())-\((path as NSString).lastPathComponent).f32").path
        defer { try? FileManager.default.removeItem(atPath: raw) }
        let r = try runProcess("/usr/bin/ffmpeg", ["-nostdin", "-v", "error", "-y", "-i", path, "-f", "f32le", "-c:a", "pcm_f32le", raw])
        #expect(r.status == 0, "\(r.err)")
        let data = try #require(FileManager.default.contents(atPath: raw))
        return data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }

    @Test(arguments: ["flac-2ch-44100-s16.flac", "flac-2ch-44100-s16.m4a", "flac-2ch-44100-s16-variable.flac"])
    func loopsGaplesslyOffline(name: String) throws {
        let out = AqplayTests.output("flac-loops-\(name)")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let result = try runProcess(aqplay, ["--loops", "2", "--offline", out, Self.path(name)])
        #expect(result.status == 0, "\(result.err)")
        let (rendered, format) = try AqplayTests.floats(out)
        #expect(format.sampleRate == 44100 && format.channelsPerFrame == 2)
        let reference = try Self.ffmpegFloats(Self.path(name))
        #expect(!reference.isEmpty && rendered.count == 2 * reference.count)
        let first = rendered.indices.first { rendered[$0] != reference[$0 % max(reference.count, 1)] }
        #expect(first == nil, "sample \(first ?? -1) differs from ffmpeg's decode")
    }
}
