import Foundation
import Testing
import ProcessSupport
import AudioCore
import AudioFileServices

/// WAVE's `LIST`/`INFO` chunk beside the `id3 ` chunk: written when INFO has an ID ffmpeg names
/// for every key, and read back by ffprobe (which then takes the INFO list) and the package.
@Suite("WAVE LIST/INFO") struct WAVEListInfoTests {
    func write(_ info: AudioFileInfo) throws -> String {
        let path = temporaryAudioPath("list-info.wav")
        let target = TagTarget(type: .wave, ext: "wav")
        let writer = try target.makeWriter(path)
        try writer.setInfo(info)
        try target.writeAudio(writer)
        try writer.close()
        return path
    }

    /// The chunk IDs at the top level of a RIFF file, and each INFO entry's ID and text.
    func chunks(_ path: String) throws -> (ids: [String], info: [String: String]) {
        let d = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        var ids: [String] = [], info: [String: String] = [:]
        var at = 12
        func u32(_ i: Int) -> Int { Int(d[i]) | Int(d[i + 1]) << 8 | Int(d[i + 2]) << 16 | Int(d[i + 3]) << 24 }
        while at + 8 <= d.count {
            let id = String(decoding: d[at..<(at + 4)], as: UTF8.self)
            ids.append(id)
            if id == "data" { break }
            let size = u32(at + 4)
            if id == "LIST", String(decoding: d[(at + 8)..<(at + 12)], as: UTF8.self) == "INFO" {
                var i = at + 12
                while i + 8 <= at + 8 + size {
                    let n = u32(i + 4)
                    info[String(decoding: d[i..<(i + 4)], as: UTF8.self)] = String(decoding: d[(i + 8)..<(i + 8 + n)].prefix { $0 != 0 }, as: UTF8.self)
                    i += 8 + n + (n & 1)
                }
            }
            at += 8 + size + (size & 1)
        }
        return (ids, info)
    }

    @Test func infoListBesideID3() throws {
        let info = AudioFileInfo([
            ("title", "Tïtle"), ("artist", "Art"), ("album", "Alb"), ("year", "2021"), ("genre", "Rock"),
            ("comments", "A comment"), ("copyright", "Nobody"), ("track number", "3"),
        ])
        let path = try write(info)
        let (ids, list) = try chunks(path)
        #expect(ids.contains("LIST") && ids.contains("id3 "), "\(ids)")
        #expect(list == ["INAM": "Tïtle", "IART": "Art", "IPRD": "Alb", "ICRD": "2021", "IGNR": "Rock", "ICMT": "A comment", "ICOP": "Nobody", "ITRK": "3"])
        let probed = try TagReaders.ffprobeTags(path)
        for (name, value) in ["title": "Tïtle", "artist": "Art", "album": "Alb", "date": "2021", "genre": "Rock", "comment": "A comment",
                              "copyright": "Nobody", "track": "3"] {
            #expect(probed[name] == value, "ffprobe's \(name): \(probed)")
        }
        let read = try AudioFile(path: path).info
        for entry in info.entries { #expect(read[entry.key] == entry.value, "\(entry.key): \(read)") }
        #expect(read.recordedDate == nil, "the ICRD repeats the year: \(read)")
    }

    /// A key ffmpeg names no INFO ID for (the composer) leaves the tags to the `id3 ` chunk,
    /// which ffprobe reads in full when no INFO list is beside it.
    @Test func keyOutsideInfoLeavesID3Alone() throws {
        let path = try write(AudioFileInfo([("title", "T"), ("composer", "C")]))
        let (ids, _) = try chunks(path)
        #expect(!ids.contains("LIST") && ids.contains("id3 "), "\(ids)")
        let probed = try TagReaders.ffprobeTags(path)
        #expect(probed["title"] == "T" && probed["composer"] == "C", "\(probed)")
    }
}
