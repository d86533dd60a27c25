import Foundation
import Testing
import ProcessSupport
import AudioCore
import AudioFileServices
import AudioCodecs
import ExtendedAudioFileServices

/// ffmpeg's ALAC files and decodes, made by Scripts/fixtures/make_alac_fixtures.sh.
enum ALACFixtures {
    static let folder = FixtureFolder("alac")
    static var directory: URL { folder.directory }

    static func path(_ name: String) -> String { folder.path(name) }

    /// The CAF fixtures' names without extension.
    static var names: [String] { folder.names(endingWith: ".caf") }

    /// A fixture's `.ref` file: ffmpeg's format, frame count and Adler-32s.
    struct Reference {
        var format: String
        var frames: Int
        var crc: UInt32
        var f32crc: UInt32
    }

    static func reference(_ name: String) throws -> Reference {
        let values = try folder.reference(name)
        func hex(_ key: String) throws -> UInt32 { try #require(values[key].flatMap { UInt32($0.dropFirst(2), radix: 16) }) }
        return Reference(
            format: try #require(values["format"]), frames: try #require(values["frames"].flatMap { Int($0) }),
            crc: try hex("crc"), f32crc: try hex("f32crc"))
    }

    /// Where ffmpeg puts ALAC channel `i` of a `channels`-channel stream: ffmpeg reorders ALAC's
    /// C-first order to its own (L R C LFE …), per its `ff_alac_channel_layout_offsets` table.
    static func ffmpegChannel(_ i: Int, of channels: Int) -> Int {
        let table: [[Int]] = [
            [0], [0, 1], [2, 0, 1], [2, 0, 1, 3], [2, 0, 1, 3, 4], [2, 0, 1, 4, 5, 3], [2, 0, 1, 4, 5, 6, 3],
            [2, 6, 7, 0, 1, 4, 5, 3],
        ]
        return table[channels - 1][i]
    }

    /// Interleaved `bytes` (frames of `channels` samples of `width` bytes) in ffmpeg's channel order.
    static func toFFmpegOrder(_ bytes: [UInt8], channels: Int, width: Int) -> [UInt8] {
        guard channels > 2 else { return bytes }
        var out = bytes
        let frame = channels * width
        for f in 0..<(bytes.count / frame) {
            for c in 0..<channels {
                let from = f * frame + c * width
                let to = f * frame + ffmpegChannel(c, of: channels) * width
                for b in 0..<width { out[to + b] = bytes[from + b] }
            }
        }
        return out
    }

    static func adler(_ bytes: [UInt8]) -> UInt32 {
        var sum = Adler32()
        bytes.withUnsafeBytes { sum.update($0) }
        return sum.value
    }

    /// Every packet of a file with its frame count from the packet table.
    static func packets(_ file: AudioFile) throws -> [(bytes: [UInt8], frames: Int)] {
        let read = try file.readPackets(from: 0, count: Int(file.packetCount))
        let descriptions = try #require(read.descriptions)
        return descriptions.map { d in
            let start = Int(d.startOffset)
            let frames = d.variableFramesInPacket == 0 ? Int(file.dataFormat.framesPerPacket) : Int(d.variableFramesInPacket)
            return (Array(read.data[start..<start + Int(d.dataByteSize)]), frames)
        }
    }

    /// The element header of a single-element frame (mono or stereo): (partial, bytes shifted,
    /// escape, sample count when partial), read from the bits independently of the decoder.
    static func frameHeader(_ packet: [UInt8]) -> (partial: Bool, shifted: Int, escape: Bool, samples: Int?) {
        func bits(_ start: Int, _ count: Int) -> Int {
            (start..<start + count).reduce(0) { $0 << 1 | Int(packet[$1 / 8] >> (7 - UInt8($1 % 8)) & 1) }
        }
        // tag (3), instance (4), reserved (12), then partial, shift (2), escape.
        let partial = bits(19, 1) == 1
        return (partial, bits(20, 2), bits(22, 1) == 1, partial ? bits(23, 32) : nil)
    }

    /// The prediction orders of a compressed single-element frame's channels: after the
    /// header, mix bits and weight (8 + 8), each channel has mode/shift (8), factor/order (8)
    /// and order 16-bit coefficients.
    static func predictionOrders(_ packet: [UInt8], channels: Int) -> [Int] {
        func bits(_ start: Int, _ count: Int) -> Int {
            (start..<start + count).reduce(0) { $0 << 1 | Int(packet[$1 / 8] >> (7 - UInt8($1 % 8)) & 1) }
        }
        var at = 23 + (frameHeader(packet).partial ? 32 : 0) + 16
        var orders: [Int] = []
        for _ in 0..<channels {
            let order = bits(at + 8, 8) & 31
            orders.append(order)
            at += 16 + 16 * order
        }
        return orders
    }
}

@Suite("ALAC files")
struct ALACFileTests {
    static let names = ALACFixtures.names

