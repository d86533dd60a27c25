import Foundation
import ProcessSupport
import Testing

/// Audio-unit programs written the way portable audio libraries' macOS back ends drive output
/// units (Tests/AudioToolboxTests/Corpus): a tone player on the default output unit, a C++
/// AUHAL player that picks its device by name and converts in its render callback, and an
/// output module with the Component Manager's spellings. Each is compiled unchanged and plays a
/// signal it generates and writes out as its reference: a null sink's monitor, recorded by
/// parecord, holds it sample for sample (PulseAudio; PipeWire's server in its own pass and
/// natively); the WAVE file device holds the whole of it. The tone player's render callbacks
/// also print their time stamps, which are checked against the frames rendered.
@Suite("Audio unit output programs", .serialized)
struct AudioUnitProgramTests {
    static let tone = Result { try CorpusTests.build("corpus-au-default-tone", "au_default_tone.c") }
    static let halDevice = Result { try CorpusTests.build("corpus-auhal-device", "auhal_device.cpp", cxx: true) }
    static let componentOutput = Result { try CorpusTests.build("corpus-component-output", "component_output.c") }

    /// The server is PipeWire's PulseAudio server (Scripts/lib/pipewire.sh sets AQ_SERVER_NAME).
    static let isPipeWire = ProcessInfo.processInfo.environment["AQ_SERVER_NAME"] == "pipewire"

    /// What PipeWire's PulseAudio server does not promise on a busy machine (it drops or
    /// replaces a quantum of a stream now and then, with nothing said to the client) is
    /// recorded as a known issue there; PulseAudio keeps every promise checked.
    static func onTime(_ label: String, _ body: () throws -> Void) rethrows {
        try withKnownIssue("\(label): PipeWire's PulseAudio server on a busy machine", isIntermittent: true) {
            try body()
        } when: {
            isPipeWire
        }
    }

    // MARK: Sinks and recordings

    /// Loads a Float32 stereo null sink of the test's own at `rate` on the shared server (named
    /// `description` for the HAL when given); returns its module number.
    static func loadSink(_ name: String, rate: Int, description: String? = nil, environment: [String: String] = [:]) throws -> String {
        var arguments = ["load-module", "module-null-sink", "sink_name=\(name)", "format=float32le", "rate=\(rate)", "channels=2"]
        if let description { arguments.append("sink_properties=device.description=\(description)") }
        let load = try runProcess("/usr/bin/pactl", arguments, environment: environment)
        try #require(load.status == 0, "pactl load-module: \(load.err)")
        return load.out.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func unload(_ module: String, environment: [String: String] = [:]) {
        _ = try? runProcess("/usr/bin/pactl", ["unload-module", module], environment: environment)
    }

    /// Runs `play` while parecord records `sink`'s monitor (Float32 stereo at `rate`); returns
    /// the recording and what `play` returned.
    static func recordingMonitor<T>(of sink: String, rate: Int, label: String, environment: [String: String] = [:], _ play: () throws -> T) throws
        -> (recorded: [Float], result: T) {
        let raw = CPrograms.scratch.appendingPathComponent("au-\(label)-\(UUID().uuidString).raw").path
        defer { unlink(raw) }
        let recorder = Process()
        recorder.executableURL = URL(fileURLWithPath: "/usr/bin/parecord")
        recorder.arguments = [
            "--device=\(sink).monitor", "--raw", "--format=float32le", "--rate=\(rate)", "--channels=2", "--latency-msec=20", raw,
        ]
        if !environment.isEmpty { recorder.environment = mergedEnvironment(environment) }
        try recorder.run()
        let size = { ((try? FileManager.default.attributesOfItem(atPath: raw))?[.size] as? Int) ?? 0 }
        eventually(within: 10) { size() > 0 }
        let result: T
        do {
            result = try play()
        } catch {
            kill(recorder.processIdentifier, SIGKILL)
            recorder.waitUntilExit()
            throw error
        }
        // A little more than what the server may still hold, then stop parecord (SIGKILL: the
        // test process may block the signals it ends on; what it recorded is in the file).
        let wanted = size() + rate / 5 * 8 * 2
        eventually(within: 10) { size() >= wanted }
        kill(recorder.processIdentifier, SIGKILL)
        recorder.waitUntilExit()
        return (IOProcTests.floats(atPath: raw), result)
    }

    /// The lines of `out` that begin with `prefix`, without it.
    static func lines(_ out: String, _ prefix: String) -> [String] {
        out.split(separator: "\n").filter { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) }
    }

