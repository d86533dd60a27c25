/// Opus decoding through libopus.
public enum AudioCodecOpus {}
