import Foundation
import Testing
import ProcessSupport
import AudioCore
import AudioCodecs
import AudioCodecMPG123
import AudioFileServices
import ExtendedAudioFileServices
import DecodeTestSupport

@Suite("MP3 through ExtAudioFile")
struct ExtAudioFileTests {
    /// MP3 in an MPEG-4 file: ExtAudioFile trims the edit list's priming (LAME's 576 frames plus
    /// the decoder's 529, which ffmpeg's encoder records) and the remainder, as ffmpeg does at
    /// the start; ffmpeg keeps the remainder at the end, so its decode is longer.
    @Test func mp4WithMP3MatchesFFmpeg() throws {
        MP3Decoder.register()
        let name = "stereo-44100-128k-in.mp4"
        let reader = try ExtAudioFile(path: MP3Fixtures.refs.appendingPathComponent(name).path)
        #expect(reader.fileDataFormat.formatID == .mpegLayer3)
        let samples = try readAllFloat(reader)
        let reference = try MP3Fixtures.reference(name)
        print("\(name): \(samples.count / 2) frames (priming \(reader.primingFrames)), ffmpeg \(reference.count / 2)")
        #expect(samples.count / 2 == 22050)
        #expect(reader.primingFrames == 1105)
        let lag = crossCorrelationLag(reference: reference, test: samples, channels: 2, range: 2304)
        #expect(lag == 0)
        for c in 0..<2 {
            let db = snr(reference: Array(reference.prefix(samples.count)), test: samples, channels: 2, channel: c, lag: 0)
            #expect(db >= 60, "channel \(c): \(db) dB")
        }
    }
}

@Suite("MP3 seeking through ExtAudioFile")
struct ExtAudioFileSeekTests {
    /// Reads `count` frames from `frame` on (after a seek).
    func read(_ reader: ExtAudioFile, from frame: Int64, count: Int) throws -> [Float] {
        try reader.seek(toFrame: frame)
        let buffer = try #require(PCMBuffer(format: reader.clientDataFormat, frameCapacity: count))
        var samples: [Float] = []
        while samples.count < count * 2 {
            buffer.frameLength = 0
            let n = try reader.read(into: buffer, frameCount: count - samples.count / 2)
            if n == 0 { break }
            for s in 0..<(n * 2) { samples.append(buffer.region(0).load(fromByteOffset: 4 * s, as: Float.self)) }
        }
        return samples
    }

    /// After a seek the decoder is reset and the packets before the target are decoded again
    /// (the bit reservoir and the overlap): the samples are those of reading from the start.
    @Test func seekingMatchesReadingThrough() throws {
        MP3Decoder.register()
        let reader = try ExtAudioFile(path: MP3Fixtures.refs.appendingPathComponent("stereo-44100-128k-in.mp4").path)
        try reader.setClientDataFormat(.linearPCM(sampleRate: 44100, channels: 2, bitsPerChannel: 32, isFloat: true))
        let all = try read(reader, from: 0, count: 22050)
        #expect(all.count == 22050 * 2)
        for frame in [1, 1151, 1152, 5000, 12345, 20000] {
            let part = try read(reader, from: Int64(frame), count: 1000)
            let expected = Array(all[(frame * 2)..<min(all.count, (frame + 1000) * 2)])
            let worst = zip(part, expected).map { abs($0 - $1) }.max() ?? 0
            #expect(part.count == expected.count && worst == 0, "seek to \(frame): \(part.count) samples, max difference \(worst)")
        }
    }

    /// MPEG audio in WAVE (format tags 0x0055 and 0x0050, as ffmpeg's WAVE muxer writes them):
    /// AudioFile splits the data chunk into frames exactly as ffmpeg's demuxer does, and
    /// ExtAudioFile decodes them to ffmpeg's samples (no gapless information, so every frame).
    @Test(arguments: [
        ("stereo-44100-128k-in.wav", AudioFormatID.mpegLayer3, 1152), ("mono-22050-48k-in.wav", .mpegLayer3, 576),
        ("stereo-48000-192k-in.wav", .mpegLayer2, 1152),
    ])
    func mpegInWAVEMatchesFFmpeg(name: String, id: AudioFormatID, framesPerPacket: Int) throws {
        MP3Decoder.register()
        let path = MP3Fixtures.refs.appendingPathComponent(name).path
        let file = try AudioFile(path: path)
        #expect(file.fileType == .wave)
        #expect(file.dataFormat.formatID == id)
        #expect(Int(file.dataFormat.framesPerPacket) == framesPerPacket)
        let packets = try MP3Fixtures.framecrc(name)
        #expect(file.packetCount == Int64(packets.count))
        var next: Int64 = 0
        while next < file.packetCount {
            let read = try file.readPackets(from: next, count: 50)
            for (i, d) in (read.descriptions ?? []).enumerated() {
                let bytes = read.data[Int(d.startOffset)..<(Int(d.startOffset) + Int(d.dataByteSize))]
                let reference = packets[Int(next) + i]
                #expect(Int(d.dataByteSize) == reference.size && adler32(bytes, start: 0) == reference.adler, "packet \(Int(next) + i)")
            }
            next += Int64(read.packetCount)
            if read.packetCount == 0 { break }
        }

        let reader = try ExtAudioFile(path: path)
        let channels = Int(reader.fileDataFormat.channelsPerFrame)
        let samples = try readAllFloat(reader)
        let reference = try MP3Fixtures.reference(name)
        #expect(samples.count == reference.count, "\(samples.count / channels) frames, ffmpeg \(reference.count / channels)")
        #expect(samples.count == packets.count * framesPerPacket * channels)
        for c in 0..<channels {
            let db = snr(reference: reference, test: samples, channels: channels, channel: c, lag: 0)
            #expect(db >= 60, "channel \(c): \(db) dB")
        }
    }
}
