import Testing
import AudioCore

/// The named formats against the fields Apple documents for each (CoreAudioBaseTypes.h's
/// format comments, `FillOutASBDForLPCM`), written out by hand.
@Suite("Formats by name")
struct NamedFormatTests {
    typealias ASBD = AudioStreamBasicDescription

    func fields(_ f: ASBD) -> [Double] {
        [f.sampleRate, Double(f.formatFlags.rawValue), Double(f.bytesPerPacket), Double(f.framesPerPacket),
         Double(f.bytesPerFrame), Double(f.channelsPerFrame), Double(f.bitsPerChannel)]
    }

    @Test func linearPCM() {
        // kAudioFormatFlagIsSignedInteger | IsPacked = 0xC; 4 bytes per stereo 16-bit frame.
        #expect(ASBD.int16(sampleRate: 44100, channels: 2).formatID == .linearPCM)
        #expect(fields(.int16(sampleRate: 44100, channels: 2)) == [44100, 0xC, 4, 1, 4, 2, 16])
        // kAudioFormatFlagsNativeFloatPacked = 0x9.
        #expect(fields(.float32(sampleRate: 48000, channels: 2)) == [48000, 0x9, 8, 1, 8, 2, 32])
        // Non-interleaved (0x20): bytes per frame count one channel's sample, as AVAudioFormat's standard format.
        #expect(fields(.float32(sampleRate: 48000, channels: 2, interleaved: false)) == [48000, 0x29, 4, 1, 4, 2, 32])
        #expect(fields(.int24(sampleRate: 96000, channels: 6)) == [96000, 0xC, 18, 1, 18, 6, 24])
        #expect(fields(.int32(sampleRate: 8000, channels: 1)) == [8000, 0xC, 4, 1, 4, 1, 32])
        #expect(fields(.float64(sampleRate: 8000, channels: 1)) == [8000, 0x9, 8, 1, 8, 1, 64])
        // Big-endian (0x2), as AIFF holds it.
        #expect(fields(.pcm(sampleRate: 44100, channels: 2, bits: 16, bigEndian: true)) == [44100, 0xE, 4, 1, 4, 2, 16])
        // 20 bits in 3 bytes: aligned high (0x10), not packed.
        #expect(fields(.pcm(sampleRate: 44100, channels: 1, bits: 20)) == [44100, 0x14, 3, 1, 3, 1, 20])
        // The named forms equal the older linearPCM(…) where both apply.
        #expect(ASBD.int16(sampleRate: 22050, channels: 1) == .linearPCM(sampleRate: 22050, channels: 1, bitsPerChannel: 16))
        #expect(ASBD.float32(sampleRate: 22050, channels: 2) == .linearPCM(sampleRate: 22050, channels: 2, bitsPerChannel: 32, isFloat: true))
    }

    @Test func constantSizeCodecs() {
        // kAudioFormatAppleIMA4: 64 frames in 34 bytes per channel.
        #expect(ASBD.ima4(sampleRate: 44100, channels: 2).formatID == .appleIMA4)
        #expect(fields(.ima4(sampleRate: 44100, channels: 2)) == [44100, 0, 68, 64, 0, 2, 0])
        #expect(fields(.ima4(sampleRate: 8000, channels: 1)) == [8000, 0, 34, 64, 0, 1, 0])
        // G.711: 8 bits per sample, one frame per packet, 8 kHz mono by default.
        #expect(ASBD.ulaw().formatID == .uLaw && ASBD.alaw().formatID == .aLaw)
        #expect(fields(.ulaw()) == [8000, 0, 1, 1, 1, 1, 8])
        #expect(fields(.alaw(sampleRate: 16000, channels: 2)) == [16000, 0, 2, 1, 2, 2, 8])
    }

    @Test func variableSizeCodecs() {
        #expect(ASBD.aac(sampleRate: 44100, channels: 2).formatID == .mpeg4AAC)
        #expect(fields(.aac(sampleRate: 44100, channels: 2)) == [44100, 0, 0, 1024, 0, 2, 0])
        #expect(ASBD.heAAC(sampleRate: 48000, channels: 2).formatID == .mpeg4AAC_HE)
        #expect(fields(.heAAC(sampleRate: 48000, channels: 2)) == [48000, 0, 0, 2048, 0, 2, 0])
        #expect(ASBD.heAACv2(sampleRate: 44100).formatID == .mpeg4AAC_HE_V2)
        #expect(fields(.heAACv2(sampleRate: 44100)) == [44100, 0, 0, 2048, 0, 2, 0])
        // kAppleLosslessFormatFlag_16BitSourceData 1 … _32BitSourceData 4; 4096 frames per packet.
        #expect(ASBD.alac(sampleRate: 44100, channels: 2).formatID == .appleLossless)
        #expect(fields(.alac(sampleRate: 44100, channels: 2)) == [44100, 1, 0, 4096, 0, 2, 0])
        #expect(fields(.alac(sampleRate: 96000, channels: 2, bitDepth: 24)) == [96000, 3, 0, 4096, 0, 2, 0])
        #expect(fields(.flac(sampleRate: 48000, channels: 1, bitDepth: 20)) == [48000, 2, 0, 4096, 0, 1, 0])
        #expect(ASBD.opus(channels: 2).formatID == .opus)
        #expect(fields(.opus(channels: 2)) == [48000, 0, 0, 960, 0, 2, 0])
        // MPEG-1 Layer III 1152 frames per packet; MPEG-2 and 2.5 576.
        #expect(ASBD.mp3(sampleRate: 44100, channels: 2).formatID == .mpegLayer3)
        #expect(fields(.mp3(sampleRate: 44100, channels: 2)) == [44100, 0, 0, 1152, 0, 2, 0])
        #expect(fields(.mp3(sampleRate: 22050, channels: 1)) == [22050, 0, 0, 576, 0, 1, 0])
    }

    @Test func intViews() {
        let f = ASBD.ima4(sampleRate: 44100, channels: 2)
        #expect(f.channelCount == 2 && f.framesPerPacketCount == 64 && f.bytesPerPacketCount == 68 && f.bytesPerFrameCount == 0)
    }
}
