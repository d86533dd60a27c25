import AudioCore

/// Priming, remainder and valid frames of an MPEG-4 audio track, from the first of these that the
/// file has and that fits its packets:
///
/// 1. the iTunes `iTunSMPB` item (`----`, mean `com.apple.iTunes`): hex fields
///    ` 00000000 PRIMING REMAINDER VALIDFRAMES …`, in frames of the AAC core: for HE-AAC whose
///    SBR doubles the rate, Apple's encoder writes 2112 priming frames and half the output's
///    frames (ffmpeg doubles them too), so they are doubled to the output rate;
/// 2. the track's edit list (`edts/elst`): the first non-empty edit's `media_time` is the priming,
///    its `segment_duration` (movie timescale, converted to the media timescale) the valid frames,
///    at most the `stts` total less the priming where that is short of what the packets hold;
/// 3. for data whose last packet may be short (ALAC, MP3): the `stts` total, when it is less than
///    the packets hold, gives the remainder;
/// 4. for AAC from Apple's encoder (the `©too` encoder tag names iTunes or Apple) without either:
///    Apple's 2112 priming frames (core frames: 4224 for HE-AAC). Any other AAC without 1 or 2
///    reports none: its encoder delay is not known.
///
/// Sources whose numbers do not fit the frames the packets hold (priming plus valid frames more
/// than the total) are passed over. Media times are converted from the media timescale to the
/// sample rate of the stream description (the SBR rate for `'aach'` and `'aacp'`).
enum MP4Gapless {
    /// One edit of an `elst`, in the units the box uses.
    struct Edit {
        var segmentDuration: Int64
        var mediaTime: Int64
    }

    /// The inputs, named.
    struct Facts {
        var iTunSMPB: String?
        var edits: [Edit]
        var movieTimescale: UInt32
        var mediaTimescale: UInt32
        var sampleRate: Double
        var totalFrames: Int64
        /// The `stts` total in the media timescale.
        var timedDuration: Int64
        var encoder: String?
        var formatID: AudioFormatID
        /// Output frames per AAC core frame (2 for HE-AAC at twice the core rate), which
        /// iTunSMPB and Apple's priming convention count in.
        var framesPerCoreFrame: Int64 = 1
    }

    /// Where the packet table info came from, for tools and tests.
    enum Origin: String, Sendable {
        case iTunSMPB, editList, sampleDurations, appleEncoderConvention, opusPreSkip
    }

    static func packetTableInfo(_ f: Facts) -> (info: AudioFilePacketTableInfo, origin: Origin)? {
        let total = f.totalFrames
        func make(_ priming: Int64, _ valid: Int64, _ origin: Origin) -> (AudioFilePacketTableInfo, Origin)? {
            guard priming >= 0, valid >= 0, priming <= Int64(Int32.max), priming <= total, valid <= total - priming else { return nil }
            let remainder = total - priming - valid
            guard remainder <= Int64(Int32.max) else { return nil }
            return (AudioFilePacketTableInfo(numberValidFrames: valid, primingFrames: Int32(priming), remainderFrames: Int32(remainder)), origin)
        }
        if let text = f.iTunSMPB, let fields = Optional(text.split(separator: " ").compactMap { UInt64($0, radix: 16) }),
           fields.count >= 4, fields[1] <= UInt64(Int32.max / 2), fields[3] <= UInt64(Int64.max / 2),
           let result = make(Int64(fields[1]) * f.framesPerCoreFrame, Int64(fields[3]) * f.framesPerCoreFrame, .iTunSMPB)
        {
            return result
        }
        if let edit = f.edits.first(where: { $0.mediaTime >= 0 }), f.mediaTimescale > 0 {
            let priming = frames(edit.mediaTime, timescale: f.mediaTimescale, rate: f.sampleRate)
            var valid = total - priming
            if edit.segmentDuration > 0, f.movieTimescale > 0 {
                let media = Double(edit.segmentDuration) * Double(f.mediaTimescale) / Double(f.movieTimescale)
                valid = min(valid, frames(clampedInt64(media), timescale: f.mediaTimescale, rate: f.sampleRate))
            }
            // A segment in a coarse movie timescale may round past the media's own samples.
            let timed = frames(f.timedDuration, timescale: f.mediaTimescale, rate: f.sampleRate)
            if timed > priming, timed < total { valid = min(valid, timed - priming) }
            if let result = make(priming, valid, .editList) { return result }
        }
        let aac: Set<AudioFormatID> = [.mpeg4AAC, .mpeg4AAC_HE, .mpeg4AAC_HE_V2]
        if !aac.contains(f.formatID), f.mediaTimescale > 0 {
            let timed = frames(f.timedDuration, timescale: f.mediaTimescale, rate: f.sampleRate)
            if timed > 0, timed < total { return make(0, timed, .sampleDurations) }
            return nil
        }
        if aac.contains(f.formatID), let encoder = f.encoder?.lowercased(), encoder.contains("itunes") || encoder.contains("apple") {
            let priming = 2112 * f.framesPerCoreFrame
            return make(priming, total - priming, .appleEncoderConvention)
        }
        return nil
    }

    /// `value` in `timescale` units as frames at `rate`.
    static func frames(_ value: Int64, timescale: UInt32, rate: Double) -> Int64 {
        if Double(timescale) == rate { return value }
        return clampedInt64(Double(value) * rate / Double(timescale))
    }

    static func clampedInt64(_ value: Double) -> Int64 { Int64(clampedInt(value)) }
}
