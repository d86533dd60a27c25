import AudioCodecFLAC
import AudioCodecs
import AudioCore
import AudioFileServices
import Foundation
import ProcessSupport
import Testing

/// Streams of every depth FLAC is asked for, 1 to 8 channels, 8 kHz to 384 kHz, none a whole
/// number of packets long.
let flacCases: [FLACCase] = [
    FLACCase(bits: 8, channels: 1, rate: 8000, frames: 8000 + 17),
    FLACCase(bits: 16, channels: 2, rate: 44100, frames: 44100 / 2 + 3),
    FLACCase(bits: 24, channels: 6, rate: 96000, frames: 20000),
    FLACCase(bits: 32, channels: 2, rate: 48000, frames: 12345),
    FLACCase(bits: 16, channels: 8, rate: 384_000, frames: 40000),
    FLACCase(bits: 20, channels: 2, rate: 192_000, frames: 9000),
    FLACCase(bits: 12, channels: 1, rate: 22050, frames: 4096),
]

@Suite("FLAC encoder") struct FLACEncoderTests {
    /// Our .flac file passes `flac -t` (which checks the MD5 of STREAMINFO) and `flac -d`
    /// decodes it to the very samples encoded.
    @Test(arguments: flacCases)
    func nativeFileRoundTrip(_ c: FLACCase) throws {
        try #require(have("/usr/bin/flac"), "flac is not installed")
        let samples = c.samples
        let input = c.packed(samples)
        let encoder = try FLACEncoder(input: c.integerFormat, output: c.flacFormat)
        let path = temporaryPath("rt.flac")
        let writer = try AudioFileWriter(path: path, type: .flac, format: encoder.outputFormat)
        try encode(input, frames: c.frames, with: encoder, to: writer)
        let test = try runProcess("/usr/bin/flac", ["-t", "-w", path])
        #expect(test.status == 0, "flac -t: \(test.err)")
        // flac writes raw samples of 8, 16, 24 and 32 bits; ffmpeg decodes the others to 32.
        let raw = [8, 16, 24, 32].contains(c.bits)
        let decoded = raw ? try flacDecode(path) : try ffmpegDecode(path, sampleFormat: "s32le")
        let expected = raw ? input : c.left32(samples)
        #expect(decoded.status == 0, "decoding: \(decoded.err)")
        #expect(decoded.bytes.count == expected.count)
        #expect(firstDifference(decoded.bytes, expected) == nil, "the decoder gives other samples")
        // STREAMINFO as libFLAC ended it: the sample count and a real MD5.
        let file = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let info = try #require(FLACStreamInfo(body: file[8...]))
        #expect(info.totalSamples == Int64(c.frames))
        #expect(info.md5 != [UInt8](repeating: 0, count: 16))
        #expect(info.bitsPerSample == c.bits && info.channels == c.channels && info.sampleRate == c.rate)
    }

    /// The same packets in CAF and in MPEG-4: ffprobe finds FLAC and every sample, and ffmpeg
    /// decodes them to the samples encoded.
    @Test(arguments: [AudioFileType.caf, .m4a], [flacCases[1], flacCases[2]])
    func containers(_ type: AudioFileType, _ c: FLACCase) throws {
        try #require(have("/usr/bin/ffprobe"), "ffmpeg is not installed")
        let samples = c.samples
        let encoder = try FLACEncoder(input: c.integerFormat, output: c.flacFormat)
        let path = temporaryPath(type == .caf ? "rt.caf" : "rt.m4a")
        let writer = try AudioFileWriter(path: path, type: type, format: encoder.outputFormat)
        try encode(c.packed(samples), frames: c.frames, with: encoder, to: writer)
        let probe = try ffprobe(path)
        #expect(probe.codec == "flac")
        // ffmpeg's CAF reader counts whole packets (it leaves the pakt remainder to the FLAC
        // decoder, whose last block is short); its decoding below checks the exact count.
        let counted = type == .caf ? Int64((c.frames + 4095) / 4096 * 4096) : Int64(c.frames)
        #expect(probe.samples == counted, "ffprobe counts \(probe.samples.map(String.init) ?? "nil") samples")
        let sampleFormat = c.bits == 16 ? "s16le" : "s32le"
        let decoded = try ffmpegDecode(path, sampleFormat: sampleFormat)
        #expect(decoded.status == 0, "ffmpeg: \(decoded.err)")
        let expected = c.bits == 16 ? c.packed(samples) : c.left32(samples)
        #expect(firstDifference(decoded.bytes, expected) == nil, "ffmpeg decodes other samples")
    }

