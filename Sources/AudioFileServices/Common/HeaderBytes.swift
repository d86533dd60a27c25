import AudioCore

/// Little-endian byte building for RIFF headers.
struct LittleEndianBytes {
    var bytes: [UInt8] = []
    mutating func ascii(_ s: String) { bytes += Array(s.utf8) }
    mutating func u16(_ v: UInt16) { bytes += [UInt8(v & 0xFF), UInt8(v >> 8)] }
    mutating func u32(_ v: UInt32) { bytes += Self.u32(v) }
    mutating func u64(_ v: UInt64) { u32(UInt32(v & 0xFFFF_FFFF)); u32(UInt32(v >> 32)) }
    static func u32(_ v: UInt32) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24)] }
}

/// Big-endian byte building for CAF and IFF headers.
struct BigEndianBytes {
    var bytes: [UInt8] = []
    mutating func ascii(_ s: String) { bytes += Array(s.utf8) }
    mutating func u16(_ v: UInt16) { bytes += [UInt8(v >> 8), UInt8(v & 0xFF)] }
    mutating func u32(_ v: UInt32) { bytes += Self.u32(v) }
    mutating func u64(_ v: UInt64) { bytes += Self.u64(v) }
    static func u32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
    static func u64(_ v: UInt64) -> [UInt8] { u32(UInt32(v >> 32)) + u32(UInt32(v & 0xFFFF_FFFF)) }

    /// CAF's variable-length integer: 7 bits per byte, most significant first, the high bit set
    /// on every byte but the last.
    mutating func varint(_ value: UInt64) {
        var groups = 1
        while groups < 10 && value >> (7 * UInt64(groups)) != 0 { groups += 1 }
        for g in stride(from: groups - 1, through: 0, by: -1) {
            let seven = UInt8(truncatingIfNeeded: value >> (7 * UInt64(g))) & 0x7F
            bytes.append(g == 0 ? seven : seven | 0x80)
        }
    }

    /// The body of a CAF `chan` chunk (also Apple's AIFF `CHAN` chunk): tag, bitmap, and the
    /// channel descriptions.
    mutating func channelLayout(_ layout: AudioChannelLayout) {
        u32(layout.tag.rawValue)
        u32(layout.bitmap.rawValue)
        u32(UInt32(layout.descriptions.count))
        for d in layout.descriptions {
            u32(d.label.rawValue)
            u32(d.flags.rawValue)
            u32(d.coordinates.0.bitPattern)
            u32(d.coordinates.1.bitPattern)
            u32(d.coordinates.2.bitPattern)
        }
    }
}

/// An 80-bit IEEE 754 extended float (AIFF's sample rate).
func extended80(_ value: Double) -> [UInt8] {
    guard value > 0, value.isFinite else { return [UInt8](repeating: 0, count: 10) }
    let exponent = value.exponent
    let mantissa = UInt64(value.significandBitPattern | (1 << 52)) << 11
    let biased = UInt16(Int(exponent) + 16383)
    var out = BigEndianBytes()
    out.u16(biased)
    out.u64(mantissa)
    return out.bytes
}

extension AudioChannelLayout {
    /// The WAVE speaker mask (`dwChannelMask`) that describes this layout, or nil when WAVE cannot:
    /// WAVE names each channel by a bit and orders channels by ascending bit, so every channel must
    /// be one of the 18 bitmap speakers, each once, in that order.
    var waveChannelMask: UInt32? {
        if tag == .useChannelBitmap { return bitmap.rawValue }
        guard let labels, !labels.isEmpty else { return nil }
        var mask: UInt32 = 0
        var previous = 0
        for label in labels {
            let bit = Int(label.rawValue)
            guard bit >= 1, bit <= 18, bit > previous else { return nil }
            mask |= 1 << UInt32(bit - 1)
            previous = bit
        }
        return mask
    }
}
