import Testing
import AudioCore
import AudioQueueServices

/// A buffer's bytes, samples and packets through the safe forms: the same memory the pointer
/// forms see.
@Suite("Buffer contents")
struct BufferContentsTests {
    static let float2 = AudioStreamBasicDescription.linearPCM(sampleRate: 48000, channels: 2, bitsPerChannel: 32, isFloat: true)

    @Test func fillWritesWhatThePointerFormsRead() throws {
        let queue = try AudioQueue(format: Self.float2) { _, _ in }
        let buffer = try queue.allocateBuffer(byteCapacity: 64)
        let samples: [Float] = [0.5, -0.25, 1, -1]
        try buffer.fill(with: samples)
        #expect(buffer.audioDataByteSize == 16)
        #expect(buffer.packetDescriptionCount == 0)
        #expect(Array(UnsafeBufferPointer(start: buffer.audioData.assumingMemoryBound(to: Float.self), count: 4)) == samples)
        #expect(buffer.samples(as: Float.self) == samples)
        #expect(buffer.bytes == samples.withUnsafeBytes { Array($0) })
        // A collection without contiguous storage is copied element by element.
        try buffer.fill(with: (0..<6).lazy.map { Int16($0 * 1000 - 2500) })
        #expect(buffer.audioDataByteSize == 12)
        #expect(buffer.samples(as: Int16.self) == [-2500, -1500, -500, 500, 1500, 2500])
        // A trailing part too short for a value is left out.
        buffer.audioDataByteSize = 5
        #expect(buffer.samples(as: Int16.self).count == 2)
        // A size the program set out of range is clamped, never read past the buffer.
        buffer.audioDataByteSize = 1000
        #expect(buffer.bytes.count == 64)
        buffer.audioDataByteSize = -3
        #expect(buffer.bytes.isEmpty)
    }

    @Test func fillRefusesWhatDoesNotFitAndLeavesTheBuffer() throws {
        let queue = try AudioQueue(format: Self.float2) { _, _ in }
        let buffer = try queue.allocateBuffer(byteCapacity: 8, packetDescriptionCapacity: 1)
        try buffer.fill(with: [UInt8](repeating: 7, count: 8))
        #expect(throws: AudioQueueError.self) { try buffer.fill(with: [UInt8](repeating: 1, count: 9)) }
        let two = [AudioStreamPacketDescription](repeating: .init(startOffset: 0, dataByteSize: 1), count: 2)
        #expect(throws: AudioQueueError.self) { try buffer.fill(with: [UInt8(1)], packetDescriptions: two) }
        #expect(buffer.bytes == [UInt8](repeating: 7, count: 8))
        do {
            try buffer.fill(with: [UInt8](repeating: 1, count: 9))
        } catch {
            #expect(error.code == .invalidParameter)
        }
        // No room for descriptions at all.
        let plain = try queue.allocateBuffer(byteCapacity: 8)
        #expect(throws: AudioQueueError.self) { try plain.fill(with: [UInt8(1)], packetDescriptions: [.init(startOffset: 0, dataByteSize: 1)]) }
    }

    @Test func packetsViewTheBuffersDescriptionsInPlace() throws {
        let queue = try AudioQueue(format: Self.float2) { _, _ in }
        let buffer = try queue.allocateBuffer(byteCapacity: 16, packetDescriptionCapacity: 4)
        let descriptions = [
            AudioStreamPacketDescription(startOffset: 0, dataByteSize: 3),
            AudioStreamPacketDescription(startOffset: 3, variableFramesInPacket: 5, dataByteSize: 6),
        ]
        try buffer.fill(with: Array(UInt8(1)...9), packetDescriptions: descriptions)
        #expect(buffer.packetDescriptionCount == 2)
        #expect(Array(buffer.packets) == descriptions)
        #expect(buffer.packets.bytes(of: 1) == [4, 5, 6, 7, 8, 9])
        // A view, not a copy: what the pointer form writes shows.
        let view = buffer.packets
        buffer.packetDescriptions![0].dataByteSize = 2
        #expect(view[0].dataByteSize == 2)
        // A description pointing past the valid bytes gives what there is.
        buffer.packetDescriptions![1] = AudioStreamPacketDescription(startOffset: 8, dataByteSize: 100)
        #expect(buffer.packets.bytes(of: 1) == [9])
        buffer.packetDescriptions![1] = AudioStreamPacketDescription(startOffset: 100, dataByteSize: 1)
        #expect(buffer.packets.bytes(of: 1).isEmpty)
        // A count the program set beyond the capacity is clamped.
        buffer.packetDescriptionCount = 99
        #expect(buffer.packets.count == 4)
    }

    @Test func spansLendTheBufferWithoutCopying() throws {
        let queue = try AudioQueue(format: Self.float2) { _, _ in }
        let buffer = try queue.allocateBuffer(byteCapacity: 32)
        buffer.withMutableContents { span in
            for i in 0..<4 { span.storeBytes(of: Float(i) / 4, toByteOffset: i * 4, as: Float.self) }
            return 16
        }
        #expect(buffer.audioDataByteSize == 16)
        #expect(buffer.samples(as: Float.self) == [0, 0.25, 0.5, 0.75])
        let sum = buffer.withContents { bytes in
            (0..<bytes.byteCount / 4).reduce(Float(0)) { $0 + bytes.unsafeLoad(fromByteOffset: $1 * 4, as: Float.self) }
        }
        #expect(sum == 1.5)
        buffer.withMutableContents { _ in 1000 }
        #expect(buffer.audioDataByteSize == 32)
    }

    @Test func enqueueRefusesASizeOutOfRange() throws {
        let queue = try offlineFloatQueue()
        let buffer = try queue.allocateBuffer(byteCapacity: 16)
        buffer.audioDataByteSize = -8
        #expect(throws: AudioQueueError.self) { try queue.enqueue(buffer) }
        buffer.audioDataByteSize = 24
        #expect(throws: AudioQueueError.self) { try queue.enqueue(buffer) }
        try buffer.fill(with: [Float](repeating: 0.5, count: 4))
        try queue.enqueue(buffer)
    }
}
