import Foundation
import Testing
import Dispatch
import Locking
import AudioCore
import AudioDevices
import AudioDeviceALSA
import AudioDevicePulse
import AudioFileServices
import AudioQueueServices
import AudioTestSupport

/// Plays a noise file through a queue on the output device `makeOutput` opens while the sink's
/// monitor is recorded through this package's own PulseAudio capture, and checks that the
/// recording holds the whole signal after its first half second, in order, at gain 1, with no
/// gap — or, with `pause`, paused for `pause.length` seconds once `pause.at` seconds have
/// played: then with one gap of silence, after which the signal goes on from the frame where it
/// stopped, or at most `pause.maxLoss` frames of it. Returns the frames the pause lost
/// (negative: played twice).
@discardableResult
func playAndRecord(
    label: String, pause: (at: Double, length: Double, maxLoss: Int)? = nil, makeOutput: () throws -> any AudioOutputDevice
) throws -> Int {
    let output = try makeOutput()
    let noise = try noiseFile(seconds: 4, name: "record")
    let reference = try referenceDecode(noise)
    let input = try PulseBackend().makeInput(name: "\(Server.sink).monitor", sampleRate: 48000, channels: 2, bufferFrames: 1024)
    defer { input.close() }
    let recorder = MonitorRecorder(seconds: 10, rate: 48000, channels: 2)
    try input.start(sink: recorder)
    let player = try FilePlayer(path: noise, device: output)
    let queue = try #require(player.queue)
    try queue.setDecodeBufferSizeFrames(48000)
    let stopped = DispatchSemaphore(value: 0)
    try queue.addPropertyListener(.isRunning) { q, _ in if !q.isRunning { stopped.signal() } }
    for b in player.buffers { player.fill(b) }
    try queue.start()
    if let pause {
        // A null sink that was idle can take a while to begin playing a new stream (its clock
        // runs meanwhile): wait until the monitor has heard `pause.at` seconds of the signal.
        var heard = 0.0
        eventually(within: 10) {
            heard = recorder.secondsSinceFirstSound(rate: 48000)
            return heard >= pause.at
        }
        try #require(heard >= pause.at, "\(label): \(heard) s heard in ten seconds")
        try queue.pause()
        Thread.sleep(forTimeInterval: pause.length)
        try queue.start()
    }
    #expect(stopped.wait(timeout: .now() + 30) == .success, "\(label): playback did not end")
    // The monitor's tail: half a second recorded after the end was played.
    #expect(recorder.waitForMore(seconds: 0.5, rate: 48000), "\(label): the monitor stopped recording")
    input.stop()
    try queue.dispose(immediate: true)
    #expect(player.failure == nil)
    let recording = recorder.samples
    let from = 24000   // 0.5 s
    guard var lag = alignment(of: reference.samples, in: recording, channels: 2, from: from) else {
        Issue.record("\(label): the signal at 0.5 s is not in the \(recording.count / 2)-frame recording")
        return Int.min
    }
    let end = reference.samples.count
    /// The first frame from `start` on where the recording (at `lag`) differs from the signal.
    func firstDifference(lag: Int, from start: Int) -> (frame: Int?, worst: Float) {
        var worst: Float = 0
        for i in (start * 2)..<end where lag + i < recording.count {
            let d = abs(recording[lag + i] - reference.samples[i])
            if d > worst { worst = d }
            if d > 1e-4 { return (i / 2, worst) }
        }
        return (nil, worst)
    }
    var (firstBad, worst) = firstDifference(lag: lag, from: from)
    var lost = 0
    if let pause {
        // The pause: silence from the frame where the signal stopped, then the signal again,
        // from that frame or within `pause.maxLoss` frames of it (PulseAudio may drop or
        // replay what its sink had mixed ahead when the stream is corked).
        guard let stop = firstBad else {
            Issue.record("\(label): the pause left no gap in the recording (\(recording.count / 2) frames recorded, signal at \(lag / 2))")
            return Int.min
        }
        let stopAt = lag + stop * 2
        var resumeAt = stopAt
        while resumeAt < recording.count && recording[resumeAt] == 0 { resumeAt += 1 }
        resumeAt -= resumeAt % 2
        let gap = (resumeAt - stopAt) / 2
        #expect(gap >= Int(pause.length * 48000 / 2), "\(label): a pause of \(gap) frames")
        func matches(_ frame: Int) -> Bool {
            guard frame >= 0, frame * 2 + 512 <= end, resumeAt + 512 <= recording.count else { return false }
            return (0..<512).allSatisfy { abs(recording[resumeAt + $0] - reference.samples[frame * 2 + $0]) <= 1e-4 }
        }
        let offsets = (0...pause.maxLoss).flatMap { [$0, -$0] }
        guard let skip = offsets.first(where: { matches(stop + $0) }) else {
            Issue.record("\(label): after the \(gap)-frame pause the signal does not go on within \(pause.maxLoss) frames of frame \(stop), where it stopped")
            return Int.min
        }
        lost = skip
        lag = resumeAt - (stop + skip) * 2
        (firstBad, worst) = firstDifference(lag: lag, from: stop + skip)
    }
    #expect(lag + end <= recording.count, "\(label): the recording stops \((lag + end - recording.count) / 2) frames before the signal's end")
    var after = ""
    if let firstBad, let again = alignment(of: reference.samples, in: recording, channels: 2, from: firstBad + 4800) {
        after = "; 0.1 s later the signal is \((again - lag) / 2) frames later in the recording"
    }
    #expect(firstBad == nil, "\(label): differs from frame \(firstBad ?? 0) on (largest difference \(worst))\(after)")
    return lost
}

