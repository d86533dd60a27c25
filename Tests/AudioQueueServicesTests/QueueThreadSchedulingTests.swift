import Foundation
import Testing
import AudioCore
import AudioDevices
import AudioQueueServices

/// The render and capture threads ask for real-time scheduling only while they serve a
/// device paced by a clock, and change when the queue is given another device.
@Suite("Queue thread scheduling")
struct QueueThreadSchedulingTests {
    /// A queue thread serving a paced device, as root (CAP_SYS_NICE), is SCHED_FIFO at the
    /// pipeline's priority (`ThreadSchedulingTests` checks such reports against the kernel);
    /// elsewhere what it gets depends on the machine's limits and rtkit.
    static func expectPaced(_ got: ThreadScheduling?) {
        guard ThreadScheduler.isEnabled, getuid() == 0 else { return }
        #expect(got == .realTime(priority: 3, grantedBy: .kernel))
    }

    @Test func renderThreadFollowsTheDevicesPacing() throws {
        let paced = try NullDevice(sampleRate: 48000, channels: 1, periodFrames: 480)
        let queue = try AudioQueue(format: float32Mono, device: paced) { queue, buffer in try? queue.enqueue(buffer) }
        #expect(queue.renderThreadScheduling == nil)
        try queue.enqueue(try floatBuffer(queue, [Float](repeating: 0, count: 4800)))
        try queue.start()
        #expect(eventually { queue.renderThreadScheduling != nil })
        Self.expectPaced(queue.renderThreadScheduling)
        try queue.stop(immediate: true)
        // An unpaced device takes audio as fast as the thread renders it: not real-time.
        let unpaced = try NullDevice(sampleRate: 48000, channels: 1, pacing: .unpaced, periodFrames: 480)
        try queue.setDevice(unpaced)
        try queue.enqueue(try floatBuffer(queue, [Float](repeating: 0, count: 4800)))
        try queue.start()
        #expect(eventually { queue.renderThreadScheduling == .normal })
        try queue.dispose(immediate: true)
    }

    @Test func captureThreadOfAPacedDevice() throws {
        let device = try NullInputDevice(sampleRate: 48000, channels: 1)
        let queue = try AudioInputQueue(format: float32Mono, device: device) { queue, buffer, _, _, _ in try? queue.enqueue(buffer) }
        try queue.enqueue(try queue.allocateBuffer(byteCapacity: 4800 * 4))
        try queue.start()
        #expect(eventually { queue.captureThreadScheduling != nil })
        Self.expectPaced(queue.captureThreadScheduling)
        try queue.dispose(immediate: true)
    }
}
