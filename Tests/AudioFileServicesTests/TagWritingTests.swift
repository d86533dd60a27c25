import Foundation
import Testing
import ProcessSupport
import AudioCore
import AudioFileServices

/// A container a tag test writes, and the audio it writes into it.
struct TagTarget: CustomStringConvertible, Sendable {
    let type: AudioFileType
    let ext: String
    var description: String { ext }

    static let all = [
        TagTarget(type: .caf, ext: "caf"), TagTarget(type: .wave, ext: "wav"), TagTarget(type: .aiff, ext: "aiff"),
        TagTarget(type: .flac, ext: "flac"), TagTarget(type: .m4a, ext: "m4a"), TagTarget(type: .adts, ext: "aac"),
    ]

    /// The file the audio is copied from: FLAC and AAC packets from fixtures other programs wrote.
    var source: AudioFile? {
        get throws {
            switch type {
            case .flac: try AudioFile(path: FixtureFolder("tags").path("vorbis-comment-picture.flac"))
            case .m4a, .adts: try AudioFile(path: Fixtures.path("adts-aac-2ch-44100.aac"))
            default: nil
            }
        }
    }

    /// A writer of this container at `path`, for 16-bit mono PCM or the source's packets.
    func makeWriter(_ path: String) throws -> AudioFileWriter {
        let format = try source?.dataFormat ?? .linearPCM(sampleRate: 44100, channels: 1, bitsPerChannel: 16, isBigEndian: type == .aiff)
        return try AudioFileWriter(path: path, type: type, format: format, flags: .eraseFile)
    }

    /// Writes the audio: a tenth of a second of a ramp, or the source's packets and cookie.
    func writeAudio(_ writer: AudioFileWriter) throws {
        guard let source = try source else {
            var samples: [UInt8] = []
            for i in 0..<4410 {
                let v = UInt16(truncatingIfNeeded: i * 7)
                samples += type == .aiff ? [UInt8(v >> 8), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8)]
            }
            try samples.withUnsafeBytes { try writer.writePackets($0, count: 4410) }
            return
        }
        if let cookie = source.magicCookie { try writer.setMagicCookie(cookie) }
        var next: Int64 = 0
        while next < source.packetCount {
            let batch = try source.readPackets(from: next, count: 64)
            guard batch.packetCount > 0 else { break }
            try writer.writePackets(startingPacket: next, bytes: batch.data, descriptions: batch.descriptions, packetCount: batch.packetCount)
            next += Int64(batch.packetCount)
        }
    }

    /// Whether the container records pictures.
    var holdsPictures: Bool { type != .caf }
    /// Whether mutagen reads the container (it has no CAF reader).
    var mutagenReads: Bool { type != .caf }
}

/// The tags and picture the tests write, and what other programs must read back.
enum TagSample {
    static let info = AudioFileInfo([
        ("title", "Tagged title ✓"), ("artist", "Ärtist Nämé"), ("album", "An album"), ("year", "2025"), ("genre", "Jazz"),
        ("composer", "A composer"), ("comments", "A comment"), ("copyright", "2025 Nobody"), ("track number", "4/9"),
        ("lyricist", "Words"),
    ])

    /// The tags under the common names of ``TagReaders``.
    static let common: [String: String] = [
        "title": "Tagged title ✓", "artist": "Ärtist Nämé", "album": "An album", "date": "2025", "genre": "Jazz",
        "composer": "A composer", "comment": "A comment", "copyright": "2025 Nobody", "track": "4/9", "lyricist": "Words",
    ]

    /// A 16x16 PNG ffmpeg made (the FLAC tag fixture's cover as metaflac exports it).
    static var png: [UInt8] {
        get throws { [UInt8](try Data(contentsOf: FixtureFolder("tags").directory.appendingPathComponent("vorbis-comment-picture.flac.cover"))) }
    }
}

