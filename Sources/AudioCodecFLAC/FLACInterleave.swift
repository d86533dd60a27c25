import CFLAC

/// libFLAC's per-channel planes of 32-bit samples → interleaved, left-justified integer PCM.
/// Mono and stereo, the common cases, have loops of their own.
enum FLACInterleave {
    static func int16(
        _ planes: UnsafePointer<UnsafePointer<FLAC__int32>?>, channels: Int, frames: Int, shift: Int,
        into out: UnsafeMutablePointer<Int16>
    ) {
        let s = Int32(shift)
        if channels == 2, let l = planes[0], let r = planes[1] {
            for i in 0..<frames {
                out[2 * i] = Int16(truncatingIfNeeded: l[i] &<< s)
                out[2 * i + 1] = Int16(truncatingIfNeeded: r[i] &<< s)
            }
            return
        }
        for c in 0..<channels {
            guard let plane = planes[c] else { continue }
            var o = out + c
            for i in 0..<frames {
                o.pointee = Int16(truncatingIfNeeded: plane[i] &<< s)
                o += channels
            }
        }
    }

    static func int32(
        _ planes: UnsafePointer<UnsafePointer<FLAC__int32>?>, channels: Int, frames: Int, shift: Int,
        into out: UnsafeMutablePointer<Int32>
    ) {
        let s = Int32(shift)
        if channels == 2, let l = planes[0], let r = planes[1] {
            for i in 0..<frames {
                out[2 * i] = l[i] &<< s
                out[2 * i + 1] = r[i] &<< s
            }
            return
        }
        for c in 0..<channels {
            guard let plane = planes[c] else { continue }
            var o = out + c
            for i in 0..<frames {
                o.pointee = plane[i] &<< s
                o += channels
            }
        }
    }
}
