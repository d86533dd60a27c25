import Foundation
import Testing
import Dispatch
import Locking
import AudioCore
import AudioDevices
@testable import AudioDevicePulse
import AudioQueueServices
import AudioTestSupport

/// A queue on the server's default sink follows it: when the default changes, and when the
/// sink it plays on goes away, the server moves the stream; the queue keeps playing there, its
/// `currentDevice` listeners hear it and its timeline reports the discontinuity. A queue
/// opened on a named sink stays there, and its loss stops the queue with
/// `kAudioQueueErr_QueueInvalidated` (Apple's code for a queue whose audio server went away)
/// and the device's reason. Each test has a server of its own, whose default it changes.
extension SharedServer {
    @Suite("Following the default device")
    struct DefaultDeviceTests {
        @Test(.enabled(if: LossyServer.runnable, "the sound server is not installed (Scripts/test installs it)"))
        func aQueueOnTheDefaultFollowsIt() throws {
            let server = try LossyServer(label: "follow")
            defer { server.remove() }
            try server.start()
            let output = try PulseOutputDevice(
                sink: nil, sampleRate: 48000, channels: 2, bufferFrames: Server.testBufferFrames,
                applicationName: "aq-follow", server: server.address)
            let session = try PlayingQueue(output: output)
            defer { session.dispose() }
            let queue = session.queue
            #expect(queue.currentDevice == "pulse:lossy")
            try session.startAndWaitUntilPlaying()

            // A second sink becomes the default: the stream moves there and goes on playing.
            let module = try loadNullSink("second", on: server)
            _ = try server.pactl(["set-default-sink", "second"])
            #expect(session.moved.wait(timeout: .now() + 10) == .success, "no currentDevice change heard")
            #expect(queue.currentDevice == "pulse:second")
            #expect(queue.currentDeviceInfo?.isDefault == true)
            #expect(try sinkPlaying(on: server) == "second")
            #expect(try queue.currentTime(timeline: session.timeline).discontinuity, "no discontinuity for the move")
            #expect(session.clockAdvances(), "the clock stopped after the move")

            // The sink being played goes away: back on the default the server falls back to.
            _ = try server.pactl(["unload-module", module])
            #expect(session.moved.wait(timeout: .now() + 10) == .success, "no currentDevice change heard")
            #expect(queue.currentDevice == "pulse:lossy")
            #expect(try sinkPlaying(on: server) == "lossy")
            #expect(try queue.currentTime(timeline: session.timeline).discontinuity, "no discontinuity for the move")
            #expect(session.clockAdvances(), "the clock stopped after the move")

            #expect(queue.isRunning)
            #expect(queue.converterError == 0 && queue.deviceFailure == nil)
            #expect(session.player.failure == nil)
            #expect(session.devices.withLock { $0 } == ["pulse:second", "pulse:lossy"])
        }

        /// A paused queue on the default hears the move too, and plays on the new sink when it
        /// resumes.
        @Test(.enabled(if: LossyServer.runnable, "the sound server is not installed (Scripts/test installs it)"))
        func aPausedQueueHearsTheMove() throws {
            let server = try LossyServer(label: "paused")
            defer { server.remove() }
            try server.start()
            let output = try PulseOutputDevice(
                sink: nil, sampleRate: 48000, channels: 2, bufferFrames: Server.testBufferFrames,
                applicationName: "aq-paused", server: server.address)
            let session = try PlayingQueue(output: output)
            defer { session.dispose() }
            let queue = session.queue
            try session.startAndWaitUntilPlaying()
            try queue.pause()

            _ = try loadNullSink("second", on: server)
            _ = try server.pactl(["set-default-sink", "second"])
            #expect(session.moved.wait(timeout: .now() + 10) == .success, "no currentDevice change heard while paused")
            #expect(queue.currentDevice == "pulse:second")
            #expect(try sinkPlaying(on: server) == "second")

            try queue.start()
            #expect(session.clockAdvances(), "the clock did not go on after the resume")
            #expect(try sinkPlaying(on: server) == "second")
            #expect(queue.isRunning && queue.deviceFailure == nil)
            #expect(session.devices.withLock { $0 } == ["pulse:second"])
        }

