import Foundation
import Testing
import AudioCore
@testable import AudioFileServices
import ProcessSupport

/// The MPEG audio edge cases of Tests/Fixtures/mp3-edge (Scripts/fixtures/make_mp3_edge_fixtures.sh):
/// packet counts against ffprobe's (`-count_packets`), tags against ffprobe's and the builder's.
@Suite("MP3 edges: packets and tags against ffprobe")
struct MP3EdgeTagTests {
    static let directory = Fixtures.mp3Edge
    static let names: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
        .filter { $0.hasSuffix(".mp3") || $0.hasSuffix(".mp2") }.sorted()

    /// Packets ffprobe counts that are not frames of the stream, and why. ffmpeg 5.1's MP3
    /// demuxer leaves out an ID3v1 tag and an APEv2 tag with a header at the end, but hands on as
    /// a packet of junk what else follows the last frame: an APEv2 tag without a header, a
    /// Lyrics3 v2.00 block, an ID3v2.4 tag with a footer (ID3v2.4 §3.4: a tag appended to the
    /// file), and the part of a last frame cut short that is there (with the bytes after it).
    /// Here those are tags, left out of the audio by their sizes, and a frame is whole or not a
    /// frame (ISO/IEC 11172-3 2.4.1: a frame is its header's length), as MPEG-4 samples and ADTS
    /// frames are.
    static let ffmpegExtraPackets: [String: Int] = [
        "ape-noheader.mp3": 1, "lyrics3-id3v1.mp3": 1, "vbr-lyrics3-ape.mp3": 1, "trailing-id3v24-ape.mp3": 1,
        "cbr-cut-last-frame-id3v1.mp3": 2,  // the part of the cut frame, then the rest of the ID3v1 tag's bytes
        "damaged-cbr.mp3": 1,  // a frame cut in half: its part is a packet to ffmpeg
    ]

    @Test(arguments: names)
    func packetCountIsFFprobes(name: String) throws {
        let text = String(decoding: try Fixtures.data(Self.directory.appendingPathComponent(name + ".packets")), as: UTF8.self)
        let probe = try #require(Int(text.prefix { $0.isNumber }), "\(name): ffprobe wrote \(text)")
        let file = try AudioFile(path: Self.directory.appendingPathComponent(name).path)
        #expect(file.packetCount == Int64(probe - (Self.ffmpegExtraPackets[name] ?? 0)), "\(name): ours \(file.packetCount), ffprobe \(probe)")
    }

    static func probeTags(_ name: String) throws -> [String: String] {
        let url = directory.appendingPathComponent(name + ".tags.json")
        let json = try #require(Fixtures.json(url), "\(MissingFixture("mp3-edge/\(name).tags.json"))")
        return (json["format"] as? [String: Any])?["tags"] as? [String: String] ?? [:]
    }

    /// Two ID3v2 tags back to back: both are read and merged, as ffmpeg merges them, and the
    /// second is not taken for audio.
    @Test func twoID3v2TagsAreBothRead() throws {
        let probe = try Self.probeTags("id3v2-twice.mp3")
        let file = try AudioFile(path: Self.directory.appendingPathComponent("id3v2-twice.mp3").path)
        #expect(probe["title"] == "First tag title" && probe["composer"] == "Second tag composer")
        #expect(file.info.title == probe["title"])
        #expect(file.info.artist == probe["artist"])
        #expect(file.info.album == probe["album"])
        #expect(file.info.composer == probe["composer"])
        let plain = try AudioFile(path: Self.directory.appendingPathComponent("cbr-1ch-44100.mp3").path)
        #expect(file.packetCount == plain.packetCount && file.dataByteCount == plain.dataByteCount)
    }

    /// Two ID3v2 tags with padding between them (zeros after the first tag's declared end): the
    /// second, whose picture holds frame sync words, is a tag too, not junk before the audio.
    /// ffprobe reads the first tag only; the second's title is the builder's
    /// (Scripts/fixtures/mp3_edge_variants.py).
    @Test func paddedSecondID3v2TagIsATag() throws {
        let probe = try Self.probeTags("id3v2-twice-padded.mp3")
        let file = try AudioFile(path: Self.directory.appendingPathComponent("id3v2-twice-padded.mp3").path)
        let plain = try AudioFile(path: Self.directory.appendingPathComponent("noxing-1ch-44100.mp3").path)
        #expect(file.info.title == probe["title"] && file.info.artist == probe["artist"])
        #expect(file.metadata.filter { $0.key == "title" }.map(\.value) == ["First tag title", "v2.4 title"])
        #expect(file.pictures.count == 1)
        #expect(file.packetCount == plain.packetCount && file.dataByteCount == plain.dataByteCount)
        #expect((file.container as? MP3Format)?.junkByteCount == 0)
    }

    /// Tags after the audio — an ID3v2.4 tag with a footer, APEv2, Lyrics3 v2.00, ID3v1 — are
    /// not audio: the audio ends where the plain stream does, and their text is read from the
    /// end of the file back, so the last tag's title is the one the info dictionary gives (ffprobe
    /// reads none of the trailing ID3v2 and APEv2 tags here; the values are the builder's,
    /// Scripts/fixtures/mp3_edge_variants.py).
    @Test(arguments: [
        ("trailing-id3v24-ape.mp3", "cbr-1ch-44100.mp3", ["APE title", "Trailing title"]),
        ("vbr-ape-lyrics3.mp3", "vbr-2ch-44100.mp3", ["ID3v1 title", "APE title"]),
        ("vbr-lyrics3-ape.mp3", "vbr-2ch-44100.mp3", ["APE title"]),
        ("lyrics3-id3v1.mp3", "cbr-1ch-44100.mp3", ["ID3v1 title"]),
    ])
    func trailingTagsAreNotAudio(name: String, plain: String, titles: [String]) throws {
        let file = try AudioFile(path: Self.directory.appendingPathComponent(name).path)
        let stream = try AudioFile(path: Self.directory.appendingPathComponent(plain).path)
        #expect(file.packetCount == stream.packetCount)
        #expect(file.dataOffset + file.dataByteCount == stream.dataOffset + stream.dataByteCount)
        #expect(file.metadata.filter { $0.key == "title" }.map(\.value) == titles)
        if FileManager.default.fileExists(atPath: Self.directory.appendingPathComponent(name + ".tags.json").path),
           let probeTitle = try Self.probeTags(name)["title"]
        {
            #expect(file.info.title == probeTitle)
        }
    }

    /// A last frame cut short (an ID3v1 tag after it) is left out: the frames before it are the
    /// plain stream's.
    @Test func cutLastFrameIsDropped() throws {
        let file = try AudioFile(path: Self.directory.appendingPathComponent("cbr-cut-last-frame-id3v1.mp3").path)
        let stream = try AudioFile(path: Self.directory.appendingPathComponent("cbr-1ch-44100.mp3").path)
        #expect(file.packetCount == stream.packetCount - 1)
        #expect(file.info.title == (try Self.probeTags("cbr-cut-last-frame-id3v1.mp3"))["title"])
    }
}
