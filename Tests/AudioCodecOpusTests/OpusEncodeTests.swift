import Foundation
import Testing
import ProcessSupport
import AudioCore
import AudioCodecs
import AudioCodecOpus
import AudioFileServices
import ExtendedAudioFileServices

/// Opus encoding: the encoder through ExtAudioFile into Ogg, CAF and MPEG-4 files, each checked
/// with tools nobody here wrote (ffmpeg, ffprobe, opusinfo, opusdec) and against opusenc's own
/// output for the same input.
@Suite("Opus encoding")
struct OpusEncodeTests {
    init() {
        OpusEncoder.register()
        OpusDecoder.register()
    }

    // MARK: Tools and signals

    static func have(_ tool: String) -> Bool { FileManager.default.isExecutableFile(atPath: tool) }
    static var haveTools: Bool { ["/usr/bin/ffmpeg", "/usr/bin/ffprobe", "/usr/bin/sox", "/usr/bin/opusenc", "/usr/bin/opusinfo"].allSatisfy(have) }

    /// A fresh temporary directory's path for `name`.
    static func temporaryPath(_ name: String) -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("opusenc-\(getpid())-\(UUID().uuidString.prefix(8))")
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir.appendingPathComponent(name).path
    }

    /// A music-like 16-bit WAVE made by sox: two tones and a sweep over pink noise, `seconds`
    /// long at `rate` Hz, `channels` channels.
    static func source(rate: Int, channels: Int = 2, seconds: Double) throws -> String {
        let path = temporaryPath("source-\(rate)-\(channels).wav")
        let d = String(seconds)
        let tones = channels == 1 ? ["sine", "440"] : ["sine", "440", "sine", "659"]
        let r = try runProcess("/usr/bin/sox", [
            "-m",
            "-v", "0.35", "|sox -n -r \(rate) -c \(channels) -p synth \(d) " + tones.joined(separator: " "),
            "-v", "0.25", "|sox -n -r \(rate) -c \(channels) -p synth \(d) sine 150-6000",
            "-v", "0.2", "|sox -n -r \(rate) -c \(channels) -p synth \(d) pinknoise",
            "-b", "16", path,
        ])
        guard r.status == 0 else { throw ReferenceToolError("sox: \(r.err)") }
        return path
    }

    /// ffmpeg's decode of `path` as interleaved Float32 at 48 kHz (pre-skip and end trimming
    /// applied by ffmpeg).
    static func ffmpegFloat(_ path: String) throws -> [Float] {
        let raw = path + ".ff.f32"
        let r = try runProcess("/usr/bin/ffmpeg", ["-v", "error", "-y", "-i", path, "-f", "f32le", "-ar", "48000", raw])
        guard r.status == 0, let data = FileManager.default.contents(atPath: raw) else { throw ReferenceToolError("ffmpeg: \(r.err)") }
        return data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }

    /// The source WAVE's samples as ffmpeg reads them (interleaved Float32 at its own rate).
    static func sourceFloat(_ path: String) throws -> [Float] {
        let raw = path + ".src.f32"
        let r = try runProcess("/usr/bin/ffmpeg", ["-v", "error", "-y", "-i", path, "-f", "f32le", raw])
        guard r.status == 0, let data = FileManager.default.contents(atPath: raw) else { throw ReferenceToolError("ffmpeg: \(r.err)") }
        return data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }

    /// The best SNR (dB) of `decoded` against `source` over lags of -480…480 frames: a measure a
    /// wrong pre-skip cannot hide, and that does not blame a codec for a delay.
    static func alignedSNR(_ decoded: [Float], _ source: [Float], channels: Int) -> (snr: Double, lag: Int) {
        var best = (snr: -Double.infinity, lag: 0)
        let frames = min(decoded.count, source.count) / channels
        for lag in stride(from: -480, through: 480, by: 1) {
            var signal = 0.0, noise = 0.0
            var i = max(0, -lag)
            while i < frames - max(0, lag) {
                for c in 0..<channels {
                    let s = Double(source[i * channels + c]), d = Double(decoded[(i + lag) * channels + c])
                    signal += s * s
                    noise += (s - d) * (s - d)
                }
                i += 7  // a sparse pass is enough to find the lag
            }
            let value = noise == 0 ? 999 : 10 * log10(signal / noise)
            if value > best.snr { best = (value, lag) }
        }
        var signal = 0.0, noise = 0.0
        let lag = best.lag
        for i in max(0, -lag)..<(frames - max(0, lag)) {
            for c in 0..<channels {
                let s = Double(source[i * channels + c]), d = Double(decoded[(i + lag) * channels + c])
                signal += s * s
                noise += (s - d) * (s - d)
            }
        }
        return (noise == 0 ? 999 : 10 * log10(signal / noise), lag)
    }

    /// Writes the WAVE at `source` to `path` as Opus in a file of `type` through ExtAudioFile,
    /// the client format the source's own (Float32 at its rate), in uneven writes.
    static func encode(_ source: String, to path: String, type: AudioFileType, bitRate: Int? = nil) throws {
        let reader = try ExtAudioFile(path: source)
        let channels = Int(reader.fileDataFormat.channelsPerFrame)
        let rate = reader.fileDataFormat.sampleRate
        let client = AudioStreamBasicDescription.linearPCM(sampleRate: rate, channels: UInt32(channels), bitsPerChannel: 32, isFloat: true)
        try reader.setClientDataFormat(client)
        let writer = try ExtAudioFileWriter(path: path, type: type, format: .opus(sampleRate: rate, channels: channels))
        try writer.setClientDataFormat(client)
        if let bitRate { try writer.converter?.setEncodeBitRate(bitRate) }
        for n in [1, 959, 961, 5000, 7000, 333].cycled() {
            let samples = try reader.read(frameCount: n, as: Float.self)
            if samples.isEmpty { break }
            try samples.withUnsafeBytes { raw in try writer.write(frameCount: samples.count / channels, buffers: [raw]) }
        }
        try writer.close()
    }

    /// opusenc's file for `source` at `kbps` kb/s.
    static func opusenc(_ source: String, kbps: Int? = nil) throws -> String {
        let out = source + ".opusenc.opus"
        let r = try runProcess("/usr/bin/opusenc", ["--quiet"] + (kbps.map { ["--bitrate", String($0)] } ?? []) + [source, out])
        guard r.status == 0 else { throw ReferenceToolError("opusenc: \(r.err)") }
        return out
    }

    /// What opusinfo says of `path`: its status, its whole report, and the pre-skip it reads.
    static func opusinfo(_ path: String) throws -> (status: Int32, text: String, preSkip: Int?) {
        let r = try runProcess("/usr/bin/opusinfo", [path])
        let line = r.out.split(separator: "\n").first { $0.contains("Pre-skip:") }
        let preSkip = line.flatMap { Int($0.split(separator: ":").last!.trimmingCharacters(in: .whitespaces)) }
        return (r.status, r.out + r.err, preSkip)
    }

    /// The pages of an Ogg file: flags, granule position and packets ending on each.
    static func pages(_ path: String) throws -> [(flags: UInt8, granule: Int64, packets: Int)] {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        var out: [(UInt8, Int64, Int)] = []
        var p = 0
        while p + 27 <= bytes.count {
            guard bytes[p..<(p + 4)].elementsEqual("OggS".utf8) else { throw ReferenceToolError("no page at \(p)") }
            var granule: UInt64 = 0
            for i in 0..<8 { granule |= UInt64(bytes[p + 6 + i]) << (8 * UInt64(i)) }
            let n = Int(bytes[p + 26])
            let lacing = bytes[(p + 27)..<(p + 27 + n)]
            out.append((bytes[p + 5], Int64(bitPattern: granule), lacing.filter { $0 < 255 }.count))
            p += 27 + n + lacing.reduce(0) { $0 + Int($1) }
        }
        return out
    }

    // MARK: Tests

    /// A 48 kHz source written to Ogg, CAF and MPEG-4 reads back through ExtAudioFile at exactly
    /// its own length. ffmpeg decodes it as it decodes its own file of that container made
    /// from the same source (`-c:a libopus`): Ogg trimmed at both ends, MPEG-4 with the pre-skip
    /// dropped and the last packet whole, CAF untrimmed; the same length and the same lag.
    @Test(arguments: [AudioFileType.ogg, .caf, .m4a])
    func exactLength(_ type: AudioFileType) throws {
        try #require(Self.haveTools, "ffmpeg, sox or opus-tools is not installed")
        let source = try Self.source(rate: 48000, seconds: 1.013)
        let name = type == .ogg ? "x.opus" : type == .caf ? "x.caf" : "x.m4a"
        let path = Self.temporaryPath(name)
        try Self.encode(source, to: path, type: type)
        let original = try Self.sourceFloat(source)
        let decoded = try Self.ffmpegFloat(path)
        let reference = path + ".ffmpeg." + (type == .m4a ? "mp4" : name)  // ffmpeg's ipod (.m4a) muxer takes no Opus
        let made = try runProcess("/usr/bin/ffmpeg", ["-v", "error", "-y", "-i", source, "-c:a", "libopus", reference])
        #expect(made.status == 0, "ffmpeg: \(made.err)")
        let theirs = try Self.ffmpegFloat(reference)
        #expect(decoded.count == theirs.count, "ffmpeg decodes \(decoded.count / 2) frames; its own file \(theirs.count / 2)")
        if type == .ogg { #expect(decoded.count == original.count) }
        let quality = Self.alignedSNR(decoded, original, channels: 2)
        let theirQuality = Self.alignedSNR(theirs, original, channels: 2)
        #expect(quality.lag == theirQuality.lag, "the decode is \(quality.lag) frames off the source; ffmpeg's own \(theirQuality.lag)")
        #expect(quality.snr > 5, "SNR \(quality.snr) dB")
        let reader = try ExtAudioFile(path: path)
        #expect(reader.fileLengthFrames * 2 == Int64(original.count))
        #expect(reader.fileDataFormat.sampleRate == 48000 && reader.fileDataFormat.framesPerPacket == 960)
    }

    /// The Ogg file passes opusinfo, opusdec decodes it to the source's length, its pre-skip is
    /// opusenc's, and its pages are laid as opusenc lays them: OpusHead alone on a first page
    /// marked beginning of stream, OpusTags on the next, a second of packets a page, the last
    /// page marked end of stream with its granule position trimmed to the source's end.
    @Test func oggStreamAsOpusencWritesIt() throws {
        try #require(Self.haveTools && Self.have("/usr/bin/opusdec"), "ffmpeg, sox or opus-tools is not installed")
        let source = try Self.source(rate: 48000, seconds: 3.3)
        let path = Self.temporaryPath("x.opus")
        try Self.encode(source, to: path, type: .ogg)
        let info = try Self.opusinfo(path)
        #expect(info.status == 0, "\(info.text)")
        #expect(!info.text.contains("WARNING") && !info.text.contains("ERROR"), "\(info.text)")
        let reference = try Self.opusenc(source)
        let referenceInfo = try Self.opusinfo(reference)
        #expect(info.preSkip != nil && info.preSkip == referenceInfo.preSkip)

        let ours = try Self.pages(path), theirs = try Self.pages(reference)
        #expect(ours.count == theirs.count, "\(ours.count) pages; opusenc writes \(theirs.count)")
        #expect(ours.map(\.packets) == theirs.map(\.packets))
        #expect(ours.map(\.granule) == theirs.map(\.granule))
        #expect(ours.map(\.flags) == theirs.map(\.flags))

        let wav = path + ".opusdec.wav"
        let dec = try runProcess("/usr/bin/opusdec", ["--quiet", "--rate", "48000", path, wav])
        #expect(dec.status == 0, "opusdec: \(dec.err)")
        let decoded = try Self.sourceFloat(wav)
        let original = try Self.sourceFloat(source)
        #expect(decoded.count == original.count, "opusdec decodes \(decoded.count / 2) frames of \(original.count / 2)")
    }

    /// 44.1 kHz input is resampled to 48 kHz: the file is 48 kHz, ffprobe and ffmpeg give the
    /// length opusenc's file of the same source has.
    @Test func resampledFrom44100() throws {
        try #require(Self.haveTools, "ffmpeg, sox or opus-tools is not installed")
        let source = try Self.source(rate: 44100, seconds: 2)
        let path = Self.temporaryPath("x.opus")
        try Self.encode(source, to: path, type: .ogg)
        let reference = try Self.opusenc(source)
        let ours = try Self.ffmpegFloat(path), theirs = try Self.ffmpegFloat(reference)
        #expect(ours.count == theirs.count, "\(ours.count / 2) frames; opusenc's file decodes to \(theirs.count / 2)")
        let probe = try runProcess("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "stream=sample_rate,duration", "-of", "default=nw=1", path])
        #expect(probe.out.contains("sample_rate=48000"), "\(probe.out)")
        #expect(try ExtAudioFile(path: path).fileDataFormat.sampleRate == 48000)
    }

    /// At 128 kb/s the decode is within 0.5 dB (delay-aligned SNR) of opusenc's at the same
    /// rate on the same input, and the file about as large.
    @Test(arguments: [1, 2])
    func qualityMatchesOpusenc(_ channels: Int) throws {
        try #require(Self.haveTools, "ffmpeg, sox or opus-tools is not installed")
        let source = try Self.source(rate: 48000, channels: channels, seconds: 4)
        let path = Self.temporaryPath("x.opus")
        let kbps = 64 * channels
        try Self.encode(source, to: path, type: .ogg, bitRate: kbps * 1000)
        let reference = try Self.opusenc(source, kbps: kbps)
        let original = try Self.sourceFloat(source)
        let ours = Self.alignedSNR(try Self.ffmpegFloat(path), original, channels: channels)
        let theirs = Self.alignedSNR(try Self.ffmpegFloat(reference), original, channels: channels)
        #expect(ours.snr >= theirs.snr - 0.5, "SNR \(ours.snr) dB; opusenc's \(theirs.snr) dB")
        #expect(ours.lag == theirs.lag)
        let size = { (p: String) in Double((try? FileManager.default.attributesOfItem(atPath: p)[.size] as? Int) ?? 0) }
        #expect(abs(size(path) / size(reference) - 1) < 0.15, "\(size(path)) bytes; opusenc writes \(size(reference))")
    }

    /// A stream of no frames is the lookahead's one packet, as opusenc writes it: opusinfo,
    /// ffprobe and ffmpeg read the file, which decodes to nothing.
    @Test func emptyStream() throws {
        try #require(Self.haveTools, "ffmpeg, sox or opus-tools is not installed")
        let path = Self.temporaryPath("empty.opus")
        let writer = try ExtAudioFileWriter(path: path, type: .ogg, format: .opus(channels: 1))
        try writer.setClientDataFormat(.linearPCM(sampleRate: 48000, channels: 1, bitsPerChannel: 32, isFloat: true))
        try writer.close()
        let info = try Self.opusinfo(path)
        #expect(info.status == 0 && !info.text.contains("WARNING"), "\(info.text)")
        #expect(try Self.ffmpegFloat(path).isEmpty)
        #expect(try ExtAudioFile(path: path).fileLengthFrames == 0)
    }

    /// Six channels in WAVE's order (L R C LFE Ls Rs), each a tone of its own, come back from
    /// ffmpeg's decode (in its 5.1 order, the same) each on its own channel: the encoder's
    /// Vorbis order and mapping family 1 are right.
    @Test func surroundChannelsKeepTheirPlaces() throws {
        try #require(Self.haveTools, "ffmpeg, sox or opus-tools is not installed")
        let tones = [300.0, 500, 700, 60, 1100, 1300]
        let path = Self.temporaryPath("surround.opus")
        let writer = try ExtAudioFileWriter(path: path, type: .ogg, format: .opus(channels: 6))
        let client = AudioStreamBasicDescription.linearPCM(sampleRate: 48000, channels: 6, bitsPerChannel: 32, isFloat: true)
        try writer.setClientDataFormat(client)
        let frames = 48000
        var samples = [Float](repeating: 0, count: frames * 6)
        for i in 0..<frames {
            for c in 0..<6 { samples[i * 6 + c] = Float(0.3 * sin(2 * Double.pi * tones[c] * Double(i) / 48000)) }
        }
        try samples.withUnsafeBytes { try writer.write(frameCount: frames, buffers: [$0]) }
        try writer.close()
        let head = try #require(try (AudioFile(path: path).container as? OggFormat)?.head)
        #expect(head.mappingFamily == 1 && head.channelCount == 6)
        let decoded = try Self.ffmpegFloat(path)
        #expect(decoded.count == samples.count)
        // Each decoded channel correlates best with the tone that went in on it.
        for c in 0..<6 {
            var best = (tone: -1, power: 0.0)
            for (k, f) in tones.enumerated() {
                var re = 0.0, im = 0.0
                for i in stride(from: 4800, to: min(frames, decoded.count / 6), by: 1) {
                    let x = Double(decoded[i * 6 + c]), w = 2 * Double.pi * f * Double(i) / 48000
                    re += x * cos(w)
                    im += x * sin(w)
                }
                let power = re * re + im * im
                if power > best.power { best = (k, power) }
            }
            #expect(best.tone == c, "channel \(c) carries the tone of channel \(best.tone)")
        }
    }

    /// The encoder's defaults: 48 kHz, 960 frames a packet, the lookahead as priming, a cookie
    /// that is an OpusHead packet of that pre-skip, codec quality mapped to complexity.
    @Test func encoderDefaults() throws {
        let encoder = try OpusEncoder(
            input: AudioEncoders.inputFormat(for: .opus(sampleRate: 44100, channels: 2)), output: .opus(sampleRate: 44100, channels: 2))
        #expect(encoder.outputFormat.sampleRate == 48000 && encoder.framesPerPacket == 960)
        #expect(encoder.inputFormat.sampleRate == 48000)
        let head = try OpusHead(cookie: encoder.magicCookie!)
        #expect(head.preSkip == encoder.primingFrames && head.inputSampleRate == 44100 && head.channelCount == 2)
        #expect(encoder.bitRate == 96000 && encoder.complexity == 10)
        try encoder.setQuality(0x20)
        #expect(encoder.complexity == 3)
        try encoder.setApplication(.lowDelay)
        let lowDelayHead = try OpusHead(cookie: encoder.magicCookie!)
        #expect(encoder.primingFrames < 312 && lowDelayHead.preSkip == encoder.primingFrames)
        #expect(throws: AudioCodecError.self) {
            _ = try OpusEncoder(input: AudioEncoders.inputFormat(for: .opus(channels: 2)), output: .opus(channels: 2, framesPerPacket: 1000))
        }
    }

    /// Ending a stream writes ceil((frames + pre-skip) / 960) packets and reports the frames
    /// past the input as padding.
    @Test func finishCountsPackets() throws {
        let format = AudioStreamBasicDescription.opus(channels: 1)
        let encoder = try OpusEncoder(input: AudioEncoders.inputFormat(for: format), output: format)
        let frames = 10_000
        let input = [Float](repeating: 0.1, count: frames)
        var out = [UInt8](repeating: 0, count: 64 * encoder.maximumPacketSize)
        var descriptions = [AudioStreamPacketDescription](repeating: .init(startOffset: 0, dataByteSize: 0), count: 64)
        var packets = 0, padding = 0
        let first = try input.withUnsafeBytes { i in
            try out.withUnsafeMutableBytes { o in
                try descriptions.withUnsafeMutableBufferPointer { try encoder.encode(i, frameCount: frames, into: o, packetDescriptions: $0) }
            }
        }
        packets += first.packetCount
        while true {
            let r = try out.withUnsafeMutableBytes { o in
                try descriptions.withUnsafeMutableBufferPointer { try encoder.finish(into: o, packetDescriptions: $0) }
            }
            packets += r.packetCount
            padding += r.paddingFrames
            if r.packetCount == 0 { break }
        }
        let expected = (frames + encoder.primingFrames + 959) / 960
        #expect(packets == expected)
        // Frames short of a packet are kept without descriptions to write; a whole packet needs one.
        let partial = try input.withUnsafeBytes { i in
            try out.withUnsafeMutableBytes { o in try encoder.encode(i, frameCount: 500, into: o, packetDescriptions: nil) }
        }
        #expect(partial.packetCount == 0)
        #expect(throws: AudioCodecError.self) {
            try input.withUnsafeBytes { i in
                try out.withUnsafeMutableBytes { o in _ = try encoder.encode(i, frameCount: 500, into: o, packetDescriptions: nil) }
            }
        }
        #expect(padding == expected * 960 - frames - encoder.primingFrames)
    }
}

extension Array {
    /// The elements over and over.
    func cycled() -> some Sequence<Element> {
        var i = 0
        return AnySequence { AnyIterator { defer { i += 1 }; return self.isEmpty ? nil : self[i % self.count] } }
    }
}