        @Test(.enabled(if: LossyServer.runnable, "the sound server is not installed (Scripts/test installs it)"))
        func aQueueOnANamedSinkReportsItsLoss() throws {
            let server = try LossyServer(label: "named")
            defer { server.remove() }
            try server.start()
            let module = try loadNullSink("second", on: server)
            let output = try PulseOutputDevice(
                sink: "second", sampleRate: 48000, channels: 2, bufferFrames: Server.testBufferFrames,
                applicationName: "aq-named", server: server.address)
            let session = try PlayingQueue(output: output)
            defer { session.dispose() }
            let queue = session.queue
            try session.startAndWaitUntilPlaying()

            // The default changes: a stream on a named sink stays there.
            _ = try server.pactl(["set-default-sink", "second"])
            _ = try server.pactl(["set-default-sink", "lossy"])
            #expect(try waitForDefault("lossy", on: server))
            #expect(session.clockAdvances())
            #expect(try sinkPlaying(on: server) == "second")
            #expect(queue.currentDevice == "pulse:second")

            // Its sink goes away: the queue stops and says why.
            _ = try server.pactl(["unload-module", module])
            #expect(session.stopped.wait(timeout: .now() + 10) == .success, "isRunning did not turn false")
            #expect(session.invalidated.wait(timeout: .now() + 10) == .success, "no converter error heard")
            #expect(queue.converterError == AudioQueueError.Code.queueInvalidated.rawValue)
            let failure = try #require(queue.deviceFailure)
            #expect(failure.code == .disconnected)
            #expect(failure.reason.contains("second"), "\(failure.reason)")
            #expect(session.devices.withLock { $0 }.isEmpty, "currentDevice changed: \(session.devices.withLock { $0 })")
        }

        /// ALSA's `default` device goes away while aqplay plays on it (the sound server behind
        /// alsa-lib's `pulse` plugin dies: the plugin fails with EIO, as an unplugged card fails
        /// with ENODEV), and ALSA's default is by then another device (its configuration names a
        /// `file` PCM): the queue opens ALSA's `default` again and plays the rest there, to the
        /// end. What the lost device held is lost; the rest comes whole and in order.
        @Test(.enabled(if: LossyServer.runnable, "the sound server is not installed (Scripts/test installs it)"))
        func aQueueOnALSADefaultFollowsIt() throws {
            let play = try ALSAPluginPlay(
                label: "alsa-follow", configuration: { "pcm.!default { type pulse server \"\($0)\" }\n" },
                arguments: [], environment: ["AUDIOQUEUE_BACKEND": "alsa", "AUDIOQUEUE_DEVICE": ""])
            defer { play.remove() }
            try play.waitUntilPlaying()
            let raw = play.files + "/after.raw"

            // ALSA's default changes, then the device behind the old one goes away.
            try play.pointAtFile("!default", path: raw)
            play.server.kill()

            let result = play.player.wait(within: 60)
            #expect(result.status == 0, "\(result.out)\(result.err)")
            #expect(!result.err.contains("playback stopped"), "\(result.err)")
            #expect(result.out.contains("now playing through alsa:default"), "\(result.out)")
            let written = try floats(atPath: raw)
            let reference = try ffmpegFloats(play.noise)
            #expect(written.count >= 48_000 * 2, "only \(written.count) samples after the loss")
            #expect(written.count < reference.count, "\(written.count) samples after the loss of \(reference.count)")
            let rest = Array(reference.suffix(written.count))
            let firstDifference = zip(rest, written).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            let difference = firstDifference.map(String.init) ?? "none"
            let isTheRest = rest == written
            #expect(isTheRest, "not the rest of the file after the loss: \(written.count) samples, the first differing at \(difference)")
        }

