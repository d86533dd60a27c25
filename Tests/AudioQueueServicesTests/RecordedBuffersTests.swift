import Foundation
import Testing
import Locking
import AudioCore
import AudioDevices
@testable import AudioQueueServices
import AudioQueueKit

/// An input queue's recordings as an `AsyncSequence`, and its async stop, against a device the
/// test drives frame by frame (``TestInputDevice``).
///
/// The consumers are tasks on the cooperative pool, which synchronous tests elsewhere in the run
/// can hold for minutes on a two-core machine (seen under ThreadSanitizer: 511 s for a test that
/// takes 1 s alone); the time limit guards against a hang, it does not measure.
@Suite("Recorded buffers", .timeLimit(.minutes(10)))
struct RecordedBuffersTests {
    static let rate = 48000.0
    static let float2 = AudioStreamBasicDescription.linearPCM(sampleRate: rate, channels: 2, bitsPerChannel: 32, isFloat: true)

    func expectedRamp(from: Int64, frames: Int, channels: Int = 2) -> [Float] {
        (0..<Int64(frames)).flatMap { f in (0..<channels).map { TestInputDevice.value(frame: from + f, channel: $0) } }
    }

    /// Every buffer recorded, in order, with start times that follow one another; the
    /// sequence ends once the stop has returned.
    @Test func everyBufferArrivesInOrderAndTheSequenceEndsAtTheStop() async throws {
        let device = TestInputDevice(sampleRate: Self.rate, channels: 2)
        let queue = try AudioInputQueue(format: Self.float2, device: device, bufferCount: 3, bufferDuration: 0.1)
        let buffers = queue.recordedBuffers
        let consumed = Guarded<(samples: [Float], frames: Int, count: Int, startTimesFollow: Bool, shapeRight: Bool)>(([], 0, 0, true, true))
        let consumer = Task {
            for await recorded in buffers {
                consumed.withLock { c in
                    if recorded.startTime.sampleTime != Double(c.frames) { c.startTimesFollow = false }
                    if !recorded.packetDescriptions.isEmpty || recorded.bytes.count != recorded.packetCount * 8
                        || recorded.frameCount != recorded.packetCount { c.shapeRight = false }
                    c.samples += recorded.bytes.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
                    c.frames += recorded.frameCount
                    c.count += 1
                }
            }
        }
        try queue.start()
        // A buffer's worth at a time, as a device delivers, never more than the three
        // buffers can take before the consumer has seen the ones before.
        for i in 0..<40 {
            device.push(frames: 4800)
            #expect(await settles { consumed.withLock { $0.frames } >= (i + 1) * 4800 })
        }
        device.push(frames: 1234)
        try await queue.stop()
        // The sequence has ended by the time the stop returns.
        await consumer.value
        #expect(queue.state == .stopped)
        #expect(!queue.isRunning)
        let (all, _, count, startTimesFollow, shapeRight) = consumed.withLock { $0 }
        #expect(startTimesFollow)
        #expect(shapeRight)
        #expect(count >= 40)
        #expect(try queue.lostFrameCount == 0)
        #expect(all == expectedRamp(from: 0, frames: 40 * 4800 + 1234))
        try queue.dispose(immediate: true)
    }

    /// A consumer running while the queue records, then a second run: one sequence each.
    @Test func eachRunHasASequenceOfItsOwn() async throws {
        let device = TestInputDevice(sampleRate: Self.rate, channels: 2)
        let queue = try AudioInputQueue(format: Self.float2, device: device, bufferCount: 4, bufferDuration: 0.05)
        for run in 0..<2 {
            let buffers = queue.recordedBuffers
            let seen = Guarded(0)
            let consumer = Task {
                for await recorded in buffers { seen.withLock { $0 += recorded.frameCount } }
                return seen.withLock { $0 }
            }
            try queue.start()
            // A buffer's worth at a time: what a device delivers while no buffer is enqueued
            // is lost, by design.
            for i in 0..<10 {
                device.push(frames: 2400)
                #expect(await settles { seen.withLock { $0 } >= (i + 1) * 2400 })
            }
            try await queue.stop()
            let frames = await consumer.value
            #expect(frames == 24000, "run \(run)")
        }
        // An immediate stop hands back the buffers empty and refuses to enqueue them again;
        // the next start enqueues them.
        try queue.start()
        try queue.stop(immediate: true)
        try queue.start()
        let buffers = queue.recordedBuffers
        let enqueuedAtStart = queue.core.state.withLock { $0.side.emptyBuffers.count }
        let generation = buffers.generation
        let pushed = device.push(frames: 2400)
        try await queue.stop()
        var frames = 0
        for await recorded in buffers { frames += recorded.frameCount }
        #expect(frames == 2400, "enqueued: \(enqueuedAtStart), generation \(generation), pushed: \(pushed), lost: \((try? queue.lostFrameCount) ?? -1), device starts: \(device.starts), stops: \(device.stops)")
        try queue.dispose(immediate: true)
    }

