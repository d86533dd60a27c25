import AudioCore

/// The packet table info of an MPEG audio stream: from iTunes' `iTunSMPB` comment, else from
/// the LAME tag the way ffmpeg's MP3 demuxer trims (libavformat/mp3dec.c).
///
/// ffmpeg skips the LAME tag's encoder delay plus the synthesis filter bank's 529 frames from
/// the start — whatever the delay, 0 included — and, when the Xing/Info header gives a frame
/// count *F*, drops the decoded frames from `F × N − padding + 529` up to `F × N` (*N* frames
/// per packet): nothing at the end when the padding is 529 or less or the count runs past
/// the frames there are. Where the stream has more frames than the count, ffmpeg drops a
/// stretch in the middle, which a packet table cannot say; those files keep their end. A Xing byte count smaller than the bytes that follow
/// the Xing frame's header by more than a sixteenth of itself marks a concatenated file, whose
/// frame count ffmpeg disregards, so no end is trimmed. Without a LAME tag nothing is trimmed.
enum MP3Gapless {
    /// The LAME tag's numbers and what the Xing/Info header says beside them.
    struct LAME: Equatable {
        /// Encoder delay and padding in frames.
        var delay: Int
        var padding: Int
        /// The stream's frames by the Xing/Info frame count (`F × N`), when ffmpeg believes it.
        var declaredFrames: Int64?
    }

    /// The LAME facts of `encoder` for a first frame at `frameOffset` in a file of `fileSize`
    /// bytes with `framesPerPacket`; nil without a LAME tag.
    static func lame(_ encoder: MP3Tags.EncoderInfo?, frameOffset: Int64, fileSize: Int64, framesPerPacket: Int) -> LAME? {
        guard let encoder, let delay = encoder.delay, let padding = encoder.padding else { return nil }
        var frames = encoder.frames.map { Int64($0) } ?? 0
        if let declared = encoder.bytes.map({ Int64($0) }), declared > 0 {
            let following = max(0, fileSize - (frameOffset + 4))
            if following > declared, following - declared > declared >> 4 { frames = 0 }
        }
        return LAME(delay: delay, padding: padding, declaredFrames: frames > 0 ? frames * Int64(framesPerPacket) : nil)
    }

    /// Priming, valid and remainder frames from `iTunSMPB`, else from the LAME tag (see the
    /// type's documentation), when they fit `totalFrames`.
    static func packetTableInfo(
        iTunSMPB: String?, lame: LAME?, totalFrames total: Int64
    ) -> (info: AudioFilePacketTableInfo, source: String)? {
        func make(_ priming: Int64, _ valid: Int64, _ remainder: Int64) -> AudioFilePacketTableInfo? {
            guard priming >= 0, valid >= 0, remainder >= 0, priming <= Int64(Int32.max), remainder <= Int64(Int32.max),
                  priming + valid + remainder == total
            else { return nil }
            return AudioFilePacketTableInfo(numberValidFrames: valid, primingFrames: Int32(priming), remainderFrames: Int32(remainder))
        }
        if let text = iTunSMPB {
            let fields = text.split(separator: " ").compactMap { UInt64($0, radix: 16) }
            if fields.count >= 4, fields[1] <= UInt64(Int32.max), fields[3] <= UInt64(total) {
                let priming = Int64(fields[1]), valid = Int64(fields[3])
                if let info = make(priming, valid, total - priming - valid) { return (info, "iTunSMPB") }
            }
        }
        if let lame {
            let priming = min(total, Int64(lame.delay) + Int64(MP3Format.decoderDelay))
            var remainder: Int64 = 0
            if let declared = lame.declaredFrames, declared >= total {
                let firstDropped = declared - Int64(lame.padding) + Int64(MP3Format.decoderDelay)
                remainder = max(0, total - max(firstDropped, priming))
            }
            if let info = make(priming, total - priming - remainder, remainder) { return (info, "LAME") }
        }
        return nil
    }
}
