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
}
