import Foundation
import Testing
import AudioCore
import AudioFileServices
import AudioCodecs
import AudioCodecFAAD
import ExtendedAudioFileServices

/// Fixtures made by Scripts/make-fixtures (ffmpeg, sox): paths and ffmpeg's reference decodes.
enum Refs {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")
    static let valid = fixtures.appendingPathComponent("valid")
    static let packageRoot = fixtures.deletingLastPathComponent().deletingLastPathComponent()

    static func path(_ name: String) -> String { valid.appendingPathComponent(name).path }

    static var names: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: valid.path)) ?? []).filter {
            !$0.hasSuffix(".json") && !$0.hasSuffix(".framecrc") && !$0.hasSuffix(".f32crc")
        }.sorted()
    }

    /// Fixtures with ffmpeg's whole-stream Adler-32 of its float decode (`-f crc`).
    static var bitExact: [String] {
        names.filter { FileManager.default.fileExists(atPath: path($0) + ".f32crc") }
    }

    static func crc(_ name: String) -> UInt32? {
        guard let text = try? String(contentsOfFile: path(name) + ".f32crc", encoding: .utf8),
              let range = text.range(of: "CRC=0x") else { return nil }
        return UInt32(text[range.upperBound...].prefix { $0.isHexDigit }, radix: 16)
    }

    /// Formats decoding is not offered for (WAVE ADPCM, GSM, MPEG).
    static var undecodable: [String] {
        names.filter { $0.contains("adpcm_ms") || $0.contains("adpcm_ima_wav") || $0.contains("gsm") || $0.contains("mp3") }
    }
}

/// Standard Adler-32 (RFC 1950), as ffmpeg's crc muxer computes it.
func adler32(_ bytes: UnsafeRawBufferPointer, a: inout UInt32, b: inout UInt32) {
    var index = 0
    while index < bytes.count {
        let end = min(index + 5552, bytes.count)
        for i in index..<end {
            a += UInt32(bytes[i])
            b += a
        }
        a %= 65521
        b %= 65521
        index = end
    }
}

func float32(_ format: AudioStreamBasicDescription) -> AudioStreamBasicDescription {
    AudioStreamBasicDescription.linearPCM(sampleRate: format.sampleRate, channels: format.channelsPerFrame, bitsPerChannel: 32, isFloat: true)
}

/// Decodes a whole file to interleaved little-endian Float32, reading `chunk` frames at a time.
func decodeAll(_ path: String, chunk: Int = 1000) throws -> (bytes: [UInt8], frames: Int, reader: ExtAudioFile) {
    AACDecoder.register()
    let reader = try ExtAudioFile(path: path)
    let client = float32(reader.decodedFormat)
    try reader.setClientDataFormat(client)
    let buffer = try #require(PCMBuffer(format: client, frameCapacity: chunk))
    var bytes: [UInt8] = []
    var frames = 0
    while true {
        buffer.frameLength = 0
        let n = try reader.read(into: buffer, frameCount: chunk)
        if n == 0 { break }
        bytes += UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(buffer.region())[0..<buffer.byteLength])
        frames += n
    }
    return (bytes, frames, reader)
}

func floats(_ bytes: ArraySlice<UInt8>) -> [Float] {
    bytes.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
}

/// Largest sample difference between `a` and `b` shifted by `lag` frames.
func maxDifference(_ a: [Float], _ b: [Float], lag: Int, channels: Int) -> Float {
    var worst: Float = 0
    for i in 0..<a.count {
        let j = i + lag * channels
        if j >= 0 && j < b.count { worst = max(worst, abs(a[i] - b[j])) }
    }
    return worst
}

/// Mean squared difference between `a` and `b` shifted by `lag` frames.
func meanSquare(_ a: [Float], _ b: [Float], lag: Int, channels: Int) -> Double {
    var sum = 0.0, count = 0
    for i in 0..<a.count {
        let j = i + lag * channels
        if j >= 0 && j < b.count {
            sum += Double(a[i] - b[j]) * Double(a[i] - b[j])
            count += 1
        }
    }
    return count > 0 ? sum / Double(count) : 0
}

