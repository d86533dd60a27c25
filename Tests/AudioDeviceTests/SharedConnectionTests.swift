import Foundation
import Testing
import Dispatch
import Synchronization
import AudioDevices
import AudioDevicePulse
import ProcessSupport

extension SharedServer {
    /// The devices of a process share one connection to the server: PulseAudio takes at most
    /// 64 clients, so a connection per device would refuse a program's 64th queue.
    @Suite("One server connection per process")
    struct SharedConnection {
        /// 80 playback devices open and play at once as one client of the server, which goes
        /// away once they are all closed and released.
        @Test func eightyDevicesPlayAsOneClient() throws {
            let name = "aq-shared-\(getpid())"
            let backend = PulseBackend(applicationName: name)
            var devices: [any AudioOutputDevice] = []
            let sources = (0..<80).map { _ in QuietSource() }
            for (i, source) in sources.enumerated() {
                let device = try backend.makeOutput(name: Server.sink, sampleRate: 48000, channels: 2, bufferFrames: 4096)
                devices.append(device)
                do {
                    try device.start(source: source)
                } catch {
                    Issue.record("device \(i + 1) of 80 did not start: \(error)")
                    throw error
                }
            }
            for (i, source) in sources.enumerated() {
                #expect(source.started.wait(timeout: .now() + 10) == .success, "device \(i + 1) of 80 never started")
            }
            #expect(try clients(named: name) == 1, "the server lists more than one client for the process's devices")
            #expect(sources.allSatisfy { $0.calls.load(ordering: .acquiring) > 0 })

            for device in devices { device.close() }
            devices.removeAll()
            #expect(eventually(within: 5) { (try? clients(named: name)) == 0 }, "the connection outlived its last device")
        }
    }
}

/// The server's clients whose application name is `name` (pactl's own connection is not one).
private func clients(named name: String) throws -> Int {
    let result = try runProcess("/usr/bin/pactl", ["list", "clients"])
    try #require(result.status == 0, "pactl list clients failed")
    return result.out.components(separatedBy: "application.name = \"\(name)\"").count - 1
}

/// Plays a quiet tone forever and counts the calls.
private final class QuietSource: AudioRenderSource, @unchecked Sendable {
    let calls = Atomic<Int>(0)
    let started = DispatchSemaphore(value: 0)

    func render(into buffer: UnsafeMutablePointer<Float>, frameCount: Int) -> Int {
        calls.add(1, ordering: .relaxed)
        for i in 0..<(frameCount * 2) { buffer[i] = Float(i % 64) * 1e-4 }
        return frameCount
    }

    func device(_ device: any AudioOutputDevice, didReport event: AudioDeviceEvent) {
        if case .started = event { started.signal() }
    }
}
