import Foundation
import Testing
import AudioCore
@testable import AudioFileServices
import ProcessSupport

/// Tests/Fixtures/metadata-only (Scripts/fixtures/make_metadata_only_fixtures.sh): files whose
/// container the reader reads but whose codec it does not decode, or that hold no audio. They
/// open for their format, duration and tags, checked against ffprobe's reading of them (and,
/// for the spec-built ones, what the builder wrote).
@Suite("Metadata-only files")
struct MetadataOnlyTests {
    static func path(_ name: String) -> String { Fixtures.metadataOnly.appendingPathComponent(name).path }

    static func probe(_ name: String) throws -> (format: [String: Any], stream: [String: Any]) {
        let url = Fixtures.metadataOnly.appendingPathComponent(name + ".ffprobe.json")
        let json = try #require(Fixtures.json(url), "\(MissingFixture("metadata-only/\(name).ffprobe.json"))")
        let stream = try #require((json["streams"] as? [[String: Any]])?.first)
        return (json["format"] as? [String: Any] ?? [:], stream)
    }

    static func probeTags(_ format: [String: Any]) -> [String: String] {
        let tags = format["tags"] as? [String: String] ?? [:]
        return Dictionary(tags.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { a, _ in a })
    }

    /// Codecs the package does not decode open with the sample entry's or format tag's code as
    /// the format ID, ffprobe's rate, channels, duration and tags.
    @Test(arguments: [
        ("dts.mp4", "mp4a"), ("dts.mov", "dtsc"), ("gsm.mov", "agsm"), ("samr.3gp", "samr"),
        ("adpcm-ms.wav", "ms\u{0}\u{2}"), ("gsm-ffmpeg.wav", "ms\u{0}1"), ("gsm-sox.wav", "ms\u{0}1"),
    ])
    func undecodedCodecOpens(name: String, code: String) throws {
        let (format, stream) = try Self.probe(name)
        let file = try AudioFile(path: Self.path(name))
        let f = file.dataFormat
        #expect(f.formatID == AudioFormatID(FourCharCode(code)), "\(name): \(f.formatID.messageName)")
        #expect(f.sampleRate == Double(stream["sample_rate"] as? String ?? ""))
        #expect(Int(f.channelsPerFrame) == stream["channels"] as? Int)
        let tags = Self.probeTags(format)
        #expect(file.info.title == tags["title"])
        #expect(file.info.artist == tags["artist"])
        if let duration = Double(format["duration"] as? String ?? "") {
            // ffprobe's duration is the container's; ours the packets' frames (a frame's worth apart).
            #expect(abs(file.estimatedDuration - duration) <= Double(max(f.framesPerPacket, 1)) / f.sampleRate + 0.001,
                    "\(name): \(file.estimatedDuration) s, ffprobe \(duration) s")
        }
        // The packets the container lists still read.
        let packets = try file.readPackets(from: 0, count: 4)
        #expect(packets.packetCount == min(4, Int(file.packetCount)))
    }

    /// An AudioSpecificConfig naming an object type that is not AAC (36, MPEG-4 ALS, as the
    /// builder wrote it; ffprobe does not read the file) is `'mp4a'`, with the file's tags.
    @Test func nonAACObjectTypeIsMP4A() throws {
        let file = try AudioFile(path: Self.path("als.m4a"))
        #expect(file.dataFormat.formatID == AudioFormatID("mp4a"))
        #expect(file.dataFormat.sampleRate == 44100 && file.dataFormat.channelsPerFrame == 2)
        #expect(file.info.title == "Undecoded title")  // the ffmpeg source's -metadata title
        #expect(file.packetCount > 0 && file.estimatedDuration > 0.09)
    }

    /// A WAVE format tag and a sample entry are named as people know them.
    @Test func formatsHaveReadableNames() throws {
        #expect(try AudioFile(path: Self.path("gsm-sox.wav")).dataFormat.formatID.messageName == "GSM 6.10 (WAVE format 0x0031)")
        #expect(try AudioFile(path: Self.path("adpcm-ms.wav")).dataFormat.formatID.displayName == "Microsoft ADPCM")
        #expect(try AudioFile(path: Self.path("dts.mov")).dataFormat.formatID.messageName == "DTS ('dtsc')")
    }

    /// Files with no audio (an AIFF whose COMM counts 0 frames and has no SSND, WAVE files with
    /// no or an empty data chunk) open with 0 packets and their tags.
    @Test(arguments: ["aiff-no-ssnd.aiff", "wav-no-data.wav", "wav-empty-data.wav"])
    func fileWithoutAudioOpens(name: String) throws {
        let url = Fixtures.metadataOnly.appendingPathComponent(name + ".expect.json")
        let expect = try #require(Fixtures.json(url), "\(MissingFixture("metadata-only/\(name).expect.json"))")
        let file = try AudioFile(path: Self.path(name))
        #expect(file.packetCount == 0)
        #expect(file.dataByteCount == 0)
        #expect(file.estimatedDuration == 0)
        #expect(file.dataFormat.formatID == .linearPCM)
        #expect(file.dataFormat.sampleRate == expect["sampleRate"] as? Double)
        #expect(Int(file.dataFormat.channelsPerFrame) == expect["channels"] as? Int)
        let tags = expect["tags"] as? [String: String] ?? [:]
        #expect(file.info.title == tags["title"])
        #expect(file.info.artist == tags["artist"])
        #expect(try file.readPackets(from: 0, count: 1).packetCount == 0)
        if FileManager.default.fileExists(atPath: Self.path(name + ".ffprobe.json")), let probe = try? Self.probe(name) {
            #expect(file.dataFormat.sampleRate == Double(probe.stream["sample_rate"] as? String ?? ""))
        }
    }

    /// A file cut before its data chunk (its RIFF size says more than it holds) is still an
    /// error, and an AIFF without SSND whose COMM counts frames.
    @Test func cutBeforeDataStaysAnError() throws {
        var bytes = try Fixtures.bytes(Fixtures.metadataOnly.appendingPathComponent("wav-no-data.wav"))
        bytes.replaceSubrange(4..<8, with: [0xFF, 0x00, 0x00, 0x00])  // RIFF size 255, past the end
        #expect(throws: AudioFileError.self) { try AudioFile(source: MemoryByteSource(bytes)) }
        var aiff = try Fixtures.bytes(Fixtures.metadataOnly.appendingPathComponent("aiff-no-ssnd.aiff"))
        aiff[12 + 8 + 2 + 3] = 1  // COMM numSampleFrames 1
        #expect { try AudioFile(source: MemoryByteSource(aiff)) } throws: { ($0 as? AudioFileError)?.code == .invalidFile }
    }

    /// An MPEG-4 file whose `moov` (with its `ilst` tags) comes first and whose 64-bit `mdat`
    /// declares more than the file holds: the tags read, and the packets are ffmpeg's whole
    /// ones. Cut inside a packet, ffmpeg also returns the part of it that is there (flagged
    /// corrupt, `F=0x3`), which is not a packet of the file: ours stop before it.
    @Test(arguments: ["ilst-after-cut-mdat.m4a", "mdat64-cut.m4a"])
    func cutLargeSizeMdat(name: String) throws {
        let (format, _) = try Self.probe(name)
        let file = try AudioFile(path: Self.path(name))
        #expect(file.info.title == Self.probeTags(format)["title"])
        let crc = try String(decoding: Fixtures.data(Fixtures.metadataOnly.appendingPathComponent(name + ".framecrc")), as: UTF8.self)
        let lines = crc.split(separator: "\n").filter { !$0.hasPrefix("#") }
        let whole = lines.filter { !$0.contains("F=0x3") }
        let sizes = whole.map { Int($0.split(separator: ",")[4].trimmingCharacters(in: .whitespaces)) ?? -1 }
        #expect(file.packetCount == Int64(whole.count), "\(name): ours \(file.packetCount), ffmpeg \(lines.count) with \(lines.count - whole.count) partial")
        let packets = try file.readPackets(from: 0, count: Int(file.packetCount))
        #expect(packets.descriptions?.map { Int($0.dataByteSize) } == sizes)
        #expect(file.repairs.map(\.kind) == (name == "mdat64-cut.m4a" ? [.audioDataTruncated] : []))
        if name == "mdat64-cut.m4a" { #expect(lines.count == whole.count + 1) }
    }
}
