import Testing
import AudioCore
import AudioCodecs

/// The IMA4 encoder against ffmpeg's `adpcm_ima_qt` encoder and decoder, run at test time, and
/// against ``IMA4Decoder``.
@Suite("IMA4 encoder")
struct IMA4EncodeTests {
    static func format(channels: UInt32, rate: Double = 44100) -> AudioStreamBasicDescription {
        AudioStreamBasicDescription(
            sampleRate: rate, formatID: .appleIMA4, bytesPerPacket: 34 * channels, framesPerPacket: 64, bytesPerFrame: 0,
            channelsPerFrame: channels, bitsPerChannel: 0)
    }

    static func encoder(channels: Int, rate: Double = 44100) throws -> IMA4Encoder {
        let output = format(channels: UInt32(channels), rate: rate)
        return try IMA4Encoder(input: floatInput(for: output), output: output)
    }

    /// ffmpeg's `adpcm_ima_qt` packets for 16-bit `samples` (its encoder pads the last packet
    /// with silence, as ours does).
    static func ffmpegPackets(_ samples: [Int16], channels: Int, rate: Int, in scratch: ScratchDirectory) throws -> [UInt8] {
        try scratch.write(pack(samples), to: "in.s16le")
        try FFmpeg.run([
            "-f", "s16le", "-ar", "\(rate)", "-ac", "\(channels)", "-i", scratch.path("in.s16le"),
            "-map", "0:a", "-c:a", "adpcm_ima_qt", "-f", "data", scratch.path("ffmpeg.ima4"),
        ])
        return try scratch.read("ffmpeg.ima4")
    }

    /// ffmpeg's `adpcm_ima_qt` decode of `packets`, handed to it in a CAF file.
    static func ffmpegDecode(_ packets: [UInt8], channels: Int, rate: Double, in scratch: ScratchDirectory) throws -> [Int16] {
        try scratch.write(imaCAF(packets, channels: channels, rate: rate), to: "ours.caf")
        try FFmpeg.run(["-i", scratch.path("ours.caf"), "-c:a", "pcm_s16le", "-f", "s16le", scratch.path("decoded.s16le")])
        return unpack(try scratch.read("decoded.s16le"), as: Int16.self)
    }

    /// ``IMA4Decoder``'s decode of `packets`, packet by packet.
    static func decode(_ packets: [UInt8], channels: Int) throws -> [Int16] {
        let input = format(channels: UInt32(channels))
        let decoder = try IMA4Decoder(input: input, magicCookie: nil)
        let size = 34 * channels
        let buffer = try makeBuffer(decoder.outputFormat, packets.count / size * 64)
        try packets.withUnsafeBytes { raw in
            for p in 0..<packets.count / size {
                try decoder.decode(packet: UnsafeRawBufferPointer(rebasing: raw[p * size..<(p + 1) * size]), frames: 64, into: buffer)
            }
        }
        return unpack(validBytes(buffer), as: Int16.self)
    }

    /// The IMA reference quantizer is what ffmpeg's encoder (libavcodec/adpcmenc.c,
    /// `adpcm_ima_qt_compress_sample`, without trellis) runs, from predictor 0 and step index 0,
    /// carrying both across packets and writing the predictor's top 9 bits in each header: the
    /// packets are byte for byte the same. 1 and 2 channels, a partial last packet, and a
    /// full-scale square wave that drives the predictor and step index to their limits.
    @Test(arguments: [(1, 22050, 100 * 64 + 17), (2, 44100, 80 * 64), (2, 8000, 31)])
    func packetsMatchFFmpegsEncoder(channels: Int, rate: Int, frames: Int) throws {
        let scratch = try ScratchDirectory("ima4-ffmpeg")
        defer { scratch.remove() }
        var samples = musicLikeSignal(frames: frames, channels: channels, rate: Double(rate), seed: UInt32(frames))
        // A square burst at full scale in the middle.
        for i in samples.indices where (i / channels) % 4000 >= 1000 && (i / channels) % 4000 < 1400 {
            samples[i] = (i / channels / 20) % 2 == 0 ? 32767 : -32768
        }
        let reference = try Self.ffmpegPackets(samples, channels: channels, rate: rate, in: scratch)
        let (ours, result) = try encode(Self.encoder(channels: channels, rate: Double(rate)), floats(samples), frames: frames)
        let packets = (frames + 63) / 64
        #expect(result.packetCount == packets)
        #expect(result.paddingFrames == packets * 64 - frames)
        #expect(ours.count == packets * 34 * channels)
        expectEqualArrays(ours, reference, "IMA4 packets of \(channels) ch at \(rate) Hz")
    }

    /// Our packets decode, in ffmpeg's `adpcm_ima_qt` decoder and in ``IMA4Decoder`` alike (bit
    /// for bit), to within 30 dB of a music-like signal; 1 and 2 channels.
    @Test(arguments: [1, 2])
    func roundTripThroughFFmpegsDecoderAndOurs(channels: Int) throws {
        let scratch = try ScratchDirectory("ima4-roundtrip")
        defer { scratch.remove() }
        let frames = 64 * 1400
        let samples = musicLikeSignal(frames: frames, channels: channels, seed: 7)
        let (packets, _) = try encode(Self.encoder(channels: channels), floats(samples), frames: frames)
        // Both decoders return whole packets; the signal is a whole number of them.
        #expect(frames % 64 == 0)
        let theirs = try Self.ffmpegDecode(packets, channels: channels, rate: 44100, in: scratch)
        let ours = try Self.decode(packets, channels: channels)
        #expect(theirs.count == frames * channels)
        expectEqualArrays(ours, theirs, "IMA4Decoder against ffmpeg's decoder")
        let ratio = snr(samples, theirs)
        #expect(ratio >= 30, "SNR \(ratio) dB")
        for channel in 0..<channels {
            let pick = { (s: [Int16]) in stride(from: channel, to: s.count, by: channels).map { s[$0] } }
            #expect(snr(pick(samples), pick(theirs)) >= 30, "channel \(channel)")
        }
    }

