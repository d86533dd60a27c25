import Foundation
import Testing
import ProcessSupport
import AudioCore
import AudioFileServices

/// Tests/Fixtures/mp4/, made by Scripts/fixtures/make_mp4_fixtures.sh: ffmpeg's M4As and the
/// spec-built ones of build_m4a.py, each with ffprobe's report and ffmpeg's packets.
enum MP4Fixtures {
    static let dir = Fixtures.root.appendingPathComponent("mp4")
    static let all: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
        return names.filter { !$0.hasSuffix(".json") && !$0.hasSuffix(".framecrc") && !$0.hasSuffix(".f32") }.sorted()
    }()
    /// Every fixture (the fragmented ones too).
    static let readable = all
    static let fragmented = all.filter { $0.contains("-frag") }
    static let built = all.filter { $0.hasPrefix("built-") }

    static func path(_ name: String) -> String { dir.appendingPathComponent(name).path }
    static func ffprobe(_ name: String) -> [String: Any]? { Fixtures.json(dir.appendingPathComponent(name + ".ffprobe.json")) }
    static func facts(_ name: String) -> [String: Any]? { Fixtures.json(dir.appendingPathComponent(name + ".facts.json")) }
    static func framecrc(_ name: String) throws -> [(size: Int, adler: UInt32)] { try Fixtures.framecrc(name, in: dir) }
}

private func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

@Suite("MPEG-4 audio files")
struct MP4Tests {
    @Test func fixturesArePresent() {
        #expect(MP4Fixtures.readable.count >= 18)
        #expect(MP4Fixtures.fragmented.count == 3)
        #expect(MP4Fixtures.built.count == 6)
    }

