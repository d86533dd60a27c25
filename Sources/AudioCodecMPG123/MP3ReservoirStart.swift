/// A Layer III frame whose bit reservoir (`main_data_begin`) reaches back further than the
/// frames the decoder was given — the first frames of a stream cut after its first frame, a
/// frame after a dropped Xing or VBRI frame, the first frames after a seek — rewritten so
/// libmpg123 decodes it as ffmpeg's decoder does.
///
/// libmpg123 drops such a frame whole (silence). ffmpeg (libavcodec/mpegaudiodec) counts the
/// missing bytes off the granules in order: each granule whose data would start in the missing
/// part is silent, and the granules after it are decoded from where their data lies in this
/// frame. The rewrite does that in the side information alone, so the main data — and the
/// reservoir the next frame reads from its end — stays as it is: `main_data_begin` becomes the
/// bytes the decoder holds, and the silent granules take up those and this frame's bits before
/// the first decoded granule's data, with no scalefactors, no big values and a global gain of
/// 0 (what they decode to is below 1e-15 of full scale). The CRC, if the frame has one, is
/// computed again.
enum MP3ReservoirStart {
    /// The `main_data_begin` and main data length of a Layer III frame; nil for another layer.
    static func reservoir(_ frame: UnsafeRawBufferPointer) -> (begin: Int, mainLength: Int)? {
        guard frame.count >= 6, frame[0] == 0xFF, frame[1] & 0xE0 == 0xE0, frame[1] >> 1 & 3 == 1 else { return nil }
        let mpeg1 = frame[1] >> 3 & 3 == 3
        let mono = frame[3] >> 6 == 3
        let sideStart = 4 + (frame[1] & 1 == 0 ? 2 : 0)
        let mainStart = sideStart + (mpeg1 ? (mono ? 17 : 32) : (mono ? 9 : 17))
        guard frame.count > mainStart + 1 else { return nil }
        let begin = mpeg1 ? Int(frame[sideStart]) << 1 | Int(frame[sideStart + 1] >> 7) : Int(frame[sideStart])
        return (begin, frame.count - mainStart)
    }

    /// The rewritten frame, or nil when `frame` is not Layer III or its reservoir lies within
    /// the `available` bytes of main data the decoder holds from earlier frames.
    static func rewrite(_ frame: UnsafeRawBufferPointer, available: Int) -> [UInt8]? {
        guard frame.count >= 6, frame[0] == 0xFF, frame[1] & 0xE0 == 0xE0, frame[1] >> 1 & 3 == 1 else { return nil }
        let mpeg1 = frame[1] >> 3 & 3 == 3
        let mono = frame[3] >> 6 == 3
        let hasCRC = frame[1] & 1 == 0
        let channels = mono ? 1 : 2
        let sideStart = 4 + (hasCRC ? 2 : 0)
        let sideLength = mpeg1 ? (mono ? 17 : 32) : (mono ? 9 : 17)
        let mainStart = sideStart + sideLength
        guard frame.count > mainStart else { return nil }
        var bytes = [UInt8](frame)
        var side = BitCursor(start: sideStart * 8)
        let mainDataBegin = side.read(bytes, mpeg1 ? 9 : 8)
        guard mainDataBegin > available else { return nil }
        let missing = mainDataBegin - available
        side.skip(mpeg1 ? (mono ? 5 : 3) : (mono ? 1 : 2))
        if mpeg1 { side.skip(4 * channels) }  // scfsi

        // The granule fields, in order: where part2_3_length, big_values and
        // scalefac_compress sit, and part2_3_length.
        struct Granule { var at: Int; var length: Int; var compressAt: Int; var compressBits: Int; var count1At: Int }
        var granules: [[Granule]] = []
        for _ in 0..<(mpeg1 ? 2 : 1) {
            var row: [Granule] = []
            for _ in 0..<channels {
                let at = side.position
                let length = side.read(bytes, 12)
                side.skip(9 + 8)  // big_values, global_gain
                let compressAt = side.position
                let compressBits = mpeg1 ? 4 : 9
                side.skip(compressBits)
                let windowSwitching = side.read(bytes, 1) == 1
                side.skip(windowSwitching ? 2 + 1 + 2 * 5 + 3 * 3 : 3 * 5 + 4 + 3)
                side.skip(mpeg1 ? 2 : 1)  // (preflag,) scalefac_scale
                let count1At = side.position
                side.skip(1)
                row.append(Granule(at: at, length: length, compressAt: compressAt, compressBits: compressBits, count1At: count1At))
            }
            granules.append(row)
        }

        // ffmpeg: granules are silent while the bits counted so far fall short of the missing
        // bytes; the next granule's data starts `skip` bits into this frame's main data.
        var counted = 0
        var silent = 0
        while silent < granules.count, counted / 8 < missing {
            counted += granules[silent].reduce(0) { $0 + $1.length }
            silent += 1
        }
        // The silent granules take up the bits from the start of the held bytes to there.
        var skip = max(0, counted - 8 * missing)
        for row in granules[0..<silent] {
            for g in row {
                let length = min(g.length, skip)
                skip -= length
                BitCursor.write(&bytes, at: g.at, bits: 12, value: length)
                BitCursor.write(&bytes, at: g.at + 12, bits: 9 + 8, value: 0)  // big_values, global_gain
                BitCursor.write(&bytes, at: g.compressAt, bits: g.compressBits, value: 0)
                BitCursor.write(&bytes, at: g.count1At, bits: 1, value: 1)
            }
        }
        BitCursor.write(&bytes, at: sideStart * 8, bits: mpeg1 ? 9 : 8, value: available)
        if hasCRC {
            let crc = crc16(bytes[2..<4] + bytes[sideStart..<mainStart])
            bytes[4] = UInt8(crc >> 8)
            bytes[5] = UInt8(crc & 0xFF)
        }
        return bytes
    }

    /// The MPEG audio CRC-16 (polynomial 0x8005, initial 0xFFFF) of the header's last two
    /// bytes and the side information.
    static func crc16(_ data: some Sequence<UInt8>) -> UInt16 {
        var crc: UInt16 = 0xFFFF
        for byte in data {
            crc ^= UInt16(byte) << 8
            for _ in 0..<8 { crc = crc & 0x8000 != 0 ? crc << 1 ^ 0x8005 : crc << 1 }
        }
        return crc
    }
}

/// A bit position in a byte array, most significant bit first.
private struct BitCursor {
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
