import Foundation
import ProcessSupport
import Testing

/// Audio File Stream Services through the C API (C/stream_checks.c, built against
/// libAudioToolbox.so): every packet a stream delivers equals AudioFileReadPacketData's, and
/// misuse gives Apple's result codes.
@Suite("C API: Audio File Stream Services")
struct StreamAPITests {
    static let program = Result { try CPrograms.build("stream_checks", sources: ["Tests/AudioToolboxTests/C/stream_checks.c"]) }
    static let sanitized = Result {
        try CPrograms.build(
            "stream_checks_asan", sources: ["Tests/AudioToolboxTests/C/stream_checks.c"],
            extra: ["-fsanitize=address", "-fno-omit-frame-pointer"])
    }

    static let fixtures = [
        "Tests/Fixtures/valid/adts-aac-2ch-44100.aac", "Tests/Fixtures/mp3/vbr-q4-2ch-44100.mp3",
        "Tests/Fixtures/valid/caf-aac-2ch-48000.caf", "Tests/Fixtures/valid/wav-pcm_s24le-2ch-48000.wav",
        "Tests/Fixtures/valid/aifc-adpcm_ima_qt-2ch-44100.aifc", "Tests/Fixtures/mp4/aac-2ch-44100-faststart.m4a",
    ]

    @Test(arguments: fixtures, [1, 1000, 1 << 20])
    func packetsMatchAudioFileReadPacketData(_ fixture: String, _ piece: Int) throws {
        let r = try runProcess(try Self.program.get(), [CPrograms.path(fixture), String(piece)])
        #expect(r.status == 0, "\(r.out)\(r.err)")
        #expect(r.out.contains(" passed, 0 failed"), "\(r.out)")
    }

    @Test func misuseGivesApplesCodes() throws {
        let r = try runProcess(try Self.sanitized.get(), ["errors", CPrograms.path("Tests/Fixtures/valid/wav-pcm_s16le-2ch-44100.wav")])
        #expect(r.status == 0, "\(r.out)\(r.err)")
        #expect(r.out.contains(" passed, 0 failed"), "\(r.out)")
    }

    @Test func underAddressSanitizer() throws {
        for fixture in Self.fixtures {
            let r = try runProcess(try Self.sanitized.get(), [CPrograms.path(fixture), "777"])
            #expect(r.status == 0, "\(fixture): \(r.out)\(r.err)")
        }
    }
}
