import Foundation
import Testing
import AudioCore
@testable import AudioFileServices
import ProcessSupport

/// Tests/Fixtures/tags (Scripts/fixtures/make_tag_fixtures.sh): files whose tags ffmpeg, flac,
/// metaflac and opusenc wrote, with ffprobe's reading and ffmpeg's extracted cover beside them.
enum TagFixtures {
    static let directory = Fixtures.root.appendingPathComponent("tags")
    static func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// ffprobe's format tags, lower-cased keys (the first stream's tags when the format has none).
    static func probeTags(_ name: String) throws -> [String: String] {
        let url = directory.appendingPathComponent(name + ".ffprobe.json")
        let json = try #require(Fixtures.json(url), "\(MissingFixture("tags/\(name).ffprobe.json"))")
        var tags = (json["format"] as? [String: Any])?["tags"] as? [String: String] ?? [:]
        if tags.isEmpty, let first = (json["streams"] as? [[String: Any]])?.first { tags = first["tags"] as? [String: String] ?? [:] }
        return Dictionary(tags.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { a, _ in a })
    }

    /// ffprobe's chapters: start time and title.
    static func probeChapters(_ name: String) throws -> [AudioFileChapter] {
        let json = try #require(Fixtures.json(directory.appendingPathComponent(name + ".ffprobe.json")))
        return (json["chapters"] as? [[String: Any]] ?? []).map {
            AudioFileChapter(
                startTime: Double($0["start_time"] as? String ?? "") ?? -1,
                title: ($0["tags"] as? [String: String])?["title"] ?? "")
        }
    }

    /// The cover bytes ffmpeg (or the fixture script) extracted.
    static func cover(_ name: String) throws -> [UInt8] { try Fixtures.bytes(directory.appendingPathComponent(name + ".cover")) }
}