        /// An input queue on ALSA's `default` follows it as an output queue does: the sound
        /// server behind the `pulse` plugin dies while aqrecord records from it, ALSA's default
        /// is by then a `file` PCM that reads a raw file of the test's own, and the queue opens
        /// `default` again and records on from there. The recording ends with that file's
        /// samples from its start, exactly; aqrecord does not say the device failed.
        @Test(.enabled(if: LossyServer.runnable, "the sound server is not installed (Scripts/test installs it)"))
        func anInputQueueOnALSADefaultFollowsIt() throws {
            let server = try LossyServer(label: "alsa-in-follow")
            let files = FileManager.default.temporaryDirectory.appendingPathComponent("aq-alsa-in-follow-files-\(getpid())").path
            defer {
                server.remove()
                try? FileManager.default.removeItem(atPath: files)
            }
            try server.start()
            try FileManager.default.createDirectory(atPath: files, withIntermediateDirectories: true)
            let config = files + "/asound.conf", source = files + "/source.raw", out = files + "/out.caf"
            try "pcm.!default { type pulse server \"\(server.address)\" device \"lossy.monitor\" }\n"
                .write(toFile: config, atomically: false, encoding: .utf8)
            // Ten seconds of a stereo tone the silent monitor cannot give: Float32, as recorded.
            var tone = [Float]()
            for i in 0..<480_000 { tone += [0.5 * sinf(Float(i) / 7), -0.25] }
            try tone.withUnsafeBufferPointer { Data(buffer: $0) }.write(to: URL(fileURLWithPath: source))

            let recorder = try BackgroundAqplay(
                // Eight seconds: what comes before the loss (the server seen recording, a
                // server that takes its time to die on a busy machine) must leave more than a
                // second of the file's ten after it.
                ["--backend", "alsa", "-d", "LEF32@48000", "--duration", "8", out],
                environment: ["ALSA_CONFIG_PATH": config], executable: aqrecord)
            defer { if recorder.process.isRunning { recorder.process.terminate() } }
            try #require(eventually(within: 10) {
                (try? server.pactl(["list", "short", "source-outputs"]))?.out.isEmpty == false
            }, "aqrecord never recorded from the server")

            // ALSA's default changes (alsa-lib rereads a configuration whose time of change
            // differs), then the device behind the old one goes away.
            try "pcm.!default { type file slave.pcm \"blackhole\" file \"/dev/null\" infile \"\(source)\" format \"raw\" }\npcm.blackhole { type null }\n"
                .write(toFile: config, atomically: false, encoding: .utf8)
            try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(5)], ofItemAtPath: config)
            server.kill()

            let result = recorder.wait(within: 60)
            #expect(result.inTime, "aqrecord did not end")
            #expect(result.status == 0, "\(result.out)\(result.err)")
            #expect(!result.err.contains("stopped"), "\(result.err)")
            let recorded = try ffmpegFloats(out)
            let head = Array(tone.prefix(16))
            let start = try #require(
                recorded.count < head.count ? nil
                    : (0...recorded.count - head.count).first { recorded[$0..<$0 + head.count].elementsEqual(head) },
                "the file's samples are not in the recording (\(recorded.count) samples)")
            let rest = Array(recorded[start...])
            #expect(rest.count >= 48_000 * 2, "only \(rest.count) samples after the loss")
            #expect(rest == Array(tone.prefix(rest.count)), "not the file's samples from its start after the loss")
        }

        /// The same loss on an ALSA device the program named stops the queue, even when that
        /// name opens another device by then: aqplay says why and fails.
        @Test(.enabled(if: LossyServer.runnable, "the sound server is not installed (Scripts/test installs it)"))
        func aQueueOnANamedALSADeviceReportsItsLoss() throws {
            let play = try ALSAPluginPlay(
                label: "alsa-named", configuration: { "pcm.lossy { type pulse server \"\($0)\" }\npcm.!default { type null }\n" },
                arguments: ["--backend", "alsa", "--device", "lossy"], environment: [:])
            defer { play.remove() }
            try play.waitUntilPlaying()

            try play.pointAtFile("lossy", path: play.files + "/after.raw")
            play.server.kill()
            let result = play.player.wait(within: 60)
            #expect(result.status == 1, "\(result.out)\(result.err)")
            #expect(result.err.contains("playback stopped"), "\(result.err)")
            #expect(result.err.contains("lossy"), "\(result.err)")
            #expect(!result.err.contains("-66632"), "\(result.err)")
            #expect(!FileManager.default.fileExists(atPath: play.files + "/after.raw"), "the queue opened the name again")
        }
    }
}

