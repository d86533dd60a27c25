import Foundation
import Testing
import ProcessSupport
import AudioCore
import AudioCodecs
import AudioQueueServices
import AudioFileServices

@Suite("Offline render: the queue's pipeline, sample for sample")
struct OfflineRenderTests {
    /// Every decodable fixture played through a queue the guide's way renders exactly what
    /// afconvert's decoder (ExtAudioFile) produces — and, where ffmpeg's float decode is on
    /// file, exactly ffmpeg's samples.
    @Test(arguments: Fixtures.decodable)
    func everyFixtureRendersAsAfconvertDecodes(name: String) throws {
        let player = try FilePlayer(path: Fixtures.path(name))
        let rendered = try player.renderOffline()
        let reference = try referenceDecode(Fixtures.path(name))
        #expect(rendered.count == reference.samples.count, "\(name): \(rendered.count) vs \(reference.samples.count) samples")
        let firstDifference = rendered.indices.first { $0 < reference.samples.count && rendered[$0] != reference.samples[$0] }
        #expect(firstDifference == nil, "\(name) differs from the ExtAudioFile decode at sample \(firstDifference ?? -1)")
        // Every fixture has ffmpeg's reference: the Adler-32 of its float decode, or for AAC its
        // decode itself. A missing reference fails the test (Scripts/make-fixtures makes them).
        guard Fixtures.isAAC(name) else {
            #expect(adler32(rendered) == (try Fixtures.ffmpegCRC(name)), "\(name) differs from ffmpeg's float decode")
            return
        }
        // AAC: ffmpeg's own decoder, trimmed as the packet table says, at lag 0. Two AAC
        // decoders agree to about 130 dB; a frame of misalignment falls far below 100 dB.
        let ffmpeg = try ffmpegAACReference(Fixtures.path(name))
        let channels = Int(player.queue.renderFormat.channelsPerFrame)
        #expect(rendered.count == ffmpeg.count, "\(name): \(rendered.count / channels) frames, ffmpeg \(ffmpeg.count / channels)")
        for c in 0..<channels {
            let db = snr(reference: ffmpeg, refChannels: channels, refChannel: c, test: rendered, testChannels: channels, testChannel: c)
            #expect(db > 100, "\(name) channel \(c): \(db) dB against ffmpeg's decode")
        }
    }

    /// QA1636: looping a CAF AAC file with priming and remainder three times gives exactly
    /// three times its valid frames, each loop the reference decode — no gap, no click.
    @Test func loopingCAFAACIsGapless() throws {
        let name = try #require(Fixtures.names.first { $0.hasPrefix("caf-aac") && $0.contains("2ch") && !$0.contains("pakt-after") })
        let player = try FilePlayer(path: Fixtures.path(name), loops: 3)
        let info = try #require(player.file.packetTableInfo)
        #expect(info.primingFrames > 0 && info.remainderFrames > 0, "the fixture must have priming and remainder frames")
        let rendered = try player.renderOffline()
        let reference = try referenceDecode(Fixtures.path(name))
        let channels = reference.channels
        #expect(Int64(reference.samples.count / channels) == info.numberValidFrames)
        #expect(rendered.count == 3 * reference.samples.count, "\(rendered.count / channels) frames for 3 × \(info.numberValidFrames)")
        guard rendered.count == 3 * reference.samples.count else { return }
        let looped = reference.samples + reference.samples + reference.samples
        // Each seam, ±2048 frames: the loop's end runs straight into its start.
        for seam in 1...2 {
            let at = seam * reference.samples.count
            let window = (at - 2048 * channels)..<(at + 2048 * channels)
            var worst: Float = 0
            for i in window { worst = max(worst, abs(rendered[i] - looped[i])) }
            #expect(worst < 1e-4, "seam \(seam): largest difference \(worst)")
        }
        var worst: Float = 0
        for i in 0..<rendered.count { worst = max(worst, abs(rendered[i] - looped[i])) }
        #expect(worst < 1e-4, "largest difference from three reference decodes: \(worst)")
    }