    @Test func fixturesExist() {
        #expect(Self.names.count >= 15, "run Scripts/fixtures/make_alac_fixtures.sh")
    }

    /// Each CAF file through AudioFile and ALACDecoder, packet by packet: bit-exact against
    /// ffmpeg's decode (same frame count, same Adler-32 of the raw samples).
    @Test(arguments: names)
    func decodesBitExactly(name: String) throws {
        let reference = try ALACFixtures.reference(name)
        let file = try AudioFile(path: ALACFixtures.path(name + ".caf"))
        #expect(file.dataFormat.formatID == .appleLossless)
        let decoder = try AudioDecoders.make(for: file.dataFormat, magicCookie: file.magicCookie)
        #expect(decoder is ALACDecoder)
        let channels = Int(decoder.outputFormat.channelsPerFrame)
        let width = Int(decoder.outputFormat.bitsPerChannel) / 8
        #expect(reference.format == (width == 2 ? "s16le" : "s32le"))
        let packets = try ALACFixtures.packets(file)
        let buffer = try #require(PCMBuffer(format: decoder.outputFormat, frameCapacity: packets.count * decoder.maximumFramesPerPacket))
        // ffmpeg's packet tables count every packet as 4096 frames: the last one's length is
        // only in its frame header.
        for (i, packet) in packets.enumerated() {
            let n = try packet.bytes.withUnsafeBytes { try decoder.decode(packet: $0, frames: packet.frames, into: buffer) }
            if i < packets.count - 1 { #expect(n == packet.frames) } else { #expect(n <= packet.frames) }
        }
        #expect(buffer.frameLength == reference.frames)
        let bytes = Array(buffer.region(0)[0..<buffer.byteLength])
        let ordered = ALACFixtures.toFFmpegOrder(bytes, channels: channels, width: width)
        #expect(ALACFixtures.adler(ordered) == reference.crc, "\(name): decode differs from ffmpeg's")
        if channels >= 3 {
            #expect(decoder.outputChannelLayout == AudioChannelLayout(tag: try #require(ALACDecoder.channelLayoutTag(channels: channels))))
        }
    }

    /// Each CAF file through ExtAudioFile to Float32: ffmpeg's float decode, bit for bit.
    @Test(arguments: names)
    func extAudioFileMatchesFFmpegFloat(name: String) throws {
        let reference = try ALACFixtures.reference(name)
        let (bytes, frames, reader) = try decodeAll(ALACFixtures.path(name + ".caf"), chunk: 3000)
        #expect(frames == reference.frames)
        let channels = Int(reader.decodedFormat.channelsPerFrame)
        let ordered = ALACFixtures.toFFmpegOrder(bytes, channels: channels, width: 4)
        #expect(ALACFixtures.adler(ordered) == reference.f32crc, "\(name): float decode differs from ffmpeg's")
    }

    /// The M4A copies of some fixtures, read by the MPEG-4 reader (its `alac` sample entry as
    /// the cookie) and decoded through ExtAudioFile: ffmpeg's float decode of the same audio,
    /// bit for bit, and exactly its frames.
    @Test(arguments: ((try? FileManager.default.contentsOfDirectory(atPath: ALACFixtures.directory.path)) ?? [])
        .filter { $0.hasSuffix(".m4a") }.map { String($0.dropLast(4)) }.sorted())
    func m4aMatchesFFmpegFloat(name: String) throws {
        let reference = try ALACFixtures.reference(name)
        let file = try AudioFile(path: ALACFixtures.path(name + ".m4a"))
        #expect(file.fileType == .m4a)
        #expect(file.dataFormat.formatID == .appleLossless)
        let (bytes, frames, reader) = try decodeAll(ALACFixtures.path(name + ".m4a"), chunk: 3000)
        #expect(frames == reference.frames)
        let channels = Int(reader.decodedFormat.channelsPerFrame)
        let ordered = ALACFixtures.toFFmpegOrder(bytes, channels: channels, width: 4)
        #expect(ALACFixtures.adler(ordered) == reference.f32crc, "\(name).m4a: float decode differs from ffmpeg's")
    }

    /// The fixtures hold what they are meant to cover, read from the frame header bits: escape
    /// frames in the noise files, compressed frames with one uncompressed low byte in the 24-bit
    /// tone files, a partial last frame with its sample count where the length is not a
    /// multiple of 4096, and only full frames otherwise.
    @Test func fixturesCoverEscapeAndPartialFrames() throws {
        var escapes = 0, partials = 0
        for name in Self.names where name.hasPrefix("alac-1ch") || name.hasPrefix("alac-2ch") {
            let file = try AudioFile(path: ALACFixtures.path(name + ".caf"))
            let packets = try ALACFixtures.packets(file)
            let headers = packets.map { ALACFixtures.frameHeader($0.bytes) }
            let frames = try ALACFixtures.reference(name).frames
            if name.hasSuffix("noise") {
                #expect(headers.contains { $0.escape }, "\(name): expected escape frames \(headers)")
                escapes += headers.filter(\.escape).count
            } else {
                #expect(headers.allSatisfy { !$0.escape }, "\(name): expected compressed frames")
                #expect(headers.allSatisfy { $0.shifted == (name.contains("s24") ? 1 : 0) }, "\(name)")
            }
            if !name.hasSuffix("noise") {
                let orders = Set(packets.flatMap { ALACFixtures.predictionOrders($0.bytes, channels: name.hasPrefix("alac-1ch") ? 1 : 2) })
                if name.hasSuffix("order") {
                    // Orders beyond 8 take the predictor's general path.
                    #expect(orders.contains { $0 > 8 }, "\(name): orders \(orders)")
                } else {
                    #expect(orders.isSubset(of: 4...6), "\(name): orders \(orders)")
                }
            }
            let last = try #require(headers.last)
            if frames % 4096 != 0 {
                #expect(last.partial && last.samples == frames % 4096, "\(name): expected a partial last frame")
                partials += 1
            } else {
                #expect(!last.partial)
            }
            #expect(headers.dropLast().allSatisfy { !$0.partial })
        }
        #expect(escapes >= 3)
        #expect(partials >= 5)
    }

    /// Real packets with bits flipped, bytes changed, cut short or extended: never a crash,
    /// each call either decodes or appends silence for the packet and throws badData.
    @Test func mutatedPacketsNeverCrash() throws {
        var rng = SplitMix(seed: 0xA1AC)
        var failures = 0, successes = 0
        for name in ["alac-2ch-44100-s16-tone", "alac-1ch-48000-s24-tone", "alac-6ch-48000-s24-tone", "alac-1ch-44100-s16-noise"] {
            let file = try AudioFile(path: ALACFixtures.path(name + ".caf"))
            let decoder = try ALACDecoder(input: file.dataFormat, magicCookie: file.magicCookie)
            let buffer = try #require(PCMBuffer(format: decoder.outputFormat, frameCapacity: decoder.maximumFramesPerPacket))
            let packets = try ALACFixtures.packets(file)
            for round in 0..<800 {
                var packet = packets[Int(rng.next() % UInt64(packets.count))].bytes
                switch round % 4 {
                case 0:
                    for _ in 0..<(1 + Int(rng.next() % 8)) {
                        let bit = Int(rng.next() % UInt64(packet.count * 8))
                        packet[bit / 8] ^= 1 << UInt8(bit % 8)
                    }
                case 1:
                    packet = Array(packet.prefix(Int(rng.next() % UInt64(packet.count + 1))))
                case 2:
                    let at = Int(rng.next() % UInt64(min(packet.count, 64)))
                    packet[at] = UInt8(truncatingIfNeeded: rng.next())
                default:
                    packet += (0..<Int(rng.next() % 32)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
                }
                buffer.frameLength = 0
                do {
                    let n = try packet.withUnsafeBytes { try decoder.decode(packet: $0, frames: nil, into: buffer) }
                    #expect(n == buffer.frameLength && n >= 1 && n <= 4096)
                    successes += 1
                } catch let error as AudioCodecError {
                    #expect(error.code == .badData)
                    #expect(buffer.frameLength == 4096)
                    failures += 1
                }
            }
        }
        #expect(failures > 100)
        #expect(successes > 100)
    }

    @Test func afterSeekingDecodesTheSameFrames() throws {
        let path = ALACFixtures.path("alac-2ch-44100-s16-tone.caf")
        let whole = try decodeAll(path).bytes
        let reader = try ExtAudioFile(path: path)
        try reader.setClientDataFormat(float32(reader.decodedFormat))
        try reader.seek(toFrame: 10000)
        let buffer = try #require(PCMBuffer(format: float32(reader.decodedFormat), frameCapacity: 5000))
        let n = try reader.read(into: buffer, frameCount: 5000)
        #expect(n == 5000)
        #expect(Array(buffer.region(0)[0..<buffer.byteLength]) == Array(whole[80000..<120000]))
    }
}
