import Foundation
import ProcessSupport
import Testing
import AudioTestSupport

/// aqrecord to FLAC from alsa-lib's `null` capture PCM (silence, paced by the clock; no server
/// needed): a .flac that `flac -t` passes, and CAF and M4A that ffprobe reads as FLAC, each
/// holding the frames aqrecord says it recorded.
@Suite("aqrecord to FLAC")
struct AqrecordFLACTests {
    @Test(arguments: [(["-f", "flac"], "rec.flac"), ([], "rec.flac"), (["-d", "flac/3"], "rec.caf"), (["-f", "m4af", "-d", "flac"], "rec.m4a")])
    func records(_ options: [String], _ name: String) throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("aqrecord-flac-\(getpid())-\(options.count)-\(name)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let r = try runProcess(aqrecord, ["--duration", "0.6", "--backend", "alsa", "--device", "null"] + options + [path])
        try #require(r.status == 0, "aqrecord: \(r.err)\(r.out)")
        let said = try #require(r.out.split(separator: "\n").first { $0.hasPrefix("recorded ") }, "\(r.out)")
        let frames = try #require(Int(said.split(separator: " ")[1]), "\(said)")
        #expect(frames > 20000, "\(said)")
        if name.hasSuffix(".flac") {
            let t = try runProcess("/usr/bin/flac", ["-t", "-w", "-s", path])
            #expect(t.status == 0, "flac -t: \(t.err)")
        }
        let probe = try runProcess(
            "/usr/bin/ffprobe", ["-v", "error", "-show_entries", "stream=codec_name,bits_per_raw_sample", "-of", "csv=p=0", path])
        #expect(probe.out.hasPrefix("flac,\(options.contains("flac/3") ? 24 : 16)"), "\(probe.out)")
        // ffmpeg decodes exactly the frames recorded (the last FLAC frame is short).
        let raw = path + ".raw"
        defer { try? FileManager.default.removeItem(atPath: raw) }
        let decoded = try runProcess("/usr/bin/ffmpeg", ["-v", "error", "-y", "-i", path, "-f", "s32le", raw])
        #expect(decoded.status == 0, "ffmpeg: \(decoded.err)")
        let bytes = (try? FileManager.default.attributesOfItem(atPath: raw)[.size] as? Int) ?? 0
        #expect(bytes == frames * 2 * 4, "ffmpeg decodes \(bytes / 8) frames")
    }
}
