import Testing
import ProcessSupport
import AudioCore
import AudioCodecs

@Suite("IMA4 decoder")
struct IMA4Tests {
    static func format(channels: UInt32, rate: Double = 44100) -> AudioStreamBasicDescription {
        AudioStreamBasicDescription(
            sampleRate: rate, formatID: .appleIMA4, bytesPerPacket: 34 * channels, framesPerPacket: 64, bytesPerFrame: 0,
            channelsPerFrame: channels, bitsPerChannel: 0)
    }

    /// Decodes every packet of `packets` with one decoder, optionally resetting before each.
    static func decodeAll(_ packets: [UInt8], channels: Int, resetEach: Bool = false) throws -> [Int16] {
        let decoder = try IMA4Decoder(input: format(channels: UInt32(channels)), magicCookie: nil)
        let size = 34 * channels
        let count = packets.count / size
        let buffer = try makeBuffer(decoder.outputFormat, count * 64)
        try packets.withUnsafeBytes { raw in
            for p in 0..<count {
                if resetEach { decoder.reset() }
                let n = try decoder.decode(packet: UnsafeRawBufferPointer(rebasing: raw[p * size..<(p + 1) * size]), frames: 64, into: buffer)
                #expect(n == 64)
            }
        }
        return unpack(validBytes(buffer), as: Int16.self)
    }

    static let references = [
        ("ima4-1ch-22050", 1), ("ima4-2ch-44100", 2), ("ima4-random-1ch", 1), ("ima4-random-2ch", 2),
    ]

    @Test(arguments: references)
    func matchesFFmpegBitExactly(name: String, channels: Int) throws {
        let packets = try Fixtures.codecBytes(name + ".ima4")
        let reference = unpack(try Fixtures.codecBytes(name + ".s16le"), as: Int16.self)
        #expect(packets.count % (34 * channels) == 0)
        #expect(reference.count == packets.count / 34 * 64)
        let decoded = try Self.decodeAll(packets, channels: channels)
        expectEqualArrays(decoded, reference, name)
    }

    /// ffmpeg's encoder writes headers that agree with the previous packet's final state, so
    /// its decode depends on carrying that state; without it the output differs.
    @Test func encodedStreamsNeedTheCarriedPredictor() throws {
        let packets = try Fixtures.codecBytes("ima4-2ch-44100.ima4")
        let reference = unpack(try Fixtures.codecBytes("ima4-2ch-44100.s16le"), as: Int16.self)
        let withoutCarry = try Self.decodeAll(packets, channels: 2, resetEach: true)
        #expect(withoutCarry.count == reference.count)
        #expect(withoutCarry != reference, "decoding without the carried predictor matched the reference")
    }

    static func packet(header: UInt16, codes: [UInt8]) -> [UInt8] {
        [UInt8(header >> 8), UInt8(header & 0xFF)] + codes + Array(repeating: 0, count: 32 - codes.count)
    }

    /// Values worked out by hand from the IMA reference algorithm.
    @Test func expandsCodesAsTheReference() throws {
        // Predictor 0, step index 0. 0x07: code 7 (step 7: 0 + 7 + 3 + 1 = +11, index 8), then
        // code 0 (step 16: +2, index 7); 0x8F: code 15 (step 14: −(1 + 14 + 7 + 3), index 15),
        // code 8 (step 31: −3, index 14); then code 0 (step 28: +3), code 0 (step 25: +3).
        let samples = try Self.decodeAll(Self.packet(header: 0x0000, codes: [0x07, 0x8F]), channels: 1)
        #expect(Array(samples.prefix(6)) == [11, 13, -12, -15, -12, -9])

        // Header predictor 0x7F80 with step index 88 and code 7 overflows: clipped to 32767;
        // 0x8000 with code 15 clips to −32768.
        let top = try Self.decodeAll(Self.packet(header: 0x7F80 | 88, codes: [0x77]), channels: 1)
        #expect(top.prefix(2) == [32767, 32767])
        let bottom = try Self.decodeAll(Self.packet(header: 0x8000 | 88, codes: [0xFF]), channels: 1)
        #expect(bottom.prefix(2) == [-32768, -32768])
    }