    /// QA1636 against a decoder nobody here wrote: 1.2 s of AAC (54 packets, 2112 priming and
    /// 264 remainder frames) looped three times, with the guide's half-second buffers (23
    /// packets: a loop ends inside a buffer) and with one packet per buffer (the priming spans
    /// three buffers), renders three times ffmpeg's decode, with no gap or click at the seams.
    @Test(arguments: [nil, 1])
    func loopingMatchesFFmpegThreeTimesOver(packetsPerBuffer: Int?) throws {
        let path = Fixtures.root.appendingPathComponent("aac-refs/nopns-caf-aac-2ch-44100-loop.caf").path
        let ffmpeg = try ffmpegAACReference(path)
        let player = try FilePlayer(path: path, loops: 3, packetsPerBuffer: packetsPerBuffer)
        let info = try #require(player.file.packetTableInfo)
        #expect(info.primingFrames == 2112 && info.remainderFrames == 264 && info.numberValidFrames == 52920)
        if packetsPerBuffer == nil { #expect(player.packetsPerBuffer < Int(player.file.packetCount)) }
        let rendered = try player.renderOffline()
        let channels = 2
        #expect(rendered.count == 3 * ffmpeg.count, "\(rendered.count / channels) frames for 3 × \(ffmpeg.count / channels)")
        guard rendered.count == 3 * ffmpeg.count else { return }
        let looped = ffmpeg + ffmpeg + ffmpeg
        for c in 0..<channels {
            let whole = snr(reference: looped, refChannels: channels, refChannel: c, test: rendered, testChannels: channels, testChannel: c)
            #expect(whole > 100, "channel \(c): \(whole) dB against three ffmpeg decodes")
            for seam in 1...2 {
                let at = seam * ffmpeg.count / channels
                let db = snr(reference: looped, refChannels: channels, refChannel: c, test: rendered, testChannels: channels, testChannel: c,
                             from: at - 2048, frames: 4096)
                #expect(db > 100, "seam \(seam), channel \(c): \(db) dB in the 4096 frames around it")
            }
        }
    }

    /// A click detector that can fail: the same comparison flags a loop that drops the trim.
    @Test func seamCheckCatchesAnUntrimmedLoop() throws {
        let name = try #require(Fixtures.names.first { $0.hasPrefix("caf-aac") && $0.contains("2ch") && !$0.contains("pakt-after") })
        let reference = try referenceDecode(Fixtures.path(name))
        let file = try AudioFile(path: Fixtures.path(name))
        let priming = Int(file.packetTableInfo!.primingFrames) * reference.channels
        // Two loops where the second keeps its priming: differs right after the seam.
        let wrong = reference.samples + reference.samples[0..<priming].map { _ in Float(0) } + reference.samples
        let right = reference.samples + reference.samples
        var worst: Float = 0
        for i in reference.samples.count..<(reference.samples.count + 4096) { worst = max(worst, abs(wrong[i] - right[i])) }
        #expect(worst > 1e-3)
    }

    /// Switching the offline format between renders uses buffers of the new format.
    @Test func offlineFormatChangesBetweenRenders() throws {
        let queue = try AudioQueue(format: float32Mono) { _, _ in }
        let int16 = AudioStreamBasicDescription.linearPCM(sampleRate: 48000, channels: 1, bitsPerChannel: 16)
        let int32 = AudioStreamBasicDescription.linearPCM(sampleRate: 48000, channels: 1, bitsPerChannel: 32)
        let capture = try queue.allocateBuffer(byteCapacity: 4000)
        for format in [int16, int32] {
            try queue.setOfflineRenderFormat(format)
            try queue.enqueue(try floatBuffer(queue, [Float](repeating: 0.5, count: 1000)))
            try queue.start()
            try queue.offlineRender(at: .sampleTime(0), into: capture, frameCount: 1000)
            #expect(capture.audioDataByteSize == 1000 * Int(format.bytesPerFrame))
            if format == int16 {
                #expect(capture.audioData.load(fromByteOffset: 1998, as: Int16.self) == 16384)
            } else {
                #expect(capture.audioData.load(fromByteOffset: 3996, as: Int32.self) == 1 << 30)
            }
            try queue.stop(immediate: true)
        }
    }
}
