import Testing
import AudioCore

@Suite("Four-character codes and status values")
struct CodeTests {
    @Test func fourCharCodeRoundTrips() {
        let code = FourCharCode("lpcm")
        #expect(code.rawValue == 0x6C70_636D)
        #expect(code.description == "lpcm")
        #expect(FourCharCode("aac").description == "aac ")  // padded with a space
        #expect(FourCharCode(rawValue: 0x6D73_0011).description == "ms\\x00\\x11")
    }

    /// The decimal values Apple's documentation lists for the Audio File Services result codes.
    static let appleValues: [(AudioFileError.Code, Int32)] = [
        (AudioFileError.Code.unspecified, 2_003_334_207),
        (.unsupportedFileType, 1_954_115_647),
        (.unsupportedDataFormat, 1_718_449_215),
        (.unsupportedProperty, 1_886_681_407),
        (.badPropertySize, 561_211_770),
        (.permissions, 1_886_547_263),
        (.notOptimized, 1_869_640_813),
        (.invalidChunk, 1_667_787_583),
        (.doesNotAllow64BitDataSize, 1_868_981_823),
        (.invalidPacketOffset, 1_885_563_711),
        (.invalidPacketDependency, 1_684_369_471),
        (.invalidFile, 1_685_348_671),
        (.operationNotSupported, 1_869_627_199),
        (.notOpen, -38),
        (.endOfFile, -39),
        (.position, -40),
        (.fileNotFound, -43),
        (.duplicateFileName, -48),  // dupFNErr (MacErrors.h)
        (.parameter, -50),  // kAudio_ParamError (CoreAudioBaseTypes.h)
    ]

    @Test(arguments: appleValues)
    func appleResultCodes(code: AudioFileError.Code, value: Int32) {
        #expect(code.rawValue == value)
    }

    @Test func statusPrintsAsFourCharCode() {
        #expect(AudioFileError.Code.invalidFile.rawValue.fourCharDescription == "'dta?'")
        #expect(AudioFileError.Code.endOfFile.rawValue.fourCharDescription == "-39")
        let error = AudioFileError(.invalidChunk, "too short", chunk: "fmt ", offset: 12)
        #expect(error.description.contains("'fmt '"))
        #expect(error.description.contains("offset 12"))
        #expect(error.description.contains("'chk?'"))
    }

    /// A code Apple has not defined (or defines after this library) is still a code: it keeps
    /// its value, prints it, matches no named code, and a switch reaches `default:`.
    @Test func unnamedCodesAreCodes() {
        let future = AudioFileError.Code(rawValue: 0x6E65_7721)  // 'new!'
        #expect(future.rawValue == 0x6E65_7721)
        #expect(future.description == "'new!'")
        #expect(future != .invalidFile)
        let error = AudioFileError(future, "from a later release")
        #expect(error.status == 0x6E65_7721)
        func name(_ code: AudioFileError.Code) -> String {
            switch code {
            case .invalidFile: "invalid file"
            case .endOfFile: "end of file"
            default: "other"
            }
        }
        #expect(name(future) == "other")
        #expect(name(AudioFileError.Code(rawValue: -39)) == "end of file")
        #expect(AudioFileError.Code.endOfFile.description == "-39")
    }

    /// A status from the C API matches a named code in a switch.
    @Test func statusMatchesNamedCodes() {
        let status: OSStatus = 0x6474_613F
        var matched = false
        if case AudioFileError.Code.invalidFile = status { matched = true }
        #expect(matched)
        #expect(!(AudioFileError.Code.invalidChunk ~= status))
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