extension SharedServer {
    @Suite("Playback through the sound server")
    struct Playback {
        @Test func pulsePlaybackIsRecordedWhole() throws {
            try onTimeChecks("pulse playback") {
                try playAndRecord(label: "pulse") {
                    try PulseBackend().makeOutput(name: Server.sink, sampleRate: 48000, channels: 2, bufferFrames: Server.testBufferFrames)
                }
            }
        }

        @Test func alsaPulsePCMPlaybackIsRecordedWhole() throws {
            try onTimeChecks("alsa pulse playback") {
                try playAndRecord(label: "alsa pulse") {
                    try ALSABackend().makeOutput(name: "pulse", sampleRate: 48000, channels: 2, bufferFrames: Server.testBufferFrames)
                }
            }
        }

        /// Apple's pause keeps what is buffered: half a second of audio the server holds when
        /// the queue pauses (the stream is corked) plays when it resumes, after a silent gap.
        /// What the null sink had already mixed ahead when the stream is corked, PulseAudio drops
        /// or plays again (a few milliseconds either way); a pause that dropped the server's
        /// buffer would lose the whole half second.
        @Test func pausingKeepsWhatTheServerHolds() throws {
            try onTimeChecks("pause") {
                let halfSecond = 24000
                let lostPulse = try playAndRecord(label: "pulse", pause: (at: 1.5, length: 0.6, maxLoss: halfSecond / 10)) {
                    try PulseBackend().makeOutput(name: Server.sink, sampleRate: 48000, channels: 2, bufferFrames: halfSecond)
                }
                let lostALSA = try playAndRecord(label: "alsa pulse", pause: (at: 1.5, length: 0.6, maxLoss: halfSecond / 10)) {
                    try ALSABackend().makeOutput(name: "pulse", sampleRate: 48000, channels: 2, bufferFrames: halfSecond)
                }
                print("frames a pause dropped (negative: played twice): through PulseAudio \(lostPulse), through ALSA's pulse PCM \(lostALSA)")
            }
        }

