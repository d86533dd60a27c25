import Foundation
import ProcessSupport
import Testing

/// System Sound Services as a game's interface sounds use them (C/system_sounds.c): a sound made
/// from a file, played through the default output, its completion called once on the main run
/// loop after it has played. What plays is compared with ffmpeg's decode of the file: through
/// the WAVE-file output (sample for sample) and through the private PulseAudio server (a null
/// sink's monitor recorded by parecord, aligned on the sound's start).
@Suite("C API: system sounds")
struct SystemSoundsTests {
    static let program = Result { try CPrograms.build("system_sounds", sources: ["Tests/AudioToolboxTests/C/system_sounds.c"], extra: ["-pthread"]) }
    static let fixture = CPrograms.path("Tests/Fixtures/valid/wav-pcm_s16le-2ch-44100.wav")

    /// A 31-second file, made once by ffmpeg (a Mac plays no system sound over 30 s).
    static let longFile = Result { () throws -> String in
        let path = CPrograms.scratch.appendingPathComponent("system-sound-31s.wav").path
        let temporary = path + ".\(UUID().uuidString)"
        let r = try runProcess("/usr/bin/ffmpeg", [
            "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=8000:duration=31",
            "-c:a", "pcm_s16le", "-f", "wav", temporary,
        ])
        guard r.status == 0 else { throw CPrograms.Failure(description: "ffmpeg: \(r.err)") }
        try? FileManager.default.removeItem(atPath: path)
        try FileManager.default.moveItem(atPath: temporary, toPath: path)
        return path
    }

    /// The completion line `play` prints: completions, and calls on another thread or with
    /// other arguments.
    static func completions(_ out: String) -> (count: Int, wrongThread: Int, wrongData: Int)? {
        guard let line = out.split(separator: "\n").first(where: { $0.hasPrefix("completions=") }) else { return nil }
        let values = line.split(separator: " ").compactMap { Int($0.split(separator: "=").last ?? "") }
        return values.count == 3 ? (values[0], values[1], values[2]) : nil
    }

    @Test("Misuse gives Apple's codes: NULL URL, unreadable or non-audio file, over 30 s, unknown ID, unsupported property, wrong sizes")
    func misuse() throws {
        let r = try GuideTests.run(try Self.program.get(), ["misuse", Self.fixture, try Self.longFile.get()],
                                   environment: ["AUDIOQUEUE_BACKEND": "null"])
        #expect(r.status == 0 && r.out.contains(" passed, 0 failed"), "\(r.out)\(r.err)")
    }

    @Test("Played through the WAVE-file output, the sound is the file, sample for sample, and its completion comes once, on the main run loop")
    func playsTheFile() throws {
        let output = GuideTests.scratchPath("system-sound.wav")
        defer { try? FileManager.default.removeItem(atPath: output) }
        let r = try GuideTests.run(try Self.program.get(), ["play", Self.fixture], environment: GuideTests.fileOutput(output))
        #expect(r.status == 0, "\(r.out)\(r.err)")
        let done = try #require(Self.completions(r.out), "\(r.out)")
        #expect(done.count == 1 && done.wrongThread == 0 && done.wrongData == 0, "\(r.out)")
        let played = try GuideTests.ffmpegDecode(output)
        let reference = try GuideTests.ffmpegDecode(Self.fixture)
        #expect(played.channels == reference.channels)
        #expect(played.frames == reference.frames, "\(played.frames) frames played, the file has \(reference.frames)")
        let first = GuideTests.firstDifference(played.samples, reference.samples)
        #expect(first == nil, "the first sample that differs is \(first ?? -1)")
    }

    @Test("Three plays of one sound at once: three completions")
    func severalAtOnce() throws {
        let r = try GuideTests.run(try Self.program.get(), ["play", Self.fixture, "3"], environment: ["AUDIOQUEUE_BACKEND": "null"])
        #expect(r.status == 0, "\(r.out)\(r.err)")
        let done = try #require(Self.completions(r.out), "\(r.out)")
        #expect(done.count == 3 && done.wrongThread == 0 && done.wrongData == 0, "\(r.out)")
    }

