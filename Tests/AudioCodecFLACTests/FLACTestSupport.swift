import AudioCodecFLAC
import AudioCodecs
import AudioCore
import AudioFileServices
import Foundation
import ProcessSupport

/// A stream of PCM to encode: its shape, and its samples as signed integers (interleaved,
/// right-justified) made from sines and noise with the tests' generator.
struct FLACCase: CustomStringConvertible, Sendable {
    let bits: Int
    let channels: Int
    let rate: Int
    let frames: Int

    var description: String { "\(bits)-bit \(channels) ch \(rate) Hz \(frames) frames" }

    /// Bytes a sample takes when packed (what `flac -d` writes raw).
    var word: Int { (bits + 7) / 8 }

    var samples: [Int32] {
        var random = SplitMix(seed: UInt64(bits * 1000 + channels * 10 + rate))
        let top = Double(Int64(1) << (bits - 1))
        var out = [Int32](repeating: 0, count: frames * channels)
        for f in 0..<frames {
            for c in 0..<channels {
                let tone = sin(Double(f) * Double(c + 1) * 2 * .pi * 441 / Double(rate)) * 0.6
                let noise = Double(random.next() % 2001) / 1000 - 1
                let x = (tone + noise * 0.05) * top
                out[f * channels + c] = Int32(max(-top, min(top - 1, x.rounded())))
            }
        }
        // Full scale at the start, so the extremes are in every stream.
        if frames > 2 { out[0] = Int32(-top); out[channels] = Int32(top - 1) }
        return out
    }

    /// The samples packed little-endian in `word` bytes each.
    func packed(_ samples: [Int32]) -> [UInt8] {
        var bytes = [UInt8]()
        bytes.reserveCapacity(samples.count * word)
        for s in samples {
            let v = UInt32(bitPattern: s)
            for b in 0..<word { bytes.append(UInt8(truncatingIfNeeded: v >> (8 * UInt32(b)))) }
        }
        return bytes
    }

    /// The samples as ffmpeg gives them in 32 bits: shifted to the top, little-endian.
    func left32(_ samples: [Int32]) -> [UInt8] {
        FLACCase(bits: 32, channels: channels, rate: rate, frames: frames).packed(samples.map { $0 << Int32(32 - bits) })
    }

    /// Interleaved signed little-endian packed integers of `bits` bits.
    var integerFormat: AudioStreamBasicDescription {
        AudioStreamBasicDescription(
            sampleRate: Double(rate), formatID: .linearPCM, formatFlags: [.isSignedInteger, .isPacked],
            bytesPerPacket: UInt32(word * channels), framesPerPacket: 1, bytesPerFrame: UInt32(word * channels),
            channelsPerFrame: UInt32(channels), bitsPerChannel: UInt32(bits))
    }

    /// FLAC of this depth, as a program asks for it (the encoder fills in the rest).
    var flacFormat: AudioStreamBasicDescription {
        var f = AudioStreamBasicDescription(
            sampleRate: Double(rate), formatID: .flac, formatFlags: [], bytesPerPacket: 0, framesPerPacket: 0, bytesPerFrame: 0,
            channelsPerFrame: UInt32(channels), bitsPerChannel: 0)
        let flag = FLACDataFormat.formatFlag(bitDepth: bits)
        if flag != 0 { f.formatFlags = AudioFormatFlags(rawValue: flag) } else { f.bitsPerChannel = UInt32(bits) }
        return f
    }
}

/// A file path in a fresh temporary directory.
func temporaryPath(_ name: String) -> String {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("flacenc-\(getpid())-\(UUID().uuidString.prefix(8))")
    try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    return dir.appendingPathComponent(name).path
}

