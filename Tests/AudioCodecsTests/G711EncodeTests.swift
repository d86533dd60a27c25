import Testing
import ProcessSupport
import AudioCore
import AudioCodecs

/// G.711 compression of every 16-bit value, against other programs' encoders.
///
/// Which reference is ITU-T G.711: the ITU's own implementation (ITU-T G.191's `alaw_compress`
/// and `ulaw_compress`) compresses the 13 (A-law) or 14 (µ-law) most significant bits with
/// G.711's decision values, and codes a negative 16-bit `x` as the mirror of `~x` (= −x − 1),
/// so that x and ~x get the same code but for the sign.
///
/// - Python's `audioop` (CPython's copy of Sun's g711.c) does exactly that for A-law. For µ-law
///   it negates in two's complement after dropping 2 bits (−(x >> 2)), one 14-bit step away from
///   G.191 for every negative input; its non-negative half is G.191's. So: A-law is checked
///   against audioop for all 65,536 inputs, µ-law for the 32,768 non-negative ones, and every
///   negative input's code against audioop's code for ~x with the sign bit cleared (G.711's
///   sign-magnitude mirror), so every µ-law input is checked against audioop too.
/// - ffmpeg's `pcm_alaw` / `pcm_mulaw` encoders are not G.711-exact: their 16,384-entry tables
///   (libavcodec/pcm_tablegen.h, `build_xlaw_table`) are built from g711.c's *decoders*, with
///   each decision value at the midpoint of two neighbouring reconstruction values, at 14-bit
///   precision. Inside a segment that is G.711's decision value; at a segment edge it is not
///   (the step size doubles there: A-law's edge at 16384 becomes 16512), and negative inputs
///   are negated in two's complement. The two disagree on 964 of the 65,536 inputs per law
///   (measured when the fixtures were made); the test checks that every disagreement is between
///   two neighbouring levels of the same sign and that they agree everywhere else.
@Suite("G.711 encoder")
struct G711EncodeTests {
    static func format(_ id: AudioFormatID, channels: UInt32 = 1) -> AudioStreamBasicDescription {
        AudioStreamBasicDescription(
            sampleRate: 8000, formatID: id, bytesPerPacket: channels, framesPerPacket: 1, bytesPerFrame: channels,
            channelsPerFrame: channels, bitsPerChannel: 8)
    }

    /// Every 16-bit value, ascending: the order of the reference files.
    static let ramp: [Int16] = (-32768...32767).map { Int16($0) }

    /// Our code for each 16-bit value, encoded from the Float32 value that stands for it exactly.
    static func encodeRamp(_ id: AudioFormatID) throws -> [UInt8] {
        let output = format(id)
        let encoder = try G711Encoder(input: floatInput(for: output), output: output)
        let (bytes, result) = try encode(encoder, floats(ramp), frames: ramp.count)
        #expect(result.packetCount == ramp.count && result.paddingFrames == 0)
        return bytes
    }

    /// The index in the ramp (and the reference files) of a 16-bit value.
    static func index(_ x: Int) -> Int { x + 32768 }

    @Test func aLawMatchesTheITUReferenceForAllInputs() throws {
        let reference = try EncoderFixtures.bytes("g711-audioop.alaw")
        try #require(reference.count == 65536)
        expectEqualArrays(try Self.encodeRamp(.aLaw), reference, "A-law codes of -32768...32767")
    }

    @Test func muLawMatchesTheITUReferenceForAllInputs() throws {
        let reference = try EncoderFixtures.bytes("g711-audioop.ulaw")
        try #require(reference.count == 65536)
        let ours = try Self.encodeRamp(.uLaw)
        let nonNegative = Self.index(0)...
        expectEqualArrays(Array(ours[nonNegative]), Array(reference[nonNegative]), "µ-law codes of 0...32767")
        // A negative x is coded as ~x (= −x − 1, non-negative) with the sign bit cleared.
        let mirrored = (-32768 ... -1).map { x in reference[Self.index(~x)] & 0x7F }
        expectEqualArrays(Array(ours[..<Self.index(0)]), mirrored, "µ-law codes of -32768...-1")
    }

