import Foundation
import Testing
import ProcessSupport
import AudioCore
import AudioCodecs
import AudioCodecVorbis
import AudioCodecKit
import AudioCodecAVCodec
import AudioFileServices
import ExtendedAudioFileServices
import DecodeTestSupport

/// What Scripts/fixtures/make_vorbis_fixtures.py recorded of a fixture: oggdec's decode length
/// and the Adler-32 of its s16le decode (WAVE order), ffprobe's and ffmpeg's lengths.
struct VorbisReference {
    var frames: Int
    var probeFrames: Int
    var ffmpegFrames: Int
    var s16adler: UInt32
    /// Adler-32 of ffmpeg's f32le decode over its first min(frames, ffmpegFrames) frames.
    var ffmpegF32Adler: UInt32

    init(_ name: String) throws {
        let url = Fixtures.vorbis.appendingPathComponent(name.replacingOccurrences(of: ".ogg", with: ".ref"))
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { throw MissingFixture("vorbis/\(url.lastPathComponent)") }
        var values: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { values[String(parts[0])] = String(parts[1]) }
        }
        func int(_ key: String) throws -> Int {
            guard let v = values[key], let n = Int(v) else { throw MissingFixture("vorbis/\(url.lastPathComponent): \(key)") }
            return n
        }
        frames = try int("frames")
        probeFrames = try int("probe_frames")
        ffmpegFrames = try int("ffmpeg_frames")
        guard let hex = values["s16adler"], let crc = UInt32(hex.dropFirst(2), radix: 16) else {
            throw MissingFixture("vorbis/\(url.lastPathComponent): s16adler")
        }
        s16adler = crc
        guard let hex = values["ffmpeg_f32adler"], let f32 = UInt32(hex.dropFirst(2), radix: 16) else {
            throw MissingFixture("vorbis/\(url.lastPathComponent): ffmpeg_f32adler")
        }
        ffmpegF32Adler = f32
    }
}

/// ffmpeg's float decode (its own Vorbis decoder) of the first 1024 frames of a fixture.
func ffmpegStart(_ name: String) throws -> [Float] {
    let url = Fixtures.vorbis.appendingPathComponent(name + ".f32")
    guard let data = FileManager.default.contents(atPath: url.path) else { throw MissingFixture("vorbis/\(name).f32") }
    return data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
}

/// Every frame of a fixture through ExtAudioFile, interleaved Float32 at the stream's rate,
/// with the decoder the registry gives (`AudioCodecKit.registerVorbis()`: libavcodec's where it
/// loads).
func decodeVorbis(_ name: String) throws -> (samples: [Float], channels: Int) {
    AudioCodecKit.registerVorbis()
    let reader = try ExtAudioFile(path: Fixtures.vorbis.appendingPathComponent(name).path)
    return (try readAllFloat(reader), Int(reader.fileDataFormat.channelsPerFrame))
}

/// Every frame of a fixture through libvorbis (`VorbisDecoder` made directly), trimmed by the
/// file's packet table as the readers trim.
func decodeWithLibvorbis(_ name: String) throws -> (samples: [Float], channels: Int) {
    let file = try AudioFile(path: Fixtures.vorbis.appendingPathComponent(name).path)
    let decoder = try VorbisDecoder(input: file.dataFormat, magicCookie: file.magicCookie)
    return (try decodeTrimmed(file, with: decoder), Int(decoder.outputFormat.channelsPerFrame))
}

/// Float samples as libvorbisfile's `ov_read` makes 16-bit ones (what oggdec writes): × 32768
/// in single precision, rounded to nearest (even), clipped.
func vorbisfileS16(_ samples: [Float]) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(samples.count * 2)
    for s in samples {
        let v = Int32(max(-32768, min(32767, Double(s * 32768).rounded(.toNearestOrEven))))
        let u = UInt16(bitPattern: Int16(v))
        out += [UInt8(u & 0xFF), UInt8(u >> 8)]
    }
    return out
}

/// Signal-to-noise ratio of `a` against the reference `b`, in dB.
func snr(_ a: [Float], _ b: [Float]) -> Double {
    var signal = 0.0, noise = 0.0
    for i in 0..<min(a.count, b.count) {
        signal += Double(b[i]) * Double(b[i])
        noise += Double(a[i] - b[i]) * Double(a[i] - b[i])
    }
    return noise == 0 ? 999 : 10 * log10(signal / noise)
}

@Suite("Vorbis decoding")
struct VorbisDecodeTests {
    static let files = [
        "oggenc-mono-44100.ogg", "ffmpeg-stereo-48000.ogg", "oggenc-3-48000.ogg", "oggenc-5-48000.ogg", "oggenc-51-48000.ogg",
        "oggenc-short-44100.ogg", "spec-start-trim.ogg",
        "spec-late-start.ogg", "spec-tags.ogg",
    ]

