import AudioCore

/// A bounds-checked cursor over the bytes of one chunk. Every read past the end throws
/// `invalidChunk` naming the chunk and its file offset, so parsers never trap on short data.
struct ByteReader {
    let bytes: [UInt8]
    /// Where the bytes start in the file, for error messages.
    let fileOffset: Int64
    let chunk: String
    private(set) var position = 0

    init(_ bytes: [UInt8], fileOffset: Int64, chunk: String) {
        self.bytes = bytes
        self.fileOffset = fileOffset
        self.chunk = chunk
    }

    var remaining: Int { bytes.count - position }

    func error(_ reason: String, _ code: AudioFileError.Code = .invalidChunk) -> AudioFileError {
        AudioFileError(code, reason, chunk: chunk, offset: fileOffset)
    }

    private mutating func take(_ n: Int) throws(AudioFileError) -> Int {
        guard n <= remaining else {
            throw error("chunk of \(bytes.count) bytes ends inside a field at byte \(position)")
        }
        defer { position += n }
        return position
    }

    mutating func skip(_ n: Int) throws(AudioFileError) { _ = try take(n) }

    mutating func u8() throws(AudioFileError) -> UInt8 { bytes[try take(1)] }

    mutating func u16be() throws(AudioFileError) -> UInt16 {
        let p = try take(2)
        return UInt16(bytes[p]) << 8 | UInt16(bytes[p + 1])
    }
    mutating func u16le() throws(AudioFileError) -> UInt16 {
        let p = try take(2)
        return UInt16(bytes[p + 1]) << 8 | UInt16(bytes[p])
    }
    mutating func u32be() throws(AudioFileError) -> UInt32 {
        let p = try take(4)
        return bytes.be32(p)
    }
    mutating func u32le() throws(AudioFileError) -> UInt32 {
        let p = try take(4)
        return bytes.le32(p)
    }
    mutating func u64be() throws(AudioFileError) -> UInt64 {
        let p = try take(8)
        return bytes.be64(p)
    }
    mutating func u64le() throws(AudioFileError) -> UInt64 {
        let p = try take(8)
        return UInt64(bytes.le32(p)) | UInt64(bytes.le32(p + 4)) << 32
    }
    mutating func f64be() throws(AudioFileError) -> Double { Double(bitPattern: try u64be()) }
    mutating func f32be() throws(AudioFileError) -> Float { Float(bitPattern: try u32be()) }
    mutating func fourCC() throws(AudioFileError) -> FourCharCode { FourCharCode(rawValue: try u32be()) }
    mutating func data(_ n: Int) throws(AudioFileError) -> ArraySlice<UInt8> {
        let p = try take(n)
        return bytes[p..<(p + n)]
    }

    /// A CAF variable-length integer: big-endian base-128, high bit set on all but the last byte.
    mutating func varint() throws(AudioFileError) -> Int64 {
        var value: Int64 = 0
        for _ in 0..<10 {
            let byte = try u8()
            guard value <= (Int64.max >> 7) else { throw error("variable-length integer overflows 64 bits") }
            value = value << 7 | Int64(byte & 0x7F)
            if byte & 0x80 == 0 { return value }
        }
        throw error("variable-length integer longer than 10 bytes")
    }

    /// An 80-bit IEEE 754 extended float (AIFF's sample rate).
    mutating func extended80() throws(AudioFileError) -> Double {
        let p = try take(10)
        let signExp = Int(bytes[p]) << 8 | Int(bytes[p + 1])
        let mantissa = bytes.be64(p + 2)
        let exponent = signExp & 0x7FFF
        if exponent == 0 && mantissa == 0 { return 0 }
        if exponent == 0x7FFF { return .nan }
        let magnitude = Double(sign: .plus, exponent: exponent - 16383 - 63, significand: Double(mantissa))
        return signExp & 0x8000 != 0 ? -magnitude : magnitude
    }

    /// A NUL-terminated UTF-8 string (CAF info).
    mutating func cString() throws(AudioFileError) -> String {
        guard let end = bytes[position...].firstIndex(of: 0) else { throw error("string without terminating NUL") }
        let text = String(decoding: bytes[position..<end], as: UTF8.self)
        position = end + 1
        return text
    }
}

extension Array where Element == UInt8 {
    @inline(__always) func be32(_ p: Int) -> UInt32 {
        UInt32(self[p]) << 24 | UInt32(self[p + 1]) << 16 | UInt32(self[p + 2]) << 8 | UInt32(self[p + 3])
    }
    @inline(__always) func le32(_ p: Int) -> UInt32 {
        UInt32(self[p + 3]) << 24 | UInt32(self[p + 2]) << 16 | UInt32(self[p + 1]) << 8 | UInt32(self[p])
    }
    @inline(__always) func be64(_ p: Int) -> UInt64 { UInt64(be32(p)) << 32 | UInt64(be32(p + 4)) }
}

/// Text of a metadata chunk: up to the first NUL, trailing spaces removed, decoded as UTF-8
/// (Latin-1 bytes that are not UTF-8 are decoded one byte per character).
func metadataText(_ bytes: some Collection<UInt8>) -> String {
    let body = bytes.prefix { $0 != 0 }
    var text: String
    if let utf8 = String(validating: body, as: UTF8.self) {
        text = utf8
    } else {
        text = String(String.UnicodeScalarView(body.map { Unicode.Scalar($0) }))
    }
    while text.last == " " { text.removeLast() }
    return text
}

extension Array {
    /// `withUnsafeMutableBytes` whose body throws ``AudioFileError`` only.
    mutating func withMutableBytes<R>(
        _ body: (UnsafeMutableRawBufferPointer) throws(AudioFileError) -> R
    ) throws(AudioFileError) -> R {
        let result: Result<R, AudioFileError> = withUnsafeMutableBytes { buffer in
            Result { () throws(AudioFileError) in try body(buffer) }
        }
        return try result.get()
    }

    /// `withUnsafeBytes` whose body throws ``AudioFileError`` only.
    func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws(AudioFileError) -> R) throws(AudioFileError) -> R {
        let result: Result<R, AudioFileError> = withUnsafeBytes { buffer in
            Result { () throws(AudioFileError) in try body(buffer) }
        }
        return try result.get()
    }

    /// `withUnsafeBufferPointer` whose body throws ``AudioFileError`` only.
    func withBuffer<R>(_ body: (UnsafeBufferPointer<Element>) throws(AudioFileError) -> R) throws(AudioFileError) -> R {
        let result: Result<R, AudioFileError> = withUnsafeBufferPointer { buffer in
            Result { () throws(AudioFileError) in try body(buffer) }
        }
        return try result.get()
    }

    /// `withUnsafeMutableBufferPointer` whose body throws ``AudioFileError`` only.
    mutating func withMutableBuffer<R>(
        _ body: (UnsafeMutableBufferPointer<Element>) throws(AudioFileError) -> R
    ) throws(AudioFileError) -> R {
        let result: Result<R, AudioFileError> = withUnsafeMutableBufferPointer { buffer in
            Result { () throws(AudioFileError) in try body(buffer) }
        }
        return try result.get()
    }
}