/// Encodes `input` (interleaved samples of `format`) with `encoder` a few thousand frames per
/// call, writing the packets to `writer`, then ends the stream and completes the file as
/// ExtAudioFile does: the final cookie and the remainder in the packet table.
func encode(
    _ input: [UInt8], frames: Int, with encoder: FLACEncoder, to writer: AudioFileWriter, chunk: Int = 3000
) throws {
    let frameBytes = Int(encoder.inputFormat.bytesPerFrame)
    let room = encoder.outputByteCount(forFrames: chunk + encoder.framesPerPacket)!
    var out = [UInt8](repeating: 0, count: room)
    var descriptions = [AudioStreamPacketDescription](repeating: .init(startOffset: 0, dataByteSize: 0), count: 64)
    try writer.setMagicCookie(encoder.magicCookie!)
    func write(_ result: AudioEncodeResult) throws {
        guard result.packetCount > 0 else { return }
        try writer.writePackets(
            startingPacket: writer.packetCount, bytes: Array(out[0..<result.byteCount]),
            descriptions: Array(descriptions[0..<result.packetCount]), packetCount: result.packetCount)
    }
    var at = 0
    while at < frames {
        let n = min(chunk, frames - at)
        let result = try input.withUnsafeBytes { raw in
            try out.withUnsafeMutableBytes { o in
                try descriptions.withUnsafeMutableBufferPointer { d in
                    try encoder.encode(
                        UnsafeRawBufferPointer(rebasing: raw[(at * frameBytes)..<((at + n) * frameBytes)]), frameCount: n, into: o,
                        packetDescriptions: d)
                }
            }
        }
        try write(result)
        at += n
    }
    var padding = 0
    while true {
        let result = try out.withUnsafeMutableBytes { o in
            try descriptions.withUnsafeMutableBufferPointer { d in try encoder.finish(into: o, packetDescriptions: d) }
        }
        try write(result)
        padding += result.paddingFrames
        if result.packetCount == 0 { break }
    }
    try writer.setMagicCookie(encoder.magicCookie!)
    let total = writer.totalFrames
    try writer.setPacketTableInfo(
        AudioFilePacketTableInfo(numberValidFrames: total - Int64(padding), primingFrames: 0, remainderFrames: Int32(padding)))
    try writer.close()
}

/// True when `tool` is installed.
func have(_ tool: String) -> Bool { FileManager.default.isExecutableFile(atPath: tool) }

/// What `flac -d` decodes `path` to: raw little-endian signed samples, packed.
func flacDecode(_ path: String) throws -> (status: Int32, bytes: [UInt8], err: String) {
    let raw = path + ".raw"
    let r = try runProcess("/usr/bin/flac", ["-s", "-d", "-f", "--force-raw-format", "--endian=little", "--sign=signed", "-o", raw, path])
    let bytes = (try? [UInt8](Data(contentsOf: URL(fileURLWithPath: raw)))) ?? []
    return (r.status, bytes, r.err)
}

/// What ffmpeg decodes `path` to as raw little-endian samples of `sampleFormat` (`s16le`, `s32le`).
func ffmpegDecode(_ path: String, sampleFormat: String) throws -> (status: Int32, bytes: [UInt8], err: String) {
    let raw = path + ".ff.raw"
    let r = try runProcess("/usr/bin/ffmpeg", ["-v", "error", "-y", "-i", path, "-f", sampleFormat, raw])
    let bytes = (try? [UInt8](Data(contentsOf: URL(fileURLWithPath: raw)))) ?? []
    return (r.status, bytes, r.err)
}

/// ffprobe's codec name and the stream's sample count (`duration_ts` at the sample rate).
func ffprobe(_ path: String) throws -> (codec: String, samples: Int64?, sampleRate: Int?) {
    let r = try runProcess(
        "/usr/bin/ffprobe",
        ["-v", "error", "-select_streams", "a:0", "-count_packets", "-show_entries", "stream=codec_name,sample_rate,duration_ts,duration",
         "-of", "default=nw=1", path])
    var values: [String: String] = [:]
    for line in r.out.split(separator: "\n") {
        let parts = line.split(separator: "=", maxSplits: 1)
        if parts.count == 2 { values[String(parts[0])] = String(parts[1]) }
    }
    let rate = values["sample_rate"].flatMap { Int($0) }
    var samples = values["duration_ts"].flatMap { Int64($0) }
    if let rate, let seconds = values["duration"].flatMap(Double.init), samples == nil {
        samples = Int64((seconds * Double(rate)).rounded())
    }
    return (values["codec_name"] ?? "", samples, rate)
}

/// Where two byte strings first differ (the shorter one's end if one is a prefix of the other),
/// nil when they are equal. (Comparing in the expectation itself would diff megabytes.)
func firstDifference(_ a: [UInt8], _ b: [UInt8]) -> Int? {
    guard a != b else { return nil }
    for i in 0..<min(a.count, b.count) where a[i] != b[i] { return i }
    return min(a.count, b.count)
}
