// Sample loops of PCMConverter. A *stream* is `count` samples of one format at `src` (each
// `srcStride` bytes apart) turned into `count` samples of another at `dst` (`dstStride` apart):
// all samples of an interleaved buffer, or one channel when either side is non-interleaved.
//
// Conventions (Apple's and ffmpeg's): an n-bit integer x means x / 2^(n-1) (unsigned: x - 2^(n-1)
// first); float to integer scales by 2^(n-1), rounds to nearest with ties to even and clips
// (AudioCore's roundClip, shared with the devices);
// integer to integer is an exact shift when widening and a rounding, clipping shift when
// narrowing. Every step that can be exact is.

import AudioCore

// MARK: - Loads and stores

@inline(__always)
private func load16(_ p: UnsafeRawPointer, _ offset: Int, _ bigEndian: Bool) -> UInt16 {
    let raw = p.loadUnaligned(fromByteOffset: offset, as: UInt16.self)
    return bigEndian ? UInt16(bigEndian: raw) : UInt16(littleEndian: raw)
}

@inline(__always)
private func load32(_ p: UnsafeRawPointer, _ offset: Int, _ bigEndian: Bool) -> UInt32 {
    let raw = p.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
    return bigEndian ? UInt32(bigEndian: raw) : UInt32(littleEndian: raw)
}

@inline(__always)
private func load64(_ p: UnsafeRawPointer, _ offset: Int, _ bigEndian: Bool) -> UInt64 {
    let raw = p.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
    return bigEndian ? UInt64(bigEndian: raw) : UInt64(littleEndian: raw)
}

/// Three bytes as the low 24 bits of a word.
@inline(__always)
private func load24(_ p: UnsafeRawPointer, _ offset: Int, _ bigEndian: Bool) -> UInt32 {
    let b0 = UInt32(p.load(fromByteOffset: offset, as: UInt8.self))
    let b1 = UInt32(p.load(fromByteOffset: offset + 1, as: UInt8.self))
    let b2 = UInt32(p.load(fromByteOffset: offset + 2, as: UInt8.self))
    return bigEndian ? b0 << 16 | b1 << 8 | b2 : b2 << 16 | b1 << 8 | b0
}

/// A sample word of 1...4 bytes as the low bits of a `UInt32`.
@inline(__always)
private func loadWord(_ p: UnsafeRawPointer, _ offset: Int, size: Int, bigEndian: Bool) -> UInt32 {
    switch size {
    case 1: return UInt32(p.load(fromByteOffset: offset, as: UInt8.self))
    case 2: return UInt32(load16(p, offset, bigEndian))
    case 3: return load24(p, offset, bigEndian)
    default: return load32(p, offset, bigEndian)
    }
}

@inline(__always)
private func store16(_ p: UnsafeMutableRawPointer, _ offset: Int, _ value: UInt16, _ bigEndian: Bool) {
    p.storeBytes(of: bigEndian ? value.bigEndian : value.littleEndian, toByteOffset: offset, as: UInt16.self)
}

@inline(__always)
private func store32(_ p: UnsafeMutableRawPointer, _ offset: Int, _ value: UInt32, _ bigEndian: Bool) {
    p.storeBytes(of: bigEndian ? value.bigEndian : value.littleEndian, toByteOffset: offset, as: UInt32.self)
}

@inline(__always)
private func store64(_ p: UnsafeMutableRawPointer, _ offset: Int, _ value: UInt64, _ bigEndian: Bool) {
    p.storeBytes(of: bigEndian ? value.bigEndian : value.littleEndian, toByteOffset: offset, as: UInt64.self)
}

@inline(__always)
private func store24(_ p: UnsafeMutableRawPointer, _ offset: Int, _ value: UInt32, _ bigEndian: Bool) {
    let b0 = UInt8(truncatingIfNeeded: value)
    let b1 = UInt8(truncatingIfNeeded: value >> 8)
    let b2 = UInt8(truncatingIfNeeded: value >> 16)
    p.storeBytes(of: bigEndian ? b2 : b0, toByteOffset: offset, as: UInt8.self)
    p.storeBytes(of: b1, toByteOffset: offset + 1, as: UInt8.self)
    p.storeBytes(of: bigEndian ? b0 : b2, toByteOffset: offset + 2, as: UInt8.self)
}

/// Stores the low `size` bytes of `value`.
@inline(__always)
private func storeWord(_ p: UnsafeMutableRawPointer, _ offset: Int, _ value: UInt32, size: Int, bigEndian: Bool) {
    switch size {
    case 1: p.storeBytes(of: UInt8(truncatingIfNeeded: value), toByteOffset: offset, as: UInt8.self)
    case 2: store16(p, offset, UInt16(truncatingIfNeeded: value), bigEndian)
    case 3: store24(p, offset, value, bigEndian)
    default: store32(p, offset, value, bigEndian)
    }
}

