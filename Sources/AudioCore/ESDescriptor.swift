/// The parts of an MPEG-4 ES_Descriptor (ISO/IEC 14496-1, 7.2.6.5) an audio stream needs: the
/// DecoderConfigDescriptor's objectTypeIndication and its DecoderSpecificInfo (for AAC, the
/// AudioSpecificConfig).
///
/// The one parser of the package: the MPEG-4 reader (an `esds` box) and AAC decoding (a magic
/// cookie) both read descriptors here. A descriptor's length is 1–4 bytes, seven bits each, high
/// bit set on all but the last; every length is checked against the bytes that hold it.
public struct ESDescriptor: Hashable, Sendable {
    /// Why bytes are not an ES_Descriptor.
    public struct ParseError: Error, Sendable, CustomStringConvertible {
        /// What is wrong, naming the descriptor or field.
        public var reason: String
        public var description: String { reason }
        init(_ reason: String) { self.reason = reason }
    }

    /// MPEG-4 descriptor tags (ISO/IEC 14496-1, Table 1).
    public enum Tag {
        /// ES_DescrTag.
        public static let esDescriptor: UInt8 = 0x03
        /// DecoderConfigDescrTag.
        public static let decoderConfig: UInt8 = 0x04
        /// DecSpecificInfoTag.
        public static let decoderSpecificInfo: UInt8 = 0x05
    }

    /// The objectTypeIndication values whose DecoderSpecificInfo is an AudioSpecificConfig:
    /// MPEG-4 audio (0x40) and MPEG-2 AAC Main, LC and SSR (0x66–0x68).
    public static let aacObjectTypeIndications: Set<UInt8> = [0x40, 0x66, 0x67, 0x68]

    /// The first DecoderConfigDescriptor's objectTypeIndication (0x40: MPEG-4 audio; 0x69 and
    /// 0x6B: MPEG audio).
    public let objectTypeIndication: UInt8
    /// The DecoderSpecificInfo's payload; nil when the DecoderConfigDescriptor has none.
    public let decoderSpecificInfo: [UInt8]?

    /// Parses the ES_Descriptor at the start of `bytes` (tag 0x03: after an `esds` box's
    /// version and flags).
    public init(bytes: ArraySlice<UInt8>) throws(ParseError) {
        let es = try Self.descriptor(bytes, at: bytes.startIndex)
        guard es.tag == Tag.esDescriptor else {
            throw ParseError("not an ES_Descriptor (tag 0x\(Self.hex(es.tag)))")
        }
        let body = es.body
        var p = body.lowerBound
        func need(_ n: Int, _ what: String) throws(ParseError) {
            guard n <= body.upperBound - p else { throw ParseError("ES_Descriptor ends inside its \(what)") }
        }
        try need(3, "ES_ID and flags")
        let flags = bytes[p + 2]
        p += 3
        if flags & 0x80 != 0 {  // streamDependenceFlag → dependsOn_ES_ID
            try need(2, "dependsOn_ES_ID")
            p += 2
        }
        if flags & 0x40 != 0 {  // URL_Flag → URLlength, URLstring
            try need(1, "URL length")
            let n = Int(bytes[p])
            p += 1
            try need(n, "URL")
            p += n
        }
        if flags & 0x20 != 0 {  // OCRstreamFlag → OCR_ES_Id
            try need(2, "OCR_ES_ID")
            p += 2
        }
        while p < body.upperBound {
            let (tag, inner) = try Self.descriptor(bytes[p..<body.upperBound], at: p)
            if tag == Tag.decoderConfig {
                (objectTypeIndication, decoderSpecificInfo) = try Self.decoderConfig(bytes[inner])
                return
            }
            p = inner.upperBound
        }
        throw ParseError("ES_Descriptor without a DecoderConfigDescriptor")
    }

    /// Parses the ES_Descriptor at the start of `bytes`.
    public init(bytes: [UInt8]) throws(ParseError) { try self.init(bytes: bytes[...]) }

    /// DecoderConfigDescriptor (ISO/IEC 14496-1, 7.2.6.6.1): objectTypeIndication, then the
    /// first DecoderSpecificInfo among the descriptors after its 13 fixed bytes.
    private static func decoderConfig(_ body: ArraySlice<UInt8>) throws(ParseError) -> (UInt8, [UInt8]?) {
        // objectTypeIndication, streamType/upStream/reserved, bufferSizeDB (3), maxBitrate (4), avgBitrate (4)
        guard body.count >= 13 else { throw ParseError("DecoderConfigDescriptor of \(body.count) bytes (13 are needed)") }
        var q = body.startIndex + 13
        while q < body.endIndex {
            let (tag, inner) = try descriptor(body, at: q)
            if tag == Tag.decoderSpecificInfo { return (body[body.startIndex], Array(body[inner])) }
            q = inner.upperBound
        }
        return (body[body.startIndex], nil)
    }

    /// Reads a descriptor's tag and length at `p`; returns the tag and the body's range.
    private static func descriptor(_ bytes: ArraySlice<UInt8>, at p: Int) throws(ParseError) -> (tag: UInt8, body: Range<Int>) {
        guard p < bytes.endIndex else { throw ParseError("ES_Descriptor ends before a descriptor tag") }
        let tag = bytes[p]
        var length = 0
        var q = p + 1
        for i in 0..<4 {
            guard q < bytes.endIndex else { throw ParseError("ES_Descriptor ends inside the length of descriptor 0x\(hex(tag))") }
            let byte = bytes[q]
            q += 1
            length = length << 7 | Int(byte & 0x7F)
            if byte & 0x80 == 0 { break }
            if i == 3 { throw ParseError("descriptor 0x\(hex(tag)) has a length of more than 4 bytes") }
        }
        guard length <= bytes.endIndex - q else {
            throw ParseError("descriptor 0x\(hex(tag)) claims \(length) bytes but only \(bytes.endIndex - q) follow")
        }
        return (tag, q..<(q + length))
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 15)]])
    }
}
