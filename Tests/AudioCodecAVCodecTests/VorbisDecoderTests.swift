import Foundation
import Testing
import ProcessSupport
import AudioCore
import AudioCodecs
import AudioCodecAVCodec
import AudioFileServices
import DecodeTestSupport

/// libavcodec's Vorbis decoder against ffmpeg's decode of the Vorbis fixtures
/// (Scripts/fixtures/make_vorbis_fixtures.py), and at the packet boundaries the readers rely on.
@Suite("Vorbis decoding through libavcodec")
struct AVCodecVorbisDecoderTests {
    static let files = [
        "oggenc-mono-44100.ogg", "ffmpeg-stereo-48000.ogg", "oggenc-3-48000.ogg", "oggenc-5-48000.ogg", "oggenc-51-48000.ogg",
        "oggenc-short-44100.ogg", "spec-late-start.ogg", "spec-tags.ogg",
    ]

    static func file(_ name: String) throws -> AudioFile { try AudioFile(path: Fixtures.vorbis.appendingPathComponent(name).path) }

    static func decoder(_ file: AudioFile) throws -> AVCodecVorbisDecoder {
        try AVCodecVorbisDecoder(input: file.dataFormat, magicCookie: file.magicCookie)
    }

    /// The fields of a fixture's .ref file.
    static func reference(_ name: String) throws -> [String: String] {
        let url = Fixtures.vorbis.appendingPathComponent(name.replacingOccurrences(of: ".ogg", with: ".ref"))
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { throw MissingFixture("vorbis/\(url.lastPathComponent)") }
        return Dictionary(uniqueKeysWithValues: text.split(separator: "\n").compactMap { line -> (String, String)? in
            let parts = line.split(separator: "=", maxSplits: 1)
            return parts.count == 2 ? (String(parts[0]), String(parts[1])) : nil
        })
    }

    /// Trimmed by the packet table, each file has oggdec's length, and over the frames both give
    /// (ffmpeg trims the end by its own rule) it is ffmpeg's float decode bit for bit, channels in
    /// the same (WAVE) order: mono, stereo, 3.0, 5.0 and 5.1.
    @Test(arguments: files) func matchesFFmpeg(_ name: String) throws {
        let file = try Self.file(name)
        let decoder = try Self.decoder(file)
        let samples = try decodeTrimmed(file, with: decoder)
        let channels = Int(decoder.outputFormat.channelsPerFrame)
        let reference = try Self.reference(name)
        let frames = try #require(reference["frames"].flatMap { Int($0) })
        let ffmpegFrames = try #require(reference["ffmpeg_frames"].flatMap { Int($0) })
        let adler = try #require(reference["ffmpeg_f32adler"].flatMap { UInt32($0.dropFirst(2), radix: 16) })
        #expect(samples.count == frames * channels, "\(name): \(samples.count / channels) frames, oggdec \(frames)")
        let common = min(frames, ffmpegFrames, samples.count / channels)
        #expect(adler32(Array(samples[0..<(common * channels)])) == adler, "\(name): differs from ffmpeg's decode")
    }

    /// The first packet after the decoder is made gives silence of its described duration, and
    /// every packet gives exactly its described frames; a reset starts afresh.
    @Test func firstPacketIsSilenceAndPacketsKeepTheirLengths() throws {
        let file = try Self.file("ffmpeg-stereo-48000.ogg")
        let decoder = try Self.decoder(file)
        let descriptions = try #require(file.readPackets(from: 0, count: Int(file.packetCount)).descriptions)
        for _ in 0..<2 {
            let packets = try decodeEachPacket(file, with: decoder)
            #expect(packets.count == descriptions.count)
            for (i, (samples, d)) in zip(packets, descriptions).enumerated() {
                #expect(samples.count == Int(d.variableFramesInPacket) * 2, "packet \(i)")
            }
            #expect(packets[0].count > 0 && packets[0].allSatisfy { $0 == 0 })
            #expect(packets[1].contains { $0 != 0 })
        }
    }

