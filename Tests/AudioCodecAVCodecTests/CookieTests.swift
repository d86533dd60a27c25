import Foundation
import ProcessSupport
import Testing
import AudioCore
import AudioCodecs
import AudioCodecAVCodec
import AudioCodecFAAD
import AudioFileServices

@Suite("AACEncoder's magic cookie")
struct CookieTests {
    /// The cookie is an ES_Descriptor (tag 3, Apple's four-byte lengths) that the package's own
    /// reader takes, holding a 2-byte AudioSpecificConfig of AAC LC at the rate and channels.
    @Test(arguments: [(44100, 1), (44100, 2), (48000, 2), (22050, 2), (44100, 3), (44100, 6), (96000, 2), (8000, 1), (32000, 8)])
    func cookieIsAnESDescriptor(_ rate: Int, _ channels: Int) throws {
        let encoder = try makeEncoder(rate: rate, channels: channels)
        let cookie = try #require(encoder.magicCookie)
        #expect(Array(cookie.prefix(5)) == [0x03, 0x80, 0x80, 0x80, UInt8(cookie.count - 5)])
        let config = try #require(try AACMagicCookie.audioSpecificConfig(from: cookie))
        #expect(config == encoder.audioSpecificConfig)
        #expect(config.count == 2)
        let asc = try AudioSpecificConfig(bytes: config)
        #expect(asc.audioObjectType == 2)
        #expect(asc.samplingFrequency == rate)
        #expect(asc.channelCount == channels)
        #expect(asc.channelConfiguration == (channels == 8 ? 7 : channels))
        // The DecoderConfigDescriptor: MPEG-4 audio, audio stream, the bit rate as maximum and average.
        let bitRate = encoder.bitRate
        let rateBytes: [UInt8] = [UInt8(bitRate >> 24), UInt8(bitRate >> 16 & 0xFF), UInt8(bitRate >> 8 & 0xFF), UInt8(bitRate & 0xFF)]
        #expect(Array(cookie[8..<15]) == [0x04, 0x80, 0x80, 0x80, UInt8(13 + 5 + config.count), 0x40, 0x15])
        #expect(Array(cookie[18..<22]) == rateBytes)
        #expect(Array(cookie[22..<26]) == rateBytes)
        #expect(Array(cookie.suffix(6)) == [0x06, 0x80, 0x80, 0x80, 0x01, 0x02])
    }

    /// Seven channels have no channel configuration: the config carries libavcodec's program
    /// config element (channel configuration 0), which the package's parser counts.
    @Test func sevenChannelsCarryAProgramConfigElement() throws {
        let encoder = try makeEncoder(rate: 48000, channels: 7)
        let cookie = try #require(encoder.magicCookie)
        let config = try #require(try AACMagicCookie.audioSpecificConfig(from: cookie))
        let asc = try AudioSpecificConfig(bytes: config)
        #expect(asc.audioObjectType == 2)
        #expect(asc.channelConfiguration == 0)
        #expect(asc.channelCount == 7)
        #expect(asc.samplingFrequency == 48000)
    }

