import Testing
import AudioCore

@Suite("Four-character codes")
struct CodeTests {
    @Test func fourCharCodeRoundTrips() {
        let code = FourCharCode("lpcm")
        #expect(code.rawValue == 0x6C70_636D)
        #expect(code.description == "lpcm")
        #expect(FourCharCode("aac").description == "aac ")  // padded with a space
        #expect(FourCharCode(rawValue: 0x6D73_0011).description == "ms\\x00\\x11")
    }
}

@Suite("AudioStreamBasicDescription")
struct StreamDescriptionTests {
    @Test func extremeFieldsAreDescribedWithoutTrapping() {
        let format = AudioStreamBasicDescription(
            sampleRate: 44100, formatID: .linearPCM, formatFlags: AudioFormatFlags(rawValue: .max), bytesPerPacket: .max,
            framesPerPacket: 1, bytesPerFrame: .max, channelsPerFrame: 1, bitsPerChannel: .max)
        #expect(format.packednessIsSignificant)
        #expect(format.description.hasPrefix("1 ch, 44100 Hz, 'lpcm'"))
    }

    @Test func canonicalPCMDescriptionMatchesAfinfo() {
        let format = AudioStreamBasicDescription.linearPCM(sampleRate: 44100, channels: 2, bitsPerChannel: 16)
        #expect(format.formatFlags.rawValue == 0xC)  // kAudioFormatFlagsCanonical-style: signed | packed
        #expect(format.bytesPerFrame == 4)
        #expect(format.description == "2 ch, 44100 Hz, 'lpcm' (0x0000000C) 16-bit little-endian signed integer")
        #expect(format.isPCM && !format.isVBR && format.isInterleaved)
    }

    @Test func pcmVariantsAreDescribedAsAppleDoes() {
        let float = AudioStreamBasicDescription.linearPCM(sampleRate: 48000, channels: 1, bitsPerChannel: 32, isFloat: true, isBigEndian: true)
        #expect(float.description == "1 ch, 48000 Hz, 'lpcm' (0x0000000B) 32-bit big-endian float")
        let unsigned8 = AudioStreamBasicDescription.linearPCM(sampleRate: 8000, channels: 1, bitsPerChannel: 8, isSigned: false)
        #expect(unsigned8.description == "1 ch, 8000 Hz, 'lpcm' (0x00000008) 8-bit unsigned integer")
        let high24 = AudioStreamBasicDescription(
            sampleRate: 96000, formatID: .linearPCM, formatFlags: [.isSignedInteger, .isAlignedHigh],
            bytesPerPacket: 8, framesPerPacket: 1, bytesPerFrame: 8, channelsPerFrame: 2, bitsPerChannel: 24)
        #expect(high24.description == "2 ch, 96000 Hz, 'lpcm' (0x00000014) 24-bit little-endian signed integer, unpacked in 4 bytes high-aligned")
        var planar = AudioStreamBasicDescription.linearPCM(sampleRate: 44100, channels: 2, bitsPerChannel: 32, isFloat: true)
        planar.formatFlags.insert(.isNonInterleaved)
        planar.bytesPerFrame = 4
        planar.bytesPerPacket = 4
        #expect(!planar.isInterleaved)
        #expect(planar.description.hasSuffix("32-bit little-endian float, deinterleaved"))
    }

    @Test func compressedFormatsListTheirFields() {
        let aac = AudioStreamBasicDescription(
            sampleRate: 44100, formatID: .mpeg4AAC, bytesPerPacket: 0, framesPerPacket: 1024,
            bytesPerFrame: 0, channelsPerFrame: 2, bitsPerChannel: 0)
        #expect(aac.isVBR)
        #expect(aac.description == "2 ch, 44100 Hz, 'aac ' (0x00000000) 0 bits/channel, 0 bytes/packet, 1024 frames/packet, 0 bytes/frame")
    }

    @Test func packetTableInfoTotals() {
        let info = AudioFilePacketTableInfo(numberValidFrames: 44100, primingFrames: 2112, remainderFrames: 892)
        #expect(info.totalFrames == 47104)
        #expect(info.totalFrames % 1024 == 0)
    }
}

@Suite("Channel layouts")
struct ChannelLayoutTests {
    @Test func predefinedTagsCarryTheirChannelCount() {
        #expect(AudioChannelLayoutTag.stereo.rawValue == 101 << 16 | 2)
        #expect(AudioChannelLayoutTag.aac_5_1.rawValue == 124 << 16 | 6)
        #expect(AudioChannelLayoutTag.aac_7_1 == .mpeg_7_1_B)
        #expect(AudioChannelLayout(tag: .mpeg_5_1_A).numberOfChannels == 6)
        #expect(AudioChannelLayout(tag: .stereo).name == "Stereo (L R)")
        #expect(AudioChannelLayout(tag: .aac_5_1).name == "5.1 (C L R Ls Rs LFE)")
    }

    @Test func waveChannelMaskBecomesABitmap() {
        // SPEAKER_FRONT_LEFT | FRONT_RIGHT | FRONT_CENTER | LOW_FREQUENCY | BACK_LEFT | BACK_RIGHT
        let layout = AudioChannelLayout(bitmap: AudioChannelBitmap(rawValue: 0x3F))
        #expect(layout.numberOfChannels == 6)
        #expect(layout.labels == [.left, .right, .center, .lfeScreen, .leftSurround, .rightSurround])
        #expect(layout.name == "L R C LFE Ls Rs")
    }

    @Test func aacChannelConfigurations() {
        #expect(AudioChannelLayoutTag.aac(channelConfiguration: 1) == .mono)
        #expect(AudioChannelLayoutTag.aac(channelConfiguration: 6)?.numberOfChannels == 6)
        #expect(AudioChannelLayoutTag.aac(channelConfiguration: 7)?.numberOfChannels == 8)
        #expect(AudioChannelLayoutTag.aac(channelConfiguration: 0) == nil)
    }
}
