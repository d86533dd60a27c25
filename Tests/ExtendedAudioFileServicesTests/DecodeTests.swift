import Foundation
import Testing
import ProcessSupport
import AudioCore
import AudioFileServices
import AudioCodecs
import AudioCodecFAAD
import ExtendedAudioFileServices

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
    @Test(arguments: Fixtures.bitExact)
    func bitExactWithFFmpeg(name: String) throws {
        let expected = try Fixtures.ffmpegCRC(name)
        let (bytes, frames, reader) = try decodeAll(Fixtures.path(name))
        #expect(Int64(frames) == reader.fileLengthFrames)
        var sum = Adler32()
        bytes.withUnsafeBytes { sum.update($0) }
        #expect(sum.value == expected, "Adler-32 of \(frames) frames")
    }

    @Test(arguments: Fixtures.undecodable)
    func unsupportedFormatsSayFmt(name: String) {
        do {
            _ = try ExtAudioFile(path: Fixtures.path(name))
            Issue.record("opened \(name) for decoding")
        } catch {
            #expect(error.status == AudioFileError.Code.unsupportedDataFormat.rawValue)
        }
    }

    /// A header claiming packets of billions of frames and bytes (a fuzz finding) is refused
    /// before any buffer is sized from it.
    @Test func absurdPacketSizesAreUnsupported() {
        let path = Fixtures.root.appendingPathComponent("fuzz-regressions/caf-aac-huge-constant-packets.caf").path
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
        let (whole, frames, _) = try decodeAll(Fixtures.path(name))
        let reader = try ExtAudioFile(path: Fixtures.path(name))
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
