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
    /// The rewritten frame, or nil when its reservoir lies within the `available` bytes of
    /// main data the decoder holds from earlier frames.
    static func rewrite(_ frame: UnsafeRawBufferPointer, _ side: MP3SideInfo, available: Int) -> [UInt8]? {
        guard side.mainDataBegin > available else { return nil }
        let missing = side.mainDataBegin - available
        var bytes = [UInt8](frame)
        let granules = side.granules
        let mpeg1 = side.mpeg1

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
        BitCursor.write(&bytes, at: side.sideStart * 8, bits: mpeg1 ? 9 : 8, value: available)
        if side.hasCRC {
            let crc = crc16(bytes[2..<4] + bytes[side.sideStart..<side.mainStart])
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

    /// The frame with every granule silent (no bits, no big values, no window switching) and
    /// no reservoir: decoding it keeps its main data as the next frame's reservoir.
    static func silenced(_ frame: UnsafeRawBufferPointer, _ side: MP3SideInfo) -> [UInt8] {
        var bytes = [UInt8](frame)
        for g in side.granules.joined() {
            BitCursor.write(&bytes, at: g.at, bits: 12 + 9 + 8, value: 0)
            BitCursor.write(&bytes, at: g.compressAt, bits: g.compressBits + 1, value: 0)  // and window_switching_flag
        }
        BitCursor.write(&bytes, at: side.sideStart * 8, bits: side.mpeg1 ? 9 : 8, value: 0)
        if side.hasCRC {
            let crc = crc16(bytes[2..<4] + bytes[side.sideStart..<side.mainStart])
            bytes[4] = UInt8(crc >> 8)
            bytes[5] = UInt8(crc & 0xFF)
        }
        return bytes
    }
}