    @Test func carriesPredictorWhenTheHeaderAgrees() throws {
        // Packet 1 ends at predictor 20, step index 0 (11, 13, then +1 per code 0 while the step
        // index falls from 7 to 0, then +0).
        let first = Self.packet(header: 0x0000, codes: [0x07])
        // Header 0 / index 0 is within 127 of 20 with the same index: keeps 20, so 20 + 11 = 31.
        // That packet ends at 40 (31, 33, then +1 seven times).
        let second = Self.packet(header: 0x0000, codes: [0x07])
        // Header 256 is more than 127 from 40: restarts at 256 → 267.
        let third = Self.packet(header: 0x0100, codes: [0x07])
        // Same predictor but another step index (1, step 8): restarts at 0 → 1 + 8 + 4 + 2 = 15.
        let fourth = Self.packet(header: 0x0001, codes: [0x07])
        let samples = try Self.decodeAll(first + second + third + fourth, channels: 1)
        #expect(samples[63] == 20)
        #expect(samples[64] == 31)
        #expect(samples[127] == 40)
        #expect(samples[128] == 267)
        #expect(samples[192] == 15)
        // reset() forgets the carried state.
        let reset = try Self.decodeAll(first + second, channels: 1, resetEach: true)
        #expect(reset[64] == 11)
    }

    @Test func interleavesChannels() throws {
        let left = Self.packet(header: 0x0000, codes: [0x07])
        let right = Self.packet(header: 0x0100, codes: [0x07])
        let samples = try Self.decodeAll(left + right, channels: 2)
        #expect(Array(samples.prefix(4)) == [11, 267, 13, 269])
    }

    @Test func badPacketsAppendSilenceAndDecodingGoesOn() throws {
        let decoder = try IMA4Decoder(input: Self.format(channels: 2), magicCookie: nil)
        let buffer = try makeBuffer(decoder.outputFormat, 64 * 6)
        buffer.region(0).initializeMemory(as: UInt8.self, repeating: 0x5A)
        let good = Self.packet(header: 0x0100, codes: [0x07]) + Self.packet(header: 0x0100, codes: [0x07])
        // Step index 89 in the second channel.
        let badIndex = Self.packet(header: 0x0000, codes: [0x77]) + Self.packet(header: 89, codes: [])
        for bad in [badIndex, Array(good.dropLast()), good + [0], []] {
            let before = buffer.frameLength
            expectCodecError(.badData) { try bad.withUnsafeBytes { try decoder.decode(packet: $0, frames: nil, into: buffer) } }
            #expect(buffer.frameLength == before + 64)
            #expect(validBytes(buffer)[(before * 4)...].allSatisfy { $0 == 0 })
        }
        decoder.reset()
        try good.withUnsafeBytes { _ = try decoder.decode(packet: $0, frames: nil, into: buffer) }
        let samples = unpack(validBytes(buffer), as: Int16.self)
        #expect(Array(samples[(4 * 128)...].prefix(4)) == [267, 267, 269, 269])
    }

    @Test func noRoomOrWrongBufferAppendsNothing() throws {
        let decoder = try IMA4Decoder(input: Self.format(channels: 1), magicCookie: nil)
        let small = try makeBuffer(decoder.outputFormat, 63)
        let packet = Self.packet(header: 0, codes: [])
        expectCodecError(.invalidOutputSize) { try packet.withUnsafeBytes { try decoder.decode(packet: $0, frames: nil, into: small) } }
        #expect(small.frameLength == 0)
        // Even for a bad packet: no room for its concealment either.
        expectCodecError(.invalidOutputSize) { try [UInt8]().withUnsafeBytes { try decoder.decode(packet: $0, frames: nil, into: small) } }
        let wrong = try makeBuffer(lpcm(bits: 16, channels: 2, rate: 44100), 64)
        expectCodecError(.formatNotSupported) { try packet.withUnsafeBytes { try decoder.decode(packet: $0, frames: nil, into: wrong) } }
        #expect(wrong.frameLength == 0)
    }

    @Test func describesItsOutput() throws {
        let decoder = try IMA4Decoder(input: Self.format(channels: 2, rate: 22050), magicCookie: nil)
        #expect(decoder.outputFormat == .linearPCM(sampleRate: 22050, channels: 2, bitsPerChannel: 16))
        #expect(decoder.maximumFramesPerPacket == 64)
        expectCodecError(.formatNotSupported) { try IMA4Decoder(input: G711Tests.format(.aLaw), magicCookie: nil) }
        expectCodecError(.formatNotSupported) { try IMA4Decoder(input: Self.format(channels: 0), magicCookie: nil) }
        var odd = Self.format(channels: 2)
        odd.bytesPerPacket = 34
        expectCodecError(.formatNotSupported) { try IMA4Decoder(input: odd, magicCookie: nil) }
    }
}
