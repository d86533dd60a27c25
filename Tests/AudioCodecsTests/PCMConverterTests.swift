import Testing
import AudioCore
import AudioCodecs

@Suite("PCMConverter exactness, rounding and layouts")
struct PCMConverterTests {
    static let allInt16: [Int16] = (Int(Int16.min)...Int(Int16.max)).map { Int16($0) }

    @Test(arguments: [false, true])
    func int16ToFloat32IsExactAndBack(bigEndian: Bool) throws {
        let source = lpcm(bits: 16, bigEndian: bigEndian)
        let floats = try convert(pack(Self.allInt16, bigEndian: bigEndian), frames: 65536, from: source, to: float32)
        let values = unpackFloats(validBytes(floats))
        expectEqualArrays(values, Self.allInt16.map { Float(Double($0) / 32768) })
        #expect(values.first == -1 && values.last == Float(32767.0 / 32768))
        let back = try convert(validBytes(floats), frames: 65536, from: float32, to: source)
        expectEqualArrays(unpack(validBytes(back), as: Int16.self, bigEndian: bigEndian), Self.allInt16)
    }

    @Test func int16WidensExactlyToEveryFormat() throws {
        let bytes = pack(Self.allInt16)
        let wide32 = try convert(bytes, frames: 65536, from: int16, to: int32)
        expectEqualArrays(unpack(validBytes(wide32), as: Int32.self), Self.allInt16.map { Int32($0) * 65536 })
        let wide24 = try convert(bytes, frames: 65536, from: int16, to: lpcm(bits: 24, bigEndian: true))
        expectEqualArrays(unpack24(validBytes(wide24), bigEndian: true), Self.allInt16.map { Int32($0) * 256 })
        let doubles = try convert(bytes, frames: 65536, from: int16, to: float64)
        expectEqualArrays(unpackDoubles(validBytes(doubles)), Self.allInt16.map { Double($0) / 32768 })
        let same = try convert(bytes, frames: 65536, from: int16, to: int16)
        expectEqualArrays(validBytes(same), bytes)
    }

    @Test func int24AndFloat32RoundTripOnASweep() throws {
        var values: [Int32] = Array(stride(from: -8_388_608, through: 8_388_607, by: 97))
        values += [-8_388_608, -8_388_607, -1, 0, 1, 8_388_606, 8_388_607]
        for bigEndian in [false, true] {
            let source = lpcm(bits: 24, bigEndian: bigEndian)
            let floats = try convert(pack24(values, bigEndian: bigEndian), frames: values.count, from: source, to: float32)
            expectEqualArrays(unpackFloats(validBytes(floats)), values.map { Float(Double($0) / 8_388_608) })
            let back = try convert(validBytes(floats), frames: values.count, from: float32, to: source)
            expectEqualArrays(unpack24(validBytes(back), bigEndian: bigEndian), values)
        }
    }

    @Test func int32ToFloat64IsExactAndToFloat32RoundsOnce() throws {
        let values: [Int32] = [.min, .min + 1, -16_777_219, -1, 0, 1, 16_777_217, 16_777_219, 0x7FFF_FF80, .max]
        let doubles = try convert(pack(values, bigEndian: true), frames: values.count, from: lpcm(bits: 32, bigEndian: true), to: float64)
        #expect(unpackDoubles(validBytes(doubles)) == values.map { Double($0) / 2_147_483_648 })
        let floats = try convert(pack(values), frames: values.count, from: int32, to: float32)
        // 2^24 + 1 and 2^24 + 3 are ties between Floats: to even. 2^31 − 1 rounds up to 2^31.
        let expected: [Float] = [
            -1, -1, -16_777_220 / 2_147_483_648, -1 / 2_147_483_648, 0, 1 / 2_147_483_648,
            16_777_216 / 2_147_483_648, 16_777_220 / 2_147_483_648, 2_147_483_520 / 2_147_483_648, 1,
        ]
        #expect(unpackFloats(validBytes(floats)) == expected)
    }

