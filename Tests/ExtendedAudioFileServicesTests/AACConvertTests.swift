import Foundation
import Testing
import ProcessSupport
import AudioCore
import AudioFileServices
import AudioCodecs
import AudioConverterServices
import ExtendedAudioFileServices

/// ffmpeg's decode of an AAC fixture (Scripts/fixtures/make_aac_refs.sh): every frame the
/// packets decode to, interleaved Float32, with no priming trimmed.
func ffmpegAACReference(_ name: String) throws -> [Float] {
    try Fixtures.float32(Fixtures.aacRefs.appendingPathComponent(name + ".f32"))
}

/// Signal-to-noise ratio in dB of `test` against `reference` for one channel.
func snr(_ reference: ArraySlice<Float>, _ test: ArraySlice<Float>, channel: Int, channels: Int) -> Double {
    var signal = 0.0, noise = 0.0
    var i = channel
    while i < reference.count && i < test.count {
        let r = Double(reference[reference.startIndex + i]), t = Double(test[test.startIndex + i])
        signal += r * r
        noise += (r - t) * (r - t)
        i += channels
    }
    if noise == 0 { return .infinity }
    return 10 * log10(max(signal, 1e-30) / noise)
}

@Suite("afconvert of AAC")
struct AACConvertTests {
    static let names = Fixtures.names.filter { $0.hasSuffix(".aac") || $0.hasPrefix("caf-aac") }

    /// `afconvert -f WAVE -d LEF32` of every AAC fixture: exactly `validFrames` frames where the
    /// file has a packet table (priming and remainder trimmed), packets × 1024 otherwise, and
    /// within 60 dB of ffmpeg's decode of the same frames, sample-aligned.
    @Test(arguments: names)
    func matchesFFmpegTrimmed(name: String) throws {
        let source = try AudioFile(path: Fixtures.path(name))
        let channels = Int(source.dataFormat.channelsPerFrame)
        let reference = try ffmpegAACReference(name)
        let out = temporaryPath(name + ".wav")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let result = try run(afconvert, ["-f", "WAVE", "-d", "LEF32", Fixtures.path(name), out])
        #expect(result.status == 0, "\(result.err)")
        let converted = try AudioFile(path: out)
        let samples = try converted.readBytes(at: 0, count: Int(converted.dataByteCount)).withUnsafeBytes {
            Array($0.bindMemory(to: Float.self))
        }
        let frames = samples.count / channels
        let start: Int
        if let table = source.packetTableInfo {
            #expect(Int64(frames) == table.numberValidFrames)
            start = Int(table.primingFrames)
        } else {
            #expect(Int64(frames) == source.packetCount * 1024)
            start = 0
        }
        #expect(reference.count / channels == Int(source.packetCount) * 1024, "ffmpeg decodes every frame")
        let expected = reference[(start * channels)..<min(reference.count, (start + frames) * channels)]
        for channel in 0..<channels {
            let db = snr(expected, samples[...], channel: channel, channels: channels)
            #expect(db >= 60, "channel \(channel): \(db) dB")
        }
        // One frame off in either direction is far worse: the alignment is exact.
        if frames > 2 {
            let shifted = snr(expected.dropFirst(channels), samples[...], channel: 0, channels: channels)
            #expect(shifted < snr(expected, samples[...], channel: 0, channels: channels) - 10)
        }
    }
}

@Suite("ADTS frames of several raw data blocks")
struct MultiBlockADTSTests {
    /// The fixture's frames repacked two raw data blocks per ADTS frame (ISO/IEC 13818-7:
    /// number_of_raw_data_blocks_in_frame = 1, no CRC): each packet is 2048 frames.
    static func repacked(name: String = "two-blocks.aac") throws -> String {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Fixtures.path("adts-aac-2ch-44100.aac"))))
        var frames: [ArraySlice<UInt8>] = []
        var p = 0
        while p + 7 <= bytes.count {
            let length = Int(bytes[p + 3] & 3) << 11 | Int(bytes[p + 4]) << 3 | Int(bytes[p + 5] >> 5)
            frames.append(bytes[p..<(p + length)])
            p += length
        }
        var out: [UInt8] = []
        for i in stride(from: 0, to: frames.count - 1, by: 2) {
            let a = Array(frames[i]), b = Array(frames[i + 1])
            let payload = Array(a[7...]) + Array(b[7...])
            let length = 7 + payload.count
            var header = Array(a[0..<7])
            header[3] = header[3] & 0xFC | UInt8(length >> 11 & 3)
            header[4] = UInt8(length >> 3 & 0xFF)
            header[5] = UInt8((length & 7) << 5) | header[5] & 0x1F
            header[6] = header[6] & 0xFC | 1
            out += header + payload
        }
        let path = temporaryPath(name)
        try Data(out).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func decodesEveryBlockAndSeeksByFrame() throws {
        let path = try Self.repacked()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (bytes, frames, reader) = try decodeAll(path)
        let file = try AudioFile(path: path)
        #expect(file.packetCount == 5)
        #expect(frames == 10 * 1024)
        #expect(reader.badPackets == 0)
        let reference = try ffmpegAACReference("adts-aac-2ch-44100.aac")
        let samples = floats(bytes[...])
        for channel in 0..<2 { #expect(snr(reference[...], samples[...], channel: channel, channels: 2) >= 60) }
        // A seek into the third packet (frames 4096…6143) lands on the frame asked for.
        try reader.seek(toFrame: 5000)
        #expect(reader.tell() == 5000)
        let buffer = try #require(PCMBuffer(format: reader.clientDataFormat, frameCapacity: 256))
        #expect(try reader.read(into: buffer, frameCount: 256) == 256)
        let got = floats(UnsafeRawBufferPointer(buffer.region())[0..<(256 * 8)][...].map { $0 }[...])
        let expected = Array(samples[(5000 * 2)..<(5256 * 2)])
        #expect(maxDifference(got, expected, lag: 0, channels: 2) <= 0.02)
        #expect(meanSquare(got, expected, lag: 0, channels: 2) * 10 < meanSquare(got, expected, lag: 1, channels: 2))
    }

    /// AudioConverter decodes packets of two raw data blocks too: the description's frame count
    /// (2048) tells the decoder, and the packet decoder has room for them. The converter's decode
    /// buffer held one block, so such packets failed and were dropped without a trace.
    @Test func converterDecodesEveryBlock() throws {
        let path = try Self.repacked(name: "two-blocks-converter.aac")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (bytes, frames, _) = try decodeAll(path)
        let file = try AudioFile(path: path)
        let read = try file.readPackets(from: 0, count: Int(file.packetCount))
        #expect(read.descriptions?.allSatisfy { $0.variableFramesInPacket == 2048 } == true)
        let output = AudioStreamBasicDescription.linearPCM(
            sampleRate: file.dataFormat.sampleRate, channels: file.dataFormat.channelsPerFrame, bitsPerChannel: 32, isFloat: true)
        let converter = try AudioConverter(from: file.dataFormat, to: output, magicCookie: file.magicCookie)
        let converted = try converter.convertAll(AudioConverterPackets(data: read.data, packetCount: read.packetCount, descriptions: read.descriptions))
        #expect(converted.packetCount == frames)
        let same = converted.data == Array(bytes)
        #expect(same)
    }
}
