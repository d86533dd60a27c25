import Foundation
import Testing
import ProcessSupport
import AudioCore
import AudioCodecs
import AudioCodecFLAC
import AudioFileServices

@Suite("FLAC decoder")
struct FLACDecoderTests {
    @Test func fixturesArePresent() {
        #expect(FLACFixtures.names.count >= 15, "run Scripts/fixtures/make_flac_fixtures.sh")
    }

    /// Every fixture decodes bit for bit as ffmpeg's FLAC decoder (s16/s32, left-justified) and
    /// as the reference `flac -d` (samples of the source depth) decode it.
    @Test(arguments: FLACFixtures.names)
    func decodesAsFFmpegAndFlac(name: String) throws {
        let reference = try FLACFixtures.reference(name)
        let file = try AudioFile(path: FLACFixtures.path(name))
        let (bytes, format) = try FLACFixtures.decodeAll(file)
        #expect(format.bitsPerChannel == (reference.bits <= 16 ? 16 : 32))
        #expect(format.formatFlags.contains(.isSignedInteger) && format.formatFlags.contains(.isPacked))
        #expect(bytes.count / Int(format.bytesPerFrame) == reference.frames)
        if let crc = reference.ffmpegCRC {
            #expect(adler32(bytes[...]) == crc, "ffmpeg's decode differs")
        }
        let raw = FLACFixtures.toFLACRaw(bytes, outputBits: Int(format.bitsPerChannel), bits: reference.bits)
        #expect(adler32(raw[...]) == reference.flacCRC, "flac -d's decode differs")
    }

    /// Every cookie form names the same STREAMINFO, and decodes alike.
    @Test func cookieForms() throws {
        let file = try AudioFile(path: FLACFixtures.path("flac-2ch-44100-s16.flac"))
        let apple = try #require(file.magicCookie)
        let info = try #require(FLACStreamInfo(magicCookie: apple))
        #expect(apple.count == 50 && Array(apple[4..<8]) == Array("dfLa".utf8))
        let body = info.body
        let forms: [[UInt8]] = [
            apple,
            Array(apple[8...]),  // the dfLa box's contents
            Array("fLaC".utf8) + [0x80, 0, 0, 34] + body,
            body,
            Array("fLaC".utf8) + [0x00, 0, 0, 34] + body + [0x81, 0, 0, 4, 1, 2, 3, 4],  // more blocks after it
        ]
        for form in forms {
            #expect(FLACStreamInfo(magicCookie: form) == info, "\(form.prefix(12))")
        }
        #expect(info.sampleRate == 44100 && info.channels == 2 && info.bitsPerSample == 16 && info.totalSamples == 23520)
        #expect(info.maximumBlockSize == 4096)
        for bad in [[UInt8](), [0, 0, 0, 8] + Array("dfLa".utf8), Array("fLaC".utf8) + [0x84, 0, 0, 34] + body, Array(body.prefix(33)),
                    [0, 0, 0, 50] + Array("dfLa".utf8) + [1, 0, 0, 0, 0x80, 0, 0, 34] + body] {
            #expect(FLACStreamInfo(magicCookie: bad) == nil, "\(bad.prefix(12))")
        }
        #expect(throws: AudioCodecError.self) { try FLACDecoder(input: file.dataFormat, magicCookie: [1, 2, 3]) }
    }

    /// Without a cookie the description decides (the depth from Apple's flags): the file still
    /// decodes exactly.
    @Test func decodesWithoutCookie() throws {
        let file = try AudioFile(path: FLACFixtures.path("flac-2ch-96000-s24.flac"))
        let decoder = try FLACDecoder(input: file.dataFormat, magicCookie: nil)
        #expect(decoder.streamInfo.bitsPerSample == 24)
        #expect(decoder.outputFormat.bitsPerChannel == 32)
        let read = try file.readPackets(from: 0, count: 100)
        let buffer = try #require(PCMBuffer(format: decoder.outputFormat, frameCapacity: 3 * decoder.maximumFramesPerPacket))
        try read.data.withUnsafeBytes { raw in
            for d in read.descriptions! {
                try decoder.decode(packet: UnsafeRawBufferPointer(rebasing: raw[Int(d.startOffset)..<Int(d.startOffset + Int64(d.dataByteSize))]), frames: nil, into: buffer)
            }
        }
        let reference = try FLACFixtures.reference("flac-2ch-96000-s24.flac")
        let bytes = Array(UnsafeRawBufferPointer(start: buffer.region(0).baseAddress, count: reference.frames * 8))
        #expect(adler32(bytes[...]) == reference.ffmpegCRC)
    }

