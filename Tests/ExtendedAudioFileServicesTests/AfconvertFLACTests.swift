import Foundation
import ProcessSupport
import Testing

/// `afconvert` to FLAC: .flac (by extension or `-f flac`), CAF and M4A (`-d flac`), the
/// source's bit depth kept, checked with flac and ffmpeg against the source.
@Suite("afconvert to FLAC")
struct AfconvertFLACTests {
    /// ffmpeg's MD5 of `path` decoded to `format` (`s16le`, `s32le`).
    static func md5(_ path: String, _ format: String) throws -> String {
        let tool = try #require(ffmpeg, "ffmpeg is needed to check written files (Scripts/test installs it)")
        let r = try run(tool, ["-v", "error", "-i", path, "-map", "0:a", "-f", "md5", "-c:a", "pcm_\(format)", "-"])
        try #require(r.status == 0, "ffmpeg: \(r.err)")
        return r.out
    }

    /// A source made by ffmpeg: `codec` samples (`pcm_s16le`, …) of noise and a tone.
    static func source(_ name: String, codec: String, rate: Int, channels: Int) throws -> String {
        let tool = try #require(ffmpeg, "ffmpeg is needed to make the source")
        let path = temporaryPath(name)
        let r = try run(tool, [
            "-v", "error", "-y", "-f", "lavfi", "-i", "anoisesrc=d=1.3:a=0.2:r=\(rate)", "-f", "lavfi", "-i", "sine=f=440:d=1.3:r=\(rate)",
            "-filter_complex", "amix=inputs=2,pan=\(channels)c|" + (0..<channels).map { "c\($0)=c0" }.joined(separator: "|"),
            "-c:a", codec, path,
        ])
        try #require(r.status == 0, "ffmpeg: \(r.err)")
        return path
    }

    @Test(arguments: [
        ("pcm_s16le", 44100, 2, "s16le"), ("pcm_s24le", 96000, 6, "s32le"), ("pcm_u8", 8000, 1, "s16le"), ("pcm_s16le", 384_000, 8, "s16le"),
        ("pcm_s32le", 48000, 2, "s32le"),
    ])
    func lossless(_ codec: String, _ rate: Int, _ channels: Int, _ compare: String) throws {
        let input = try Self.source("src-\(codec)-\(rate).wav", codec: codec, rate: rate, channels: channels)
        let expected = try Self.md5(input, compare)
        for (arguments, name) in [([String](), "out.flac"), (["-f", "flac"], "out.fl"), (["-d", "flac"], "out.caf"), (["-f", "m4af", "-d", "flac"], "out.m4a")] {
            let out = temporaryPath("\(rate)-\(name)")
            defer { try? FileManager.default.removeItem(atPath: out) }
            let r = try run(afconvert, arguments + [input, out])
            #expect(r.status == 0, "afconvert \(arguments): \(r.err)")
            if name.hasPrefix("out.fl") {
                let t = try run("/usr/bin/flac", ["-t", "-w", "-s", out])
                #expect(t.status == 0, "flac -t \(name): \(t.err)")
            }
            if codec == "pcm_s32le" {
                // ffmpeg 5 does not decode 32-bit FLAC: flac decodes the .flac files.
                guard name.hasPrefix("out.fl") else { continue }
                let raw = out + ".raw"
                let d = try run("/usr/bin/flac", ["-s", "-d", "-f", "--force-raw-format", "--endian=little", "--sign=signed", "-o", raw, out])
                #expect(d.status == 0, "flac -d: \(d.err)")
                let source = try run(try #require(ffmpeg), ["-v", "error", "-y", "-i", input, "-f", "s32le", input + ".raw"])
                #expect(source.status == 0)
                let same = FileManager.default.contentsEqual(atPath: raw, andPath: input + ".raw")
                #expect(same, "\(name) decodes to other samples")
                continue
            }
            #expect(try Self.md5(out, compare) == expected, "\(name) decodes to other samples")
        }
    }

    /// The committed sources (8-bit to 32-bit, 1 to 8 channels, 8 to 384 kHz): afconvert's .flac
    /// passes `flac -t` and `flac -d` gives ffmpeg's decode of the source, byte for byte; its CAF
    /// decodes (ffmpeg) to the same, where ffmpeg decodes FLAC of that depth.
    @Test(arguments: Fixtures.audioFiles(in: Fixtures.flacWrite))
    func fixtures(_ name: String) throws {
        let tool = try #require(ffmpeg, "ffmpeg is needed to check written files (Scripts/test installs it)")
        let input = Fixtures.flacWrite.appendingPathComponent(name).path
        // What flac -d writes raw for each depth, as ffmpeg names it.
        let raw = name.hasSuffix("u8.wav") ? "s8" : name.hasSuffix("s24.wav") ? "s24le" : name.hasSuffix("s32.wav") ? "s32le" : "s16le"
        let reference = temporaryPath("\(name).ref")
        let r = try run(tool, ["-v", "error", "-y", "-i", input, "-f", raw, "-c:a", "pcm_\(raw)", reference])
        try #require(r.status == 0, "ffmpeg: \(r.err)")
        for out in [temporaryPath("\(name).flac"), temporaryPath("\(name).caf")] {
            defer { try? FileManager.default.removeItem(atPath: out) }
            let a = try run(afconvert, ["-d", "flac", input, out])
            #expect(a.status == 0, "afconvert: \(a.err)")
            let decoded = out + ".raw"
            if out.hasSuffix(".flac") {
                #expect(try run("/usr/bin/flac", ["-t", "-w", "-s", out]).status == 0, "flac -t \(name)")
                let d = try run("/usr/bin/flac", ["-s", "-d", "-f", "--force-raw-format", "--endian=little", "--sign=signed", "-o", decoded, out])
                #expect(d.status == 0, "flac -d: \(d.err)")
            } else {
                guard raw != "s32le" else { continue }  // ffmpeg 5 does not decode 32-bit FLAC
                let d = try run(tool, ["-v", "error", "-y", "-i", out, "-f", raw, "-c:a", "pcm_\(raw)", decoded])
                #expect(d.status == 0, "ffmpeg: \(d.err)")
            }
            #expect(FileManager.default.contentsEqual(atPath: decoded, andPath: reference), "\(out) decodes to other samples")
        }
    }

    /// `-d flac/3` writes a 24-bit FLAC of a 16-bit source (its samples shifted up, exactly).
    @Test func depthFromFlags() throws {
        let input = try Self.source("src16.wav", codec: "pcm_s16le", rate: 48000, channels: 2)
        let out = temporaryPath("as24.flac")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let r = try run(afconvert, ["-d", "flac/3", "-q", "127", input, out])
        #expect(r.status == 0, "\(r.err)")
        let probe = try run("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "stream=bits_per_raw_sample", "-of", "csv=p=0", out])
        #expect(probe.out.trimmingCharacters(in: .whitespacesAndNewlines) == "24")
        #expect(try Self.md5(out, "s32le") == Self.md5(input, "s32le"))
    }
}
