import Foundation
import Testing
import Dispatch
import AudioCore
import AudioDevices
import AudioQueueServices

/// What prime() prepares and when a scheduled start plays, on queues playing to the null device.
@Suite("Priming and scheduled starts")
struct PrimingAndStartTests {
    /// Frames prepared by prime() are played once the queue starts, not thrown away; prime(0)
    /// decodes every enqueued buffer (Apple: "Pass 0 to decode all enqueued buffers"), not
    /// just what the decode buffer (4096 frames here) holds.
    @Test func primedFramesArePlayed() throws {
        let device = try NullDevice(sampleRate: 48000, channels: 1, periodFrames: 480)
        let queue = try AudioQueue(format: float32Mono, device: device) { _, _ in }
        let stopped = DispatchSemaphore(value: 0)
        try queue.addPropertyListener(.isRunning) { q, _ in if !q.isRunning { stopped.signal() } }
        try queue.enqueue(try floatBuffer(queue, [Float](repeating: 0.5, count: 10_000)))
        #expect(queue.decodeBufferSizeFrames == 4096)
        #expect(try queue.prime() == 10_000)
        try queue.stop(immediate: false)
        try queue.start()
        #expect(stopped.wait(timeout: .now() + 10) == .success)
        #expect(device.framesRendered == 10_000)
        try queue.dispose(immediate: true)
    }

    /// A start scheduled for later and then superseded (pause, start now) leaves the queue
    /// playing normally; one scheduled while an asynchronous stop is pending still plays out.
    @Test func supersededScheduledStart() throws {
        let device = try NullDevice(sampleRate: 48000, channels: 1, periodFrames: 480)
        let queue = try AudioQueue(format: float32Mono, device: device) { queue, buffer in try? queue.enqueue(buffer) }
        try queue.enqueue(try floatBuffer(queue, [Float](repeating: 0.5, count: 4800)))
        try queue.start(at: AudioTimeStamp(hostTime: HostTime.now() + 200_000_000, flags: .hostTimeValid))
        try queue.pause()
        try queue.start()
        // Wait until the device has played past the superseded start time (0.2 s) twice over.
        #expect(eventually { device.framesRendered >= 19_200 })
        #expect(queue.state == .running)
        #expect(queue.converterError == 0)
        try queue.stop(immediate: true)
        try queue.start()
        #expect(queue.state == .running)
        try queue.dispose(immediate: true)

        let short = try AudioQueue(format: float32Mono, device: try NullDevice(sampleRate: 48000, channels: 1, periodFrames: 480)) { _, _ in }
        let stopped = DispatchSemaphore(value: 0)
        try short.addPropertyListener(.isRunning) { q, _ in if !q.isRunning { stopped.signal() } }
        try short.enqueue(try floatBuffer(short, [Float](repeating: 0.5, count: 2400)))
        try short.stop(immediate: false)
        try short.start(at: AudioTimeStamp(hostTime: HostTime.now() + 100_000_000, flags: .hostTimeValid))
        #expect(stopped.wait(timeout: .now() + 10) == .success)
        #expect(short.state == .stopped)
        try short.dispose(immediate: true)
    }
}
