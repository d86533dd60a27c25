import Foundation
import Testing
import AudioCore
import AudioFileServices
import ProcessSupport

/// Runs a program and returns its status, standard output and standard error.
func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
    try runProcess(executable, arguments)
}

let afconvert = Fixtures.packageRoot.appendingPathComponent(".build/debug/afconvert").path

/// ffmpeg, which Scripts/test installs; the writer's output is checked by it.
let ffmpeg = ["/usr/bin/ffmpeg", "/usr/local/bin/ffmpeg"].first { FileManager.default.isExecutableFile(atPath: $0) }

func temporaryPath(_ name: String) -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("afconvert-tests-\(getpid())-\(name)").path
}

/// ffmpeg's Adler-32 of its float decode of `path`.
func ffmpegFloatCRC(_ path: String) throws -> UInt32? {
    let tool = try #require(ffmpeg, "ffmpeg is needed to check written files (Scripts/test installs it)")
    let result = try run(tool, ["-v", "error", "-i", path, "-map", "0:a", "-c:a", "pcm_f32le", "-f", "crc", "-"])
    let text = result.out
    guard result.status == 0, let range = text.range(of: "CRC=0x") else { return nil }
    return UInt32(text[range.upperBound...].prefix { $0.isHexDigit }, radix: 16)
}

@Suite("afconvert")
struct AfconvertTests {
    /// `afconvert -f WAVE -d LEF32` of every bit-exactly decodable fixture holds exactly
    /// ffmpeg's float decode of the source.
    @Test(arguments: Fixtures.bitExact)
    func leF32WaveEqualsFFmpegDecode(name: String) throws {
        let expected = try Fixtures.ffmpegCRC(name)
        let out = temporaryPath(name + ".wav")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let result = try run(afconvert, ["-f", "WAVE", "-d", "LEF32", Fixtures.path(name), out])
        #expect(result.status == 0, "\(result.err)")
        let file = try AudioFile(path: out)
        #expect(file.fileType == .wave)
        #expect(file.dataFormat.isFloat && file.dataFormat.bitsPerChannel == 32 && !file.dataFormat.isBigEndian)
        let data = try file.readBytes(at: 0, count: Int(file.dataByteCount))
        var sum = Adler32()
        data.withUnsafeBytes { sum.update($0) }
        #expect(sum.value == expected)
        if file.dataFormat.channelsPerFrame > 2 {
            let container = try #require(file.container as? WAVEFormat)
            #expect(container.formatTag == 3)  // float, given in WAVE_FORMAT_EXTENSIBLE's sub-format
            #expect(file.channelLayout?.numberOfChannels == Int(file.dataFormat.channelsPerFrame))
        }
    }

    /// Every container and sample format afconvert writes decodes, in ffmpeg, to the source's
    /// samples (the conversions chosen are the exact ones: 16-bit sources widened or kept).
    @Test(arguments: [
        ("WAVE", "LEI16", "wav"), ("WAVE", "LEI24", "wav"), ("WAVE", "LEI32", "wav"), ("WAVE", "LEF64", "wav"),
        ("caff", "BEI16", "caf"), ("caff", "LEI24", "caf"), ("caff", "BEF32", "caf"), ("caff", "LEF64", "caf"),
        ("AIFF", "BEI16", "aif"), ("AIFF", "BEI24", "aif"), ("AIFF", "BEI32", "aif"), ("AIFF", "BEF32", "aif"),
        ("AIFF", "LEI16", "aif"),
    ])
    func writtenFilesDecodeInFFmpeg(type: String, data: String, ext: String) throws {
        for name in ["wav-pcm_s16le-2ch-44100.wav", "aiff-pcm_s16be-6ch-22050.aiff", "caf-adpcm_ima_qt-2ch-44100.caf"] {
            let expected = try Fixtures.ffmpegCRC(name)
            let out = temporaryPath("\(name)-\(data).\(ext)")
            defer { try? FileManager.default.removeItem(atPath: out) }
            let result = try run(afconvert, ["-f", type, "-d", data, Fixtures.path(name), out])
            #expect(result.status == 0, "\(result.err)")
            #expect(try ffmpegFloatCRC(out) == expected, "\(name) → \(type) \(data)")
            let file = try AudioFile(path: out)
            #expect(file.packetCount == (try AudioFile(path: Fixtures.path(name))).totalFrames)
            if type == "AIFF" {
                #expect(file.dataFormat.isBigEndian || file.dataFormat.isFloat || file.fileType == .aifc)
                #expect(file.dataFormat.isBigEndian || file.fileType == .aifc)
            }
        }
    }

