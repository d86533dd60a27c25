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
///
/// The frame after one ffmpeg rejects is rebuilt too (``carrying(_:_:reservoir:)``): ffmpeg
/// keeps the rejected frame's last bytes as its reservoir, which libmpg123, never given that
/// frame, does not hold, so they go into the frame itself.
enum MP3ReservoirStart {
    /// The rewritten frame, or nil when its reservoir lies within the `available` bytes of
    /// main data the decoder holds from earlier frames.
    static func rewrite(_ frame: UnsafeRawBufferPointer, _ side: MP3SideInfo, available: Int) -> [UInt8]? {
        guard side.mainDataBegin > available else { return nil }
        var bytes = [UInt8](frame)
        _ = silenceMissing(&bytes, side, missing: side.mainDataBegin - available)
        BitCursor.write(&bytes, at: side.sideStart * 8, bits: side.mpeg1 ? 9 : 8, value: available)
        fixCRC(&bytes, side)
        return bytes
    }

    /// Rewrites the side information in `bytes` so the granules whose data would start in the
    /// `missing` bytes are silent, as ffmpeg decodes them: they get no scalefactors, no big
    /// values, a global gain of 0, and between them just the bits up to the first decoded
    /// granule's data. Returns where the last granule's data ends, in bits from the start of
    /// the bytes that are there.
    private static func silenceMissing(_ bytes: inout [UInt8], _ side: MP3SideInfo, missing: Int) -> Int {
        let granules = side.granules
        // ffmpeg: granules are silent while the bits counted so far fall short of the missing
        // bytes; the next granule's data starts `skip` bits after the bytes that are there.
        var counted = 0
        var silent = 0
        while silent < granules.count, counted / 8 < missing {
            counted += granules[silent].reduce(0) { $0 + $1.length }
            silent += 1
        }
        let start = max(0, counted - 8 * missing)
        var skip = start
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
        return start + granules[silent...].joined().reduce(0) { $0 + $1.length }
    }

    /// The frame rebuilt to hold `reservoir` — the bytes ffmpeg holds for it, of which its
    /// `main_data_begin` reaches back into the last — before its own main data, in a longer
    /// frame (a higher bitrate index) with `main_data_begin` 0, the granules whose data is not
    /// there silent. The bytes the longer frame has spare go after the granules' data, so the
    /// unused end of the main data, the next frame's reservoir, stays last. Nil when no frame
    /// of the stream's version and rate is long enough.
    static func carrying(_ frame: UnsafeRawBufferPointer, _ side: MP3SideInfo, reservoir: [UInt8]) -> [UInt8]? {
        let kept = reservoir.suffix(side.mainDataBegin)
        var head = [UInt8](frame[0..<side.mainStart])
        let end = side.mainDataBegin > kept.count
            ? silenceMissing(&head, side, missing: side.mainDataBegin - kept.count)
            : side.granules.joined().reduce(0) { $0 + $1.length }
        let body = Array(kept) + Array(frame[side.mainStart...])
        let used = min(body.count, (end + 7) / 8)
        let needed = side.mainStart + body.count
        guard let choice = longerFrame(frame, side, holding: needed) else { return nil }
        head[2] = UInt8(choice.index << 4) | head[2] & 0x0D | UInt8(choice.pad << 1)
        BitCursor.write(&head, at: side.sideStart * 8, bits: side.mpeg1 ? 9 : 8, value: 0)
        fixCRC(&head, side)
        return head + body[0..<used] + [UInt8](repeating: 0, count: choice.length - needed) + body[used...]
    }

    /// The shortest frame of the stream's version and rate (bitrate index 1–14, padding 0 or 1)
    /// of at least `needed` bytes; nil when none is that long or the header's version or rate
    /// index is reserved.
    private static func longerFrame(_ frame: UnsafeRawBufferPointer, _ side: MP3SideInfo, holding needed: Int)
        -> (index: Int, pad: Int, length: Int)?
    {
        let versionBits = Int(frame[1] >> 3 & 3), rateIndex = Int(frame[2] >> 2 & 3)
        guard rateIndex < 3, versionBits != 1 else { return nil }
        let rate = [[11025, 12000, 8000], [], [22050, 24000, 16000], [44100, 48000, 32000]][versionBits][rateIndex]
        let kbps = side.mpeg1
            ? [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320]
            : [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160]
        for index in 1...14 {
            for pad in 0...1 {
                let length = (side.mpeg1 ? 144 : 72) * kbps[index] * 1000 / rate + pad
                if length >= needed { return (index, pad, length) }
            }
        }
        return nil
    }

    /// Computes the CRC of a CRC-protected frame again.
    private static func fixCRC(_ bytes: inout [UInt8], _ side: MP3SideInfo) {
        guard side.hasCRC else { return }
        let crc = crc16(bytes[2..<4] + bytes[side.sideStart..<side.mainStart])
        bytes[4] = UInt8(crc >> 8)
        bytes[5] = UInt8(crc & 0xFF)
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
