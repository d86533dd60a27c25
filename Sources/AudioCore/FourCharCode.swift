/// Apple's status type: zero for success, otherwise an error code, often a four-character code.
public typealias OSStatus = Int32

/// A 32-bit code built from four ASCII characters, as Core Audio spells format IDs, chunk types
/// and many error codes (`'lpcm'`, `'caff'`, `'dta?'`).
public struct FourCharCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    public var rawValue: UInt32

    @inlinable public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Builds the code from up to four bytes of `string` (shorter strings are padded with spaces).
    public init(_ string: String) {
        var value: UInt32 = 0
        var count = 0
        for byte in string.utf8.prefix(4) {
            value = value << 8 | UInt32(byte)
            count += 1
        }
        while count < 4 {
            value = value << 8 | 0x20
            count += 1
        }
        self.rawValue = value
    }

    public init(stringLiteral value: String) { self.init(value) }

    /// Builds the code from four big-endian bytes.
    @inlinable public init(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8) {
        rawValue = UInt32(a) << 24 | UInt32(b) << 16 | UInt32(c) << 8 | UInt32(d)
    }

    /// The four bytes, most significant first.
    public var bytes: [UInt8] {
        [UInt8(rawValue >> 24), UInt8(rawValue >> 16 & 0xFF), UInt8(rawValue >> 8 & 0xFF), UInt8(rawValue & 0xFF)]
    }

    /// True when all four bytes are printable ASCII, so the code reads as text.
    public var isPrintable: Bool { bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F } }

    /// The four characters, with non-printable bytes escaped as `\xNN`.
    public var description: String {
        var out = ""
        for byte in bytes {
            if byte >= 0x20 && byte < 0x7F {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                out += "\\x" + hex(UInt64(byte), digits: 2)
            }
        }
        return out
    }
}

/// Formats `value` as upper-case hexadecimal, zero-padded to `digits`.
@usableFromInline
package func hex(_ value: UInt64, digits: Int) -> String {
    let text = String(value, radix: 16, uppercase: true)
    return text.count >= digits ? text : String(repeating: "0", count: digits - text.count) + text
}

extension OSStatus {
    /// The status as Apple's tools print it: a four-character code in quotes where it is one
    /// (`'dta?'`), else the decimal number.
    public var fourCharDescription: String {
        let code = FourCharCode(rawValue: UInt32(bitPattern: self))
        if code.isPrintable { return "'\(code)'" }
        return String(self)
    }
}
