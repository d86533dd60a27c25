import Testing
import AudioCore

/// The names messages give formats: Apple's format IDs and Microsoft's registered WAVE format
/// tags, never an escaped code.
@Suite("Format names")
struct FormatNameTests {
    @Test func appleFormatIDs() {
        #expect(AudioFormatID.mpeg4AAC.displayName == "AAC")
        #expect(AudioFormatID.ac3.messageName == "AC-3 ('ac-3')")
        #expect(AudioFormatID.enhancedAC3.displayName == "E-AC-3")
        #expect(AudioFormatID.mpegLayer2.displayName == "MPEG-1 Layer 2")
        #expect(AudioFormatID.appleLossless.displayName == "Apple Lossless")
        #expect(AudioFormatID("dtsc").displayName == "DTS")
        #expect(AudioFormatID("vorb").displayName == "Vorbis")
    }

    /// WAVE format tags, as Apple's `'ms'` + tag IDs and by tag (mmreg.h's registrations).
    @Test func waveFormatTags() {
        #expect(AudioFormatID.microsoftGSM.displayName == "GSM 6.10")
        #expect(AudioFormatID.microsoftGSM.messageName == "GSM 6.10 (WAVE format 0x0031)")
        #expect(AudioFormatID.waveFormatTag(0x0002).displayName == "Microsoft ADPCM")
        #expect(AudioFormatID.dviIntelIMA.displayName == "IMA ADPCM")
        #expect(AudioFormatID.waveFormatTag(0x2000).displayName == "AC-3")
        #expect(WAVEFormatTag.name(0x0055) == "MP3")
        #expect(WAVEFormatTag.displayName(0x1234) == "WAVE format 0x1234")
    }

    /// A code no table names is its code in quotes, and a code that does not print is a number.
    @Test func unknownCodes() {
        #expect(AudioFormatID("zzzz").name == nil)
        #expect(AudioFormatID("zzzz").displayName == "'zzzz'")
        #expect(AudioFormatID("zzzz").messageName == "'zzzz'")
        #expect(AudioFormatID(rawValue: 0x0102_0304).displayName == "format 0x01020304")
        #expect(AudioFormatID.waveFormatTag(0x1234).messageName == "WAVE format 0x1234")
        for id in [AudioFormatID.microsoftGSM, .waveFormatTag(0x0002), .waveFormatTag(0x1234), AudioFormatID(rawValue: 0x0102_0304)] {
            #expect(!id.messageName.contains("\\x"))
        }
    }
}
