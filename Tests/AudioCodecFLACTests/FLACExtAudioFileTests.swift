import AudioCodecFLAC
import AudioCodecs
import AudioCore
import AudioFileServices
import ExtendedAudioFileServices
import Foundation
import ProcessSupport
import Testing

/// ExtAudioFile writing FLAC: client PCM through the converter into the encoder, and the
/// files completed at close (STREAMINFO with the MD5, cookie, packet table).
@Suite("FLAC through ExtAudioFile") struct FLACExtAudioFileTests {
    init() { FLACEncoder.register() }

    /// 16-, 24- and 32-bit client PCM written to .flac, .caf and .m4a comes back bit for bit
    /// from flac and ffmpeg (32-bit clients reach the encoder as they are, not as Float32).
    @Test(arguments: [AudioFileType.flac, .caf, .m4a], [16, 24, 32])
    func lossless(_ type: AudioFileType, _ bits: Int) throws {
        try #require(have("/usr/bin/flac") && have("/usr/bin/ffmpeg"), "flac or ffmpeg is not installed")
        let c = FLACCase(bits: bits, channels: 2, rate: 48000, frames: 30011)
        let samples = c.samples
        let input = c.packed(samples)
        let name = type == .flac ? "x.flac" : type == .caf ? "x.caf" : "x.m4a"
        let path = temporaryPath(name)
        let writer = try ExtAudioFileWriter(path: path, type: type, format: c.flacFormat)
        try writer.setClientDataFormat(c.integerFormat)
        // Uneven writes, as a program's buffers come.
        var at = 0
        for n in [1, 4095, 4096, 10000, 333] + [Int](repeating: 5000, count: 10) where at < c.frames {
            let m = min(n, c.frames - at)
            try input.withUnsafeBytes { raw in
                try writer.write(frameCount: m, buffers: [UnsafeRawBufferPointer(rebasing: raw[(at * c.word * 2)..<((at + m) * c.word * 2)])])
            }
            at += m
        }
        try writer.close()
        if type == .flac {
            let test = try runProcess("/usr/bin/flac", ["-t", "-w", path])
            #expect(test.status == 0, "flac -t: \(test.err)")
            let decoded = try flacDecode(path)
            #expect(firstDifference(decoded.bytes, input) == nil, "flac -d gives other samples")
        }
        #expect(try ffprobe(path).codec == "flac")
        // ffmpeg 5 does not decode 32-bit FLAC (its sample size code came with FLAC 1.4); flac
        // has checked the .flac file.
        guard bits < 32 else { return }
        let decoded = try ffmpegDecode(path, sampleFormat: bits == 16 ? "s16le" : "s32le")
        #expect(decoded.status == 0, "ffmpeg: \(decoded.err)")
        #expect(firstDifference(decoded.bytes, bits == 16 ? input : c.left32(samples)) == nil, "ffmpeg decodes other samples")
    }

    /// A format FLAC cannot encode is the converter's 'fmt?', before any file is made.
    @Test func unsupportedFormatIsFmt() {
        var format = FLACCase(bits: 16, channels: 9, rate: 44100, frames: 0).flacFormat
        let path = temporaryPath("bad.flac")
        do {
            _ = try ExtAudioFileWriter(path: path, type: .flac, format: format)
            Issue.record("9 channels accepted")
        } catch {
            #expect(error.status == 0x666D_743F, "\(error)")
        }
        #expect(!FileManager.default.fileExists(atPath: path))
        format.channelsPerFrame = 2
        format.sampleRate = 1_000_000
        do {
            _ = try ExtAudioFileWriter(path: path, type: .flac, format: format)
            Issue.record("1 MHz accepted")
        } catch {
            #expect(error.status == 0x666D_743F, "\(error)")
        }
    }
}