// MARK: - Arithmetic

/// `value / 2^shift` rounded to nearest, ties to even, then limited to `maximum`
/// (the quotient can only overflow upwards). `shift` is 1...31. Branch-free 32-bit arithmetic.
@inline(__always)
func roundingShift(_ value: Int32, by shift: Int, maximum: Int32) -> Int32 {
    let s = UInt32(truncatingIfNeeded: shift)
    let quotient = value >> Int32(truncatingIfNeeded: shift)
    let remainder = UInt32(bitPattern: value) & ((1 << s) &- 1)
    // Round up when the remainder is above half, or exactly half and the quotient is odd.
    let up: Int32 = remainder &+ UInt32(bitPattern: quotient & 1) > 1 << (s &- 1) ? 1 : 0
    return min(quotient &+ up, maximum)
}

// roundClip and roundClip16 (float to integer, ties to even) are AudioCore's SampleRounding.

// MARK: - Stream loop

/// Runs `body(srcOffset, dstOffset)` for `count` samples; a separate loop for contiguous
/// streams (the common case) lets the compiler vectorize it.
@inline(__always)
private func forEachSample(
    count: Int, srcStride: Int, srcWord: Int, dstStride: Int, dstWord: Int,
    _ body: (Int, Int) -> Void
) {
    if srcStride == srcWord && dstStride == dstWord {
        for i in 0..<count { body(i &* srcWord, i &* dstWord) }
    } else {
        var s = 0
        var d = 0
        for _ in 0..<count {
            body(s, d)
            s &+= srcStride
            d &+= dstStride
        }
    }
}

/// Runs `body(value, dstOffset)` for `count` packed signed 24-bit samples. In contiguous
/// streams every sample but the last is read with one 4-byte load (the extra byte is the next
/// sample's, so never beyond the stream).
@inline(__always)
private func forEachInt24(
    _ src: UnsafeRawPointer, bigEndian: Bool, count: Int, srcStride: Int, dstStride: Int, dstWord: Int,
    _ body: (Int32, Int) -> Void
) {
    guard count > 0 else { return }
    if srcStride == 3 && dstStride == dstWord {
        for i in 0..<(count &- 1) {
            let word = load32(src, i &* 3, bigEndian)
            body(bigEndian ? Int32(bitPattern: word) >> 8 : Int32(bitPattern: word << 8) >> 8, i &* dstWord)
        }
        let last = count &- 1
        body(Int32(bitPattern: load24(src, last &* 3, bigEndian) << 8) >> 8, last &* dstWord)
    } else {
        var s = 0
        var d = 0
        for _ in 0..<count {
            body(Int32(bitPattern: load24(src, s, bigEndian) << 8) >> 8, d)
            s &+= srcStride
            d &+= dstStride
        }
    }
}

// MARK: - Fast kernels

/// The common full-word formats, which get their own loops.
enum SimpleSampleFormat: Hashable, Sendable {
    case u8, s8, s16(bigEndian: Bool), s24(bigEndian: Bool), s32(bigEndian: Bool)
    case f32(bigEndian: Bool), f64(bigEndian: Bool)

    init?(_ layout: PCMSampleLayout) {
        guard layout.isFullWord else { return nil }
        let be = layout.bigEndian
        switch (layout.kind, layout.wordSize) {
        case (.unsigned, 1): self = .u8
        case (.signed, 1): self = .s8
        case (.signed, 2): self = .s16(bigEndian: be)
        case (.signed, 3): self = .s24(bigEndian: be)
        case (.signed, 4): self = .s32(bigEndian: be)
        case (.float, 4): self = .f32(bigEndian: be)
        case (.float, 8): self = .f64(bigEndian: be)
        default: return nil
        }
    }
}

