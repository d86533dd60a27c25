/// Adler-32 (RFC 1950), updated piece by piece. ffmpeg's crc muxer starts it at 1 (the RFC's
/// value); its framecrc muxer starts each packet's at 0 (`av_adler32_update(0, …)`).
public struct Adler32 {
    private var a: UInt32
    private var b: UInt32

    /// A checksum of nothing yet, started at `start` (1 for `-f crc`, 0 for `-f framecrc`).
    public init(start: UInt32 = 1) {
        a = start & 0xFFFF
        b = start >> 16
    }

    /// Adds `bytes`.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        var index = 0
        while index < bytes.count {
            let end = min(index + 5552, bytes.count)
            for i in index..<end {
                a += UInt32(bytes[i])
                b += a
            }
            a %= 65521
            b %= 65521
            index = end
        }
    }

    /// The checksum so far.
    public var value: UInt32 { b << 16 | a }
}

/// Adler-32 of the bytes of `samples` (native byte order), as ffmpeg's crc muxer computes it
/// for `-c:a pcm_f32le -f crc`.
public func adler32(_ samples: [Float]) -> UInt32 {
    var sum = Adler32()
    samples.withUnsafeBytes { sum.update($0) }
    return sum.value
}

/// Adler-32 of `bytes` started from `start` (0 for ffmpeg's framecrc).
public func adler32(_ bytes: ArraySlice<UInt8>, start: UInt32 = 1) -> UInt32 {
    var sum = Adler32(start: start)
    bytes.withUnsafeBytes { sum.update($0) }
    return sum.value
}
