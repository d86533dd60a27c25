import Foundation
import Testing
import ProcessSupport
import AudioCore
import AudioFileServices

/// Tests/Fixtures/mp3/, made by Scripts/fixtures/make_mp3_fixtures.sh: ffmpeg's MP3 and MP2
/// files and variants of them, each with ffprobe's report and ffmpeg's packets.
enum MP3Fixtures {
    static let dir = Fixtures.root.appendingPathComponent("mp3")
    static let all: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
        return names.filter { !$0.hasSuffix(".json") && !$0.hasSuffix(".framecrc") }.sorted()
    }()
    static func path(_ name: String) -> String { dir.appendingPathComponent(name).path }
    static func bytes(_ name: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: dir.appendingPathComponent(name))) }
    static func ffprobe(_ name: String) -> FFprobe? { Fixtures.json(dir.appendingPathComponent(name + ".ffprobe.json")).map(FFprobe.init) }
    static func framecrc(_ name: String) throws -> [(size: Int, adler: UInt32)] { try Fixtures.framecrc(name, in: dir) }
    /// ffmpeg glues junk between frames onto the packet before it; the junk file's packets are
    /// the plain CBR file's.
    static func reference(_ name: String) -> String { name.hasPrefix("junk-") ? "cbr-128k-2ch-44100.mp3" : name }
    /// The frames the source signal had (the encoders' input length), per fixture.
    static let sourceFrames: [String: Int64] = [
        "cbr-128k-2ch-44100.mp3": 22050, "vbr-q4-2ch-44100.mp3": 22050, "ape-2ch-44100.mp3": 22050,
        "junk-2ch-44100.mp3": 22050, "cbr-noext.bin": 22050, "id3v23-2ch-44100.mp3": 13230, "id3v23-noext.bin": 13230,
        "id3v24-id3v1-1ch-44100.mp3": 13230, "mpeg2-32k-1ch-22050.mp3": 11025, "mpeg25-16k-1ch-8000.mp3": 4000,
        "itunsmpb-2ch-48000.mp3": 19200,
    ]
}

/// The LAME tag's delay and padding, found with this test's own reading of the bytes: skip an
/// ID3v2 tag, take the first frame header, step over the side information, expect `Xing` or
/// `Info`, step over the fields its flags announce, expect an encoder string, read 3 bytes at 21.
private func lameTag(_ b: [UInt8]) -> (delay: Int, padding: Int)? {
    guard let x = lameDelayOffset(b) else { return nil }
    return (Int(b[x]) << 4 | Int(b[x + 1]) >> 4, Int(b[x + 1] & 0xF) << 8 | Int(b[x + 2]))
}

/// Where the LAME tag's 3 bytes of delay and padding are.
private func lameDelayOffset(_ b: [UInt8]) -> Int? {
    var p = 0
    if b.count > 10, b[0] == 0x49, b[1] == 0x44, b[2] == 0x33 {
        p = 10 + (Int(b[6]) << 21 | Int(b[7]) << 14 | Int(b[8]) << 7 | Int(b[9])) + (b[5] & 0x10 != 0 ? 10 : 0)
    }
    guard p + 4 < b.count, b[p] == 0xFF, b[p + 1] & 0xE0 == 0xE0, b[p + 1] >> 1 & 3 == 1 else { return nil }
    let mpeg1 = b[p + 1] >> 3 & 3 == 3, mono = b[p + 3] >> 6 == 3
    var x = p + 4 + (mpeg1 ? (mono ? 17 : 32) : (mono ? 9 : 17))
    let tag = String(decoding: b[x..<(x + 4)], as: UTF8.self)
    guard tag == "Xing" || tag == "Info" else { return nil }
    let flags = Int(b[x + 7])
    x += 8 + (flags & 1 != 0 ? 4 : 0) + (flags & 2 != 0 ? 4 : 0) + (flags & 4 != 0 ? 100 : 0) + (flags & 8 != 0 ? 4 : 0)
    let encoder = String(decoding: b[x..<(x + 4)], as: UTF8.self)
    guard ["LAME", "Lavf", "Lavc"].contains(encoder) else { return nil }
    return x + 21
}

@Suite("MPEG audio files")
struct MP3Tests {
    @Test func fixturesArePresent() {
        #expect(MP3Fixtures.all.count == 13)
    }

