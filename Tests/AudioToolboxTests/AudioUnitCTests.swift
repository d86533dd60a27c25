import ProcessSupport
import Testing

/// Audio Component and Audio Unit Services as a C program uses them without a device
/// (C/audio_unit_checks.c): the components it finds by Apple's descriptions and names, every
/// function's result code for misuse, and the generic output unit rendered offline — 16-bit
/// samples from a render callback arriving as k / 32768 in Float32 buffers, render
/// notifications before and after each render, listeners called and removed; AUGraphs of a
/// converter and of a mixer behind it, their interactions and result codes.
@Suite("Audio unit C API")
struct AudioUnitCTests {
    static let program = Result { try CPrograms.build("audio_unit_checks", sources: ["Tests/AudioToolboxTests/C/audio_unit_checks.c"]) }

    @Test("Components, misuse codes, offline renders through the generic output unit and graphs")
    func checks() throws {
        let r = try runProcess(try Self.program.get(), [], environment: ["AUDIOQUEUE_BACKEND": "null"])
        #expect(r.status == 0, "\(r.out)\(r.err)")
        let summary = r.out.split(separator: "\n").last { $0.hasSuffix(" failed") }.map { $0.split(separator: " ") }
        let passed = summary.flatMap { Int($0[0]) } ?? 0
        #expect(summary?[2] == "0", "\(r.out)\(r.err)")
        // Every check ran: a program that stopped early passes fewer.
        #expect(passed >= 160, "\(r.out)")
    }
}
