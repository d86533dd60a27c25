public import Foundation

/// A reference file the tests need is missing: a failure that names the script that makes it,
/// never a check quietly left out.
public struct MissingFixture: Error, CustomStringConvertible {
    /// The file, relative to Tests/Fixtures.
    public let path: String
    public init(_ path: String) { self.path = path }
    public var description: String { "missing fixture Tests/Fixtures/\(path); run Scripts/make-fixtures" }
}

/// The fixtures and reference data Scripts/make-fixtures makes with tools nobody here wrote
/// (ffmpeg, ffprobe, sox and the spec-built fixture builders), for every test target.
public enum Fixtures {
    /// Tests/Fixtures.
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")
    /// The package's own directory.
    public static let packageRoot = root.deletingLastPathComponent().deletingLastPathComponent()
    /// Files every reader must open, with ffprobe's and ffmpeg's reports beside them.
    public static let valid = root.appendingPathComponent("valid")
    /// Files every reader must refuse with the code the manifest gives.
    public static let malformed = root.appendingPathComponent("malformed")
    /// Raw PCM and codec references (Scripts/fixtures/make_codec_refs.sh).
    public static let codecs = root.appendingPathComponent("codecs")
    /// ffmpeg's AAC decodes (Scripts/fixtures/make_aac_refs.sh).
    public static let aacRefs = root.appendingPathComponent("aac-refs")
    /// MPEG audio files and ffmpeg's decodes (Scripts/fixtures/make_mp3_refs.sh).
    public static let mp3Refs = root.appendingPathComponent("mp3-refs")
    /// HE-AAC, short configs and more MPEG-4 files with ffmpeg's decodes (Scripts/fixtures/make_mpeg4_more_fixtures.sh).
    public static let mpeg4More = root.appendingPathComponent("mpeg4-more")
    /// MPEG audio edge cases and ffmpeg's decodes (Scripts/fixtures/make_mp3_edge_fixtures.sh).
    public static let mp3Edge = root.appendingPathComponent("mp3-edge")
    /// MP3 files of different formats joined end to end, with ffprobe's packet counts (Scripts/fixtures/make_mp3_concat_fixtures.sh).
    public static let mp3Concat = root.appendingPathComponent("mp3-concat")
    /// PCM sources of the FLAC encoder's tests (Scripts/fixtures/make_flac_write_fixtures.sh).
    public static let flacWrite = root.appendingPathComponent("flac-write")
    /// Files whose audio the package does not decode, or that hold none, with ffprobe's reading
    /// (Scripts/fixtures/make_metadata_only_fixtures.sh).
    public static let metadataOnly = root.appendingPathComponent("metadata-only")
    /// Opus files and ffmpeg's libopus decodes (Scripts/fixtures/make_opus_fixtures.sh).
    public static let opus = root.appendingPathComponent("opus")
    /// Ogg Vorbis files and their oggdec and ffmpeg decodes (Scripts/fixtures/make_vorbis_fixtures.sh).
    public static let vorbis = root.appendingPathComponent("vorbis")