/// Converts a stream of `format` samples to native (little-endian) Float32.
func convertToFloat32(
    _ format: SimpleSampleFormat, _ src: UnsafeRawPointer, _ srcStride: Int,
    _ dst: UnsafeMutableRawPointer, _ dstStride: Int, _ count: Int
) {
    @inline(__always) func run(_ word: Int, _ f: (Int) -> Float) {
        forEachSample(count: count, srcStride: srcStride, srcWord: word, dstStride: dstStride, dstWord: 4) { s, d in
            dst.storeBytes(of: f(s), toByteOffset: d, as: Float.self)
        }
    }
    switch format {
    case .u8:
        run(1) { Float(Int32(src.load(fromByteOffset: $0, as: UInt8.self)) - 128) * (1.0 / 128) }
    case .s8:
        run(1) { Float(src.load(fromByteOffset: $0, as: Int8.self)) * (1.0 / 128) }
    case .s16(false):
        run(2) { Float(Int16(bitPattern: load16(src, $0, false))) * (1.0 / 32768) }
    case .s16(true):
        run(2) { Float(Int16(bitPattern: load16(src, $0, true))) * (1.0 / 32768) }
    case .s24(let bigEndian):
        forEachInt24(src, bigEndian: bigEndian, count: count, srcStride: srcStride, dstStride: dstStride, dstWord: 4) { v, d in
            dst.storeBytes(of: Float(v) * (1.0 / 8_388_608), toByteOffset: d, as: Float.self)
        }
    case .s32(false):
        run(4) { Float(Int32(bitPattern: load32(src, $0, false))) * (1.0 / 2_147_483_648) }
    case .s32(true):
        run(4) { Float(Int32(bitPattern: load32(src, $0, true))) * (1.0 / 2_147_483_648) }
    case .f32(false):
        run(4) { Float(bitPattern: load32(src, $0, false)) }
    case .f32(true):
        run(4) { Float(bitPattern: load32(src, $0, true)) }
    case .f64(false):
        run(8) { Float(Double(bitPattern: load64(src, $0, false))) }
    case .f64(true):
        run(8) { Float(Double(bitPattern: load64(src, $0, true))) }
    }
}

/// Converts a stream of `format` samples to native (little-endian) Int16.
func convertToInt16(
    _ format: SimpleSampleFormat, _ src: UnsafeRawPointer, _ srcStride: Int,
    _ dst: UnsafeMutableRawPointer, _ dstStride: Int, _ count: Int
) {
    @inline(__always) func run(_ word: Int, _ f: (Int) -> Int16) {
        forEachSample(count: count, srcStride: srcStride, srcWord: word, dstStride: dstStride, dstWord: 2) { s, d in
            dst.storeBytes(of: f(s), toByteOffset: d, as: Int16.self)
        }
    }
    switch format {
    case .u8:
        run(1) { Int16(truncatingIfNeeded: (Int32(src.load(fromByteOffset: $0, as: UInt8.self)) - 128) << 8) }
    case .s8:
        run(1) { Int16(src.load(fromByteOffset: $0, as: Int8.self)) << 8 }
    case .s16(false):
        run(2) { Int16(bitPattern: load16(src, $0, false)) }
    case .s16(true):
        run(2) { Int16(bitPattern: load16(src, $0, true)) }
    case .s24(let bigEndian):
        forEachInt24(src, bigEndian: bigEndian, count: count, srcStride: srcStride, dstStride: dstStride, dstWord: 2) { v, d in
            dst.storeBytes(of: Int16(truncatingIfNeeded: roundingShift(v, by: 8, maximum: 32767)), toByteOffset: d, as: Int16.self)
        }
    case .s32(false):
        run(4) {
            Int16(truncatingIfNeeded: roundingShift(Int32(bitPattern: load32(src, $0, false)), by: 16, maximum: 32767))
        }
    case .s32(true):
        run(4) {
            Int16(truncatingIfNeeded: roundingShift(Int32(bitPattern: load32(src, $0, true)), by: 16, maximum: 32767))
        }
    case .f32(false):
        run(4) { roundClip16(Float(bitPattern: load32(src, $0, false)) * 32768) }
    case .f32(true):
        run(4) { roundClip16(Float(bitPattern: load32(src, $0, true)) * 32768) }
    case .f64(false):
        run(8) {
            Int16(truncatingIfNeeded: roundClip(Double(bitPattern: load64(src, $0, false)) * 32768, lower: -32768, upper: 32767))
        }
    case .f64(true):
        run(8) {
            Int16(truncatingIfNeeded: roundClip(Double(bitPattern: load64(src, $0, true)) * 32768, lower: -32768, upper: 32767))
        }
    }
}