    /// Format, rate, channels, packet count and every packet's bytes against ffprobe and
    /// ffmpeg's demux.
    @Test(arguments: MP3Fixtures.all)
    func matchesFFmpeg(name: String) throws {
        let probe = try #require(MP3Fixtures.ffprobe(name))
        let file = try AudioFile(path: MP3Fixtures.path(name))
        let f = file.dataFormat
        let layer2 = probe.codec == "mp2"
        #expect(probe.codec == "mp3" || layer2)
        #expect(f.formatID == (layer2 ? .mpegLayer2 : .mpegLayer3))
        #expect(file.fileType == (layer2 ? .mp2 : .mp3))
        #expect(f.sampleRate == probe.sampleRate)
        #expect(Int(f.channelsPerFrame) == probe.channels)
        #expect(f.bytesPerPacket == 0 && f.bytesPerFrame == 0 && f.bitsPerChannel == 0)
        #expect(f.framesPerPacket == (layer2 || f.sampleRate >= 32000 ? 1152 : 576))
        // ffprobe's count leaves out the Info/Xing frame, as the reader does.
        let reference = MP3Fixtures.reference(name)
        #expect(file.packetCount == MP3Fixtures.ffprobe(reference)?.readPackets)
        let crc = try MP3Fixtures.framecrc(reference)
        let (data, sizes) = try file.allPackets()
        #expect(sizes == crc.map(\.size))
        var offset = 0
        for (i, (size, reference)) in zip(sizes, crc).enumerated() {
            #expect(adler32(data[offset..<(offset + size)], start: 0) == reference.adler, "packet \(i)")
            offset += size
        }
        #expect(file.maximumPacketSize == sizes.max())
    }

    /// The packet table info against the LAME tag read here independently, ffprobe's start time
    /// and duration (ffmpeg skips delay + 529 frames too), and the encoder input's length.
    @Test(arguments: MP3Fixtures.all)
    func gaplessMatchesLAMETag(name: String) throws {
        let file = try AudioFile(path: MP3Fixtures.path(name))
        let probe = try #require(MP3Fixtures.ffprobe(MP3Fixtures.reference(name)))
        let rate = Int64(file.dataFormat.sampleRate)
        let total = file.packetCount * Int64(file.dataFormat.framesPerPacket)
        // ffprobe's time base is 1/14112000 for MP3.
        #expect(probe.durationTS.map { $0 * rate / 14_112_000 } == total)
        let startPTS = (probe.stream["start_pts"] as? NSNumber)?.int64Value ?? 0
        if name.hasPrefix("itunsmpb") {
            // iTunSMPB: ` 00000000 PRIMING REMAINDER VALID …` in hex, as ffprobe lists the tag.
            let fields = try #require(probe.tags["iTunSMPB"]).split(separator: " ").compactMap { Int64($0, radix: 16) }
            let info = try #require(file.packetTableInfo)
            #expect(Int64(info.primingFrames) == fields[1] && Int64(info.remainderFrames) == fields[2] && info.numberValidFrames == fields[3])
            #expect(file.metadata.first { $0.key == "comments" } == nil, "the iTunSMPB comment is not shown")
        } else if let lame = lameTag(try MP3Fixtures.bytes(name)) {
            let info = try #require(file.packetTableInfo)
            #expect(Int64(info.primingFrames) == Int64(lame.delay + 529))
            #expect(Int64(info.remainderFrames) == Int64(lame.padding - 529))
            #expect(info.numberValidFrames == total - Int64(lame.delay + lame.padding))
            #expect(Int64(info.primingFrames) + info.numberValidFrames + Int64(info.remainderFrames) == total)
            #expect(startPTS * rate / 14_112_000 == Int64(info.primingFrames), "ffmpeg's start skip")
        } else {
            #expect(file.packetTableInfo == nil, "no LAME tag, no iTunSMPB")
            #expect(startPTS == 0)
        }
        if let frames = MP3Fixtures.sourceFrames[name] {
            #expect(file.validFrames == frames)
        }
    }

