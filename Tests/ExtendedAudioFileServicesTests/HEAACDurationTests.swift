import Foundation
import Testing
import ProcessSupport
import AudioCore
import AudioFileServices
import AudioCodecs
import AudioCodecFAAD
import ExtendedAudioFileServices

/// Tests/Fixtures/mpeg4-more (Scripts/fixtures/make_mpeg4_more_fixtures.sh): HE-AAC at twice the
/// core rate in MPEG-4 (SBR signalled by the sync extension or hierarchically), CAF ('aach') and
/// ADTS (implicit SBR), a 2-byte AudioSpecificConfig and 32 kHz AAC beside metadata tracks, with
/// ffmpeg's decodes.
enum MoreFixtures {
    static func path(_ name: String) -> String { Fixtures.mpeg4More.appendingPathComponent(name).path }
    static func reference(_ name: String) throws -> [Float] {
        try Fixtures.float32(Fixtures.mpeg4More.appendingPathComponent(name + ".f32"))
    }
    /// The HE-AAC files: the same 26 packets of a 22.05 kHz core, 24255 frames of tone after
    /// 2112 core frames of priming.
    static let heFiles = ["he-sync-1ch-22050.m4a", "he-explicit-1ch-22050.m4a", "he-1ch-22050.caf"]
    static let heValidFrames: Int64 = 48510
}

@Suite("HE-AAC keeps its whole duration")
struct HEAACDurationTests {
    /// ExtAudioFile reads 1.1 s at 44.1 kHz — 48510 frames, not the 24255 of the core rate —
    /// which are ffmpeg's decode after 4224 output frames of priming, within 100 dB.
    @Test(arguments: MoreFixtures.heFiles)
    func extAudioFileReadsTheWholeDuration(name: String) throws {
        let (bytes, frames, reader) = try decodeAll(MoreFixtures.path(name))
        #expect(reader.decodedFormat.sampleRate == 44100 && reader.decodedFormat.channelsPerFrame == 1)
        #expect(reader.fileLengthFrames == MoreFixtures.heValidFrames)
        #expect(reader.primingFrames == 4224)
        #expect(Int64(frames) == MoreFixtures.heValidFrames)
        let ours = floats(bytes[...])
        let ffmpeg = try MoreFixtures.reference("he-sync-1ch-22050.m4a")
        let db = snr(ffmpeg[4224...], ours[...], channel: 0, channels: 1)
        #expect(db >= 100, "\(db) dB")
    }

    /// HE-AAC with real SBR data (a header and envelopes in every packet, written from the spec
    /// by Scripts/fixtures/adts_sbr_fill.py): the upper band faad2 rebuilds is ffmpeg's, within
    /// 90 dB over the first 16384 frames, and the length is whole.
    @Test func realSBRDataMatchesFFmpeg() throws {
        let (bytes, frames, reader) = try decodeAll(MoreFixtures.path("he-sbr-sync-1ch-22050.m4a"))
        #expect(reader.decodedFormat.sampleRate == 44100 && reader.badPackets == 0)
        #expect(Int64(frames) == MoreFixtures.heValidFrames)
        let ours = floats(bytes[...])
        let ffmpeg = try MoreFixtures.reference("he-sbr-sync-1ch-22050.m4a")
        #expect(ffmpeg.count == 4224 + 16384)
        let db = snr(ffmpeg[4224...], ours[..<16384], channel: 0, channels: 1)
        #expect(db >= 90, "\(db) dB")
        // The SBR band carries the energy: the decode differs from that of the same packets
        // without SBR data by far more than rounding.
        let plain = try MoreFixtures.reference("he-sync-1ch-22050.m4a")
        #expect(snr(plain[4224..<(4224 + 16384)], ours[..<16384], channel: 0, channels: 1) < 40)
    }

