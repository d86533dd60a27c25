import Foundation
import Testing
import AudioCore
import AudioCodecs
import AudioFileServices
import ExtendedAudioFileServices

/// Samples in and out as arrays: PCMBuffer, ExtAudioFile and ExtAudioFileWriter.
@Suite struct ArrayFormsTests {
    @Test func pcmBufferRoundTrips() throws {
        let samples: [Int16] = (0..<200).map { Int16($0 * 100 - 10_000) }
        let buffer = try #require(PCMBuffer(format: .int16(sampleRate: 8000, channels: 2), samples: samples))
        #expect(buffer.frameLength == 100)
        #expect(buffer.samples(as: Int16.self) == samples)
        #expect(buffer.samples(as: Int16.self, channel: 1) == stride(from: 1, to: 200, by: 2).map { samples[$0] })
        #expect(buffer.samples(as: Float.self) == nil)  // not the format's sample
        #expect(buffer.bytes.count == 400)
        // Non-interleaved: channel after channel.
        let planar = try #require(PCMBuffer(format: .float32(sampleRate: 8000, channels: 2, interleaved: false), samples: [1, 2, 3, -1, -2, -3] as [Float]))
        #expect(planar.frameLength == 3)
        #expect(planar.samples(as: Float.self, channel: 1) == [-1, -2, -3])
        #expect(planar.samples(as: Float.self) == [1, 2, 3, -1, -2, -3])
        // Not whole frames, or the wrong sample type: no buffer.
        #expect(PCMBuffer(format: .int16(sampleRate: 8000, channels: 2), samples: [1, 2, 3] as [Int16]) == nil)
        #expect(PCMBuffer(format: .int16(sampleRate: 8000, channels: 2), samples: [1, 2] as [Int32]) == nil)
        // Appending stops at the capacity.
        let small = try #require(PCMBuffer(format: .int16(sampleRate: 8000, channels: 1), frameCapacity: 3))
        #expect(small.append([1, 2] as [Int16]) == 2)
        #expect(small.append([3, 4, 5] as [Int16]) == 1)
        #expect(small.samples(as: Int16.self) == [1, 2, 3])
    }

    @Test func extAudioFileWritesAndReadsArrays() throws {
        let path = NSTemporaryDirectory() + "array-forms-\(getpid()).wav"
        defer { unlink(path) }
        let samples: [Int16] = (0..<2000).map { Int16(truncatingIfNeeded: $0 &* 37) }
        let writer = try ExtAudioFileWriter(path: path, type: .wave, format: .int16(sampleRate: 8000, channels: 2), flags: .eraseFile)
        try writer.write(samples: samples)
        #expect(throws: ExtAudioFileError.self) { try writer.write(samples: [1, 2, 3] as [Int16]) }
        #expect(throws: ExtAudioFileError.self) { try writer.write(samples: [1, 2] as [Float]) }
        try writer.close()

        let file = try ExtAudioFile(path: path)
        var read: [Int16] = []
        while true {
            let piece = try file.read(frameCount: 300, as: Int16.self)
            if piece.isEmpty { break }
            read += piece
        }
        #expect(read == samples)
        // As float: the same samples scaled to ±1.
        try file.seek(toFrame: 0)
        try file.setClientDataFormat(.float32(sampleRate: 8000, channels: 2))
        let floats = try file.read(frameCount: 1000, as: Float.self)
        #expect(floats.count == 2000)
        #expect(floats.enumerated().allSatisfy { abs($0.element - Float(samples[$0.offset]) / 32768) < 1e-6 })
        #expect(throws: ExtAudioFileError.self) { try file.read(frameCount: 10, as: Int16.self) }
    }
}

/// A PCMBuffer written straight into a PCM file as packets.
@Suite struct WriterBufferTests {
    @Test func writesABuffersFramesAsPackets() throws {
        let path = NSTemporaryDirectory() + "writer-buffer-\(getpid()).caf"
        defer { unlink(path) }
        let format = AudioStreamBasicDescription.int16(sampleRate: 8000, channels: 2)
        let samples: [Int16] = (0..<600).map { Int16($0) }
        let buffer = try #require(PCMBuffer(format: format, samples: samples))
        let writer = try AudioFileWriter(path: path, type: .caf, format: format, flags: .eraseFile)
        #expect(try writer.writePackets(buffer) == 300)
        let other = try #require(PCMBuffer(format: .float32(sampleRate: 8000, channels: 2), frameCapacity: 4))
        #expect { try writer.writePackets(other) } throws: { ($0 as? AudioFileError)?.code == .unsupportedDataFormat }
        try writer.close()
        let file = try AudioFile(path: path)
        #expect(file.packetCount == 300)
        #expect(try file.readPackets(from: 0, count: 300).data == buffer.bytes)
    }
}
