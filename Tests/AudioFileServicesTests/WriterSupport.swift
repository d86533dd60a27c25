import Foundation
import Testing
import AudioCore
import AudioFileServices
import ProcessSupport

/// A path in the temporary directory for one test file.
func temporaryAudioPath(_ name: String) -> String {
    FileManager.default.temporaryDirectory
        .appendingPathComponent("writer-\(getpid())-\(UUID().uuidString)-\(name)").path
}

/// The full path of a tool on `PATH` (ffmpeg, ffprobe), or nil.
func toolPath(_ name: String) -> String? {
    let dirs = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") + ["/usr/bin", "/usr/local/bin"]
    return dirs.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
}

/// What ffprobe reports for a file written by a test (`-show_streams -show_format`, and
/// `-count_packets`, which reads every packet, unless `countPackets` is false).
func ffprobe(_ path: String, countPackets: Bool = true) throws -> FFprobe {
    let tool = try #require(toolPath("ffprobe"), "ffprobe is not installed (Scripts/test installs ffmpeg)")
    let count = countPackets ? ["-count_packets"] : []
    let result = try runProcess(tool, ["-v", "error"] + count + ["-show_streams", "-show_format", "-of", "json", path])
    try #require(result.status == 0, "ffprobe failed on \(path): \(result.err)")
    let json = try #require(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
    return FFprobe(json)
}

/// ffmpeg's own demux of a file: (size, Adler-32) per packet, as `-c copy -f framecrc` gives it.
func ffmpegPackets(_ path: String) throws -> [(size: Int, adler: UInt32)] {
    let tool = try #require(toolPath("ffmpeg"), "ffmpeg is not installed (Scripts/test installs it)")
    let result = try runProcess(tool, ["-v", "error", "-i", path, "-map", "0:a", "-c", "copy", "-f", "framecrc", "-"])
    try #require(result.status == 0, "ffmpeg failed on \(path): \(result.err)")
    return result.out.split(separator: "\n").compactMap { line in
        guard !line.hasPrefix("#") else { return nil }
        let fields = line.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        guard fields.count >= 6, let size = Int(fields[4]), fields[5].hasPrefix("0x"),
              let adler = UInt32(fields[5].dropFirst(2), radix: 16) else { return nil }
        return (size, adler)
    }
}

/// Deterministic bytes that look like nothing in particular.
func patternBytes(_ count: Int, seed: UInt32 = 1) -> [UInt8] {
    var x = seed &* 2_654_435_761 | 1
    return (0..<count).map { _ in
        x ^= x << 13
        x ^= x >> 17
        x ^= x << 5
        return UInt8(truncatingIfNeeded: x >> 7)
    }
}

/// The ffmpeg codec name for linear PCM or G.711 of `format` in a file (8-bit WAVE is unsigned,
/// 8-bit CAF and AIFF signed).
func ffmpegCodec(_ format: AudioStreamBasicDescription) -> String {
    switch format.formatID {
    case .uLaw: return "pcm_mulaw"
    case .aLaw: return "pcm_alaw"
    case .appleIMA4: return "adpcm_ima_qt"
    case .mpeg4AAC: return "aac"
    default: break
    }
    let bits = format.sampleWordSize * 8
    if format.isFloat { return "pcm_f\(bits)\(format.isBigEndian ? "be" : "le")" }
    if bits == 8 { return format.isSignedInteger ? "pcm_s8" : "pcm_u8" }
    return "pcm_s\(bits)\(format.isBigEndian ? "be" : "le")"
}

/// The packets of a fixture as this package's reader gives them: bytes and descriptions.
func readAllPackets(_ file: AudioFile) throws -> (data: [UInt8], descriptions: [AudioStreamPacketDescription]?) {
    let all = try file.readPackets(from: 0, count: Int(file.packetCount))
    return (all.data, all.descriptions)
}