    /// ffmpeg agrees wherever its table is G.711's (see the suite's comment); where it does not,
    /// its code is the neighbouring level of the same sign.
    @Test(arguments: [("alaw", AudioFormatID.aLaw), ("ulaw", AudioFormatID.uLaw)])
    func differsFromFFmpegOnlyByOneLevelAtDecisionValues(name: String, id: AudioFormatID) throws {
        let ffmpeg = try EncoderFixtures.bytes("g711-ffmpeg.\(name)")
        try #require(ffmpeg.count == 65536)
        let ours = try Self.encodeRamp(id)
        let decoder = try G711Decoder(input: Self.format(id), magicCookie: nil)
        let levels = try Self.decodeEveryByte(decoder)
        // A code's rank among the 128 levels of its sign (bit 7 set: positive, in both laws).
        let magnitudes = Set(levels.map { abs(Int($0)) }).sorted()
        #expect(magnitudes.count == 128)
        func rank(_ code: UInt8) -> Int { magnitudes.firstIndex(of: abs(Int(levels[Int(code)])))! }
        var differences = 0
        for i in 0..<65536 where ours[i] != ffmpeg[i] {
            differences += 1
            let sameSign = ours[i] & 0x80 == ffmpeg[i] & 0x80
            if !sameSign || abs(rank(ours[i]) - rank(ffmpeg[i])) != 1 {
                let (a, b) = (levels[Int(ours[i])], levels[Int(ffmpeg[i])])
                Issue.record("input \(i - 32768): ours \(ours[i]) (\(a)), ffmpeg \(ffmpeg[i]) (\(b))")
                break
            }
        }
        // A few inputs around some of the decision values, not a different rule.
        #expect(differences > 0 && differences < 65536 / 50, "\(differences) inputs differ")
    }

    static func decodeEveryByte(_ decoder: G711Decoder) throws -> [Int16] {
        let bytes = (0...255).map { UInt8($0) }
        let buffer = try makeBuffer(decoder.outputFormat, 256)
        try bytes.withUnsafeBytes { _ = try decoder.decode(packet: $0, frames: 256, into: buffer) }
        return unpack(validBytes(buffer), as: Int16.self)
    }

    /// Each byte decoded by ``G711Decoder`` (ffmpeg's expansion, checked in G711Tests) and
    /// encoded again gives the byte back: the reconstruction values lie inside their own
    /// intervals. The one exception is µ-law's negative zero (0x7F), which decodes to 0 and is
    /// coded as positive zero (0xFF).
    @Test(arguments: [AudioFormatID.aLaw, .uLaw])
    func decodeThenEncodeGivesTheByteBack(id: AudioFormatID) throws {
        let decoded = try Self.decodeEveryByte(G711Decoder(input: Self.format(id), magicCookie: nil))
        let encoder = try G711Encoder(input: floatInput(for: Self.format(id)), output: Self.format(id))
        let (again, _) = try encode(encoder, floats(decoded), frames: 256)
        var expected = (0...255).map { UInt8($0) }
        if id == .uLaw { expected[0x7F] = 0xFF }
        #expect(again == expected)
    }

    /// Floats are rounded to 16 bits first as PCMConverter rounds them: ties to even, clipped.
    @Test func roundsFloatsLikeThePCMConverter() throws {
        let values: [Float] = [
            0.5 / 32768, 1.5 / 32768, 2.5 / 32768, -0.5 / 32768, -1.5 / 32768, 255.5 / 32768, 256.5 / 32768,
            -256.5 / 32768, 1.0, 2.0, -1.0, -3.0, .infinity, -.infinity, .nan, 16383.5 / 32768, 16384.5 / 32768,
        ]
        let sixteen = try convert(packFloats(values), frames: values.count, from: float32, to: int16)
        let ints = unpack(validBytes(sixteen), as: Int16.self)
        for (id, name) in [(AudioFormatID.aLaw, "alaw"), (.uLaw, "ulaw")] {
            let encoder = try G711Encoder(input: floatInput(for: Self.format(id)), output: Self.format(id))
            let (fromFloats, _) = try encode(encoder, values, frames: values.count)
            let (fromInts, _) = try encode(encoder, floats(ints), frames: ints.count)
            #expect(fromFloats == fromInts, "\(name)")
        }
    }

