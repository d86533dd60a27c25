import Foundation
import ProcessSupport
import Testing
import AudioCore
import AudioCodecs
import AudioCodecAVCodec
import AudioFileServices
import ExtendedAudioFileServices
import DecodeTestSupport

/// AC-3 and E-AC-3 decoding against ffmpeg's decodes of the same files (Tests/Fixtures/ac3, made
/// by Scripts/fixtures/make_ac3_fixtures.sh): the same libavcodec decoder behind both, so the
/// samples must match bit for bit once put in ffmpeg's channel order.
@Suite struct AC3DecoderTests {
    static let folder = FixtureFolder("ac3")
    /// Files ffmpeg reads whole (no edit list trims them), the damaged ones included.
    static let untrimmed = [
        "ac3-2ch-48000.ac3", "ac3-6ch-48000.ac3", "ac3-1ch-44100.ac3", "ac3-5ch-32000.ac3", "eac3-2ch-48000.ec3",
        "eac3-6ch-48000.ec3", "ac3-6ch-48000.caf", "ac3-2ch-48000.wav", "cut-2ch-48000.ac3", "crc-2ch-48000.ac3",
    ]

    /// ffmpeg's channel order for the layouts ffprobe names in the fixtures' references.
    static func ffmpegOrder(_ layout: String) -> [AudioChannelLabel]? {
        switch layout {
        case "mono": [.center]
        case "stereo": [.left, .right]
        case "5.0(side)": [.left, .right, .center, .leftSurround, .rightSurround]
        case "5.1(side)": [.left, .right, .center, .lfeScreen, .leftSurround, .rightSurround]
        default: nil
        }
    }

    /// Every packet of `file` through a new decoder: the samples in the decoder's order, its
    /// channel labels and the packets it could not decode.
    static func decodeAll(_ file: AudioFile) throws -> (samples: [Float], labels: [AudioChannelLabel], bad: Int, decoder: AC3Decoder) {
        let decoder = try AC3Decoder(input: file.dataFormat, magicCookie: file.magicCookie)
        let labels = try #require(decoder.outputChannelLayout?.labels)
        let buffer = try #require(PCMBuffer(format: decoder.outputFormat, frameCapacity: decoder.maximumFramesPerPacket))
        var samples: [Float] = []
        var bad = 0
        var next: Int64 = 0
        while next < file.packetCount {
            let packets = try file.readPackets(from: next, count: 64)
            for packet in packets {
                buffer.frameLength = 0
                do {
                    try packet.withUnsafeBytes { _ = try decoder.decode(packet: $0, frames: nil, into: buffer) }
                } catch {
                    bad += 1
                }
                buffer.appendFloats(to: &samples)
            }
            next += Int64(packets.count)
        }
        return (samples, labels, bad, decoder)
    }

