import Foundation
import ProcessSupport
import Testing

/// The C API's result codes and threading, checked by a C program (C/api_checks.c, with
/// C/format_checks.c for Audio Format Services and the queues' converter properties) built
/// against libAudioToolbox.so. Live playback goes to the null device, which plays in real time.
@Suite("C API")
struct APITests {
    static let fixture = CPrograms.path("Tests/Fixtures/valid/wav-pcm_s16le-2ch-44100.wav")
    static let environment = ["AUDIOQUEUE_BACKEND": "null"]

    /// Built once: the tests run at the same time, and a program being rewritten cannot run.
    static let sources = ["Tests/AudioToolboxTests/C/api_checks.c", "Tests/AudioToolboxTests/C/file_checks.c", "Tests/AudioToolboxTests/C/format_checks.c", "Tests/AudioToolboxTests/C/cf_misuse.c", "Tests/AudioToolboxTests/C/hal_checks.c", "Tests/AudioToolboxTests/C/converter_checks.c", "Tests/AudioToolboxTests/C/tap_checks.c"]
    static let program = Result { try CPrograms.build("api_checks", sources: sources, extra: ["-pthread"]) }
    static let sanitized = Result {
        try CPrograms.build(
            "api_checks_asan", sources: sources,
            extra: ["-pthread", "-fsanitize=address", "-fno-omit-frame-pointer"])
    }

    static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, out: String) {
        let r = try runProcess(executable, arguments, environment: environment)
        return (r.status, r.out + r.err)
    }

    static func summary(_ out: String) -> (passed: Int, failed: Int)? {
        guard let line = out.split(separator: "\n").last(where: { $0.hasSuffix("failed") }) else { return nil }
        let numbers = line.split(separator: " ").compactMap { Int(String($0).trimmingCharacters(in: .punctuationCharacters)) }
        return numbers.count == 2 ? (numbers[0], numbers[1]) : nil
    }

    @Test("Misuse of every function gives Apple's result code")
    func errors() throws {
        let program = try Self.program.get()
        let r = try Self.run(program, ["errors", CPrograms.path("Tests/Fixtures/valid"), CPrograms.scratch.path])
        #expect(r.status == 0, "\(r.out)")
        let counts = try #require(Self.summary(r.out), "\(r.out)")
        #expect(counts.failed == 0 && counts.passed >= 220, "\(r.out)")
    }

    @Test("Callbacks and listeners run on the run loop's thread, only while it runs; nothing for freed buffers, removed listeners or after an immediate dispose; an asynchronous dispose delivers its last calls")
    func runLoop() throws {
        // Under AddressSanitizer: a callback naming freed memory is a failure, not luck.
        let program = try Self.sanitized.get()
        let r = try Self.run(program, ["runloop", Self.fixture])
        #expect(r.status == 0, "\(r.out)")
        #expect(Self.summary(r.out)?.failed == 0, "\(r.out)")
    }

    @Test("With no run loop, callbacks run on the queue's own thread")
    func ownThread() throws {
        let program = try Self.program.get()
        let r = try Self.run(program, ["ownthread", Self.fixture])
        #expect(r.status == 0, "\(r.out)")
        #expect(Self.summary(r.out)?.failed == 0, "\(r.out)")
    }

    @Test("1,000 queues created, used and disposed of leak nothing (AddressSanitizer's leak check)")
    func noLeaks() throws {
        let program = try Self.sanitized.get()
        let r = try runProcess(program, ["churn", "1000", Self.fixture],
                               environment: Self.environment.merging(["ASAN_OPTIONS": "detect_leaks=1"]) { $1 })
        #expect(r.status == 0, "\(r.out)\(r.err)")
        #expect(!r.err.contains("LeakSanitizer"), "\(r.err)")
        #expect(Self.summary(r.out)?.passed ?? 0 >= 1000, "\(r.out)")
    }

    @Test("3,000 queues leave the heap as it was (nothing kept in the handle tables)")
    func heapSteady() throws {
        let program = try Self.program.get()
        let r = try Self.run(program, ["churn", "3000", Self.fixture])
        #expect(r.status == 0, "\(r.out)")
    }
}
