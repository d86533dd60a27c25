import AudioFileServices
import Foundation
import ProcessSupport
import Testing

/// The FLAC and Ogg Opus readers give their Vorbis comments through ``AudioFile``: the info
/// dictionary, chapters and artwork against ffprobe's reading and the covers ffmpeg extracted.
@Suite("Vorbis comments through the FLAC and Ogg Opus readers")
struct VorbisCommentFileTests {
    @Test func flacFileInfoAndArtwork() throws {
        let file = try AudioFile(path: TagFixtures.path("vorbis-comment-picture.flac"))
        #expect(file.fileType == .flac)
        let probe = try TagFixtures.probeTags("vorbis-comment-picture.flac")
        let info = file.info
        #expect(info.title == "Fixture title")
        #expect(info.artist == probe["artist"] && info.album == probe["album"] && info.genre == probe["genre"])
        #expect(info.year == probe["date"] && info.comments == probe["comment"] && info.composer == probe["composer"])
        #expect(file.albumArtwork?.data == (try TagFixtures.cover("vorbis-comment-picture.flac")))
    }

    @Test func oggOpusFileInfoArtworkAndChapters() throws {
        let file = try AudioFile(path: TagFixtures.path("opustags-picture.opus"))
        let probe = try TagFixtures.probeTags("opustags-picture.opus")
        let info = file.info
        #expect(info.title == probe["title"] && info.artist == probe["artist"] && info.album == probe["album"])
        #expect(info.trackNumberText == probe["track"] && info.year == probe["date"])
        #expect(file.albumArtwork?.data == (try TagFixtures.cover("opustags-picture.opus")))

        let chaptered = try AudioFile(path: TagFixtures.path("chapters.opus"))
        let expected = try TagFixtures.probeChapters("chapters.opus")
        #expect(expected.count == 3)
        #expect(chaptered.chapters.map(\.title) == expected.map(\.title))
        for (a, b) in zip(chaptered.chapters, expected) { #expect(abs(a.startTime - b.startTime) < 0.001) }
    }
}