    /// A client format at another rate: the length scales with the rate and every frame is read.
    @Test(arguments: MoreFixtures.heFiles)
    func clientConversionKeepsTheDuration(name: String) throws {
        AACDecoder.register()
        let reader = try ExtAudioFile(path: MoreFixtures.path(name))
        let client = AudioStreamBasicDescription.linearPCM(sampleRate: 48000, channels: 2, bitsPerChannel: 16, isFloat: false)
        try reader.setClientDataFormat(client)
        let expected = Int64((Double(MoreFixtures.heValidFrames) * 48000 / 44100).rounded())
        #expect(reader.clientLengthFrames == expected)
        let buffer = try #require(PCMBuffer(format: client, frameCapacity: 4096))
        var total: Int64 = 0
        while true {
            buffer.frameLength = 0
            let n = try reader.read(into: buffer, frameCount: 4096)
            if n == 0 { break }
            total += Int64(n)
        }
        #expect(total == expected)
    }

    /// readAll (several threads) gives the same frames as the single-threaded read.
    @Test func readAllKeepsTheDuration() throws {
        AACDecoder.register()
        let reader = try ExtAudioFile(path: MoreFixtures.path("he-sync-1ch-22050.m4a"))
        var count = 0
        let frames = try reader.readAll(maximumThreads: 2, packetsPerPiece: 4) { buffer in
            count += buffer.frameLength
            return true
        }
        #expect(frames == MoreFixtures.heValidFrames && count == Int(frames))
    }

    /// Seeking counts output frames: frame 30000 is ffmpeg's frame 4224 + 30000.
    @Test func seekCountsOutputFrames() throws {
        AACDecoder.register()
        let reader = try ExtAudioFile(path: MoreFixtures.path("he-sync-1ch-22050.m4a"))
        let client = float32(reader.decodedFormat)
        try reader.setClientDataFormat(client)
        try reader.seek(toFrame: 30000)
        let buffer = try #require(PCMBuffer(format: client, frameCapacity: 8192))
        #expect(try reader.read(into: buffer, frameCount: 8192) == 8192)
        let ours = Array(UnsafeBufferPointer(start: buffer.region().baseAddress!.assumingMemoryBound(to: Float.self), count: 8192))
        let ffmpeg = try MoreFixtures.reference("he-sync-1ch-22050.m4a")
        let db = snr(ffmpeg[(4224 + 30000)...], ours[...], channel: 0, channels: 1)
        #expect(db >= 90, "\(db) dB")
        try reader.seek(toFrame: MoreFixtures.heValidFrames - 100)
        buffer.frameLength = 0
        #expect(try reader.read(into: buffer, frameCount: 8192) == 100)
    }

