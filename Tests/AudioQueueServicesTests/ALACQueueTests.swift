import Foundation
import Testing
import AudioCore
import AudioCodecs
import AudioQueueServices
import AudioFileServices
import AudioTestSupport

@Suite("Apple Lossless through an audio queue")
struct ALACQueueTests {
    static let directory = Fixtures.root.appendingPathComponent("alac")

    /// ffmpeg-encoded ALAC played the guide's way through an offline queue renders exactly
    /// what ExtAudioFile decodes (which the ExtendedAudioFileServices tests hold to ffmpeg's
    /// decode), including the short last frame ffmpeg's packet table does not announce.
    @Test(arguments: ["alac-2ch-44100-s16-tone", "alac-1ch-48000-s24-tone", "alac-6ch-48000-s16-tone", "alac-1ch-44100-s16-noise"])
    func rendersAsExtAudioFileDecodes(name: String) throws {
        let path = Self.directory.appendingPathComponent(name + ".caf").path
        let player = try FilePlayer(path: path)
        #expect(player.file.dataFormat.formatID == .appleLossless)
        let rendered = try player.renderOffline()
        let reference = try referenceDecode(path)
        #expect(rendered.count == reference.samples.count, "\(name): \(rendered.count) vs \(reference.samples.count) samples")
        #expect(rendered == reference.samples, "\(name) differs from the ExtAudioFile decode")
    }
}