@Suite("Writing tags and pictures")
struct TagWritingTests {
    enum When: String, CaseIterable, CustomStringConvertible, Sendable {
        /// Set before the first packet: in the header.
        case beforeAudio
        /// Set after the audio: in place, after the audio at close, or refused.
        case afterAudio
        /// Set before, then changed after the audio to something of another size.
        case changedAfterAudio
        var description: String { rawValue }
    }

    /// Tags and a cover written to each container read back the same through the package's
    /// reader, ffprobe (format tags and the attached picture's bytes) and mutagen.
    @Test(arguments: TagTarget.all, When.allCases)
    func roundTrip(target: TagTarget, when: When) throws {
        let path = temporaryAudioPath("tags.\(target.ext)")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let cover = AudioFilePicture(type: .frontCover, mimeType: "image/png", description: "Front", data: try TagSample.png)
        let writer = try target.makeWriter(path)
        func setTags() throws {
            try writer.setInfo(TagSample.info)
            if target.holdsPictures { try writer.setPictures([cover]) }
        }
        switch when {
        case .beforeAudio:
            try setTags()
            try target.writeAudio(writer)
        case .afterAudio, .changedAfterAudio:
            if when == .changedAfterAudio {
                try writer.setInfo(AudioFileInfo([("title", "A much longer title that changes the size of every tag chunk"), ("artist", "Someone")]))
            }
            try target.writeAudio(writer)
            if target.type == .adts {
                // The tag precedes the frames: it cannot change once they are written.
                #expect(throws: AudioFileError.self) { try writer.setInfo(TagSample.info) }
                try writer.close()
                return
            }
            try setTags()
        }
        #expect(writer.info == TagSample.info)
        try writer.close()

        let file = try AudioFile(path: path)
        for entry in TagSample.info.entries {
            #expect(file.info[entry.key] == entry.value, "\(entry.key.rawValue) read back by AudioFile")
        }
        if target.holdsPictures {
            #expect(file.albumArtwork?.data == cover.data)
            #expect(file.pictures.count == 1)
        } else {
            #expect(file.pictures.isEmpty)
        }

        let probed = try TagReaders.ffprobeTags(path)
        for (name, value) in TagSample.common {
            #expect(probed[name] == value, "ffprobe's \(name) of \(target.ext): \(probed)")
        }
        if target.holdsPictures { #expect(try TagReaders.ffmpegPicture(path) == cover.data) }

        if target.mutagenReads, TagReaders.hasMutagen {
            let read = try TagReaders.mutagenTags(path)
            for (name, value) in TagSample.common {
                #expect(read.tags[name] == value, "mutagen's \(name) of \(target.ext): \(read.tags)")
            }
            #expect(read.pictures == [cover.data])
        }
    }

    /// CAF has no chunk for pictures.
    @Test func cafRefusesPictures() throws {
        let path = temporaryAudioPath("pictures.caf")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try AudioFileWriter(path: path, type: .caf, format: .linearPCM(sampleRate: 8000, channels: 1, bitsPerChannel: 16))
        let error = try #require(throws: AudioFileError.self) {
            try writer.setPictures([AudioFilePicture(type: .frontCover, mimeType: "image/png", data: [1, 2, 3])])
        }
        #expect(error.code == .unsupportedProperty)
        try writer.setPictures([])
        try writer.close()
    }

    /// The entries a file records: no duration (readers work it out), keys and values cut at a
    /// NUL, empty ones dropped.
    @Test func recordedEntries() throws {
        let path = temporaryAudioPath("entries.caf")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try AudioFileWriter(path: path, type: .caf, format: .linearPCM(sampleRate: 8000, channels: 1, bitsPerChannel: 16))
        try writer.setInfo(AudioFileInfo([
            ("approximate duration in seconds", "12.5"), ("title", "Before\u{0}after"), ("artist", ""), ("", "no key"), ("album", "Kept"),
        ]))
        #expect(writer.info == AudioFileInfo([("title", "Before"), ("album", "Kept")]))
        try writer.close()
        let file = try AudioFile(path: path)
        #expect(file.info.title == "Before")
        #expect(file.info.album == "Kept")
        #expect(file.info.artist == nil)
    }

