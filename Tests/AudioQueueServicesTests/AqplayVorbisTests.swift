import Foundation
import Testing
import ProcessSupport
import AudioCore
import AudioFileServices
import AudioTestSupport

/// aqplay looping Ogg Vorbis files offline: the first packet's quarter block and any trimmed
/// start (priming) and the end trimming (remainder) come from the Ogg pages, and the decoder
/// keeps each packet to its duration across the seam, so every copy is the same decode: oggdec's
/// length, and ffmpeg's samples (aqplay decodes with libavcodec's Vorbis decoder, as ffmpeg does).
@Suite("aqplay with Ogg Vorbis")
struct AqplayVorbisTests {
    /// `--loops 3 --offline`: three copies of the valid frames (oggdec's length), each ffmpeg's
    /// float decode bit for bit over the frames both give (ffmpeg trims the end by its own rule;
    /// Adler-32 recorded by the fixture script).
    @Test(arguments: ["ffmpeg-stereo-48000.ogg", "oggenc-mono-44100.ogg"])
    func loopsGaplesslyOffline(_ name: String) throws {
        let file = Fixtures.vorbis.appendingPathComponent(name).path
        let out = AqplayTests.output("vorbis-loops-\(name)")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let result = try runProcess(aqplay, ["--loops", "3", "--offline", out, file])
        #expect(result.status == 0, "\(result.err)")
        let reference = try String(contentsOf: Fixtures.vorbis.appendingPathComponent(name.replacingOccurrences(of: ".ogg", with: ".ref")), encoding: .utf8)
        let fields = Dictionary(uniqueKeysWithValues: reference.split(separator: "\n").compactMap { line -> (String, String)? in
            let parts = line.split(separator: "=", maxSplits: 1)
            return parts.count == 2 ? (String(parts[0]), String(parts[1])) : nil
        })
        let frames = try #require(fields["frames"].flatMap { Int($0) })
        let ffmpegFrames = try #require(fields["ffmpeg_frames"].flatMap { Int($0) })
        let adler = try #require(fields["ffmpeg_f32adler"].flatMap { UInt32($0.dropFirst(2), radix: 16) })
        let common = min(frames, ffmpegFrames)
        #expect(result.out.contains("wrote \(3 * frames) frames"), "\(result.out)")
        let (rendered, format) = try AqplayTests.floats(out)
        let channels = Int(format.channelsPerFrame)
        guard rendered.count == 3 * frames * channels else { Issue.record("\(rendered.count) samples"); return }
        for copy in 0..<3 {
            let part = rendered[(copy * frames * channels)..<((copy * frames + common) * channels)]
            #expect(adler32(Array(part)) == adler, "\(name): copy \(copy + 1) differs from ffmpeg's decode")
        }
    }

    /// `aqplay --offline OUT - < FILE`: Audio File Stream Services cut the Ogg pages; the render
    /// begins with every frame the file renders, bit for bit (a stream reports no valid frame
    /// count, so its end is not trimmed: at most one packet's frames follow).
    @Test(arguments: ["ffmpeg-stereo-48000.ogg", "oggenc-51-48000.ogg"])
    func standardInputStartsAsTheFile(_ name: String) throws {
        let file = Fixtures.vorbis.appendingPathComponent(name).path
        let asFile = AqplayTests.output("vorbis-file-\(name)"), asStream = AqplayTests.output("vorbis-stdin-\(name)")
        defer {
            try? FileManager.default.removeItem(atPath: asFile)
            try? FileManager.default.removeItem(atPath: asStream)
        }
        #expect(try runProcess(aqplay, ["--offline", asFile, file]).status == 0)
        let result = try AqplayStreamTests.aqplayWithInput(["--offline", asStream, "-"], stdinPath: file)
        #expect(result.status == 0, "\(result.err)")
        let (fromFile, format) = try AqplayTests.floats(asFile)
        let (fromStream, _) = try AqplayTests.floats(asStream)
        let channels = Int(format.channelsPerFrame)
        #expect(fromStream.count >= fromFile.count && fromStream.count <= fromFile.count + 4096 * channels)
        #expect(Array(fromStream.prefix(fromFile.count)) == fromFile)
    }
}
