import Foundation
import ProcessSupport
import Testing

/// A recorder written as Mac programs write one (C/converter_recorder.c: FormatInfo completes the
/// description, the queue's converter gives the full format, buffers are sized from it, the
/// encoder's cookie goes to the file) records from the null input device, and from a null sink's
/// monitor on the sound server, into CAF; ffprobe reads the file back and reports the format the
/// program asked for.
@Suite("A recorder sized by Apple's format calls")
struct RecorderTests {
    static let program = Result { try CPrograms.build("converter_recorder", sources: ["Tests/AudioToolboxTests/C/converter_recorder.c"], extra: ["-lm"]) }

    /// What a run printed, by its first word.
    struct Run {
        var lines: [String: [String]] = [:]
        func fields(_ key: String) -> [String] { lines[key] ?? [] }
        func number(_ key: String, _ index: Int = 0) -> Int? { fields(key).count > index ? Int(fields(key)[index]) : nil }
    }

    static func record(_ format: String, seconds: String = "0.6", environment: [String: String] = ["AUDIOQUEUE_BACKEND": "null"]) throws -> (run: Run, probe: [String: String], out: String) {
        let program = try Self.program.get()
        let path = CPrograms.scratch.appendingPathComponent("recorder-\(format)-\(environment.count).caf").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let r = try runProcess(program, [format, path, seconds], environment: environment)
        try #require(r.status == 0, "recorder \(format) exited with \(r.status): \(r.out)\(r.err)")
        var run = Run()
        for line in r.out.split(separator: "\n") {
            let words = line.split(separator: " ").map(String.init)
            if let first = words.first, run.lines[first] == nil { run.lines[first] = Array(words.dropFirst()) }
        }
        let probe = try runProcess("/usr/bin/ffprobe", [
            "-v", "error", "-select_streams", "a:0", "-show_entries",
            "stream=codec_name,sample_rate,channels,duration_ts", "-of", "default=nw=1", path,
        ])
        try #require(probe.status == 0, "ffprobe cannot read the recording: \(probe.err)")
        var fields: [String: String] = [:]
        for line in probe.out.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { fields[String(parts[0])] = String(parts[1]) }
        }
        return (run, fields, r.out)
    }

    /// The formats: program argument, format ID, frames and bytes per packet for 2 channels,
    /// ffprobe's codec name.
    static let cases: [(String, String, Int, Int, String)] = [
        ("lpcm", "6c70636d", 1, 4, "pcm_s16le"),
        ("ima4", "696d6134", 64, 68, "adpcm_ima_qt"),
        ("ulaw", "756c6177", 1, 2, "pcm_mulaw"),
        ("alaw", "616c6177", 1, 2, "pcm_alaw"),
    ]

    @Test("FormatInfo, the converter's output format, the buffer size and the file agree with ffprobe", arguments: 0..<4)
    func recordsFormat(_ index: Int) throws {
        let (name, id, framesPerPacket, bytesPerPacket, codec) = Self.cases[index]
        let (run, probe, out) = try Self.record(name)
        // FormatInfo completed what the program left 0, and the queue's converter agrees.
        for key in ["info", "output"] {
            #expect(run.fields(key).first == id, "\(key): \(out)")
            #expect(run.number(key, 1) == framesPerPacket && run.number(key, 2) == bytesPerPacket, "\(key): \(out)")
            #expect(run.number(key, 5) == 2 && run.number(key, 6) == 44100, "\(key): \(out)")
        }
        // The converter reads captured Float32 PCM: 'lpcm', 8 bytes per stereo frame.
        #expect(run.fields("input").first == "6c70636d" && run.number("input", 3) == 8, "\(out)")
        #expect(run.number("maxpacket") == bytesPerPacket, "\(out)")
        // Half a second: frames × bytes per frame, or whole packets × packet size (IMA4).
        let expectedBuffer = framesPerPacket == 1 ? 22050 * bytesPerPacket : 22050 / framesPerPacket * bytesPerPacket
        #expect(run.number("buffer") == expectedBuffer, "\(out)")
        // No cookie: linear PCM's converter has none ('prop'), the codecs' cookies are empty.
        #expect(run.fields("cookie") == (name == "lpcm" ? ["1886547824", "0"] : ["0", "0"]), "\(out)")
        #expect(run.fields("name").joined(separator: " ").hasSuffix("2 channels, 44100 Hz"), "\(out)")

        let packets = try #require(run.number("packets"), "\(out)")
        #expect(packets > 0, "nothing recorded: \(out)")
        #expect(probe["codec_name"] == codec, "\(probe)")
        #expect(probe["sample_rate"] == "44100" && probe["channels"] == "2", "\(probe)")
        #expect(probe["duration_ts"] == String(packets * framesPerPacket), "\(probe) \(out)")
    }

    @Test("The same recorder on the sound server: IMA4 from a null sink's monitor, the format ffprobe reads is the one asked for",
          .enabled(if: AudioServer.runTests, Comment(rawValue: AudioServer.skipReason)))
    func recordsFromServer() throws {
        try #require(AudioServer.available, "no PulseAudio server answers")
        let sink = "recorder\(getpid())"
        let load = try runProcess("/usr/bin/pactl", ["load-module", "module-null-sink", "sink_name=\(sink)", "rate=44100", "channels=2"])
        try #require(load.status == 0, "pactl load-module: \(load.err)")
        let module = load.out.trimmingCharacters(in: .whitespacesAndNewlines)
        defer { _ = try? runProcess("/usr/bin/pactl", ["unload-module", module]) }

        // Two seconds: a monitor's first blocks come late, and half-second buffers must fill.
        let (run, probe, out) = try Self.record("ima4", seconds: "2", environment: ["AUDIOQUEUE_BACKEND": "pulse", "AUDIOQUEUE_INPUT_DEVICE": "\(sink).monitor"])
        #expect(run.fields("output") == ["696d6134", "64", "68", "0", "0", "2", "44100"], "\(out)")
        #expect(run.number("buffer") == 22050 / 64 * 68, "\(out)")
        let packets = try #require(run.number("packets"), "\(out)")
        #expect(packets > 0, "nothing recorded: \(out)")
        #expect(probe["codec_name"] == "adpcm_ima_qt" && probe["sample_rate"] == "44100" && probe["channels"] == "2", "\(probe)")
        #expect(probe["duration_ts"] == String(packets * 64), "\(probe) \(out)")
    }
}