    /// A damaged packet throws `badData` after appending silence of its frames; the packets
    /// after it decode as they would have; nothing crashes on truncated, empty or junk packets.
    @Test func damagedPackets() throws {
        let file = try AudioFile(path: FLACFixtures.path("flac-2ch-44100-s16.flac"))
        let (good, format) = try FLACFixtures.decodeAll(file)
        let decoder = try FLACDecoder(input: file.dataFormat, magicCookie: file.magicCookie)
        let read = try file.readPackets(from: 0, count: 100)
        let descriptions = try #require(read.descriptions)
        let buffer = try #require(PCMBuffer(format: format, frameCapacity: 8 * 4096))
        var data = read.data
        let damaged = descriptions[1]
        data[Int(damaged.startOffset) + Int(damaged.dataByteSize) / 2] ^= 0x5A
        var failures = 0
        try data.withUnsafeBytes { raw in
            for d in descriptions {
                do {
                    try decoder.decode(packet: UnsafeRawBufferPointer(rebasing: raw[Int(d.startOffset)..<Int(d.startOffset + Int64(d.dataByteSize))]), frames: 4096, into: buffer)
                } catch let error as AudioCodecError {
                    #expect(error.code == .badData)
                    #expect(error.reason.contains("CRC") || error.reason.contains("libFLAC"), "\(error.reason)")
                    failures += 1
                }
                if buffer.frameLength >= 3 * 4096 { break }
            }
        }
        #expect(failures == 1)
        #expect(buffer.frameLength == 3 * 4096)
        let out = Array(UnsafeRawBufferPointer(start: buffer.region(0).baseAddress, count: buffer.byteLength))
        #expect(out[0..<16384] == good[0..<16384])
        #expect(out[16384..<32768].allSatisfy { $0 == 0 }, "the damaged packet is silence")
        #expect(out[32768..<49152] == good[32768..<49152], "the packet after it decodes normally")

        // Truncated, empty and junk packets: badData, silence of `frames`, never a crash.
        let first = descriptions[0]
        let packet = Array(read.data[Int(first.startOffset)..<Int(first.startOffset + Int64(first.dataByteSize))])
        for bad in [Array(packet.prefix(packet.count / 2)), [], [UInt8](repeating: 0xFF, count: 100), Array(packet.prefix(5)),
                    (0..<3000).map { UInt8(truncatingIfNeeded: $0 &* 37) }] {
            buffer.frameLength = 0
            #expect(throws: AudioCodecError.self) {
                try bad.withUnsafeBytes { try decoder.decode(packet: $0, frames: 4096, into: buffer) }
            }
            #expect(buffer.frameLength == 4096)
        }
        // And it still decodes the first packet exactly afterwards.
        buffer.frameLength = 0
        try packet.withUnsafeBytes { _ = try decoder.decode(packet: $0, frames: 4096, into: buffer) }
        #expect(Array(UnsafeRawBufferPointer(start: buffer.region(0).baseAddress, count: buffer.byteLength)) == Array(good[0..<16384]))
    }

    @Test func misuse() throws {
        let file = try AudioFile(path: FLACFixtures.path("flac-2ch-44100-s16.flac"))
        var other = file.dataFormat
        other.formatID = .appleLossless
        #expect { try FLACDecoder(input: other, magicCookie: file.magicCookie) } throws: {
            ($0 as? AudioCodecError)?.code == .formatNotSupported
        }
        let decoder = try FLACDecoder(input: file.dataFormat, magicCookie: file.magicCookie)
        let wrong = try #require(PCMBuffer(format: .linearPCM(sampleRate: 44100, channels: 2, bitsPerChannel: 32, isFloat: true), frameCapacity: 8192))
        #expect { try [UInt8](repeating: 0, count: 10).withUnsafeBytes { try decoder.decode(packet: $0, frames: nil, into: wrong) } } throws: {
            ($0 as? AudioCodecError)?.code == .invalidOutputSize
        }
        let small = try #require(PCMBuffer(format: decoder.outputFormat, frameCapacity: 100))
        #expect { try [UInt8](repeating: 0, count: 10).withUnsafeBytes { try decoder.decode(packet: $0, frames: nil, into: small) } } throws: {
            ($0 as? AudioCodecError)?.code == .invalidOutputSize
        }
        var zeroRate = FLACStreamInfo(magicCookie: file.magicCookie!)!
        zeroRate.sampleRate = 0
        #expect(throws: AudioCodecError.self) { try FLACDecoder(input: file.dataFormat, magicCookie: zeroRate.magicCookie) }
    }

    @Test func registers() throws {
        FLACDecoder.register()
        #expect(AudioDecoders.canDecode(.flac))
        let file = try AudioFile(path: FLACFixtures.path("flac-6ch-48000-s16.flac"))
        let decoder = try AudioDecoders.make(for: file.dataFormat, magicCookie: file.magicCookie)
        #expect(decoder is FLACDecoder)
        #expect(decoder.outputChannelLayout?.numberOfChannels == 6)
    }
}