    /// FLAC tags set after the frames that no longer fit the space before them are refused.
    @Test func flacTagsTooLargeAfterAudio() throws {
        let target = TagTarget(type: .flac, ext: "flac")
        let path = temporaryAudioPath("large.flac")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try target.makeWriter(path)
        try target.writeAudio(writer)
        let large = AudioFilePicture(type: .frontCover, mimeType: "image/png", data: [UInt8](repeating: 7, count: 20000))
        let error = try #require(throws: AudioFileError.self) { try writer.setPictures([large]) }
        #expect(error.code == .operationNotSupported)
        try writer.close()
        #expect(try AudioFile(path: path).pictures.isEmpty)
    }
}

@Suite("Appending keeps tags")
struct TagAppendTests {
    /// A CAF written with tags set after its audio (its `info` chunk after the data), then
    /// appended to with the tags changed: the new tags are read, the packets of both writes are there.
    @Test func appendToTaggedCAF() throws {
        let path = temporaryAudioPath("append.caf")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let target = TagTarget(type: .caf, ext: "caf")
        let writer = try target.makeWriter(path)
        try target.writeAudio(writer)
        try writer.setInfo(AudioFileInfo([("title", "First")]))
        try writer.close()

        let file = try AudioFile(path: path)
        #expect(file.info.title == "First")
        let sink = try FileDescriptorSink(openingExisting: path)
        let appending = try AudioFileWriter(appendingTo: file, sink: sink)
        #expect(appending.info.title == "First")
        try target.writeAudio(appending)
        try appending.setInfo(AudioFileInfo([("title", "Second, longer"), ("artist", "Someone")]))
        try appending.close()

        let again = try AudioFile(path: path)
        #expect(again.packetCount == 2 * 4410)
        #expect(again.info.title == "Second, longer")
        #expect(again.info.artist == "Someone")
        #expect(try TagReaders.ffprobeTags(path)["title"] == "Second, longer")
    }
}

@Suite("ID3v2.4 frames written")
struct ID3FrameTests {
    /// `recorded date` beside `year` has no ID3v2.4 frame (v2.3's `TDAT` is gone): mutagen
    /// reads it as a `TXXX` frame of that description, and the year as `TDRC`.
    @Test func recordedDateBesideYear() throws {
        let path = temporaryAudioPath("dates.wav")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let target = TagTarget(type: .wave, ext: "wav")
        let writer = try target.makeWriter(path)
        try writer.setInfo(AudioFileInfo([("year", "2021"), ("recorded date", "2021-06-01")]))
        try target.writeAudio(writer)
        try writer.close()
        try #require(TagReaders.hasMutagen, "python3-mutagen is not installed (Scripts/test installs it)")
        let read = try TagReaders.mutagenTags(path, commonNames: false)
        #expect(read.tags["date"] == "2021")
        #expect(read.tags["recorded date"] == "2021-06-01")
        let file = try AudioFile(path: path)
        #expect(file.info.year == "2021")
        #expect(file.info.recordedDate == "2021-06-01")
    }
}

@Suite("Keys of a file's own")
struct OwnKeyTests {
    /// A key Apple has no name for reads back under itself from the containers that keep such
    /// keys (CAF's info chunk, an ID3v2 `TXXX` frame, an iTunes `----` item), and ffprobe shows it
    /// under that name. (The Vorbis comment reader keeps Apple's keys only.)
    @Test(arguments: TagTarget.all.filter { $0.type != .flac })
    func ownKeyRoundTrip(target: TagTarget) throws {
        let path = temporaryAudioPath("own.\(target.ext)")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try target.makeWriter(path)
        try writer.setInfo(AudioFileInfo([("title", "Own keys"), ("mood", "Calm")]))
        try target.writeAudio(writer)
        try writer.close()
        #expect(try AudioFile(path: path).info[AudioFileInfo.Key(rawValue: "mood")] == "Calm")
        #expect(try TagReaders.ffprobeTags(path)["mood"] == "Calm")
    }
}
