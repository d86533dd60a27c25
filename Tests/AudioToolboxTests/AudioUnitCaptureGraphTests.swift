import Foundation
import ProcessSupport
import Testing

/// The AUHAL recorder (Corpus/auhal_capture.c), which fetches each input cycle with
/// AudioUnitRender into its own buffer list or the unit's and writes it with ExtAudioFile, and
/// the AUGraph player (Corpus/augraph_player.c), whose AUConverter turns 16-bit mono at 22.05 kHz
/// into the output's stereo at the device's rate. The recorder's WAVE file holds, sample for
/// sample, what paplay played into a null sink (recorded from its monitor, the default input)
/// or the file the file backend plays in; the player's output matches sox's resampling of its
/// source within the resampling tests' bound.
@Suite("Audio unit capture and graph programs", .serialized)
struct AudioUnitCaptureGraphTests {
    static let capture = Result { try CorpusTests.build("corpus-auhal-capture", "auhal_capture.c") }
    static let graph = Result { try CorpusTests.build("corpus-augraph-player", "augraph_player.c") }

    static func scratch(_ name: String) -> String {
        CPrograms.scratch.appendingPathComponent("au-\(UUID().uuidString)-\(name)").path
    }

    // MARK: The AUHAL recorder

    @Test("auhal_capture records a PulseAudio monitor (the default input) while paplay plays sox's noise into the sink: the WAVE file holds the noise sample for sample",
          .enabled(if: AudioServer.runTests, Comment(rawValue: AudioServer.skipReason)), arguments: ["own", "unit"])
    func captureMonitor(_ buffers: String) throws {
        try #require(AudioServer.available, "no PulseAudio server answers")
        let program = try Self.capture.get()
        let sink = "aucap\(getpid())"
        let module = try AudioUnitProgramTests.loadSink(sink, rate: 48000)
        defer { AudioUnitProgramTests.unload(module) }
        let noise = Self.scratch("noise.wav"), out = Self.scratch("capture.wav")
        defer {
            unlink(noise)
            unlink(out)
        }
        let sox = try runProcess("/usr/bin/sox", ["-R", "-n", "-r", "48000", "-c", "2", "-b", "16", noise, "synth", "1", "whitenoise", "vol", "0.5"])
        try #require(sox.status == 0, "sox: \(sox.err)")
        let reference = try GuideTests.ffmpegDecode(noise)

        let recorder = Process()
        recorder.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        recorder.arguments = ["-k", "5", "60", program, "\(48000 * 3)", out, buffers]
        recorder.environment = mergedEnvironment(["AUDIOQUEUE_BACKEND": "pulse", "AUDIOQUEUE_INPUT_DEVICE": "\(sink).monitor"])
        let pipe = Pipe()
        recorder.standardOutput = pipe
        try recorder.run()
        Thread.sleep(forTimeInterval: 0.5)
        let play = try runProcess("/usr/bin/paplay", ["--device=\(sink)", noise], timeout: 20)
        #expect(play.status == 0, "paplay: \(play.err)")
        let printed = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        recorder.waitUntilExit()
        try #require(recorder.terminationStatus == 0, "auhal_capture \(buffers) exited with \(recorder.terminationStatus): \(printed)")
        #expect(printed.contains("device pulse:\(sink).monitor rate 48000 channels 2\n"), "\(printed)")
        #expect(printed.contains("input times ok\n") && printed.contains("wrote \(48000 * 3)\n"), "\(printed)")
        #expect(!printed.contains("dropped") && !printed.contains("AudioUnitRender"), "\(printed)")

        let probe = try runProcess("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "stream=codec_name,sample_rate,channels,duration_ts", "-of", "csv=p=0", out])
        #expect(probe.out.trimmingCharacters(in: .whitespacesAndNewlines) == "pcm_s16le,48000,2,\(48000 * 3)", "\(probe.out)\(probe.err)")
        let recorded = try GuideTests.ffmpegDecode(out)
        AudioUnitProgramTests.onTime("auhal_capture \(buffers)") {
            IOProcTests.expectHolds(recorded.samples, reference.samples, channels: 2, rate: 48000, "auhal_capture \(buffers)")
        }
    }

    @Test("Through the file backend auhal_capture records the WAVE file the default input plays in, from its first frame, then silence",
          arguments: ["own", "unit"])
    func captureFile(_ buffers: String) throws {
        let program = try Self.capture.get()
        let input = try MacProgramTests.tone(seconds: 1, rate: 44100, "au-capture-in.wav")
        let out = Self.scratch("capture-file.wav")
        defer {
            unlink(input)
            unlink(out)
        }
        let reference = try GuideTests.ffmpegDecode(input)
        let r = try GuideTests.run(program, ["66150", out, buffers], environment: ["AUDIOQUEUE_BACKEND": "file", "AUDIOQUEUE_INPUT_DEVICE": input])
        try #require(r.status == 0, "auhal_capture \(buffers) exited with \(r.status): \(r.out)\(r.err)")
        #expect(r.out.contains("device file:\(input) rate 44100 channels 2\n"), "\(r.out)")
        #expect(r.out.contains("input times ok\n") && r.out.contains("wrote 66150\n"), "\(r.out)")
        let recorded = try GuideTests.ffmpegDecode(out)
        #expect(recorded.channels == 2 && recorded.frames == 66150, "\(recorded.frames) frames of \(recorded.channels) channels")
        let first = GuideTests.firstDifference(Array(recorded.samples.prefix(reference.samples.count)), reference.samples)
        #expect(first == nil, "\(buffers): sample \(first ?? -1) differs from the input file's")
        #expect(recorded.samples.dropFirst(reference.samples.count).allSatisfy { $0 == 0 }, "\(buffers): silence after the file")
    }

    // MARK: The AUGraph player

    /// Mono 32-bit floats from a raw file.
    static func floats(_ path: String) -> [Float] { IOProcTests.floats(atPath: path) }

    /// The graph plays sox's 997 Hz tone (16-bit mono, 22.05 kHz, 2 s) into the file device;
    /// its AUConverter's rate conversion is compared with `sox … rate -v` to the file's rate:
    /// at their best alignment (which must be none: both trim their filter's delay) each
    /// channel's difference from sox's is more than 90 dB below the signal away from the ends
    /// (the bound the resampler's own comparison with sox uses), so the mono source reaches both
    /// channels alike.
    ///
    /// With a rate on its command line the program sets only the converter's output format and
    /// counts on the connection to give it to the output unit's input, as a Mac's units do
    /// (AUBase copies the source's output format when a connection is made): the output unit
    /// then plays at that rate, and the file device writes it.
    @Test("augraph_player's AUConverter → DefaultOutput graph plays 16-bit mono at 22.05 kHz as sox resamples it, on both channels",
          arguments: [nil, 44100] as [Int?])
    func graphMatchesSox(_ connectedRate: Int?) throws {
        let program = try Self.graph.get()
        let source = Self.scratch("source.raw"), wav = Self.scratch("graph.wav")
        defer {
            unlink(source)
            unlink(wav)
        }
        let made = try runProcess("/usr/bin/sox", [
            "-R", "-n", "-r", "22050", "-c", "1", "-b", "16", "-e", "signed-integer", "-t", "raw", source, "synth", "2", "sine", "997", "vol", "0.5",
        ])
        try #require(made.status == 0, "sox: \(made.err)")
        let r = try GuideTests.run(program, [source] + (connectedRate.map { ["\($0)"] } ?? []), environment: GuideTests.fileOutput(wav))
        try #require(r.status == 0, "augraph_player exited with \(r.status): \(r.out)\(r.err)")
        #expect(r.out.contains("nodes 2\n") && r.out.contains("interactions 2\n"), "\(r.out)")
        #expect(r.out.contains("played 44100 of 44100 running 1\n"), "\(r.out)")
        let rateLine = try #require(AudioUnitProgramTests.lines(r.out, "output rate ").first, "\(r.out)")
        let outputRate = try #require(Int(rateLine.split(separator: " ")[0]), "\(r.out)")
        if let connectedRate { #expect(outputRate == connectedRate, "the connection left the output unit at \(outputRate) Hz") }
        #expect(rateLine.hasSuffix(" channels 2"), "\(r.out)")

        let probe = try runProcess("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "stream=sample_rate,channels", "-of", "csv=p=0", wav])
        #expect(probe.out.trimmingCharacters(in: .whitespacesAndNewlines) == "\(outputRate),2", "\(probe.out)\(probe.err)")
        let played = try GuideTests.ffmpegDecode(wav)

        let resampled = Self.scratch("sox.f32")
        defer { unlink(resampled) }
        let sox = try runProcess("/usr/bin/sox", [
            "-R", "-D", "-t", "raw", "-r", "22050", "-c", "1", "-b", "16", "-e", "signed-integer", source,
            "-t", "raw", "-e", "floating-point", "-b", "32", resampled, "rate", "-v", "\(outputRate)",
        ])
        try #require(sox.status == 0, "sox: \(sox.err)")
        let theirs = Self.floats(resampled)
        try #require(theirs.count > outputRate, "sox made \(theirs.count) frames")
        #expect(played.frames >= theirs.count, "the graph played \(played.frames) frames; sox's resampling has \(theirs.count)")

        let left = stride(from: 0, to: played.samples.count, by: 2).map { played.samples[$0] }
        let right = stride(from: 1, to: played.samples.count, by: 2).map { played.samples[$0] }
        let edge = outputRate / 20
        let middle = edge..<(min(left.count, theirs.count) - edge)
        func snr(_ ours: [Float], shift: Int) -> Double {
            var signal = 0.0, noise = 0.0
            for i in middle {
                let t = Double(theirs[i]), o = Double(ours[i + shift])
                signal += t * t
                noise += (t - o) * (t - o)
            }
            return noise == 0 ? .infinity : 10 * log10(signal / noise)
        }
        let best = (-16...16).max { snr(left, shift: $0) < snr(left, shift: $1) } ?? 0
        #expect(best == 0, "the graph's output is \(best) frames off sox's")
        let leftSNR = snr(left, shift: best), rightSNR = snr(right, shift: best)
        print("augraph_player: \(played.frames) frames at \(outputRate) Hz, shift \(best), \(leftSNR) dB left, \(rightSNR) dB right against sox")
        #expect(leftSNR > 90, "left: \(leftSNR) dB against sox")
        #expect(rightSNR > 90, "right: \(rightSNR) dB against sox")
        // After the source, the converter's tail and then silence: nothing loud.
        #expect(played.samples.suffix(2 * edge).allSatisfy { abs($0) < 1e-3 }, "the end of the file is not silent")
    }
}