    @Test func float32ToFloat64IsExactAndBack() throws {
        let values: [Float] = [0, -0.0, 1, -1, .ulpOfOne, .leastNonzeroMagnitude, .greatestFiniteMagnitude, 0.1, -0.3, .infinity]
        let doubles = try convert(packFloats(values), frames: values.count, from: float32, to: float64)
        #expect(unpackDoubles(validBytes(doubles)) == values.map(Double.init))
        let back = try convert(validBytes(doubles), frames: values.count, from: float64, to: lpcm(bits: 32, float: true, bigEndian: true))
        #expect(unpackFloats(validBytes(back), bigEndian: true) == values)
    }

    @Test func float64ToFloat32RoundsToNearestEven() throws {
        let u = 1.0 / 16_777_216  // 2^-24, half an ulp of Float at 1
        let values = [1 + u, 1 + 3 * u, 1 + u + u / 65536, -(1 + u), 0.1]
        let floats = try convert(packDoubles(values), frames: values.count, from: float64, to: float32)
        let expected: [Float] = [1, 1 + 4 * Float(u), 1 + 2 * Float(u), -1, 0.1]
        #expect(unpackFloats(validBytes(floats)) == expected)
    }

    @Test func float64ToInt32RoundsTiesToEvenAndClips() throws {
        let s = 2_147_483_648.0
        let values = [0.5 / s, 1.5 / s, 2.5 / s, 3.5 / s, -0.5 / s, -1.5 / s, -2.5 / s, 2.4 / s, 2.6 / s,
                      1.0, -1.0, 2_147_483_646.5 / s, 2_147_483_647.5 / s, -2_147_483_648.5 / s,
                      4.0, -4.0, .infinity, -.infinity, .nan, Double(nan: 0x5_4321, signaling: false), -.nan]
        let expected: [Int32] = [0, 2, 2, 4, 0, -2, -2, 2, 3,
                                 .max, .min, 2_147_483_646, .max, .min,
                                 .max, .min, .max, .min, 0, 0, 0]
        let ints = try convert(packDoubles(values), frames: values.count, from: float64, to: int32)
        #expect(unpack(validBytes(ints), as: Int32.self) == expected)
        let bigEndian = try convert(packDoubles(values, bigEndian: true), frames: values.count,
                                    from: lpcm(bits: 64, float: true, bigEndian: true), to: lpcm(bits: 32, bigEndian: true))
        #expect(unpack(validBytes(bigEndian), as: Int32.self, bigEndian: true) == expected)
    }

    @Test(arguments: [false, true])
    func float32ToInt16RoundsAndClips(bigEndian: Bool) throws {
        let s: Float = 32768
        let values: [Float] = [1, -1, 0.5 / s, 1.5 / s, 2.5 / s, -2.5 / s, -3.5 / s, 32766.5 / s, 32767.5 / s, 1.5,
                               -1.0001, 0.3 / s, -0.7 / s, .infinity, -.infinity, .nan, -0.0,
                               Float(nan: 0x1234, signaling: false)]
        let expected: [Int16] = [32767, -32768, 0, 2, 2, -2, -4, 32766, 32767, 32767,
                                 -32768, 0, -1, 32767, -32768, 0, 0, 0]
        let ints = try convert(packFloats(values, bigEndian: bigEndian), frames: values.count,
                               from: lpcm(bits: 32, float: true, bigEndian: bigEndian), to: int16)
        #expect(unpack(validBytes(ints), as: Int16.self) == expected)
        let viaDouble = try convert(packDoubles(values.map(Double.init)), frames: values.count, from: float64, to: int16)
        #expect(unpack(validBytes(viaDouble), as: Int16.self) == expected)
        // To big-endian Int16 (the general path): the same values.
        let swapped = try convert(packFloats(values), frames: values.count, from: float32, to: lpcm(bits: 16, bigEndian: true))
        #expect(unpack(validBytes(swapped), as: Int16.self, bigEndian: true) == expected)
    }

