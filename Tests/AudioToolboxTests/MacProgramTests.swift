import Foundation
import ProcessSupport
import Testing

/// Programs written the way Mac programs are (in the style of the "Learning Core Audio"
/// book's player, converter and recorder: C/polling_player.c, C/cbr_converter.c,
/// C/recorder.c), relying on how a Mac behaves where the documentation says little: the main
/// run loop waits its time once audio is in use, AudioFileWritePackets measures constant-size
/// packets by their count, and (with the file backend) a recorder records a WAVE file.
/// Their output is checked with ffmpeg and ffprobe.
@Suite("Mac-style programs")
struct MacProgramTests {
    static let player = Result { try CPrograms.build("mac-polling-player", sources: ["Tests/AudioToolboxTests/C/polling_player.c"]) }
    static let converter = Result { try CPrograms.build("mac-cbr-converter", sources: ["Tests/AudioToolboxTests/C/cbr_converter.c"]) }
    static let recorder = Result { try CPrograms.build("mac-recorder", sources: ["Tests/AudioToolboxTests/C/recorder.c"]) }

    /// A WAVE file ffmpeg makes: `seconds` of a 440 Hz tone on the left and 660 Hz on the
    /// right, 16-bit, at `rate`.
    static func tone(seconds: Double, rate: Int, _ name: String) throws -> String {
        let path = GuideTests.scratchPath(name)
        let r = try runProcess("/usr/bin/ffmpeg", [
            "-nostdin", "-v", "error", "-y",
            "-f", "lavfi", "-i", "sine=frequency=440:duration=\(seconds):sample_rate=\(rate)",
            "-f", "lavfi", "-i", "sine=frequency=660:duration=\(seconds):sample_rate=\(rate)",
            "-filter_complex", "[0][1]amerge=inputs=2", "-c:a", "pcm_s16le", path,
        ])
        try #require(r.status == 0, "ffmpeg cannot make \(path): \(r.err)")
        return path
    }

    /// The largest difference between `a` and the start of `b`, sample for sample.
    static func largestDifference(_ a: [Float], _ b: [Float]) -> Float {
        zip(a, b).reduce(Float(0)) { max($0, abs($1.0 - $1.1)) }
    }

    @Test("A player polling the run loop with a NULL-run-loop queue plays the whole file and idles while it waits")
    func pollingPlayer() throws {
        let program = try Self.player.get()
        let input = try Self.tone(seconds: 4, rate: 44100, "player-in.wav")
        let output = GuideTests.scratchPath("player-out.wav")
        defer { for p in [input, output] { try? FileManager.default.removeItem(atPath: p) } }
        let r = try GuideTests.run(program, [input], environment: GuideTests.fileOutput(output))
        try #require(r.status == 0, "\(r.out)\(r.err)")

        let reference = try GuideTests.ffmpegDecode(input)
        let played = try GuideTests.ffmpegDecode(output)
        #expect(played.channels == reference.channels)
        // The whole file, its ending included (the last buffers play during the final 2 s run).
        #expect(played.frames >= reference.frames, "\(played.frames) frames played of \(reference.frames)")
        #expect(Self.largestDifference(reference.samples, played.samples) < 1e-4)
        let tail = played.samples.dropFirst(reference.samples.count)
        #expect(tail.allSatisfy { $0 == 0 }, "after the file only silence")

        // The program's own CPU time (getrusage) against the audio's duration. On a Mac such a
        // player uses well under 5 %; the bound is looser so that a busy machine cannot fail
        // the test, while a run loop that returns at once (a spinning poll) uses a large part
        // of a core and fails it.
        let line = try #require(r.out.split(separator: "\n").last(where: { $0.contains("cpu_seconds=") }), "\(r.out)")
        func value(_ key: String) -> Double? {
            line.split(separator: " ").first { $0.hasPrefix(key + "=") }.flatMap { Double($0.dropFirst(key.count + 1)) }
        }
        let cpu = try #require(value("cpu_seconds")), duration = try #require(value("audio_seconds"))
        let share = cpu / duration
        print("polling player: \(line); CPU \(String(format: "%.1f", share * 100)) % of the audio's duration")
        #expect(duration == 4)
        #expect(share < 0.25, "\(line)")
    }

