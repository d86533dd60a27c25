package import AudioCore

/// What to say when a format has no codec registered: for the formats whose codecs live in
/// their own modules (faad2, libmpg123, libFLAC, libopus, libvorbis, libavcodec), that the format is known
/// and how to register its codec — `AudioCodecKit.registerAll()` (which
/// `AudioQueueKit.registerAll()` calls) or the one module's `register()` — as nothing registers
/// them by itself. The tables list what `AudioCodecKit.registerAll()` registers
/// (AudioCodecKitTests checks that they agree).
enum CodecRegistrationHint {
    /// The decoders `AudioCodecKit.registerAll()` registers, with the module and type that holds each.
    static let decoders: [AudioFormatID: (module: String, type: String)] = [
        .mpeg4AAC: ("AudioCodecFAAD", "AACDecoder"), .mpeg4AAC_HE: ("AudioCodecFAAD", "AACDecoder"),
        .mpeg4AAC_HE_V2: ("AudioCodecFAAD", "AACDecoder"),
        .mpegLayer1: ("AudioCodecMPG123", "MP3Decoder"), .mpegLayer2: ("AudioCodecMPG123", "MP3Decoder"),
        .mpegLayer3: ("AudioCodecMPG123", "MP3Decoder"),
        .flac: ("AudioCodecFLAC", "FLACDecoder"), .opus: ("AudioCodecOpus", "OpusDecoder"),
        .vorbis: ("AudioCodecVorbis", "VorbisDecoder"),
        .ac3: ("AudioCodecAVCodec", "AC3Decoder"), .enhancedAC3: ("AudioCodecAVCodec", "AC3Decoder"),
        .ac3_60958: ("AudioCodecAVCodec", "AC3Decoder"),
    ]

    /// The encoders `AudioCodecKit.registerAll()` registers.
    static let encoders: [AudioFormatID: (module: String, type: String)] = [
        .mpeg4AAC: ("AudioCodecAVCodec", "AACEncoder"), .flac: ("AudioCodecFLAC", "FLACEncoder"),
        .opus: ("AudioCodecOpus", "OpusEncoder"),
    ]

    /// "no decoder for AC-3 ('ac-3')" (the format as ``AudioCore/AudioFormatID/messageName`` names
    /// it), followed for a format `AudioCodecKit.registerAll()` would
    /// register by how to register it.
    static func reason(kind: String, _ formatID: AudioFormatID) -> String {
        let table = kind == "encoder" ? encoders : decoders
        guard let home = table[formatID] else { return "no \(kind) for \(formatID.messageName)" }
        return "no \(kind) for \(formatID.messageName) is registered: the format is known, and its \(kind) is registered by "
            + "AudioCodecKit.registerAll() and AudioQueueKit.registerAll() (or \(home.type).register() from \(home.module)); "
            + "call one once at startup"
    }
}

extension AudioDecoders {
    /// Why `formatID` cannot be decoded: "no decoder for '…'", with how to register the
    /// decoder where `AudioQueueKit.registerAll()` would register one.
    package static func missingDecoderReason(_ formatID: AudioFormatID) -> String {
        CodecRegistrationHint.reason(kind: "decoder", formatID)
    }
}

extension AudioEncoders {
    /// Why there is no encoder for `formatID`, as ``AudioDecoders/missingDecoderReason(_:)``.
    package static func missingEncoderReason(_ formatID: AudioFormatID) -> String {
        CodecRegistrationHint.reason(kind: "encoder", formatID)
    }
}
