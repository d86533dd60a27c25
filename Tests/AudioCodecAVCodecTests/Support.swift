import Foundation
import ProcessSupport
import Testing
import AudioCore
import AudioCodecs
import AudioCodecAVCodec

/// A scratch directory for one test's files, removed when the test ends.
final class Scratch {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("aacenc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }
}

/// An error from ffmpeg, with what it said.
struct ToolFailed: Error, CustomStringConvertible {
    let description: String
}

/// Runs ffmpeg quietly; throws with its standard error when it fails.
func ffmpeg(_ arguments: [String]) throws {
    let result = try runProcess("/usr/bin/ffmpeg", ["-nostdin", "-v", "error", "-y"] + arguments)
    guard result.status == 0 else { throw ToolFailed(description: "ffmpeg \(arguments.joined(separator: " ")): \(result.err)") }
}

/// The reference signal, made by ffmpeg: per channel, a tone whose loudness moves, a decaying
/// note every half second and pink noise, each channel's different (5.1's LFE channel: a 60 Hz
/// tone); interleaved Float32.
func referenceSignal(rate: Int, channels: Int, seconds: Double, in scratch: Scratch) throws -> [Float] {
    var chains: [String] = []
    for c in 0..<channels {
        if channels == 6 && c == 3 {
            // 5.1's LFE channel, which the encoder low-passes: a 60 Hz tone alone.
            chains.append("aevalsrc='0.3*sin(2*PI*60*t)':s=\(rate):d=\(seconds)[c3]")
            continue
        }
        let f = 220.0 * Double(c + 2) / 2
        chains.append(
            "aevalsrc='0.2*sin(2*PI*\(f)*t)*(0.6+0.4*sin(2*PI*0.5*t))+0.15*sin(2*PI*\(3 * f)*t)*exp(-6*mod(t+\(Double(c) * 0.1),0.5))'"
                + ":s=\(rate):d=\(seconds)[t\(c)];anoisesrc=color=pink:sample_rate=\(rate):amplitude=0.05:seed=\(c + 1):duration=\(seconds)[n\(c)];"
                + "[t\(c)][n\(c)]amix=inputs=2:normalize=0[c\(c)]")
    }
    let inputs = (0..<channels).map { "[c\($0)]" }.joined()
    let graph = chains.joined(separator: ";") + ";\(inputs)amerge=inputs=\(channels)[out]"
    let file = scratch.path("source-\(rate)-\(channels).f32")
    try ffmpeg(["-filter_complex", channels == 1 ? chains[0].replacingOccurrences(of: "[c0]", with: "[out]") : graph,
                "-map", "[out]", "-f", "f32le", "-c:a", "pcm_f32le", file])
    return try Fixtures.float32(URL(fileURLWithPath: file))
}

/// What an encode produced: the packets, and the remainder finish reported.
struct Encoded {
    var packets: [[UInt8]] = []
    var paddingFrames = 0
    var finishCalls = 0
}

/// Encodes `samples` through `encoder`, `chunk` frames a call, then finishes with room for
/// `finishRoom` packets a call.
func encodeAll(_ encoder: AACEncoder, _ samples: [Float], chunk: Int = 1000, finishRoom: Int = 1) throws -> Encoded {
    let channels = Int(encoder.inputFormat.channelsPerFrame)
    let frames = samples.count / channels
    var result = Encoded()
    var output = [UInt8](repeating: 0, count: encoder.outputByteCount(forFrames: chunk) ?? 0)
    var descriptions = [AudioStreamPacketDescription](repeating: .init(startOffset: 0, dataByteSize: 0), count: chunk / 1024 + 2)
    func collect(_ r: AudioEncodeResult) {
        for d in descriptions.prefix(r.packetCount) {
            result.packets.append(Array(output[Int(d.startOffset)..<(Int(d.startOffset) + Int(d.dataByteSize))]))
        }
        result.paddingFrames += r.paddingFrames
    }
    var start = 0
    while start < frames {
        let n = min(chunk, frames - start)
        let r = try samples.withUnsafeBytes { raw in
            try output.withUnsafeMutableBytes { out in
                try descriptions.withUnsafeMutableBufferPointer { descs in
                    try encoder.encode(
                        UnsafeRawBufferPointer(rebasing: raw[(start * channels * 4)...]), frameCount: n, into: out, packetDescriptions: descs)
                }
            }
        }
        #expect(r.paddingFrames == 0, "encode pads nothing: a partial packet waits")
        collect(r)
        start += n
    }
    while true {
        let r = try output.withUnsafeMutableBytes { out in
            try descriptions.withUnsafeMutableBufferPointer { descs in
                try encoder.finish(
                    into: UnsafeMutableRawBufferPointer(rebasing: out[..<(finishRoom * encoder.maximumPacketSize)]),
                    packetDescriptions: UnsafeMutableBufferPointer(rebasing: descs[..<finishRoom]))
            }
        }
        result.finishCalls += 1
        collect(r)
        if r.packetCount == 0 { break }
    }
    return result
}

/// ADTS (ISO/IEC 13818-7, 6.2): each packet behind a 7-byte header built from the
/// AudioSpecificConfig's object type, sampling frequency index and channel configuration.
func adts(_ packets: [[UInt8]], config: [UInt8]) -> [UInt8] {
    let objectType = Int(config[0] >> 3)
    let index = Int(config[0] & 7) << 1 | Int(config[1] >> 7)
    let channelConfig = Int(config[1] >> 3 & 15)
    var out: [UInt8] = []
    for p in packets {
        let length = p.count + 7
        out += [
            0xFF, 0xF1, UInt8((objectType - 1) << 6 | index << 2 | channelConfig >> 2),
            UInt8((channelConfig & 3) << 6 | length >> 11), UInt8(length >> 3 & 0xFF), UInt8((length & 7) << 5 | 0x1F), 0xFC,
        ]
        out += p
    }
    return out
}

/// The raw packets of an ADTS file (headers without CRC, as ffmpeg's ADTS muxer writes them).
func adtsPackets(_ bytes: [UInt8]) -> [[UInt8]] {
    var packets: [[UInt8]] = []
    var p = 0
    while p + 7 <= bytes.count, bytes[p] == 0xFF, bytes[p + 1] & 0xF6 == 0xF0 {
        let length = Int(bytes[p + 3] & 3) << 11 | Int(bytes[p + 4]) << 3 | Int(bytes[p + 5] >> 5)
        guard length >= 7, p + length <= bytes.count else { break }
        packets.append(Array(bytes[(p + 7)..<(p + length)]))
        p += length
    }
    return packets
}

/// ffmpeg's float decode of an ADTS file.
func decode(adtsFile: String, in scratch: Scratch) throws -> [Float] {
    let out = adtsFile + ".f32"
    try ffmpeg(["-i", adtsFile, "-f", "f32le", "-c:a", "pcm_f32le", out])
    return try Fixtures.float32(URL(fileURLWithPath: out))
}

/// SNR in dB of `test` from frame `offset` on against `reference`, over the reference's length.
func snr(reference: [Float], test: [Float], channels: Int, offset: Int) -> Double {
    var signal = 0.0, noise = 0.0
    let start = offset * channels
    guard start >= 0, start + reference.count <= test.count else { return -.infinity }
    for i in 0..<reference.count {
        let s = Double(reference[i])
        let e = Double(test[start + i]) - s
        signal += s * s
        noise += e * e
    }
    return 10 * log10(signal / noise)
}

/// The offset within `range` at which `test` best matches the first second of `reference`.
func bestOffset(reference: [Float], test: [Float], channels: Int, range: ClosedRange<Int>, rate: Int) -> Int {
    let n = min(rate, reference.count / channels) * channels
    var best = range.lowerBound, bestError = Double.infinity
    for offset in range where offset >= 0 && offset * channels + n <= test.count {
        var error = 0.0
        for i in 0..<n {
            let e = Double(test[offset * channels + i]) - Double(reference[i])
            error += e * e
        }
        if error < bestError { (best, bestError) = (offset, error) }
    }
    return best
}

/// An AAC output description.
func aacFormat(rate: Int, channels: Int) -> AudioStreamBasicDescription {
    AudioStreamBasicDescription(
        sampleRate: Double(rate), formatID: .mpeg4AAC, formatFlags: [], bytesPerPacket: 0, framesPerPacket: 0, bytesPerFrame: 0,
        channelsPerFrame: UInt32(channels), bitsPerChannel: 0)
}

/// An encoder for `rate` and `channels` from Float32 input.
func makeEncoder(rate: Int, channels: Int) throws -> AACEncoder {
    let output = aacFormat(rate: rate, channels: channels)
    return try AACEncoder(input: AudioEncoders.inputFormat(for: output), output: output)
}