        /// A queue that runs dry while the server plays it: the timeline reports a
        /// discontinuity (the device played silence it was not given), through PulseAudio and
        /// through ALSA's pulse PCM.
        @Test func runningDryIsATimelineDiscontinuity() throws {
            let outputs: [(String, () throws -> any AudioOutputDevice)] = [
                ("pulse", { try PulseBackend().makeOutput(name: Server.sink, sampleRate: 48000, channels: 2, bufferFrames: 4096) }),
                ("alsa pulse", { try ALSABackend().makeOutput(name: "pulse", sampleRate: 48000, channels: 2, bufferFrames: 4096) }),
            ]
            for (label, make) in outputs {
                let output = try make()
                defer { output.close() }
                let format = AudioStreamBasicDescription.linearPCM(sampleRate: 48000, channels: 2, bitsPerChannel: 32, isFloat: true)
                let queue = try AudioQueue(format: format, device: output) { _, _ in }
                let timeline = try queue.makeTimeline()
                #expect(try queue.currentTime(timeline: timeline).discontinuity == false, "\(label): a discontinuity before playing")
                let samples = [Float](repeating: 0.25, count: 2400 * 2)
                let buffer = try queue.allocateBuffer(byteCapacity: samples.count * 4)
                samples.withUnsafeBytes { buffer.audioData.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
                buffer.audioDataByteSize = samples.count * 4
                try queue.enqueue(buffer)
                try queue.start()
                let sawDiscontinuity = eventually(within: 10) { (try? queue.currentTime(timeline: timeline).discontinuity) == true }
                #expect(sawDiscontinuity, "\(label): no discontinuity reported in ten seconds of running dry")
                try queue.dispose(immediate: true)
            }
        }

        @Test func enumerationListsTheNullSinkAndItsMonitor() throws {
            let devices = try PulseBackend().devices()
            #expect(devices.contains { $0.name == Server.sink && $0.direction == .output }, "\(devices)")
            #expect(devices.contains { $0.name == "\(Server.sink).monitor" && $0.direction == .input }, "\(devices)")
            // ALSA's list: the `pulse` PCM of libasound2-plugins (Scripts/test installs it), which
            // plays to this server; not alsa-lib's `null` PCM, a plug-in rather than a device.
            let alsa = try ALSABackend().devices()
            #expect(alsa.contains { $0.name == "pulse" && $0.direction == .output }, "\(alsa)")
            #expect(!alsa.contains { $0.name == "null" }, "\(alsa)")
        }

        /// isRunning fires when the device starts and when it stops; the queue's clock runs at
        /// the device's rate (within 0.5 % over three seconds; a null sink is clocked by the
        /// host's monotonic clock). PipeWire's server reports positions a 43 ms quantum at a
        /// time, which libpulse's interpolated time turns into rates 1–2 % off for seconds
        /// (``onTimeChecks(_:_:)``).
        @Test func isRunningAndTheClock() throws {
            let noise = try noiseFile(seconds: 8, name: "clock")
            let output = try PulseBackend().makeOutput(name: Server.sink, sampleRate: 48000, channels: 2, bufferFrames: Server.testBufferFrames)
            let player = try FilePlayer(path: noise, device: output)
            let queue = try #require(player.queue)
            let events = Guarded<[Bool]>([])
            let started = DispatchSemaphore(value: 0)
            try queue.addPropertyListener(.isRunning) { q, _ in
                let running = q.isRunning
                events.withLock { $0.append(running) }
                if running { started.signal() }
            }
            for b in player.buffers { player.fill(b) }
            try queue.start()
            #expect(started.wait(timeout: .now() + 10) == .success)
            // An idle null sink settles its timing on its first (2 s) wake-up; measure after it.
            Thread.sleep(forTimeInterval: 2.5)
            let t0 = try queue.currentTime().timeStamp
            var trace: [String] = []
            for _ in 0..<6 {
                Thread.sleep(forTimeInterval: 0.5)
                let t = try queue.currentTime().timeStamp
                trace.append("\(Int(t.sampleTime - t0.sampleTime))@\(Int(Double(t.hostTime - t0.hostTime) / 1e6))ms")
            }
            let t1 = try queue.currentTime().timeStamp
            let rate = (t1.sampleTime - t0.sampleTime) / (Double(t1.hostTime - t0.hostTime) / 1e9)
            onTimeChecks("the queue's clock") {
                #expect(abs(rate / 48000 - 1) < 0.005, "the queue's clock ran at \(rate) Hz: \(trace.joined(separator: " "))")
            }
            try queue.stop(immediate: true)
            #expect(events.withLock { $0 } == [true, false])
            try queue.dispose(immediate: true)
        }
    }
}

extension SharedServer {
    @Suite("ALSA and the default chain")
    struct DefaultChainTests {
        /// alsa-lib's `file` PCM writes exactly what the queue played: the source's samples, for
        /// three seconds of noise refilled buffer by buffer through the callback while it plays.
        @Test func alsaFilePCMWritesTheSource() throws {
            let noise = try noiseFile(seconds: 3, name: "alsafile")
            let raw = FileManager.default.temporaryDirectory.appendingPathComponent("aq-alsa-file-\(getpid()).raw").path
            defer { try? FileManager.default.removeItem(atPath: raw) }
            let reference = try referenceDecode(noise)
            let output = try ALSABackend().makeOutput(name: "file:FILE=\(raw),FORMAT=raw", sampleRate: 48000, channels: 2, bufferFrames: 4096)
            let player = try FilePlayer(path: noise, device: output)
            let queue = try #require(player.queue)
            #expect(queue.decodeBufferSizeFrames < 48000, "the queue decodes as it plays, not all ahead")
            let stopped = DispatchSemaphore(value: 0)
            try queue.addPropertyListener(.isRunning) { q, _ in if !q.isRunning { stopped.signal() } }
            for b in player.buffers { player.fill(b) }
            try queue.start()
            #expect(stopped.wait(timeout: .now() + 20) == .success)
            try queue.dispose(immediate: true)
            let bytes = try Data(contentsOf: URL(fileURLWithPath: raw))
            let samples = bytes.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
            #expect(samples == reference.samples, "\(samples.count) samples written for \(reference.samples.count)")
        }