/// A queue playing 20 s of noise through `output`, with listeners for `currentDevice`
/// (`moved`, `devices`), `isRunning` turning false (`stopped`) and the converter error
/// (`invalidated`), and a timeline.
private final class PlayingQueue: Sendable {
    let player: FilePlayer
    let queue: AudioQueue
    let timeline: AudioQueueTimeline
    let moved = DispatchSemaphore(value: 0)
    let stopped = DispatchSemaphore(value: 0)
    let invalidated = DispatchSemaphore(value: 0)
    let devices = Guarded<[String]>([])

    init(output: any AudioOutputDevice) throws {
        player = try FilePlayer(path: try noiseFile(seconds: 20, name: "long"), device: output)
        queue = try #require(player.queue)
        timeline = try queue.makeTimeline()
        try queue.addPropertyListener(.currentDevice) { [weak self] q, _ in
            let device = q.currentDevice ?? "none"
            self?.devices.withLock { $0.append(device) }
            self?.moved.signal()
        }
        try queue.addPropertyListener(.isRunning) { [stopped] q, _ in if !q.isRunning { stopped.signal() } }
        try queue.addPropertyListener(.converterError) { [invalidated] q, _ in if q.converterError != 0 { invalidated.signal() } }
    }

    /// Starts, waits until the queue's clock has passed 0.3 s, and clears the timeline.
    func startAndWaitUntilPlaying() throws {
        for b in player.buffers { player.fill(b) }
        try queue.start()
        try #require(eventually(within: 10) { sampleTime > 14_400 }, "the queue did not start playing")
        _ = try queue.currentTime(timeline: timeline)
    }

    var sampleTime: Double { (try? queue.currentTime().timeStamp.sampleTime) ?? 0 }

    /// Whether the clock goes on by a tenth of a second (within ten seconds).
    func clockAdvances() -> Bool {
        let from = sampleTime
        return eventually(within: 10) { sampleTime > from + 4800 }
    }

    func dispose() { try? queue.dispose(immediate: true) }
}

/// Loads a null sink `name` on `server` and waits until the server lists it; returns the
/// module's index.
private func loadNullSink(_ name: String, on server: LossyServer) throws -> String {
    let r = try server.pactl(["load-module", "module-null-sink", "sink_name=\(name)", "format=float32le", "rate=48000", "channels=2"])
    try #require(r.status == 0, "pactl cannot load a null sink: \(r.err)")
    try #require(eventually(within: 5) { (try? sinks(on: server))?.values.contains(name) == true }, "sink \(name) never appeared")
    return r.out.trimmingCharacters(in: .whitespacesAndNewlines)
}

/// The server's sinks by index (`pactl list short sinks`).
private func sinks(on server: LossyServer) throws -> [String: String] {
    let list = try server.pactl(["list", "short", "sinks"])
    var byIndex: [String: String] = [:]
    for line in list.out.split(separator: "\n") {
        let fields = line.split(separator: "\t")
        if fields.count > 1 { byIndex[String(fields[0])] = String(fields[1]) }
    }
    return byIndex
}

