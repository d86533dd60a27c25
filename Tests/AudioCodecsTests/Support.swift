import Foundation
import Testing
import ProcessSupport
import AudioCore
import AudioCodecs

/// A linear PCM description; `word` defaults to the fewest bytes that hold `bits`.
func lpcm(
    bits: UInt32, word: UInt32? = nil, float: Bool = false, signed: Bool = true, bigEndian: Bool = false,
    alignedHigh: Bool = false, channels: UInt32 = 1, interleaved: Bool = true, rate: Double = 8000
) -> AudioStreamBasicDescription {
    let w = word ?? (bits + 7) / 8
    var flags: AudioFormatFlags = []
    if float { flags.insert(.isFloat) } else if signed { flags.insert(.isSignedInteger) }
    if bigEndian { flags.insert(.isBigEndian) }
    if w * 8 == bits { flags.insert(.isPacked) } else if alignedHigh { flags.insert(.isAlignedHigh) }
    if !interleaved { flags.insert(.isNonInterleaved) }
    let frame = interleaved ? w * channels : w
    return AudioStreamBasicDescription(
        sampleRate: rate, formatID: .linearPCM, formatFlags: flags, bytesPerPacket: frame, framesPerPacket: 1,
        bytesPerFrame: frame, channelsPerFrame: channels, bitsPerChannel: bits)
}

/// The common client formats.
let int16 = lpcm(bits: 16)
let float32 = lpcm(bits: 32, float: true)
let float64 = lpcm(bits: 64, float: true)
let int24 = lpcm(bits: 24)
let int32 = lpcm(bits: 32)

/// Records an issue unless `body` throws an ``AudioCodecError`` with `code`.
func expectCodecError<R>(
    _ code: AudioCodecError.Code, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> R
) {
    do {
        _ = try body()
        Issue.record("expected \(code), but it succeeded", sourceLocation: sourceLocation)
    } catch let error as AudioCodecError {
        #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
    } catch {
        Issue.record("expected \(code), got \(error)", sourceLocation: sourceLocation)
    }
}

func makeBuffer(_ format: AudioStreamBasicDescription, _ frames: Int) throws -> PCMBuffer {
    try #require(PCMBuffer(format: format, frameCapacity: frames))
}

/// The valid bytes of region `index` of `buffer`.
func validBytes(_ buffer: PCMBuffer, region index: Int = 0) -> [UInt8] {
    Array(buffer.region(index)[0..<buffer.byteLength])
}

/// Converts `frames` frames of `bytes` (in `input`) to a new buffer of `output`.
func convert(_ bytes: [UInt8], frames: Int, from input: AudioStreamBasicDescription, to output: AudioStreamBasicDescription) throws -> PCMBuffer {
    let converter = try PCMConverter(from: input, to: output)
    let buffer = try makeBuffer(output, frames)
    try bytes.withUnsafeBytes { try converter.convert($0, frameCount: frames, appendingTo: buffer) }
    #expect(buffer.frameLength == frames)
    return buffer
}

// MARK: - Packing samples into bytes, independently of the code under test

func pack<T: FixedWidthInteger>(_ values: [T], bigEndian: Bool = false) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(values.count * MemoryLayout<T>.size)
    for v in values {
        let u = bigEndian ? v.bigEndian : v.littleEndian
        withUnsafeBytes(of: u) { out.append(contentsOf: $0) }
    }
    return out
}

func unpack<T: FixedWidthInteger>(_ bytes: [UInt8], as type: T.Type, bigEndian: Bool = false) -> [T] {
    let size = MemoryLayout<T>.size
    return stride(from: 0, to: bytes.count - size + 1, by: size).map { offset in
        var v: T = 0
        withUnsafeMutableBytes(of: &v) { $0.copyBytes(from: bytes[offset..<offset + size]) }
        return bigEndian ? T(bigEndian: v) : T(littleEndian: v)
    }
}

/// The low `width` bytes of each value.
func packWords(_ values: [UInt32], width: Int, bigEndian: Bool = false) -> [UInt8] {
    var out: [UInt8] = []
    for v in values {
        let bytes = (0..<width).map { UInt8(truncatingIfNeeded: v >> (8 * UInt32($0))) }
        out += bigEndian ? bytes.reversed() : bytes
    }
    return out
}

func unpackWords(_ bytes: [UInt8], width: Int, bigEndian: Bool = false) -> [UInt32] {
    stride(from: 0, to: bytes.count - width + 1, by: width).map { offset in
        let word = bigEndian ? Array(bytes[offset..<offset + width].reversed()) : Array(bytes[offset..<offset + width])
        return word.enumerated().reduce(UInt32(0)) { $0 | UInt32($1.element) << (8 * UInt32($1.offset)) }
    }
}

/// Signed 24-bit values as 3-byte words.
func pack24(_ values: [Int32], bigEndian: Bool = false) -> [UInt8] {
    packWords(values.map { UInt32(bitPattern: $0) & 0xFF_FFFF }, width: 3, bigEndian: bigEndian)
}

func unpack24(_ bytes: [UInt8], bigEndian: Bool = false) -> [Int32] {
    unpackWords(bytes, width: 3, bigEndian: bigEndian).map { Int32(bitPattern: $0 << 8) >> 8 }
}

func packFloats(_ values: [Float], bigEndian: Bool = false) -> [UInt8] { pack(values.map(\.bitPattern), bigEndian: bigEndian) }
func packDoubles(_ values: [Double], bigEndian: Bool = false) -> [UInt8] { pack(values.map(\.bitPattern), bigEndian: bigEndian) }
func unpackFloats(_ bytes: [UInt8], bigEndian: Bool = false) -> [Float] {
    unpack(bytes, as: UInt32.self, bigEndian: bigEndian).map(Float.init(bitPattern:))
}
func unpackDoubles(_ bytes: [UInt8], bigEndian: Bool = false) -> [Double] {
    unpack(bytes, as: UInt64.self, bigEndian: bigEndian).map(Double.init(bitPattern:))
}

/// Records an issue naming the first difference unless `actual == expected`. For long arrays:
/// `#expect(a == b)` would describe a failure by diffing the whole collections, which takes
/// quadratic time.
func expectEqualArrays<T: Equatable>(
    _ actual: [T], _ expected: [T], _ what: @autoclosure () -> String = "values",
    sourceLocation: SourceLocation = #_sourceLocation
) {
    guard actual != expected else { return }
    if let i = zip(actual.indices, expected.indices).first(where: { actual[$0.0] != expected[$0.1] })?.0 {
        Issue.record(
            "\(what()): first difference at index \(i): \(actual[i]), expected \(expected[i]) (\(actual.count) and \(expected.count) values)",
            sourceLocation: sourceLocation)
    } else {
        Issue.record("\(what()): \(actual.count) values, expected \(expected.count)", sourceLocation: sourceLocation)
    }
}
