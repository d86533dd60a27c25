import Foundation
import ProcessSupport
import Testing

/// AudioFileOpenWithCallbacks: a file loaded into memory and read through a read and a size
/// callback reads exactly as AudioFileOpenURL reads the path (C/file_callbacks.c), in every
/// container; a read callback's error is the failing call's result; misuse gets Apple's codes.
@Suite("Audio files through callbacks")
struct FileCallbacksTests {
    static let program = Result {
        try CPrograms.build("file_callbacks", sources: ["Tests/AudioToolboxTests/C/file_callbacks.c"], extra: ["-Wno-multichar"])
    }

    static let fixtures = [
        "Tests/Fixtures/valid/wav-pcm_s16le-2ch-44100.wav",
        "Tests/Fixtures/valid/adts-aac-2ch-44100.aac",
        "Tests/Fixtures/aac-refs/nopns-caf-aac-2ch-44100-loop.caf",
        "Tests/Fixtures/valid/aifc-adpcm_ima_qt-2ch-44100.aifc",
        "Tests/Fixtures/mp4/aac-1ch-48000-frag-basemoof.m4a",
        "Tests/Fixtures/mp3/ape-2ch-44100.mp3",
    ]

    @Test("A file in memory opened through callbacks reads as its path does", arguments: fixtures)
    func readsAsThePath(_ fixture: String) throws {
        let r = try runProcess(try Self.program.get(), [CPrograms.path(fixture)])
        #expect(r.status == 0, "\(r.out)\(r.err)")
        #expect(r.out.contains("20 passed, 0 failed"), "\(r.out)\(r.err)")
    }

    static let writer = Result {
        try CPrograms.build("file_writing", sources: ["Tests/AudioToolboxTests/C/file_writing.c"])
    }

    /// AudioFileInitializeWithCallbacks (C/file_writing.c): CAF, WAVE and AIFF of PCM, and MPEG-4
    /// and ADTS of AAC packets, written into memory and read back through
    /// AudioFileOpenWithCallbacks. The AAC files, through callbacks and through
    /// AudioFileCreateWithURL, hold what ffprobe and ffmpeg read as the fixture's packets.
    @Test("Files written through callbacks read back", arguments: ["adts-aac-2ch-44100.aac", "caf-aac-2ch-48000.caf"])
    func writesThroughCallbacks(_ fixture: String) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("file-writing-\(getpid())-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let source = CPrograms.path("Tests/Fixtures/valid/\(fixture)")
        let r = try runProcess(try Self.writer.get(), [source, dir])
        #expect(r.status == 0, "\(r.out)\(r.err)")
        #expect(r.out.contains(" passed, 0 failed"), "\(r.out)\(r.err)")
        // ffmpeg's own copy of the fixture's packets into each container is the reference: its
        // MPEG-4 packets are raw AAC, its ADTS packets carry their headers.
        for ext in ["m4a", "aac"] {
            let remuxed = "\(dir)/ffmpeg.\(ext)"
            let r = try runProcess("/usr/bin/ffmpeg", ["-v", "error", "-i", source, "-map", "0:a", "-c", "copy", "-y", remuxed])
            try #require(r.status == 0, "ffmpeg failed on \(source): \(r.err)")
            let reference = try Self.framecrc(remuxed)
            for name in ["callbacks.\(ext)", "url.\(ext)"] {
                let ours = try Self.framecrc("\(dir)/\(name)")
                #expect(ours == reference, "\(name): ffmpeg's packets differ from the fixture's")
            }
        }
        // The callbacks write the same bytes AudioFileCreateWithURL writes to a path.
        #expect(FileManager.default.contents(atPath: "\(dir)/callbacks.m4a") == FileManager.default.contents(atPath: "\(dir)/url.m4a"))
        #expect(FileManager.default.contents(atPath: "\(dir)/callbacks.aac") == FileManager.default.contents(atPath: "\(dir)/url.aac"))
    }

    /// ffmpeg's demux of a file: the size and Adler-32 of each packet.
    static func framecrc(_ path: String) throws -> [String] {
        let r = try runProcess("/usr/bin/ffmpeg", ["-v", "error", "-i", path, "-map", "0:a", "-c", "copy", "-f", "framecrc", "-"])
        try #require(r.status == 0, "ffmpeg failed on \(path): \(r.err)")
        return r.out.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { line in
            let fields = line.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            return fields.count >= 6 ? "\(fields[4]) \(fields[5])" : String(line)
        }
    }
}
