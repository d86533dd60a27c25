import Foundation
import ProcessSupport
import Testing
import AudioCore
import AudioCodecs
import AudioCodecAVCodec

@Suite("AACEncoder's calls")
struct BehaviourTests {
    /// A short signal from ffmpeg, made once for the tests that only need some input.
    static let signal: [Float] = {
        guard let scratch = try? Scratch(), let samples = try? referenceSignal(rate: 44100, channels: 2, seconds: 1, in: scratch) else {
            return []
        }
        return samples
    }()

    @Test func outputFormatIsFilledIn() throws {
        let encoder = try makeEncoder(rate: 48000, channels: 2)
        #expect(encoder.outputFormat == AudioStreamBasicDescription(
            sampleRate: 48000, formatID: .mpeg4AAC, formatFlags: [], bytesPerPacket: 0, framesPerPacket: 1024, bytesPerFrame: 0,
            channelsPerFrame: 2, bitsPerChannel: 0))
        #expect(encoder.framesPerPacket == 1024)
        #expect(encoder.maximumPacketSize == 1536)
        #expect(encoder.primingFrames == 2112)
        #expect(encoder.hasDelay)
        #expect(encoder.outputByteCount(forFrames: 1) == 1536)
        #expect(encoder.outputByteCount(forFrames: 2048) == 2 * 1536)
        #expect(encoder.outputByteCount(forFrames: -1) == nil)
    }

    /// 44.1 kHz stereo: 128 kb/s by default, 64–320 kb/s in Apple's steps; a rate between steps
    /// is taken as the nearest, and the cookie carries it.
    @Test func bitRates() throws {
        let encoder = try makeEncoder(rate: 44100, channels: 2)
        #expect(encoder.bitRate == 128000)
        #expect(encoder.applicableBitRates.map(\.lowerBound) == [
            64000, 72000, 80000, 96000, 112000, 128000, 144000, 160000, 192000, 224000, 256000, 288000, 320000,
        ])
        #expect(encoder.applicableBitRates.allSatisfy { $0.lowerBound == $0.upperBound })
        try encoder.setBitRate(100000)
        #expect(encoder.bitRate == 96000)
        let cookie = try #require(encoder.magicCookie)
        #expect(Array(cookie[18..<22]) == [0x00, 0x01, 0x77, 0x00])
        try encoder.setBitRate(1_000_000)
        #expect(encoder.bitRate == 320000)
        #expect(try makeEncoder(rate: 44100, channels: 1).bitRate == 64000)
        #expect(try makeEncoder(rate: 48000, channels: 6).bitRate == 384000)
        #expect(try makeEncoder(rate: 22050, channels: 2).bitRate == 64000)
        #expect(try makeEncoder(rate: 8000, channels: 1).bitRate == 12000)
        #expect(try makeEncoder(rate: 8000, channels: 1).applicableBitRates.last?.lowerBound == 32000)
    }

    /// finish writes one packet a call when there is room for one, reports the remainder in the
    /// call that writes the last packet only, and then writes nothing.
    @Test func finishWritesWhatFits() throws {
        let samples = Self.signal
        try #require(!samples.isEmpty)
        let frames = samples.count / 2
        let encoder = try makeEncoder(rate: 44100, channels: 2)
        let oneCall = try encodeAll(encoder, samples, chunk: frames + 1024, finishRoom: 1)
        let packets = (2112 + frames + 1023) / 1024
        #expect(oneCall.packets.count == packets)
        // One encode call of all the frames writes a packet per whole 1024 frames it sends after
        // the first (libavcodec looks one frame ahead), so finish has three left: the one of the
        // partial frame, the one libavcodec held for its look-ahead, and the last of its
        // 1024-frame delay; one a call, then a call that writes none.
        #expect(oneCall.finishCalls == 4)
        #expect(oneCall.paddingFrames == packets * 1024 - 2112 - frames)
        var output = [UInt8](repeating: 0, count: 4096)
        var descriptions = [AudioStreamPacketDescription](repeating: .init(startOffset: 0, dataByteSize: 0), count: 4)
        let after = try output.withUnsafeMutableBytes { out in
            try descriptions.withUnsafeMutableBufferPointer { try encoder.finish(into: out, packetDescriptions: $0) }
        }
        #expect(after == AudioEncodeResult(packetCount: 0, byteCount: 0))
        let none = try makeEncoder(rate: 44100, channels: 2)
        let fresh = try output.withUnsafeMutableBytes { out in
            try descriptions.withUnsafeMutableBufferPointer { try none.finish(into: out, packetDescriptions: $0) }
        }
        #expect(fresh == AudioEncodeResult(packetCount: 0, byteCount: 0))
    }

    /// reset, and the new stream finish starts, give the same packets for the same input.
    @Test func resetRepeatsThePackets() throws {
        let samples = Self.signal
        try #require(!samples.isEmpty)
        let encoder = try makeEncoder(rate: 44100, channels: 2)
        let first = try encodeAll(encoder, samples, chunk: 700)
        let second = try encodeAll(encoder, samples, chunk: 3000)
        #expect(first.packets == second.packets)
        // Halfway through a stream, then reset.
        _ = try encodeAll(encoder, Array(samples.prefix(2 * 5000)), chunk: 5000, finishRoom: 1).packets
        var output = [UInt8](repeating: 0, count: encoder.outputByteCount(forFrames: 3000) ?? 0)
        var descriptions = [AudioStreamPacketDescription](repeating: .init(startOffset: 0, dataByteSize: 0), count: 4)
        _ = try samples.withUnsafeBytes { raw in
            try output.withUnsafeMutableBytes { out in
                try descriptions.withUnsafeMutableBufferPointer { try encoder.encode(raw, frameCount: 3000, into: out, packetDescriptions: $0) }
            }
        }
        encoder.reset()
        let third = try encodeAll(encoder, samples, chunk: 1024)
        #expect(first.packets == third.packets)
        #expect(first.paddingFrames == third.paddingFrames)
    }

    @Test func refusedFormats() throws {
        let stereo = aacFormat(rate: 44100, channels: 2)
        let input = AudioEncoders.inputFormat(for: stereo)
        func code(_ input: AudioStreamBasicDescription, _ output: AudioStreamBasicDescription) -> AudioCodecError.Code? {
            do {
                _ = try AACEncoder(input: input, output: output)
                return nil
            } catch {
                return error.code
            }
        }
        #expect(code(.linearPCM(sampleRate: 44100, channels: 2, bitsPerChannel: 16, isFloat: false), stereo) == .formatNotSupported)
        #expect(code(AudioEncoders.inputFormat(for: aacFormat(rate: 48000, channels: 2)), stereo) == .formatNotSupported)
        #expect(code(AudioEncoders.inputFormat(for: aacFormat(rate: 44100, channels: 1)), stereo) == .formatNotSupported)
        var other = stereo
        other.formatID = .appleIMA4
        #expect(code(input, other) == .formatNotSupported)
        var he = stereo
        he.formatFlags = AudioFormatFlags(rawValue: 5)
        #expect(code(input, he) == .formatNotSupported)
        var cbr = stereo
        cbr.bytesPerPacket = 512
        #expect(code(input, cbr) == .formatNotSupported)
        var frames = stereo
        frames.framesPerPacket = 960
        #expect(code(input, frames) == .formatNotSupported)
        let nine = aacFormat(rate: 44100, channels: 9)
        #expect(code(AudioEncoders.inputFormat(for: nine), nine) == .formatNotSupported)
        let none = aacFormat(rate: 44100, channels: 0)
        #expect(code(AudioEncoders.inputFormat(for: none), none) == .formatNotSupported)
        for rate in [7350, 50000, 192000] {
            let output = aacFormat(rate: rate, channels: 2)
            #expect(code(AudioEncoders.inputFormat(for: output), output) == .outputSampleRateOutOfRange)
        }
        var lc = stereo
        lc.formatFlags = AudioFormatFlags(rawValue: 2)
        #expect(code(input, lc) == nil)
    }

    /// Misuse is refused with the documented code, and nothing changes: the stream that follows
    /// is the same as without the refused calls.
    @Test func misuse() throws {
        let samples = Self.signal
        try #require(!samples.isEmpty)
        let encoder = try makeEncoder(rate: 44100, channels: 2)
        var descriptions = [AudioStreamPacketDescription](repeating: .init(startOffset: 0, dataByteSize: 0), count: 4)
        func code(frames: Int, inputBytes: Int, outputBytes: Int, descriptionCount: Int?) -> AudioCodecError.Code? {
            var output = [UInt8](repeating: 0, count: outputBytes)
            do {
                _ = try samples.withUnsafeBytes { raw in
                    try output.withUnsafeMutableBytes { out in
                        try descriptions.withUnsafeMutableBufferPointer { descs in
                            try encoder.encode(
                                UnsafeRawBufferPointer(rebasing: raw[..<inputBytes]), frameCount: frames, into: out,
                                packetDescriptions: descriptionCount.map { UnsafeMutableBufferPointer(rebasing: descs[..<$0]) })
                        }
                    }
                }
                return nil
            } catch let error as AudioCodecError {
                return error.code
            } catch {
                return nil
            }
        }
        #expect(code(frames: 2048, inputBytes: 2048 * 8, outputBytes: 2 * 1536 - 1, descriptionCount: 4) == .invalidOutputSize)
        #expect(code(frames: 2048, inputBytes: 2048 * 8 - 1, outputBytes: 2 * 1536, descriptionCount: 4) == .invalidInputSize)
        #expect(code(frames: -1, inputBytes: 0, outputBytes: 0, descriptionCount: 4) == .invalidInputSize)
        #expect(code(frames: 2048, inputBytes: 2048 * 8, outputBytes: 2 * 1536, descriptionCount: nil) == .requiresPacketDescriptions)
        #expect(code(frames: 2048, inputBytes: 2048 * 8, outputBytes: 2 * 1536, descriptionCount: 1) == .requiresPacketDescriptions)
        // 900 frames after the 64 of silence waiting complete no packet: no description needed.
        #expect(code(frames: 900, inputBytes: 900 * 8, outputBytes: 1536, descriptionCount: nil) == nil)
        #expect(throws: AudioCodecError.self) { try encoder.setBitRate(64000) }
        encoder.reset()
        let clean = try encodeAll(encoder, samples)
        let again = try makeEncoder(rate: 44100, channels: 2)
        #expect(try encodeAll(again, samples).packets == clean.packets)
    }

    /// Full-scale white noise (ffmpeg's) at the highest applicable bit rate stays within the
    /// 768 bytes per channel a packet may take, at the lowest and highest sampling rates.
    @Test(arguments: [(8000, 1), (11025, 2), (12000, 1), (16000, 1), (22050, 2), (24000, 1), (32000, 1), (32000, 2), (44100, 1), (44100, 2), (96000, 2), (48000, 8)])
    func loudNoiseFitsThePacketLimit(_ rate: Int, _ channels: Int) throws {
        let scratch = try Scratch()
        let file = scratch.path("noise.f32")
        try ffmpeg([
            "-f", "lavfi", "-i", "anoisesrc=color=white:sample_rate=\(rate):amplitude=1:duration=1:seed=3", "-af", "pan=\(channels)c|"
                + (0..<channels).map { "c\($0)=c0" }.joined(separator: "|"), "-f", "f32le", "-c:a", "pcm_f32le", file,
        ])
        let samples = try Fixtures.float32(URL(fileURLWithPath: file))
        let encoder = try makeEncoder(rate: rate, channels: channels)
        let highest = try #require(encoder.applicableBitRates.last?.lowerBound)
        try encoder.setBitRate(highest)
        let encoded = try encodeAll(encoder, samples, chunk: 2048)
        #expect(encoded.packets.count == (2112 + samples.count / channels + 1023) / 1024)
        let largest = encoded.packets.map(\.count).max() ?? 0
        print("\(channels) ch \(rate) Hz at \(highest / 1000) kb/s: largest packet \(largest) bytes of \(encoder.maximumPacketSize)")
        #expect(largest <= encoder.maximumPacketSize)
    }

    /// NaN, infinities and samples far out of range do not stop the stream.
    @Test func wildSamplesEncode() throws {
        let encoder = try makeEncoder(rate: 44100, channels: 2)
        var samples = [Float](repeating: 0, count: 2 * 5000)
        for i in samples.indices {
            samples[i] = [Float.nan, .infinity, -.infinity, 1e30, -1e30, 0.5, .leastNonzeroMagnitude][i % 7]
        }
        let encoded = try encodeAll(encoder, samples)
        #expect(encoded.packets.count == (2112 + 5000 + 1023) / 1024)
    }
}
