import Testing
import AudioCore
@testable import AudioCodecs

/// A format whose codec lives in a module of its own says how to register it.
@Suite("Registration hint")
struct RegistrationHintTests {
    @Test(arguments: [AudioFormatID.mpeg4AAC, .mpeg4AAC_HE, .mpeg4AAC_HE_V2, .mpegLayer3, .mpegLayer2, .mpegLayer1, .flac, .opus])
    func knownDecoderNamesRegisterAll(format: AudioFormatID) {
        // A registry with nothing registered, as before AudioQueueKit.registerAll() runs.
        let empty = CodecRegistry<Int>([:], kind: "decoder")
        #expect {
            _ = try empty.factory(for: format)
        } throws: { error in
            guard let error = error as? AudioCodecError else { return false }
            return error.code == .formatNotSupported && error.reason.hasPrefix("no decoder for \(format.messageName) is registered")
                && error.reason.contains("AudioQueueKit.registerAll()") && error.reason.contains(".register() from AudioCodec")
        }
        #expect(AudioDecoders.missingDecoderReason(format).contains("AudioQueueKit.registerAll()"))
    }

    @Test func aacNamesItsModule() {
        #expect(AudioDecoders.missingDecoderReason(.mpeg4AAC).contains("AACDecoder.register() from AudioCodecFAAD"))
        #expect(AudioEncoders.missingEncoderReason(.mpeg4AAC).contains("AACEncoder.register() from AudioCodecAVCodec"))
        #expect(AudioEncoders.missingEncoderReason(.flac).contains("FLACEncoder.register() from AudioCodecFLAC"))
    }

    @Test func unknownFormatsKeepThePlainReason() {
        #expect(AudioDecoders.missingDecoderReason(.mace3) == "no decoder for MACE 3:1 ('MAC3')")
        #expect(AudioDecoders.missingDecoderReason(.enhancedAC3).contains("AC3Decoder.register() from AudioCodecAVCodec"))
        #expect(AudioEncoders.missingEncoderReason(.ac3) == "no encoder for AC-3 ('ac-3')")
        let empty = CodecRegistry<Int>([:], kind: "encoder")
        #expect(throws: AudioCodecError.self) { try empty.factory(for: .ac3) }
    }
}