    /// Defaults that the container cannot hold as they are become what it can: float to AIFF
    /// is big-endian AIFF-C, 8-bit unsigned to CAF or AIFF becomes signed; ffmpeg reads back
    /// the source's samples.
    @Test(arguments: [
        ("wav-pcm_f32le-2ch-11025.wav", "aif"), ("wav-pcm_f64le-1ch-96000.wav", "aif"),
        ("wav-pcm_u8-1ch-8000.wav", "caf"), ("wav-pcm_u8-1ch-8000.wav", "aif"), ("caf-pcm_s24be-1ch-96000.caf", "wav"),
    ])
    func defaultFormatsSurviveTheContainer(name: String, ext: String) throws {
        let expected = try Fixtures.ffmpegCRC(name)
        let out = temporaryPath("default-\(name).\(ext)")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let result = try run(afconvert, [Fixtures.path(name), out])
        #expect(result.status == 0, "\(result.err)")
        #expect(try ffmpegFloatCRC(out) == expected)
    }

    /// Converting a file onto itself is refused and leaves it intact; a failed conversion leaves
    /// no output behind.
    @Test func neverDestroysInputOrLeavesPartialOutput() throws {
        let copy = temporaryPath("self.wav")
        defer { try? FileManager.default.removeItem(atPath: copy) }
        try FileManager.default.copyItem(atPath: Fixtures.path("wav-pcm_s16le-2ch-44100.wav"), toPath: copy)
        let before = try Data(contentsOf: URL(fileURLWithPath: copy))
        let result = try run(afconvert, [copy, copy])
        #expect(result.status == 2)
        #expect(try Data(contentsOf: URL(fileURLWithPath: copy)) == before)
        let name = try #require(Fixtures.undecodable.first)
        let out = temporaryPath("never.wav")
        _ = try run(afconvert, ["-d", "LEF32", Fixtures.path(name), out])
        #expect(!FileManager.default.fileExists(atPath: out))
        // Only this output's partial files: the directory is shared with every other process.
        let partial = URL(fileURLWithPath: out).lastPathComponent + ".afconvert-"
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: URL(fileURLWithPath: out).deletingLastPathComponent().path)
            .filter { $0.hasPrefix(partial) }
        #expect(leftovers.isEmpty)
    }

    @Test func undecodableInputFailsWithFmt() throws {
        let name = try #require(Fixtures.undecodable.first)
        let out = temporaryPath("undecodable.wav")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let result = try run(afconvert, ["-f", "WAVE", "-d", "LEF32", Fixtures.path(name), out])
        #expect(result.status == 1)
        #expect(result.err.contains("'fmt?'"))
    }

    @Test func badArgumentsAreUsageErrors() throws {
        #expect(try run(afconvert, []).status == 2)
        #expect(try run(afconvert, ["-d", "XYZ", Fixtures.path("wav-pcm_s16le-2ch-44100.wav"), temporaryPath("x.wav")]).status == 2)
        #expect(try run(afconvert, ["-f", "mp3", "a", "b"]).status == 2)
        #expect(try run(afconvert, ["--threads", "0", "a.aac", "b.wav"]).status == 2)
        #expect(try run(afconvert, ["--threads"]).status == 2)
        let missing = try run(afconvert, ["/nonexistent.wav", temporaryPath("y.wav")])
        #expect(missing.status == 1)
        #expect(missing.err.contains("-43"))
    }

    /// `--threads N` writes the same file as `--threads 1` (the single-threaded read), for AAC,
    /// MP3 and ALAC fixtures (one piece) and 40-second AAC and MP3 files (several pieces in
    /// flight on several threads).
    @Test(arguments: ["valid/adts-aac-6ch-48000.aac", "mp4/aac-2ch-44100.m4a", "mp3/vbr-q4-2ch-44100.mp3", "alac/alac-2ch-44100-s16-tone.caf", "long.aac", "long.mp3"])
    func threadsWriteTheSameFile(fixture: String) throws {
        let source: String
        switch fixture {
        case "long.aac":
            source = try Pieces.long(fixture, codec: ["-c:a", "aac", "-b:a", "128k", "-f", "adts"])
        case "long.mp3":
            source = try Pieces.long(fixture, codec: ["-c:a", "libmp3lame", "-b:a", "128k"])
        default:
            source = Fixtures.root.appendingPathComponent(fixture).path
        }
        let name = fixture.replacingOccurrences(of: "/", with: "-")
        let single = temporaryPath(name + "-1.wav")
        defer { try? FileManager.default.removeItem(atPath: single) }
        let one = try run(afconvert, ["--threads", "1", "-d", "LEI24", source, single])
        #expect(one.status == 0, "\(one.err)")
        let expected = try Data(contentsOf: URL(fileURLWithPath: single))
        for threads in ["2", "5"] {
            let out = temporaryPath(name + "-\(threads).wav")
            defer { try? FileManager.default.removeItem(atPath: out) }
            let result = try run(afconvert, ["--threads", threads, "-d", "LEI24", source, out])
            #expect(result.status == 0, "\(result.err)")
            let same = try Data(contentsOf: URL(fileURLWithPath: out)) == expected
            #expect(same, "\(fixture), \(threads) threads")
        }
    }
}
