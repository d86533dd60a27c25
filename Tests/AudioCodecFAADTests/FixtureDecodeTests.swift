import Foundation
import Testing
import AudioCore
import AudioCodecs
import AudioCodecFAAD
import AudioFileServices
import AudioTestSupport

/// Decodes every packet of `name` and compares with ffmpeg's decode: the frame count
/// (packets × 1024), the best alignment within ±2048 frames (which must be 0) and the SNR of
/// each channel at that alignment, which must reach `minimumSNR` dB. Returns the SNRs.
@discardableResult
private func compareWithFFmpeg(_ name: String, minimumSNR: Double) throws -> [Double] {
    let input = try Packets(path: AACFixtures.path(name))
    let decoder = try AACDecoder(input: input.format, magicCookie: input.cookie)
    let channels = Int(input.format.channelsPerFrame)
    #expect(decoder.outputFormat == .linearPCM(
        sampleRate: input.format.sampleRate, channels: UInt32(channels), bitsPerChannel: 32, isFloat: true))
    #expect(decoder.sbrMode == .off)
    #expect(decoder.maximumFramesPerPacket == 1024)
    let decoded = decodeAll(decoder, input.packets, frames: input.frames)
    #expect(decoded.errors.isEmpty, "\(decoded.errors)")
    #expect(decoded.framesPerPacket.allSatisfy { $0 == 1024 })
    #expect(decoded.frameCount == input.packets.count * 1024)

    let reference = try AACFixtures.reference(name)
    #expect(reference.count == decoded.samples.count, "ffmpeg decoded \(reference.count / channels) frames")
    let map = AACFixtures.ffmpegToAAC(channels: channels)
    let lag = bestAlignment(reference: reference, test: decoded.samples, channels: channels, map: map, range: 2048)
    #expect(lag == 0, "best alignment with ffmpeg is \(lag) frames")
    var snrs: [Double] = []
    for c in 0..<channels {
        let db = snr(reference: reference, refChannels: channels, refChannel: c,
                     test: decoded.samples, testChannels: channels, testChannel: map[c], lag: lag)
        snrs.append(db)
        #expect(db >= minimumSNR, "\(name) channel \(c): SNR \(db) dB")
    }
    let list = snrs.map { String(format: "%.1f", $0) }.joined(separator: " ")
    print("\(name): \(input.packets.count) packets, alignment \(lag), SNR per channel (dB) \(list)")

    // The caller's trimming from the packet table: priming + valid + remainder = every frame.
    if let table = input.table {
        #expect(Int(table.primingFrames) + Int(table.numberValidFrames) + Int(table.remainderFrames) == decoded.frameCount)
    }
    return snrs
}

@Suite("AAC fixtures against ffmpeg's decoder")
struct FixtureDecodeTests {
    @Test func everyAACFixtureHasAReference() {
        #expect(AACFixtures.names.count >= 19)
        #expect(AACFixtures.pnsFreeNames.count >= 7)
        for name in AACFixtures.names + AACFixtures.pnsFreeNames {
            #expect(throws: Never.self, "no reference for \(name): run Scripts/fixtures/make_aac_refs.sh") { _ = try AACFixtures.reference(name) }
        }
    }

    /// The fixtures of Scripts/make-fixtures, encoded without perceptual noise substitution
    /// (PNS noise is drawn from each decoder's own generator, so no two decoders agree on it):
    /// within 60 dB of ffmpeg's decoder, as the codec's acceptance asks.
    @Test(arguments: AACFixtures.names)
    func matchesFFmpeg(name: String) throws {
        try compareWithFFmpeg(name, minimumSNR: 60)
    }

    /// The same tones encoded without PNS: faad2 and ffmpeg agree to rounding (measured ≥ 130 dB).
    @Test(arguments: AACFixtures.pnsFreeNames)
    func matchesFFmpegWithoutPNS(name: String) throws {
        try compareWithFFmpeg(name, minimumSNR: 100)
    }

    /// Trimming the packet table's 2112 priming frames from the decode leaves the encoder's input
    /// sample-exactly: the best alignment with the ideal tones is 0. (The tones were generated
    /// after 1088 frames of silence, so their phase at the first valid frame is that of frame 1088.)
    @Test(arguments: ["nopns-caf-aac-2ch-48000.caf", "nopns-caf-aac-1ch-44100.caf"])
    func primingTrimIsSampleExact(name: String) throws {
        let input = try Packets(path: AACFixtures.path(name))
        let table = try #require(input.table)
        #expect(table.primingFrames == 2112)
        let decoder = try AACDecoder(input: input.format, magicCookie: input.cookie)
        let decoded = decodeAll(decoder, input.packets)
        let channels = decoded.channels
        let start = Int(table.primingFrames)
        let valid = Int(table.numberValidFrames)
        let trimmed = Array(decoded.samples[(start * channels)..<((start + valid) * channels)])
        let rate = input.format.sampleRate
        let frequencies = [440.0, 660.0]
        var ideal = [Float](repeating: 0, count: valid * channels)
        for f in 0..<valid {
            for c in 0..<channels {
                ideal[f * channels + c] = Float(0.5 * sin(2 * Double.pi * frequencies[c] * Double(f + 1088) / rate))
            }
        }
        let lag = bestAlignment(reference: ideal, test: trimmed, channels: channels, map: Array(0..<channels), range: 32)
        #expect(lag == 0, "the trimmed decode is \(lag) frames off the encoder's input")
        for c in 0..<channels {
            let db = snr(reference: ideal, refChannels: channels, refChannel: c,
                         test: trimmed, testChannels: channels, testChannel: c)
            #expect(db >= 30, "channel \(c): \(db) dB against the encoder's input")
            print("\(name): trimmed decode vs encoder input, channel \(c): alignment \(lag), \(String(format: "%.1f", db)) dB")
        }
    }
}
