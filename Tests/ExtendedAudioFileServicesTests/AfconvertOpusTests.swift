import Foundation
import ProcessSupport
import Testing

/// `afconvert` to Opus: .opus by extension (Ogg Opus), `-f caff -d opus`, `-f m4af -d opus`,
/// from a 44.1 kHz source resampled to 48 kHz, with `-b`; checked with opusinfo and ffmpeg.
@Suite("afconvert to Opus")
struct AfconvertOpusTests {
    @Test func oggCafAndM4A() throws {
        let tool = try #require(ffmpeg, "ffmpeg is needed to make the source and check the files")
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/opusinfo"), "opusinfo (opus-tools) is not installed")
        let input = temporaryPath("src-44100.wav")
        let made = try run(tool, [
            "-v", "error", "-y", "-f", "lavfi", "-i", "sine=f=440:d=2:r=44100", "-ac", "2", "-c:a", "pcm_s16le", input,
        ])
        try #require(made.status == 0, "ffmpeg: \(made.err)")
        for (arguments, name) in [(["-b", "64000"], "out.opus"), (["-f", "caff", "-d", "opus"], "out.caf"), (["-f", "m4af", "-d", "opus"], "out.m4a")] {
            let out = temporaryPath(name)
            defer { try? FileManager.default.removeItem(atPath: out) }
            let r = try run(afconvert, arguments + [input, out])
            #expect(r.status == 0, "afconvert \(arguments): \(r.err)")
            let probe = try run("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "stream=codec_name,sample_rate", "-of", "default=nw=1", out])
            #expect(probe.out.contains("codec_name=opus") && probe.out.contains("sample_rate=48000"), "\(name): \(probe.out)")
            guard name == "out.opus" else { continue }
            let info = try run("/usr/bin/opusinfo", [out])
            #expect(info.status == 0 && !info.out.contains("WARNING"), "\(info.out)")
            // 2 s at 44.1 kHz is 96000 frames at 48 kHz: ffmpeg's decode, trimmed at both ends.
            let raw = out + ".f32"
            let d = try run(tool, ["-v", "error", "-y", "-i", out, "-f", "f32le", raw])
            #expect(d.status == 0, "ffmpeg: \(d.err)")
            let size = (try? FileManager.default.attributesOfItem(atPath: raw)[.size] as? Int) ?? 0
            #expect(size == 96000 * 2 * 4, "ffmpeg decodes \(size / 8) frames")
        }
    }
}