    /// After a reset and one packet of pre-roll, the packets decode exactly as in a continuous
    /// decode (the decoder is exact across seeks).
    @Test(arguments: ["ffmpeg-stereo-48000.ogg", "oggenc-51-48000.ogg"]) func resetWithOnePacketOfPreRollIsExact(_ name: String) throws {
        let file = try Self.file(name)
        let decoder = try Self.decoder(file)
        #expect(decoder.traits.preRollPackets == 1 && decoder.traits.restartsExactly)
        let continuous = try decodeEachPacket(file, with: decoder)
        let all = try file.readPackets(from: 0, count: Int(file.packetCount))
        let descriptions = try #require(all.descriptions)
        let buffer = try #require(PCMBuffer(format: decoder.outputFormat, frameCapacity: 4096))
        for start in [1, 2, 5, descriptions.count - 3] where start > 0 && start < descriptions.count {
            decoder.reset()
            for i in (start - 1)..<min(start + 3, descriptions.count) {
                let d = descriptions[i]
                buffer.frameLength = 0
                try all.data.withUnsafeBytes { bytes in
                    let packet = UnsafeRawBufferPointer(rebasing: bytes[Int(d.startOffset)..<(Int(d.startOffset) + Int(d.dataByteSize))])
                    _ = try decoder.decode(packet: packet, frames: Int(d.variableFramesInPacket), into: buffer)
                }
                var got: [Float] = []
                buffer.appendFloats(to: &got)
                if i == start - 1 {
                    #expect(got.allSatisfy { $0 == 0 }, "\(name): the pre-roll packet \(i) is silence")
                } else {
                    #expect(got == continuous[i], "\(name): packet \(i) after a reset at \(start - 1)")
                }
            }
        }
    }

    /// Damaged packets (random bytes, a header packet, nothing) are concealed with silence of
    /// their duration and `badData`; none traps, and the stream then decodes afresh.
    @Test func garbagePacketsConceal() throws {
        let file = try Self.file("ffmpeg-stereo-48000.ogg")
        let decoder = try Self.decoder(file)
        let buffer = try #require(PCMBuffer(format: decoder.outputFormat, frameCapacity: 4096))
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        var packets: [[UInt8]] = [[1] + Array("vorbis".utf8) + [UInt8](repeating: 0, count: 23), [5, 0, 0]]
        for length in [1, 2, 7, 64, 300, 1500] {
            var bytes = [UInt8](repeating: 0, count: length)
            for i in 0..<length {
                seed = seed &* 6364136223846793005 &+ 1442695040888963407
                bytes[i] = UInt8(truncatingIfNeeded: seed >> 33) & 0xFE
            }
            packets.append(bytes)
        }
        for bytes in packets {
            buffer.frameLength = 0
            _ = try? bytes.withUnsafeBytes { try decoder.decode(packet: $0, frames: 512, into: buffer) }
            #expect(buffer.frameLength == 512)
        }
        // A header packet is refused with silence.
        buffer.frameLength = 0
        #expect(throws: AudioCodecError.self) { try packets[0].withUnsafeBytes { try decoder.decode(packet: $0, frames: 256, into: buffer) } }
        #expect(buffer.frameLength == 256 && buffer.floatSamples.allSatisfy { $0 == 0 })
        // Then the file decodes as from a fresh decoder.
        let fresh = try decodeEachPacket(file, with: try Self.decoder(file))
        #expect(try decodeEachPacket(file, with: decoder) == fresh)
    }

    /// Layout, limits, the stand-in made without a cookie, and refused cookies.
    @Test func configuration() throws {
        #expect(AVCodecVorbisDecoder.isAvailable)
        let file = try Self.file("oggenc-51-48000.ogg")
        let decoder = try Self.decoder(file)
        #expect(decoder.outputFormat.channelsPerFrame == 6 && decoder.outputFormat.sampleRate == 48000)
        #expect(decoder.outputChannelLayout == AudioChannelLayout.waveOrder(channels: 6))
        #expect(decoder.maximumFramesPerPacket == 4096)

        let standIn = try AVCodecVorbisDecoder(input: file.dataFormat, magicCookie: nil)
        let buffer = try #require(PCMBuffer(format: standIn.outputFormat, frameCapacity: 4096))
        #expect(throws: AudioCodecError.self) { try [UInt8](repeating: 0x10, count: 40).withUnsafeBytes { try standIn.decode(packet: $0, frames: 256, into: buffer) } }
        #expect(buffer.frameLength == 256)

        #expect(throws: AudioCodecError.self) { try AVCodecVorbisDecoder(input: file.dataFormat, magicCookie: [2, 30, 1, 2, 3]) }
        var cookie = try #require(file.magicCookie)
        cookie[cookie.count - 20..<cookie.count] = ArraySlice(repeating: 0xFF, count: 20)
        #expect(throws: AudioCodecError.self) { try AVCodecVorbisDecoder(input: file.dataFormat, magicCookie: cookie) }
    }
}

extension PCMBuffer {
    fileprivate var floatSamples: [Float] {
        var samples: [Float] = []
        appendFloats(to: &samples)
        return samples
    }
}