    /// A CAF that describes only the core ('aac ' at 22.05 kHz, 1024 frames per packet, its
    /// packet table in core frames) of a stream whose cookie signals SBR: the decoder doubles
    /// every packet, and ExtAudioFile doubles the file's counts with it.
    @Test func coreDescriptionOfAnSBRStream() throws {
        AACDecoder.register()
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: MoreFixtures.path("he-1ch-22050.caf"))))
        func chunk(_ name: String) throws -> Int {
            let needle = Array(name.utf8)
            let at = (8..<(bytes.count - 4)).first { bytes[$0..<($0 + 4)].elementsEqual(needle) }
            return try #require(at) + 12
        }
        func put(_ value: UInt64, _ width: Int, at: Int) {
            for i in 0..<width { bytes[at + i] = UInt8(truncatingIfNeeded: value >> (8 * UInt64(width - 1 - i))) }
        }
        let desc = try chunk("desc")
        put((22050.0).bitPattern, 8, at: desc)
        bytes.replaceSubrange((desc + 8)..<(desc + 12), with: Array("aac ".utf8))
        put(1024, 4, at: desc + 20)
        let pakt = try chunk("pakt")
        put(24255, 8, at: pakt + 8)
        put(2112, 4, at: pakt + 16)
        put(257, 4, at: pakt + 20)
        let file = try AudioFile(source: MemoryByteSource(bytes))
        #expect(file.dataFormat.formatID == .mpeg4AAC && file.dataFormat.sampleRate == 22050)
        let reader = try ExtAudioFile(file: file)
        #expect(reader.decodedFormat.sampleRate == 44100)
        #expect(reader.fileLengthFrames == MoreFixtures.heValidFrames && reader.primingFrames == 4224)
        let client = float32(reader.decodedFormat)
        try reader.setClientDataFormat(client)
        let buffer = try #require(PCMBuffer(format: client, frameCapacity: 65536))
        var ours: [Float] = []
        while true {
            buffer.frameLength = 0
            let n = try reader.read(into: buffer, frameCount: 65536)
            if n == 0 { break }
            ours += UnsafeBufferPointer(start: buffer.region().baseAddress!.assumingMemoryBound(to: Float.self), count: n)
        }
        #expect(Int64(ours.count) == MoreFixtures.heValidFrames)
        let ffmpeg = try MoreFixtures.reference("he-sync-1ch-22050.m4a")
        #expect(snr(ffmpeg[4224...], ours[...], channel: 0, channels: 1) >= 100)
    }

    /// ADTS cannot signal SBR: SBR data in the stream (implicit signalling; here a header and
    /// envelopes in every packet) is decoded at the core rate, every packet's 1024 frames, so the
    /// duration is the stream's; the core band is ffmpeg's decode of the stream without SBR, 481
    /// frames (faad2's SBR filter bank) later.
    @Test func implicitSBRKeepsTheDuration() throws {
        let (bytes, frames, reader) = try decodeAll(MoreFixtures.path("he-implicit-1ch-22050.aac"))
        #expect(reader.decodedFormat.sampleRate == 22050)
        #expect(frames == 26 * 1024)
        let ours = floats(bytes[...])
        let core = try MoreFixtures.reference("he-core-1ch-22050.aac")
        let db = snr(core[2112...], ours[(2112 + 481)...], channel: 0, channels: 1)
        #expect(db >= 25, "\(db) dB")
        #expect(reader.badPackets == 0)
        // The stream without SBR reads as ffmpeg decodes it.
        let (plain, plainFrames, _) = try decodeAll(MoreFixtures.path("he-core-1ch-22050.aac"))
        #expect(plainFrames == 26 * 1024)
        #expect(snr(core[...], floats(plain[...])[...], channel: 0, channels: 1) >= 100)
    }

    /// A program that takes the format list's 'aach' item for ADTS HE-AAC (QA1639) decodes the
    /// ADTS packets with the file's cookie at 44.1 kHz, 2048 frames a packet, upper band
    /// included: ffmpeg's decode of the same packets in MPEG-4, within 90 dB.
    @Test func implicitSBRDecodedAsItsHELayer() throws {
        let file = try AudioFile(path: MoreFixtures.path("he-implicit-1ch-22050.aac"))
        let first = try file.readPackets(from: 0, count: 1).data
        #expect(AACDecoder.carriesImplicitSBR(input: file.dataFormat, magicCookie: file.magicCookie, firstPacket: first))
        var he = file.dataFormat
        he.formatID = .mpeg4AAC_HE
        he.sampleRate = 44100
        he.framesPerPacket = 2048
        let decoder = try AACDecoder(input: he, magicCookie: file.magicCookie)
        #expect(decoder.outputFormat.sampleRate == 44100 && decoder.maximumFramesPerPacket == 2048)
        let read = try file.readPackets(from: 0, count: 10)
        let buffer = try #require(PCMBuffer(format: decoder.outputFormat, frameCapacity: 10 * 2048))
        var offset = 0
        for d in try #require(read.descriptions) {
            let n = Int(d.dataByteSize)
            _ = try read.data.withUnsafeBytes { try decoder.decode(packet: UnsafeRawBufferPointer(rebasing: $0[offset..<(offset + n)]), frames: nil, into: buffer) }
            offset += n
        }
        #expect(buffer.frameLength == 10 * 2048)
        let channels = Int(decoder.outputFormat.channelsPerFrame)
        let ours = Array(UnsafeBufferPointer(start: buffer.region().baseAddress!.assumingMemoryBound(to: Float.self), count: buffer.frameLength * channels))
        let ffmpeg = try MoreFixtures.reference("he-sbr-sync-1ch-22050.m4a")
        let db = snr(ffmpeg[...], ours[...], channel: 0, channels: channels)
        #expect(db >= 90, "\(db) dB")
        // Without SBR data there is no HE layer to find.
        let core = try AudioFile(path: MoreFixtures.path("he-core-1ch-22050.aac"))
        #expect(!AACDecoder.carriesImplicitSBR(input: core.dataFormat, magicCookie: core.magicCookie, firstPacket: try core.readPackets(from: 0, count: 1).data))
    }

    /// afconvert writes the whole duration at 44.1 kHz.
    @Test(arguments: MoreFixtures.heFiles)
    func afconvertWritesTheWholeDuration(name: String) throws {
        let out = temporaryPath(name + ".wav")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let result = try run(afconvert, ["-f", "WAVE", "-d", "LEI16", MoreFixtures.path(name), out])
        #expect(result.status == 0, "\(result.err)")
        let written = try AudioFile(path: out)
        #expect(written.dataFormat.sampleRate == 44100)
        #expect(written.validFrames == MoreFixtures.heValidFrames)
    }
}