/// Native Float32 to native packed Int24 (3 bytes, little-endian). In contiguous streams
/// every sample but the last is written with one 4-byte store whose extra byte the next
/// sample overwrites.
func convertFloat32ToInt24(
    _ src: UnsafeRawPointer, _ srcStride: Int, _ dst: UnsafeMutableRawPointer, _ dstStride: Int, _ count: Int
) {
    @inline(__always) func value(_ offset: Int) -> UInt32 {
        let x = Double(src.loadUnaligned(fromByteOffset: offset, as: Float.self)) * 8_388_608
        return UInt32(bitPattern: roundClip(x, lower: -8_388_608, upper: 8_388_607))
    }
    guard count > 0 else { return }
    if srcStride == 4 && dstStride == 3 {
        for i in 0..<(count &- 1) { store32(dst, i &* 3, value(i &* 4), false) }
        store24(dst, (count &- 1) &* 3, value((count &- 1) &* 4), false)
    } else {
        forEachSample(count: count, srcStride: srcStride, srcWord: 4, dstStride: dstStride, dstWord: 3) { s, d in
            store24(dst, d, value(s), false)
        }
    }
}

/// Native Float32 to native Int32.
func convertFloat32ToInt32(
    _ src: UnsafeRawPointer, _ srcStride: Int, _ dst: UnsafeMutableRawPointer, _ dstStride: Int, _ count: Int
) {
    forEachSample(count: count, srcStride: srcStride, srcWord: 4, dstStride: dstStride, dstWord: 4) { s, d in
        let x = Double(src.loadUnaligned(fromByteOffset: s, as: Float.self)) * 2_147_483_648
        dst.storeBytes(of: roundClip(x, lower: -2_147_483_648, upper: 2_147_483_647), toByteOffset: d, as: Int32.self)
    }
}

/// Native Float32 to native Float64 (exact).
func convertFloat32ToFloat64(
    _ src: UnsafeRawPointer, _ srcStride: Int, _ dst: UnsafeMutableRawPointer, _ dstStride: Int, _ count: Int
) {
    forEachSample(count: count, srcStride: srcStride, srcWord: 4, dstStride: dstStride, dstWord: 8) { s, d in
        dst.storeBytes(of: Double(src.loadUnaligned(fromByteOffset: s, as: Float.self)), toByteOffset: d, as: Double.self)
    }
}

/// Copies whole sample words between streams of the same format.
func copySamples(
    wordSize: Int, _ src: UnsafeRawPointer, _ srcStride: Int, _ dst: UnsafeMutableRawPointer, _ dstStride: Int,
    _ count: Int
) {
    if srcStride == wordSize && dstStride == wordSize {
        dst.copyMemory(from: src, byteCount: count * wordSize)
        return
    }
    var s = 0
    var d = 0
    for _ in 0..<count {
        (dst + d).copyMemory(from: src + s, byteCount: wordSize)
        s &+= srcStride
        d &+= dstStride
    }
}

// MARK: - General path

/// Samples per block of the general path; its two scratch areas of 8 bytes a sample fit in 1 KiB
/// of stack.
private let blockSize = 64

/// Converts any stream to any other through three passes over small blocks: read into an
/// intermediate (integers as 32-bit left-justified values, floats as Float or Double), convert
/// that into the destination's intermediate, write.
func convertGeneral(
    from source: PCMSampleLayout, to destination: PCMSampleLayout,
    _ src: UnsafeRawPointer, _ srcStride: Int, _ dst: UnsafeMutableRawPointer, _ dstStride: Int, _ count: Int
) {
    withUnsafeTemporaryAllocation(byteCount: 2 * 8 * blockSize, alignment: 16) { scratch in
        guard let base = scratch.baseAddress else { return }
        let a = base
        let b = base + 8 * blockSize
        var done = 0
        while done < count {
            let n = min(blockSize, count - done)
            readBlock(source, src + done * srcStride, srcStride, a, n)
            let converted = convertBlock(from: source, to: destination, a, b, n)
            writeBlock(destination, converted, dst + done * dstStride, dstStride, n)
            done += n
        }
    }
}

/// Reads `n` samples into `out`: Int32 left-justified for integers, else Float or Double.
private func readBlock(_ layout: PCMSampleLayout, _ src: UnsafeRawPointer, _ stride: Int, _ out: UnsafeMutableRawPointer, _ n: Int) {
    let be = layout.bigEndian
    switch layout.kind {
    case .float where layout.wordSize == 4:
        let o = out.assumingMemoryBound(to: Float.self)
        for i in 0..<n { o[i] = Float(bitPattern: load32(src, i * stride, be)) }
    case .float:
        let o = out.assumingMemoryBound(to: Double.self)
        for i in 0..<n { o[i] = Double(bitPattern: load64(src, i * stride, be)) }
    case .signed, .unsigned:
        let o = out.assumingMemoryBound(to: Int32.self)
        let up = UInt32(32 - layout.shift - layout.bits)
        let keep: UInt32 = layout.bits == 32 ? .max : ~(UInt32.max >> UInt32(layout.bits))
        let flip: UInt32 = layout.kind == .unsigned ? 0x8000_0000 : 0
        let size = layout.wordSize
        for i in 0..<n {
            let raw = loadWord(src, i * stride, size: size, bigEndian: be)
            o[i] = Int32(bitPattern: ((raw << up) & keep) ^ flip)
        }
    }
}

