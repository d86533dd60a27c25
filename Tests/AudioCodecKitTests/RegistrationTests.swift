import Testing
import AudioCore
import AudioCodecKit
@testable import AudioCodecs

/// `AudioCodecKit.registerAll()` registers the codecs of the package's own modules, and the
/// "no decoder" hint names exactly those.
@Suite("AudioCodecKit registration")
struct RegistrationTests {
    /// The codecs `AudioCodecs` has without registration (its module documentation lists them).
    static let builtInDecoders: Set<AudioFormatID> = [.linearPCM, .aLaw, .uLaw, .appleIMA4, .appleLossless]

    @Test func everyHintedCodecIsRegistered() {
        AudioCodecKit.registerAll()
        for id in CodecRegistrationHint.decoders.keys {
            #expect(AudioDecoders.canDecode(id), "the hint names a decoder for '\(id)' that registerAll() does not register")
        }
        for id in CodecRegistrationHint.encoders.keys {
            #expect(AudioEncoders.canEncode(id), "the hint names an encoder for '\(id)' that registerAll() does not register")
        }
    }

    @Test func everyRegisteredDecoderIsHinted() {
        AudioCodecKit.registerAll()
        for id in AudioDecoders.formatIDs where !Self.builtInDecoders.contains(id) {
            #expect(CodecRegistrationHint.decoders[id] != nil, "'\(id)' is registered but its missing-decoder reason names no module")
        }
        // The formats the package's codec modules decode (AAC, HE-AAC v1 and v2, MPEG Layers I–III, FLAC, Opus, Vorbis).
        let expected: Set<AudioFormatID> = [.mpeg4AAC, .mpeg4AAC_HE, .mpeg4AAC_HE_V2, .mpegLayer1, .mpegLayer2, .mpegLayer3, .flac, .opus, .vorbis]
        #expect(expected.isSubset(of: Set(AudioDecoders.formatIDs)))
    }
}