    @Test func float32ToInt24AndInt32RoundAndClip() throws {
        let s24: Float = 8_388_608
        let values: [Float] = [1, -1, 0.5 / s24, 1.5 / s24, -2.5 / s24, 8_388_606.5 / s24, 2, Float(nan: 0x2345, signaling: false)]
        let i24 = try convert(packFloats(values), frames: values.count, from: float32, to: int24)
        #expect(unpack24(validBytes(i24)) == [8_388_607, -8_388_608, 0, 2, -2, 8_388_606, 8_388_607, 0])
        let i24be = try convert(packFloats(values), frames: values.count, from: float32, to: lpcm(bits: 24, bigEndian: true))
        #expect(unpack24(validBytes(i24be), bigEndian: true) == [8_388_607, -8_388_608, 0, 2, -2, 8_388_606, 8_388_607, 0])
        let s32: Float = 2_147_483_648
        let v32: [Float] = [1, -1, 0.5 / s32, 1.5 / s32, 0.75, -0.75, 1 - .ulpOfOne / 2]
        let i32 = try convert(packFloats(v32), frames: v32.count, from: float32, to: int32)
        #expect(unpack(validBytes(i32), as: Int32.self) == [.max, .min, 0, 2, 1_610_612_736, -1_610_612_736, 2_147_483_520])
    }

    @Test func narrowingIntegersRoundsTiesToEvenAndClips() throws {
        let values: [Int32] = [0x0000_8000, 0x0001_8000, 0x0002_8000, 0x0000_7FFF, 0x0000_8001, -0x8000, -0x1_8000,
                               -0x2_8000, 0x7FFF_7FFF, 0x7FFF_8000, .max, .min, -0x7FFF_8000]
        let expected: [Int16] = [0, 2, 2, 0, 1, 0, -2, -2, 32767, 32767, 32767, -32768, -32768]
        let fromLittle = try convert(pack(values), frames: values.count, from: int32, to: int16)
        #expect(unpack(validBytes(fromLittle), as: Int16.self) == expected)
        let fromBig = try convert(pack(values, bigEndian: true), frames: values.count, from: lpcm(bits: 32, bigEndian: true), to: int16)
        #expect(unpack(validBytes(fromBig), as: Int16.self) == expected)
        // Int32 → Int24 (general path), and Int24 → Int16.
        let to24 = try convert(pack(values), frames: values.count, from: int32, to: int24)
        #expect(unpack24(validBytes(to24)) == [0x80, 0x180, 0x280, 0x80, 0x80, -0x80, -0x180, -0x280, 0x7F_FF80, 0x7F_FF80, 0x7F_FFFF, -0x80_0000, -0x7F_FF80])
        let v24: [Int32] = [0x80, 0x180, -0x80, -0x180, 0x7F_FFFF, 0x7F_FF7F, -0x80_0000, 0x7F]
        let e16: [Int16] = [0, 2, 0, -2, 32767, 32767, -32768, 0]
        for bigEndian in [false, true] {
            let n = try convert(pack24(v24, bigEndian: bigEndian), frames: v24.count, from: lpcm(bits: 24, bigEndian: bigEndian), to: int16)
            #expect(unpack(validBytes(n), as: Int16.self) == e16)
        }
    }

    @Test func eightBitFormats() throws {
        let unsigned: [UInt8] = [0, 1, 127, 128, 129, 255]
        let u8 = lpcm(bits: 8, signed: false)
        let f = try convert(unsigned, frames: 6, from: u8, to: float32)
        let expectedFloats: [Float] = [-1, -127.0 / 128, -1.0 / 128, 0, 1.0 / 128, 127.0 / 128]
        #expect(unpackFloats(validBytes(f)) == expectedFloats)
        let i = try convert(unsigned, frames: 6, from: u8, to: int16)
        #expect(unpack(validBytes(i), as: Int16.self) == [-32768, -32512, -256, 0, 256, 32512])
        let back = try convert(validBytes(f), frames: 6, from: float32, to: u8)
        #expect(validBytes(back) == unsigned)
        let clipped = try convert(packFloats([1, -1, 0, 0.5 / 128, 1.5 / 128]), frames: 5, from: float32, to: u8)
        #expect(validBytes(clipped) == [255, 0, 128, 128, 130])
        let s8 = lpcm(bits: 8)
        let signed = try convert([0x80, 0xFF, 0x00, 0x01, 0x7F], frames: 5, from: s8, to: int16)
        #expect(unpack(validBytes(signed), as: Int16.self) == [-32768, -256, 0, 256, 32512])
        let toUnsigned = try convert([0x80, 0xFF, 0x00, 0x01, 0x7F], frames: 5, from: s8, to: u8)
        #expect(validBytes(toUnsigned) == [0x00, 0x7F, 0x80, 0x81, 0xFF])
        let narrowed = try convert(pack([Int16(-32768), -129, -128, 127, 128, 32767]), frames: 6, from: int16, to: u8)
        // −129/256 → −0.504 → −1; −128/256 = −0.5 → 0 (even); 127/256 → 0; 128/256 → 0; 32767/256 → 128 → 127.
        #expect(validBytes(narrowed) == [0x00, 0x7F, 0x80, 0x80, 0x80, 0xFF])
    }

