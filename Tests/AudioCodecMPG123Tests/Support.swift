import Foundation
import ProcessSupport
import AudioCore
import AudioCodecs
import AudioCodecMPG123

/// The MPEG audio fixtures and ffmpeg's decodes of them (Scripts/fixtures/make_mp3_refs.sh).
enum MP3Fixtures {
    static let refs = Fixtures.mp3Refs

    /// Every `.mp3` and `.mp2` fixture.
    static let names: [String] = {
        let all = (try? FileManager.default.contentsOfDirectory(atPath: refs.path)) ?? []
        return all.filter { $0.hasSuffix(".mp3") || $0.hasSuffix(".mp2") }.sorted()
    }()

    static func bytes(_ name: String) throws -> [UInt8] { try Fixtures.bytes(refs.appendingPathComponent(name)) }

    static func framecrc(_ name: String) throws -> [(size: Int, adler: UInt32)] { try Fixtures.framecrc(name, in: refs) }

    /// ffmpeg's decode as interleaved Float32; throws when there is none.
    static func reference(_ name: String) throws -> [Float] { try Fixtures.float32(refs.appendingPathComponent(name + ".f32")) }
}

/// One MPEG audio frame header (ISO/IEC 11172-3 2.4.2.3, 13818-3, and MPEG-2.5), parsed here
/// independently of the decoder.
struct FrameHeader: Equatable {
    var version: Int  // 1 MPEG-1, 2 MPEG-2, 25 MPEG-2.5
    var layer: Int
    var bitrate: Int  // bit/s
    var sampleRate: Int
    var padding: Bool
    var mono: Bool
    var crc: Bool
    var length: Int
    var framesPerPacket: Int