    /// Float32 input (what the converter gives) is rounded to the depth: a 24-bit source
    /// carried in Float32 comes back exactly.
    @Test func floatInputIsExactForTwentyFourBits() throws {
        try #require(have("/usr/bin/flac"), "flac is not installed")
        let c = FLACCase(bits: 24, channels: 2, rate: 48000, frames: 10000)
        let samples = c.samples
        var floats = samples.map { Float($0) / Float(1 << 23) }
        let input = floats.withUnsafeMutableBytes { Array($0) }
        let encoder = try FLACEncoder(input: AudioEncoders.inputFormat(for: c.flacFormat), output: c.flacFormat)
        let path = temporaryPath("float.flac")
        let writer = try AudioFileWriter(path: path, type: .flac, format: encoder.outputFormat)
        try encode(input, frames: c.frames, with: encoder, to: writer)
        #expect(try runProcess("/usr/bin/flac", ["-t", "-s", path]).status == 0)
        #expect(firstDifference(try flacDecode(path).bytes, c.packed(samples)) == nil)
    }

    /// What Apple's encoder reports: 4096 frames per packet, the source depth in the flags, a
    /// 42-byte dfLa cookie; the remainder of the last packet and no priming.
    @Test func describesItselfAsApplesEncoder() throws {
        let c = FLACCase(bits: 16, channels: 2, rate: 44100, frames: 5000)
        let encoder = try FLACEncoder(input: c.integerFormat, output: c.flacFormat)
        #expect(encoder.outputFormat.framesPerPacket == 4096)
        #expect(encoder.outputFormat.formatFlags.rawValue == 1)
        #expect(encoder.outputFormat.bytesPerPacket == 0 && encoder.outputFormat.bitsPerChannel == 0)
        #expect(encoder.primingFrames == 0 && encoder.hasDelay)
        let cookie = try #require(encoder.magicCookie)
        #expect(cookie.count == 50 && Array(cookie[0..<16]) == [0, 0, 0, 50] + Array("dfLa".utf8) + [0, 0, 0, 0, 0x80, 0, 0, 34])
        let path = temporaryPath("apple.caf")
        let writer = try AudioFileWriter(path: path, type: .caf, format: encoder.outputFormat)
        try encode(c.packed(c.samples), frames: c.frames, with: encoder, to: writer)
        let file = try AudioFile(path: path)
        let table = try #require(file.packetTableInfo)
        #expect(Int(table.remainderFrames) == 2 * 4096 - 5000)
        #expect(table.numberValidFrames == 5000)
        #expect(file.magicCookie.flatMap(FLACStreamInfo.init(magicCookie:))?.totalSamples == 5000)
    }

    @Test func qualityMapsToLevels() {
        #expect(FLACEncoder.level(forQuality: 0) == 0)
        #expect(FLACEncoder.level(forQuality: 0x20) == 2)
        #expect(FLACEncoder.level(forQuality: 0x40) == 4)
        #expect(FLACEncoder.level(forQuality: 0x60) == 5)
        #expect(FLACEncoder.level(forQuality: 0x7F) == 8)
        #expect(FLACEncoder.level(forQuality: 1000) == 8)
    }

