import Foundation
import ProcessSupport
import Testing

/// A default output unit whose sound server goes away (C/au_server_loss.c): the unit stops,
/// its IsRunning listener hears it, and the program, waiting for that, ends — it neither hangs
/// nor crashes. The server is a PulseAudio daemon of the test's own, killed while the program
/// plays.
@Suite("Audio unit server loss", .serialized)
struct AudioUnitServerLossTests {
    static let program = Result { try CPrograms.build("au_server_loss", sources: ["Tests/AudioToolboxTests/C/au_server_loss.c"], extra: ["-lm"]) }
    static let runnable = FileManager.default.isExecutableFile(atPath: "/usr/bin/pulseaudio")

    @Test("Killing the server stops the default output unit and tells its IsRunning listener",
          .enabled(if: runnable, "pulseaudio is not installed (Scripts/test installs it)"))
    func killingTheServerStopsTheUnit() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("aq-auloss-\(getpid())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let server = ["PULSE_RUNTIME_PATH": directory, "PULSE_SERVER": ""]
        defer {
            _ = try? runProcess("/usr/bin/pulseaudio", ["--kill"], environment: server)
            try? FileManager.default.removeItem(atPath: directory)
        }
        let started = try runProcess("/usr/bin/pulseaudio", [
            "-n", "--daemonize=yes", "--exit-idle-time=-1", "--use-pid-file=yes",
            "--load=module-null-sink sink_name=auloss format=float32le rate=48000 channels=2", "--load=module-native-protocol-unix",
        ], environment: server)
        try #require(started.status == 0, "pulseaudio did not start: \(started.err)")
        var reached = false
        for _ in 0..<100 where !reached {
            reached = (try? runProcess("/usr/bin/pactl", ["info"], environment: server))?.status == 0
            if !reached { usleep(50_000) }
        }
        try #require(reached, "pactl does not reach the test's server")

        let player = Process()
        player.executableURL = URL(fileURLWithPath: try Self.program.get())
        player.environment = mergedEnvironment(server.merging(["AUDIOQUEUE_BACKEND": "pulse", "AUDIOQUEUE_DEVICE": ""]) { $1 })
        let output = Pipe()
        player.standardOutput = output
        player.standardError = output
        try player.run()
        defer { if player.isRunning { player.terminate() } }

        // Wait for "playing" (the unit has rendered a tenth of a second), then kill the server.
        var text = ""
        let reader = output.fileHandleForReading
        while !text.contains("playing\n"), player.isRunning || reader.availableData.isEmpty == false {
            let data = reader.availableData
            if data.isEmpty { break }
            text += String(decoding: data, as: UTF8.self)
        }
        try #require(text.contains("playing\n"), "the program did not play: \(text)")
        _ = try runProcess("/usr/bin/pulseaudio", ["--kill"], environment: server)

        // The program ends by itself once its listener hears the unit stop (it gives up, with
        // status 2, after 30 s).
        let rest = reader.readDataToEndOfFile()
        text += String(decoding: rest, as: UTF8.self)
        player.waitUntilExit()
        #expect(player.terminationStatus == 0, "status \(player.terminationStatus): \(text)")
        #expect(text.contains("stopped\n"), "\(text)")
    }
}
