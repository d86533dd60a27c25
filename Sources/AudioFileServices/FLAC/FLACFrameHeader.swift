import AudioCore

/// A FLAC frame header (RFC 9639 §9.1): sync code, block size, rate, channels, depth and the
/// frame's (or first sample's) number, checked with its CRC-8.
public struct FLACFrameHeader: Sendable, Hashable {
    /// True for a variable-block-size stream (sync 0xFFF9): ``number`` is a sample number.
    public var variableBlockSize: Bool
    /// Frames (samples per channel) in the frame.
    public var blockSize: Int
    /// The rate the header names; nil when it refers to STREAMINFO.
    public var sampleRate: Int?
    /// Channels (1 … 8).
    public var channels: Int
    /// The depth the header names; nil when it refers to STREAMINFO.
    public var bitsPerSample: Int?
    /// The frame number (fixed block size) or the first sample's number (variable).
    public var number: Int64
    /// The header's length in bytes, CRC-8 included.
    public var length: Int

    /// The longest header: 4 fixed bytes, 7 of coded number, 2 of block size, 2 of rate, CRC-8.
    public static let maximumLength = 16

    /// Parses the header at the start of `bytes`; nil unless the sync code, every field and the
    /// CRC-8 are valid. `bytes` may hold fewer than ``maximumLength`` bytes only at the end of
    /// the data.
    public init?(_ bytes: UnsafeRawBufferPointer) {
        let n = bytes.count
        guard n >= 6, bytes[0] == 0xFF, bytes[1] & 0xFE == 0xF8 else { return nil }
        let b2 = Int(bytes[2]), b3 = Int(bytes[3])
        let blockCode = b2 >> 4, rateCode = b2 & 0xF
        let channelCode = b3 >> 4, sizeCode = b3 >> 1 & 7
        guard blockCode != 0, rateCode != 15, channelCode <= 10, sizeCode != 3, b3 & 1 == 0 else { return nil }
        // The coded number: UTF-8-like, 1 to 7 bytes.
        let first = Int(bytes[4])
        var extra: Int
        var value: Int64
        switch first {
        case 0x00...0x7F: (extra, value) = (0, Int64(first))
        case 0xC0...0xDF: (extra, value) = (1, Int64(first & 0x1F))
        case 0xE0...0xEF: (extra, value) = (2, Int64(first & 0x0F))
        case 0xF0...0xF7: (extra, value) = (3, Int64(first & 0x07))
        case 0xF8...0xFB: (extra, value) = (4, Int64(first & 0x03))
        case 0xFC...0xFD: (extra, value) = (5, Int64(first & 0x01))
        case 0xFE: (extra, value) = (6, 0)
        default: return nil
        }
        var i = 5
        guard n >= i + extra + 1 else { return nil }
        for _ in 0..<extra {
            let c = bytes[i]
            guard c & 0xC0 == 0x80 else { return nil }
            value = value << 6 | Int64(c & 0x3F)
            i += 1
        }
        let variable = bytes[1] & 1 == 1
        if !variable && extra > 5 { return nil }  // a frame number has at most 31 bits
        // Block size and rate that follow the number.
        var size: Int
        switch blockCode {
        case 6:
            guard n > i else { return nil }
            size = Int(bytes[i]) + 1
            i += 1
        case 7:
            guard n > i + 1 else { return nil }
            size = (Int(bytes[i]) << 8 | Int(bytes[i + 1])) + 1
            i += 2
        default:
            size = FLACStreamInfo.blockSize(code: blockCode)!
        }
        var rate: Int?
        switch rateCode {
        case 0: rate = nil
        case 12:
            guard n > i else { return nil }
            rate = Int(bytes[i]) * 1000
            i += 1
        case 13, 14:
            guard n > i + 1 else { return nil }
            rate = (Int(bytes[i]) << 8 | Int(bytes[i + 1])) * (rateCode == 14 ? 10 : 1)
            i += 2
        default:
            rate = [0, 88200, 176400, 192000, 8000, 16000, 22050, 24000, 32000, 44100, 48000, 96000][rateCode]
        }
        guard n > i, FLACCRC.crc8(UnsafeRawBufferPointer(rebasing: bytes[0..<i])) == bytes[i] else { return nil }
        variableBlockSize = variable
        blockSize = size
        sampleRate = rate
        channels = channelCode < 8 ? channelCode + 1 : 2
        bitsPerSample = [nil, 8, 12, nil, 16, 20, 24, 32][sizeCode]
        number = value
        length = i + 1
    }

    /// True when this header fits the stream `info` describes: channels, and the rate and
    /// depth where the header names them, and a block size no larger than the stream's.
    func fits(_ info: FLACStreamInfo) -> Bool {
        channels == info.channels && (sampleRate == nil || sampleRate == info.sampleRate)
            && (bitsPerSample == nil || bitsPerSample == info.bitsPerSample)
            && blockSize <= max(info.maximumBlockSize, 16)
    }
}

/// FLAC's two checksums: CRC-8 (polynomial 0x07) of frame headers and CRC-16 (polynomial
/// 0x8005) of whole frames, both MSB first with a zero start.
enum FLACCRC {
    static let table8: [UInt8] = (0..<256).map { i in
        var c = UInt8(i)
        for _ in 0..<8 { c = c & 0x80 != 0 ? (c << 1) ^ 0x07 : c << 1 }
        return c
    }

    static let table16: [UInt16] = (0..<256).map { i in
        var c = UInt16(i) << 8
        for _ in 0..<8 { c = c & 0x8000 != 0 ? (c << 1) ^ 0x8005 : c << 1 }
        return c
    }

    static func crc8(_ bytes: UnsafeRawBufferPointer) -> UInt8 {
        var crc: UInt8 = 0
        table8.withUnsafeBufferPointer { t in
            for b in bytes { crc = t[Int(crc ^ b)] }
        }
        return crc
    }

    /// Continues a CRC-16 over `bytes`.
    static func crc16(_ bytes: UnsafeRawBufferPointer, start: UInt16 = 0) -> UInt16 {
        var crc = start
        table16.withUnsafeBufferPointer { t in
            for b in bytes { crc = (crc << 8) ^ t[Int(UInt8(truncatingIfNeeded: crc >> 8) ^ b)] }
        }
        return crc
    }
}
