import Foundation
import Testing
import AudioCore
import AudioCodecs
import AudioQueueKit
import AudioTestSupport

@Suite("Packet frame counts through an audio queue")
struct FrameScaleQueueTests {
    /// Renders every packet of `path` through an offline queue made from `format`, each packet
    /// described as `frames` frames, with 1000 frames trimmed at the end.
    static func render(_ path: String, format: AudioStreamBasicDescription, frames: UInt32) throws -> [Float] {
        let file = try AudioFile(path: path)
        let read = try file.readPackets(from: 0, count: Int(file.packetCount))
        let descriptions = try #require(read.descriptions).map {
            AudioStreamPacketDescription(startOffset: $0.startOffset, variableFramesInPacket: frames, dataByteSize: $0.dataByteSize)
        }
        let queue = try AudioQueue(format: format) { _, _ in }
        try queue.setOfflineRenderFormat(.linearPCM(
            sampleRate: format.sampleRate, channels: format.channelsPerFrame, bitsPerChannel: 32, isFloat: true))
        let buffer = try queue.allocateBuffer(byteCapacity: read.data.count, packetDescriptionCapacity: descriptions.count)
        read.data.withUnsafeBytes { buffer.audioData.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        buffer.audioDataByteSize = read.data.count
        try queue.enqueue(buffer, packetDescriptions: descriptions, trimFramesAtStart: 0, trimFramesAtEnd: 1000)
        try queue.start()
        try queue.stop(immediate: false)
        return try renderAll(queue, chunk: 4096)
    }

    /// A description whose frames per packet (576) is half what the decoder gives (1152, MPEG-1
    /// Layer III at 44.1 kHz) does not scale the packet descriptions' frame counts: the rate is
    /// not doubled, so this is no SBR. The queue used to divide the decoder's frames per packet
    /// by the description's, counted every packet twice, and its end trim cut nothing.
    @Test func longerPacketsThanDescribedAreNotScaled() throws {
        AudioQueueKit.registerAll()
        let path = Fixtures.root.appendingPathComponent("mp3/cbr-128k-2ch-44100.mp3").path
        let file = try AudioFile(path: path)
        var format = file.dataFormat
        #expect(format.formatID == .mpegLayer3 && format.framesPerPacket == 1152)
        let described = try Self.render(path, format: format, frames: 1152)
        format.framesPerPacket = 576
        let halved = try Self.render(path, format: format, frames: 1152)
        #expect(described.count == (Int(file.packetCount) * 1152 - 1000) * 2)
        #expect(halved.count == described.count)
        let same = halved == described
        #expect(same)
    }
}