    @Test("A converter passing the packet count as AudioFileWritePackets' byte count writes every frame")
    func converter() throws {
        let program = try Self.converter.get()
        let input = try Self.tone(seconds: 1.5, rate: 48000, "convert-in.wav")
        defer { try? FileManager.default.removeItem(atPath: input) }
        let reference = try GuideTests.ffmpegDecode(input)
        for ext in ["aiff", "caf", "wav"] {
            let output = GuideTests.scratchPath("converted.\(ext)")
            defer { try? FileManager.default.removeItem(atPath: output) }
            let r = try GuideTests.run(program, [input, output])
            try #require(r.status == 0, "\(ext): \(r.out)\(r.err)")
            let probe = try runProcess("/usr/bin/ffprobe", [
                "-v", "error", "-select_streams", "a:0", "-show_entries", "stream=codec_name,channels,sample_rate,duration_ts",
                "-of", "csv=p=0", output,
            ])
            let fields = probe.out.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",").map(String.init)
            #expect(fields.count == 4 && fields[0].hasPrefix("pcm_s16") && fields[1] == "48000" && fields[2] == "2", "\(ext): \(probe.out)\(probe.err)")
            let converted = try GuideTests.ffmpegDecode(output)
            #expect(converted.frames == reference.frames, "\(ext): \(converted.frames) frames of \(reference.frames)")
            #expect(converted.samples == reference.samples, "\(ext): the samples differ")
        }
    }

    @Test("A recorder records the WAVE file AUDIOQUEUE_INPUT_DEVICE names through the file backend, then silence")
    func recorder() throws {
        let program = try Self.recorder.get()
        let input = try Self.tone(seconds: 1, rate: 44100, "record-in.wav")
        defer { try? FileManager.default.removeItem(atPath: input) }
        let reference = try GuideTests.ffmpegDecode(input)
        for ext in ["caf", "aiff"] {
            let output = GuideTests.scratchPath("recorded.\(ext)")
            defer { try? FileManager.default.removeItem(atPath: output) }
            let r = try GuideTests.run(
                program, [output, "1.5", "44100", "2"], environment: ["AUDIOQUEUE_BACKEND": "file", "AUDIOQUEUE_INPUT_DEVICE": input])
            try #require(r.status == 0, "\(ext): \(r.out)\(r.err)")
            let recorded = try GuideTests.ffmpegDecode(output)
            #expect(recorded.channels == 2)
            // The main run loop waited its 1.5 s, so the whole 1-second file was recorded (a run
            // loop returning at once records next to nothing). No upper bound: a busy machine
            // may wake the program late, and it records on.
            #expect(recorded.frames >= reference.frames, "\(ext): \(recorded.frames) frames")
            #expect(Array(recorded.samples.prefix(reference.samples.count)) == reference.samples, "\(ext): the file's samples, exactly")
            #expect(recorded.samples.dropFirst(reference.samples.count).allSatisfy { $0 == 0 }, "\(ext): silence after the file")
        }
    }

    @Test("With no input file named, the file backend records silence and says so")
    func recorderWithoutFile() throws {
        let program = try Self.recorder.get()
        let output = GuideTests.scratchPath("silence.caf")
        defer { try? FileManager.default.removeItem(atPath: output) }
        let r = try GuideTests.run(program, [output, "0.5", "22050", "1"], environment: ["AUDIOQUEUE_BACKEND": "file"])
        try #require(r.status == 0, "\(r.out)\(r.err)")
        #expect(r.err.contains("recording silence"), "\(r.err)")
        let recorded = try GuideTests.ffmpegDecode(output)
        #expect(recorded.frames > 0 && recorded.samples.allSatisfy { $0 == 0 })
    }

    @Test("An input file at another sample rate than the queue's is refused")
    func recorderRateMismatch() throws {
        let program = try Self.recorder.get()
        let input = try Self.tone(seconds: 0.2, rate: 48000, "record-48k.wav")
        let output = GuideTests.scratchPath("mismatch.caf")
        defer { for p in [input, output] { try? FileManager.default.removeItem(atPath: p) } }
        let r = try GuideTests.run(
            program, [output, "0.5", "44100", "2"], environment: ["AUDIOQUEUE_BACKEND": "file", "AUDIOQUEUE_INPUT_DEVICE": input])
        #expect(r.status != 0, "\(r.out)")
        #expect(r.err.contains("error: "), "\(r.err)")
    }
}