    /// ID3v2.3 and 2.4 text frames, ID3v1 and APEv2 items under Apple's keys, as ffprobe reads them.
    @Test(arguments: ["id3v23-2ch-44100.mp3", "id3v24-id3v1-1ch-44100.mp3", "id3v23-noext.bin"])
    func metadataFromID3(name: String) throws {
        let probe = try #require(MP3Fixtures.ffprobe(name))
        let info = try AudioFile(path: MP3Fixtures.path(name)).infoDictionary
        #expect(info["title"] == probe.tags["title"] && info["title"] == "Fixture title")
        #expect(info["artist"] == probe.tags["artist"])
        #expect(info["album"] == probe.tags["album"])
        // ffmpeg writes its comment as a user text frame (TXXX "comment"), which is not a COMM frame.
        #expect(probe.tags["comment"] == "An odd comment")
        #expect(info["track number"] == probe.tags["track"])
    }

    @Test func metadataFromID3v1AndAPE() throws {
        let v1 = try AudioFile(path: MP3Fixtures.path("id3v24-id3v1-1ch-44100.mp3")).metadata
        // The ID3v1 block repeats the fields after the ID3v2 ones; the info dictionary keeps the first.
        #expect(v1.filter { $0.key == "title" }.map(\.value) == ["Fixture title", "Fixture title"])
        let ape = try AudioFile(path: MP3Fixtures.path("ape-2ch-44100.mp3"))
        #expect(ape.infoDictionary["title"] == "APE title" && ape.infoDictionary["artist"] == "APE artist")
        #expect(ape.dataByteCount == (try AudioFile(path: MP3Fixtures.path("cbr-128k-2ch-44100.mp3"))).dataByteCount)
    }

    /// Files open by content: without an extension, from memory, and an ADTS file is not taken
    /// for MPEG audio (its layer bits are 00).
    @Test(arguments: MP3Fixtures.all)
    func detectedWithoutExtension(name: String) throws {
        let file = try AudioFile(source: MemoryByteSource(try MP3Fixtures.bytes(name)))
        #expect(file.fileType == (name.hasSuffix(".mp2") ? .mp2 : .mp3))
        #expect(file.packetCount == (try AudioFile(path: MP3Fixtures.path(name))).packetCount)
    }

    @Test func adtsIsNotMPEGAudio() throws {
        let bytes = [UInt8](try Data(contentsOf: Fixtures.valid.appendingPathComponent("adts-aac-1ch-44100-crc.aac")))
        #expect(bytes.withUnsafeBytes { MP3Format.canRead(prefix: UnsafeRawBufferPointer(rebasing: $0[0..<64])) } == false)
        #expect(try AudioFile(source: MemoryByteSource(bytes)).fileType == .adts)
        let id3 = [UInt8](try Data(contentsOf: Fixtures.valid.appendingPathComponent("adts-aac-1ch-44100-id3v23.aac")))
        // ADTS after an ID3v2 tag is not taken for MPEG audio; without a hint or extension it stays unplaced.
        #expect(throws: AudioFileError.self) { try AudioFile(source: MemoryByteSource(id3)) }
    }

    /// The Info frame is reported, not counted; a lying frame count is not believed.
    @Test func encoderTags() throws {
        let cbr = try #require(try AudioFile(path: MP3Fixtures.path("cbr-128k-2ch-44100.mp3")).container as? MP3Format)
        #expect(cbr.encoderTag == "Info" && cbr.declaredFrameCount == 21 && cbr.gaplessSource == "LAME")
        #expect(cbr.dataOffset == 417, "after the 417-byte Info frame")
        let vbr = try #require(try AudioFile(path: MP3Fixtures.path("vbr-q4-2ch-44100.mp3")).container as? MP3Format)
        #expect(vbr.encoderTag == "Xing" && vbr.declaredFrameCount == 21)
        let junk = try #require(try AudioFile(path: MP3Fixtures.path("junk-2ch-44100.mp3")).container as? MP3Format)
        #expect(junk.junkByteCount == 137)
        let smpb = try #require(try AudioFile(path: MP3Fixtures.path("itunsmpb-2ch-48000.mp3")).container as? MP3Format)
        #expect(smpb.encoderTag == nil && smpb.gaplessSource == "iTunSMPB")
        let lying = try #require(try AudioFile(path: Fixtures.malformed.appendingPathComponent("mp3__xing-frames-lying.mp3").path).container as? MP3Format)
        #expect(lying.declaredFrameCount == 99999 && lying.packets.count == 21)
    }