    /// Each file decodes, trimmed by its packet table, to oggdec's length (libvorbisfile, which
    /// trims by the granule positions as the specification says; ffprobe's duration agrees where
    /// the stream starts at 0) and, made 16-bit as libvorbisfile makes it, to oggdec's samples bit
    /// for bit (its Vorbis order put in WAVE order). The trimmed start is the exception for the
    /// samples: libvorbisfile removes those frames from the first page's last packet (the page's
    /// granule position arrives after the earlier packets' samples have been read out), where
    /// the specification (and this package, ``startTrimDropsTheFirstFrames()``) drops the first.
    @Test(arguments: files) func matchesOggdec(_ name: String) throws {
        let reference = try VorbisReference(name)
        let (samples, channels) = try decodeWithLibvorbis(name)
        #expect(samples.count == reference.frames * channels, "\(name): \(samples.count / channels) frames, oggdec \(reference.frames)")
        if name != "spec-late-start.ogg" {
            #expect(reference.frames == reference.probeFrames, "\(name): oggdec and ffprobe disagree")
        }
        if name != "spec-start-trim.ogg" {
            #expect(adler32(vorbisfileS16(samples)[...]) == reference.s16adler, "\(name): samples differ from oggdec's")
        }
    }

    /// Through the registry (libavcodec's decoder where it loads, as here) and ExtAudioFile, each
    /// file has oggdec's length (the reader's trimming) and, over the frames both give (ffmpeg
    /// trims the end by its own rule), ffmpeg's float decode bit for bit. (ffmpeg does not trim
    /// a start, so the trimmed-start file is left out.)
    @Test(arguments: files.filter { $0 != "spec-start-trim.ogg" }) func registryDecodeMatchesFFmpeg(_ name: String) throws {
        let reference = try VorbisReference(name)
        let (samples, channels) = try decodeVorbis(name)
        #expect(samples.count == reference.frames * channels, "\(name): \(samples.count / channels) frames, oggdec \(reference.frames)")
        let common = min(reference.frames, reference.ffmpegFrames, samples.count / channels)
        #expect(adler32(Array(samples[0..<(common * channels)])) == reference.ffmpegF32Adler, "\(name): samples differ from ffmpeg's")
    }

    /// ffmpeg's own Vorbis decoder (a second implementation) agrees with libvorbis's samples to
    /// 100 dB or better over the first 1024 frames, in the same channel order. (Its lengths
    /// differ by up to a short block at the end of a stream: it trims by its own rule.)
    @Test(arguments: files.filter { $0 != "spec-start-trim.ogg" }) func nearFFmpeg(_ name: String) throws {
        let (samples, _) = try decodeWithLibvorbis(name)
        let reference = try ffmpegStart(name)
        #expect(!reference.isEmpty)
        let ratio = snr(Array(samples.prefix(reference.count)), reference)
        #expect(ratio >= 100, "\(name): \(ratio) dB")
    }

    /// libavcodec's decoder and libvorbis's give each channel in the same place (WAVE order; a
    /// different tone per channel, so a misplaced channel is noise) and agree to 120 dB or
    /// better, channel by channel.
    @Test(arguments: ["oggenc-3-48000.ogg", "oggenc-5-48000.ogg", "oggenc-51-48000.ogg"]) func decodersAgreeChannelByChannel(_ name: String) throws {
        let file = try AudioFile(path: Fixtures.vorbis.appendingPathComponent(name).path)
        let libvorbis = try decodeTrimmed(file, with: try VorbisDecoder(input: file.dataFormat, magicCookie: file.magicCookie))
        let libavcodec = try decodeTrimmed(file, with: try AVCodecVorbisDecoder(input: file.dataFormat, magicCookie: file.magicCookie))
        let channels = Int(file.dataFormat.channelsPerFrame)
        #expect(libvorbis.count == libavcodec.count && !libvorbis.isEmpty)
        for c in 0..<channels {
            let a = stride(from: c, to: libavcodec.count, by: channels).map { libavcodec[$0] }
            let b = stride(from: c, to: libvorbis.count, by: channels).map { libvorbis[$0] }
            #expect(snr(a, b) >= 120, "\(name): channel \(c): \(snr(a, b)) dB")
        }
    }

    /// `AudioCodecKit.registerVorbis()`: a stream's decoder is libavcodec's where libavcodec
    /// loads (it does here), the stand-in made without a cookie libvorbis's.
    @Test func registryPrefersLibavcodec() throws {
        AudioCodecKit.registerVorbis()
        let file = try AudioFile(path: Fixtures.vorbis.appendingPathComponent("ffmpeg-stereo-48000.ogg").path)
        #expect(AVCodecVorbisDecoder.isAvailable)
        #expect(try AudioDecoders.make(for: file.dataFormat, magicCookie: file.magicCookie) is AVCodecVorbisDecoder)
        #expect(try AudioDecoders.make(for: file.dataFormat, magicCookie: nil) is VorbisDecoder)
    }

    /// A trimmed start (a first page whose granule position is 300 frames short of its packets'):
    /// the first 300 frames of the untrimmed stream are priming, the rest is the untrimmed
    /// stream's samples (ffmpeg, which does not trim starts, decodes the whole).
    @Test func startTrimDropsTheFirstFrames() throws {
        let (trimmed, channels) = try decodeVorbis("spec-start-trim.ogg")
        let (whole, _) = try decodeVorbis("ffmpeg-stereo-48000.ogg")
        #expect(trimmed.count == whole.count - 300 * channels)
        #expect(Array(trimmed.prefix(4096)) == Array(whole[(300 * channels)...].prefix(4096)))
    }

