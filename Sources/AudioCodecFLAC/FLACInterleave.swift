import CFLAC

/// libFLAC's per-channel planes of 32-bit samples → interleaved, left-justified integer PCM of
/// 16 or 32 bits. Stereo, the common case, has a loop of its own.
enum FLACInterleave {
    static func samples<Sample: FixedWidthInteger>(
        _ planes: UnsafePointer<UnsafePointer<FLAC__int32>?>, channels: Int, frames: Int, shift: Int,
        into out: UnsafeMutablePointer<Sample>
    ) {
        let s = Int32(shift)
        if channels == 2, let l = planes[0], let r = planes[1] {
            for i in 0..<frames {
                out[2 * i] = Sample(truncatingIfNeeded: l[i] &<< s)
                out[2 * i + 1] = Sample(truncatingIfNeeded: r[i] &<< s)
            }
            return
        }
        for c in 0..<channels {
            guard let plane = planes[c] else { continue }
            var o = out + c
            for i in 0..<frames {
                o.pointee = Sample(truncatingIfNeeded: plane[i] &<< s)
                o += channels
            }
        }
    }
}