    /// The whole cookie for 44.1 kHz stereo at 128 kb/s, field by field (ISO/IEC 14496-1,
    /// 7.2.6.5–7.2.6.8): ES_ID 0; MPEG-4 audio, bufferSizeDB 1536, 128000 b/s twice; the
    /// AudioSpecificConfig 0x12 0x10 (AAC LC, index 4, 2 channels); SL predefined 2.
    @Test func stereoCookie() throws {
        let encoder = try makeEncoder(rate: 44100, channels: 2)
        #expect(encoder.magicCookie == [
            0x03, 0x80, 0x80, 0x80, 0x22, 0x00, 0x00, 0x00,
            0x04, 0x80, 0x80, 0x80, 0x14, 0x40, 0x15, 0x00, 0x06, 0x00, 0x00, 0x01, 0xF4, 0x00, 0x00, 0x01, 0xF4, 0x00,
            0x05, 0x80, 0x80, 0x80, 0x02, 0x12, 0x10,
            0x06, 0x80, 0x80, 0x80, 0x01, 0x02,
        ])
    }

    /// A CAF file with the cookie in its `kuki` chunk and the packet table the encoder implies:
    /// AudioFile reads the cookie and table back, and faad2 (AACDecoder) decodes the packets
    /// with the cookie to the source, its first frame at 2112.
    @Test func cafWithTheCookieReadsAndDecodes() throws {
        let scratch = try Scratch()
        let source = try referenceSignal(rate: 44100, channels: 2, seconds: 2, in: scratch)
        let frames = source.count / 2
        let encoder = try makeEncoder(rate: 44100, channels: 2)
        let cookie = try #require(encoder.magicCookie)
        let encoded = try encodeAll(encoder, source, chunk: 4096, finishRoom: 4)
        let path = scratch.path("aac.caf")
        let table = (priming: 2112, remainder: encoded.paddingFrames, valid: frames)
        _ = FileManager.default.createFile(
            atPath: path, contents: Data(caf(encoder.outputFormat, cookie: cookie, packets: encoded.packets, table: table)))

        let file = try AudioFile(path: path)
        #expect(file.magicCookie == cookie)
        #expect(file.dataFormat.formatID == .mpeg4AAC)
        #expect(file.dataFormat.framesPerPacket == 1024)
        #expect(file.packetCount == Int64(encoded.packets.count))
        let info = try #require(file.packetTableInfo)
        #expect(info.primingFrames == 2112)
        #expect(Int(info.remainderFrames) == encoded.paddingFrames)
        #expect(info.numberValidFrames == Int64(frames))

        let decoder = try AACDecoder(input: file.dataFormat, magicCookie: file.magicCookie)
        #expect(decoder.outputFormat.channelsPerFrame == 2)
        #expect(decoder.outputFormat.sampleRate == 44100)
        let read = try file.readPackets(from: 0, count: encoded.packets.count)
        let descriptions = try #require(read.descriptions)
        let buffer = try #require(PCMBuffer(format: decoder.outputFormat, frameCapacity: 1024))
        var decoded: [Float] = []
        for d in descriptions {
            let bytes = read.data[Int(d.startOffset)..<(Int(d.startOffset) + Int(d.dataByteSize))]
            buffer.frameLength = 0
            let n = try bytes.withUnsafeBytes { try decoder.decode(packet: $0, frames: nil, into: buffer) }
            let region = buffer.region()
            decoded += (0..<(n * 2)).map { region.loadUnaligned(fromByteOffset: 4 * $0, as: Float.self) }
        }
        #expect(decoded.count == encoded.packets.count * 1024 * 2)
        let lag = bestOffset(reference: source, test: decoded, channels: 2, range: 2112 - 48...2112 + 48, rate: 44100)
        #expect(lag == 2112)
        let db = snr(reference: source, test: decoded, channels: 2, offset: 2112)
        print("faad2's decode of the CAF: \(String(format: "%.2f", db)) dB")
        #expect(db > 10)
    }

    /// A CAF file (Apple's "Core Audio Format Specification 1.0"): `desc`, `kuki`, `pakt` with
    /// each packet's size as a variable-length integer, `data` with its edit count.
    private func caf(
        _ format: AudioStreamBasicDescription, cookie: [UInt8], packets: [[UInt8]], table: (priming: Int, remainder: Int, valid: Int)
    ) -> [UInt8] {
        func be(_ v: UInt64, _ n: Int) -> [UInt8] { (0..<n).reversed().map { UInt8(truncatingIfNeeded: v >> (8 * UInt64($0))) } }
        func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] { Array(type.utf8) + be(UInt64(body.count), 8) + body }
        func varint(_ v: Int) -> [UInt8] {
            var groups = [UInt8(v & 0x7F)]
            var rest = v >> 7
            while rest > 0 {
                groups.insert(UInt8(0x80 | rest & 0x7F), at: 0)
                rest >>= 7
            }
            return groups
        }
        var out = Array("caff".utf8) + [0, 1, 0, 0]
        out += chunk("desc", be(format.sampleRate.bitPattern, 8) + be(UInt64(format.formatID.rawValue), 4)
            + be(UInt64(format.formatFlags.rawValue), 4) + be(0, 4) + be(1024, 4) + be(UInt64(format.channelsPerFrame), 4) + be(0, 4))
        out += chunk("kuki", cookie)
        out += chunk("pakt", be(UInt64(packets.count), 8) + be(UInt64(table.valid), 8) + be(UInt64(table.priming), 4)
            + be(UInt64(table.remainder), 4) + packets.flatMap { varint($0.count) })
        out += chunk("data", [0, 0, 0, 0] + packets.flatMap { $0 })
        return out
    }
}