@Suite("Metadata: info dictionary, artwork, chapters")
struct MetadataTests {
    /// ffmpeg's tags through ID3v2.3, ID3v2.4 (+ ID3v1), WAVE `id3 ` and AIFF `ID3 ` chunks,
    /// WAVE LIST/INFO and MPEG-4 `ilst`, under Apple's keys, against ffprobe.
    @Test(arguments: [
        "id3v23-cover.mp3", "id3v24-v1-cover.mp3", "id3-chunk.wav", "id3-chunk-cover.aiff", "info.wav", "tags-cover-chapters.m4a",
    ])
    func textTagsMatchFFprobe(name: String) throws {
        let probe = try TagFixtures.probeTags(name)
        let file = try AudioFile(path: TagFixtures.path(name))
        let info = file.info
        #expect(info.title == probe["title"] && info.title == "Fixture title")
        #expect(info.artist == probe["artist"])
        #expect(info.album == probe["album"])
        #expect(info.genre == probe["genre"] && info.genre == "Jazz")
        #expect(info.trackNumberText == probe["track"] && info.trackNumber == 3)
        if name.hasSuffix(".wav") && !name.hasPrefix("id3") {
            #expect(info.recordedDate == probe["date"])  // RIFF ICRD is Apple's "recorded date"
        } else {
            #expect(info.year == probe["date"])
        }
        #expect(info.copyright == probe["copyright"])
        if probe["composer"] != nil { #expect(info.composer == probe["composer"]) }
        // The duration is always there, last, with three decimals.
        #expect(info.entries.last?.key == .approximateDurationInSeconds)
        #expect(abs((info.approximateDuration ?? 0) - file.estimatedDuration) < 0.001)
        #expect(file.infoDictionary == info.dictionary)
    }

    /// Cover art, byte for byte as ffmpeg extracts it: ID3v2.3 and 2.4 APIC, ID3v2.2 PIC,
    /// an unsynchronised tag, frame-level unsynchronisation, AIFF and WAVE ID3 chunks, an APEv2
    /// binary item, MPEG-4 covr.
    @Test(arguments: [
        ("id3v23-cover.mp3", "image/png"), ("id3v24-v1-cover.mp3", "image/jpeg"), ("id3v22-pic.mp3", "image/jpeg"),
        ("id3v23-unsync.mp3", "image/jpeg"), ("id3v24-frame-flags.mp3", "image/jpeg"),
        ("id3-chunk-cover.aiff", "image/png"), ("id3-chunk.wav", "image/png"), ("ape.mp3", "image/jpeg"), ("tags-cover-chapters.m4a", "image/png"), ("chpl-only.m4a", "image/png"),
    ])
    func albumArtworkMatchesFFmpeg(name: String, mime: String) throws {
        let file = try AudioFile(path: TagFixtures.path(name))
        let art = try #require(file.albumArtwork)
        #expect(art.data == (try TagFixtures.cover(name)))
        #expect(art.mimeType == mime)
        #expect(file.pictures.count == 1)
    }

    @Test(arguments: ["info.wav", "text-chunks.aiff", "info.caf", "info-chunk.caf", "id3-chapters.mp3"] as [String])
    func noArtwork(name: String) throws {
        #expect(try AudioFile(path: TagFixtures.path(name)).albumArtwork == nil)
    }

    /// ID3v2.2: three-letter frames, a numeric genre, the comment and PIC's description.
    @Test func id3v22() throws {
        let file = try AudioFile(path: TagFixtures.path("id3v22-pic.mp3"))
        let probe = try TagFixtures.probeTags("id3v22-pic.mp3")
        let info = file.info
        #expect(info.title == "Old title" && info.title == probe["title"])
        #expect(info.artist == probe["artist"] && info.album == probe["album"])
        #expect(info.genre == probe["genre"] && info.genre == "Jazz")
        #expect(info.year == probe["date"] && info.trackNumber == 7)
        #expect(info.comments == probe["comment"])
        #expect(file.albumArtwork?.description == "Cover")
        #expect(file.albumArtwork?.type == .frontCover)
    }

    /// Unsynchronisation undone for the whole tag (2.3) and per frame (2.4); a 2.4 frame's data
    /// length indicator and grouping byte stepped over; a compressed frame skipped.
    @Test func unsynchronisationAndFrameFlags() throws {
        let unsync = try AudioFile(path: TagFixtures.path("id3v23-unsync.mp3")).info
        let probe = try TagFixtures.probeTags("id3v23-unsync.mp3")
        #expect(unsync.title == "Unsynchronised" && unsync.genre == probe["genre"])
        let flagged = try AudioFile(path: TagFixtures.path("id3v24-frame-flags.mp3"))
        #expect(flagged.info.title == "Flagged title")
        #expect(flagged.info.artist == "Grouped artist")
        #expect(flagged.info.album == nil)
        #expect(flagged.info.trackNumberText == "4/9")
        #expect(flagged.albumArtwork?.description == "Front")
    }

    @Test func apeTag() throws {
        let info = try AudioFile(path: TagFixtures.path("ape.mp3")).info
        #expect(info.title == "APE title" && info.artist == "APE artist" && info.album == "APE album")
        #expect(info.trackNumber == 5 && info.year == "2001" && info.genre == "Blues" && info.comments == "APE comment")
        let art = try #require(try AudioFile(path: TagFixtures.path("ape.mp3")).albumArtwork)
        #expect(art.description == "cover.jpg" && art.type == .frontCover)
    }

    /// A CAF info chunk keeps Apple's own keys; the duration is the file's, not the chunk's.
    @Test func cafInfoChunk() throws {
        let file = try AudioFile(path: TagFixtures.path("info-chunk.caf"))
        let info = file.info
        #expect(info.title == "CAF title" && info.artist == "CAF artist")
        #expect(info.tempo == "120" && info.keySignature == "C#m" && info.timeSignature == "3/4")
        #expect(info.recordedDate == "2024-05-06")
        #expect(info.approximateDuration == 0.01)
        #expect(info.entries.filter { $0.key == .approximateDurationInSeconds }.count == 1)
    }

    /// ffmpeg's CAF `info` chunk uses ffmpeg's own key names; a CAF file's keys are kept as
    /// written, as Apple's reader keeps them.
    @Test func cafInfoChunkKeysAsWritten() throws {
        let info = try AudioFile(path: TagFixtures.path("info.caf")).info
        let probe = try TagFixtures.probeTags("info.caf")
        #expect(info.title == probe["title"] && info.artist == probe["artist"] && info.album == probe["album"])
        #expect(info[AudioFileInfo.Key(rawValue: "track")] == probe["track"] && info.trackNumberText == nil)
        #expect(info[AudioFileInfo.Key(rawValue: "date")] == probe["date"])
    }

    @Test func aiffTextChunks() throws {
        let info = try AudioFile(path: TagFixtures.path("text-chunks.aiff")).info
        let probe = try TagFixtures.probeTags("text-chunks.aiff")
        #expect(info.title == probe["title"] && info.artist == probe["author"])
        #expect(info.comments == probe["comment"] && info.copyright == probe["copyright"])
    }

    /// Chapters: ID3v2 CHAP frames, the MPEG-4 chapter track, Nero's chpl alone.
    @Test(arguments: ["id3-chapters.mp3", "tags-cover-chapters.m4a", "chpl-only.m4a"])
    func chaptersMatchFFprobe(name: String) throws {
        let expected = try TagFixtures.probeChapters(name)
        #expect(expected.count == 3)
        let chapters = try AudioFile(path: TagFixtures.path(name)).chapters
        #expect(chapters.map(\.title) == expected.map(\.title))
        for (a, b) in zip(chapters, expected) { #expect(abs(a.startTime - b.startTime) < 0.001) }
    }

    @Test func genreNumbers() {
        #expect(ID3v2.genre("(13)") == "Pop")
        #expect(ID3v2.genre("13") == "Pop")
        #expect(ID3v2.genre("(17)Rock & Roll") == "Rock")
        #expect(ID3v2.genre("(RX)") == "Remix")
        #expect(ID3v2.genre("Synthwave") == "Synthwave")
        #expect(ID3v2.genre("(999)") == "(999)")
        #expect(ID3v1Genres.names.count == 126 && ID3v1Genres.names[125] == "Dance Hall")
    }

    /// Damaged tags (Tests/Fixtures/malformed/tags__*): the file opens, its tags read as far as
    /// they go, no picture or chapter made up.
    @Test func damagedTagsReadAsFarAsTheyGo() throws {
        let names = Fixtures.audioFiles(in: Fixtures.malformed).filter { $0.hasPrefix("tags__") }
        #expect(names.count == 5)
        for name in names {
            let file = try AudioFile(path: Fixtures.malformed.appendingPathComponent(name).path)
            _ = file.info
            #expect(file.pictures.isEmpty, "\(name)")
            if name == "tags__apic-size-lies.mp3" { #expect(file.info.title == "Kept title") }
            // The whole CHAP frame is a chapter named by its element ID; the 5-byte one is none.
            if name == "tags__chap-cut.mp3" { #expect(file.chapters == [AudioFileChapter(startTime: 0, title: "c1")]) }
        }
    }

    /// A tag of 3 MiB, its cover between the text frames: opening reads the frame headers and
    /// the text, not the cover (under 1 MiB read in all: the frame walk reads through windows of
    /// up to 256 KiB); the cover is read when asked for.
    @Test func largeCoverIsNotReadToOpen() throws {
        let plain = try Fixtures.bytes(TagFixtures.directory.appendingPathComponent("id3v24-frame-flags.mp3"))
        let audio = Array(plain[(10 + ID3v2.syncsafe(plain, 6))...])
        func frame(_ id: String, _ body: [UInt8]) -> [UInt8] {
            Array(id.utf8) + [UInt8(body.count >> 24 & 0xFF), UInt8(body.count >> 16 & 0xFF), UInt8(body.count >> 8 & 0xFF), UInt8(body.count & 0xFF), 0, 0] + body
        }
        let cover = [0xFF, 0xD8, 0xFF] + [UInt8](repeating: 0x5A, count: 3 << 20)
        let body = frame("TIT2", [0] + Array("Big title".utf8)) + frame("APIC", [0] + Array("image/jpeg".utf8) + [0, 3, 0] + cover)
            + frame("TPE1", [0] + Array("Big artist".utf8))
        let size = body.count
        let tag = Array("ID3".utf8) + [3, 0, 0, UInt8(size >> 21 & 0x7F), UInt8(size >> 14 & 0x7F), UInt8(size >> 7 & 0x7F), UInt8(size & 0x7F)]
        let source = CountingSource(tag + body + audio)
        let file = try AudioFile(source: source)
        #expect(file.info.title == "Big title" && file.info.artist == "Big artist")
        #expect(file.packetCount > 0)
        #expect(source.bytesRead < 1 << 20, "\(source.bytesRead) bytes read to open")
        #expect(file.albumArtwork?.data == cover)
    }

    /// Every prefix of a tag (and the tag with every byte flipped in turn) parses without a trap.
    @Test func truncatedAndDamagedTagsNeverTrap() throws {
        let bytes = try Fixtures.bytes(TagFixtures.directory.appendingPathComponent("id3v24-frame-flags.mp3"))
        let tagSize = 10 + ID3v2.syncsafe(bytes, 6)
        let tag = Array(bytes[..<tagSize])
        for n in 0...tag.count {
            _ = ID3v2.parse(Array(tag[..<n]))
            _ = ID3v2.pictures(Array(tag[..<n]))
        }
        for i in 0..<min(tag.count, 400) {
            var damaged = tag
            damaged[i] ^= 0xFF
            _ = ID3v2.summary([damaged])
            _ = ID3v2.pictures(damaged)
        }
    }
}

/// Memory that counts the bytes read from it.
final class CountingSource: AudioByteSource, @unchecked Sendable {
    private let memory: MemoryByteSource
    private let lock = NSLock()
    private var count = 0
    init(_ bytes: [UInt8]) { memory = MemoryByteSource(bytes) }
    var size: Int64 { memory.size }
    var bytesRead: Int { lock.withLock { count } }
    func read(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) throws(AudioFileError) -> Int {
        let n = try memory.read(at: offset, into: buffer)
        lock.withLock { count += n }
        return n
    }
}
