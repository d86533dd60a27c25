/// Reads an ALAC packet most significant bit first.
///
/// The packet is copied by the decoder into memory with at least
/// ``ALACBitReader/padding`` zero bytes after it, and every read loads one unaligned big-endian
/// 64-bit word: 57 or more valid bits from any position. Reads past the end see zeros and move
/// ``position`` past ``limit``, which the decoder checks (``overrun``) instead of checking each
/// read; ``peek()`` clamps the position it loads from, so no read leaves the padded copy.
struct ALACBitReader {
    /// Zero bytes the packet copy must have after its last byte.
    static let padding = 16

    private let base: UnsafeRawPointer
    /// Bits in the packet.
    let limit: Int
    /// The next bit to read, from the start of the packet.
    var position = 0

    init(base: UnsafeRawPointer, byteCount: Int) {
        self.base = base
        limit = byteCount * 8
    }

    /// True once reads went past the end of the packet.
    var overrun: Bool { position > limit }
    /// Bits not read yet (negative after an overrun).
    var remaining: Int { limit - position }

    /// The next 64 bits (at least 57 of them from the packet or its padding), first bit in the
    /// most significant place. Loads from the end of the packet when ``position`` is past it.
    @inline(__always)
    func peek() -> UInt64 {
        let p = min(position, limit)
        return base.loadUnaligned(fromByteOffset: p &>> 3, as: UInt64.self).bigEndian &<< UInt64(p & 7)
    }

    /// The next 64 bits without the clamp: only while ``position`` is at most ``limit`` + 64.
    @inline(__always)
    func peekUnchecked() -> UInt64 {
        base.loadUnaligned(fromByteOffset: position &>> 3, as: UInt64.self).bigEndian &<< UInt64(position & 7)
    }

    /// The next `count` bits (0…32) as an unsigned value.
    @inline(__always)
    mutating func read(_ count: Int) -> UInt32 {
        guard count > 0 else { return 0 }
        let value = UInt32(truncatingIfNeeded: peek() &>> UInt64(64 - count))
        position &+= count
        return value
    }

    /// The next `count` bits (1…32) as a two's complement value.
    @inline(__always)
    mutating func readSigned(_ count: Int) -> Int32 {
        guard count > 0 else { return 0 }
        let value = Int64(bitPattern: peek()) &>> Int64(64 - count)
        position &+= count
        return Int32(truncatingIfNeeded: value)
    }

    /// Skips `count` bits (any count; the position saturates far past the end).
    mutating func skip(_ count: Int) {
        position = count > limit - position ? limit + 1 : position + count
    }

    /// Moves to the next byte boundary.
    mutating func alignToByte() {
        position = (position + 7) & ~7
    }
}

/// ALAC's adaptive Golomb-Rice coding of prediction residuals ("dynamic decompression" in
/// Apple's reference): a running mean of the coded magnitudes picks the Rice parameter of the
/// next value, and a small mean switches to coding a run of zeros.
enum ALACRice {
    /// Unary prefixes of 9 or more ones escape to a value stored verbatim.
    static let maximumPrefix = 9

    /// Decodes `count` residuals of a channel into `out`. `mb` is the cookie's initial history,
    /// `pb` the history multiplier already scaled by the channel's factor, `kb` the Rice limit
    /// and `escapeBits` the width of verbatim values (the channel's sample width, 1…32).
    /// Returns false when the data is inconsistent (runs past `count`, reads past the packet);
    /// `out` then holds garbage the caller discards.
    static func decode(
        _ reader: inout ALACBitReader, into out: UnsafeMutablePointer<Int32>, count: Int,
        mb initialHistory: UInt32, pb: UInt32, kb: Int, escapeBits: Int
    ) -> Bool {
        var mb = initialHistory
        var zmode: UInt32 = 0
        var c = 0
        let wb: UInt32 = kb >= 32 ? .max : (1 << UInt32(kb)) &- 1
        let limit = reader.limit
        let escapeShift = UInt64(64 - escapeBits)
        var position = reader.position
        defer { reader.position = position }
        while c < count {
            // At most 9 + 32 bits are read per value: loads stay within the padding.
            guard position < limit else { return false }
            reader.position = position
            let window = reader.peekUnchecked()
            let m = mb &>> 9
            // lg3a: floor(log2(m + 3)), at least 1; then limited by kb.
            let k = min(31 &- (m &+ 3).leadingZeroBitCount, kb)
            let prefix = (~window).leadingZeroBitCount
            var n: UInt32
            if prefix >= maximumPrefix {
                n = UInt32(truncatingIfNeeded: (window &<< 9) &>> escapeShift)
                position &+= 9 &+ escapeBits
            } else if k == 1 {
                n = UInt32(truncatingIfNeeded: prefix)
                position &+= prefix &+ 1
            } else {
                let v = UInt32(truncatingIfNeeded: (window &<< UInt64(prefix &+ 1)) &>> UInt64(64 &- k))
                n = UInt32(truncatingIfNeeded: prefix) &* ((1 &<< UInt32(k)) &- 1)
                if v >= 2 {
                    n &+= v &- 1
                    position &+= prefix &+ 1 &+ k
                } else {
                    position &+= prefix &+ k
                }
            }
            let x = n &+ zmode
            // The least significant bit is the sign.
            out[c] = Int32(bitPattern: (x &>> 1) ^ (0 &- (x & 1)))
            c &+= 1
            mb = pb &* x &+ mb &- ((pb &* mb) &>> 9)
            if n > 0xFFFF { mb = 0xFFFF }
            zmode = 0
            if mb < 128 && c < count {
                // A run of zeros, its length Rice-coded with a parameter from the mean
                // (16-bit verbatim values after the escape prefix).
                zmode = 1
                reader.position = position
                let window = reader.peekUnchecked()
                let kz = mb.leadingZeroBitCount &- 24 &+ Int(truncatingIfNeeded: (mb &+ 16) &>> 6)
                let mz = ((1 &<< UInt32(kz)) &- 1) & wb
                let prefix = (~window).leadingZeroBitCount
                var run: UInt32
                if prefix >= maximumPrefix {
                    run = UInt32(truncatingIfNeeded: (window &<< 9) &>> 48)
                    position &+= 9 &+ 16
                } else {
                    let v = UInt32(truncatingIfNeeded: (window &<< UInt64(prefix &+ 1)) &>> UInt64(64 &- kz))
                    run = UInt32(truncatingIfNeeded: prefix) &* mz
                    if v >= 2 {
                        run &+= v &- 1
                        position &+= prefix &+ 1 &+ kz
                    } else {
                        position &+= prefix &+ kz
                    }
                }
                guard Int(run) <= count &- c else { return false }
                if run > 0 {
                    (out + c).initialize(repeating: 0, count: Int(run))
                    c &+= Int(run)
                }
                if run >= 65535 { zmode = 0 }
                mb = 0
            }
        }
        return position <= limit
    }
}
