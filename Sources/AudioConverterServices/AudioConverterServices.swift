public import AudioCodecs

/// Audio conversion (Apple's Audio Converter Services): ``AudioConverter`` joins a decoder or an
/// encoder, PCM conversion, a channel map and sample-rate conversion in one pull-model converter.
public enum AudioConverterServices {
    /// Makes sure the codec registries are in place (the built-in codecs are always there).
    static func ensureCodecs() { _ = AudioEncoders.formatIDs }
}
