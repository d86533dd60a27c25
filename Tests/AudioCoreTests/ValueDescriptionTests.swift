import Testing
import AudioCore

/// What `print` shows for the value types programs print. The expected strings are written from
/// the formats Apple's tools print: CAStreamBasicDescription's AsString (which afinfo's "Data
/// format" line uses: channels, rate, format ID, flags in hex, then the sample layout in words
/// for linear PCM and the four size fields for other formats; this package leaves out its
/// column padding) and afinfo's packet table and channel layout lines.
@Suite("Value descriptions")
struct ValueDescriptionTests {
    @Test func linearPCMIsDescribedInWords() {
        let cd = AudioStreamBasicDescription.linearPCM(sampleRate: 44100, channels: 2, bitsPerChannel: 16)
        #expect(cd.description == "2 ch, 44100 Hz, 'lpcm' (0x0000000C) 16-bit little-endian signed integer")
        let byteSamples = AudioStreamBasicDescription.linearPCM(sampleRate: 8000, channels: 1, bitsPerChannel: 8, isSigned: false)
        #expect(byteSamples.description == "1 ch, 8000 Hz, 'lpcm' (0x00000008) 8-bit unsigned integer")
        let aiff = AudioStreamBasicDescription.linearPCM(sampleRate: 96000, channels: 6, bitsPerChannel: 24, isBigEndian: true)
        #expect(aiff.description == "6 ch, 96000 Hz, 'lpcm' (0x0000000E) 24-bit big-endian signed integer")
    }

    @Test func packingAlignmentAndInterleavingAreNamedWhereTheyMatter() {
        // 24 bits in 4 bytes, high-aligned: the word is wider than the sample.
        let unpacked = AudioStreamBasicDescription(
            sampleRate: 48000, formatID: .linearPCM, formatFlags: [.isSignedInteger, .isBigEndian, .isAlignedHigh],
            bytesPerPacket: 8, framesPerPacket: 1, bytesPerFrame: 8, channelsPerFrame: 2, bitsPerChannel: 24)
        #expect(unpacked.description == "2 ch, 48000 Hz, 'lpcm' (0x00000016) 24-bit big-endian signed integer, unpacked in 4 bytes high-aligned")
        // The queue's processing format: native Float32, one buffer per channel.
        let float = AudioStreamBasicDescription(
            sampleRate: 48000, formatID: .linearPCM, formatFlags: [.isFloat, .isPacked, .isNonInterleaved],
            bytesPerPacket: 4, framesPerPacket: 1, bytesPerFrame: 4, channelsPerFrame: 2, bitsPerChannel: 32)
        #expect(float.description == "2 ch, 48000 Hz, 'lpcm' (0x00000029) 32-bit little-endian float, deinterleaved")
        // Core Audio's canonical 8.24 fixed-point unit format.
        let fixed = AudioStreamBasicDescription(
            sampleRate: 44100, formatID: .linearPCM, formatFlags: AudioFormatFlags(rawValue: 0xC2C),
            bytesPerPacket: 4, framesPerPacket: 1, bytesPerFrame: 4, channelsPerFrame: 2, bitsPerChannel: 32)
        #expect(fixed.description == "2 ch, 44100 Hz, 'lpcm' (0x00000C2C) 8.24-bit little-endian signed integer, deinterleaved")
    }

    @Test func compressedFormatsListTheirSizes() {
        let aac = AudioStreamBasicDescription(
            sampleRate: 44100, formatID: .mpeg4AAC, formatFlags: [], bytesPerPacket: 0, framesPerPacket: 1024,
            bytesPerFrame: 0, channelsPerFrame: 2, bitsPerChannel: 0)
        #expect(aac.description == "2 ch, 44100 Hz, 'aac ' (0x00000000) 0 bits/channel, 0 bytes/packet, 1024 frames/packet, 0 bytes/frame")
        #expect(AudioFormatFlags(rawValue: 0xC).description == "0x0000000C")
    }

    @Test func theDebugDescriptionGivesEveryField() {
        let cd = AudioStreamBasicDescription.linearPCM(sampleRate: 44100, channels: 2, bitsPerChannel: 16)
        #expect(String(reflecting: cd) == "AudioStreamBasicDescription(sampleRate: 44100.0, formatID: 'lpcm', formatFlags: 0x0000000C, "
            + "bytesPerPacket: 4, framesPerPacket: 1, bytesPerFrame: 4, channelsPerFrame: 2, bitsPerChannel: 16)")
    }

    @Test func packetTablesCountTheirFrames() {
        let table = AudioFilePacketTableInfo(numberValidFrames: 88200, primingFrames: 2112, remainderFrames: 824)
        #expect(table.description == "88200 valid frames, 2112 priming, 824 remainder")
        #expect(table.debugDescription == "88200 valid frames, 2112 priming, 824 remainder (91136 total)")
        #expect("\(table)" == table.description)
    }

    @Test func packetDescriptionsSayWhereThePacketIs() {
        #expect(AudioStreamPacketDescription(startOffset: 356, dataByteSize: 855).description == "855 bytes at 356")
        let mp3 = AudioStreamPacketDescription(startOffset: 0, variableFramesInPacket: 1152, dataByteSize: 417)
        #expect(mp3.description == "417 bytes at 0, 1152 frames")
    }

    @Test func timeStampsNameTheirValidFields() {
        #expect(AudioTimeStamp.sampleTime(1024).description == "sample time 1024.0")
        let both = AudioTimeStamp(sampleTime: 512.5, hostTime: 5_000_000, flags: .sampleHostTimeValid)
        #expect(both.description == "sample time 512.5, host time 5000000")
        let rate = AudioTimeStamp(sampleTime: 7, rateScalar: 1.25, flags: [.rateScalarValid])
        #expect(rate.description == "rate scalar 1.25")  // the sample time is not valid
        #expect(AudioTimeStamp(sampleTime: 3).description == "no valid time")
        #expect(AudioTimeStamp.Flags.sampleHostTimeValid.description == "[sampleTimeValid, hostTimeValid]")
        #expect(AudioTimeStamp.Flags(rawValue: 0x41).description == "[sampleTimeValid, 0x00000040]")
    }

    @Test func channelLabelsAndTagsUseAfinfosNames() {
        #expect(AudioChannelLabel.left.description == "L")
        #expect(AudioChannelLabel.discrete(3).description == "D3")
        #expect(AudioChannelLayoutTag.stereo.description == "Stereo (L R)")
        #expect(AudioChannelLayoutTag.useChannelBitmap.description == "use channel bitmap")
        #expect(AudioChannelLayoutTag.useChannelDescriptions.description == "use channel descriptions")
        #expect(AudioChannelLayout(tag: .stereo).description == "Stereo (L R)")
        #expect(AudioChannelBitmap([.left, .right, .center, .lfeScreen]).description == "L R C LFE")
        #expect(AudioChannelBitmap([]).description == "no channels")
        #expect(AudioChannelDescription(label: .leftSurround).description == "Ls")
        let placed = AudioChannelDescription(
            label: .useCoordinates, flags: [.rectangularCoordinates], coordinates: (-1, 1, 0))
        #expect(placed.description == "Coordinates (-1.0, 1.0, 0.0) rectangular")
    }
}
