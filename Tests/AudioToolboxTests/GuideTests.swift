import Foundation
import ProcessSupport
import Testing

/// The guide's own programs (Examples/Guide: the Playing Audio chapter, the Recording Audio
/// chapter and QA1636's loop), compiled in C — playback.c also in C++ — against
/// libAudioToolbox.so and run; what they play or record is checked with ffmpeg and ffprobe.
@Suite("The guide's programs")
struct GuideTests {
    // MARK: Programs and fixtures

    /// Each program built once (the tests run in parallel).
    static let playback = Result { try CPrograms.build("guide-playback", sources: ["Examples/Guide/playback.c"]) }
    static let playbackCxx = Result { try CPrograms.build("guide-playback-cxx", sources: ["Examples/Guide/playback.c"], cxx: true) }
    static let loop = Result { try CPrograms.build("guide-loop", sources: ["Examples/Guide/loop.c"]) }
    static let record = Result { try CPrograms.build("guide-record", sources: ["Examples/Guide/record.c"]) }

    static let pcmFixture = CPrograms.path("Tests/Fixtures/valid/wav-pcm_s16le-2ch-44100.wav")
    /// AAC in CAF with a packet table (2112 priming and 264 remainder frames around 52,920).
    static let aacFixture = CPrograms.path("Tests/Fixtures/aac-refs/nopns-caf-aac-2ch-44100-loop.caf")

    /// Runs `program` under timeout(1), so that a program that never ends (a callback that
    /// never comes) fails its test instead of holding the run up.
    static func run(_ program: String, _ arguments: [String], environment: [String: String] = [:], seconds: Int = 60) throws -> (status: Int32, out: String, err: String) {
        let r = try runProcess("/usr/bin/timeout", ["-k", "5", String(seconds), program] + arguments, environment: environment)
        if r.status == 124 || r.status == 137 {
            return (r.status, r.out, r.err + "\n\(URL(fileURLWithPath: program).lastPathComponent) did not finish within \(seconds) s")
        }
        return r
    }

    static func scratchPath(_ name: String) -> String {
        CPrograms.scratch.appendingPathComponent("guide-\(UUID().uuidString)-\(name)").path
    }

    /// What the library's default-output chain plays into when AUDIOQUEUE_BACKEND is `file`:
    /// a 32-bit float WAVE file at AUDIOQUEUE_DEVICE, in real time.
    static func fileOutput(_ path: String) -> [String: String] {
        ["AUDIOQUEUE_BACKEND": "file", "AUDIOQUEUE_DEVICE": path]
    }

    // MARK: Reference decodes

    struct Audio {
        var samples: [Float]
        var channels: Int
        var frames: Int { samples.count / channels }
    }