/// Converts the intermediate in `a` into the destination's intermediate, in `b` (or returns
/// `a` when it already is).
private func convertBlock(
    from source: PCMSampleLayout, to destination: PCMSampleLayout,
    _ a: UnsafeMutableRawPointer, _ b: UnsafeMutableRawPointer, _ n: Int
) -> UnsafeMutableRawPointer {
    enum Intermediate { case int, float, double }
    func intermediate(_ l: PCMSampleLayout) -> Intermediate {
        l.kind != .float ? .int : l.wordSize == 4 ? .float : .double
    }
    let scale31 = 1.0 / 2_147_483_648.0
    switch (intermediate(source), intermediate(destination)) {
    case (.float, .float), (.double, .double):
        return a
    case (.int, .int):
        let i = a.assumingMemoryBound(to: Int32.self)
        let o = b.assumingMemoryBound(to: Int32.self)
        let m = destination.bits
        if m == 32 {
            return a
        } else if m >= source.bits {
            let s = Int32(32 - m)
            for k in 0..<n { o[k] = i[k] >> s }
        } else {
            let s = 32 - m
            let maximum = Int32((1 << (m - 1)) - 1)
            for k in 0..<n { o[k] = roundingShift(i[k], by: s, maximum: maximum) }
        }
    case (.int, .float):
        let i = a.assumingMemoryBound(to: Int32.self)
        let o = b.assumingMemoryBound(to: Float.self)
        for k in 0..<n { o[k] = Float(i[k]) * Float(scale31) }
    case (.int, .double):
        let i = a.assumingMemoryBound(to: Int32.self)
        let o = b.assumingMemoryBound(to: Double.self)
        for k in 0..<n { o[k] = Double(i[k]) * scale31 }
    case (.float, .double):
        let i = a.assumingMemoryBound(to: Float.self)
        let o = b.assumingMemoryBound(to: Double.self)
        for k in 0..<n { o[k] = Double(i[k]) }
    case (.double, .float):
        let i = a.assumingMemoryBound(to: Double.self)
        let o = b.assumingMemoryBound(to: Float.self)
        for k in 0..<n { o[k] = Float(i[k]) }
    case (.float, .int):
        let i = a.assumingMemoryBound(to: Float.self)
        let o = b.assumingMemoryBound(to: Int32.self)
        let full = Double(Int64(1) << Int64(destination.bits - 1))
        for k in 0..<n { o[k] = roundClip(Double(i[k]) * full, lower: -full, upper: full - 1) }
    case (.double, .int):
        let i = a.assumingMemoryBound(to: Double.self)
        let o = b.assumingMemoryBound(to: Int32.self)
        let full = Double(Int64(1) << Int64(destination.bits - 1))
        for k in 0..<n { o[k] = roundClip(i[k] * full, lower: -full, upper: full - 1) }
    }
    return b
}

/// Writes `n` intermediate samples (right-justified Int32 of the destination's width for
/// integers, else Float or Double) in the destination's layout.
private func writeBlock(_ layout: PCMSampleLayout, _ values: UnsafeMutableRawPointer, _ dst: UnsafeMutableRawPointer, _ stride: Int, _ n: Int) {
    let be = layout.bigEndian
    switch layout.kind {
    case .float where layout.wordSize == 4:
        let v = values.assumingMemoryBound(to: Float.self)
        for i in 0..<n { store32(dst, i * stride, v[i].bitPattern, be) }
    case .float:
        let v = values.assumingMemoryBound(to: Double.self)
        for i in 0..<n { store64(dst, i * stride, v[i].bitPattern, be) }
    case .signed, .unsigned:
        let v = values.assumingMemoryBound(to: Int32.self)
        let m = layout.bits
        let unsigned = layout.kind == .unsigned
        let offset: UInt32 = unsigned ? 1 << UInt32(m - 1) : 0
        let mask: UInt32 = unsigned && m < 32 ? (1 << UInt32(m)) - 1 : .max
        let shift = UInt32(layout.shift)
        let size = layout.wordSize
        for i in 0..<n {
            let raw = ((UInt32(bitPattern: v[i]) &+ offset) & mask) << shift
            storeWord(dst, i * stride, raw, size: size, bigEndian: be)
        }
    }
}
