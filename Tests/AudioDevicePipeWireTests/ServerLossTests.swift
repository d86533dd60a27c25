import Foundation
import Testing
import AudioCore
import AudioDevices
@testable import AudioDevicePipeWire
import ProcessSupport

/// A PipeWire server of the test's own (Scripts/lib/pipewire.sh in a directory of its own, a
/// null sink `aqlost`), which the test kills: the shared server is never disturbed.
struct OwnPipeWireServer {
    let directory: String
    var remote: String { "\(directory)/run/pipewire-0" }
    static let script = Fixtures.packageRoot.appendingPathComponent("Scripts/lib/pipewire.sh").path

    init(label: String) {
        directory = NSTemporaryDirectory() + "aq-pw-\(label)-\(getpid())"
    }

    func start() throws {
        let r = try runProcess("/bin/bash", ["-c", "source '\(Self.script)' && start_private_pipewire aqlost '\(directory)'"], timeout: 60)
        try #require(r.status == 0, "start_private_pipewire: \(r.err)")
    }

    /// Kills the server's core daemon (pipewire) at once.
    func killCore() throws {
        let pid = try String(contentsOfFile: "\(directory)/pipewire.pid", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        _ = try runProcess("/bin/kill", ["-9", pid])
    }

    func stop() {
        _ = try? runProcess("/bin/bash", ["-c", "AQ_PIPEWIRE_DIR='\(directory)'; source '\(Self.script)' && stop_private_pipewire"], timeout: 60)
    }
}

extension PipeWireShared {
    @Suite("PipeWire server loss") struct ServerLoss {
        /// The server dies while a device plays: the source hears `.failed` with
        /// `.disconnected`, the device refuses to start again, connecting fails at once while
        /// no server runs, and once one runs again a new device on a new connection plays.
        @Test func serverDeathFailsTheStreamAndLaterUseReconnects() throws {
            let server = OwnPipeWireServer(label: "lost")
            defer { server.stop() }
            try server.start()
            let device = try PipeWireOutputDevice(
                target: "aqlost", sampleRate: 48000, channels: 2, bufferFrames: 1024, sampleFormat: .float32, channelsByIndex: false,
                applicationName: "aq-loss-test", remote: server.remote)
            defer { device.close() }
            let source = SignalSource([Float](repeating: 0.25, count: 48000 * 2 * 30), channels: 2)
            try device.start(source: source)
            #expect(eventually { device.framesRendered > 4800 }, "the device does not play")
            try server.killCore()
            #expect(eventually { source.events.withLock { $0.contains { $0.kind == .failed } } }, "no failure reported")
            let failure = source.events.withLock { $0.first { $0.kind == .failed } }
            #expect(failure?.error?.code == .disconnected, "\(String(describing: failure))")
            #expect(throws: AudioDeviceError.self) { try device.start(source: source) }
            let context = try PipeWireContext.shared()
            #expect(throws: AudioDeviceError.self) { _ = try context.connection(remote: server.remote) }
            server.stop()
            try server.start()
            let again = try PipeWireOutputDevice(
                target: "aqlost", sampleRate: 48000, channels: 2, bufferFrames: 1024, sampleFormat: .float32, channelsByIndex: false,
                applicationName: "aq-loss-test", remote: server.remote)
            defer { again.close() }
            let second = SignalSource([Float](repeating: 0.25, count: 48000 * 2), channels: 2)
            try again.start(source: second)
            #expect(eventually { second.stopped.load(ordering: .acquiring) }, "the new device does not play to the end")
        }
    }
}
