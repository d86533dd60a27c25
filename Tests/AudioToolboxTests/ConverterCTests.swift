import AudioConverterServices
import AudioFileServices
import Foundation
import ProcessSupport
import Testing

/// Audio Converter Services and ExtAudioFile writing through the C API: programs written as
/// Mac programs are (C/converter_file.c after Learning Core Audio's chapter 6, C/ext_writer.c,
/// C/convert_buffer.c) built against libAudioToolbox.so, their output compared with what ffmpeg
/// and sox make of the same input.
@Suite("Audio Converter and ExtAudioFile writing in C")
struct ConverterCTests {
    static let converterFile = Result { try CPrograms.build("converter_file", sources: ["Tests/AudioToolboxTests/C/converter_file.c"]) }
    static let extWriter = Result { try CPrograms.build("ext_writer", sources: ["Tests/AudioToolboxTests/C/ext_writer.c"]) }
    static let convertBuffer = Result { try CPrograms.build("convert_buffer", sources: ["Tests/AudioToolboxTests/C/convert_buffer.c"]) }

    static func fixture(_ name: String) -> String { CPrograms.path("Tests/Fixtures/valid/\(name)") }

    /// Whether the sample-rate converter is there: until libsoxr's lands, the stand-in refuses
    /// every pair of rates ('fmt?'), and converters between two rates cannot be made.

    /// Runs `program`; its output, or a failure with what it printed.
    static func run(_ program: String, _ arguments: [String]) throws -> String {
        let r = try GuideTests.run(program, arguments)
        try #require(r.status == 0, "\(URL(fileURLWithPath: program).lastPathComponent) \(arguments.joined(separator: " ")): \(r.err)\(r.out)")
        return r.out
    }

    /// The raw bytes ffmpeg writes for `arguments` (input options and input) as `format`.
    static func ffmpeg(_ arguments: [String], format: String) throws -> Data {
        let out = GuideTests.scratchPath("ffmpeg.\(format)")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let r = try runProcess("/usr/bin/ffmpeg", ["-nostdin", "-v", "error", "-y"] + arguments + ["-f", format, "-c:a", "pcm_\(format)", out])
        try #require(r.status == 0, "ffmpeg \(arguments.joined(separator: " ")): \(r.err)")
        return try Data(contentsOf: URL(fileURLWithPath: out))
    }

    static func int16(_ data: Data) -> [Int16] {
        data.withUnsafeBytes { b in (0..<(b.count / 2)).map { Int16(littleEndian: b.loadUnaligned(fromByteOffset: $0 * 2, as: Int16.self)) } }
    }

    /// Signal-to-noise ratio of `test` against `reference`, in dB, over their common length.
    static func snr(_ reference: [Int16], _ test: [Int16]) -> Double {
        var signal = 0.0, noise = 0.0
        for (r, t) in zip(reference, test) {
            signal += Double(r) * Double(r)
            noise += (Double(r) - Double(t)) * (Double(r) - Double(t))
        }
        return noise == 0 ? .infinity : 10 * log10(signal / noise)
    }

    // MARK: AudioConverterFillComplexBuffer

    @Test(
        "The chapter-6 converter loop decodes PCM, µ-law, A-law and IMA4 files to 16-bit PCM as ffmpeg does, bit for bit",
        arguments: [
            "caf-pcm_s16be-2ch-44100.caf", "caf-pcm_f32le-1ch-44100.caf", "caf-pcm_mulaw-2ch-11025.caf", "wav-pcm_alaw-1ch-8000.wav",
            "caf-adpcm_ima_qt-2ch-44100.caf", "aifc-pcm_f32be-2ch-44100.aifc",
        ])
    func fillComplexBufferExact(_ name: String) throws {
        let out = GuideTests.scratchPath("converted.raw")
        defer { try? FileManager.default.removeItem(atPath: out) }
        _ = try Self.run(try Self.converterFile.get(), [Self.fixture(name), out])
        let converted = try Data(contentsOf: URL(fileURLWithPath: out))
        let reference = try Self.ffmpeg(["-i", Self.fixture(name)], format: "s16le")
        #expect(converted.count == reference.count, "\(converted.count) bytes, ffmpeg \(reference.count)")
        #expect(converted == reference, "first difference at byte \(zip(converted, reference).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? -1)")
    }

