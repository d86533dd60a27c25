/// Builds the pages of one Ogg logical stream (RFC 3533): packets laced into segments of up to
/// 255 bytes, at most 255 segments a page, a packet that does not fit going on to the next page
/// (which is then marked continued), each page's granule position that of the last packet
/// completed on it (-1 when none is), and its CRC-32.
struct OggPageBuilder: Sendable {
    /// The stream's serial number.
    let serial: UInt32
    /// The next page's sequence number.
    private(set) var sequence: UInt32 = 0
    /// The page being filled: its lacing values and body.
    private var lacing: [UInt8] = []
    private var body: [UInt8] = []
    /// True when the page being filled starts with the rest of a packet from the previous page.
    private var continued = false
    /// The granule position after the last packet completed on the page being filled (-1: none).
    private var granule: Int64 = -1
    /// Packets completed on the page being filled.
    private(set) var packetsOnPage = 0

    /// Header type flags (RFC 3533 §6).
    static let continuedFlag: UInt8 = 1
    static let beginningFlag: UInt8 = 2
    static let endFlag: UInt8 = 4

    /// A builder whose next page is number `sequence` of stream `serial`.
    init(serial: UInt32, sequence: UInt32 = 0) {
        self.serial = serial
        self.sequence = sequence
    }

    /// True when nothing waits on the page being filled.
    var isEmpty: Bool { lacing.isEmpty }

    /// Bytes of the page being filled, as it would be written now.
    var pendingSize: Int { OggPageHeader.fixedSize + lacing.count + body.count }

    /// Adds `packet`, which ends at granule position `granuleAfter`, and returns the pages it
    /// filled (the page being filled stays open for the next packet or ``flush(flags:granule:)``).
    mutating func add(_ packet: UnsafeRawBufferPointer, granuleAfter: Int64) -> [[UInt8]] {
        var pages: [[UInt8]] = []
        // n bytes lace as n / 255 values of 255 and one of n % 255 (0 when n is a multiple).
        var values = packet.count / 255 + 1
        var offset = 0
        while values > 0 {
            if lacing.count == 255 {
                pages.append(page(flags: 0, granule: granule))
                continued = true
            }
            let take = min(255 - lacing.count, values)
            for i in 0..<take {
                let last = i == take - 1 && take == values
                lacing.append(last ? UInt8(packet.count - offset) : 255)
                let size = last ? packet.count - offset : 255
                body.append(contentsOf: UnsafeRawBufferPointer(rebasing: packet[offset..<(offset + size)]))
                offset += size
            }
            values -= take
        }
        granule = granuleAfter
        packetsOnPage += 1
        return pages
    }

    /// Adds `packet` and ends the page after it (a header packet, which RFC 7845 puts on pages
    /// of its own); returns every page it made.
    mutating func addAlone(_ packet: [UInt8], granuleAfter: Int64, flags: UInt8 = 0) -> [[UInt8]] {
        var pages = packet.withUnsafeBytes { add($0, granuleAfter: granuleAfter) }
        pages.append(page(flags: flags, granule: granule))
        return pages.map { $0 }
    }

    /// The page being filled, with `flags` (end of stream, …) and its granule position (or
    /// `granule` in its place), and a new page begun; nil when nothing waits and `force` is
    /// false.
    mutating func flush(flags: UInt8 = 0, granule override: Int64? = nil, force: Bool = false) -> [UInt8]? {
        guard !lacing.isEmpty || force else { return nil }
        return page(flags: flags, granule: override ?? granule)
    }

    /// Makes the page being filled into bytes and starts the next.
    private mutating func page(flags: UInt8, granule: Int64) -> [UInt8] {
        var out = LittleEndianBytes()
        out.ascii("OggS")
        out.bytes.append(0)
        out.bytes.append(flags | (continued ? Self.continuedFlag : 0) | (sequence == 0 ? Self.beginningFlag : 0))
        out.u64(UInt64(bitPattern: granule))
        out.u32(serial)
        out.u32(sequence)
        out.u32(0)
        out.bytes.append(UInt8(lacing.count))
        out.bytes += lacing
        out.bytes += body
        let crc = out.bytes.withUnsafeBytes { OggCRC.page($0) }
        for i in 0..<4 { out.bytes[22 + i] = UInt8(truncatingIfNeeded: crc >> (8 * UInt32(i))) }
        sequence &+= 1
        lacing.removeAll(keepingCapacity: true)
        body.removeAll(keepingCapacity: true)
        continued = false
        self.granule = -1
        packetsOnPage = 0
        return out.bytes
    }

    /// A page of its own for `packet` at sequence `sequence`: what ``addAlone(_:granuleAfter:flags:)``
    /// makes for a packet of at most 65024 bytes (one page), to rewrite a header page in place.
    static func singlePage(_ packet: [UInt8], serial: UInt32, sequence: UInt32, flags: UInt8) -> [UInt8] {
        var builder = OggPageBuilder(serial: serial)
        builder.sequence = sequence
        var pages = packet.withUnsafeBytes { builder.add($0, granuleAfter: 0) }
        pages.append(builder.page(flags: flags, granule: 0))
        return pages[0]
    }
}
