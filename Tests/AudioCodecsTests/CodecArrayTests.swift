import Foundation
import Testing
import AudioCore
import AudioCodecs

/// Encoding and decoding with arrays give what the pointer forms give.
@Suite struct CodecArrayTests {
    @Test func ima4ArraysMatchThePointerForm() throws {
        let floats = (0..<1000).map { Float(sin(Double($0) * 0.05) * 0.6) }  // 500 stereo frames
        let output = AudioStreamBasicDescription.ima4(sampleRate: 8000, channels: 2)
        let a = try AudioEncoders.make(from: AudioEncoders.inputFormat(for: output), to: output)
        let b = try AudioEncoders.make(from: AudioEncoders.inputFormat(for: output), to: output)
        let encoded = try a.encode(samples: floats)
        var reference = [UInt8](repeating: 0, count: b.outputByteCount(forFrames: 500)!)
        let result = try floats.withUnsafeBytes { input in
            try reference.withUnsafeMutableBytes { try b.encode(input, frameCount: 500, into: $0, packetDescriptions: nil) }
        }
        #expect(encoded.data == Array(reference.prefix(result.byteCount)))
        #expect(encoded.data.count == 8 * 68 && encoded.descriptions == nil)
        #expect(encoded.paddingFrames == 8 * 64 - 500)
        // Not whole frames, or not the input's sample.
        #expect(throws: AudioCodecError.self) { try a.encode(samples: [Float](repeating: 0, count: 3)) }
        #expect(throws: AudioCodecError.self) { try a.encode(samples: [Int16](repeating: 0, count: 4)) }

        let decoder = try AudioDecoders.make(for: output, magicCookie: nil)
        let buffer = try #require(PCMBuffer(format: decoder.outputFormat, frameCapacity: 8 * 64))
        for packet in stride(from: 0, to: encoded.data.count, by: 68) {
            try decoder.decode(packet: encoded.data[packet..<(packet + 68)], into: buffer)
        }
        #expect(buffer.frameLength == 8 * 64)
    }
}
