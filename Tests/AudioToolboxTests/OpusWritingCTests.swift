import Foundation
import ProcessSupport
import Testing

/// Opus written through the C API (C/opus_writer.c): ExtAudioFile from 44.1 kHz client frames
/// to Ogg, CAF and M4A, with a bit rate and the package's application property. ffmpeg decodes
/// the Ogg file to the resampled length; opusinfo reads the pre-skip libopus documents for the
/// restricted low-delay application (2.5 ms: 120 frames) and the usual one otherwise.
@Suite("Opus writing in C")
struct OpusWritingCTests {
    static let program = Result { try CPrograms.build("opus_writer", sources: ["Tests/AudioToolboxTests/C/opus_writer.c"]) }

    static func run(_ arguments: [String]) throws -> String {
        let r = try GuideTests.run(try program.get(), arguments)
        try #require(r.status == 0, "opus_writer \(arguments.joined(separator: " ")): \(r.err)\(r.out)")
        return r.out
    }

    static func path(_ name: String) -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("opuswriter-\(getpid())-\(UUID().uuidString.prefix(8))")
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir.appendingPathComponent(name).path
    }

    @Test("ExtAudioFileCreateWithURL writes Opus to Ogg, resampled, with the application set", arguments: ["audio", "voip", "lowdelay"])
    func ogg(_ application: String) throws {
        try #require(["/usr/bin/ffmpeg", "/usr/bin/opusinfo"].allSatisfy { FileManager.default.isExecutableFile(atPath: $0) })
        let out = Self.path("x.opus")
        let printed = try Self.run([out, "OggS", application, "88200"])
        let code = ["voip": 2048, "audio": 2049, "lowdelay": 2051][application]!
        #expect(printed.contains("rate 48000 frames/packet 960 application \(code) refused -50"), "\(printed)")
        #expect(printed.contains("frames 88200"))
        let info = try runProcess("/usr/bin/opusinfo", [out])
        #expect(info.status == 0 && !info.out.contains("WARNING"), "\(info.out)\(info.err)")
        #expect(info.out.contains("Pre-skip: \(application == "lowdelay" ? 120 : 312)"), "\(info.out)")
        let raw = out + ".f32"
        let r = try runProcess("/usr/bin/ffmpeg", ["-nostdin", "-v", "error", "-y", "-i", out, "-f", "f32le", raw])
        #expect(r.status == 0, "\(r.err)")
        let bytes = (try? Data(contentsOf: URL(fileURLWithPath: raw)).count) ?? 0
        #expect(bytes == 96000 * 2 * 4, "ffmpeg decodes \(bytes / 8) frames; 2 s at 48 kHz is 96000")
    }

    @Test("CAF and M4A take Opus through ExtAudioFile", arguments: ["caff", "m4af"])
    func otherContainers(_ type: String) throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/ffprobe"))
        let out = Self.path(type == "caff" ? "x.caf" : "x.m4a")
        let printed = try Self.run([out, type, "audio", "44100"])
        #expect(printed.contains("frames 44100"), "\(printed)")
        let r = try runProcess("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "stream=codec_name,sample_rate", "-of", "default=nw=1", out])
        #expect(r.out.contains("codec_name=opus") && r.out.contains("sample_rate=48000"), "\(r.out)\(r.err)")
    }
}
