import Foundation
import Testing
import ProcessSupport
import AudioCore
import AudioCodecs
import AudioCodecOpus
import AudioFileServices
import ExtendedAudioFileServices
import DecodeTestSupport

/// Every frame of the file at `path` through ExtAudioFile, as interleaved Float32 at 48 kHz.
func decodeOpus(_ path: String) throws -> (samples: [Float], channels: Int) {
    OpusDecoder.register()
    let reader = try ExtAudioFile(path: path)
    return (try readAllFloat(reader, sampleRate: 48000), Int(reader.fileDataFormat.channelsPerFrame))
}

/// ffmpeg's libopus decode of a fixture (f32le).
func opusReference(_ name: String) throws -> [Float] {
    let url = Fixtures.opus.appendingPathComponent(name + ".f32")
    guard let data = FileManager.default.contents(atPath: url.path) else { throw MissingFixture("opus/\(name).f32") }
    return data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
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

@Suite("Opus decoding")
struct OpusDecodeTests {
    static let files = [
        "opusenc-mono-48000.opus", "opusenc-stereo-44100.opus", "opusenc-stereo-16000-10ms.opus", "opusenc-6ch.opus",
        "opusenc-8ch.opus", "ffmpeg-stereo.opus", "spec-gain-minus6db.opus", "spec-spanning-pages.opus", "ffmpeg-stereo.caf", "ffmpeg-theora-opus.ogg",
    ]

    /// Each file decodes, trimmed by its packet table, to ffmpeg's libopus decode: same length,
    /// same channel order (Vorbis order put in WAVE order, as ffmpeg does), 80 dB or better.
    @Test(arguments: files) func matchesFFmpeg(_ name: String) throws {
        let (samples, channels) = try decodeOpus(Fixtures.opus.appendingPathComponent(name).path)
        let reference = try opusReference(name)
        #expect(samples.count == reference.count, "\(name): \(samples.count / channels) frames, ffmpeg \(reference.count / channels)")
        let ratio = snr(samples, reference)
        #expect(ratio >= 80, "\(name): \(ratio) dB")
    }

    /// Opus in MPEG-4 (ffmpeg's `Opus` entry with `dOps`): the edit list trims the pre-skip and
    /// the end, where ffmpeg's decode trims only the pre-skip, so the first 9600 frames compare.
    /// Without an edit list, the `dOps` pre-skip is the priming and the last sample's shortened
    /// duration (`stts`) the end. Packets of 60 ms take their length from `stts`.
    @Test(arguments: ["ffmpeg-stereo.mp4", "ffmpeg-stereo-no-editlist.mp4", "ffmpeg-stereo-60ms.mp4"])
    func mp4Trims(_ name: String) throws {
        let (samples, channels) = try decodeOpus(Fixtures.opus.appendingPathComponent(name).path)
        let reference = try opusReference(name)
        #expect(samples.count == 9600 * channels)
        #expect(reference.count > samples.count)
        #expect(snr(samples, reference) >= 80)
    }

    /// The gain file is the stereo file with OpusHead's output gain set to -6 dB: it decodes to
    /// the same samples scaled by 10^(-6/20).
    @Test func outputGainIsApplied() throws {
        let plain = try decodeOpus(Fixtures.opus.appendingPathComponent("opusenc-stereo-44100.opus").path).samples
        let quiet = try decodeOpus(Fixtures.opus.appendingPathComponent("spec-gain-minus6db.opus").path).samples
        #expect(plain.count == quiet.count)
        let scale = Float(pow(10, -6.0 / 20))
        #expect(snr(quiet, plain.map { $0 * scale }) >= 60)
    }

    /// Packets continued across pages read back whole: the table records their pieces.
    @Test func packetsAcrossPages() throws {
        let file = try AudioFile(path: Fixtures.opus.appendingPathComponent("spec-spanning-pages.opus").path)
        guard case .table(let table) = file.container.packets else { Issue.record("no packet table"); return }
        #expect(!table.pieces.isEmpty)
        let all = try file.readPackets(from: 0, count: Int(file.packetCount))
        #expect(all.packetCount == Int(file.packetCount))
        #expect(all.data.count == table.sizes.reduce(0) { $0 + Int($1) })
    }

    @Test func cookieForms() throws {
        let head = OpusHead(channelCount: 2, preSkip: 312, inputSampleRate: 44100, outputGain: -256)
        let parsed = try OpusHead(cookie: head.packet)
        #expect(parsed == head)
        // dOps: version 0, 2 channels, pre-skip 312, 48000 Hz, gain 0, family 0 (ffmpeg's MPEG-4 muxer).
        let dOps: [UInt8] = [0, 2, 0x01, 0x38, 0, 0, 0xBB, 0x80, 0, 0, 0]
        let fromBox = try OpusHead(cookie: dOps)
        #expect(fromBox.channelCount == 2 && fromBox.preSkip == 312 && fromBox.inputSampleRate == 48000)
        let stereo = AudioStreamBasicDescription(
            sampleRate: 48000, formatID: .opus, formatFlags: [], bytesPerPacket: 0, framesPerPacket: 960, bytesPerFrame: 0,
            channelsPerFrame: 2, bitsPerChannel: 0)
        let decoder = try OpusDecoder(input: stereo, magicCookie: dOps)
        #expect(decoder.outputFormat.sampleRate == 48000 && decoder.outputFormat.channelsPerFrame == 2)
        // A cookie that is neither form: the description decides for one or two channels.
        let fallback = try OpusDecoder(input: stereo, magicCookie: [1, 2, 3])
        #expect(fallback.head.channelCount == 2 && fallback.head.mappingFamily == 0)
        var eight = stereo
        eight.channelsPerFrame = 8
        #expect(throws: AudioCodecError.self) {
            _ = try OpusDecoder(input: eight, magicCookie: [1, 2, 3])
        }
        #expect(throws: AudioCodecError.self) {
            _ = try OpusDecoder(input: decoder.outputFormat, magicCookie: nil)  // linear PCM is not Opus
        }
    }

    /// A packet libopus refuses appends silence of its TOC's duration and throws badData.
    @Test func badPacketIsConcealed() throws {
        let decoder = try OpusDecoder(
            input: AudioStreamBasicDescription(
                sampleRate: 48000, formatID: .opus, formatFlags: [], bytesPerPacket: 0, framesPerPacket: 960, bytesPerFrame: 0,
                channelsPerFrame: 1, bitsPerChannel: 0),
            magicCookie: nil)
        let buffer = try #require(PCMBuffer(format: decoder.outputFormat, frameCapacity: 5760))
        let packet: [UInt8] = [0x0B, 0xFF, 0xFF]  // code 3 with an impossible frame count
        #expect(throws: AudioCodecError.self) {
            try packet.withUnsafeBytes { raw in _ = try decoder.decode(packet: raw, frames: 960, into: buffer) }
        }
        #expect(buffer.frameLength == 960)
    }

    @Test func tocDurations() {
        func frames(_ bytes: [UInt8]) -> Int? { bytes.withUnsafeBytes { OpusPacket.frameCount($0) } }
        #expect(frames([0xFC]) == 960)  // CELT 20 ms, one frame
        #expect(frames([0xE5]) == 240)  // CELT 2.5 ms (config 28), code 1: two frames
        #expect(frames([0x4B, 0x03]) == 3 * 960)  // SILK 20 ms (config 9), code 3: three frames
        #expect(frames([0x1B, 0x02 | 0x80]) == 2 * 2880)  // SILK 60 ms, two frames, VBR flag
        #expect(frames([0x1B, 0x03]) == nil)  // 180 ms
        #expect(frames([0x0B, 0x3F]) == nil)  // 63 × 60 ms: more than 120 ms
        #expect(frames([]) == nil)
    }
}

@Suite("Opus seeking")
struct OpusSeekTests {
    /// ExtAudioFile seeks with 8 packets of pre-roll: what it reads after a seek converges to
    /// the continuous decode (Opus's state is rebuilt, not copied, so not bit for bit).
    @Test func seekMatchesContinuousDecode() throws {
        let path = Fixtures.opus.appendingPathComponent("opusenc-stereo-44100.opus").path
        let (whole, channels) = try decodeOpus(path)
        let reader = try ExtAudioFile(path: path)
        let client = AudioStreamBasicDescription.linearPCM(sampleRate: 48000, channels: 2, bitsPerChannel: 32, isFloat: true)
        try reader.setClientDataFormat(client)
        try reader.seek(toFrame: 4800)
        let buffer = try #require(PCMBuffer(format: client, frameCapacity: 2000))
        let n = try reader.read(into: buffer, frameCount: 2000)
        #expect(n == 2000)
        let region = buffer.region(0)
        let got = (0..<(n * channels)).map { region.load(fromByteOffset: 4 * $0, as: Float.self) }
        let expected = Array(whole[(4800 * channels)..<((4800 + n) * channels)])
        #expect(snr(got, expected) >= 40)
    }
}
