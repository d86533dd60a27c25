import Foundation
import Testing
import Dispatch
import AudioTestSupport

extension PipeWireGraphServer {
    /// The PipeWire server dying under a playing queue: a server of the test's own (started with
    /// Scripts/lib/pipewire.sh's start_private_pipewire in a directory of its own, never the shared
    /// one), aqplay playing to it natively, its pipewire process killed. aqplay must say the server
    /// went away and exit, not hang; a device list of a dead server is an error, not a hang.
    @Suite("Losing the PipeWire server")
    struct PipeWireServerLossTests {
        /// A private PipeWire server (pipewire, WirePlumber, pipewire-pulse) in `directory`.
        struct OwnServer {
            let directory: String
            static let script = packageRoot.appendingPathComponent("Scripts/lib/pipewire.sh").path

            /// What a client needs to find it (and nothing of the shared server's).
            var environment: [String: String] {
                [
                    "PIPEWIRE_RUNTIME_DIR": directory + "/run", "PULSE_RUNTIME_PATH": directory + "/run/pulse", "PIPEWIRE_REMOTE": "",
                    "PULSE_SERVER": "", "AUDIOQUEUE_BACKEND": "", "AUDIOQUEUE_DEVICE": "",
                ]
            }

            init(label: String) throws {
                directory = FileManager.default.temporaryDirectory.appendingPathComponent("aq-pwloss-\(label)-\(getpid())").path
            }

            func start() throws {
                let r = try runProcess("/bin/bash", ["-c", "source \"$0\" && start_private_pipewire aqloss \"$1\"", Self.script, directory], timeout: 60)
                try #require(r.status == 0, "the test's own PipeWire server did not start: \(r.out)\(r.err)")
            }

            /// Kills its pipewire process (the server itself; WirePlumber and pipewire-pulse lose it).
            func killServer() throws {
                let pid = try String(contentsOfFile: directory + "/pipewire.pid", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
                try #require(kill(pid_t(pid) ?? 0, SIGKILL) == 0, "cannot kill pipewire \(pid)")
            }

            /// Stops what is left and removes the directory.
            func remove() {
                _ = try? runProcess("/bin/bash", ["-c", "source \"$0\" && AQ_PIPEWIRE_DIR=\"$1\" stop_private_pipewire", Self.script, directory], timeout: 60)
            }
        }

        @Test("Killing the server under aqplay --backend pipewire ends it within seconds, saying the PipeWire server went away; listing devices of no server fails at once")
        func killingTheServerEndsPlayback() throws {
            try GraphServer.require()
            let server = try OwnServer(label: "kill")
            defer { server.remove() }
            try server.start()
            let long = server.directory + "/long.wav"
            let made = try runProcess("/usr/bin/sox", ["-n", "-r", "48000", "-c", "2", "-b", "16", long, "synth", "20", "pinknoise", "vol", "0.3"])
            try #require(made.status == 0, "sox: \(made.err)")

            let process = Process()
            process.executableURL = URL(fileURLWithPath: aqplay)
            process.arguments = ["--backend", "pipewire", long]
            process.environment = mergedEnvironment(server.environment)
            let out = Pipe(), err = Pipe()
            process.standardOutput = out
            process.standardError = err
            let ended = DispatchSemaphore(value: 0)
            process.terminationHandler = { _ in ended.signal() }
            try process.run()
            // Once its stream plays on the server, take the server away.
            let playing = eventually(within: 10) {
                let r = try? runProcess("/usr/bin/pactl", ["list", "short", "sink-inputs"], environment: server.environment)
                return r?.out.isEmpty == false
            }
            #expect(playing, "aqplay's stream never appeared on the server")
            try server.killServer()
            // A hang guard, not a measurement.
            let inTime = ended.wait(timeout: .now() + 10) == .success
            if !inTime { process.terminate() }
            process.waitUntilExit()
            let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(inTime, "aqplay did not notice that the server was gone")
            #expect(process.terminationStatus == 1, "\(message)")
            #expect(message.contains("PipeWire server went away"), "\(message)")

            let listed = try runProcess(aqplay, ["--list-devices"], environment: server.environment, timeout: 30)
            #expect(listed.status == 0, "\(listed.err)")
            #expect(listed.out.contains("pipewire (not available)"), "\(listed.out)")
        }
    }
}