    @Test(
        "The chapter-6 loop decodes AAC and MP3 (variable packets, descriptions from the input callback) within rounding of ffmpeg's decode",
        arguments: ["caf-aac-2ch-48000.caf", "adts-aac-1ch-44100.aac", "wav-mp3-2ch-44100.wav"])
    func fillComplexBufferCompressed(_ name: String) throws {
        let out = GuideTests.scratchPath("converted.raw")
        defer { try? FileManager.default.removeItem(atPath: out) }
        _ = try Self.run(try Self.converterFile.get(), [Self.fixture(name), out])
        let converted = Self.int16(try Data(contentsOf: URL(fileURLWithPath: out)))
        let reference = Self.int16(try Self.ffmpeg(["-i", Self.fixture(name)], format: "s16le"))
        #expect(converted.count == reference.count, "\(converted.count) samples, ffmpeg \(reference.count)")
        let db = Self.snr(reference, converted)
        #expect(db > 90, "\(db) dB against ffmpeg's decode")
    }

    @Test("The chapter-6 loop converts 44.1 kHz to 48 kHz: round(N × 48000 / 44100) frames, as sox's resampler makes them")
    func fillComplexBufferResamples() throws {
        let input = Self.fixture("wav-pcm_s16le-2ch-44100.wav")
        let out = GuideTests.scratchPath("resampled.raw")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let printed = try Self.run(try Self.converterFile.get(), [input, out, "48000"])
        let converted = Self.int16(try Data(contentsOf: URL(fileURLWithPath: out)))
        let sox = GuideTests.scratchPath("sox.raw")
        defer { try? FileManager.default.removeItem(atPath: sox) }
        let r = try runProcess("/usr/bin/sox", ["-D", input, "-t", "raw", "-e", "signed", "-b", "16", "-L", sox, "rate", "-h", "48000"])
        try #require(r.status == 0, "sox: \(r.err)")
        let reference = Self.int16(try Data(contentsOf: URL(fileURLWithPath: sox)))
        #expect(converted.count == 2 * Int((4410.0 * 48000 / 44100).rounded()), "\(printed): \(converted.count / 2) frames")
        let db = Self.snr(reference, converted)
        #expect(db > 40, "\(db) dB against sox")
    }

    // MARK: AudioConverterConvertBuffer and ConvertComplexBuffer

    @Test("ConvertBuffer turns 16-bit PCM into Float32 as ffmpeg does and back unchanged; ConvertComplexBuffer de-interleaves the same samples")
    func convertBuffer() throws {
        let input = Self.fixture("wav-pcm_s16le-2ch-44100.wav")
        let raw = GuideTests.scratchPath("in.s16"), out = GuideTests.scratchPath("out.f32")
        defer { for p in [raw, out] { try? FileManager.default.removeItem(atPath: p) } }
        try Self.ffmpeg(["-i", input], format: "s16le").write(to: URL(fileURLWithPath: raw))
        _ = try Self.run(try Self.convertBuffer.get(), [raw, out, "2"])
        let converted = try Data(contentsOf: URL(fileURLWithPath: out))
        let reference = try Self.ffmpeg(["-i", input], format: "f32le")
        #expect(converted.count == reference.count && converted == reference, "Float32 samples differ from ffmpeg's")
    }

    // MARK: ExtAudioFile writing

    @Test(
        "ExtAudioFileWrite and WriteAsync write 16-bit WAVE and CAF from Float32 client frames as ffmpeg converts them",
        arguments: [("wave", false), ("caff", false), ("wave", true), ("caff", true)])
    func extAudioFileWrite(_ type: String, _ async: Bool) throws {
        let out = GuideTests.scratchPath("written.\(type == "wave" ? "wav" : "caf")")
        defer { for p in [out, out + ".f32"] { try? FileManager.default.removeItem(atPath: p) } }
        _ = try Self.run(try Self.extWriter.get(), ["create", out, type, "44100"] + (async ? ["async"] : []))
        let written = try Self.ffmpeg(["-i", out], format: "s16le")
        let reference = try Self.ffmpeg(["-f", "f32le", "-ar", "44100", "-ac", "2", "-i", out + ".f32"], format: "s16le")
        #expect(written.count == 44100 * 4, "\(written.count / 4) frames")
        #expect(written == reference, "the file's samples differ from ffmpeg's conversion of the client frames")
    }