    /// `samples` (interleaved in `labels`' order) put in the order `target` names.
    static func reorder(_ samples: [Float], from labels: [AudioChannelLabel], to target: [AudioChannelLabel]) throws -> [Float] {
        let map = try target.map { label in try #require(labels.firstIndex(of: label), "no \(label) among \(labels)") }
        let channels = labels.count
        var out = [Float](repeating: 0, count: samples.count)
        for frame in 0..<(samples.count / channels) {
            for (c, source) in map.enumerated() { out[frame * channels + c] = samples[frame * channels + source] }
        }
        return out
    }

    @Test(arguments: untrimmed)
    func packetsDecodeBitExactlyAsFFmpegDecodesThem(_ name: String) throws {
        let reference = try Self.folder.reference(name)
        let file = try AudioFile(path: Self.folder.path(name))
        let decoded = try Self.decodeAll(file)
        let channels = try #require(Int(reference["channels"] ?? ""))
        #expect(decoded.labels.count == channels)
        #expect(Int(file.dataFormat.sampleRate) == Int(reference["rate"] ?? ""))
        #expect(decoded.samples.count / channels == Int(reference["frames"] ?? ""))
        let order = try #require(Self.ffmpegOrder(reference["layout"] ?? ""))
        let ours = try Self.reorder(decoded.samples, from: decoded.labels, to: order)
        let crc = try #require(reference["f32crc"].flatMap { UInt32($0.dropFirst(2), radix: 16) })
        #expect(adler32(ours) == crc, "\(name): Adler-32 of the decode differs from ffmpeg's")
    }

    @Test func theFirstFramesMatchFFmpegsSamples() throws {
        let name = "ac3-2ch-48000.ac3"
        let expected = try Fixtures.float32(Self.folder.directory.appendingPathComponent(name + ".f32"))
        let decoded = try Self.decodeAll(try AudioFile(path: Self.folder.path(name)))
        let ours = Array(decoded.samples.prefix(expected.count))
        var peak: Float = 0
        for (a, b) in zip(ours, expected) { peak = max(peak, abs(a - b)) }
        #expect(ours.count == expected.count)
        #expect(peak == 0, "largest difference \(peak) (\(20 * log10(Double(max(peak, .leastNonzeroMagnitude)))) dB)")
    }

    @Test func fileAndDecoderReportTheBitstreamOrder() throws {
        // Apple's tags (CoreAudioBaseTypes.h): MPEG_5_1_C (123) L C R Ls Rs LFE, MPEG_5_0_C (119)
        // L C R Ls Rs, Stereo (101), Mono (100).
        let cases: [(String, UInt32)] = [
            ("ac3-6ch-48000.ac3", 123 << 16 | 6), ("eac3-6ch-48000.ec3", 123 << 16 | 6), ("ac3-6ch-48000.m4a", 123 << 16 | 6),
            ("eac3-6ch-48000.mp4", 123 << 16 | 6), ("ac3-2ch-48000.wav", 101 << 16 | 2), ("ac3-5ch-32000.ac3", 119 << 16 | 5),
            ("ac3-2ch-48000.ac3", 101 << 16 | 2), ("ac3-1ch-44100.ac3", 100 << 16 | 1),
        ]
        for (name, tag) in cases {
            let file = try AudioFile(path: Self.folder.path(name))
            #expect(file.channelLayout?.tag.rawValue == tag, "\(name)")
            let decoder = try AC3Decoder(input: file.dataFormat, magicCookie: file.magicCookie)
            #expect(decoder.outputChannelLayout?.tag.rawValue == tag, "\(name)")
        }
        // Without a cookie (ffmpeg's CAF has none) six channels are taken as 3/2 with LFE.
        let caf = try AudioFile(path: Self.folder.path("ac3-6ch-48000.caf"))
        #expect(caf.magicCookie == nil)
        let decoder = try AC3Decoder(input: caf.dataFormat, magicCookie: nil)
        let mpeg_5_1_C: UInt32 = 123 << 16 | 6
        #expect(decoder.outputChannelLayout?.tag.rawValue == mpeg_5_1_C)
    }

    @Test(arguments: ["ac3-6ch-48000.m4a", "eac3-6ch-48000.mp4", "ac3-2ch-48000.mov"])
    func extAudioFileTrimsAsTheEditListSays(_ name: String) throws {
        AC3Decoder.register()
        let reference = try Self.folder.reference(name)
        let reader = try ExtAudioFile(path: Self.folder.path(name))
        let samples = try readAllFloat(reader)
        let file = try AudioFile(path: Self.folder.path(name))
        #expect(file.packetCount == Int64(reference["packets"] ?? ""))
        // The edit list's duration, as ffprobe reads it (ffmpeg's own decode trims only the
        // start: its frames are the packets' less the 256 frames of the encoder's delay).
        let channels = Int(file.dataFormat.channelsPerFrame)
        let duration = try #require(Double(reference["duration"] ?? ""))
        let expected = Int((duration * file.dataFormat.sampleRate).rounded())
        #expect(samples.count / channels == expected)
        #expect(reader.fileLengthFrames == Int64(expected))
        let priming = file.totalFrames - Int64(reference["frames"] ?? "")!
        #expect(file.packetTableInfo?.primingFrames == Int32(priming))
        // What ExtAudioFile gives is the packets' decode from the priming on.
        let decoded = try Self.decodeAll(file)
        let start = Int(priming) * channels
        #expect(Array(decoded.samples[start..<(start + samples.count)]) == samples)
    }

    @Test func junkBetweenFramesIsSkippedAndTheStreamDecodesAsTheCleanOne() throws {
        let clean = try Self.folder.reference("ac3-2ch-48000.ac3")
        let file = try AudioFile(path: Self.folder.path("junk-2ch-48000.ac3"))
        #expect(file.packetCount == Int64(clean["packets"] ?? ""))
        let decoded = try Self.decodeAll(file)
        #expect(decoded.bad == 0)
        let crc = try #require(clean["f32crc"].flatMap { UInt32($0.dropFirst(2), radix: 16) })
        #expect(adler32(decoded.samples) == crc)
    }

    @Test func garbageAndCutPacketsConcealWithSilenceOfTheirDuration() throws {
        let file = try AudioFile(path: Self.folder.path("ac3-2ch-48000.ac3"))
        let decoder = try AC3Decoder(input: file.dataFormat, magicCookie: file.magicCookie)
        let buffer = try #require(PCMBuffer(format: decoder.outputFormat, frameCapacity: 4 * 1536))
        let garbage = [UInt8](repeating: 0x5A, count: 700)
        #expect(throws: AudioCodecError.self) {
            try garbage.withUnsafeBytes { _ = try decoder.decode(packet: $0, frames: nil, into: buffer) }
        }
        #expect(buffer.frameLength == 1536)
        var samples: [Float] = []
        buffer.appendFloats(to: &samples)
        #expect(samples.allSatisfy { $0 == 0 })
        // An empty packet, and a buffer without room, are errors too; nothing crashes.
        #expect(throws: AudioCodecError.self) {
            try [UInt8]().withUnsafeBytes { _ = try decoder.decode(packet: $0, frames: 256, into: buffer) }
        }
        #expect(buffer.frameLength == 1536 + 256)
        #expect(throws: AudioCodecError.self) {
            try garbage.withUnsafeBytes { _ = try decoder.decode(packet: $0, frames: nil, into: buffer) }
        }
        // Every prefix of a packet decodes or conceals.
        let packet = Array(try file.readPackets(from: 3, count: 1)[0])
        for cut in stride(from: 0, through: packet.count, by: 37) {
            buffer.frameLength = 0
            _ = try? Array(packet.prefix(cut)).withUnsafeBytes { try decoder.decode(packet: $0, frames: nil, into: buffer) }
            #expect(buffer.frameLength == 1536)
        }
    }

    @Test func iec61937BurstsDecodeAsTheFramesTheyCarry() throws {
        // ffmpeg's spdif muxer: each AC-3 frame in a 6144-byte burst of little-endian words.
        let bursts = try Fixtures.bytes(Self.folder.directory.appendingPathComponent("ac3-2ch-48000.spdif"))
        #expect(bursts.count == 3 * 6144)
        let file = try AudioFile(path: Self.folder.path("ac3-2ch-48000.ac3"))
        var iec = file.dataFormat
        iec.formatID = .ac3_60958
        let plain = try AC3Decoder(input: file.dataFormat, magicCookie: nil)
        let wrapped = try AC3Decoder(input: iec, magicCookie: nil)
        let a = try #require(PCMBuffer(format: plain.outputFormat, frameCapacity: 1536))
        let b = try #require(PCMBuffer(format: wrapped.outputFormat, frameCapacity: 1536))
        let frames = try file.readPackets(from: 0, count: 3)
        for k in 0..<3 {
            a.frameLength = 0
            b.frameLength = 0
            try Array(frames[k]).withUnsafeBytes { _ = try plain.decode(packet: $0, frames: nil, into: a) }
            try Array(bursts[(k * 6144)..<((k + 1) * 6144)]).withUnsafeBytes { _ = try wrapped.decode(packet: $0, frames: nil, into: b) }
            var x: [Float] = [], y: [Float] = []
            a.appendFloats(to: &x)
            b.appendFloats(to: &y)
            #expect(x.count == 3072 && x == y, "burst \(k)")
        }
    }

    @Test func cookiesAndFormatsAreChecked() throws {
        let stereo = AudioStreamBasicDescription(
            sampleRate: 48000, formatID: .ac3, formatFlags: [], bytesPerPacket: 0, framesPerPacket: 1536, bytesPerFrame: 0,
            channelsPerFrame: 2, bitsPerChannel: 0)
        #expect(throws: AudioCodecError.self) { try AC3Decoder(input: stereo, magicCookie: [1, 2]) }
        var aac = stereo
        aac.formatID = .mpeg4AAC
        #expect(throws: AudioCodecError.self) { try AC3Decoder(input: aac, magicCookie: nil) }
        var none = stereo
        none.channelsPerFrame = 0
        #expect(throws: AudioCodecError.self) { try AC3Decoder(input: none, magicCookie: nil) }
        var iec = stereo
        iec.formatID = .ac3_60958
        #expect(try AC3Decoder(input: iec, magicCookie: nil).outputFormat.channelsPerFrame == 2)
        AC3Decoder.register()
        #expect(AudioDecoders.canDecode(.ac3) && AudioDecoders.canDecode(.enhancedAC3))
    }
}