    /// The entries of every malformed-file manifest: `malformed/manifest.json` (Scripts/fixtures/
    /// make_malformed.py) and the `malformed/manifest-FORMAT.json` files other fixture scripts write
    /// beside it, in file-name order. Each entry is a dictionary with `file`, `what`, `expect` and
    /// optionally `packets`, `repairs` and `reference`.
    public static func malformedManifestEntries() -> [[String: Any]] {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: malformed.path)) ?? [])
            .filter { $0.hasPrefix("manifest") && $0.hasSuffix(".json") }.sorted()
        return names.flatMap { name -> [[String: Any]] in
            guard let data = FileManager.default.contents(atPath: malformed.appendingPathComponent(name).path),
                  let list = (try? JSONSerialization.jsonObject(with: data)) as? [[String: Any]]
            else { return [] }
            return list
        }
    }

    /// The path of a valid fixture.
    public static func path(_ name: String) -> String { valid.appendingPathComponent(name).path }

    /// The bytes of `file` (a URL under ``root``); throws ``MissingFixture`` when it is not there.
    public static func data(_ file: URL) throws -> Data {
        guard let data = FileManager.default.contents(atPath: file.path) else {
            throw MissingFixture(String(file.path.dropFirst(root.path.count + 1)))
        }
        return data
    }

    /// The bytes of `file` (a URL under ``root``); throws ``MissingFixture`` when it is not there.
    public static func bytes(_ file: URL) throws -> [UInt8] { [UInt8](try data(file)) }

    /// The bytes of a file in Tests/Fixtures/codecs.
    public static func codecBytes(_ name: String) throws -> [UInt8] { try bytes(codecs.appendingPathComponent(name)) }

    /// Little-endian Float32 samples (ffmpeg's `-f f32le`) from `file`.
    public static func float32(_ file: URL) throws -> [Float] {
        try data(file).withUnsafeBytes { raw in
            (0..<(raw.count / 4)).map { Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self))) }
        }
    }

    /// The audio files in `directory` (every file that is not reference data), sorted.
    public static func audioFiles(in directory: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter {
            !$0.hasSuffix(".json") && !$0.hasSuffix(".framecrc") && !$0.hasSuffix(".f32crc") && !$0.hasSuffix(".f32")
        }.sorted()
    }

    /// Names of the valid audio fixtures.
    public static var names: [String] { audioFiles(in: valid) }

    /// Formats no decoder is offered for (WAVE ADPCM, GSM).
    public static func isUndecodable(_ name: String) -> Bool {
        name.contains("adpcm_ms") || name.contains("adpcm_ima_wav") || name.contains("gsm")
    }

    /// MPEG audio, which only libmpg123's decoder (AudioCodecMPG123) decodes, where a test
    /// registers it; its tests compare it with ffmpeg's decode.
    public static func isMPEG(_ name: String) -> Bool { name.contains("mp3") }

    /// The valid fixtures a built-in or faad2 decoder is offered for.
    public static var decodable: [String] { names.filter { !isUndecodable($0) && !isMPEG($0) } }

    /// The valid fixtures no decoder is offered for.
    public static var undecodable: [String] { names.filter(isUndecodable) }

    /// The decodable fixtures whose decode must equal ffmpeg's bit for bit (all but AAC); each
    /// has an `.f32crc`, which ``ffmpegCRC(_:)`` requires.
    public static var bitExact: [String] { decodable.filter { !isAAC($0) } }

    /// AAC fixtures (ADTS and CAF): ffmpeg's reference for them is its decode in aac-refs, since
    /// two AAC decoders agree only to about 130 dB, not bit for bit.
    public static func isAAC(_ name: String) -> Bool {
        (name.hasPrefix("adts-aac-") && name.hasSuffix(".aac")) || (name.hasPrefix("caf-aac-") && name.hasSuffix(".caf"))
    }

    /// ffmpeg's packets of a fixture (`ffmpeg -c copy -f framecrc`, which Scripts/make-fixtures
    /// writes beside it as `NAME.framecrc`): each packet's size and Adler-32 (started at 0, as
    /// framecrc computes it). Throws when the file is missing.
    public static func framecrc(_ name: String, in directory: URL = valid) throws -> [(size: Int, adler: UInt32)] {
        let text = String(decoding: try data(directory.appendingPathComponent(name + ".framecrc")), as: UTF8.self)
        return text.split(separator: "\n").compactMap { line in
            guard !line.hasPrefix("#") else { return nil }
            let fields = line.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            guard fields.count >= 6, let size = Int(fields[4]), fields[5].hasPrefix("0x"),
                  let adler = UInt32(fields[5].dropFirst(2), radix: 16) else { return nil }
            return (size, adler)
        }
    }

    /// ffmpeg's Adler-32 of its float decode (`-f crc`) of a valid fixture: Scripts/make-fixtures
    /// writes one for every decodable fixture that is not AAC. Throws when it is missing.
    public static func ffmpegCRC(_ name: String, in directory: URL = valid) throws -> UInt32 {
        let file = directory.appendingPathComponent(name + ".f32crc")
        let text = String(decoding: try data(file), as: UTF8.self)
        guard let range = text.range(of: "CRC=0x"),
              let crc = UInt32(text[range.upperBound...].prefix { $0.isHexDigit }, radix: 16) else {
            throw MissingFixture("\(directory.lastPathComponent)/\(name).f32crc (no CRC=0x… line)")
        }
        return crc
    }
}

/// A folder of Tests/Fixtures whose files carry `NAME.ref` reference files of `key=value` lines
/// (written by the fixture scripts from the reference tools' output).
public struct FixtureFolder: Sendable {
    /// The folder.
    public let directory: URL

    /// Tests/Fixtures/`name`.
    public init(_ name: String) { directory = Fixtures.root.appendingPathComponent(name) }

    /// The path of the file `name` in the folder.
    public func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// The names, `suffix` dropped, of the folder's files that end in `suffix`, sorted.
    public func names(endingWith suffix: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter { $0.hasSuffix(suffix) }
            .map { String($0.dropLast(suffix.count)) }.sorted()
    }

    /// The `key=value` lines of `name`.ref; throws ``MissingFixture`` when it is not there.
    public func reference(_ name: String) throws -> [String: String] {
        let file = directory.appendingPathComponent(name + ".ref")
        guard let text = String(data: try Fixtures.data(file), encoding: .utf8) else {
            throw MissingFixture(String(file.path.dropFirst(Fixtures.root.path.count + 1)))
        }
        var values: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { values[String(parts[0])] = String(parts[1]) }
        }
        return values
    }
}
