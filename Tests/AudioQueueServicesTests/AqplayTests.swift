import Foundation
import Testing
import ProcessSupport
import AudioCore
import AudioFileServices

/// aqplay, the guide's Playing Audio chapter as a program, rendering offline: its output is
/// checked against ffmpeg's decode of the same file.
@Suite("aqplay")
struct AqplayTests {
    static let loopFile = Fixtures.root.appendingPathComponent("aac-refs/nopns-caf-aac-2ch-44100-loop.caf").path

    /// The samples of a 32-bit float WAVE file.
    static func floats(_ path: String) throws -> (samples: [Float], format: AudioStreamBasicDescription) {
        let file = try AudioFile(path: path)
        let bytes = try file.readBytes(at: 0, count: Int(file.dataByteCount))
        return (bytes.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }, file.dataFormat)
    }

    static func output(_ label: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("aqplay-\(getpid())-\(label).wav").path
    }

    /// `--loops 3 --offline`: QA1636's gapless loop, three times ffmpeg's decode, at the file's
    /// rate and channel count, and nothing else.
    @Test func loopsGaplesslyOffline() throws {
        let out = Self.output("loops")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let result = try runProcess(aqplay, ["--loops", "3", "--offline", out, Self.loopFile])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.contains("wrote 158760 frames"), "\(result.out)")
        let (rendered, format) = try Self.floats(out)
        #expect(format.sampleRate == 44100 && format.channelsPerFrame == 2 && format.bitsPerChannel == 32)
        let ffmpeg = try ffmpegAACReference(Self.loopFile)
        #expect(rendered.count == 3 * ffmpeg.count)
        guard rendered.count == 3 * ffmpeg.count else { return }
        let looped = ffmpeg + ffmpeg + ffmpeg
        for c in 0..<2 {
            let db = snr(reference: looped, refChannels: 2, refChannel: c, test: rendered, testChannels: 2, testChannel: c)
            #expect(db > 100, "channel \(c): \(db) dB against three ffmpeg decodes")
            for seam in 1...2 {
                let at = seam * ffmpeg.count / 2
                let around = snr(reference: looped, refChannels: 2, refChannel: c, test: rendered, testChannels: 2, testChannel: c,
                                 from: at - 2048, frames: 4096)
                #expect(around > 100, "seam \(seam), channel \(c): \(around) dB")
            }
        }
    }

    /// `--volume 0.5` (Listing 3-16's gain): every sample of the rendering is half the one at
    /// unity gain — a halving is exact in floating point.
    @Test func volumeScalesEverySample() throws {
        let unity = Self.output("unity"), half = Self.output("half")
        defer {
            try? FileManager.default.removeItem(atPath: unity)
            try? FileManager.default.removeItem(atPath: half)
        }
        let input = Fixtures.path("wav-pcm_s16le-2ch-44100.wav")
        #expect(try runProcess(aqplay, ["--offline", unity, input]).status == 0)
        #expect(try runProcess(aqplay, ["--volume", "0.5", "--offline", half, input]).status == 0)
        let a = try Self.floats(unity).samples, b = try Self.floats(half).samples
        #expect(a.count == b.count && !a.isEmpty)
        #expect(a.contains { $0 != 0 })
        let first = a.indices.first { a[$0] * 0.5 != b[$0] }
        #expect(first == nil, "sample \(first ?? -1) is not half the unity-gain sample")
    }

    /// Listing 3-7 sizes buffers for half a second of the largest packets, between 16 KiB and
    /// 320 KiB: a bad argument is refused with usage, not played.
    @Test func refusesBadArguments() throws {
        for arguments in [["--loops", "-1", Self.loopFile], ["--volume", "2", Self.loopFile], ["--offline"], []] {
            let result = try runProcess(aqplay, arguments)
            #expect(result.status == 2, "\(arguments): exit \(result.status)")
            #expect(result.err.contains("usage"), "\(arguments): \(result.err)")
        }
        let missing = try runProcess(aqplay, ["--offline", Self.output("none"), "/nonexistent.caf"])
        #expect(missing.status == 1)
        #expect(!missing.err.isEmpty)
    }
}
