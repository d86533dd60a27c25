import Foundation
import ProcessSupport
import Testing

/// kAudioFilePropertyInfoDictionary and kAudioFilePropertyAlbumArtwork through a C program
/// written as Mac tag readers are (C/file_metadata.c), against ffprobe's tags and ffmpeg's
/// extracted cover (Tests/Fixtures/tags, Scripts/fixtures/make_tag_fixtures.sh). The program
/// runs under AddressSanitizer's leak check: the dictionary and the data are released.
@Suite("C API: file metadata")
struct FileMetadataTests {
    static let program = Result {
        try CPrograms.build(
            "file_metadata_asan", sources: ["Tests/AudioToolboxTests/C/file_metadata.c"],
            extra: ["-fsanitize=address", "-fno-omit-frame-pointer"])
    }

    static let tags = Fixtures.root.appendingPathComponent("tags")

    @Test(arguments: ["id3v23-cover.mp3", "tags-cover-chapters.m4a", "id3-chunk-cover.aiff", "info.wav", "id3-chunk.wav"])
    func infoDictionaryAndArtwork(name: String) throws {
        let path = Self.tags.appendingPathComponent(name).path
        let artworkOut = FileManager.default.temporaryDirectory.appendingPathComponent("artwork-\(getpid())-\(name)").path
        defer { try? FileManager.default.removeItem(atPath: artworkOut) }
        let r = try runProcess(try Self.program.get(), [path, artworkOut])
        #expect(r.status == 0, "\(r.err)")
        var entries: [String: String] = [:]
        for line in r.out.split(separator: "\n") {
            guard let eq = line.firstIndex(of: "=") else { continue }
            entries[String(line[..<eq])] = String(line[line.index(after: eq)...])
        }
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: Self.tags.appendingPathComponent(name + ".ffprobe.json"))) as? [String: Any])
        let probe = ((json["format"] as? [String: Any])?["tags"] as? [String: String]) ?? [:]
        #expect(entries["title"] == probe["title"] && entries["kAFInfoDictionary_Title"] == probe["title"])
        #expect(entries["artist"] == probe["artist"] && entries["album"] == probe["album"])
        #expect(entries["track number"] == probe["track"] && entries["genre"] == probe["genre"])
        let duration = Double(json["format"].flatMap { ($0 as? [String: Any])?["duration"] as? String } ?? "") ?? -1
        #expect(abs((Double(entries["approximate duration in seconds"] ?? "") ?? -9) - duration) < 0.05)
        let count = Int(entries["count"] ?? "") ?? -1
        #expect(count == entries.count - 3, "count=, artwork= and kAFInfoDictionary_Title= are not entries")
        let cover = Self.tags.appendingPathComponent(name + ".cover").path
        if let expected = FileManager.default.contents(atPath: cover) {
            #expect(entries["artwork"] == "\(expected.count) bytes")
            #expect(FileManager.default.contents(atPath: artworkOut) == expected)
        } else {
            #expect(entries["artwork"] == "none")
        }
    }
}
