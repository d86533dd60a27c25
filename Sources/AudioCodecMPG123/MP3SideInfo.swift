/// The side information of a Layer III frame (ISO/IEC 11172-3 2.4.1.7, ISO/IEC 13818-3
/// 2.4.1.7): where each field sits, for checking a frame as ffmpeg's decoder does and for
/// rewriting its reservoir (``MP3ReservoirStart``).
struct MP3SideInfo {
    /// One granule of one channel.
    struct Granule {
        /// The bit position of part2_3_length (big_values and global_gain follow).
        var at: Int
        /// part2_3_length: bits of scalefactors and Huffman data.
        var length: Int
        var bigValues: Int
        var compressAt: Int
        var compressBits: Int
        var count1At: Int
        /// window_switching_flag set with block_type 0, which the standard forbids.
        var forbiddenBlockType: Bool
    }

    var mpeg1: Bool
    var hasCRC: Bool
    /// Byte offsets of the side information and the main data in the frame.
    var sideStart: Int
    var mainStart: Int
    var mainDataBegin: Int
    /// Granules by granule, then channel.
    var granules: [[Granule]]
    /// Bytes of main data in the frame.
    var mainLength: Int

    /// The side information of the Layer III frame `frame`; nil for another layer or a frame
    /// too short to hold it.
    init?(_ frame: UnsafeRawBufferPointer) {
        guard frame.count >= 6, frame[0] == 0xFF, frame[1] & 0xE0 == 0xE0, frame[1] >> 1 & 3 == 1 else { return nil }
        mpeg1 = frame[1] >> 3 & 3 == 3
        let mono = frame[3] >> 6 == 3
        hasCRC = frame[1] & 1 == 0
        let channels = mono ? 1 : 2
        sideStart = 4 + (hasCRC ? 2 : 0)
        mainStart = sideStart + (mpeg1 ? (mono ? 17 : 32) : (mono ? 9 : 17))
        guard frame.count > mainStart else { return nil }
        mainLength = frame.count - mainStart
        let bytes = [UInt8](frame[0..<mainStart])
        var side = BitCursor(start: sideStart * 8)
        mainDataBegin = side.read(bytes, mpeg1 ? 9 : 8)
        side.skip(mpeg1 ? (mono ? 5 : 3) : (mono ? 1 : 2))
        if mpeg1 { side.skip(4 * channels) }  // scfsi
        granules = []
        for _ in 0..<(mpeg1 ? 2 : 1) {
            var row: [Granule] = []
            for _ in 0..<channels {
                let at = side.position
                let length = side.read(bytes, 12)
                let bigValues = side.read(bytes, 9)
                side.skip(8)  // global_gain
                let compressAt = side.position
                let compressBits = mpeg1 ? 4 : 9
                side.skip(compressBits)
                let windowSwitching = side.read(bytes, 1) == 1
                var forbidden = false
                if windowSwitching {
                    forbidden = side.read(bytes, 2) == 0
                    side.skip(1 + 2 * 5 + 3 * 3)
                } else {
                    side.skip(3 * 5 + 4 + 3)
                }
                side.skip(mpeg1 ? 2 : 1)  // (preflag,) scalefac_scale
                let count1At = side.position
                side.skip(1)
                row.append(Granule(
                    at: at, length: length, bigValues: bigValues, compressAt: compressAt, compressBits: compressBits,
                    count1At: count1At, forbiddenBlockType: forbidden))
            }
            granules.append(row)
        }
    }

    /// Whether ffmpeg's decoder takes the frame: no granule with big_values above 288 or with
    /// window switching and block type 0 (it drops a frame that has one).
    var isDecodable: Bool {
        granules.allSatisfy { $0.allSatisfy { $0.bigValues <= 288 && !$0.forbiddenBlockType } }
    }

    /// Bytes of main data left after this frame's granules, which ffmpeg keeps as the next
    /// frame's reservoir (at most 512).
    var unusedBytes: Int {
        let used = granules.joined().reduce(0) { $0 + $1.length } - 8 * mainDataBegin
        let usedBytes = used >= 0 ? (used + 7) / 8 : -(-used / 8)
        return min(512, max(0, mainLength - usedBytes))
    }
}

/// A bit position in a byte array, most significant bit first.
struct BitCursor {
    var position: Int

    init(start: Int) { position = start }

    /// The next `count` bits (at most 16) as a number; bits past the end read as 0.
    mutating func read(_ bytes: [UInt8], _ count: Int) -> Int {
        var value = 0
        for _ in 0..<count {
            let byte = position >> 3
            let bit = byte < bytes.count ? Int(bytes[byte] >> (7 - UInt8(position & 7)) & 1) : 0
            value = value << 1 | bit
            position += 1
        }
        return value
    }

    mutating func skip(_ count: Int) { position += count }

    /// Writes the low `bits` bits of `value` at bit `at` (within `bytes`).
    static func write(_ bytes: inout [UInt8], at: Int, bits: Int, value: Int) {
        for i in 0..<bits {
            let p = at + i
            guard p >> 3 < bytes.count else { return }
            let mask = UInt8(0x80) >> UInt8(p & 7)
            if value >> (bits - 1 - i) & 1 != 0 { bytes[p >> 3] |= mask } else { bytes[p >> 3] &= ~mask }
        }
    }
}
