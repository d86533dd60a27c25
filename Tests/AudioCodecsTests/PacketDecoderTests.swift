import Testing
import AudioCore
import AudioCodecs

@Suite("PacketDecoder")
struct PacketDecoderTests {
    /// A bare 24-byte ALACSpecificConfig: `frameLength` frames a packet, 16-bit stereo, 44.1 kHz.
    static func alacCookie(frameLength: UInt32) -> [UInt8] {
        func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        return be32(frameLength) + [0, 16, 40, 10, 14, 2, 0, 255] + be32(0) + be32(0) + be32(44100)
    }

    /// An ALAC description whose frames per packet (2048) is not the cookie's frame length (4096).
    static let alacDescription = AudioStreamBasicDescription(
        sampleRate: 44100, formatID: .appleLossless, formatFlags: [], bytesPerPacket: 0, framesPerPacket: 2048,
        bytesPerFrame: 0, channelsPerFrame: 2, bitsPerChannel: 0)

    /// The frame scale is 2 only for a decoder that doubles both the frames of each packet and
    /// the rate (SBR over the described AAC core). The output queue divided the decoder's frames
    /// per packet by the description's, so a decoder whose packets are merely longer than the
    /// description says (here ALAC: 4096 against 2048) scaled every packet description's frame
    /// count by 2; ExtAudioFile's formula, kept, gives 1.
    @Test func scalesOnlyForDoubledFramesAndRate() throws {
        let decoder = try PacketDecoder(format: Self.alacDescription, magicCookie: Self.alacCookie(frameLength: 4096))
        #expect(decoder.maximumFramesPerPacket == 4096)
        #expect(decoder.maximumFramesPerPacket / Int(Self.alacDescription.framesPerPacket) == 2)  // the queue's old formula
        #expect(decoder.frameScale == 1)
        let core = AudioStreamBasicDescription(
            sampleRate: 22050, formatID: .mpeg4AAC, formatFlags: [], bytesPerPacket: 0, framesPerPacket: 1024,
            bytesPerFrame: 0, channelsPerFrame: 2, bitsPerChannel: 0)
        let float44 = AudioStreamBasicDescription.linearPCM(sampleRate: 44100, channels: 2, bitsPerChannel: 32, isFloat: true)
        let float22 = AudioStreamBasicDescription.linearPCM(sampleRate: 22050, channels: 2, bitsPerChannel: 32, isFloat: true)
        #expect(PacketDecoder.frameScale(of: core, decodedFormat: float44, maximumFramesPerPacket: 2048) == 2)  // upsampled SBR
        #expect(PacketDecoder.frameScale(of: core, decodedFormat: float22, maximumFramesPerPacket: 1024) == 1)  // downsampled SBR
        #expect(PacketDecoder.frameScale(of: core, decodedFormat: float22, maximumFramesPerPacket: 2048) == 1)  // longer packets only
        var unknown = core
        unknown.framesPerPacket = 0
        #expect(PacketDecoder.frameScale(of: unknown, decodedFormat: float44, maximumFramesPerPacket: 2048) == 1)
    }

    /// A packet that does not decode leaves the decoder's silence, is counted and kept, and does
    /// not throw; a pre-roll packet that fails is not counted.
    @Test func concealsAndCountsBadPackets() throws {
        let decoder = try PacketDecoder(format: Self.alacDescription, magicCookie: Self.alacCookie(frameLength: 4096))
        let output = try #require(PCMBuffer(format: decoder.decodedFormat, frameCapacity: 3 * 4096))
        let empty = UnsafeRawBufferPointer(start: nil, count: 0)
        #expect(try decoder.decode(packet: empty, frames: 1000, into: output) == 1000)
        #expect(decoder.badPackets == 1 && decoder.lastConcealment?.code == .badData)
        #expect(output.frameLength == 1000)
        // Two packets (empty), the first of them pre-roll: one counted, one packet's frames kept.
        let descriptions = UnsafeMutableBufferPointer<AudioStreamPacketDescription>.allocate(capacity: 2)
        defer { descriptions.deallocate() }
        descriptions.initialize(repeating: AudioStreamPacketDescription(startOffset: 0, dataByteSize: 0))
        let bytes = [UInt8](repeating: 0, count: 4)
        let used = try bytes.withUnsafeBytes { raw throws(AudioCodecError) in
            try decoder.decode(packets: 2, bytes: UnsafeRawBufferPointer(rebasing: raw[0..<0]), descriptions: descriptions, dropping: 1, into: output)
        }
        #expect(used == 2 && decoder.badPackets == 2 && output.frameLength == 1000 + 4096)
    }

    /// With conversion, packets come out as interleaved Float32 at the decoded rate and channels.
    @Test func convertsToFloat32() throws {
        let decoder = try PacketDecoder(
            format: Self.alacDescription, magicCookie: Self.alacCookie(frameLength: 4096), convertingToFloat32: true)
        #expect(decoder.decodedFormat.bitsPerChannel == 16)
        #expect(decoder.outputFormat == .linearPCM(sampleRate: 44100, channels: 2, bitsPerChannel: 32, isFloat: true))
        let output = try #require(PCMBuffer(format: decoder.outputFormat, frameCapacity: 4096))
        #expect(try decoder.decode(packet: UnsafeRawBufferPointer(start: nil, count: 0), frames: 512, into: output) == 512)
        #expect(output.frameLength == 512 && decoder.badPackets == 1)
    }

    /// Decoders declare how they restart; those that say nothing decode packets on their own.
    @Test func traitsAreTheDecoders() throws {
        let pcm = try AudioDecoders.make(
            for: .linearPCM(sampleRate: 8000, channels: 1, bitsPerChannel: 16), magicCookie: nil)
        #expect(pcm.traits == .independent)
        let ima4 = try AudioDecoders.make(
            for: AudioStreamBasicDescription(
                sampleRate: 44100, formatID: .appleIMA4, formatFlags: [], bytesPerPacket: 34, framesPerPacket: 64,
                bytesPerFrame: 0, channelsPerFrame: 1, bitsPerChannel: 0),
            magicCookie: nil)
        #expect(ima4.traits == AudioDecoderTraits(preRollPackets: 4, restartsExactly: false))
    }
}
