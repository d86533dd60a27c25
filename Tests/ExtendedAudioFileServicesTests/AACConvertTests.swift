import Foundation
import Testing
import AudioCore
import AudioFileServices

/// ffmpeg's decode of an AAC fixture (Scripts/fixtures/make_aac_refs.sh): every frame the
/// packets decode to, interleaved Float32, with no priming trimmed.
func ffmpegAACReference(_ name: String) throws -> [Float] {
    let url = Refs.fixtures.appendingPathComponent("aac-refs").appendingPathComponent(name + ".f32")
    let data = try Data(contentsOf: url)
    return data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
}

/// Signal-to-noise ratio in dB of `test` against `reference` for one channel.
func snr(_ reference: ArraySlice<Float>, _ test: ArraySlice<Float>, channel: Int, channels: Int) -> Double {
    var signal = 0.0, noise = 0.0
    var i = channel
    while i < reference.count && i < test.count {
        let r = Double(reference[reference.startIndex + i]), t = Double(test[test.startIndex + i])
        signal += r * r
        noise += (r - t) * (r - t)
        i += channels
    }
    if noise == 0 { return .infinity }
    return 10 * log10(max(signal, 1e-30) / noise)
}

@Suite("afconvert of AAC")
struct AACConvertTests {
    static let names = Refs.names.filter { $0.hasSuffix(".aac") || $0.hasPrefix("caf-aac") }

    /// `afconvert -f WAVE -d LEF32` of every AAC fixture: exactly `validFrames` frames where the
    /// file has a packet table (priming and remainder trimmed), packets × 1024 otherwise, and
    /// within 60 dB of ffmpeg's decode of the same frames, sample-aligned.
    @Test(arguments: names)
    func matchesFFmpegTrimmed(name: String) throws {
        let source = try AudioFile(path: Refs.path(name))
        let channels = Int(source.dataFormat.channelsPerFrame)
        let reference = try ffmpegAACReference(name)
        let out = temporaryPath(name + ".wav")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let result = try run(afconvert, ["-f", "WAVE", "-d", "LEF32", Refs.path(name), out])
        #expect(result.status == 0, "\(result.err)")
        let converted = try AudioFile(path: out)
        let samples = try converted.readBytes(at: 0, count: Int(converted.dataByteCount)).withUnsafeBytes {
            Array($0.bindMemory(to: Float.self))
        }
        let frames = samples.count / channels
        let start: Int
        if let table = source.packetTableInfo {
            #expect(Int64(frames) == table.numberValidFrames)
            start = Int(table.primingFrames)
        } else {
            #expect(Int64(frames) == source.packetCount * 1024)
            start = 0
        }
        #expect(reference.count / channels == Int(source.packetCount) * 1024, "ffmpeg decodes every frame")
        let expected = reference[(start * channels)..<min(reference.count, (start + frames) * channels)]
        for channel in 0..<channels {
            let db = snr(expected, samples[...], channel: channel, channels: channels)
            #expect(db >= 60, "channel \(channel): \(db) dB")
        }
        // One frame off in either direction is far worse: the alignment is exact.
        if frames > 2 {
            let shifted = snr(expected.dropFirst(channels), samples[...], channel: 0, channels: channels)
            #expect(shifted < snr(expected, samples[...], channel: 0, channels: channels) - 10)
        }
    }
}