    /// Seeking to any frame reads what reading from the start reads there, bit for bit: one
    /// packet of pre-roll rebuilds the overlap exactly.
    @Test(arguments: ["ffmpeg-stereo-48000.ogg", "oggenc-51-48000.ogg"]) func seekIsExact(_ name: String) throws {
        let (whole, channels) = try decodeVorbis(name)
        let reader = try ExtAudioFile(path: Fixtures.vorbis.appendingPathComponent(name).path)
        let client = AudioStreamBasicDescription.linearPCM(
            sampleRate: reader.fileDataFormat.sampleRate, channels: UInt32(channels), bitsPerChannel: 32, isFloat: true)
        try reader.setClientDataFormat(client)
        let buffer = try #require(PCMBuffer(format: client, frameCapacity: 700))
        for frame in [0, 1, 127, 128, 1000, 2047, 3333, whole.count / channels - 700] {
            try reader.seek(toFrame: Int64(frame))
            buffer.frameLength = 0
            let n = try reader.read(into: buffer, frameCount: 700)
            var got: [Float] = []
            buffer.appendFloats(to: &got)
            #expect(n == 700)
            #expect(got == Array(whole[(frame * channels)..<((frame + 700) * channels)]), "\(name): seek to \(frame)")
        }
    }

    /// Read in pieces on several threads (each piece's decoder restarted after one packet of
    /// pre-roll), a file gives exactly what one continuous read gives.
    @Test func piecesOnThreadsAreExact() throws {
        let (whole, channels) = try decodeVorbis("ffmpeg-stereo-48000.ogg")
        let reader = try ExtAudioFile(path: Fixtures.vorbis.appendingPathComponent("ffmpeg-stereo-48000.ogg").path)
        try reader.setClientDataFormat(.linearPCM(sampleRate: 48000, channels: UInt32(channels), bitsPerChannel: 32, isFloat: true))
        var pieces: [Float] = []
        let frames = try reader.readAll(maximumThreads: 4, packetsPerPiece: 5) { buffer in
            buffer.appendFloats(to: &pieces)
            return true
        }
        #expect(Int(frames) * channels == whole.count)
        #expect(pieces == whole)
    }

    /// The decoder reports WAVE-order layouts and 4096 frames a packet; made without a cookie it
    /// conceals; a cookie of damaged headers is refused.
    @Test func configuration() throws {
        let file = try AudioFile(path: Fixtures.vorbis.appendingPathComponent("oggenc-51-48000.ogg").path)
        let decoder = try VorbisDecoder(input: file.dataFormat, magicCookie: file.magicCookie)
        #expect(decoder.outputFormat.channelsPerFrame == 6 && decoder.outputFormat.sampleRate == 48000)
        #expect(decoder.outputChannelLayout == AudioChannelLayout.waveOrder(channels: 6))
        #expect(decoder.maximumFramesPerPacket == 4096)
        #expect(decoder.headers?.info.channelCount == 6)

        let standIn = try VorbisDecoder(input: file.dataFormat, magicCookie: nil)
        let buffer = try #require(PCMBuffer(format: standIn.outputFormat, frameCapacity: 4096))
        #expect(throws: AudioCodecError.self) { try [UInt8](repeating: 0x10, count: 40).withUnsafeBytes { try standIn.decode(packet: $0, frames: 256, into: buffer) } }
        #expect(buffer.frameLength == 256)

        var cookie = try #require(file.magicCookie)
        cookie[cookie.count - 20..<cookie.count] = ArraySlice(repeating: 0xFF, count: 20)
        #expect(throws: AudioCodecError.self) { try VorbisDecoder(input: file.dataFormat, magicCookie: cookie) }
        #expect(throws: AudioCodecError.self) { try VorbisDecoder(input: file.dataFormat, magicCookie: [2, 30, 1, 2, 3]) }
    }

    /// Damaged packets are concealed with silence of their duration and counted; the decode
    /// goes on, and a garbage packet never traps.
    @Test func garbagePacketsConceal() throws {
        let file = try AudioFile(path: Fixtures.vorbis.appendingPathComponent("ffmpeg-stereo-48000.ogg").path)
        let decoder = try VorbisDecoder(input: file.dataFormat, magicCookie: file.magicCookie)
        let buffer = try #require(PCMBuffer(format: decoder.outputFormat, frameCapacity: 4096))
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        for length in [1, 2, 7, 64, 300, 1500] {
            var bytes = [UInt8](repeating: 0, count: length)
            for i in 0..<length {
                seed = seed &* 6364136223846793005 &+ 1442695040888963407
                bytes[i] = UInt8(truncatingIfNeeded: seed >> 33) & 0xFE  // audio packets: type bit 0
            }
            buffer.frameLength = 0
            _ = try? bytes.withUnsafeBytes { try decoder.decode(packet: $0, frames: 512, into: buffer) }
            #expect(buffer.frameLength <= 4096)
        }
    }
}
