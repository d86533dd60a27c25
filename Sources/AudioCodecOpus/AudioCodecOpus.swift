/// Opus decoding and encoding through libopus: ``OpusDecoder`` and ``OpusEncoder``.
public enum AudioCodecOpus {}