    /// Cancelling the consumer ends its loop; the queue goes on recording into a new sequence,
    /// and stops only when told to.
    @Test func cancellingTheConsumerStopsNothing() async throws {
        let device = TestInputDevice(sampleRate: Self.rate, channels: 2)
        let queue = try AudioInputQueue(format: Self.float2, device: device, bufferCount: 3, bufferDuration: 0.05)
        try queue.start()
        let first = Guarded(0)
        let consumer = Task {
            for await recorded in queue.recordedBuffers { first.withLock { $0 += recorded.frameCount } }
            return true
        }
        device.push(frames: 2400)
        #expect(await settles { first.withLock { $0 } == 2400 })
        consumer.cancel()
        #expect(await consumer.value)
        #expect(queue.state == .running)
        // Recorded after the cancellation: in the new sequence, from the next frame.
        device.push(frames: 4800)
        try await queue.stop()
        var after: [AudioInputQueue.RecordedBuffer] = []
        for await recorded in queue.recordedBuffers { after.append(recorded) }
        #expect(after.first?.startTime.sampleTime == 2400)
        #expect(after.reduce(0) { $0 + $1.frameCount } == 4800)
        #expect(try queue.lostFrameCount == 0)
        try queue.dispose(immediate: true)
    }

    /// Variable-size packets: each element carries its packets' descriptions; packets in the
    /// handler form are the same.
    @Test func handlerGetsThePacketsAsACollection() async throws {
        let device = TestInputDevice(sampleRate: 44100, channels: 1)
        var ima4 = AudioStreamBasicDescription(
            sampleRate: 44100, formatID: .appleIMA4, formatFlags: [], bytesPerPacket: 34, framesPerPacket: 64,
            bytesPerFrame: 0, channelsPerFrame: 1, bitsPerChannel: 0)
        let got = Guarded<[(count: Int, packets: [AudioStreamPacketDescription], bytes: Int)]>([])
        let queue = try AudioInputQueue(format: ima4, device: device) { queue, buffer, _, packets in
            got.withLock { $0.append((packets.count, Array(packets), buffer.audioDataByteSize)) }
            try? queue.enqueue(buffer)
        }
        ima4 = queue.streamDescription
        for _ in 0..<3 { try queue.enqueue(try queue.allocateBuffer(byteCapacity: 34 * 100)) }
        try queue.start()
        device.push(frames: 64 * 250)
        try await queue.stop()
        let deliveries = got.withLock { $0 }.filter { $0.count > 0 }
        #expect(deliveries.reduce(0) { $0 + $1.count } == 250)
        for d in deliveries {
            #expect(d.bytes == d.count * 34)
            #expect(d.packets.enumerated().allSatisfy { $1.startOffset == Int64($0 * 34) && $1.dataByteSize == 34 })
        }
        try queue.dispose(immediate: true)
    }

    /// Variable-size packets (AAC): each element carries one description per packet, laid end
    /// to end over its bytes, and the handler form's packets are those descriptions.
    @Test func aacElementsCarryTheirPacketDescriptions() async throws {
        AudioQueueKit.registerAll()
        let aac = AudioStreamBasicDescription(
            sampleRate: Self.rate, formatID: .mpeg4AAC, formatFlags: [], bytesPerPacket: 0, framesPerPacket: 1024,
            bytesPerFrame: 0, channelsPerFrame: 2, bitsPerChannel: 0)
        let device = TestInputDevice(sampleRate: Self.rate, channels: 2, signal: TestInputDevice.musicLike(sampleRate: Self.rate))
        let queue = try AudioInputQueue(format: aac, device: device, bufferCount: 3, bufferDuration: 0.5)
        let buffers = queue.recordedBuffers
        try queue.start()
        for _ in 0..<10 { device.push(frames: 2400) }
        try await queue.stop()
        var packets = 0
        for await recorded in buffers {
            #expect(recorded.packetDescriptions.count == recorded.packetCount)
            #expect(recorded.frameCount == recorded.packetCount * 1024)
            var offset: Int64 = 0
            for d in recorded.packetDescriptions {
                #expect(d.startOffset == offset)
                offset += Int64(d.dataByteSize)
            }
            #expect(offset == Int64(recorded.bytes.count))
            packets += recorded.packetCount
        }
        // 24000 frames and the encoder's priming, in packets of 1024.
        #expect(packets >= 24000 / 1024)
        try queue.dispose(immediate: true)

        let seen = Guarded<(packets: Int, same: Bool)>((0, true))
        let handlerDevice = TestInputDevice(sampleRate: Self.rate, channels: 2, signal: TestInputDevice.musicLike(sampleRate: Self.rate))
        let withHandler = try AudioInputQueue(format: aac, device: handlerDevice) { queue, buffer, _, packets in
            let own = buffer.packetDescriptions.map { Array(UnsafeBufferPointer(start: $0, count: buffer.packetDescriptionCount)) } ?? []
            seen.withLock { s in
                s.packets += packets.count
                if Array(packets) != own || packets.count != own.count { s.same = false }
            }
            try? queue.enqueue(buffer)
        }
        for _ in 0..<3 { try withHandler.enqueue(try withHandler.allocateBuffer(byteCapacity: 8192)) }
        try withHandler.start()
        for _ in 0..<10 { handlerDevice.push(frames: 2400) }
        try await withHandler.stop()
        #expect(seen.withLock { $0.packets } >= 24000 / 1024)
        #expect(seen.withLock { $0.same })
        try withHandler.dispose(immediate: true)
    }