    /// Checks that a WAVE file the file device wrote holds `reference` from its first frame,
    /// sample for sample, and nothing but silence after it.
    static func expectFileHolds(_ path: String, _ reference: [Float], _ label: String) throws {
        let played = try GuideTests.ffmpegDecode(path)
        #expect(played.channels == 2, "\(label): \(played.channels) channels")
        try #require(!reference.isEmpty && played.samples.count >= reference.count,
                     "\(label): the file holds \(played.frames) frames of the signal's \(reference.count / 2)")
        let first = GuideTests.firstDifference(Array(played.samples.prefix(reference.count)), reference)
        #expect(first == nil, "\(label): sample \(first ?? -1) differs")
        #expect(played.samples[reference.count...].allSatisfy { $0 == 0 }, "\(label): after the signal only silence")
    }

    // MARK: The programs through PulseAudio

    /// Which program plays, and how.
    enum Player: String, CaseIterable, CustomTestStringConvertible {
        case toneInt16 = "au_default_tone (SInt16, 44.1 kHz; 48 kHz on PipeWire)"
        case toneFloat = "au_default_tone (Float32, 48 kHz)"
        case componentManager = "component_output (Component Manager)"
        case halDevice = "auhal_device (C++, by name)"

        var testDescription: String { rawValue }

        /// The program's rate, and the sink's: PipeWire's graph runs at 48 kHz and resamples a
        /// sink at any other rate, so there the 16-bit player plays at 48 kHz too.
        var rate: Int { self == .toneInt16 && !AudioUnitProgramTests.isPipeWire ? 44100 : 48000 }

        /// Plays `frames` frames to `sink` (described to the HAL as `description`); the
        /// program's exit status, output and reference.
        func play(frames: Int, sink: String, description: String, backend: String, environment: [String: String] = [:])
            throws -> (status: Int32, out: String, reference: [Float]) {
            let ref = CPrograms.scratch.appendingPathComponent("au-ref-\(UUID().uuidString).raw").path
            defer { unlink(ref) }
            let r: (status: Int32, out: String, err: String)
            switch self {
            case .toneInt16, .toneFloat:
                let format = self == .toneInt16 ? "int16" : "float"
                r = try GuideTests.run(try AudioUnitProgramTests.tone.get(), ["\(frames)", "\(rate)", ref, format],
                                       environment: environment.merging(["AUDIOQUEUE_BACKEND": backend, "AUDIOQUEUE_DEVICE": sink]) { $1 })
            case .componentManager:
                r = try GuideTests.run(try AudioUnitProgramTests.componentOutput.get(), ["\(frames)", "\(rate)", ref],
                                       environment: environment.merging(["AUDIOQUEUE_BACKEND": backend, "AUDIOQUEUE_DEVICE": sink]) { $1 })
            case .halDevice:
                // The device by its name alone: no backend or device named unless the caller does.
                r = try GuideTests.run(try AudioUnitProgramTests.halDevice.get(), ["play", description, "\(frames)", ref],
                                       environment: ["AUDIOQUEUE_BACKEND": "", "AUDIOQUEUE_DEVICE": ""].merging(environment) { $1 })
            }
            return (r.status, r.out + r.err, IOProcTests.floats(atPath: ref))
        }

        /// What the program must have said of the device (its UID and rate, when `rate` is
        /// given) and the frames it played.
        func expectOutput(_ out: String, frames: Int, uid: String, rate: Int?) {
            switch self {
            case .toneInt16, .toneFloat:
                if let rate { #expect(out.contains("device rate \(rate) channels 2\n"), "\(out)") }
                #expect(out.contains("rate \(self.rate) frames \(frames) rendered \(frames)\n"), "\(out)")
                // The listener heard the start and the stop, in that order, and nothing else.
                #expect(AudioUnitProgramTests.lines(out, "listener running ") == ["1", "0"], "\(out)")
                #expect(out.contains("running after stop 0\n") && out.contains("latency ok\n"), "\(out)")
                #expect(!out.contains("unexpected buffers"), "\(out)")
            case .componentManager:
                #expect(out.contains("components 1\n") && out.contains("rendered \(frames)\n"), "\(out)")
            case .halDevice:
                #expect(out.contains("device \(uid) rate \(rate.map(String.init) ?? "") channels 2\n"), "\(out)")
                #expect(out.contains("buffer frames 256\n") && out.contains("rendered \(frames)\n"), "\(out)")
                #expect(!out.contains("unexpected buffers") && !out.contains("AudioConverterFillComplexBuffer"), "\(out)")
            }
        }
    }

    @Test("Each program's signal reaches a PulseAudio null sink's monitor sample for sample",
          .enabled(if: AudioServer.runTests, Comment(rawValue: AudioServer.skipReason)), arguments: Player.allCases)
    func pulseIsBitExact(_ player: Player) throws {
        try #require(AudioServer.available, "no PulseAudio server answers")
        let sink = "auprog\(getpid())", description = "AUProgram\(getpid())"
        let module = try Self.loadSink(sink, rate: player.rate, description: description)
        defer { Self.unload(module) }
        let frames = player.rate
        let (recorded, played) = try Self.recordingMonitor(of: sink, rate: player.rate, label: "\(player)") {
            try player.play(frames: frames, sink: sink, description: description, backend: "pulse")
        }
        try #require(played.status == 0, "\(player.rawValue) exited with \(played.status): \(played.out)")
        player.expectOutput(played.out, frames: frames, uid: "pulse:\(sink)", rate: player.rate)
        #expect(played.reference.count == 2 * frames, "\(player.rawValue): \(played.reference.count) reference samples")
        Self.onTime(player.rawValue) {
            IOProcTests.expectHolds(recorded, played.reference, channels: 2, rate: player.rate, player.rawValue)
        }
    }

    @Test("Through the native PipeWire backend, on a PipeWire server of the test's own, the default output unit's signal reaches the sink's monitor sample for sample",
          .enabled(if: IOProcTests.pipeWireInstalled, "PipeWire is not installed (Scripts/test installs it)"))
    func pipeWireIsBitExact() throws {
        let sink = "auprogpw"
        try IOProcTests.withPrivatePipeWire(sink: sink, label: "auprog") { environment in
            let player = Player.toneFloat
            let (recorded, played) = try Self.recordingMonitor(of: sink, rate: 48000, label: "pipewire", environment: environment) {
                try player.play(frames: 48000, sink: sink, description: "", backend: "pipewire", environment: environment)
            }
            try #require(played.status == 0, "au_default_tone exited with \(played.status): \(played.out)")
            player.expectOutput(played.out, frames: 48000, uid: "pipewire:\(sink)", rate: 48000)
            IOProcTests.expectHolds(recorded, played.reference, channels: 2, rate: 48000, "pipewire")
        }
    }

    @Test("Through the WAVE file device each program's file holds the whole signal from its first frame, then silence",
          arguments: Player.allCases)
    func fileDeviceHoldsTheSignal(_ player: Player) throws {
        let directory = CPrograms.scratch.appendingPathComponent("au-file-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let wav = directory.appendingPathComponent("out.wav").path
        let environment = ["AUDIOQUEUE_BACKEND": "file", "AUDIOQUEUE_DEVICE": wav, "TMPDIR": directory.path]
        var description = ""
        if player == .halDevice {
            // The file device, by the name the HAL gives it.
            let list = try GuideTests.run(try Self.halDevice.get(), ["list"], environment: environment)
            try #require(list.status == 0, "auhal_device list: \(list.out)\(list.err)")
            let file = try #require(Self.lines(list.out, "device ").map { $0.split(separator: "|").map(String.init) }
                .first { $0.count == 4 && $0[2] == "file:\(wav)" }, "no file device in \(list.out)")
            description = file[1]
        }
        let frames = 30_000
        let played = try player.play(frames: frames, sink: wav, description: description, backend: "file", environment: environment)
        try #require(played.status == 0, "\(player.rawValue) exited with \(played.status): \(played.out)")
        #expect(played.reference.count == 2 * frames)
        let probe = try runProcess("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "stream=sample_rate", "-of", "csv=p=0", wav])
        let rate = Int(probe.out.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        // AUHAL plays at the device's rate, which it reports; the others at their own, which the
        // file device takes.
        if player == .halDevice {
            player.expectOutput(played.out, frames: frames, uid: "file:\(wav)", rate: rate)
        } else {
            player.expectOutput(played.out, frames: frames, uid: "file:\(wav)", rate: nil)
            #expect(rate == player.rate, "\(player.rawValue): the file is at \(rate) Hz")
        }
        try Self.expectFileHolds(wav, played.reference, player.rawValue)
    }

    @Test("auhal_device lists the HAL's output devices with names and UIDs: a sink of the test's own among them",
          .enabled(if: AudioServer.runTests, Comment(rawValue: AudioServer.skipReason)))
    func halDeviceLists() throws {
        try #require(AudioServer.available, "no PulseAudio server answers")
        let sink = "aulist\(getpid())", description = "AUList\(getpid())"
        let module = try Self.loadSink(sink, rate: 48000, description: description)
        defer { Self.unload(module) }
        let r = try GuideTests.run(try Self.halDevice.get(), ["list"], environment: ["AUDIOQUEUE_BACKEND": "", "AUDIOQUEUE_DEVICE": ""])
        try #require(r.status == 0, "\(r.out)\(r.err)")
        let devices = Self.lines(r.out, "device ").map { $0.split(separator: "|", omittingEmptySubsequences: false).map(String.init) }
        #expect(devices.contains { $0.count == 4 && $0[1] == description && $0[2] == "pulse:\(sink)" && $0[3] == "2" }, "\(r.out)")
        let missing = try GuideTests.run(try Self.halDevice.get(), ["play", "NoSuchDevice\(getpid())", "100", "/dev/null"])
        #expect(missing.status == 1 && missing.out.contains("no output device called"), "\(missing.out)\(missing.err)")
    }

    // MARK: Time stamps

    /// One render callback: its time stamp's sample and host times (nanoseconds), frames, flags.
    struct Cycle {
        var sampleTime: Double
        var hostNanos: Double
        var frames: Int
        var flags: UInt32
    }

    static func cycles(_ out: String) -> [Cycle] {
        lines(out, "cycle ").compactMap { line in
            let f = line.split(separator: " ")
            guard f.count == 4, let s = Double(f[0]), let h = Double(f[1]), let n = Int(f[2]), let flags = UInt32(f[3]) else { return nil }
            return Cycle(sampleTime: s, hostNanos: h, frames: n, flags: flags)
        }
    }

    /// The render callback's time stamps on a device with a clock (a PulseAudio null sink, which
    /// consumes its stream at its rate on the system's clock): sample times count from 0 and
    /// advance by exactly the frames of the callback before, with no gap and no overlap; host
    /// times are valid and only ever advance. A host time is the estimate of when the cycle's
    /// first frame is heard, from the server's timing reports: the cycles rendered before the
    /// stream runs (its prebuffer, in the first tenth of a second) have only a guess of when
    /// that will be, so what is held against the device's clock starts a quarter of a second in.
    /// From there each step may differ from the frames' duration by the estimate's jitter (10 ms
    /// allowed), and over the run host and sample times may part by no more than 40 ms.
    @Test("The render callback's sample times advance by exactly the frames rendered; its host times track the device's clock",
          .enabled(if: AudioServer.runTests, Comment(rawValue: AudioServer.skipReason)))
    func renderTimeStamps() throws {
        try #require(AudioServer.available, "no PulseAudio server answers")
        let sink = "autime\(getpid())"
        let module = try Self.loadSink(sink, rate: 48000)
        defer { Self.unload(module) }
        let ref = CPrograms.scratch.appendingPathComponent("au-time-\(UUID().uuidString).raw").path
        defer { unlink(ref) }
        let rate = 48000.0, frames = 96_000
        let r = try GuideTests.run(try Self.tone.get(), ["\(frames)", "48000", ref, "float"],
                                   environment: ["AUDIOQUEUE_BACKEND": "pulse", "AUDIOQUEUE_DEVICE": sink])
        try #require(r.status == 0, "\(r.out)\(r.err)")
        let cycles = Self.cycles(r.out)
        try #require(cycles.count > 20, "\(cycles.count) render callbacks: \(r.out)")
        #expect(cycles[0].sampleTime == 0, "the first callback's sample time is \(cycles[0].sampleTime)")
        let valid: UInt32 = 1 | 2  // kAudioTimeStampSampleTimeValid | kAudioTimeStampHostTimeValid
        #expect(cycles.allSatisfy { $0.flags & valid == valid }, "flags \(Set(cycles.map(\.flags)))")
        for (i, (previous, cycle)) in zip(cycles, cycles.dropFirst()).enumerated() {
            #expect(cycle.sampleTime - previous.sampleTime == Double(previous.frames),
                    "callback \(i + 1): sample time \(cycle.sampleTime) after \(previous.sampleTime) + \(previous.frames) frames")
            if cycle.sampleTime - previous.sampleTime != Double(previous.frames) { break }
        }
        // Every frame the program rendered, and the callbacks went on (silent) until the stop.
        #expect(cycles.reduce(0) { $0 + $1.frames } >= frames)
        // Host times only ever advance, whatever the server's timing reports do.
        for (previous, cycle) in zip(cycles, cycles.dropFirst()) where cycle.hostNanos <= previous.hostNanos {
            Issue.record("host time \(cycle.hostNanos) at sample \(cycle.sampleTime) after \(previous.hostNanos)")
            break
        }
        let running = cycles.filter { $0.sampleTime >= rate / 4 }
        try #require(running.count > 20, "\(running.count) callbacks after the first quarter second")
        // How far the first cycles' guess was from the clock the server's reports gave.
        let guess = (running[0].hostNanos - cycles[0].hostNanos) / 1e9 - (running[0].sampleTime - cycles[0].sampleTime) / rate
        Self.onTime("render host times") {
            var worst = 0.0
            for (previous, cycle) in zip(running, running.dropFirst()) {
                let step = (cycle.hostNanos - previous.hostNanos) / 1e9 - (cycle.sampleTime - previous.sampleTime) / rate
                worst = max(worst, abs(step))
            }
            #expect(worst <= 0.010, "a callback's host time is \(worst * 1000) ms off the previous one's plus its frames")
            let first = running[0], last = running[running.count - 1]
            let drift = (last.hostNanos - first.hostNanos) / 1e9 - (last.sampleTime - first.sampleTime) / rate
            #expect(abs(drift) <= 0.04, "from sample \(first.sampleTime) to \(last.sampleTime) the host times ran \(drift * 1000) ms off the samples")
            print("render time stamps: \(cycles.count) callbacks; once running, worst step \(worst * 1000) ms, drift \(drift * 1000) ms; the prebuffer's host times were \(guess * 1000) ms early")
        }
    }
}
