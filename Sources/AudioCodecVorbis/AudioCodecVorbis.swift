/// Vorbis decoding through libvorbis: ``VorbisDecoder``.
public enum AudioCodecVorbis {}