@Suite("Decoding reader against ffmpeg")
struct DecodeTests {
    /// PCM, G.711 and IMA4 decode to exactly ffmpeg's float samples.
    @Test(arguments: Refs.bitExact)
    func bitExactWithFFmpeg(name: String) throws {
        let expected = try #require(Refs.crc(name))
        let (bytes, frames, reader) = try decodeAll(Refs.path(name))
        #expect(Int64(frames) == reader.fileLengthFrames)
        var a: UInt32 = 1, b: UInt32 = 0
        bytes.withUnsafeBytes { adler32($0, a: &a, b: &b) }
        #expect(b << 16 | a == expected, "Adler-32 of \(frames) frames")
    }

    @Test(arguments: Refs.undecodable)
    func unsupportedFormatsSayFmt(name: String) {
        do {
            _ = try ExtAudioFile(path: Refs.path(name))
            Issue.record("opened \(name) for decoding")
        } catch {
            #expect(error.status == AudioFileError.Code.unsupportedDataFormat.rawValue)
        }
    }

    /// A header claiming packets of billions of frames and bytes (a fuzz finding) is refused
    /// before any buffer is sized from it.
    @Test func absurdPacketSizesAreUnsupported() {
        let path = Refs.fixtures.appendingPathComponent("fuzz-regressions/caf-aac-huge-constant-packets.caf").path
        do {
            _ = try ExtAudioFile(path: path)
            Issue.record("opened a file with 4 GiB packets for decoding")
        } catch {
            #expect(error.status == AudioFileError.Code.unsupportedDataFormat.rawValue)
        }
    }

    /// Seeking lands on exactly the frame a continuous read reaches. PCM and G.711 samples are
    /// identical; IMA4 and AAC decoders carry state between packets that pre-roll restores only
    /// approximately, so there the samples must be close and no other alignment may fit better.
    @Test(arguments: [
        ("wav-pcm_s16le-2ch-44100.wav", Float(0)), ("aifc-pcm_alaw-1ch-8000.aifc", Float(0)),
        ("caf-adpcm_ima_qt-2ch-44100.caf", Float(128.0 / 32768)), ("aifc-adpcm_ima_qt-2ch-44100.aifc", Float(128.0 / 32768)),
        ("caf-aac-2ch-48000.caf", Float(0.02)), ("adts-aac-2ch-44100.aac", Float(0.02)),
    ])
    func seekIsSampleExact(name: String, tolerance: Float) throws {
        let (whole, frames, _) = try decodeAll(Refs.path(name))
        let reader = try ExtAudioFile(path: Refs.path(name))
        let client = float32(reader.decodedFormat)
        try reader.setClientDataFormat(client)
        let bytesPerFrame = Int(client.bytesPerFrame)
        let buffer = try #require(PCMBuffer(format: client, frameCapacity: 500))
        for target in [0, 1, 63, 64, 65, frames / 2, frames - 10] {
            try reader.seek(toFrame: Int64(target))
            #expect(reader.tell() == Int64(target))
            buffer.frameLength = 0
            let n = try reader.read(into: buffer, frameCount: 500)
            #expect(n == min(500, frames - target))
            let got = Array(UnsafeRawBufferPointer(buffer.region())[0..<(n * bytesPerFrame)])
            let expected = whole[(target * bytesPerFrame)..<((target + n) * bytesPerFrame)]
            if tolerance == 0 {
                #expect(got[...] == expected, "at frame \(target)")
            } else {
                let a = floats(got[...]), b = floats(expected)
                let channels = Int(client.channelsPerFrame)
                #expect(maxDifference(a, b, lag: 0, channels: channels) <= tolerance, "at frame \(target)")
                if n > 64 {
                    // The right alignment fits far better than one frame off either way.
                    let here = meanSquare(a, b, lag: 0, channels: channels)
                    for lag in [-1, 1] { #expect(here * 10 < meanSquare(a, b, lag: lag, channels: channels) || here == 0, "at frame \(target)") }
                }
            }
        }
        try reader.seek(toFrame: Int64(frames))
        buffer.frameLength = 0
        #expect(try reader.read(into: buffer, frameCount: 10) == 0)
        #expect(throws: ExtAudioFileError.self) { try reader.seek(toFrame: Int64(frames) + 1) }
    }
}