    /// Built by clang with blocks (its misuse part passes NULL where the header says non-null, on
    /// purpose), linked with the Swift toolchain's blocks runtime (a Mac's is
    /// in libSystem; on Linux clang's -fblocks programs link one).
    static let blocksProgram = Result { () throws -> String in
        guard !CPrograms.flags.isEmpty else { throw CPrograms.Failure(description: CPrograms.missingLibrary) }
        let output = CPrograms.scratch.appendingPathComponent("system_sounds_blocks").path
        let runtime = "/opt/swift/usr/lib/swift/linux"
        let arguments = ["-std=c11", "-fblocks", "-g", "-Wall", "-Wextra", "-Werror", "-Wno-nonnull", CPrograms.path("Tests/AudioToolboxTests/C/system_sounds.c")]
            + CPrograms.flags + ["-L\(runtime)", "-lBlocksRuntime", "-Wl,-rpath,\(runtime)", "-pthread", "-o", output]
        let r = try runProcess(ABITests.clangC, arguments)
        guard r.status == 0 else { throw CPrograms.Failure(description: "clang -fblocks failed:\n\(r.err)\(r.out)") }
        return output
    }

    @Test("The completion blocks run once each: after a sound has played, and for an alert there is no sound for")
    func completionBlocks() throws {
        let r = try GuideTests.run(try Self.blocksProgram.get(), ["blocks", Self.fixture], environment: ["AUDIOQUEUE_BACKEND": "null"])
        #expect(r.status == 0, "\(r.out)\(r.err)")
        #expect(r.out == "blocks=2\nblocks=2\n", "\(r.out)\(r.err)")
    }

    @Test("Played through PulseAudio, a null sink's monitor hears the file once, and the completion comes once",
          .enabled(if: AudioServer.runTests, Comment(rawValue: AudioServer.skipReason)))
    func playsThroughPulse() throws {
        let program = try Self.program.get()
        try #require(AudioServer.available, "no PulseAudio server answers")
        let sink = "systemsound\(getpid())"
        let load = try runProcess("/usr/bin/pactl", [
            "load-module", "module-null-sink", "sink_name=\(sink)", "format=float32le", "rate=44100", "channels=2",
        ])
        try #require(load.status == 0, "pactl load-module: \(load.err)")
        let module = load.out.trimmingCharacters(in: .whitespacesAndNewlines)
        defer { _ = try? runProcess("/usr/bin/pactl", ["unload-module", module]) }

        let raw = GuideTests.scratchPath("system-sound.raw")
        defer { try? FileManager.default.removeItem(atPath: raw) }
        let recorder = Process()
        recorder.executableURL = URL(fileURLWithPath: "/usr/bin/parecord")
        recorder.arguments = ["--device=\(sink).monitor", "--raw", "--format=float32le", "--rate=44100", "--channels=2", "--latency-msec=20", raw]
        try recorder.run()
        // The monitor may begin some milliseconds late: give it time to start.
        Thread.sleep(forTimeInterval: 0.5)
        let r = try GuideTests.run(program, ["play", Self.fixture], environment: ["AUDIOQUEUE_BACKEND": "pulse", "AUDIOQUEUE_DEVICE": sink])
        Thread.sleep(forTimeInterval: 0.3)
        kill(recorder.processIdentifier, SIGKILL)
        recorder.waitUntilExit()
        #expect(r.status == 0, "\(r.out)\(r.err)")
        let done = try #require(Self.completions(r.out), "\(r.out)")
        #expect(done.count == 1 && done.wrongThread == 0 && done.wrongData == 0, "\(r.out)")

        let data = try Data(contentsOf: URL(fileURLWithPath: raw))
        let recorded: [Float] = data.withUnsafeBytes { bytes in
            (0..<(bytes.count / 4)).map { Float(bitPattern: UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self))) }
        }
        let reference = try GuideTests.ffmpegDecode(Self.fixture)
        let channels = reference.channels
        // A null sink is suspended while nothing plays, and its monitor starts when the sound
        // does, some milliseconds into it: the recording begins inside the sound. It is aligned
        // on the first frame heard, at the first point of the file from which the rest of the
        // file matches (a later point of a periodic sound would match too, up to its end).
        let firstHeard = try #require(recorded.firstIndex { abs($0) > 1e-6 }, "the monitor heard nothing") / channels
        let heardFrames = recorded.count / channels - firstHeard
        func matches(from k: Int) -> Bool {
            let count = reference.frames - k
            guard count <= heardFrames else { return false }
            for i in 0..<(count * channels) where abs(recorded[firstHeard * channels + i] - reference.samples[k * channels + i]) > 1e-4 {
                return false
            }
            return true
        }
        let offset = try #require((0..<reference.frames).first(where: matches), "the recording is not the end of the file from any point")
        #expect(offset < reference.frames / 2, "the monitor missed \(offset) of the sound's \(reference.frames) frames")
        // Once: silence after it.
        let after = recorded[((firstHeard + reference.frames - offset) * channels)...]
        #expect(!after.isEmpty && after.allSatisfy { abs($0) < 1e-6 }, "something more was heard after the sound")
    }
}
