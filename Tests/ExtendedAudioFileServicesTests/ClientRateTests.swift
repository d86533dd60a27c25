import Foundation
import Testing
import AudioCore
import AudioCodecs
import AudioConverterServices
import ExtendedAudioFileServices
import ProcessSupport
import AudioCodecFAAD

@Suite("ExtAudioFile client rates and channels")
struct ClientRateTests {
    init() { AACDecoder.register() }

    /// Every decodable fixture reads at 8, 22.05, 44.1, 48 and 96 kHz as exactly
    /// round(N × B / A) frames, N frames at the decoded rate A.
    @Test(arguments: Fixtures.decodable)
    func everyFixtureReadsToTheExactLength(name: String) throws {
        for rate in [8000.0, 22050, 44100, 48000, 96000] {
            let reader = try ExtAudioFile(path: Fixtures.path(name))
            let decoded = reader.decodedFormat
            let client = AudioStreamBasicDescription.linearPCM(
                sampleRate: rate, channels: decoded.channelsPerFrame, bitsPerChannel: 32, isFloat: true)
            try reader.setClientDataFormat(client)
            let expected = Int64((Double(reader.fileLengthFrames) * rate / decoded.sampleRate).rounded())
            #expect(reader.clientLengthFrames == expected)
            var total: Int64 = 0
            try reader.readAll(maximumThreads: 1) { buffer in
                total += Int64(buffer.frameLength)
                return true
            }
            #expect(total == expected, "\(name) at \(rate) Hz")
            #expect(reader.tell() == expected)
        }
    }

    /// 44.1 to 48 kHz at the best quality agrees with ffmpeg's libsoxr resampler at its best
    /// precision, after the same delay compensation.
    @Test
    func resamplingAgreesWithFFmpegSoxr() throws {
        let reader = try ExtAudioFile(path: writerSource)
        let client = AudioStreamBasicDescription.linearPCM(sampleRate: 48000, channels: 2, bitsPerChannel: 32, isFloat: true)
        try reader.setClientDataFormat(client, quality: .max)
        let ours = try #require(PCMBuffer(format: client, frameCapacity: Int(reader.clientLengthFrames)))
        while try reader.read(into: ours, frameCount: ours.framesFree) > 0 {}
        let bytes = try ffmpegRaw(writerSource, ["-af", "aresample=48000:resampler=soxr:precision=28", "-c:a", "pcm_f32le"], format: "f32le")
        let theirs = bytes.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        let mine = Array(UnsafeBufferPointer(start: ours.region().baseAddress!.assumingMemoryBound(to: Float.self), count: ours.frameLength * 2))
        #expect(abs(theirs.count / 2 - mine.count / 2) <= 2, "\(theirs.count / 2) and \(mine.count / 2) frames")
        // Away from the ends, where the two fill their filters differently.
        var signal = 0.0, noise = 0.0
        for i in 2000..<(min(mine.count, theirs.count) - 2000) {
            signal += Double(theirs[i]) * Double(theirs[i])
            noise += Double(mine[i] - theirs[i]) * Double(mine[i] - theirs[i])
        }
        let snr = 10 * log10(signal / max(noise, 1e-30))
        #expect(snr > 90, "\(snr) dB from ffmpeg's soxr resample")
    }

    /// A seek at the client rate lands on the frame a read from the start gives there.
    @Test(arguments: [8000.0, 48000, 96000])
    func seeksAreSampleExact(rate: Double) throws {
        let reader = try ExtAudioFile(path: writerSource)
        let client = AudioStreamBasicDescription.linearPCM(sampleRate: rate, channels: 2, bitsPerChannel: 32, isFloat: true)
        try reader.setClientDataFormat(client)
        let whole = try #require(PCMBuffer(format: client, frameCapacity: Int(reader.clientLengthFrames)))
        while try reader.read(into: whole, frameCount: whole.framesFree) > 0 {}
        let all = UnsafeBufferPointer(start: whole.region().baseAddress!.assumingMemoryBound(to: Float.self), count: whole.frameLength * 2)
        for target in [0, 1, 777, whole.frameLength / 2 + 3, whole.frameLength - 100] {
            try reader.seek(toFrame: Int64(target))
            #expect(reader.tell() == Int64(target))
            let piece = try #require(PCMBuffer(format: client, frameCapacity: 100))
            #expect(try reader.read(into: piece, frameCount: 100) == 100)
            let got = UnsafeBufferPointer(start: piece.region().baseAddress!.assumingMemoryBound(to: Float.self), count: 200)
            let worst = (0..<200).map { abs(got[$0] - all[target * 2 + $0]) }.max() ?? 1
            #expect(worst < 1e-4, "at \(target): differs by \(worst)")
        }
    }

    /// A mono client of a stereo file and a stereo client of a mono file read every frame.
    @Test func channelCountsChange() throws {
        let reader = try ExtAudioFile(path: writerSource)
        let mono = AudioStreamBasicDescription.linearPCM(sampleRate: 44100, channels: 1, bitsPerChannel: 16)
        try reader.setClientDataFormat(mono)
        let buffer = try #require(PCMBuffer(format: mono, frameCapacity: Int(reader.clientLengthFrames)))
        while try reader.read(into: buffer, frameCount: buffer.framesFree) > 0 {}
        #expect(Int64(buffer.frameLength) == reader.fileLengthFrames)
        let left = try ffmpegRaw(writerSource, ["-af", "pan=mono|c0=c0", "-c:a", "pcm_s16le"], format: "s16le")
        let both = try ffmpegRaw(writerSource, ["-af", "pan=mono|c0=0.5*c0+0.5*c1", "-c:a", "pcm_s16le"], format: "s16le")
        let ours = [UInt8](UnsafeRawBufferPointer(start: buffer.region().baseAddress, count: buffer.byteLength))
        // Whichever rule the converter follows (see ChannelMixer), it is one of ffmpeg's.
        #expect(firstDifference(ours, left) == nil || closeEnough(ours, both), "mono is neither the left channel nor the mean")
    }
}

/// True when two 16-bit little-endian streams differ by at most one step anywhere.
func closeEnough(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    guard a.count == b.count else { return false }
    for i in stride(from: 0, to: a.count - 1, by: 2) {
        let x = Int(Int16(bitPattern: UInt16(a[i]) | UInt16(a[i + 1]) << 8))
        let y = Int(Int16(bitPattern: UInt16(b[i]) | UInt16(b[i + 1]) << 8))
        if abs(x - y) > 1 { return false }
    }
    return true
}
