import Foundation
import ProcessSupport
import AudioCore
import AudioCodecs
import AudioCodecFAAD
import AudioFileServices
import AudioTestSupport
import DecodeTestSupport

/// The AAC fixtures (made by Scripts/make-fixtures with ffmpeg) and ffmpeg's decodes of them
/// (Scripts/fixtures/make_aac_refs.sh).
enum AACFixtures {
    static let valid = Fixtures.valid
    static let refs = Fixtures.aacRefs

    /// Every `adts-aac-*.aac` and `caf-aac-*.caf` fixture.
    static let names: [String] = Fixtures.names.filter(Fixtures.isAAC)

    /// The PNS-free streams made by Scripts/fixtures/make_aac_refs.sh (`nopns-*.aac`, `nopns-*.caf`).
    static let pnsFreeNames: [String] = {
        let all = (try? FileManager.default.contentsOfDirectory(atPath: refs.path)) ?? []
        return all.filter { $0.hasPrefix("nopns-") && ($0.hasSuffix(".aac") || $0.hasSuffix(".caf")) }.sorted()
    }()

    /// The path of a fixture: `nopns-*` names are in aac-refs, the others in valid.
    static func path(_ name: String) -> String {
        (name.hasPrefix("nopns-") ? refs : valid).appendingPathComponent(name).path
    }

    /// ffmpeg's decode as interleaved Float32; throws when there is none.
    static func reference(_ name: String) throws -> [Float] { try Fixtures.float32(refs.appendingPathComponent(name + ".f32")) }

    /// For each channel in ffmpeg's order, the channel of the decoder's (AAC) order that holds it.
    /// ffmpeg reorders 5.1 (C L R Ls Rs LFE in the bitstream) to L R C LFE Ls Rs.
    static func ffmpegToAAC(channels: Int) -> [Int] {
        channels == 6 ? [1, 2, 0, 5, 3, 4] : Array(0..<channels)
    }
}

/// The packets of a file, one array each.
struct Packets {
    var format: AudioStreamBasicDescription
    var cookie: [UInt8]?
    var packets: [[UInt8]]
    var frames: [Int?]
    var table: AudioFilePacketTableInfo?

    init(path: String) throws {
        let file = try AudioFile(path: path)
        format = file.dataFormat
        cookie = file.magicCookie
        table = file.packetTableInfo
        let read = try file.readPackets(from: 0, count: Int(file.packetCount))
        packets = []
        frames = []
        if let descriptions = read.descriptions {
            for d in descriptions {
                let start = Int(d.startOffset)
                packets.append(Array(read.data[start..<(start + Int(d.dataByteSize))]))
                frames.append(d.variableFramesInPacket > 0 ? Int(d.variableFramesInPacket) : nil)
            }
        } else {
            let size = Int(format.bytesPerPacket)
            for i in 0..<read.packetCount {
                packets.append(Array(read.data[(i * size)..<((i + 1) * size)]))
                frames.append(nil)
            }
        }
    }
}

/// What decoding a run of packets produced.
struct Decoded {
    var samples: [Float]
    var channels: Int
    var framesPerPacket: [Int]
    var errors: [Int: AudioCodecError]
    var frameCount: Int { samples.count / channels }
}

/// Decodes one packet into `buffer`; returns the error it threw, if any.
func decodeOne(_ decoder: AACDecoder, _ packet: [UInt8], frames: Int? = nil, into buffer: PCMBuffer) -> AudioCodecError? {
    packet.withUnsafeBytes { raw in
        do throws(AudioCodecError) {
            _ = try decoder.decode(packet: raw, frames: frames, into: buffer)
            return nil
        } catch {
            return error
        }
    }
}

/// Decodes `packets` with `decoder` one by one, collecting errors by packet index.
func decodeAll(_ decoder: AACDecoder, _ packets: [[UInt8]], frames: [Int?]? = nil) -> Decoded {
    let channels = Int(decoder.outputFormat.channelsPerFrame)
    var samples: [Float] = []
    var perPacket: [Int] = []
    var errors: [Int: AudioCodecError] = [:]
    let buffer = PCMBuffer(format: decoder.outputFormat, frameCapacity: decoder.maximumFramesPerPacket * 8)!
    for (i, packet) in packets.enumerated() {
        buffer.frameLength = 0
        if let error = decodeOne(decoder, packet, frames: frames?[i] ?? nil, into: buffer) {
            errors[i] = error
        }
        perPacket.append(buffer.frameLength)
        buffer.appendFloats(to: &samples)
    }
    return Decoded(samples: samples, channels: channels, framesPerPacket: perPacket, errors: errors)
}

/// The lag in -range...range (test frame = reference frame + lag) with the least mean squared
/// error over all channels. Lags are tried from 0 outwards and a lag is dropped as soon as its
/// error exceeds the best so far, so a well-aligned decode costs little more than one pass.
func bestAlignment(reference: [Float], test: [Float], channels: Int, map: [Int], range: Int) -> Int {
    let refFrames = reference.count / channels
    let testFrames = test.count / channels
    var best = (lag: 0, error: Double.infinity)
    var lags = [0]
    for d in 1...max(range, 1) { lags += [-d, d] }
    for lag in lags where abs(lag) <= range {
        let start = max(0, -lag)
        let end = min(refFrames, testFrames - lag)
        guard end - start > refFrames / 2 else { continue }
        let limit = best.error * Double(end - start)
        var error = 0.0
        var f = start
        while f < end && error <= limit {
            for c in 0..<channels {
                let d = Double(reference[f * channels + c]) - Double(test[(f + lag) * channels + map[c]])
                error += d * d
            }
            f += 1
        }
        if f == end, error / Double(end - start) < best.error { best = (lag, error / Double(end - start)) }
    }
    return best.lag
}
