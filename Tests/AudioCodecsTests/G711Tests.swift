import Testing
import ProcessSupport
import AudioCore
import AudioCodecs

@Suite("G.711 decoder")
struct G711Tests {
    static func format(_ id: AudioFormatID, channels: UInt32 = 1) -> AudioStreamBasicDescription {
        AudioStreamBasicDescription(
            sampleRate: 8000, formatID: id, bytesPerPacket: channels, framesPerPacket: 1, bytesPerFrame: channels,
            channelsPerFrame: channels, bitsPerChannel: 8)
    }

    /// Decodes `bytes` one packet (frame) at a time.
    static func decodeFrames(_ bytes: [UInt8], format: AudioStreamBasicDescription) throws -> [Int16] {
        let decoder = try G711Decoder(input: format, magicCookie: nil)
        let channels = Int(format.channelsPerFrame)
        let buffer = try makeBuffer(decoder.outputFormat, bytes.count / channels)
        try bytes.withUnsafeBytes { raw in
            for offset in stride(from: 0, to: raw.count, by: channels) {
                let n = try decoder.decode(packet: UnsafeRawBufferPointer(rebasing: raw[offset..<offset + channels]), frames: nil, into: buffer)
                #expect(n == 1)
            }
        }
        return unpack(validBytes(buffer), as: Int16.self)
    }

    @Test(arguments: [("alaw", AudioFormatID.aLaw), ("mulaw", AudioFormatID.uLaw)])
    func everyByteMatchesFFmpeg(name: String, id: AudioFormatID) throws {
        let input = try Fixtures.codecBytes("g711-bytes.u8")
        let reference = unpack(try Fixtures.codecBytes("g711-\(name).s16le"), as: Int16.self)
        #expect(input == Array(0...255))
        #expect(reference.count == 256)
        expectEqualArrays(try Self.decodeFrames(input, format: Self.format(id)), reference, "frame by frame")

        // All 256 frames in one call, as a container read would pass them.
        let decoder = try G711Decoder(input: Self.format(id), magicCookie: nil)
        let buffer = try makeBuffer(decoder.outputFormat, 256)
        let n = try input.withUnsafeBytes { try decoder.decode(packet: $0, frames: 256, into: buffer) }
        #expect(n == 256)
        expectEqualArrays(unpack(validBytes(buffer), as: Int16.self), reference, "one call")
    }

    @Test func stereoKeepsChannelOrder() throws {
        let reference = unpack(try Fixtures.codecBytes("g711-mulaw.s16le"), as: Int16.self)
        let bytes: [UInt8] = [0x00, 0xFF, 0x80, 0x7F, 0x12, 0xED]
        let decoded = try Self.decodeFrames(bytes, format: Self.format(.uLaw, channels: 2))
        #expect(decoded == bytes.map { reference[Int($0)] })
    }

    /// Values of G.711's tables (decoder output in 16-bit units: A-law 13-bit × 8, µ-law 14-bit × 4).
    @Test func specificationValues() throws {
        let a = try Self.decodeFrames([0xD5, 0x55, 0xAA, 0x2A, 0xD4, 0xC5], format: Self.format(.aLaw))
        // 0xD5: positive, segment 0, step 0 → +8; 0x55 the same, negative; 0xAA: segment 7, step 15 →
        // 32256; 0xD4: step 1 → 24; 0xC5: segment 1, step 0 → 264.
        #expect(a == [8, -8, 32256, -32256, 24, 264])
        let u = try Self.decodeFrames([0xFF, 0x7F, 0x80, 0x00, 0xFE, 0xEF], format: Self.format(.uLaw))
        // 0xFF and 0x7F: zero; 0x80: +32124; 0x00: −32124; 0xFE: 8; 0xEF: segment 1, step 0 → 132.
        #expect(u == [0, 0, 32124, -32124, 8, 132])
    }

    @Test func outputFormatIsCanonicalInt16() throws {
        let decoder = try G711Decoder(input: Self.format(.aLaw, channels: 2), magicCookie: nil)
        #expect(decoder.outputFormat == .linearPCM(sampleRate: 8000, channels: 2, bitsPerChannel: 16))
        #expect(decoder.outputFormat.formatFlags == [.isSignedInteger, .isPacked])
        #expect(decoder.maximumFramesPerPacket == 1)
    }

    @Test func rejectsOtherFormats() {
        expectCodecError(.formatNotSupported) { try G711Decoder(input: int16, magicCookie: nil) }
        expectCodecError(.formatNotSupported) { try G711Decoder(input: Self.format(.aLaw, channels: 0), magicCookie: nil) }
        var wide = Self.format(.uLaw)
        wide.bytesPerPacket = 2
        expectCodecError(.formatNotSupported) { try G711Decoder(input: wide, magicCookie: nil) }
    }

    @Test func badPacketsAppendSilence() throws {
        let decoder = try G711Decoder(input: Self.format(.aLaw, channels: 2), magicCookie: nil)
        let buffer = try makeBuffer(decoder.outputFormat, 8)
        buffer.region(0).initializeMemory(as: UInt8.self, repeating: 0x5A)
        let odd: [UInt8] = [0xD5, 0xD5, 0xD5]
        expectCodecError(.badData) { try odd.withUnsafeBytes { try decoder.decode(packet: $0, frames: nil, into: buffer) } }
        #expect(buffer.frameLength == 1)
        #expect(validBytes(buffer) == [0, 0, 0, 0])
        let two: [UInt8] = [0xD5, 0xD5, 0xD5, 0xD5]
        expectCodecError(.badData) { try two.withUnsafeBytes { try decoder.decode(packet: $0, frames: 3, into: buffer) } }
        #expect(buffer.frameLength == 4)
        // Then good data decodes after it.
        try two.withUnsafeBytes { _ = try decoder.decode(packet: $0, frames: 2, into: buffer) }
        #expect(unpack(validBytes(buffer), as: Int16.self).suffix(4) == [8, 8, 8, 8])
    }

    @Test func noRoomAndWrongBufferAppendNothing() throws {
        let decoder = try G711Decoder(input: Self.format(.uLaw), magicCookie: nil)
        let buffer = try makeBuffer(decoder.outputFormat, 2)
        let three: [UInt8] = [1, 2, 3]
        expectCodecError(.invalidOutputSize) { try three.withUnsafeBytes { try decoder.decode(packet: $0, frames: nil, into: buffer) } }
        #expect(buffer.frameLength == 0)
        let wrong = try makeBuffer(float32, 16)
        expectCodecError(.formatNotSupported) { try three.withUnsafeBytes { try decoder.decode(packet: $0, frames: nil, into: wrong) } }
        #expect(wrong.frameLength == 0)
    }
}