    @Test func unsigned16BitBigEndian() throws {
        let u16be = lpcm(bits: 16, signed: false, bigEndian: true)
        let values: [UInt16] = [0, 0x8000, 0xFFFF, 0x7FFF]
        let f = try convert(pack(values, bigEndian: true), frames: 4, from: u16be, to: float32)
        #expect(unpackFloats(validBytes(f)) == [-1, 0, 32767.0 / 32768, -1.0 / 32768])
        let i = try convert(pack(values, bigEndian: true), frames: 4, from: u16be, to: int16)
        #expect(unpack(validBytes(i), as: Int16.self) == [-32768, 0, 32767, -1])
    }

    /// 20-bit samples in 3 bytes, high-aligned (the low 4 bits are padding) or low-aligned.
    @Test(arguments: [false, true])
    func twentyBitInThreeBytes(bigEndian: Bool) throws {
        let values: [Int32] = [-524_288, -1, 0, 1, 0x3_4567, 524_287]
        let high = lpcm(bits: 20, word: 3, bigEndian: bigEndian, alignedHigh: true)
        let low = lpcm(bits: 20, word: 3, bigEndian: bigEndian, alignedHigh: false)
        // Padding bits set to garbage must be ignored.
        let highBytes = packWords(values.map { (UInt32(bitPattern: $0) << 4 | 0xA) & 0xFF_FFFF }, width: 3, bigEndian: bigEndian)
        let lowBytes = packWords(values.map { UInt32(bitPattern: $0) & 0xF_FFFF | 0x50_0000 }, width: 3, bigEndian: bigEndian)
        for (bytes, format) in [(highBytes, high), (lowBytes, low)] {
            let wide = try convert(bytes, frames: values.count, from: format, to: int32)
            #expect(unpack(validBytes(wide), as: Int32.self) == values.map { $0 << 12 })
            let floats = try convert(bytes, frames: values.count, from: format, to: float32)
            #expect(unpackFloats(validBytes(floats)) == values.map { Float(Double($0) / 524_288) })
        }
        // Writing: high-aligned has zero padding; low-aligned is sign-extended.
        let floats = packFloats(values.map { Float(Double($0) / 524_288) })
        let outHigh = try convert(floats, frames: values.count, from: float32, to: high)
        #expect(unpackWords(validBytes(outHigh), width: 3, bigEndian: bigEndian) == values.map { (UInt32(bitPattern: $0) << 4) & 0xFF_FFFF })
        let outLow = try convert(floats, frames: values.count, from: float32, to: low)
        #expect(unpackWords(validBytes(outLow), width: 3, bigEndian: bigEndian) == values.map { UInt32(bitPattern: $0) & 0xFF_FFFF })
        // Rounding into 20 bits: 24-bit 0x18 is 1.5 LSB of 20 bits → 2; 0x28 → 2; 0x7FFFFF → clip.
        let narrowed = try convert(pack24([0x18, 0x28, 0x7F_FFFF, -0x18]), frames: 4, from: int24, to: high)
        #expect(unpackWords(validBytes(narrowed), width: 3, bigEndian: bigEndian) == [0x20, 0x20, 0x7F_FFF0, 0xFF_FFE0])
    }

    @Test func twelveBitInTwoBytesHighAligned() throws {
        let format = lpcm(bits: 12, word: 2, bigEndian: true, alignedHigh: true)
        let values: [Int16] = [-2048, -1, 0, 1, 2047]
        let bytes = pack(values.map { $0 << 4 }, bigEndian: true)
        let i16 = try convert(bytes, frames: 5, from: format, to: int16)
        #expect(unpack(validBytes(i16), as: Int16.self) == values.map { $0 << 4 })
        let f = try convert(bytes, frames: 5, from: format, to: float32)
        #expect(unpackFloats(validBytes(f)) == values.map { Float($0) / 2048 })
        let back = try convert(validBytes(f), frames: 5, from: float32, to: format)
        #expect(validBytes(back) == bytes)
    }