    @Test func stereoKeepsTheSampleOrder() throws {
        let reference = try EncoderFixtures.bytes("g711-audioop.alaw")
        let samples: [Int16] = [0, -1, 32767, -32768, 1000, -1000, 16384, -16385]
        let output = Self.format(.aLaw, channels: 2)
        let encoder = try G711Encoder(input: floatInput(for: output), output: output)
        let (bytes, result) = try encode(encoder, floats(samples), frames: 4)
        #expect(result == AudioEncodeResult(packetCount: 4, byteCount: 8))
        #expect(bytes == samples.map { reference[Self.index(Int($0))] })
    }

    /// Values of G.711's tables, worked out by hand: A-law 13-bit and µ-law 14-bit inputs × 8
    /// and × 4.
    @Test func specificationValues() throws {
        func codes(_ id: AudioFormatID, _ samples: [Int16]) throws -> [UInt8] {
            let encoder = try G711Encoder(input: floatInput(for: Self.format(id)), output: Self.format(id))
            return try encode(encoder, floats(samples), frames: samples.count).bytes
        }
        // A-law: 0…15 → segment 0 step 0, positive: 0x80 ^ 0x55 = 0xD5; −1 (~ = 0) → 0x55;
        // 16 → step 1 (0xD4); 256 (12-bit 16) → segment 1 step 0 (0x90 ^ 0x55 = 0xC5);
        // 32767 → segment 7 step 15 (0xFF ^ 0x55 = 0xAA), −32768 → 0x2A.
        #expect(try codes(.aLaw, [0, 15, -1, -16, 16, -17, 256, 32767, -32768]) == [0xD5, 0xD5, 0x55, 0x55, 0xD4, 0x54, 0xC5, 0xAA, 0x2A])
        // µ-law: 0…3 → 0xFF; −1…−4 → 0x7F; 4 → biased 34, step 1: 0xFE; 32767 → biased
        // 8191 (limit) → segment 7 step 15: 0x80; −32768 → 0x00; 124 (14-bit 31: biased 64)
        // → segment 1 step 0: 0xEF.
        #expect(try codes(.uLaw, [0, 3, -1, -4, 4, 32767, -32768, 124, -125]) == [0xFF, 0xFF, 0x7F, 0x7F, 0xFE, 0x80, 0x00, 0xEF, 0x6F])
    }

    @Test func outputFormatIsCompleted() throws {
        var output = AudioStreamBasicDescription(
            sampleRate: 16000, formatID: .uLaw, bytesPerPacket: 0, framesPerPacket: 0, bytesPerFrame: 0, channelsPerFrame: 2,
            bitsPerChannel: 0)
        let encoder = try G711Encoder(input: floatInput(for: output), output: output)
        output.bytesPerPacket = 2
        output.framesPerPacket = 1
        output.bytesPerFrame = 2
        output.bitsPerChannel = 8
        #expect(encoder.outputFormat == output)
        #expect(encoder.framesPerPacket == 1 && encoder.maximumPacketSize == 2 && encoder.magicCookie == nil)
    }

    @Test func rejectsOtherFormats() {
        let input = floatInput(for: Self.format(.aLaw))
        expectCodecError(.formatNotSupported) { try G711Encoder(input: input, output: int16) }
        expectCodecError(.formatNotSupported) { try G711Encoder(input: input, output: Self.format(.aLaw, channels: 0)) }
        var wide = Self.format(.uLaw)
        wide.bytesPerPacket = 2
        expectCodecError(.formatNotSupported) { try G711Encoder(input: input, output: wide) }
        expectCodecError(.formatNotSupported) { try G711Encoder(input: int16, output: Self.format(.uLaw)) }
    }
}
