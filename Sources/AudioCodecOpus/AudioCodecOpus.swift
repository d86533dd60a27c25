/// Opus decoding through libopus: ``OpusDecoder``.
public enum AudioCodecOpus {}