        /// The default chain: a PulseAudio server that answers comes first; `AUDIOQUEUE_BACKEND`
        /// and `AUDIOQUEUE_DEVICE` override it; a device named alone that no backend has is an
        /// error, not a file; `--list-devices` lists what each backend offers.
        @Test func theServerComesFirstAndTheEnvironmentOverrides() throws {
            let clean = ["AUDIOQUEUE_BACKEND": "", "AUDIOQUEUE_DEVICE": ""]
            let chime = Fixtures.path("caf-aac-2ch-48000.caf")
            let first = try runProcess(aqplay, [chime], environment: clean)
            #expect(first.status == 0, "\(first.err)")
            #expect(first.out.contains("playing through pulse:\(Server.sink)"), "\(first.out)")

            let path = FileManager.default.temporaryDirectory.appendingPathComponent("aq-env-\(getpid()).wav").path
            defer { try? FileManager.default.removeItem(atPath: path) }
            let chosen = try runProcess(aqplay, [chime], environment: ["AUDIOQUEUE_BACKEND": "file", "AUDIOQUEUE_DEVICE": path])
            #expect(chosen.status == 0, "\(chosen.err)")
            #expect(chosen.out.contains("playing to WAVE file \(path)"), "\(chosen.out)")
            let written = try AudioFile(path: path)
            #expect(written.dataFormat.sampleRate == 48000 && written.dataFormat.channelsPerFrame == 2)
            #expect(written.dataByteCount == Int64(try referenceDecode(chime).samples.count * 4))

            let missing = try runProcess(aqplay, [chime], environment: ["AUDIOQUEUE_BACKEND": "", "AUDIOQUEUE_DEVICE": "no-such-device"])
            #expect(missing.status == 1)
            #expect(missing.err.contains("AUDIOQUEUE_DEVICE=no-such-device"), "\(missing.err)")

            let list = try runProcess(aqplay, ["--list-devices"], environment: clean)
            #expect(list.status == 0, "\(list.err)")
            for uid in ["pulse:\(Server.sink)", "alsa:default", "alsa:pulse", "null:null"] {
                #expect(list.out.contains(uid), "--list-devices lists no \(uid): \(list.out)")
            }
            // alsa-lib's plug-ins are PCMs to open by name, not devices to list.
            #expect(!list.out.contains("alsa:null") && !list.out.contains("alsa:jack"), "\(list.out)")
        }

        /// Without a sound server, ALSA's `default` device plays when it opens: here one defined
        /// as a `file` PCM, whose bytes are then exactly the source's samples.
        @Test func withoutAServerALSADefaultPlays() throws {
            let name = "caf-aac-2ch-48000.caf"
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("aq-alsa-default-\(getpid())").path
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: dir) }
            let config = dir + "/asound.conf"
            let raw = dir + "/default.raw"
            try "pcm.!default { type file slave.pcm \"blackhole\" file \"\(raw)\" format \"raw\" }\npcm.blackhole { type null }\n"
                .write(toFile: config, atomically: true, encoding: .utf8)
            let result = try runProcess(aqplay, [Fixtures.path(name)], environment: [
                "PULSE_SERVER": "unix:\(dir)/no-such-socket", "PULSE_RUNTIME_PATH": dir + "/no-pulse", "PIPEWIRE_RUNTIME_DIR": dir,
                "ALSA_CONFIG_PATH": config, "AUDIOQUEUE_BACKEND": "", "AUDIOQUEUE_DEVICE": "",
            ])
            #expect(result.status == 0, "\(result.err)")
            #expect(result.out.contains("playing through alsa:default"), "\(result.out)")
            let bytes = try Data(contentsOf: URL(fileURLWithPath: raw))
            let samples = bytes.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
            let reference = try referenceDecode(Fixtures.path(name))
            #expect(samples == reference.samples, "\(samples.count) samples written for \(reference.samples.count)")
        }