    @Test func twentyFourInThirtyTwo() throws {
        let values: [Int32] = [-8_388_608, -2, 0, 3, 8_388_607]
        let high = lpcm(bits: 24, word: 4, alignedHigh: true)
        let low = lpcm(bits: 24, word: 4, bigEndian: true, alignedHigh: false)
        let highBytes = pack(values.map { $0 << 8 | 0x11 })
        let lowBytes = pack(values.map { $0 & 0xFF_FFFF }, bigEndian: true)  // upper byte zero, not sign
        let expectedFloats = values.map { Float(Double($0) / 8_388_608) }
        for (bytes, format) in [(highBytes, high), (lowBytes, low)] {
            let f = try convert(bytes, frames: 5, from: format, to: float32)
            #expect(unpackFloats(validBytes(f)) == expectedFloats)
            let i = try convert(bytes, frames: 5, from: format, to: int24)
            #expect(unpack24(validBytes(i)) == values)
        }
        let outHigh = try convert(packFloats(expectedFloats), frames: 5, from: float32, to: high)
        #expect(unpack(validBytes(outHigh), as: Int32.self) == values.map { $0 << 8 })
        let outLow = try convert(packFloats(expectedFloats), frames: 5, from: float32, to: low)
        #expect(unpack(validBytes(outLow), as: Int32.self, bigEndian: true) == values)
    }

    @Test func byteOrder() throws {
        let be16 = try convert([0x12, 0x34, 0xFF, 0xFE], frames: 2, from: lpcm(bits: 16, bigEndian: true), to: int16)
        #expect(validBytes(be16) == [0x34, 0x12, 0xFE, 0xFF])
        let le32 = try convert([1, 2, 3, 4], frames: 1, from: int32, to: lpcm(bits: 32, bigEndian: true))
        #expect(validBytes(le32) == [4, 3, 2, 1])
        let f32be = try convert([0x3F, 0x80, 0, 0], frames: 1, from: lpcm(bits: 32, float: true, bigEndian: true), to: float32)
        #expect(unpackFloats(validBytes(f32be)) == [1])
        let f64be = try convert(packDoubles([-0.25], bigEndian: true), frames: 1, from: lpcm(bits: 64, float: true, bigEndian: true), to: float64)
        #expect(unpackDoubles(validBytes(f64be)) == [-0.25])
    }

    @Test func nonInterleavedDestinationAndSource() throws {
        let left: [Int16] = [1, -2, 300, -32768, 32767]
        let right: [Int16] = [-5, 6, -700, 32767, 0]
        let interleaved = pack(zip(left, right).flatMap { [$0, $1] }, bigEndian: true)
        let source = lpcm(bits: 16, bigEndian: true, channels: 2)
        for output in [lpcm(bits: 32, float: true, channels: 2, interleaved: false),
                       lpcm(bits: 32, float: true, bigEndian: true, channels: 2, interleaved: false)] {
            let split = try convert(interleaved, frames: 5, from: source, to: output)
            #expect(split.regionCount == 2)
            let be = output.isBigEndian
            #expect(unpackFloats(validBytes(split, region: 0), bigEndian: be) == left.map { Float($0) / 32768 })
            #expect(unpackFloats(validBytes(split, region: 1), bigEndian: be) == right.map { Float($0) / 32768 })

            // Back from the non-interleaved buffer to interleaved Int16, and to non-interleaved Int16.
            let converter = try PCMConverter(from: output, to: int16Stereo)
            let joined = try makeBuffer(int16Stereo, 5)
            try converter.convert(split, appendingTo: joined)
            #expect(unpack(validBytes(joined), as: Int16.self) == zip(left, right).flatMap { [$0, $1] })
            let planarInt16 = lpcm(bits: 16, channels: 2, interleaved: false)
            let planar = try makeBuffer(planarInt16, 5)
            try PCMConverter(from: output, to: planarInt16).convert(split, appendingTo: planar)
            #expect(unpack(validBytes(planar, region: 0), as: Int16.self) == left)
            #expect(unpack(validBytes(planar, region: 1), as: Int16.self) == right)
        }
        // The raw overload reads a non-interleaved input as channel regions back to back.
        let planarInput = pack(left + right)
        let joined = try convert(planarInput, frames: 5, from: lpcm(bits: 16, channels: 2, interleaved: false), to: int16Stereo)
        #expect(unpack(validBytes(joined), as: Int16.self) == zip(left, right).flatMap { [$0, $1] })
    }

