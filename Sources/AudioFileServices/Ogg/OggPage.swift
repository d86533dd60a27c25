import AudioCore

extension AudioFileType {
    /// An Ogg file (`'OggS'`, the Ogg capture pattern). Apple's `AudioFile.h` has no Ogg type;
    /// this package-specific code is the one Xiph's Core Audio components use.
    public static let ogg = AudioFileType("OggS")
}

/// The header of one Ogg page (RFC 3533 §6): 27 fixed bytes and a lacing table of up to 255
/// segment sizes, then the body those segments make up.
struct OggPageHeader: Sendable, Equatable {
    /// Bytes of the fixed header.
    static let fixedSize = 27
    /// The largest page: the fixed header, 255 lacing values, 255 segments of 255 bytes.
    static let maximumSize = 27 + 255 + 255 * 255

    /// Header type flags: 1 continued packet, 2 beginning of stream, 4 end of stream.
    var flags: UInt8
    /// The granule position (-1: no packet ends on this page).
    var granulePosition: Int64
    /// The logical stream's serial number.
    var serial: UInt32
    /// The page's sequence number in its logical stream.
    var sequence: UInt32
    /// Lacing values (segments) on the page.
    var segmentCount: Int
    /// Bytes of the header, lacing table included.
    var headerLength: Int
    /// Bytes of the body.
    var bodyLength: Int

    /// True when the page's first segment continues a packet from the previous page.
    var isContinued: Bool { flags & 1 != 0 }
    /// True on the first page of a logical stream.
    var isBeginning: Bool { flags & 2 != 0 }
    /// True on the last page of a logical stream.
    var isEnd: Bool { flags & 4 != 0 }
    /// Bytes of the whole page.
    var pageLength: Int { headerLength + bodyLength }

    /// What ``parse(_:checkCRC:)`` found.
    enum Parse: Equatable {
        /// A whole page at the start of the bytes.
        case page(OggPageHeader)
        /// The bytes end inside the page: at least this many are needed.
        case needMore(Int)
        /// Not a valid page (no capture pattern, version not 0, CRC mismatch).
        case invalid(String)
    }

    /// True when `b` starts with the capture pattern `OggS`.
    static func hasCapturePattern(_ b: UnsafeRawBufferPointer) -> Bool {
        b.count >= 4 && b[0] == 0x4F && b[1] == 0x67 && b[2] == 0x67 && b[3] == 0x53
    }

    /// Parses the page at the start of `b`, checking its CRC when `checkCRC` is true.
    static func parse(_ b: UnsafeRawBufferPointer, checkCRC: Bool = true) -> Parse {
        guard b.count >= 4 else { return .needMore(fixedSize) }
        guard hasCapturePattern(b) else { return .invalid("no 'OggS' capture pattern") }
        guard b.count >= fixedSize else { return .needMore(fixedSize) }
        guard b[4] == 0 else { return .invalid("Ogg page version \(b[4]) is not 0") }
        let segments = Int(b[26])
        let headerLength = fixedSize + segments
        guard b.count >= headerLength else { return .needMore(headerLength) }
        var body = 0
        for i in fixedSize..<headerLength { body += Int(b[i]) }
        guard b.count >= headerLength + body else { return .needMore(headerLength + body) }
        var granule: UInt64 = 0
        for i in 0..<8 { granule |= UInt64(b[6 + i]) << (8 * UInt64(i)) }
        let header = OggPageHeader(
            flags: b[5], granulePosition: Int64(bitPattern: granule), serial: le32(b, 14), sequence: le32(b, 18),
            segmentCount: segments, headerLength: headerLength, bodyLength: body)
        if checkCRC {
            let stored = le32(b, 22)
            let computed = OggCRC.page(UnsafeRawBufferPointer(rebasing: b[0..<(headerLength + body)]))
            guard stored == computed else {
                return .invalid(
                    "Ogg page CRC is \(String(stored, radix: 16)); the page's bytes give \(String(computed, radix: 16))")
            }
        }
        return .page(header)
    }

    private static func le32(_ b: UnsafeRawBufferPointer, _ i: Int) -> UInt32 {
        UInt32(b[i]) | UInt32(b[i + 1]) << 8 | UInt32(b[i + 2]) << 16 | UInt32(b[i + 3]) << 24
    }

    /// The packet pieces on the page whose bytes start at `b` (a parsed page): for each run of
    /// segments, its offset from the page start, its length, and whether a packet ends with it
    /// (a lacing value below 255). The first piece continues a packet when ``isContinued``.
    func pieces(_ b: UnsafeRawBufferPointer, _ body: (_ offset: Int, _ length: Int, _ endsPacket: Bool) -> Void) {
        var start = headerLength
        var length = 0
        for i in 0..<segmentCount {
            let lace = Int(b[Self.fixedSize + i])
            length += lace
            if lace < 255 {
                body(start, length, true)
                start += length
                length = 0
            }
        }
        if length > 0 {  // the last lacing value is 255: the packet goes on
            body(start, length, false)
        }
    }
}

/// The Ogg CRC-32 (polynomial 0x04C11DB7, not reflected, initial value 0, no final XOR),
/// four bytes a step through four tables (slicing by 4).
enum OggCRC {
    /// `tables[k][i]`: the CRC of byte `i` followed by `k` zero bytes.
    static let tables: [UInt32] = {
        var t = [UInt32](repeating: 0, count: 4 * 256)
        for i in 0..<256 {
            var r = UInt32(i) << 24
            for _ in 0..<8 { r = r & 0x8000_0000 != 0 ? (r << 1) ^ 0x04C1_1DB7 : r << 1 }
            t[i] = r
        }
        for k in 1..<4 {
            for i in 0..<256 {
                let previous = t[(k - 1) * 256 + i]
                t[k * 256 + i] = (previous << 8) ^ t[Int(previous >> 24)]
            }
        }
        return t
    }()

    /// The CRC of a whole page with its CRC field (bytes 22–25) taken as zero.
    static func page(_ b: UnsafeRawBufferPointer) -> UInt32 {
        tables.withUnsafeBufferPointer { t in
            var crc = update(0, UnsafeRawBufferPointer(rebasing: b[0..<min(22, b.count)]), t)
            guard b.count > 22 else { return crc }
            let zero: UInt32 = 0
            crc = withUnsafeBytes(of: zero) { update(crc, UnsafeRawBufferPointer(rebasing: $0[0..<min(4, b.count - 22)]), t) }
            guard b.count > 26 else { return crc }
            return update(crc, UnsafeRawBufferPointer(rebasing: b[26...]), t)
        }
    }

    /// `crc` continued over `b`.
    static func update(_ crc: UInt32, _ b: UnsafeRawBufferPointer, _ t: UnsafeBufferPointer<UInt32>) -> UInt32 {
        var crc = crc
        var i = 0
        let n = b.count
        while i + 4 <= n {
            let x = crc ^ (UInt32(b[i]) << 24 | UInt32(b[i + 1]) << 16 | UInt32(b[i + 2]) << 8 | UInt32(b[i + 3]))
            crc = t[768 + Int(x >> 24)] ^ t[512 + Int(x >> 16 & 0xFF)] ^ t[256 + Int(x >> 8 & 0xFF)] ^ t[Int(x & 0xFF)]
            i += 4
        }
        while i < n {
            crc = (crc << 8) ^ t[Int((crc >> 24) ^ UInt32(b[i]))]
            i += 1
        }
        return crc
    }
}