        /// With no sound server and no ALSA device, the default output is a WAVE file, and it holds
        /// exactly what played.
        @Test func withNothingElseTheDefaultIsAWAVEFile() throws {
            let name = "caf-aac-2ch-48000.caf"
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("aq-chain-\(getpid())").path
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: dir) }
            let emptyConfig = dir + "/empty-alsa.conf"
            _ = FileManager.default.createFile(atPath: emptyConfig, contents: Data())
            let result = try runProcess(aqplay, [Fixtures.path(name)], environment: [
                "PULSE_SERVER": "unix:\(dir)/no-such-socket", "PULSE_RUNTIME_PATH": dir + "/no-pulse", "PIPEWIRE_RUNTIME_DIR": dir,
                "ALSA_CONFIG_PATH": emptyConfig, "TMPDIR": dir, "AUDIOQUEUE_BACKEND": "", "AUDIOQUEUE_DEVICE": "",
            ])
            #expect(result.status == 0, "\(result.err)")
            let line = try #require(result.out.split(separator: "\n").first { $0.contains("WAVE file") }, "aqplay said: \(result.out)")
            let path = try #require(line.split(separator: " ").first { $0.hasPrefix("/") }.map(String.init))
            #expect(path.hasPrefix(dir))
            // The library says so too, with the path and why no sound backend played.
            #expect(result.err.contains("writing the output to \(path)"), "\(result.err)")
            #expect(result.err.contains("pulse: not available"), "\(result.err)")
            let written = try AudioFile(path: path)
            let bytes = try written.readBytes(at: 0, count: Int(written.dataByteCount))
            let samples = bytes.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
            let reference = try referenceDecode(Fixtures.path(name))
            #expect(samples == reference.samples, "\(samples.count) samples written for \(reference.samples.count)")
        }
    }

}

/// The server going away mid-playback: the error surfaces within a second and aqplay exits
/// saying so; a new server plays again. Uses a server of its own, so it never disturbs the others'
/// sink; it runs with them, one at a time, so that no playback competes with another for the
/// machine's cores.
extension SharedServer {
    @Suite("Losing the sound server")
    struct ServerLossTests {
        @Test(.enabled(if: LossyServer.runnable, "pulseaudio is not installed (Scripts/test installs it)"))
        func killingTheServerEndsPlaybackWithinASecond() throws {
            let server = try LossyServer(label: "kill")
            // Whatever happens below, no server is left behind (a second kill does nothing).
            defer { server.remove() }
            let env = server.environment.merging(["AUDIOQUEUE_BACKEND": "", "AUDIOQUEUE_DEVICE": ""]) { $1 }
            let noise = try noiseFile(seconds: 20, name: "long")
            try server.start()
            let player = try BackgroundAqplay(["--backend", "pulse", noise], environment: env)
            // Once its queue has started (it says where it plays only then) and its stream is on
            // the server, take the server away. A kill while the stream is still being set up
            // is a start that fails, another path.
            try #require(player.said("playing through pulse", within: 20), "aqplay never said it was playing")
            try #require(eventually(within: 10) { server.playsAStream }, "aqplay's stream never appeared on the server")
            #expect(player.process.isRunning, "aqplay ended before the server was killed")
            server.kill()
            // A hang guard, not a measurement: aqplay must notice and exit rather than wait forever.
            let result = player.wait(within: 10)
            #expect(result.inTime, "aqplay did not notice that the server was gone")
            #expect(result.status == 1)
            let message = result.err
            // What happened, through the queue: the device's failure and its reason, not the
            // refusal of the enqueues the callback tried afterwards.
            #expect(message.contains("playback stopped: the PulseAudio server went away"), "\(message)")
            #expect(message.contains("-66671"), "\(message)")
            #expect(!message.contains("-66632") && !message.contains("enqueued"), "\(message)")

            // A new server: playing works again.
            try server.start()
            let again = try runProcess(aqplay, ["--backend", "pulse", Fixtures.path("wav-pcm_s16le-2ch-44100.wav")], environment: env)
            #expect(again.status == 0, "\(again.err)")
            #expect(again.out.contains("pulse"), "\(again.out)")
        }
    }
}
