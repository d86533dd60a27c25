import Foundation
import Testing
import AudioCore
import AudioCodecs
import AudioConverterServices

/// The converter without pointers: packets in and out as arrays, buffers converted whole.
@Suite struct ConverterArrayTests {
    static func sine(frames: Int, channels: Int) -> [Float] {
        (0..<frames * channels).map { Float(0.5 * sin(Double($0 / channels) * 2 * .pi * 440 / 8000)) }
    }

    @Test func ima4RoundTripsThroughArrays() throws {
        let pcm = AudioStreamBasicDescription.float32(sampleRate: 8000, channels: 2)
        let samples = Self.sine(frames: 6400, channels: 2)
        let bytes = samples.withUnsafeBytes { Array($0) }
        let encoder = try AudioConverter(from: pcm, to: .ima4(sampleRate: 8000, channels: 2))
        let encoded = try encoder.convertAll(AudioConverterPackets(data: bytes, packetCount: 6400))
        #expect(encoded.packetCount == 100)      // 6400 frames in packets of 64
        #expect(encoded.data.count == 100 * 68)  // 34 bytes per channel
        #expect(encoded.descriptions == nil)

        let decoder = try AudioConverter(from: .ima4(sampleRate: 8000, channels: 2), to: pcm)
        let decoded = try decoder.convertAll(encoded)
        #expect(decoded.packetCount == 6400)
        let back = decoded.data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        // IMA4 is lossy: after its first packets the tone comes back within a few percent.
        let error = zip(back[1000...], samples[1000...]).map { abs($0 - $1) }.max() ?? 1
        #expect(error < 0.05)
    }

    @Test func pullsInPiecesUntilTheEnd() throws {
        let pcm = AudioStreamBasicDescription.int16(sampleRate: 8000, channels: 1)
        let converter = try AudioConverter(from: pcm, to: .ulaw())
        let source = (0..<1000).flatMap { i -> [UInt8] in
            let v = Int16(truncatingIfNeeded: i * 60)
            return [UInt8(truncatingIfNeeded: v), UInt8(truncatingIfNeeded: v >> 8)]
        }
        var offset = 0
        var out: [UInt8] = []
        var ended = false
        while !ended {
            let (packets, end) = try converter.fill(packetCapacity: 300) { wanted throws(AudioCodecError) in
                let n = min(wanted, 250, (source.count - offset) / 2)
                defer { offset += 2 * n }
                return n == 0 ? nil : AudioConverterPackets(data: Array(source[offset..<(offset + 2 * n)]), packetCount: n)
            }
            #expect(packets.packetCount <= 300)
            out += packets.data
            ended = end
        }
        #expect(out.count == 1000)
    }

    @Test func convertsABuffer() throws {
        let input = try #require(PCMBuffer(format: .int16(sampleRate: 44100, channels: 2), samples: [0, 16384, -32768, 32767] as [Int16]))
        let converter = try AudioConverter(from: .int16(sampleRate: 44100, channels: 2), to: .float32(sampleRate: 44100, channels: 2, interleaved: false))
        let output = try converter.convert(input)
        #expect(output.frameLength == 2)
        #expect(output.samples(as: Float.self, channel: 0) == [0, -1])
        #expect(output.samples(as: Float.self, channel: 1) == [0.5, Float(32767) / 32768])
        #expect(throws: AudioCodecError.self) { try converter.convert(output) }
    }
}
