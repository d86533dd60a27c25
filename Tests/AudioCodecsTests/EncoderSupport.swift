import Foundation
import Testing
import AudioCore
import AudioCodecs
import ProcessSupport

/// References made by Scripts/fixtures/make_encoder_refs.sh (ffmpeg, Python's audioop).
enum EncoderFixtures {
    /// The bytes of a file in Tests/Fixtures/encoders; throws when it is missing.
    static func bytes(_ name: String) throws -> [UInt8] {
        try Fixtures.bytes(Fixtures.root.appendingPathComponent("encoders").appendingPathComponent(name))
    }
}

/// ffmpeg, which Scripts/test installs: the reference encoder and decoder at test time.
enum FFmpeg {
    static let path = ["/usr/bin/ffmpeg", "/usr/local/bin/ffmpeg"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// Runs ffmpeg with `arguments` (after `-nostdin -v error -xerror -y`); records a failure
    /// with its standard error when it exits non-zero. `-xerror` stops it at the first error, so
    /// a stream it cannot decode ends the run instead of filling the error pipe, which
    /// `runProcess` reads only after standard output.
    static func run(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let tool = try #require(path, "ffmpeg is needed for the encoder references (Scripts/test installs it)", sourceLocation: sourceLocation)
        let result = try runProcess(tool, ["-nostdin", "-v", "error", "-xerror", "-y"] + arguments)
        try #require(result.status == 0, "ffmpeg \(arguments.joined(separator: " ")): \(result.err)", sourceLocation: sourceLocation)
    }
}

/// A scratch directory for one test, removed by `remove()`.
struct ScratchDirectory {
    let url: URL

    init(_ name: String) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("audiocodecs-\(getpid())-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func path(_ file: String) -> String { url.appendingPathComponent(file).path }
    func write(_ bytes: [UInt8], to file: String) throws { try Data(bytes).write(to: url.appendingPathComponent(file)) }
    func read(_ file: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: url.appendingPathComponent(file))) }
    func remove() { try? FileManager.default.removeItem(at: url) }
}

/// Encodes interleaved `samples` (`frames` frames) in one call into a buffer of exactly the size
/// the encoder asks for; returns the bytes written and the result.
func encode(_ encoder: any AudioEncoder, _ samples: [Float], frames: Int) throws -> (bytes: [UInt8], result: AudioEncodeResult) {
    let size = try #require(encoder.outputByteCount(forFrames: frames))
    var out = [UInt8](repeating: 0xEE, count: size)
    let result = try samples.withUnsafeBytes { input in
        try out.withUnsafeMutableBytes { try encoder.encode(input, frameCount: frames, into: $0, packetDescriptions: nil) }
    }
    #expect(result.byteCount == size)
    return (Array(out[0..<result.byteCount]), result)
}

/// 16-bit samples as the Float32 values that stand for them exactly (x / 32768).
func floats(_ samples: [Int16]) -> [Float] { samples.map { Float($0) / 32768 } }

/// The Float32 input description for `output`.
func floatInput(for output: AudioStreamBasicDescription) -> AudioStreamBasicDescription {
    AudioEncoders.inputFormat(for: output)
}

/// A music-like test signal, interleaved, in 16-bit units: a chord of tones and overtones (a
/// little detuned in each channel), quiet noise, and every 0.25 s a struck note: a 1 ms attack
/// and a 40 ms decay of a bright tone. Deterministic for a given seed.
func musicLikeSignal(frames: Int, channels: Int, rate: Double = 44100, seed: UInt32 = 1) -> [Int16] {
    var state = seed
    func noise() -> Double {
        state = state &* 1_664_525 &+ 1_013_904_223
        return Double(Int32(bitPattern: state)) / 2_147_483_648
    }
    let tones: [(Double, Double)] = [(110, 0.22), (220, 0.16), (329.6, 0.1), (440, 0.08), (987.8, 0.04), (2637, 0.015)]
    var out = [Int16](repeating: 0, count: frames * channels)
    let interval = Int(rate / 4)
    let attack = rate * 0.001
    for frame in 0..<frames {
        let t = Double(frame) / rate
        let sinceHit = Double(frame % interval)
        let envelope = min(sinceHit / attack, 1) * exp(-sinceHit / (rate * 0.04))
        for channel in 0..<channels {
            let detune = 1 + 0.01 * Double(channel)
            var x = 0.0
            for (k, (f, a)) in tones.enumerated() {
                x += a * sin(2 * .pi * f * detune * t + Double(k + channel))
            }
            x += 0.005 * noise()
            x += 0.3 * envelope * (sin(2 * .pi * 1760 * detune * t) + 0.3 * sin(2 * .pi * 5280 * t))
            out[frame * channels + channel] = Int16(max(-32768, min(32767, (x * 32768).rounded())))
        }
    }
    return out
}

/// Signal-to-noise ratio of `test` against `reference` in dB, over the reference's length.
func snr(_ reference: [Int16], _ test: [Int16]) -> Double {
    var signal = 0.0
    var noise = 0.0
    for (r, t) in zip(reference, test) {
        signal += Double(r) * Double(r)
        noise += (Double(r) - Double(t)) * (Double(r) - Double(t))
    }
    return noise == 0 ? .infinity : 10 * log10(signal / noise)
}

/// A minimal CAF file (Apple's Core Audio Format Specification: file header, 'desc' and
/// 'data' chunks) of Apple IMA4 `packets`, so that ffmpeg can decode them.
func imaCAF(_ packets: [UInt8], channels: Int, rate: Double) -> [UInt8] {
    func be<T: FixedWidthInteger>(_ v: T) -> [UInt8] { withUnsafeBytes(of: v.bigEndian) { Array($0) } }
    var file = Array("caff".utf8) + be(UInt16(1)) + be(UInt16(0))
    file += Array("desc".utf8) + be(Int64(32))
    file += be(rate.bitPattern) + Array("ima4".utf8) + be(UInt32(0))
    file += be(UInt32(34 * channels)) + be(UInt32(64)) + be(UInt32(channels)) + be(UInt32(0))
    file += Array("data".utf8) + be(Int64(4 + packets.count)) + be(UInt32(0))
    return file + packets
}
