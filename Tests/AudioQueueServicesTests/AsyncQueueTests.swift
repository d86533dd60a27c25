import Foundation
import Testing
import Locking
import AudioCore
import AudioDevices
@testable import AudioQueueServices

/// The async API of output queues: stops that return once the queue has stopped, and property
/// changes as streams.
@Suite("Async output queue", .timeLimit(.minutes(1)))
struct AsyncQueueTests {
    static let float2 = AudioStreamBasicDescription.linearPCM(sampleRate: 48000, channels: 2, bitsPerChannel: 32, isFloat: true)

    /// Counts callbacks, and whether the queue said it had stopped before each returned.
    final class Counter: Sendable {
        let state = Guarded<(callbacks: Int, enqueued: Int)>((0, 0))
        var callbacks: Int { state.withLock { $0.callbacks } }
    }

    @Test func playToEndReturnsAfterTheLastCallbackOnADevice() async throws {
        let device = try NullDevice(sampleRate: 48000, channels: 2, pacing: .realTime, periodFrames: 512)
        let counter = Counter()
        let queue = try AudioQueue(format: Self.float2, device: device) { _, _ in
            counter.state.withLock { $0.callbacks += 1 }
        }
        for _ in 0..<9 {
            let buffer = try queue.allocateBuffer(byteCapacity: 2048 * 8)
            try buffer.fill(with: [Float](repeating: 0.1, count: 4096))
            try queue.enqueue(buffer)
        }
        try queue.start()
        try await queue.playToEnd()
        #expect(counter.callbacks == 9)
        #expect(queue.state == .stopped)
        #expect(!queue.isRunning)
        // Everything enqueued was played.
        #expect(device.framesRendered >= 9 * 2048)
        try queue.dispose(immediate: true)
    }

    /// The guide's pattern: the callback re-enqueues until the data ends, then stops the queue
    /// asynchronously itself; the program only waits.
    @Test func waitUntilStoppedReturnsAfterTheCallbacksOwnStop() async throws {
        let device = try NullDevice(sampleRate: 48000, channels: 2, pacing: .realTime, periodFrames: 512)
        let counter = Counter()
        let queue = try AudioQueue(format: Self.float2, device: device) { queue, buffer in
            let again = counter.state.withLock { s -> Bool in
                s.callbacks += 1
                guard s.enqueued < 6 else { return false }
                s.enqueued += 1
                return true
            }
            if again { try? queue.enqueue(buffer) } else { try? queue.stop(immediate: false) }
        }
        for _ in 0..<3 {
            let buffer = try queue.allocateBuffer(byteCapacity: 2048 * 8)
            try buffer.fill(with: [Float](repeating: 0.1, count: 4096))
            try queue.enqueue(buffer)
        }
        try queue.start()
        await queue.waitUntilStopped()
        #expect(counter.callbacks == 9)
        #expect(queue.state == .stopped)
        #expect(!queue.isRunning)
        #expect(device.framesRendered >= 9 * 2048)
        try queue.dispose(immediate: true)
    }

    @Test func stopReturnsAfterEveryBufferCameBack() async throws {
        let device = try NullDevice(sampleRate: 48000, channels: 2, pacing: .realTime, periodFrames: 512)
        let counter = Counter()
        let queue = try AudioQueue(format: Self.float2, device: device) { _, _ in
            counter.state.withLock { $0.callbacks += 1 }
        }
        for _ in 0..<3 {
            let buffer = try queue.allocateBuffer(byteCapacity: 48000 * 8)
            try buffer.fill(with: [Float](repeating: 0.1, count: 96000))
            try queue.enqueue(buffer)
        }
        try queue.start()
        try await queue.stop()
        #expect(counter.callbacks == 3)
        #expect(queue.state == .stopped)
        #expect(!queue.isRunning)
        // Again on a stopped queue: at once.
        try await queue.stop()
        try await queue.playToEnd()
        try queue.dispose(immediate: true)
        await #expect(throws: AudioQueueError.self) { try await queue.stop() }
    }