@Suite("More MPEG-4 files against ffmpeg")
struct MoreMPEG4DecodeTests {
    /// An audiobook whose 2-byte AudioSpecificConfig sets dependsOnCoreCoder: it decodes, and
    /// as ffmpeg decodes it.
    @Test func twoByteConfigDecodes() throws {
        let (bytes, frames, reader) = try decodeAll(MoreFixtures.path("asc2-dependscore-2ch-44100.m4b"))
        #expect(frames == 22050 && reader.primingFrames == 2112)
        let ours = floats(bytes[...])
        let ffmpeg = try MoreFixtures.reference("asc2-dependscore-2ch-44100.m4b")
        for c in 0..<2 {
            let db = snr(ffmpeg[(2112 * 2)...], ours[...], channel: c, channels: 2)
            #expect(db >= 100, "channel \(c): \(db) dB")
        }
    }

    /// 32 kHz mono AAC-LC beside three timed-metadata tracks. Without perceptual noise
    /// substitution faad2 and ffmpeg agree to 100 dB and more. With it (ffmpeg's default) they
    /// agree only to 15–30 dB, because PNS bands are noise each decoder draws from its own
    /// generator (ISO/IEC 14496-3, 4.6.13): their energy, which the stream codes, is the same.
    /// faad's command-line tool, which drops the first 1024 frames of an ADTS stream and writes
    /// mono as two channels, is bit for bit this decode once aligned.
    @Test func aacBesideMetadataTracks() throws {
        let plain = MoreFixtures.path("aac-1ch-32000-mett-nopns.m4a")
        let file = try AudioFile(path: plain)
        #expect(file.trackCount == 1 && file.dataFormat.sampleRate == 32000 && file.dataFormat.channelsPerFrame == 1)
        let (nopns, _, r1) = try decodeAll(plain)
        let db = snr(try MoreFixtures.reference("aac-1ch-32000-mett-nopns.m4a")[Int(r1.primingFrames)...], floats(nopns[...])[...], channel: 0, channels: 1)
        #expect(db >= 100, "without PNS: \(db) dB")

        let (pns, frames, r2) = try decodeAll(MoreFixtures.path("aac-1ch-32000-mett.m4a"))
        #expect(frames == 51200 && r2.primingFrames == 1024)
        let ours = floats(pns[...])
        let ffmpeg = Array(try MoreFixtures.reference("aac-1ch-32000-mett.m4a")[1024...])
        let pnsDB = snr(ffmpeg[...], ours[...], channel: 0, channels: 1)
        #expect(pnsDB >= 15 && pnsDB < 40, "with PNS: \(pnsDB) dB")
        // Same energy overall and in each tenth of a second (within 0.5 dB).
        for start in stride(from: 0, to: ours.count - 3200, by: 3200) {
            let a = ours[start..<(start + 3200)].reduce(0.0) { $0 + Double($1) * Double($1) }
            let b = ffmpeg[start..<(start + 3200)].reduce(0.0) { $0 + Double($1) * Double($1) }
            #expect(abs(10 * log10(a / b)) < 0.5, "energy at frame \(start)")
        }
    }

    /// A file cut inside mdat (moov first) decodes the whole packets that are there.
    @Test func truncatedFileDecodes() throws {
        let path = Fixtures.malformed.appendingPathComponent("mpeg4-more-trunc-mid-sample.m4a").path
        let (_, frames, reader) = try decodeAll(path)
        #expect(reader.fileLengthFrames == 15 * 1024 - reader.primingFrames)
        #expect(Int64(frames) == reader.fileLengthFrames)
    }
}
