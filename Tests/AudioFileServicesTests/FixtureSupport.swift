import Foundation
import ProcessSupport
import AudioCore
import AudioFileServices

/// ffprobe's and ffmpeg's reports and the malformed-file manifest, beside the fixtures
/// ProcessSupport's ``Fixtures`` locates.
extension Fixtures {
    /// Names of the valid audio fixtures (every file that is not reference data).
    static let validNames: [String] = names

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
        Fixtures.malformedManifestEntries().map {
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
