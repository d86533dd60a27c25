@_exported public import AudioCodecs
import AudioCodecFAAD
import AudioCodecMPG123
import AudioCodecAVCodec
import AudioCodecFLAC
import AudioCodecOpus
import AudioCodecVorbis

/// The codecs this package builds, registered in one call, without audio devices or queues:
/// what a program that converts or reads files needs (`afconvert` is one).
/// `AudioQueueKit.registerAll()` calls ``registerAll()`` before it registers the backends.
///
/// A codec of the package's own lives in a module of its own (over its C library) and is
/// registered here; `AudioCodecs`' built-in codecs (linear PCM, G.711, IMA4, Apple Lossless)
/// need no registration.
public enum AudioCodecKit {
    /// Registers AAC decoding through faad2, MPEG audio (Layers I–III) through libmpg123, FLAC
    /// decoding and encoding through libFLAC, Opus decoding and encoding through libopus, Vorbis
    /// decoding (``registerVorbis()``), and AAC-LC encoding and AC-3 and E-AC-3 decoding through
    /// libavcodec (opened when the first AAC encoder or AC-3 or Vorbis decoder is made). Calling
    /// again changes nothing.
    public static func registerAll() {
        AACDecoder.register()
        MP3Decoder.register()
        FLACDecoder.register()
        OpusDecoder.register()
        registerVorbis()
        AACEncoder.register()
        AC3Decoder.register()
        FLACEncoder.register()
        OpusEncoder.register()
    }

    /// Registers Vorbis (`'vorb'`) decoding through libavcodec's `vorbis` decoder
    /// (`AVCodecVorbisDecoder`, about twice as fast) where libavcodec can be loaded and has it,
    /// else through libvorbis (`VorbisDecoder`). The choice is made when the first Vorbis decoder
    /// is made (libavcodec is not loaded before), once a process; a decoder made without a magic
    /// cookie (the stand-in that conceals) is libvorbis's. Both give the same frames at every
    /// packet boundary, so readers trim and loop alike.
    public static func registerVorbis() {
        AudioDecoders.register(.vorbis) { format, cookie throws(AudioCodecError) -> any AudioDecoder in
            if let cookie, !cookie.isEmpty, AVCodecVorbisDecoder.isAvailable {
                return try AVCodecVorbisDecoder(input: format, magicCookie: cookie)
            }
            return try VorbisDecoder(input: format, magicCookie: cookie)
        }
    }
}