    let int16Stereo = lpcm(bits: 16, channels: 2)

    @Test func appendsAfterExistingFrames() throws {
        let converter = try PCMConverter(from: lpcm(bits: 16, bigEndian: true, channels: 2), to: lpcm(bits: 32, float: true, channels: 2))
        let buffer = try makeBuffer(converter.output, 4)
        let a = pack([Int16(16384), -16384], bigEndian: true)
        let b = pack([Int16(8192), -8192, 4096, -4096], bigEndian: true)
        try a.withUnsafeBytes { try converter.convert($0, frameCount: 1, appendingTo: buffer) }
        try b.withUnsafeBytes { try converter.convert($0, frameCount: 2, appendingTo: buffer) }
        #expect(buffer.frameLength == 3)
        #expect(unpackFloats(validBytes(buffer)) == [0.5, -0.5, 0.25, -0.25, 0.125, -0.125])
        // A zero-frame conversion changes nothing.
        try [UInt8]().withUnsafeBytes { try converter.convert($0, frameCount: 0, appendingTo: buffer) }
        #expect(buffer.frameLength == 3)
    }

    @Test func errorsNeverTrapAndAppendNothing() throws {
        expectCodecError(.formatNotSupported) { try PCMConverter(from: int16, to: lpcm(bits: 16, rate: 44100)) }
        expectCodecError(.formatNotSupported) { try PCMConverter(from: int16, to: lpcm(bits: 16, channels: 2)) }
        expectCodecError(.formatNotSupported) { try PCMConverter(from: G711Tests.format(.aLaw), to: int16) }
        expectCodecError(.formatNotSupported) { try PCMConverter(from: int16, to: lpcm(bits: 16, float: true)) }
        expectCodecError(.formatNotSupported) { try PCMConverter(from: lpcm(bits: 64), to: int16) }
        expectCodecError(.formatNotSupported) { try PCMConverter(from: lpcm(bits: 20, word: 2), to: int16) }
        var zeroBits = int16
        zeroBits.bitsPerChannel = 0
        expectCodecError(.formatNotSupported) { try PCMConverter(from: zeroBits, to: int16) }
        var oddFrame = lpcm(bits: 16, channels: 2)
        oddFrame.bytesPerFrame = 5
        expectCodecError(.formatNotSupported) { try PCMConverter(from: oddFrame, to: int16Stereo) }
        var fixedPoint = int32
        fixedPoint.formatFlags.insert(AudioFormatFlags(rawValue: 24 << AudioFormatFlags.sampleFractionShift))
        expectCodecError(.formatNotSupported) { try PCMConverter(from: fixedPoint, to: int16) }

        let converter = try PCMConverter(from: int16, to: float32)
        let small = try makeBuffer(float32, 2)
        let three = pack([Int16(1), 2, 3])
        expectCodecError(.invalidOutputSize) { try three.withUnsafeBytes { try converter.convert($0, frameCount: 3, appendingTo: small) } }
        expectCodecError(.invalidInputSize) { try three.withUnsafeBytes { try converter.convert($0, frameCount: 4, appendingTo: small) } }
        expectCodecError(.invalidInputSize) { try three.withUnsafeBytes { try converter.convert($0, frameCount: -1, appendingTo: small) } }
        expectCodecError(.invalidInputSize) { try three.withUnsafeBytes { try converter.convert($0, frameCount: .max, appendingTo: small) } }
        #expect(small.frameLength == 0)
        let wrong = try makeBuffer(float64, 8)
        expectCodecError(.formatNotSupported) { try three.withUnsafeBytes { try converter.convert($0, frameCount: 1, appendingTo: wrong) } }
        #expect(wrong.frameLength == 0)

        let source = try makeBuffer(int16, 3)
        source.frameLength = 3
        expectCodecError(.invalidOutputSize) { try converter.convert(source, appendingTo: small) }
        expectCodecError(.formatNotSupported) { try converter.convert(small, appendingTo: small) }
        #expect(small.frameLength == 0)
    }
}
