import Testing
import AudioCore
import AudioCodecs

@Suite("PCM decoder and the decoder registry")
struct DecoderTests {
    @Test func pcmDecoderCopiesWholeFrames() throws {
        let format = lpcm(bits: 24, bigEndian: true, channels: 2, rate: 48000)
        let decoder = try PCMDecoder(input: format, magicCookie: nil)
        #expect(decoder.outputFormat == format)
        #expect(decoder.maximumFramesPerPacket == 1)
        let buffer = try makeBuffer(format, 4)
        let one: [UInt8] = [1, 2, 3, 4, 5, 6]
        let three = Array(UInt8(10)..<UInt8(28))
        #expect(try one.withUnsafeBytes { try decoder.decode(packet: $0, frames: nil, into: buffer) } == 1)
        #expect(try three.withUnsafeBytes { try decoder.decode(packet: $0, frames: 3, into: buffer) } == 3)
        #expect(validBytes(buffer) == one + three)
    }

    @Test func pcmDecoderConcealsPartialFrames() throws {
        let format = lpcm(bits: 8, signed: false, channels: 2)
        let decoder = try PCMDecoder(input: format, magicCookie: nil)
        let buffer = try makeBuffer(format, 8)
        let partial: [UInt8] = [1, 2, 3]
        expectCodecError(.badData) { try partial.withUnsafeBytes { try decoder.decode(packet: $0, frames: nil, into: buffer) } }
        // One whole frame claimed; unsigned silence is mid-scale.
        #expect(validBytes(buffer) == [0x80, 0x80])
        let two: [UInt8] = [1, 2, 3, 4]
        expectCodecError(.badData) { try two.withUnsafeBytes { try decoder.decode(packet: $0, frames: 1, into: buffer) } }
        #expect(validBytes(buffer) == [0x80, 0x80, 0x80, 0x80])
        expectCodecError(.invalidOutputSize) { try two.withUnsafeBytes { try decoder.decode(packet: $0, frames: 9, into: buffer) } }
        expectCodecError(.formatNotSupported) {
            try two.withUnsafeBytes { try decoder.decode(packet: $0, frames: nil, into: try makeBuffer(int16, 4)) }
        }
        #expect(buffer.frameLength == 2)
    }

    @Test func pcmDecoderRejectsWhatItCannotCopy() {
        expectCodecError(.formatNotSupported) { try PCMDecoder(input: G711Tests.format(.uLaw), magicCookie: nil) }
        expectCodecError(.formatNotSupported) {
            try PCMDecoder(input: lpcm(bits: 16, channels: 2, interleaved: false), magicCookie: nil)
        }
        var empty = int16
        empty.bytesPerFrame = 0
        expectCodecError(.formatNotSupported) { try PCMDecoder(input: empty, magicCookie: nil) }
    }

    @Test func registryMakesTheBuiltInDecoders() throws {
        #expect(try AudioDecoders.make(for: int16, magicCookie: nil) is PCMDecoder)
        #expect(try AudioDecoders.make(for: G711Tests.format(.aLaw), magicCookie: nil) is G711Decoder)
        #expect(try AudioDecoders.make(for: G711Tests.format(.uLaw), magicCookie: nil) is G711Decoder)
        #expect(try AudioDecoders.make(for: IMA4Tests.format(channels: 1), magicCookie: nil) is IMA4Decoder)
        var mace = IMA4Tests.format(channels: 1)
        mace.formatID = .mace3
        expectCodecError(.formatNotSupported) { try AudioDecoders.make(for: mace, magicCookie: nil) }
    }

    /// Arbitrary packets and sizes: decoders throw or decode, never trap, and always append
    /// what they report (or concealment).
    @Test func arbitraryInputNeverTraps() throws {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        let decoders: [any AudioDecoder] = [
            try IMA4Decoder(input: IMA4Tests.format(channels: 2), magicCookie: nil),
            try IMA4Decoder(input: IMA4Tests.format(channels: 1), magicCookie: nil),
            try G711Decoder(input: G711Tests.format(.aLaw, channels: 3), magicCookie: nil),
            try PCMDecoder(input: lpcm(bits: 20, word: 3, alignedHigh: true, channels: 2), magicCookie: nil),
        ]
        for decoder in decoders {
            let buffer = try makeBuffer(decoder.outputFormat, 256)
            for _ in 0..<400 {
                if buffer.framesFree < 80 { buffer.frameLength = 0 }
                let size = Int(next() % 140)
                let packet = (0..<size).map { _ in UInt8(truncatingIfNeeded: next()) }
                let frames: Int? = next() % 3 == 0 ? Int(next() % 100) - 10 : nil
                let before = buffer.frameLength
                do {
                    let n = try packet.withUnsafeBytes { try decoder.decode(packet: $0, frames: frames, into: buffer) }
                    #expect(buffer.frameLength == before + n)
                } catch let error as AudioCodecError {
                    #expect([.badData, .invalidOutputSize].contains(error.code))
                }
            }
        }
    }
}
