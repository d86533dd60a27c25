// Float to integer samples: the package's one rounding, used by PCMConverter (and the encoders
// that take Float input) and by the devices that hand integers to the hardware.
//
// The convention is ffmpeg's (libswresample's float to s16/s32 conversions are
// `av_clip_int16(lrintf(x * (1 << 15)))` and `av_clipl_int32(llrintf(x * (1U << 31)))`, and
// `lrintf` rounds to nearest with ties to even in the default rounding mode): scale by 2^(n-1),
// round to nearest with ties to even, clip to the n-bit range; NaN becomes 0. The tests check it
// bit-exactly against ffmpeg's conversions of samples that hold exact ties.

/// 1.5 × 2^52: adding it to a Double of magnitude below 2^51 leaves that value rounded to an
/// integer (ties to even, the default rounding mode) in the low bits of the significand.
@usableFromInline
package let doubleRoundingMagic = 6_755_399_441_055_744.0
/// 1.5 × 2^23: the same for Float and magnitudes below 2^22.
@usableFromInline
package let floatRoundingMagic: Float = 12_582_912.0

/// `value` (already scaled) rounded to nearest with ties to even and clipped to
/// `lower...upper` (integers within ±2^31); NaN becomes 0. Branch-free, so loops vectorize.
@inlinable @inline(__always)
package func roundClip(_ value: Double, lower: Double, upper: Double) -> Int32 {
    var x = value.isNaN ? 0 : value
    x = x < lower ? lower : x
    x = x > upper ? upper : x
    return Int32(truncatingIfNeeded: Int64(bitPattern: (x + doubleRoundingMagic).bitPattern))
}

/// Float `value` (already scaled) rounded to nearest with ties to even and clipped to Int16.
@inlinable @inline(__always)
package func roundClip16(_ value: Float) -> Int16 {
    var x = value.isNaN ? 0 : value
    x = x < -32768 ? -32768 : x
    x = x > 32767 ? 32767 : x
    return Int16(truncatingIfNeeded: Int32(bitPattern: (x + floatRoundingMagic).bitPattern))
}

/// Float samples in -1...1 to Int16: `count` samples from `source` to `destination`.
@inlinable
package func convertFloatToInt16(_ source: UnsafePointer<Float>, count: Int, into destination: UnsafeMutablePointer<Int16>) {
    for i in 0..<count { destination[i] = roundClip16(source[i] * 32768) }
}

/// Float samples in -1...1 to Int32: `count` samples from `source` to `destination`.
@inlinable
package func convertFloatToInt32(_ source: UnsafePointer<Float>, count: Int, into destination: UnsafeMutablePointer<Int32>) {
    for i in 0..<count {
        destination[i] = roundClip(Double(source[i]) * 2_147_483_648, lower: -2_147_483_648, upper: 2_147_483_647)
    }
}