    static let kbps: [[Int]] = [
        [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],
        [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],
        [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
        [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],
        [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
    ]

    init?(_ b: ArraySlice<UInt8>) {
        guard b.count >= 4 else { return nil }
        let i = b.startIndex
        guard b[i] == 0xFF, b[i + 1] & 0xE0 == 0xE0 else { return nil }
        let v = Int(b[i + 1] >> 3 & 3), l = Int(b[i + 1] >> 1 & 3)
        let bi = Int(b[i + 2] >> 4), ri = Int(b[i + 2] >> 2 & 3)
        guard v != 1, l != 0, bi != 0, bi != 15, ri != 3 else { return nil }
        version = v == 3 ? 1 : v == 2 ? 2 : 25
        layer = 4 - l
        sampleRate = [44100, 48000, 32000][ri] / (version == 1 ? 1 : version == 2 ? 2 : 4)
        bitrate = Self.kbps[version == 1 ? layer - 1 : (layer == 1 ? 3 : 4)][bi] * 1000
        padding = b[i + 2] & 2 != 0
        mono = b[i + 3] >> 6 == 3
        crc = b[i + 1] & 1 == 0
        let pad = padding ? 1 : 0
        switch layer {
        case 1: length = (12 * bitrate / sampleRate + pad) * 4; framesPerPacket = 384
        case 2: length = 144 * bitrate / sampleRate + pad; framesPerPacket = 1152
        default:
            length = (version == 1 ? 144 : 72) * bitrate / sampleRate + pad
            framesPerPacket = version == 1 ? 1152 : 576
        }
    }

    /// Where a Xing/Info tag would start in this frame: after the header, CRC and side info.
    var sideInfoEnd: Int {
        let side = layer != 3 ? 0 : version == 1 ? (mono ? 17 : 32) : (mono ? 9 : 17)
        return 4 + (crc ? 2 : 0) + side
    }
}

/// A file's frames: an ID3v2 tag skipped, the Xing/Info frame set apart.
struct MP3Stream {
    var header: FrameHeader
    var packets: [[UInt8]]
    var infoFrame: [UInt8]?
    var id3Bytes = 0

    init(_ bytes: [UInt8]) throws {
        var offset = 0
        if bytes.count >= 10, bytes[0] == 0x49, bytes[1] == 0x44, bytes[2] == 0x33 {
            let size = bytes[6..<10].reduce(0) { $0 << 7 | Int($1 & 0x7F) }
            offset = 10 + size + (bytes[5] & 0x10 != 0 ? 10 : 0)
            id3Bytes = offset
        }
        var packets: [[UInt8]] = []
        var first: FrameHeader?
        while offset + 4 <= bytes.count, let h = FrameHeader(bytes[offset...]), offset + h.length <= bytes.count {
            if first == nil { first = h }
            packets.append(Array(bytes[offset..<(offset + h.length)]))
            offset += h.length
        }
        guard let first, !packets.isEmpty else { throw CocoaError(.fileReadCorruptFile) }
        header = first
        let tagAt = first.sideInfoEnd
        if packets[0].count >= tagAt + 4 {
            let tag = String(decoding: packets[0][tagAt..<(tagAt + 4)], as: UTF8.self)
            if tag == "Xing" || tag == "Info" { infoFrame = packets.removeFirst() }
        }
        self.packets = packets
    }

    var format: AudioStreamBasicDescription {
        AudioStreamBasicDescription(
            sampleRate: Double(header.sampleRate), formatID: [.mpegLayer1, .mpegLayer2, .mpegLayer3][header.layer - 1],
            bytesPerPacket: 0, framesPerPacket: UInt32(header.framesPerPacket), bytesPerFrame: 0,
            channelsPerFrame: header.mono ? 1 : 2, bitsPerChannel: 0)
    }
}

/// What decoding a run of packets produced.
struct Decoded {
    var samples: [Float] = []
    var framesPerPacket: [Int] = []
    var errors: [Int: AudioCodecError] = [:]
}

/// Decodes one packet into `buffer`; returns the error it threw, if any.
func decodeOne(_ decoder: MP3Decoder, _ packet: [UInt8], into buffer: PCMBuffer) -> AudioCodecError? {
    packet.withUnsafeBytes { raw in
        do throws(AudioCodecError) {
            _ = try decoder.decode(packet: raw, frames: nil, into: buffer)
            return nil
        } catch {
            return error
        }
    }
}

/// Decodes `packets` one by one, collecting errors by packet index.
func decodeAll(_ decoder: MP3Decoder, _ packets: [[UInt8]]) -> Decoded {
    var result = Decoded()
    let buffer = PCMBuffer(format: decoder.outputFormat, frameCapacity: decoder.maximumFramesPerPacket)!
    for (i, packet) in packets.enumerated() {
        buffer.frameLength = 0
        if let error = decodeOne(decoder, packet, into: buffer) { result.errors[i] = error }
        result.framesPerPacket.append(buffer.frameLength)
        buffer.appendFloats(to: &result.samples)
    }
    return result
}

/// The lag in -range...range (test frame = reference frame + lag) with the greatest normalised
/// cross-correlation of the channels' sum, over `window` reference frames from `range` on.
func crossCorrelationLag(reference: [Float], test: [Float], channels: Int, range: Int, window: Int = 4096) -> Int {
    func mix(_ x: [Float]) -> [Double] {
        stride(from: 0, to: x.count - channels + 1, by: channels).map { f in (0..<channels).reduce(0.0) { $0 + Double(x[f + $1]) } }
    }
    let r = mix(reference), t = mix(test)
    let start = range, end = min(r.count, range + window)
    var best = (lag: 0, score: -Double.infinity)
    r.withUnsafeBufferPointer { r in
        t.withUnsafeBufferPointer { t in
            for lag in -range...range where end + lag <= t.count && start + lag >= 0 {
                var dot = 0.0, energy = 0.0
                for f in start..<end {
                    let y = t[f + lag]
                    dot += r[f] * y
                    energy += y * y
                }
                let score = energy > 0 ? dot / energy.squareRoot() : -Double.infinity
                if score > best.score { best = (lag, score) }
            }
        }
    }
    return best.lag
}

/// Signal-to-noise ratio in dB of `test` against `reference` for one channel, at `lag`, over
/// the frames both have.
func snr(reference: [Float], test: [Float], channels: Int, channel: Int, lag: Int) -> Double {
    let refFrames = reference.count / channels, testFrames = test.count / channels
    var signal = 0.0, noise = 0.0
    for f in max(0, -lag)..<min(refFrames, testFrames - lag) {
        let s = Double(reference[f * channels + channel])
        let d = s - Double(test[(f + lag) * channels + channel])
        signal += s * s
        noise += d * d
    }
    return noise == 0 ? .infinity : 10 * log10(signal / noise)
}

