import Testing
import ProcessSupport
import AudioCore
import AudioCodecs

/// The converter against ffmpeg's conversions of the same noise (pcm-noise.* from
/// Scripts/fixtures/make_codec_refs.sh), where ffmpeg's conventions are the converter's.
@Suite("PCMConverter against ffmpeg")
struct PCMConverterReferenceTests {
    static let frames = 1024

    /// The description of an ffmpeg raw format name, stereo.
    static func format(_ name: String) -> AudioStreamBasicDescription {
        let bigEndian = name.hasSuffix("be")
        switch name.prefix(3) {
        case "u8": return lpcm(bits: 8, signed: false, channels: 2)
        case "s8": return lpcm(bits: 8, channels: 2)
        case "s16": return lpcm(bits: 16, bigEndian: bigEndian, channels: 2)
        case "s24": return lpcm(bits: 24, bigEndian: bigEndian, channels: 2)
        case "s32": return lpcm(bits: 32, bigEndian: bigEndian, channels: 2)
        case "f32": return lpcm(bits: 32, float: true, bigEndian: bigEndian, channels: 2)
        default: return lpcm(bits: 64, float: true, bigEndian: bigEndian, channels: 2)
        }
    }

    /// Every pair the fixture script converted with ffmpeg.
    static let pairs: [(String, String)] =
        ["u8", "s8", "s16le", "s16be", "s24le", "s24be", "s32le", "s32be", "f32be", "f64le", "f64be"].map { ($0, "f32le") }
        + ["u8", "s8", "s16be", "f32le", "f32be", "f64le", "f64be"].map { ($0, "s16le") }
        + ["s16le", "s16be", "f32le", "f64be"].map { ($0, "s32le") }
        + ["s16be", "s24le", "s32be", "f32le"].map { ($0, "f64le") }

    /// Splits interleaved stereo bytes into the two channels' bytes.
    static func deinterleave(_ bytes: [UInt8], word: Int) -> [[UInt8]] {
        (0..<2).map { channel in
            stride(from: channel * word, to: bytes.count, by: 2 * word).flatMap { bytes[$0..<$0 + word] }
        }
    }

    static func swapWords(_ bytes: [UInt8], word: Int) -> [UInt8] {
        stride(from: 0, to: bytes.count, by: word).flatMap { bytes[$0..<$0 + word].reversed() }
    }

    @Test(arguments: pairs)
    func matchesFFmpeg(from: String, to: String) throws {
        let source = try Fixtures.codecBytes("pcm-noise.\(from)")
        let reference = try Fixtures.codecBytes("pcm-noise.\(from).\(to)")
        let input = Self.format(from)
        let output = Self.format(to)
        let inWord = Int(input.bytesPerFrame) / 2
        let outWord = Int(output.bytesPerFrame) / 2
        #expect(source.count == Self.frames * 2 * inWord)
        #expect(reference.count == Self.frames * 2 * outWord)

        // Interleaved to interleaved.
        let direct = try convert(source, frames: Self.frames, from: input, to: output)
        expectEqualArrays(validBytes(direct), reference, "interleaved")

        // To a non-interleaved destination.
        var planarOutput = output
        planarOutput.formatFlags.insert(.isNonInterleaved)
        planarOutput.bytesPerFrame /= 2
        planarOutput.bytesPerPacket /= 2
        let planar = try convert(source, frames: Self.frames, from: input, to: planarOutput)
        let referenceChannels = Self.deinterleave(reference, word: outWord)
        expectEqualArrays(validBytes(planar, region: 0), referenceChannels[0], "non-interleaved left")
        expectEqualArrays(validBytes(planar, region: 1), referenceChannels[1], "non-interleaved right")

        // From a non-interleaved source buffer (filled by hand) to the other byte order, which
        // takes the converter's general path.
        var planarInput = input
        planarInput.formatFlags.insert(.isNonInterleaved)
        planarInput.bytesPerFrame /= 2
        planarInput.bytesPerPacket /= 2
        let sourceBuffer = try makeBuffer(planarInput, Self.frames)
        for (channel, bytes) in Self.deinterleave(source, word: inWord).enumerated() {
            sourceBuffer.region(channel).copyBytes(from: bytes)
        }
        sourceBuffer.frameLength = Self.frames
        var swappedOutput = output
        if outWord > 1 { swappedOutput.formatFlags.formSymmetricDifference(.isBigEndian) }
        let swapped = try makeBuffer(swappedOutput, Self.frames)
        try PCMConverter(from: planarInput, to: swappedOutput).convert(sourceBuffer, appendingTo: swapped)
        expectEqualArrays(validBytes(swapped), Self.swapWords(reference, word: outWord), "from non-interleaved, other byte order")
    }

    /// Sanity of the references themselves: the tie channel really holds ties, and the
    /// noise goes beyond full scale, so rounding and clipping are exercised.
    @Test func referencesExerciseTiesAndClipping() throws {
        let doubles = unpackDoubles(try Fixtures.codecBytes("pcm-noise.f64le"))
        #expect(doubles.count == 2048)
        let ties = stride(from: 1, to: doubles.count, by: 2).map { doubles[$0] * 32768 }
        #expect(ties.allSatisfy { $0 - $0.rounded(.down) == 0.5 })
        #expect(doubles.contains { $0 > 1 } && doubles.contains { $0 < -1 })
    }
}
