import Foundation
import Testing
import Dispatch
import AudioCore
import AudioDevices
import AudioDeviceFile
import AudioQueueServices

/// How long a queue and the device it plays to live: a playing queue keeps itself alive, and a
/// device the program supplied outlives its queue.
@Suite("Queue and device lifetimes")
struct QueueLifetimeTests {
    /// A live queue plays to the end of an asynchronous dispose even when the program keeps
    /// no reference to it.
    @Test func aPlayingQueueKeepsItselfAlive() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("aq-alive-\(getpid()).wav").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let device = try WAVFileDevice(path: path, sampleRate: 48000, channels: 1, pacing: .realTime, periodFrames: 480)
        do {
            let queue = try AudioQueue(format: float32Mono, device: device) { _, _ in }
            try queue.enqueue(try floatBuffer(queue, [Float](repeating: 0.25, count: 4800)))
            try queue.start()
            try queue.dispose(immediate: false)
        }
        waitUntil { device.framesRendered >= 4800 }
        #expect(device.framesRendered == 4800)
        device.close()
    }

    /// Disposing of a queue leaves a device the program supplied open for the next queue.
    @Test func aSuppliedDeviceOutlivesItsQueue() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("aq-reuse-\(getpid()).wav").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let device = try WAVFileDevice(path: path, sampleRate: 48000, channels: 1, pacing: .unpaced, periodFrames: 480)
        for _ in 0..<2 {
            let queue = try AudioQueue(format: float32Mono, device: device) { _, _ in }
            let stopped = DispatchSemaphore(value: 0)
            try queue.addPropertyListener(.isRunning) { q, _ in if !q.isRunning { stopped.signal() } }
            try queue.enqueue(try floatBuffer(queue, [Float](repeating: 0.25, count: 960)))
            try queue.stop(immediate: false)
            try queue.start()
            #expect(stopped.wait(timeout: .now() + 10) == .success)
            try queue.dispose(immediate: true)
        }
        #expect(device.framesRendered == 1920)
        device.close()
    }
}
