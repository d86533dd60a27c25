public import AudioCodecs
import AudioCore

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
/// The ES_Descriptor is read by AudioCore's `ESDescriptor`, the parser the MPEG-4 reader uses too.
public enum AACMagicCookie {
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
            if first == ESDescriptor.Tag.esDescriptor {
                return try audioSpecificConfig(ofDescriptor: bytes)
            }
            if let inner = atomPayload(bytes) {
                bytes = inner
                continue
            }
            // An esds atom's body without its header: version 0, 3 bytes of flags, then the descriptor.
            if bytes.count > 4, first == 0, bytes[bytes.startIndex + 4] == ESDescriptor.Tag.esDescriptor {
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

    /// The DecoderSpecificInfo of the ES_Descriptor (AudioCore's parser) `bytes` start with:
    /// `badData` when it is malformed, `formatNotSupported` when it is not for AAC.
    static func audioSpecificConfig(ofDescriptor bytes: ArraySlice<UInt8>) throws(AudioCodecError) -> [UInt8]? {
        let descriptor: ESDescriptor
        do { descriptor = try ESDescriptor(bytes: bytes) } catch { throw AudioCodecError(.badData, error.reason) }
        let indication = descriptor.objectTypeIndication
        guard ESDescriptor.aacObjectTypeIndications.contains(indication) else {
            let digits = Array("0123456789ABCDEF")
            throw AudioCodecError(
                .formatNotSupported, "objectTypeIndication 0x\(digits[Int(indication >> 4)])\(digits[Int(indication & 15)]) is not AAC")
        }
        return descriptor.decoderSpecificInfo
    }
}
