import Foundation
import AudioCore
import AudioFileServices

/// Paths and reference data made by Scripts/make-fixtures (ffmpeg, ffprobe, sox and the
/// fixture builders), never by this package.
enum Fixtures {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")
    static let valid = root.appendingPathComponent("valid")
    static let malformed = root.appendingPathComponent("malformed")
    static let packageRoot = root.deletingLastPathComponent().deletingLastPathComponent()

    /// Names of the valid audio fixtures (every file that is not reference data).
    static let validNames: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: valid.path)) ?? []
        return names.filter { !$0.hasSuffix(".json") && !$0.hasSuffix(".framecrc") && !$0.hasSuffix(".f32crc") }.sorted()
    }()

    static func path(_ name: String) -> String { valid.appendingPathComponent(name).path }

    static func json(_ url: URL) -> [String: Any]? {
        guard let data = try? Data(contentsOf: url) else { return nil }
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
    }

    /// ffprobe's report on a valid fixture.
    static func ffprobe(_ name: String) -> FFprobe? {
        json(valid.appendingPathComponent(name + ".ffprobe.json")).map(FFprobe.init)
    }

    /// The fixture builder's facts (ADTS header walk in Python; CAF-AAC builder inputs).
    static func facts(_ name: String) -> [String: Any]? {
        json(valid.appendingPathComponent(name + ".facts.json"))
    }

    /// ffmpeg's packets: (size, Adler-32) per packet, from `ffmpeg -c copy -f framecrc`.
    static func framecrc(_ name: String, in directory: URL = valid) -> [(size: Int, adler: UInt32)]? {
        guard let text = try? String(contentsOf: directory.appendingPathComponent(name + ".framecrc"), encoding: .utf8) else {
            return nil
        }
        return text.split(separator: "\n").compactMap { line in
            guard !line.hasPrefix("#") else { return nil }
            let fields = line.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            guard fields.count >= 6, let size = Int(fields[4]), fields[5].hasPrefix("0x"),
                  let adler = UInt32(fields[5].dropFirst(2), radix: 16) else { return nil }
            return (size, adler)
        }
    }

    struct ManifestEntry: Sendable {
        let file: String
        let what: String
        let expect: [String]
        let packets: Int?
        /// The `AudioFileRepair` kinds a file that opens must report, in order.
        let repairs: [String]
        /// ffmpeg's reading of the damaged file: `f32crc` or `framecrc`, next to the file.
        let reference: String?
    }

    static let manifest: [ManifestEntry] = {
        guard let data = try? Data(contentsOf: malformed.appendingPathComponent("manifest.json")),
              let list = (try? JSONSerialization.jsonObject(with: data)) as? [[String: Any]]
        else { return [] }
        return list.map {
            ManifestEntry(
                file: $0["file"] as? String ?? "", what: $0["what"] as? String ?? "",
                expect: $0["expect"] as? [String] ?? [], packets: $0["packets"] as? Int,
                repairs: $0["repairs"] as? [String] ?? [], reference: $0["reference"] as? String)
        }
    }()
}

/// The fields of `ffprobe -show_streams -show_format -count_packets` used as reference.
struct FFprobe {
    let stream: [String: Any]
    let format: [String: Any]
    init(_ json: [String: Any]) {
        stream = (json["streams"] as? [[String: Any]])?.first ?? [:]
        format = json["format"] as? [String: Any] ?? [:]
    }
    var codec: String { stream["codec_name"] as? String ?? "" }
    var sampleRate: Double { Double(stream["sample_rate"] as? String ?? "") ?? -1 }
    var channels: Int { stream["channels"] as? Int ?? -1 }
    var bitsPerSample: Int { stream["bits_per_sample"] as? Int ?? -1 }
    var durationTS: Int64? { (stream["duration_ts"] as? NSNumber)?.int64Value }
    var readPackets: Int64? { Int64(stream["nb_read_packets"] as? String ?? "") }
    var channelLayout: String? { stream["channel_layout"] as? String }
    var formatName: String { format["format_name"] as? String ?? "" }
    var tags: [String: String] { format["tags"] as? [String: String] ?? [:] }
}

/// Adler-32 (RFC 1950) started from 0 rather than 1, as ffmpeg's framecrc computes it
/// (`av_adler32_update(0, …)`).
func adler32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
    var a: UInt32 = 0
    var b: UInt32 = 0
    var index = bytes.startIndex
    while index < bytes.endIndex {
        let end = min(index + 5552, bytes.endIndex)
        for byte in bytes[index..<end] {
            a += UInt32(byte)
            b += a
        }
        a %= 65521
        b %= 65521
        index = end
    }
    return b << 16 | a
}

extension AudioFile {
    /// Every packet, read in batches of `batch` the way a playback callback would.
    func allPackets(batch: Int = 37) throws -> (data: [UInt8], sizes: [Int]) {
        var data: [UInt8] = []
        var sizes: [Int] = []
        var next: Int64 = 0
        while true {
            let read = try readPackets(from: next, count: batch)
            if read.packetCount == 0 { break }
            data += read.data
            if let descriptions = read.descriptions {
                sizes += descriptions.map { Int($0.dataByteSize) }
            } else {
                sizes += Array(repeating: Int(dataFormat.bytesPerPacket), count: read.packetCount)
            }
            next += Int64(read.packetCount)
        }
        return (data, sizes)
    }
}
