import Foundation
import Testing
import AudioCore
import AudioCodecs
import AudioConverterServices
import ProcessSupport

/// Runs `converter` over `input` (interleaved, `frames` frames of its input format) handing it
/// pieces of the sizes in `pieces` in turn, filling outputs of `capacity` packets, to the end of
/// the stream; returns the bytes written.
func convertAll(_ converter: AudioConverter, _ input: [UInt8], frames: Int, pieces: [Int], capacity: Int) throws -> [UInt8] {
    let inFrame = Int(converter.inputFormat.bytesPerFrame)
    let outFrame = max(Int(converter.outputFormat.bytesPerFrame), 1)
    var output: [UInt8] = []
    var at = 0, turn = 0
    var scratch = [UInt8](repeating: 0, count: capacity * outFrame)
    try input.withUnsafeBytes { raw in
        while true {
            let result = try scratch.withUnsafeMutableBytes { out in
                try converter.fill(AudioConverterOutput(buffers: [out], packetCapacity: capacity)) { _ throws(AudioCodecError) in
                    guard at < frames else { return nil }
                    let n = min(pieces[turn % pieces.count], frames - at)
                    turn += 1
                    defer { at += n }
                    return AudioConverterInputData(UnsafeRawBufferPointer(rebasing: raw[(at * inFrame)..<((at + n) * inFrame)]), packetCount: n)
                }
            }
            output += scratch[0..<result.byteCount]
            if result.endOfStream || result.packetCount == 0 { break }
        }
    }
    return output
}

@Suite("AudioConverter")
struct AudioConverterTests {
    /// 16-bit to Float32 and back through fills of odd sizes equals ffmpeg's conversions.
    @Test func pcmConversionsEqualFFmpeg() throws {
        let s16 = try ffmpegRaw(writerSource, ["-c:a", "pcm_s16le"], format: "s16le")
        let frames = s16.count / 4
        let int16 = AudioStreamBasicDescription.linearPCM(sampleRate: 44100, channels: 2, bitsPerChannel: 16)
        let float = AudioStreamBasicDescription.linearPCM(sampleRate: 44100, channels: 2, bitsPerChannel: 32, isFloat: true)
        let up = try AudioConverter(from: int16, to: float)
        let floats = try convertAll(up, s16, frames: frames, pieces: [7, 1000, 1], capacity: 333)
        // ffmpeg's s16 → f32 is x / 32768, as ours.
        let source = temporaryPath("conv-s16.wav")
        defer { try? FileManager.default.removeItem(atPath: source) }
        _ = try ffmpegRaw(writerSource, ["-c:a", "pcm_s16le"], format: "wav").withUnsafeBytes {
            FileManager.default.createFile(atPath: source, contents: Data($0))
        }
        let expected = try ffmpegRaw(source, ["-c:a", "pcm_f32le"], format: "f32le")
        #expect(floats.count == frames * 8)
        #expect(firstDifference(floats, expected) == nil)
        let down = try AudioConverter(from: float, to: int16)
        let back = try convertAll(down, floats, frames: frames, pieces: [4096, 5], capacity: 1 << 20)
        #expect(firstDifference(back, s16) == nil)
    }

    /// A channel map picks input channels for each output channel; -1 is silence.
    @Test func channelMap() throws {
        let float = AudioStreamBasicDescription.linearPCM(sampleRate: 8000, channels: 2, bitsPerChannel: 32, isFloat: true)
        let three = AudioStreamBasicDescription.linearPCM(sampleRate: 8000, channels: 3, bitsPerChannel: 32, isFloat: true)
        let converter = try AudioConverter(from: float, to: three)
        converter.channelMap = [1, -1, 0]
        let samples: [Float] = (0..<200).map { Float($0) / 256 }
        let bytes = samples.withUnsafeBytes { [UInt8]($0) }
        let out = try convertAll(converter, bytes, frames: 100, pieces: [33], capacity: 64)
        let values = out.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        #expect(values.count == 300)
        for f in 0..<min(100, values.count / 3) {
            #expect(values[3 * f] == samples[2 * f + 1] && values[3 * f + 1] == 0 && values[3 * f + 2] == samples[2 * f])
        }
    }