    /// Each header holds the predictor the channel carries into the packet with its low 7 bits
    /// cleared, and its step index: the decoder's state after the previous packet.
    @Test func headersHoldTheCarriedState() throws {
        let channels = 2
        let samples = musicLikeSignal(frames: 64 * 20, channels: channels, seed: 3)
        let (packets, _) = try encode(Self.encoder(channels: channels), floats(samples), frames: 64 * 20)
        let decoded = try Self.decode(packets, channels: channels)
        for p in 0..<20 {
            for channel in 0..<channels {
                let block = p * 34 * channels + channel * 34
                let header = UInt16(packets[block]) << 8 | UInt16(packets[block + 1])
                if p == 0 {
                    #expect(header == 0, "the first packet starts from predictor 0 and step index 0")
                } else {
                    // The decoder's last sample of the previous packet is its predictor.
                    let last = decoded[(p * 64 - 1) * channels + channel]
                    #expect(header & 0xFF80 == UInt16(bitPattern: last) & 0xFF80, "packet \(p) channel \(channel)")
                    #expect(header & 0x7F <= 88)
                }
            }
        }
    }

    /// A partial last packet is completed with silence and reported; the packet is the one the
    /// whole signal followed by zeros gives.
    @Test func partialLastPacketIsPaddedWithSilence() throws {
        let samples = floats(musicLikeSignal(frames: 100, channels: 2, seed: 9))
        let (padded, result) = try encode(Self.encoder(channels: 2), samples, frames: 100)
        #expect(result == AudioEncodeResult(packetCount: 2, byteCount: 136, paddingFrames: 28))
        let (whole, wholeResult) = try encode(Self.encoder(channels: 2), samples + [Float](repeating: 0, count: 56), frames: 128)
        #expect(wholeResult.paddingFrames == 0)
        #expect(padded == whole)
    }

    /// Packets encoded in several calls are the packets of one call; after reset() the encoder
    /// starts again as a new one.
    @Test func callsChainAndResetStartsAgain() throws {
        let samples = floats(musicLikeSignal(frames: 64 * 12, channels: 1, seed: 11))
        let (once, _) = try encode(Self.encoder(channels: 1), samples, frames: 64 * 12)
        let encoder = try Self.encoder(channels: 1)
        var pieces: [UInt8] = []
        for (start, count) in [(0, 64), (64, 320), (384, 384)] {
            pieces += try encode(encoder, Array(samples[start..<start + count]), frames: count).bytes
        }
        #expect(pieces == once)
        encoder.reset()
        #expect(try encode(encoder, samples, frames: 64 * 12).bytes == once)
    }

    @Test func outputFormatIsCompleted() throws {
        let given = AudioStreamBasicDescription(
            sampleRate: 32000, formatID: .appleIMA4, bytesPerPacket: 0, framesPerPacket: 0, bytesPerFrame: 0, channelsPerFrame: 3,
            bitsPerChannel: 0)
        let encoder = try IMA4Encoder(input: floatInput(for: given), output: given)
        #expect(encoder.outputFormat == Self.format(channels: 3, rate: 32000))
        #expect(encoder.framesPerPacket == 64 && encoder.maximumPacketSize == 102 && encoder.magicCookie == nil)
        #expect(encoder.outputByteCount(forFrames: 65) == 204)
        #expect(encoder.outputByteCount(forFrames: 0) == 0)
        #expect(encoder.outputByteCount(forFrames: -1) == nil)
        #expect(encoder.outputByteCount(forFrames: .max) == nil)
    }

    @Test func rejectsOtherFormats() {
        let input = floatInput(for: Self.format(channels: 1))
        expectCodecError(.formatNotSupported) { try IMA4Encoder(input: input, output: int16) }
        expectCodecError(.formatNotSupported) { try IMA4Encoder(input: input, output: Self.format(channels: 0)) }
        var odd = Self.format(channels: 1)
        odd.framesPerPacket = 32
        expectCodecError(.formatNotSupported) { try IMA4Encoder(input: input, output: odd) }
        odd = Self.format(channels: 1)
        odd.bytesPerPacket = 68
        expectCodecError(.formatNotSupported) { try IMA4Encoder(input: input, output: odd) }
        // The input must be Float32 at the output's rate and channel count.
        expectCodecError(.formatNotSupported) { try IMA4Encoder(input: int16, output: Self.format(channels: 1, rate: 8000)) }
        expectCodecError(.formatNotSupported) { try IMA4Encoder(input: input, output: Self.format(channels: 1, rate: 22050)) }
        expectCodecError(.formatNotSupported) { try IMA4Encoder(input: input, output: Self.format(channels: 2)) }
    }
}
