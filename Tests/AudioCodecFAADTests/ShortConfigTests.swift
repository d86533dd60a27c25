import Foundation
import ProcessSupport
import Testing
import AudioCore
import AudioCodecs
import AudioCodecFAAD

/// AudioSpecificConfigs that end before their optional parts, as real files carry them.
@Suite("AudioSpecificConfigs cut short")
struct ShortConfigTests {
    /// A 2-byte config that sets dependsOnCoreCoder (audiobooks carry 0x12 0x12) ends before its
    /// 14-bit coreCoderDelay: the missing bits read as zero, as ffmpeg reads them, and faad2
    /// decodes the stream.
    @Test func twoByteConfigSettingDependsOnCoreCoder() throws {
        let asc = try AudioSpecificConfig(bytes: [0x12, 0x12])
        #expect(asc.audioObjectType == 2 && asc.samplingFrequency == 44100 && asc.channelCount == 2)
        #expect(asc.frameLengthFlag == false && asc.sbr == .unspecified)
        let decoder = try AACDecoder(input: aacFormat(44100, 2), magicCookie: [0x12, 0x12])
        #expect(decoder.outputFormat == float32(44100, 2) && decoder.maximumFramesPerPacket == 1024)
    }

    /// Each flag of the GASpecificConfig missing in turn: what is there is read, the rest is 0.
    @Test func gaSpecificFlagsMayBeMissing() throws {
        var b = Bits()
        b.put(2, 5); b.put(4, 4); b.put(1, 4)  // LC, 44100 Hz, mono: 13 bits, no GASpecificConfig bits
        let bare = try AudioSpecificConfig(bytes: b.bytes)
        #expect(bare.samplingFrequency == 44100 && bare.channelCount == 1 && !bare.frameLengthFlag)
        var short = Bits()
        short.put(2, 5); short.put(4, 4); short.put(1, 4); short.put(1, 1); short.put(0, 2)  // 960-sample frames
        #expect(try AudioSpecificConfig(bytes: short.bytes).coreFrameLength == 960)
    }

    /// What must be there still must: the object type, the rates of hierarchical signalling, a
    /// program config element.
    @Test func mandatoryFieldsStayMandatory() {
        expectCodecError(.badData) { _ = try AudioSpecificConfig(bytes: [0x12]) }
        expectCodecError(.badData) { _ = try AudioSpecificConfig(bytes: [0x2B, 0x92]) }  // SBR rate cut
        expectCodecError(.badData) { _ = try AudioSpecificConfig(bytes: [0x12, 0x00]) }  // config 0: PCE cut
    }

    /// A sync extension cut short is not read: the config stays plain AAC.
    @Test func syncExtensionCutShortIsIgnored() throws {
        var b = Bits()
        b.put(2, 5); b.put(7, 4); b.put(1, 4); b.put(0, 3)  // LC, 22050 Hz, mono
        b.put(0x2B7, 11); b.put(5, 5); b.put(1, 1); b.put(4, 4)  // SBR present, 44100 Hz
        let whole = try AudioSpecificConfig(bytes: b.bytes)
        #expect(whole.sbr == .present && whole.extensionSamplingFrequency == 44100)
        let cut = try AudioSpecificConfig(bytes: Array(b.bytes.prefix(3)))
        #expect(cut.sbr == .unspecified && cut.samplingFrequency == 22050)
    }
}