    /// IMA4 encoding: whole packets, the last completed with silence and counted in the prime
    /// info; the end of the stream is reported and later fills write nothing.
    @Test func ima4EncodingEndsTheStream() throws {
        let float = AudioStreamBasicDescription.linearPCM(sampleRate: 22050, channels: 1, bitsPerChannel: 32, isFloat: true)
        let ima4 = AudioStreamBasicDescription(
            sampleRate: 22050, formatID: .appleIMA4, bytesPerPacket: 0, framesPerPacket: 0, bytesPerFrame: 0, channelsPerFrame: 1, bitsPerChannel: 0)
        let converter = try AudioConverter(from: float, to: ima4)
        #expect(converter.outputFormat.bytesPerPacket == 34 && converter.outputFormat.framesPerPacket == 64)
        let samples: [Float] = (0..<1000).map { sin(Float($0) * 0.05) * 0.5 }
        let bytes = samples.withUnsafeBytes { [UInt8]($0) }
        var packets = 0
        var out = [UInt8](repeating: 0, count: 34 * 4)
        var at = 0
        var ended = false
        try bytes.withUnsafeBytes { raw in
            for _ in 0..<100 where !ended {
                let result = try out.withUnsafeMutableBytes { o in
                    try converter.fill(AudioConverterOutput(buffers: [o], packetCapacity: 4)) { _ throws(AudioCodecError) in
                        guard at < 1000 else { return nil }
                        let n = min(300, 1000 - at)
                        defer { at += n }
                        return AudioConverterInputData(UnsafeRawBufferPointer(rebasing: raw[(at * 4)..<((at + n) * 4)]), packetCount: n)
                    }
                }
                #expect(result.byteCount == result.packetCount * 34)
                packets += result.packetCount
                ended = result.endOfStream
            }
        }
        #expect(ended)
        #expect(packets == 16)  // ceil(1000 / 64)
        #expect(converter.primeInfo == .init(leadingFrames: 0, trailingFrames: 16 * 64 - 1000))
        let again = try out.withUnsafeMutableBytes { o in
            try converter.fill(AudioConverterOutput(buffers: [o], packetCapacity: 4)) { _ in nil }
        }
        #expect(again.packetCount == 0 && again.endOfStream)
    }

    /// An error from the input stops a fill with what was converted; the next fill goes on
    /// where it stopped, losing nothing.
    @Test func inputErrorsKeepTheStream() throws {
        let int16 = AudioStreamBasicDescription.linearPCM(sampleRate: 8000, channels: 1, bitsPerChannel: 16)
        let float = AudioStreamBasicDescription.linearPCM(sampleRate: 8000, channels: 1, bitsPerChannel: 32, isFloat: true)
        let converter = try AudioConverter(from: int16, to: float)
        let values: [Int16] = (0..<100).map { Int16($0 * 300) }
        var out = [Float](repeating: 0, count: 100)
        var calls = 0
        let first = try values.withUnsafeBytes { raw in
            try out.withUnsafeMutableBytes { o in
                try converter.fill(AudioConverterOutput(buffers: [o], packetCapacity: 100)) { _ throws(AudioCodecError) in
                    calls += 1
                    if calls == 2 { throw AudioCodecError(.init(rawValue: 0x7A65_726F), "no data yet") }
                    return AudioConverterInputData(UnsafeRawBufferPointer(rebasing: raw[0..<80]), packetCount: 40)
                }
            }
        }
        #expect(first.packetCount == 40)
        #expect(first.inputError?.code.rawValue == 0x7A65_726F)
        #expect(!first.endOfStream)
        #expect(out[39] == Float(values[39]) / 32768)
    }

    /// Compressed input whose packets vary in size needs their descriptions; neither side linear
    /// PCM is refused.
    @Test func misuse() throws {
        let aac = AudioStreamBasicDescription(
            sampleRate: 44100, formatID: .mpeg4AAC, bytesPerPacket: 0, framesPerPacket: 1024, bytesPerFrame: 0, channelsPerFrame: 2, bitsPerChannel: 0)
        let ima4 = AudioStreamBasicDescription(
            sampleRate: 44100, formatID: .appleIMA4, bytesPerPacket: 68, framesPerPacket: 64, bytesPerFrame: 0, channelsPerFrame: 2, bitsPerChannel: 0)
        #expect { try AudioConverter(from: aac, to: ima4) } throws: { ($0 as? AudioCodecError)?.code == .formatNotSupported }
        var bad = ima4
        bad.sampleRate = 0
        #expect { try AudioConverter(from: bad, to: .linearPCM(sampleRate: 8000, channels: 2, bitsPerChannel: 16)) } throws: {
            ($0 as? AudioCodecError)?.code == .inputSampleRateOutOfRange
        }
    }
}
