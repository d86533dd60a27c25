import Foundation
import Testing
import AudioCore
import AudioFileServices
import ProcessSupport

@Suite("afconvert copies tags")
struct AfconvertTagTests {
    /// Tagged files other programs wrote (ffmpeg: MPEG-4 items and a PNG cover, ID3v2.3 and a
    /// cover in MP3 and in an AIFF `ID3 ` chunk, WAVE LIST/INFO, a CAF `info` chunk; metaflac:
    /// Vorbis comments and a JPEG PICTURE block).
    static let sources = [
        "tags-cover-chapters.m4a", "id3v23-cover.mp3", "id3-chunk-cover.aiff", "info.wav", "info.caf", "transcode-source.flac",
    ]
    static let destinations = ["m4a", "flac", "wav", "aiff", "caf", "aac", "opus"]

    /// The keys every container maps both ways, which the package's reader must give back alike.
    static let sharedKeys: Set<AudioFileInfo.Key> = [
        .title, .artist, .album, .year, .genre, .composer, .comments, .copyright, .trackNumber, .lyricist,
    ]

    /// Every tag ffprobe shows on the source, ffprobe shows on the transcode with the same value
    /// (under the container's own name for it), the cover's bytes are the same (CAF holds no
    /// pictures), and the package's reader gives the same entries back.
    @Test(arguments: sources, destinations)
    func transcodeKeepsTags(source name: String, destination ext: String) throws {
        let source = FixtureFolder("tags").path(name)
        let out = temporaryPath("tags-\(name).\(ext)")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let result = try run(afconvert, [source, out])
        try #require(result.status == 0, "\(result.err)")

        let expected = try TagReaders.ffprobeTags(source)
        #expect(!expected.isEmpty)
        let got = try TagReaders.ffprobeTags(out)
        for (tag, value) in expected {
            #expect(got[tag] == value, "\(tag) of \(name) → \(ext): \(got)")
        }
        if ext != "caf", let cover = try TagReaders.ffmpegPicture(source) {
            #expect(try TagReaders.ffmpegPicture(out) == cover, "the cover of \(name) → \(ext)")
        }

        let original = try AudioFile(path: source).info, copy = try AudioFile(path: out).info
        for entry in original.entries where Self.sharedKeys.contains(entry.key) {
            #expect(copy[entry.key] == entry.value, "\(entry.key.rawValue) of \(name) → \(ext)")
        }
        if ext != "caf" {
            #expect(try AudioFile(path: out).albumArtwork?.data == AudioFile(path: source).albumArtwork?.data)
        }
    }

    /// `--no-tags` leaves them out.
    @Test(arguments: ["m4a", "flac", "wav"])
    func noTags(ext: String) throws {
        let out = temporaryPath("no-tags.\(ext)")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let result = try run(afconvert, ["--no-tags", FixtureFolder("tags").path("tags-cover-chapters.m4a"), out])
        try #require(result.status == 0, "\(result.err)")
        #expect(try TagReaders.ffprobeTags(out).isEmpty)
        #expect(try TagReaders.ffmpegPicture(out) == nil)
        #expect(try AudioFile(path: out).pictures.isEmpty)
    }
}
