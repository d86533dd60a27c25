import Foundation
import ProcessSupport
import Testing
import AudioCore
import AudioCodecs
import AudioCodecFAAD
import AudioFileServices
import AudioTestSupport

/// AudioCodecs' `PacketDecoder` over the AAC decoder: the frame scale of a stream described at
/// its core rate and decoded with SBR at twice it, and the traits the decoder declares.
@Suite("PacketDecoder over AAC")
struct PacketDecoderAACTests {
    let stereo = "nopns-adts-aac-2ch-22050.aac"

    init() { AACDecoder.register() }

    /// An AudioSpecificConfig signalling SBR over the fixture's 22050 Hz LC core: 44100 Hz out.
    static var explicitSBR: [UInt8] {
        var b = Bits()
        b.put(5, 5); b.put(7, 4); b.put(2, 4); b.put(4, 4); b.put(2, 5); b.put(0, 3)
        return b.bytes
    }

    /// 'aac ' at the core rate with a cookie that signals SBR counts core frames: 2 decoded
    /// frames each. The output queue's formula (the decoder's frames per packet over the
    /// description's) and ExtAudioFile's (twice the frames and twice the rate) agree here.
    @Test func sbrOverTheDescribedCoreScalesByTwo() throws {
        let input = try Packets(path: AACFixtures.path(stereo))
        #expect(input.format.sampleRate == 22050 && input.format.framesPerPacket == 1024)
        let sbr = try PacketDecoder(format: input.format, magicCookie: Self.explicitSBR)
        #expect(sbr.frameScale == 2 && sbr.maximumFramesPerPacket == 2048 && sbr.decodedFormat.sampleRate == 44100)
        let plain = try PacketDecoder(format: input.format, magicCookie: input.cookie)
        #expect(plain.frameScale == 1)
    }

    /// A packet of two raw data blocks whose description counts core frames (2048) decodes both
    /// blocks with SBR: the count is scaled to 4096 decoded frames before the decoder sees it.
    /// ExtAudioFile passed the core count unscaled, and the decoder took the packet for one block.
    @Test func scaledFrameCountDecodesEveryBlock() throws {
        let input = try Packets(path: AACFixtures.path(stereo))
        let decoder = try PacketDecoder(format: input.format, magicCookie: Self.explicitSBR)
        let joined = input.packets[0] + input.packets[1]
        let description = AudioStreamPacketDescription(startOffset: 0, variableFramesInPacket: 2048, dataByteSize: UInt32(joined.count))
        #expect(decoder.decodedFrames(description) == 4096)
        let output = try #require(PCMBuffer(format: decoder.decodedFormat, frameCapacity: 8192))
        let descriptions = UnsafeMutableBufferPointer<AudioStreamPacketDescription>.allocate(capacity: 1)
        defer { descriptions.deallocate() }
        descriptions[0] = description
        let used = try joined.withUnsafeBytes { bytes throws(AudioCodecError) in
            try decoder.decode(packets: 1, bytes: bytes, descriptions: descriptions, dropping: 0, into: output)
        }
        #expect(used == 1 && output.frameLength == 4096 && decoder.badPackets == 0)
    }

    /// The decoder declares its pre-roll and reset interval: AAC LC decoded at its own rate
    /// restarts every 512 packets, exactly; HE-AAC is never reset and does not restart exactly.
    @Test func traitsFollowTheStream() throws {
        let input = try Packets(path: AACFixtures.path(stereo))
        let lc = try AACDecoder(input: input.format, magicCookie: input.cookie)
        #expect(lc.traits == AudioDecoderTraits(preRollPackets: 2, resetInterval: 512))
        let sbr = try AACDecoder(input: input.format, magicCookie: Self.explicitSBR)
        #expect(sbr.traits == AudioDecoderTraits(preRollPackets: 2, restartsExactly: false))
        let he = try AACDecoder(input: aacFormat(44100, 2, id: .mpeg4AAC_HE), magicCookie: input.cookie)
        #expect(he.traits == AudioDecoderTraits(preRollPackets: 2, restartsExactly: false))
    }
}
