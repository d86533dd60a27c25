import Foundation
import Testing
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
        if let crc = Fixtures.ffmpegCRC(name) {
            #expect(adler32(rendered) == crc, "\(name) differs from ffmpeg's float decode")
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
}
