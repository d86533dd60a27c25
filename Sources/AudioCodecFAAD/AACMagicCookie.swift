public import AudioCodecs

/// Finds the AudioSpecificConfig in an AAC magic cookie.
///
/// Cookies come in several shapes, all accepted:
/// - an MPEG-4 ES_Descriptor (ISO/IEC 14496-1, 7.2.6.5), as Apple stores in a CAF `kuki` chunk:
///   tag 0x03 → DecoderConfigDescriptor (tag 0x04) → DecoderSpecificInfo (tag 0x05), whose
///   payload is the AudioSpecificConfig;
/// - the same preceded by the 4-byte version and flags of an `esds` atom, or by a whole `esds`
///   atom header, or inside the atoms of a QuickTime `wave` atom;
/// - a bare AudioSpecificConfig (what the ADTS reader synthesises).
///
/// A descriptor's length is 1–4 bytes, seven bits each, high bit set on all but the last.
/// Every length is checked against the bytes that hold it.
public enum AACMagicCookie {
    /// MPEG-4 descriptor tags (ISO/IEC 14496-1, Table 1).
    enum Tag {
        static let esDescriptor: UInt8 = 0x03
        static let decoderConfig: UInt8 = 0x04
        static let decoderSpecificInfo: UInt8 = 0x05
    }

    /// The objectTypeIndication values whose DecoderSpecificInfo is an AudioSpecificConfig:
    /// MPEG-4 audio (0x40) and MPEG-2 AAC Main, LC and SSR (0x66–0x68).
    static let audioObjectTypeIndications: Set<UInt8> = [0x40, 0x66, 0x67, 0x68]

    /// The AudioSpecificConfig bytes in `cookie`. Returns nil when the cookie is a well-formed
    /// ES_Descriptor without a DecoderSpecificInfo (the caller falls back to the stream
    /// description). Throws `badData` for a malformed cookie and `formatNotSupported` when the
    /// descriptor is for a stream that is not AAC.
    public static func audioSpecificConfig(from cookie: [UInt8]) throws(AudioCodecError) -> [UInt8]? {
        var bytes = cookie[...]
        var depth = 0
        while true {
            depth += 1
            guard depth <= 8, let first = bytes.first else {
                throw AudioCodecError(.badData, "empty AAC magic cookie")
            }
            if first == Tag.esDescriptor {
                return try esDescriptor(bytes)
            }
            if let inner = atomPayload(bytes) {
                bytes = inner
                continue
            }
            // An esds atom's body without its header: version 0, 3 bytes of flags, then the descriptor.
            if bytes.count > 4, first == 0, bytes[bytes.startIndex + 4] == Tag.esDescriptor {
                bytes = bytes.dropFirst(4)
                continue
            }
            // Otherwise the cookie is the AudioSpecificConfig itself (whose object type is never 0,
            // so it cannot start with 0x03 or 0x00).
            return Array(bytes)
        }
    }

    /// The payload an `esds` atom or a QuickTime `wave` atom chain points to, or nil when `bytes`
    /// is not a sequence of atoms.
    static func atomPayload(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        var p = bytes.startIndex
        while bytes.endIndex - p >= 8 {
            let size = Int(bytes[p]) << 24 | Int(bytes[p + 1]) << 16 | Int(bytes[p + 2]) << 8 | Int(bytes[p + 3])
            let type = bytes[(p + 4)..<(p + 8)]
            guard type.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return nil }
            // A size of 0 ends the list (QuickTime's terminator atom); else it must fit.
            if size == 0 { break }
            guard size >= 8, size <= bytes.endIndex - p else { return nil }
            let body = bytes[(p + 8)..<(p + size)]
            switch Array(type) {
            case Array("esds".utf8):
                // version and flags, then the ES_Descriptor
                return body.count > 4 ? body.dropFirst(4) : nil
            case Array("wave".utf8):
                if let inner = atomPayload(body) { return inner }
            default:
                break
            }
            p += size
        }
        return nil
    }

    /// Reads a descriptor's tag and length at `p`; returns the tag and the body's range.
    static func descriptor(_ bytes: ArraySlice<UInt8>, at p: Int) throws(AudioCodecError) -> (tag: UInt8, body: Range<Int>) {
        guard p < bytes.endIndex else {
            throw AudioCodecError(.badData, "magic cookie ends before a descriptor tag")
        }
        let tag = bytes[p]
        var length = 0
        var q = p + 1
        for i in 0..<4 {
            guard q < bytes.endIndex else {
                throw AudioCodecError(.badData, "magic cookie ends inside the length of descriptor 0x\(hex(tag))")
            }
            let byte = bytes[q]
            q += 1
            length = length << 7 | Int(byte & 0x7F)
            if byte & 0x80 == 0 { break }
            if i == 3 {
                throw AudioCodecError(.badData, "descriptor 0x\(hex(tag)) has a length of more than 4 bytes")
            }
        }
        guard length <= bytes.endIndex - q else {
            throw AudioCodecError(
                .badData, "descriptor 0x\(hex(tag)) claims \(length) bytes but only \(bytes.endIndex - q) follow")
        }
        return (tag, q..<(q + length))
    }

    /// ES_Descriptor (ISO/IEC 14496-1, 7.2.6.5.1).
    static func esDescriptor(_ bytes: ArraySlice<UInt8>) throws(AudioCodecError) -> [UInt8]? {
        let (_, body) = try descriptor(bytes, at: bytes.startIndex)
        var p = body.lowerBound
        func need(_ n: Int, _ what: String) throws(AudioCodecError) {
            guard n <= body.upperBound - p else {
                throw AudioCodecError(.badData, "ES_Descriptor ends inside its \(what)")
            }
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
        let sub = bytes[p..<body.upperBound]
        var q = sub.startIndex
        while q < sub.endIndex {
            let (tag, inner) = try descriptor(sub, at: q)
            if tag == Tag.decoderConfig {
                return try decoderConfig(bytes[inner])
            }
            q = inner.upperBound
        }
        throw AudioCodecError(.badData, "ES_Descriptor without a DecoderConfigDescriptor")
    }

    /// DecoderConfigDescriptor (ISO/IEC 14496-1, 7.2.6.6.1).
    static func decoderConfig(_ body: ArraySlice<UInt8>) throws(AudioCodecError) -> [UInt8]? {
        // objectTypeIndication, streamType/upStream/reserved, bufferSizeDB (3), maxBitrate (4), avgBitrate (4)
        guard body.count >= 13 else {
            throw AudioCodecError(.badData, "DecoderConfigDescriptor of \(body.count) bytes (13 are needed)")
        }
        let indication = body[body.startIndex]
        guard audioObjectTypeIndications.contains(indication) else {
            throw AudioCodecError(.formatNotSupported, "objectTypeIndication 0x\(hex(indication)) is not AAC")
        }
        let sub = body.dropFirst(13)
        var q = sub.startIndex
        while q < sub.endIndex {
            let (tag, inner) = try descriptor(sub, at: q)
            if tag == Tag.decoderSpecificInfo {
                return Array(sub[inner])
            }
            q = inner.upperBound
        }
        return nil
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 15)]])
    }
}