    /// A queue asked to record with no buffer to spare reports the underrun on its stream.
    @Test func underrunsAreStreamed() async throws {
        let device = TestInputDevice(sampleRate: Self.rate, channels: 2)
        let recorded = Guarded<[AudioQueueBuffer]>([])
        let queue = try AudioInputQueue(format: Self.float2, device: device) { _, buffer, _, _, _ in
            recorded.withLock { $0.append(buffer) }   // kept: never enqueued again
        }
        try queue.enqueue(try queue.allocateBuffer(byteCapacity: 480 * 8))
        var errors = queue.converterErrors.makeAsyncIterator()
        try queue.start()
        device.push(frames: 4800)
        #expect(await errors.next() == AudioQueueError.Code.recordUnderrun.rawValue)
        try await queue.stop()
        #expect(try queue.lostFrameCount > 0)
        try queue.dispose(immediate: true)
    }

    /// Disposal ends the sequence, even of a queue that never started, and it stays ended.
    @Test func disposalEndsTheSequence() async throws {
        let queue = try AudioInputQueue(format: Self.float2, device: TestInputDevice(sampleRate: Self.rate, channels: 2))
        let consumer = Task {
            var count = 0
            for await _ in queue.recordedBuffers { count += 1 }
            return count
        }
        try queue.dispose(immediate: true)
        #expect(await consumer.value == 0)
        var late = queue.recordedBuffers.makeAsyncIterator()
        #expect(await late.next() == nil)
        var again = queue.recordedBuffers.makeAsyncIterator()
        #expect(await again.next() == nil)
    }

    /// An immediate stop asked for from inside a buffer's callback completes once that
    /// callback has returned: the wait for it ends.
    @Test func aStopFromInsideACallbackEndsTheWait() async throws {
        let device = TestInputDevice(sampleRate: Self.rate, channels: 2)
        let calls = Guarded(0)
        let queue = try AudioInputQueue(format: Self.float2, device: device) { queue, _, _, packets, _ in
            calls.withLock { $0 += 1 }
            if packets > 0 { try? queue.stop(immediate: true) }
        }
        for _ in 0..<3 { try queue.enqueue(try queue.allocateBuffer(byteCapacity: 2400 * 8)) }
        try queue.start()
        device.push(frames: 2400)
        await queue.waitUntilStopped()
        #expect(queue.state == .stopped)
        #expect(!queue.isRunning)
        #expect(calls.withLock { $0 } == 3)                 // the full one, then two empty
        try queue.dispose(immediate: true)
    }

    /// An immediate stop from a listener (on the callback queue) ends the sequence.
    @Test func aStopFromAListenerEndsTheSequence() async throws {
        let device = TestInputDevice(sampleRate: Self.rate, channels: 2)
        let queue = try AudioInputQueue(format: Self.float2, device: device, bufferCount: 3, bufferDuration: 0.05)
        try queue.addPropertyListener(.isRunning) { queue, _ in
            if queue.isRunning { try? queue.stop(immediate: true) }
        }
        let buffers = queue.recordedBuffers
        try queue.start()
        device.push(frames: 2400)                           // the device delivers: isRunning
        var count = 0
        for await _ in buffers { count += 1 }
        #expect(queue.state == .stopped)
        #expect(count <= 1)
        try queue.dispose(immediate: true)
    }

    @Test func badBufferSettingsAreRefused() {
        #expect(throws: AudioQueueError.self) { _ = try AudioInputQueue(format: Self.float2, bufferCount: 0) }
        #expect(throws: AudioQueueError.self) { _ = try AudioInputQueue(format: Self.float2, bufferDuration: .nan) }
        #expect(throws: AudioQueueError.self) { _ = try AudioInputQueue(format: Self.float2, bufferDuration: 60) }
    }
}