    /// Format, channels, rate, packet count, every packet's bytes and the trimmed length against
    /// ffprobe and ffmpeg's demux.
    @Test(arguments: MP4Fixtures.readable)
    func matchesFFmpeg(name: String) throws {
        let probe = try #require(MP4Fixtures.ffprobe(name))
        let stream = try #require((probe["streams"] as? [[String: Any]])?.first)
        let format = try #require(probe["format"] as? [String: Any])
        let file = try AudioFile(path: MP4Fixtures.path(name))
        let f = file.dataFormat
        let codec = stream["codec_name"] as? String
        let signal = MP4Fixtures.facts(name)?["signal"] as? String
        let aacID: AudioFormatID = signal == "sbr" ? .mpeg4AAC_HE : signal == "ps" ? .mpeg4AAC_HE_V2 : .mpeg4AAC
        #expect(f.formatID == (codec == "alac" ? .appleLossless : aacID), "ffprobe says \(codec ?? "?")")
        #expect(f.sampleRate == Double(stream["sample_rate"] as? String ?? ""))
        // ffmpeg reports a mono core with SBR as stereo (PS might follow); Apple's 'aach' says 1.
        #expect(Int(f.channelsPerFrame) == (signal == "sbr" ? 1 : stream["channels"] as? Int))
        #expect(file.packetCount == Int64(stream["nb_read_packets"] as? String ?? ""))
        // ffmpeg's chapters file has a text track beside its sound track: only audio tracks count.
        #expect(file.trackCount == 1, "audio tracks")
        if signal != nil {
            #expect(f.framesPerPacket == 2048 && f.formatFlags.rawValue == (signal == "sbr" ? 5 : 29))
        } else if f.formatID == .mpeg4AAC {
            #expect(f.framesPerPacket == 1024 && f.formatFlags.rawValue == 2)
            #expect(file.channelLayout?.numberOfChannels == Int(f.channelsPerFrame))
        } else {
            let bits = Int(stream["bits_per_raw_sample"] as? String ?? "") ?? 16
            #expect(f.formatFlags.rawValue == (bits == 24 ? 3 : 1))
            #expect(f.framesPerPacket == 4096)
        }
        // The file type follows the major brand.
        let brand = (format["tags"] as? [String: String])?["major_brand"] ?? ""
        let type: AudioFileType = switch brand.trimmingCharacters(in: .whitespaces) {
        case "M4A": .m4a
        case "M4B": .m4b
        case let b where b.hasPrefix("3gp"): .threeGPP
        default: .mpeg4
        }
        #expect(file.fileType == type, "brand \(brand)")

        let reference = try MP4Fixtures.framecrc(name)
        let (data, sizes) = try file.allPackets()
        #expect(sizes == reference.map(\.size))
        var offset = 0
        for (i, (size, adler)) in zip(sizes, reference).enumerated() {
            #expect(adler32(data[offset..<(offset + size)], start: 0) == adler.adler, "packet \(i)")
            offset += size
        }
        #expect(Int64(data.count) == file.dataByteCount)
        #expect(file.maximumPacketSize == sizes.max())

        // ffprobe's duration_ts is the edit list's (or iTunSMPB's, or the sample durations') length.
        let durationTS = (stream["duration_ts"] as? NSNumber)?.int64Value
        if !name.hasPrefix("built-") && !(name.hasPrefix("aac") && name.contains("-frag")) {
            #expect(file.validFrames == durationTS)
            if f.formatID == .mpeg4AAC { #expect(file.packetTableInfo?.primingFrames == 1024, "ffmpeg's encoder delay in the edit list") }
        }
    }

    /// The spec-built files against the numbers build_m4a.py wrote.
    @Test(arguments: MP4Fixtures.built)
    func specBuiltFacts(name: String) throws {
        let facts = try #require(MP4Fixtures.facts(name))
        let file = try AudioFile(path: MP4Fixtures.path(name))
        let mp4 = try #require(file.container as? MP4Format)
        #expect(file.packetCount == Int64(facts["packets"] as! Int))
        #expect(file.dataByteCount == Int64(facts["dataByteCount"] as! Int))
        #expect(file.maximumPacketSize == facts["maxPacketSize"] as! Int)
        #expect(file.dataOffset == Int64(facts["firstPacketOffset"] as! Int))
        #expect(file.magicCookie.map(hex) == facts["magicCookie"] as? String, "the cookie is the ES_Descriptor")
        #expect(mp4.isOptimized == ((facts["moovOffset"] as! Int) < (facts["mdatOffset"] as! Int)))
        let table = try #require(file.packetTableInfo)
        // With SBR or PS signalled, frames are the output's: twice the core's the builder counts.
        let scale = facts["signal"] is String ? 2 : 1
        let framesPerPacket = Int64(1024 * scale)
        switch facts["gapless"] as! String {
        case "itunsmpb":
            #expect(mp4.gaplessSource == "iTunSMPB")
            #expect(table.primingFrames == Int32(facts["primingFrames"] as! Int))
            #expect(table.remainderFrames == Int32(facts["remainderFrames"] as! Int))
            #expect(table.numberValidFrames == Int64(facts["validFrames"] as! Int))
        case "elst":
            #expect(mp4.gaplessSource == "editList")
            #expect(table.primingFrames == Int32(scale * (facts["primingFrames"] as! Int)))
            #expect(table.remainderFrames == Int32(scale * (facts["remainderFrames"] as! Int)))
            #expect(table.numberValidFrames == Int64(scale * (facts["validFrames"] as! Int)))
        default:
            // No iTunSMPB, no edit list, an iTunes encoder tag: Apple's 2112 priming frames.
            #expect(mp4.gaplessSource == "appleEncoderConvention")
            #expect(table.primingFrames == 2112 && table.remainderFrames == 0)
            #expect(table.numberValidFrames == file.packetCount * 1024 - 2112)
        }
        #expect(table.totalFrames == file.packetCount * framesPerPacket)
    }

    /// AAC in ffmpeg's MP4 without an encoder tag and with its edit list removed reports no
    /// packet table: the encoder delay is unknown.
    @Test func aacWithoutGaplessInformationHasNoPacketTable() throws {
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: MP4Fixtures.path("aac-2ch-44100-faststart.m4a"))))
        // Rename 'edts' to 'free': the edit list is gone, nothing else moves.
        let edts = try #require(find(Array("edts".utf8), in: bytes))
        bytes.replaceSubrange(edts..<(edts + 4), with: Array("free".utf8))
        let file = try AudioFile(source: MemoryByteSource(bytes))
        #expect(file.packetTableInfo == nil)
        #expect((file.container as? MP4Format)?.gaplessSource == nil)
        #expect(file.validFrames == file.packetCount * 1024)
    }

    /// ffmpeg's fragmented files (`empty_moov`: every sample in a fragment; base data offsets
    /// explicit, or `default-base-is-moof`): all packets, from the fragments. Without an edit
    /// list, ffmpeg's fragmented AAC has no packet table.
    @Test(arguments: MP4Fixtures.fragmented)
    func fragmentedFiles(name: String) throws {
        let file = try AudioFile(path: MP4Fixtures.path(name))
        let mp4 = try #require(file.container as? MP4Format)
        #expect(mp4.isFragmented)
        #expect(mp4.fragmentCount >= 1)
        if name.contains("basemoof") { #expect(mp4.fragmentCount > 1) }
        if file.dataFormat.formatID == .mpeg4AAC { #expect(file.packetTableInfo == nil) }
    }

    @Test func moovAfterMdatWithCo64AndLargesize() throws {
        let name = "built-moovlast-co64-2ch-44100.m4a"
        let file = try AudioFile(path: MP4Fixtures.path(name))
        let mp4 = try #require(file.container as? MP4Format)
        let facts = try #require(MP4Fixtures.facts(name))
        #expect(!mp4.isOptimized)
        #expect(facts["chunkOffsets"] as? String == "co64")
        #expect(file.dataOffset == Int64(facts["mdatOffset"] as! Int) + 16, "after the 16-byte mdat header")
    }

    @Test func itunesMetadata() throws {
        let file = try AudioFile(path: MP4Fixtures.path("aac-2ch-44100-tags.m4a"))
        let probe = try #require(MP4Fixtures.ffprobe("aac-2ch-44100-tags.m4a"))
        let tags = try #require((probe["format"] as? [String: Any])?["tags"] as? [String: String])
        let info = file.infoDictionary
        #expect(info["title"] == tags["title"] && info["title"] == "Fixture title")
        #expect(info["artist"] == tags["artist"])
        #expect(info["album"] == tags["album"])
        #expect(info["year"] == tags["date"])
        #expect(info["track number"] == tags["track"] && info["track number"] == "3/12")
        #expect(info["genre"] == tags["genre"])
        #expect(info["comments"] == tags["comment"])
    }

    @Test func chaptersAndEncoderTag() throws {
        let name = "built-chapters-1ch-48000.m4b"
        let file = try AudioFile(path: MP4Fixtures.path(name))
        let facts = try #require(MP4Fixtures.facts(name))
        let expected = (facts["chapters"] as! [[String: Any]]).map { AudioFileChapter(startTime: $0["start"] as! Double, title: $0["title"] as! String) }
        #expect(file.chapters == expected)
        let probe = try #require(MP4Fixtures.ffprobe(name))
        let ffChapters = try #require(probe["chapters"] as? [[String: Any]])
        #expect(ffChapters.compactMap { ($0["tags"] as? [String: String])?["title"] } == expected.map(\.title))
        #expect(file.fileType == .m4b, "an audio book: brand M4B")
        #expect(file.infoDictionary["encoding application"] == "iTunes 12.9.0.164")
        #expect(file.infoDictionary["track number"] == "1/2")
        #expect(file.infoDictionary["artist"] == "Fixture artist")
    }

    /// ffmpeg's chapters, as a QuickTime chapter track (tref/chap to a text track) and as Nero's
    /// chpl: either alone gives ffprobe's chapters.
    @Test func quickTimeChapterTrackAndChpl() throws {
        let name = "aac-2ch-44100-chapters.m4a"
        let probe = try #require(MP4Fixtures.ffprobe(name))
        let expected = try #require(probe["chapters"] as? [[String: Any]]).map {
            AudioFileChapter(startTime: Double($0["start_time"] as! String)!, title: ($0["tags"] as! [String: String])["title"]!)
        }
        #expect(expected.count == 3)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: MP4Fixtures.path(name))))
        #expect(try AudioFile(source: MemoryByteSource(bytes)).chapters == expected)
        #expect(try AudioFile(source: MemoryByteSource(bytes)).infoDictionary["title"] == "Chapter fixture")
        // Without chpl: the chapter track alone.
        var noChpl = bytes
        let chpl = try #require(find(Array("chpl".utf8), in: bytes))
        noChpl.replaceSubrange(chpl..<(chpl + 4), with: Array("free".utf8))
        #expect(try AudioFile(source: MemoryByteSource(noChpl)).chapters == expected)
        // Without the track reference: chpl alone.
        var noTref = bytes
        let tref = try #require(find(Array("tref".utf8), in: bytes))
        noTref.replaceSubrange(tref..<(tref + 4), with: Array("free".utf8))
        #expect(try AudioFile(source: MemoryByteSource(noTref)).chapters == expected)
        // Neither.
        noChpl.replaceSubrange(tref..<(tref + 4), with: Array("free".utf8))
        #expect(try AudioFile(source: MemoryByteSource(noChpl)).chapters.isEmpty)
    }

    /// ALAC: the cookie is the whole 'alac' box (size, type, version/flags, ALACSpecificConfig).
    @Test(arguments: ["alac-16-1ch-44100.m4a", "alac-24-2ch-48000.m4a", "alac-16-6ch-44100.m4a"])
    func alacCookie(name: String) throws {
        let file = try AudioFile(path: MP4Fixtures.path(name))
        let cookie = try #require(file.magicCookie)
        #expect(cookie.count >= 36)
        #expect(Array(cookie[4..<8]) == Array("alac".utf8))
        let frameLength = cookie[12..<16].reduce(0) { $0 << 8 | UInt32($1) }
        #expect(frameLength == file.dataFormat.framesPerPacket)
        #expect(cookie[17] == (name.contains("-24-") ? 24 : 16))
        #expect(UInt32(cookie[21]) == file.dataFormat.channelsPerFrame)
    }

    /// Detection: by magic bytes whatever the extension, by extension or hint where the prefix
    /// lacks `ftyp`.
    @Test func detection() throws {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: MP4Fixtures.path("aac-1ch-8000.m4a"))))
        #expect(try AudioFile(source: MemoryByteSource(bytes), fileExtension: "wav").fileType == .m4a)
        #expect(AudioFileFormats.forExtension("m4b") is MP4Format.Type)
        #expect(AudioFileFormats.forType(.mpeg4) is MP4Format.Type)
        #expect(AudioFileFormats.forType(.m4b) is MP4Format.Type)
    }

    private func find(_ needle: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= needle.count else { return nil }
        for i in 0...(bytes.count - needle.count) where bytes[i..<(i + needle.count)].elementsEqual(needle) { return i }
        return nil
    }
}
