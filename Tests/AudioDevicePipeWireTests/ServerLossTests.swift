import Foundation
import Testing
import AudioCore
import AudioDevices
@testable import AudioDevicePipeWire
import ProcessSupport

extension PipeWireShared {
    @Suite("PipeWire server loss") struct ServerLoss {
        /// The server dies while a device plays: the source hears `.failed` with
        /// `.disconnected`, the device refuses to start again, connecting fails at once while
        /// no server runs, and once one runs again a new device on a new connection plays.
        @Test func serverDeathFailsTheStreamAndLaterUseReconnects() throws {
            let server = OwnPipeWireServer(label: "lost", sink: "aqlost")
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