    /// ffmpeg's decode of `path` to interleaved 32-bit float, every packet decoded in full
    /// (ffmpeg trims no AAC priming from a CAF file).
    static func ffmpegDecode(_ path: String) throws -> Audio {
        let probe = try runProcess("/usr/bin/ffprobe", ["-v", "error", "-select_streams", "a:0", "-show_entries", "stream=channels", "-of", "csv=p=0", path])
        let channels = try #require(Int(probe.out.trimmingCharacters(in: .whitespacesAndNewlines)), "ffprobe \(path): \(probe.err)")
        let raw = scratchPath("decode.f32")
        defer { try? FileManager.default.removeItem(atPath: raw) }
        let r = try runProcess("/usr/bin/ffmpeg", ["-nostdin", "-v", "error", "-y", "-i", path, "-f", "f32le", "-c:a", "pcm_f32le", raw])
        try #require(r.status == 0, "ffmpeg cannot decode \(path): \(r.err)")
        let data = try Data(contentsOf: URL(fileURLWithPath: raw))
        let samples: [Float] = data.withUnsafeBytes { bytes in
            (0..<(bytes.count / 4)).map { Float(bitPattern: UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self))) }
        }
        return Audio(samples: samples, channels: channels)
    }

    /// The `pakt` chunk of a CAF file, read here from the bytes (not through the library):
    /// valid, priming and remainder frames.
    static func cafPacketTable(_ path: String) throws -> (valid: Int, priming: Int, remainder: Int) {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        func be(_ at: Int, _ count: Int) -> Int64 { (0..<count).reduce(Int64(0)) { $0 << 8 | Int64(bytes[at + $1]) } }
        try #require(bytes.count > 8 && String(decoding: bytes[0..<4], as: UTF8.self) == "caff", "\(path) is not a CAF file")
        var at = 8
        while at + 12 <= bytes.count {
            let type = String(decoding: bytes[at..<(at + 4)], as: UTF8.self)
            let size = be(at + 4, 8)
            if type == "pakt" {
                try #require(at + 12 + 24 <= bytes.count, "short pakt chunk")
                let body = at + 12
                return (Int(be(body + 8, 8)), Int(Int32(truncatingIfNeeded: be(body + 16, 4))), Int(Int32(truncatingIfNeeded: be(body + 20, 4))))
            }
            guard size >= 0 else { break }
            at += 12 + Int(size)
        }
        throw CPrograms.Failure(description: "\(path) has no pakt chunk")
    }

    /// `audio` with `priming` frames dropped from its start and only `valid` frames kept.
    static func trimmed(_ audio: Audio, priming: Int, valid: Int) -> Audio {
        let c = audio.channels
        return Audio(samples: Array(audio.samples[(priming * c)..<((priming + valid) * c)]), channels: c)
    }

    /// Signal-to-noise ratio in dB of `test` against `reference` on `channel`, over `frames`
    /// frames from `from` (infinity when identical).
    static func snr(_ reference: Audio, _ test: Audio, channel: Int, from: Int = 0, frames: Int? = nil) -> Double {
        let end = min(from + (frames ?? reference.frames), reference.frames, test.frames)
        var signal = 0.0, noise = 0.0
        for f in max(from, 0)..<max(end, max(from, 0)) {
            let r = Double(reference.samples[f * reference.channels + channel])
            let t = Double(test.samples[f * test.channels + channel])
            signal += r * r
            noise += (r - t) * (r - t)
        }
        if noise == 0 { return .infinity }
        return signal == 0 ? -.infinity : 10 * log10(signal / noise)
    }

    static func firstDifference(_ a: [Float], _ b: [Float]) -> Int? {
        zip(a, b).enumerated().first { $0.element.0 != $0.element.1 }?.offset
    }

    // MARK: playback.c

    /// Runs a playback build on `input` into a WAVE file (Listing 3-16's gain optional) and
    /// returns what it played.
    static func play(_ program: String, _ input: String, gain: String? = nil) throws -> Audio {
        let out = scratchPath("played.wav")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let r = try run(program, [input] + (gain.map { [$0] } ?? []), environment: fileOutput(out))
        try #require(r.status == 0, "playback exited with \(r.status): \(r.out)\(r.err)")
        return try ffmpegDecode(out)
    }

    @Test("playback.c (C) plays 16-bit PCM into the file device sample for sample as ffmpeg decodes it")
    func playbackPCM() throws {
        let played = try Self.play(try Self.playback.get(), Self.pcmFixture)
        let reference = try Self.ffmpegDecode(Self.pcmFixture)
        #expect(played.channels == reference.channels)
        #expect(played.frames == reference.frames, "played \(played.frames) frames, ffmpeg decodes \(reference.frames)")
        let first = Self.firstDifference(played.samples, reference.samples)
        #expect(first == nil, "the first sample that differs is \(first ?? -1)")
        #expect(reference.samples.contains { $0 != 0 })
    }

    /// The guide's callback enqueues every packet with no trimming (Listing 3-6 uses
    /// AudioQueueEnqueueBuffer), so what it plays is every packet decoded in full, priming and
    /// remainder included: packets × 1024 frames, which is ffmpeg's untrimmed decode.
    @Test("playback.c (C) plays AAC in CAF untrimmed, as ffmpeg decodes every packet, above 100 dB")
    func playbackAAC() throws {
        let played = try Self.play(try Self.playback.get(), Self.aacFixture)
        let reference = try Self.ffmpegDecode(Self.aacFixture)
        let table = try Self.cafPacketTable(Self.aacFixture)
        // Untrimmed: the packet table's priming + valid + remainder frames.
        #expect(reference.frames == table.priming + table.valid + table.remainder)
        #expect(played.channels == 2)
        #expect(played.frames == reference.frames, "played \(played.frames) frames, ffmpeg decodes \(reference.frames)")
        for channel in 0..<2 {
            let db = Self.snr(reference, played, channel: channel)
            #expect(db > 100, "channel \(channel): \(db) dB against ffmpeg's decode")
        }
    }

    /// The header and the guide's code compile as C++; the gain of Listing 3-16 scales every
    /// sample (a halving is exact in floating point).
    @Test("playback.c built as C++ plays PCM exactly, at half gain every sample halved")
    func playbackCxx() throws {
        let program = try Self.playbackCxx.get()
        let reference = try Self.ffmpegDecode(Self.pcmFixture)
        let unity = try Self.play(program, Self.pcmFixture)
        #expect(unity.frames == reference.frames)
        #expect(Self.firstDifference(unity.samples, reference.samples) == nil)
        let half = try Self.play(program, Self.pcmFixture, gain: "0.5")
        #expect(half.frames == reference.frames)
        let first = Self.firstDifference(half.samples, reference.samples.map { $0 * 0.5 })
        #expect(first == nil, "sample \(first ?? -1) is not half of ffmpeg's")
    }

    // MARK: loop.c

    /// Renders `loops` passes of `input` offline with loop.c.
    static func loopOffline(_ input: String, loops: Int) throws -> (audio: Audio, out: String) {
        let out = scratchPath("loop.wav")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let r = try run(try Self.loop.get(), [input, String(loops), out])
        try #require(r.status == 0, "loop exited with \(r.status): \(r.out)\(r.err)")
        return (try ffmpegDecode(out), r.out)
    }

    @Test("loop.c: 3 AAC passes rendered offline are 3 × ffmpeg's decode trimmed as the packet table says, seams included")
    func loopAAC() throws {
        let table = try Self.cafPacketTable(Self.aacFixture)
        let once = Self.trimmed(try Self.ffmpegDecode(Self.aacFixture), priming: table.priming, valid: table.valid)
        let (rendered, out) = try Self.loopOffline(Self.aacFixture, loops: 3)
        let looped = Audio(samples: once.samples + once.samples + once.samples, channels: 2)
        #expect(rendered.channels == 2)
        #expect(rendered.frames == 3 * table.valid, "rendered \(rendered.frames) frames, 3 × \(table.valid) expected; \(out)")
        guard rendered.frames == looped.frames else { return }
        for channel in 0..<2 {
            let db = Self.snr(looped, rendered, channel: channel)
            #expect(db > 100, "channel \(channel): \(db) dB against three trimmed ffmpeg decodes")
            for seam in 1...2 {
                let around = Self.snr(looped, rendered, channel: channel, from: seam * table.valid - 2048, frames: 4096)
                #expect(around > 100, "seam \(seam), channel \(channel): \(around) dB")
            }
        }
    }

    @Test("loop.c: 3 PCM passes rendered offline are 3 × ffmpeg's decode, sample for sample")
    func loopPCM() throws {
        let once = try Self.ffmpegDecode(Self.pcmFixture)
        let (rendered, _) = try Self.loopOffline(Self.pcmFixture, loops: 3)
        #expect(rendered.frames == 3 * once.frames)
        let first = Self.firstDifference(rendered.samples, once.samples + once.samples + once.samples)
        #expect(first == nil, "the first sample that differs is \(first ?? -1)")
    }

    // MARK: record.c

    @Test("record.c records 2 s of noise from a sink's monitor: AIFF, 44.1 kHz, 2 ch, 16-bit big-endian, at most its run time, not silent",
          .enabled(if: AudioServer.runTests, Comment(rawValue: AudioServer.skipReason)))
    func recordMonitor() throws {
        let program = try Self.record.get()
        try #require(AudioServer.available, "no PulseAudio server answers")
        // A null sink of this test's own, so that the noise never reaches the sink other
        // suites record and compare exactly.
        let sink = "guide\(getpid())"
        let load = try runProcess("/usr/bin/pactl", ["load-module", "module-null-sink", "sink_name=\(sink)", "rate=44100", "channels=2"])
        try #require(load.status == 0, "pactl load-module: \(load.err)")
        let module = load.out.trimmingCharacters(in: .whitespacesAndNewlines)
        defer { _ = try? runProcess("/usr/bin/pactl", ["unload-module", module]) }

        let noise = Self.scratchPath("noise.wav")
        defer { try? FileManager.default.removeItem(atPath: noise) }
        let made = try runProcess("/usr/bin/ffmpeg", [
            "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i",
            "anoisesrc=color=white:sample_rate=44100:amplitude=0.3:seed=7:duration=30", "-ac", "2", "-c:a", "pcm_s16le", noise,
        ])
        try #require(made.status == 0, "ffmpeg: \(made.err)")
        // At a low latency: a null sink's monitor delivers in blocks of the latency its
        // streams ask for (paplay's default is two seconds).
        let player = Process()
        player.executableURL = URL(fileURLWithPath: "/usr/bin/paplay")
        player.arguments = ["--latency-msec=20", "-d", sink, noise]
        player.standardOutput = FileHandle.nullDevice
        player.standardError = FileHandle.nullDevice
        try player.run()
        defer {
            if player.isRunning { kill(player.processIdentifier, SIGKILL) }
            player.waitUntilExit()
        }

        let environment = ["AUDIOQUEUE_BACKEND": "pulse", "AUDIOQUEUE_INPUT_DEVICE": "\(sink).monitor"]
        // The first recording of a monitor after a stream begins to play into its sink gets
        // almost nothing (parecord's too); warm up until a short recording hears the noise.
        var heard = false
        for _ in 0..<5 where !heard {
            let warm = Self.scratchPath("warmup.aiff")
            defer { try? FileManager.default.removeItem(atPath: warm) }
            let r = try Self.run(program, [warm, "0.5"], environment: environment)
            try #require(r.status == 0, "record exited with \(r.status): \(r.out)\(r.err)")
            let audio = try Self.ffmpegDecode(warm)
            heard = audio.frames >= 20_000 && audio.samples.suffix(2000).contains { $0 != 0 }
        }
        #expect(heard, "five short recordings of \(sink).monitor heard no noise")

        let out = Self.scratchPath("recording.aiff")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let began = Date()
        let r = try Self.run(program, [out, "2"], environment: environment)
        let ran = Date().timeIntervalSince(began)
        try #require(r.status == 0, "record exited with \(r.status): \(r.out)\(r.err)")

        let probe = try runProcess("/usr/bin/ffprobe", [
            "-v", "error", "-select_streams", "a:0", "-show_entries",
            "format=format_name:stream=codec_name,sample_rate,channels,bits_per_sample,duration_ts", "-of", "default=nw=1", out,
        ])
        try #require(probe.status == 0, "ffprobe cannot read the recording: \(probe.err)")
        var fields: [String: String] = [:]
        for line in probe.out.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { fields[String(parts[0])] = String(parts[1]) }
        }
        #expect(fields["format_name"] == "aiff", "\(probe.out)")
        #expect(fields["codec_name"] == "pcm_s16be", "\(probe.out)")
        #expect(fields["sample_rate"] == "44100", "\(probe.out)")
        #expect(fields["channels"] == "2", "\(probe.out)")
        #expect(fields["bits_per_sample"] == "16", "\(probe.out)")
        let frames = try #require(fields["duration_ts"].flatMap { Int($0) }, "\(probe.out)")
        // The program sleeps 2 s between the queue's start and its stop, and the stop keeps
        // everything recorded by then: no more than the program's run time can hold, and at
        // least half of it (the rest can go to a stream slow to start on a busy machine, a
        // timing no server promises).
        #expect(frames <= Int(ran * 44_100) && frames >= 44_100, "recorded \(frames) frames in a \(ran) s run of a 2 s recording")

        let audio = try Self.ffmpegDecode(out)
        #expect(audio.frames == frames)
        let rms = (audio.samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(max(audio.samples.count, 1))).squareRoot()
        // White noise of amplitude 0.3 has an RMS level of 0.17.
        #expect(rms > 0.05, "the recording's RMS level is \(rms)")
    }
}
