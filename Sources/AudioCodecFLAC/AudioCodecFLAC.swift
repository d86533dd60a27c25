/// FLAC decoding and encoding through libFLAC.
public enum AudioCodecFLAC {}
