import Foundation
import Testing
import AudioCore
import AudioFileServices
import AudioTestSupport
import ProcessSupport

/// MP3 files end to end: the MPEG audio reader's packet table (LAME's delay and padding, the
/// decoder's 529 frames) and libmpg123 through aqplay, against ffmpeg, which applies LAME's
/// delay and padding itself.
@Suite("MP3 playback")
struct MP3PlaybackTests {
    static let directory = Fixtures.root.appendingPathComponent("mp3")

    /// ffmpeg's float decode of a file, interleaved.
    static func ffmpegDecode(_ path: String) throws -> [Float] {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("mp3ref-\(getpid())-\(UUID().uuidString).f32").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        let r = try runProcess("/usr/bin/ffmpeg", ["-nostdin", "-v", "error", "-y", "-i", path, "-f", "f32le", out])
        guard r.status == 0 else { throw CocoaError(.fileReadUnknown) }
        let data = try Data(contentsOf: URL(fileURLWithPath: out))
        return data.withUnsafeBytes { raw in
            (0..<(raw.count / 4)).map { Float(bitPattern: UInt32(littleEndian: raw.load(fromByteOffset: $0 * 4, as: UInt32.self))) }
        }
    }

    /// `--offline` once and `--loops 3`: exactly the valid frames of the LAME tag (once and three
    /// times), and ffmpeg's gapless decode sample for sample within 60 dB, seams included.
    @Test(arguments: ["cbr-128k-2ch-44100.mp3", "vbr-q4-2ch-44100.mp3", "mpeg2-32k-1ch-22050.mp3"])
    func playsGaplesslyAsFFmpegDecodes(name: String) throws {
        let path = Self.directory.appendingPathComponent(name).path
        let file = try AudioFile(path: path)
        let table = try #require(file.packetTableInfo, "the LAME tag gives a packet table")
        let channels = Int(file.dataFormat.channelsPerFrame)
        let reference = try Self.ffmpegDecode(path)
        #expect(reference.count / channels == Int(table.numberValidFrames), "ffmpeg's gapless decode is the valid frames")
        for loops in [1, 3] {
            let out = FileManager.default.temporaryDirectory.appendingPathComponent("aqplay-mp3-\(getpid())-\(loops)-\(name).wav").path
            defer { try? FileManager.default.removeItem(atPath: out) }
            let result = try runProcess(aqplay, ["--loops", "\(loops)", "--offline", out, path])
            #expect(result.status == 0, "\(result.err)")
            let rendered = try AqplayTests.floats(out).samples
            #expect(rendered.count == loops * reference.count, "\(rendered.count / channels) frames for \(loops) × \(table.numberValidFrames)")
            guard rendered.count == loops * reference.count else { continue }
            let looped = Array([[Float]](repeating: reference, count: loops).joined())
            for c in 0..<channels {
                let db = snr(reference: looped, refChannels: channels, refChannel: c, test: rendered, testChannels: channels, testChannel: c)
                #expect(db > 60, "\(name) × \(loops), channel \(c): \(db) dB")
                for seam in 1..<loops {
                    let at = seam * reference.count / channels
                    let around = snr(reference: looped, refChannels: channels, refChannel: c, test: rendered, testChannels: channels,
                                     testChannel: c, from: at - 2048, frames: 4096)
                    #expect(around > 60, "\(name) seam \(seam), channel \(c): \(around) dB")
                }
            }
        }
    }

    /// MPEG audio in WAVE (ffmpeg's WAVE muxer, tags 0x0055 and 0x0050) plays offline as ffmpeg
    /// decodes it: every frame (no gapless information), within 60 dB.
    @Test(arguments: ["stereo-44100-128k-in.wav", "mono-22050-48k-in.wav", "stereo-48000-192k-in.wav"])
    func playsMPEGInWAVE(name: String) throws {
        let path = Fixtures.root.appendingPathComponent("mp3-refs/\(name)").path
        let file = try AudioFile(path: path)
        #expect([AudioFormatID.mpegLayer3, .mpegLayer2].contains(file.dataFormat.formatID))
        let channels = Int(file.dataFormat.channelsPerFrame)
        let reference = try Self.ffmpegDecode(path)
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("aqplay-mpeg-wave-\(getpid())-\(name)").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        let result = try runProcess(aqplay, ["--offline", out, path])
        #expect(result.status == 0, "\(result.err)")
        let rendered = try AqplayTests.floats(out).samples
        #expect(rendered.count == reference.count, "\(rendered.count / channels) frames, ffmpeg \(reference.count / channels)")
        for c in 0..<channels {
            let db = snr(reference: reference, refChannels: channels, refChannel: c, test: rendered, testChannels: channels, testChannel: c)
            #expect(db > 60, "\(name), channel \(c): \(db) dB")
        }
    }
}