    /// The LAME arithmetic where the padding (100) is shorter than the decoder delay: as ffmpeg
    /// trims, priming is still the delay plus 529 and there is no remainder.
    @Test func shortPaddingLeavesNoRemainder() throws {
        var bytes = try MP3Fixtures.bytes("cbr-128k-2ch-44100.mp3")
        let x = try #require(lameDelayOffset(bytes))
        bytes[x + 1] = bytes[x + 1] & 0xF0
        bytes[x + 2] = 100
        let file = try AudioFile(source: MemoryByteSource(bytes))
        let total = file.packetCount * 1152
        #expect(file.packetTableInfo == AudioFilePacketTableInfo(numberValidFrames: total - 576 - 529, primingFrames: 1105, remainderFrames: 0))
    }

    @Test func freeFormatIsRefusedByName() throws {
        do {
            _ = try AudioFile(path: Fixtures.malformed.appendingPathComponent("mp3__free-format.mp3").path)
            Issue.record("opened")
        } catch {
            #expect(error.code == .unsupportedDataFormat && error.reason.contains("free-format"))
        }
    }

    /// Spec-built streams for what ffmpeg does not write: Layer I (MPEG-1, 44.1 kHz, 32 kbit/s:
    /// 32-byte frames of 384 frames each) after an ID3v2.4 tag with a footer, an ID3v2.2 tag, and
    /// an MPEG-2 Layer II stream at 24 kHz.
    @Test func specBuiltLayerIAndTagVersions() throws {
        func frames(_ header: [UInt8], length: Int, count: Int) -> [UInt8] {
            (0..<count).flatMap { i in header + [UInt8](repeating: UInt8(i), count: length - 4) }
        }
        let layer1 = frames([0xFF, 0xFF, 0x10, 0xC0], length: 32, count: 6)
        // ID3v2.4 with the footer flag: 10-byte header, a TIT2 frame, 10-byte footer "3DI".
        let tit2: [UInt8] = Array("TIT2".utf8) + [0, 0, 0, 6, 0, 0, 3] + Array("Layer".utf8)
        let n = UInt8(tit2.count)
        let v24 = Array("ID3".utf8) + [4, 0, 0x10, 0, 0, 0, n] + tit2 + Array("3DI".utf8) + [4, 0, 0x10, 0, 0, 0, n]
        let file = try AudioFile(source: MemoryByteSource(v24 + layer1))
        #expect(file.fileType == .mp1 && file.dataFormat.formatID == .mpegLayer1)
        #expect(file.dataFormat.framesPerPacket == 384 && file.dataFormat.channelsPerFrame == 1)
        #expect(file.packetCount == 6 && file.dataOffset == Int64(v24.count))
        #expect(file.infoDictionary["title"] == "Layer")
        #expect(file.packetTableInfo == nil)

        // ID3v2.2: three-letter frame IDs and 3-byte sizes.
        let tt2: [UInt8] = Array("TT2".utf8) + [0, 0, 4, 0] + Array("Old".utf8)
        let v22 = Array("ID3".utf8) + [2, 0, 0, 0, 0, 0, UInt8(tt2.count)] + tt2
        // MPEG-2 Layer II, 24 kHz, 64 kbit/s: 144 * 64000 / 24000 = 384 bytes, 1152 frames each.
        let layer2 = frames([0xFF, 0xF5, 0x84, 0x00], length: 384, count: 4)
        let mp2 = try AudioFile(source: MemoryByteSource(v22 + layer2 + [UInt8](repeating: 0x20, count: 3)))
        #expect(mp2.fileType == .mp2 && mp2.dataFormat.sampleRate == 24000 && mp2.dataFormat.framesPerPacket == 1152)
        #expect(mp2.packetCount == 4 && mp2.dataFormat.channelsPerFrame == 2)
        #expect(mp2.infoDictionary["title"] == "Old")
    }

    /// Junk with no second frame within reach is not MPEG audio; a change of sampling rate at a
    /// frame boundary is junk to skip, not a new stream.
    @Test func streamChangesAreSkippedAsJunk() throws {
        let a = [UInt8]([0xFF, 0xFF, 0x10, 0xC0]) + [UInt8](repeating: 1, count: 28)   // 44.1 kHz Layer I
        let b = [UInt8]([0xFF, 0xFF, 0x14, 0xC0]) + [UInt8](repeating: 2, count: 28)   // 48 kHz Layer I
        let file = try AudioFile(source: MemoryByteSource(a + a + b + a + a), fileExtension: "mp3")
        #expect(file.dataFormat.sampleRate == 44100)
        #expect(file.packetCount == 4)
    }
}
