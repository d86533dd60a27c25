import Foundation
import Testing
import ProcessSupport
import AudioCore
import AudioFileServices

/// Generated tags and pictures — empty, huge, with NULs, control characters, `=`, characters
/// beyond ASCII, pictures that are not images — written to every container: writing never
/// traps, the file opens, ffprobe accepts it, and the title comes back as recorded.
@Suite("Writing generated tags")
struct TagWritingPropertyTests {
    /// A small deterministic generator (SplitMix64), so a failing case can be run again.
    struct Generator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }

        /// A string of `count` characters drawn from ASCII, controls, NUL, `=`, Latin-1,
        /// CJK, emoji and U+FFFD.
        mutating func string(_ count: Int) -> String {
            let pools: [[Unicode.Scalar]] = [
                Array("abcdefghijklmnopqrstuvwxyz ABCXYZ0123456789".unicodeScalars), ["\u{0}", "\u{1}", "\u{1F}", "\n", "\t", "="],
                ["é", "ß", "ÿ", "\u{FFFD}", "\u{7F}"], Array("漢字🎵👍🏽".unicodeScalars),
            ]
            var out = String.UnicodeScalarView()
            for _ in 0..<count {
                let pool = pools[below(pools.count)]
                out.append(pool[below(pool.count)])
            }
            return String(out)
        }

        mutating func bytes(_ count: Int) -> [UInt8] { (0..<count).map { _ in UInt8(truncatingIfNeeded: next()) } }
    }

    /// One generated case: its info and pictures.
    static func generated(_ seed: UInt64) -> (info: AudioFileInfo, pictures: [AudioFilePicture]) {
        var g = Generator(state: seed)
        let keys = ["title", "artist", "album", "year", "track number", "comments", "genre", "tempo", "a key of its own", "KEY=WITH=EQUALS", "ключ", ""]
        var pairs: [(key: String, value: String)] = []
        for key in keys where g.below(3) != 0 {
            let length = [0, 1, 17, 300, 70_000][g.below(5)]
            pairs.append((key, g.string(length)))
        }
        if seed % 4 == 0 { pairs.append(("title", String(repeating: "Long title ", count: 200_000))) }  // 2.2 MB
        pairs.insert(("title", g.string(1 + g.below(40))), at: 0)
        var pictures: [AudioFilePicture] = []
        for _ in 0..<g.below(4) {
            let mime = ["image/png", "image/jpeg", "", "image/gif", "application/x-\u{0}odd", g.string(9)][g.below(6)]
            let size = [0, 1, 100, 40_000, 3 << 20][g.below(5)]
            pictures.append(AudioFilePicture(
                type: .init(rawValue: UInt32(g.below(300))), mimeType: mime, description: g.string(g.below(30)), data: g.bytes(size)))
        }
        return (AudioFileInfo(pairs), pictures)
    }

    @Test(arguments: TagTarget.all, 1...6)
    func generatedTags(target: TagTarget, seed: Int) throws {
        let (info, pictures) = Self.generated(UInt64(seed) &* 7919)
        let path = temporaryAudioPath("generated.\(target.ext)")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try target.makeWriter(path)
        try writer.setInfo(info)
        if target.holdsPictures { try writer.setPictures(pictures) }
        try target.writeAudio(writer)
        try writer.close()

        let file = try AudioFile(path: path)
        let recorded = writer.info
        func trimmed(_ s: String?) -> String? { s.map { String($0.reversed().drop { $0 == " " }.reversed()) } }
        #expect(trimmed(file.info.title) == trimmed(recorded.title), "title of case \(seed) in \(target.ext)")
        _ = file.pictures
        _ = try TagReaders.ffprobeTags(path)
        // ffprobe reads the audio through to the end, past whatever the tags hold.
        let probe = try ffprobe(path)
        #expect((probe.readPackets ?? 0) > 0, "ffprobe found no audio in case \(seed) in \(target.ext)")
    }

    /// A picture larger than a FLAC block's 16 MiB is refused with `parameter`; other
    /// containers take it.
    @Test func pictureLargerThanAFLACBlock() throws {
        let path = temporaryAudioPath("huge.flac")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let target = TagTarget(type: .flac, ext: "flac")
        let writer = try target.makeWriter(path)
        let huge = AudioFilePicture(type: .frontCover, mimeType: "image/png", data: [UInt8](repeating: 1, count: 1 << 24))
        let error = try #require(throws: AudioFileError.self) { try writer.setPictures([huge]) }
        #expect(error.code == .parameter)
        try target.writeAudio(writer)
        try writer.close()
        #expect(try AudioFile(path: path).pictures.isEmpty)
    }
}
