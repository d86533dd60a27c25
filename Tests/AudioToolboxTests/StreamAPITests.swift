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

/// A stream whose format changes, through the C API (C/stream_format_change.c): the listener
/// hears the new data format and ready to produce packets again, and every packet ffprobe
/// counts arrives (Tests/Fixtures/mp3-concat).
@Suite("C API: a stream whose format changes")
struct StreamFormatChangeCTests {
    static let program = Result {
        try CPrograms.build("stream_format_change", sources: ["Tests/AudioToolboxTests/C/stream_format_change.c"])
    }

    @Test(arguments: [1, 1000, 1 << 20])
    func everyPacketUnderItsFormat(piece: Int) throws {
        let fixture = "Tests/Fixtures/mp3-concat/five-formats.mp3"
        let reference = try String(contentsOfFile: CPrograms.path(fixture + ".ffprobe.txt"), encoding: .utf8)
            .split(separator: "\n").map { $0.split(whereSeparator: { $0 == "," || $0 == " " }).map(String.init) }
        let r = try runProcess(try Self.program.get(), [CPrograms.path(fixture), String(piece)])
        #expect(r.status == 0, "\(r.out)\(r.err)")
        let lines = r.out.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        let formats = lines.filter { $0.first == "format" }
        #expect(lines.first { $0.first == "total" }?.last == reference[0][0])
        #expect(formats.map { [$0[1], $0[2]] } == reference.dropFirst().map { [$0[0], $0[1]] })
        // Each part after the first delivers its Info frame as a packet, as ffprobe counts it.
        #expect(formats.map { Int($0[3]) ?? -1 } == reference.dropFirst().enumerated().map { (Int($0.element[2]) ?? 0) + ($0.offset > 0 ? 1 : 0) })
        let order = lines.first { $0.first == "order" }.map { $0.dropFirst().joined(separator: " ") } ?? ""
        #expect(order.hasSuffix(Array(repeating: "redy dfmt", count: 4).joined(separator: " ") + " redy"), "\(order)")
    }
}