    /// G.711 in CAF from Float32 client frames: ffmpeg decodes it to what it decodes its own
    /// encoding of the same frames to: the same level nearly everywhere, a neighbouring one
    /// where ffmpeg's tables put a segment's edge a step away from G.711's (G711EncodeTests).
    @Test("ExtAudioFileWrite writes µ-law and A-law CAF from Float32 client frames as ffmpeg's encoders do", arguments: ["ulaw", "alaw"])
    func extAudioFileWriteG711(_ law: String) throws {
        let out = GuideTests.scratchPath("written-\(law).caf")
        let theirs = GuideTests.scratchPath("ffmpeg-\(law).caf")
        defer { for p in [out, out + ".f32", theirs] { try? FileManager.default.removeItem(atPath: p) } }
        _ = try Self.run(try Self.extWriter.get(), ["create", out, law, "44100"])
        let probe = try runProcess("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "stream=codec_name", "-of", "csv=p=0", out])
        #expect(probe.out.trimmingCharacters(in: .whitespacesAndNewlines) == (law == "ulaw" ? "pcm_mulaw" : "pcm_alaw"))
        let encode = try runProcess("/usr/bin/ffmpeg", ["-nostdin", "-v", "error", "-y", "-f", "f32le", "-ar", "44100", "-ac", "2",
                                                        "-i", out + ".f32", "-c:a", law == "ulaw" ? "pcm_mulaw" : "pcm_alaw", theirs])
        try #require(encode.status == 0, "ffmpeg: \(encode.err)")
        let ours = Self.int16(try Self.ffmpeg(["-i", out], format: "s16le"))
        let reference = Self.int16(try Self.ffmpeg(["-i", theirs], format: "s16le"))
        #expect(ours.count == 44100 * 2 && reference.count == ours.count, "\(ours.count) and \(reference.count) samples")
        var differing = 0
        for (a, b) in zip(ours, reference) where a != b {
            differing += 1
            let (x, y) = (Int(a), Int(b))
            #expect(abs(x - y) <= max(abs(x), abs(y)) / 8 + 16, "\(x) and \(y)")
        }
        #expect(differing * 20 < ours.count, "\(differing) of \(ours.count) samples differ")
    }

    @Test("An IMA4 CAF written from non-interleaved Float32, its converter configured through kExtAudioFileProperty_AudioConverter, decodes in ffmpeg")
    func extAudioFileWriteIMA4() throws {
        let out = GuideTests.scratchPath("written-ima4.caf")
        defer { for p in [out, out + ".f32"] { try? FileManager.default.removeItem(atPath: p) } }
        _ = try Self.run(try Self.extWriter.get(), ["ima4", out, "44100"])
        let probe = try runProcess("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "stream=codec_name,channels,sample_rate", "-of", "csv=p=0", out])
        #expect(probe.out.trimmingCharacters(in: .whitespacesAndNewlines) == "adpcm_ima_qt,44100,2", "ffprobe: \(probe.out)\(probe.err)")
        let decoded = GuideTests.Audio(samples: try Self.floats(Self.ffmpeg(["-i", out], format: "f32le")), channels: 2)
        let reference = GuideTests.Audio(samples: try Self.floats(Data(contentsOf: URL(fileURLWithPath: out + ".f32"))), channels: 2)
        // 690 packets of 64 frames: the last one completed with silence.
        #expect(decoded.frames == 44160, "\(decoded.frames) frames decoded")
        for channel in 0..<2 {
            let db = GuideTests.snr(reference, decoded, channel: channel, frames: 44100)
            #expect(db > 25, "channel \(channel): \(db) dB")
        }
    }

    /// AAC through the C API: a 48 kHz client writing a 44.1 kHz M4A at 96 kb/s set through the
    /// file's converter. ffprobe reads AAC-LC at about that rate; the file says 2112 priming
    /// frames and round(N × 44100 / 48000) valid frames; ffmpeg's decode (which honours the edit
    /// list's start) is within 15 dB of ffmpeg's own resampling of the client frames.
    @Test("ExtAudioFile writes AAC in M4A from a 48 kHz client, its bit rate set through kExtAudioFileProperty_AudioConverter, its tags through kExtAudioFileProperty_AudioFile")
    func extAudioFileWriteAAC() throws {
        let out = GuideTests.scratchPath("written-aac.m4a")
        defer { for p in [out, out + ".f32"] { try? FileManager.default.removeItem(atPath: p) } }
        _ = try Self.run(try Self.extWriter.get(), ["aac", out, "96000", "96000"])
        let probe = try runProcess("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "stream=codec_name,profile,sample_rate,bit_rate", "-of", "csv=p=0", out])
        let fields = probe.out.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",").map(String.init)
        #expect(fields.prefix(3) == ["aac", "LC", "44100"], "ffprobe: \(probe.out)\(probe.err)")
        let tags = try runProcess("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "format_tags=title,artist", "-of", "csv=p=0", out])
        #expect(tags.out.trimmingCharacters(in: .whitespacesAndNewlines) == "ExtAudioFile title,ExtAudioFile artist", "\(tags.out)")
        if fields.count == 4, let rate = Double(fields[3]) {
            #expect(abs(rate - 96000) < 96000 * 0.2, "ffprobe says \(rate) bit/s")
        }
        let file = try AudioFile(path: out)
        let table = try #require(file.packetTableInfo)
        #expect(table.primingFrames == 2112)
        #expect(table.numberValidFrames == 88200, "96000 frames at 48 kHz are 88200 at 44.1 kHz")
        let decoded = GuideTests.Audio(samples: try Self.floats(Self.ffmpeg(["-i", out], format: "f32le")), channels: 2)
        let reference = GuideTests.Audio(samples: try Self.floats(Self.ffmpeg([
            "-f", "f32le", "-ar", "48000", "-ac", "2", "-i", out + ".f32", "-af", "aresample=44100:resampler=soxr",
        ], format: "f32le")), channels: 2)
        #expect(decoded.frames >= 88200 && decoded.frames < 88200 + 1024, "\(decoded.frames) frames decoded")
        for channel in 0..<2 {
            let db = GuideTests.snr(reference, decoded, channel: channel, from: 1024, frames: 86000)
            #expect(db > 15, "channel \(channel): \(db) dB")
        }
    }

    static func floats(_ data: Data) -> [Float] {
        data.withUnsafeBytes { b in (0..<(b.count / 4)).map { Float(bitPattern: UInt32(littleEndian: b.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self))) } }
    }

    @Test("ExtAudioFileWrapAudioFileID writes through the program's AudioFileID, which stays open for AudioFileClose")
    func wrapForWriting() throws {
        let out = GuideTests.scratchPath("wrapped.wav")
        defer { for p in [out, out + ".f32"] { try? FileManager.default.removeItem(atPath: p) } }
        _ = try Self.run(try Self.extWriter.get(), ["wrapwrite", out, "30000"])
        let written = try Self.ffmpeg(["-i", out], format: "s16le")
        let reference = try Self.ffmpeg(["-f", "f32le", "-ar", "44100", "-ac", "2", "-i", out + ".f32"], format: "s16le")
        #expect(written.count == 30000 * 4 && written == reference, "\(written.count / 4) frames; equal: \(written == reference)")
    }

    @Test("ExtAudioFileWrapAudioFileID reads an IMA4 file as 16-bit PCM as ffmpeg decodes it")
    func wrapForReading() throws {
        let input = Self.fixture("caf-adpcm_ima_qt-2ch-44100.caf")
        let out = GuideTests.scratchPath("wrapread.raw")
        defer { try? FileManager.default.removeItem(atPath: out) }
        _ = try Self.run(try Self.extWriter.get(), ["wrapread", input, out])
        let read = try Data(contentsOf: URL(fileURLWithPath: out))
        let reference = try Self.ffmpeg(["-i", input], format: "s16le")
        #expect(read.count == reference.count && read == reference, "\(read.count) bytes, ffmpeg \(reference.count)")
    }

    @Test("ExtAudioFile reads stereo as a mono client format (the left channel, as a Mac's converter takes it); FileLengthFrames stays in file frames")
    func readOtherChannelCount() throws {
        let input = Self.fixture("wav-pcm_s16le-2ch-44100.wav")
        let out = GuideTests.scratchPath("mono.raw")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let printed = try Self.run(try Self.extWriter.get(), ["resample", input, out, "44100", "1"])
        let read = Self.int16(try Data(contentsOf: URL(fileURLWithPath: out)))
        let stereo = Self.int16(try Self.ffmpeg(["-i", input], format: "s16le"))
        let left = stride(from: 0, to: stereo.count, by: 2).map { stereo[$0] }
        #expect(read == left, "\(printed): \(read.count) frames, the left channel has \(left.count)")
    }

    @Test("ExtAudioFile reads 44.1 kHz as a 48 kHz client format: Tell and Seek in client frames, FileLengthFrames in file frames")
    func readOtherRate() throws {
        let input = Self.fixture("wav-pcm_s16le-2ch-44100.wav")
        let out = GuideTests.scratchPath("48k.raw")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let printed = try Self.run(try Self.extWriter.get(), ["resample", input, out, "48000", "2"])
        #expect(printed.contains("frames \(Int((4410.0 * 48000 / 44100).rounded())) file 4410"), "\(printed)")
        let sox = GuideTests.scratchPath("sox48k.raw")
        defer { try? FileManager.default.removeItem(atPath: sox) }
        let r = try runProcess("/usr/bin/sox", ["-D", input, "-t", "raw", "-e", "signed", "-b", "16", "-L", sox, "rate", "-h", "48000"])
        try #require(r.status == 0, "sox: \(r.err)")
        let db = Self.snr(Self.int16(try Data(contentsOf: URL(fileURLWithPath: sox))), Self.int16(try Data(contentsOf: URL(fileURLWithPath: out))))
        #expect(db > 40, "\(db) dB against sox")
    }
}