    /// Higher levels compress at least as well as lower ones on the same audio.
    @Test func levelChangesSize() throws {
        let c = FLACCase(bits: 16, channels: 2, rate: 44100, frames: 30000)
        var sizes: [Int64] = []
        for quality in [0, 0x7F] {
            let encoder = try FLACEncoder(input: c.integerFormat, output: c.flacFormat)
            try encoder.setQuality(quality)
            let path = temporaryPath("q.flac")
            let writer = try AudioFileWriter(path: path, type: .flac, format: encoder.outputFormat)
            try encode(c.packed(c.samples), frames: c.frames, with: encoder, to: writer)
            sizes.append(try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int64))
        }
        #expect(sizes[1] < sizes[0], "level 8 gave \(sizes[1]) bytes, level 0 \(sizes[0])")
    }

    /// Formats FLAC cannot hold, or inputs the encoder does not read, are 'fmt?', never a trap.
    @Test func misuseIsFormatNotSupported() {
        let good = FLACCase(bits: 16, channels: 2, rate: 44100, frames: 0)
        var outputs: [AudioStreamBasicDescription] = []
        var o = good.flacFormat; o.channelsPerFrame = 9; outputs.append(o)
        o = good.flacFormat; o.channelsPerFrame = 0; outputs.append(o)
        o = good.flacFormat; o.sampleRate = 700_000; outputs.append(o)
        o = good.flacFormat; o.sampleRate = 44100.5; outputs.append(o)
        o = good.flacFormat; o.formatFlags = []; o.bitsPerChannel = 33; outputs.append(o)
        o = good.flacFormat; o.formatFlags = []; o.bitsPerChannel = 3; outputs.append(o)
        o = good.flacFormat; o.framesPerPacket = 8; outputs.append(o)
        o = good.flacFormat; o.bytesPerPacket = 100; outputs.append(o)
        o = good.flacFormat; o.formatID = .appleLossless; outputs.append(o)
        for output in outputs {
            var input = good.integerFormat
            input.channelsPerFrame = output.channelsPerFrame
            #expect(throws: AudioCodecError.self) { _ = try FLACEncoder(input: input, output: output) }
            do { _ = try FLACEncoder(input: input, output: output) } catch { #expect(error.code == .formatNotSupported, "\(output)") }
        }
        var inputs: [AudioStreamBasicDescription] = []
        var i = good.integerFormat; i.bitsPerChannel = 24; i.bytesPerFrame = 6; i.bytesPerPacket = 6; inputs.append(i)
        i = good.integerFormat; i.formatFlags = [.isPacked]; inputs.append(i)  // unsigned
        i = good.integerFormat; i.formatFlags.insert(.isNonInterleaved); i.bytesPerFrame = 2; i.bytesPerPacket = 2; inputs.append(i)
        i = good.integerFormat; i.sampleRate = 48000; inputs.append(i)
        i = good.integerFormat; i.formatID = .flac; inputs.append(i)
        i = .linearPCM(sampleRate: 44100, channels: 2, bitsPerChannel: 64, isFloat: true); inputs.append(i)
        for input in inputs {
            do { _ = try FLACEncoder(input: input, output: good.flacFormat); Issue.record("accepted \(input)") } catch {
                #expect(error.code == .formatNotSupported, "\(input)")
            }
        }
    }

    /// Wrong sizes give the seam's codes with nothing written.
    @Test func sizeMisuse() throws {
        let c = FLACCase(bits: 16, channels: 2, rate: 44100, frames: 0)
        let encoder = try FLACEncoder(input: c.integerFormat, output: c.flacFormat)
        var out = [UInt8](repeating: 0, count: encoder.maximumPacketSize * 4)
        var d = [AudioStreamPacketDescription](repeating: .init(startOffset: 0, dataByteSize: 0), count: 4)
        let input = [UInt8](repeating: 0, count: 4 * 10000)
        func run(_ frames: Int, outCount: Int, descriptions: Int) -> AudioCodecError.Code? {
            do {
                _ = try input.withUnsafeBytes { raw in
                    try out.withUnsafeMutableBytes { o in
                        try d.withUnsafeMutableBufferPointer { dd in
                            try encoder.encode(raw, frameCount: frames, into: UnsafeMutableRawBufferPointer(rebasing: o[0..<outCount]),
                                               packetDescriptions: UnsafeMutableBufferPointer(rebasing: dd[0..<descriptions]))
                        }
                    }
                }
                return nil
            } catch { return (error as? AudioCodecError)?.code }
        }
        #expect(run(-1, outCount: out.count, descriptions: 4) == .invalidInputSize)
        #expect(run(10001, outCount: out.count, descriptions: 4) == .invalidInputSize)
        #expect(run(9000, outCount: 10, descriptions: 4) == .invalidOutputSize)
        #expect(run(9000, outCount: out.count, descriptions: 1) == .requiresPacketDescriptions)
        #expect(run(9000, outCount: out.count, descriptions: 4) == nil)
    }
}