/// The sink the one stream on `server` plays on (`pactl list short sink-inputs`).
private func sinkPlaying(on server: LossyServer) throws -> String? {
    let inputs = try server.pactl(["list", "short", "sink-inputs"])
    let lines = inputs.out.split(separator: "\n")
    try #require(lines.count == 1, "\(lines.count) streams on the server: \(inputs.out)")
    let sinkIndex = lines[0].split(separator: "\t").dropFirst().first.map(String.init)
    return try sinkIndex.flatMap { try sinks(on: server)[$0] }
}

/// Waits until `server`'s default sink is `name`.
private func waitForDefault(_ name: String, on server: LossyServer) throws -> Bool {
    eventually(within: 5) { (try? server.pactl(["get-default-sink"]))?.out.trimmingCharacters(in: .whitespacesAndNewlines) == name }
}

/// aqplay playing five seconds of noise through alsa-lib's `pulse` plugin to a server of the
/// test's own, under an ALSA configuration of the test's own (``config``, in a directory that
/// is not the server's: stopping PipeWire removes that).
private struct ALSAPluginPlay {
    let server: LossyServer
    let files: String
    let noise: String
    let player: BackgroundAqplay
    var config: String { files + "/asound.conf" }

    /// `configuration` makes the ALSA configuration from the server's address; aqplay gets
    /// `arguments`, then the file, with `environment` applied.
    init(label: String, configuration: (String) -> String, arguments: [String], environment: [String: String]) throws {
        server = try LossyServer(label: label)
        files = FileManager.default.temporaryDirectory.appendingPathComponent("aq-\(label)-files-\(getpid())").path
        do {
            try server.start()
            noise = try noiseFile(seconds: 5, name: label)
            try FileManager.default.createDirectory(atPath: files, withIntermediateDirectories: true)
            try configuration(server.address).write(toFile: files + "/asound.conf", atomically: false, encoding: .utf8)
            player = try BackgroundAqplay(arguments + [noise], environment: environment.merging(["ALSA_CONFIG_PATH": files + "/asound.conf"]) { a, _ in a })
        } catch {
            server.remove()
            try? FileManager.default.removeItem(atPath: files)
            throw error
        }
    }

    /// Waits until the server plays aqplay's stream.
    func waitUntilPlaying() throws {
        let server = self.server
        try #require(eventually(within: 10) { server.playsAStream }, "aqplay never played on the server")
    }

    /// Points the ALSA PCM `pcm` (`!default`, `lossy`) at a `file` PCM writing raw samples to
    /// `path`, and makes alsa-lib reread the configuration: it does when the file's time of
    /// change, in seconds, differs.
    func pointAtFile(_ pcm: String, path: String) throws {
        try "pcm.\(pcm) { type file slave.pcm \"blackhole\" file \"\(path)\" format \"raw\" }\npcm.blackhole { type null }\n"
            .write(toFile: config, atomically: false, encoding: .utf8)
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(5)], ofItemAtPath: config)
    }

    /// Ends aqplay if it still runs, stops the server and removes the files.
    func remove() {
        if player.process.isRunning { player.process.terminate() }
        server.remove()
        try? FileManager.default.removeItem(atPath: files)
    }
}

/// The Float32 samples of a raw file.
private func floats(atPath path: String) throws -> [Float] {
    let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
    return bytes.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
}

/// The samples of `path` as ffmpeg decodes them (interleaved Float32).
private func ffmpegFloats(_ path: String) throws -> [Float] {
    let raw = path + ".f32"
    let r = try runProcess("/usr/bin/ffmpeg", ["-nostdin", "-v", "error", "-y", "-i", path, "-f", "f32le", "-c:a", "pcm_f32le", raw])
    try #require(r.status == 0, "ffmpeg failed: \(r.err)")
    defer { try? FileManager.default.removeItem(atPath: raw) }
    return try floats(atPath: raw)
}