    /// Five buffers rendered offline, with the stop asked for while the render runs (`early`)
    /// or after it has reached the end (the render then already came back short).
    @Test(arguments: [true, false])
    func playToEndOnAnOfflineQueue(early: Bool) async throws {
        let samples = ramp(frames: 1000, channels: 2)
        let log = CallbackLog()
        let queue = try AudioQueue(format: Self.float2) { _, buffer in log.record(buffer) }
        try queue.setOfflineRenderFormat(Self.float2)
        for _ in 0..<5 {
            let buffer = try queue.allocateBuffer(byteCapacity: 8000)
            try buffer.fill(with: samples)
            try queue.enqueue(buffer)
        }
        try queue.start()
        var rendered: [Float] = []
        if early {
            async let end: Void = queue.playToEnd()
            rendered = try renderAll(queue, chunk: 700)
            try await end
        } else {
            rendered = try renderAll(queue, chunk: 700)
            #expect(queue.state == .running)
            try await queue.playToEnd()
        }
        #expect(rendered == Array([[Float]](repeating: samples, count: 5).joined()))
        #expect(log.count == 5)
        #expect(queue.state == .stopped)
        #expect(!queue.isRunning)
        try queue.dispose(immediate: true)
    }

    /// Disposal from inside a callback, as Threading.md allows: the queue goes, the waits end.
    @Test func disposeFromInsideACallback() async throws {
        let device = try NullDevice(sampleRate: 48000, channels: 2, pacing: .realTime, periodFrames: 512)
        let counter = Counter()
        let queue = try AudioQueue(format: Self.float2, device: device) { queue, _ in
            counter.state.withLock { $0.callbacks += 1 }
            try? queue.dispose(immediate: true)
        }
        for _ in 0..<3 {
            let buffer = try queue.allocateBuffer(byteCapacity: 2048 * 8)
            try buffer.fill(with: [Float](repeating: 0.1, count: 4096))
            try queue.enqueue(buffer)
        }
        try queue.start()
        await queue.waitUntilStopped()
        #expect(counter.callbacks == 1)                     // freed with the queue: no more
        #expect(throws: AudioQueueError.self) { try queue.start() }
    }

    @Test func isRunningChangesFollowTheQueue() async throws {
        let queue = try offlineFloatQueue()
        var changes = queue.isRunningChanges.makeAsyncIterator()
        #expect(await changes.next() == false)
        try queue.enqueue(try floatBuffer(queue, ramp(frames: 100, channels: 2)))
        try queue.start()
        #expect(await changes.next() == true)
        try await queue.stop()
        #expect(await changes.next() == false)
        // Disposal ends the stream.
        try queue.dispose(immediate: true)
        #expect(await changes.next() == nil)
        // A stream asked of a disposed queue is empty.
        var late = queue.isRunningChanges.makeAsyncIterator()
        #expect(await late.next() == nil)
    }

    @Test func aCancelledStreamRemovesItsListener() async throws {
        let queue = try offlineFloatQueue()
        let consumer = Task {
            var seen = 0
            for await _ in queue.isRunningChanges { seen += 1 }
            return seen
        }
        let listeners = { queue.core.state.withLock { s in s.listeners.count } }
        #expect(await settles { listeners() == 1 })
        consumer.cancel()
        _ = await consumer.value
        #expect(await settles { listeners() == 0 })
        try queue.dispose(immediate: true)
    }

    @Test func disposalEndsEveryStream() async throws {
        let queue = try AudioQueue(format: Self.float2) { _, _ in }
        let streams = (queue.currentDeviceChanges, queue.converterErrors)
        try queue.dispose(immediate: true)
        var devices = streams.0.makeAsyncIterator()
        var errors = streams.1.makeAsyncIterator()
        #expect(await devices.next() == nil)
        #expect(await errors.next() == nil)
    }
}
