import Foundation
import Testing
import AudioCore
import AudioFileServices
import AudioQueueServices

/// The LoopingOffline article's program, checked sample by sample against ffmpeg's decode of
/// the file: the passes join without a gap, and the volume ramps as the article says.
@Suite("Gapless loop with a volume ramp", .timeLimit(.minutes(1)))
struct GaplessLoopTests {
    @Test func fourPassesAreTheFileFourTimesWithTheRamps() async throws {
        AACRegistration.once()
        let path = Fixtures.packageRoot.appendingPathComponent("Examples/Sounds/chime.caf").path
        let file = try AudioFile(path: path)
        let loop = try file.readPackets(from: 0, count: .max)
        let trims = try #require(file.packetTableInfo)
        let queue = try AudioQueue(format: file.dataFormat) { _, _ in }
        if let cookie = file.magicCookie { try queue.setMagicCookie(cookie) }
        try queue.setOfflineRenderFormat(queue.renderFormat)
        try queue.setParameter(.volume, 0)
        try queue.setParameter(.volumeRampTime, 1)
        let passes = 4
        for pass in 0..<passes {
            let buffer = try queue.allocateBuffer(byteCapacity: loop.data.count, packetDescriptionCapacity: loop.packetCount)
            try buffer.fill(with: loop.data, packetDescriptions: loop.descriptions ?? [])
            try queue.enqueue(
                buffer, trimFramesAtStart: trims.primingFrameCount, trimFramesAtEnd: trims.remainderFrameCount,
                parameterEvents: [AudioQueueParameterEvent(.volume, pass == passes - 1 ? 0 : 1)])
        }
        try queue.start()
        async let played: Void = queue.playToEnd()
        let output = try queue.allocateBuffer(byteCapacity: 4096 * 8)
        var samples: [Float] = []
        var frames = 4096
        while frames == 4096 {
            frames = try queue.offlineRender(into: output, frameCount: 4096)
            samples += output.samples(as: Float.self)
        }
        try await played
        #expect(queue.state == .stopped)
        try queue.dispose(immediate: true)

        let reference = try referenceDecode(path)
        let channels = reference.channels
        let pass = reference.samples.count
        try #require(channels == 2 && pass == 88200 * 2)
        #expect(samples.count == passes * pass)
        try #require(samples.count == passes * pass)
        // The middle passes play at unity gain: ffmpeg's decode, exactly, seams included.
        #expect(Array(samples[pass..<(3 * pass)]) == reference.samples + reference.samples)
        // The first pass ramps in over one second (44100 frames): silent at its start, the
        // reference from one second on.
        #expect(abs(samples[0]) <= abs(reference.samples[0]) / 1000 && abs(samples[1]) <= abs(reference.samples[1]) / 1000)
        #expect(Array(samples[(44100 * 2)..<pass]) == Array(reference.samples[(44100 * 2)...]))
        let quarter = 11025 * 2
        let ratio = samples[quarter..<(quarter + 200)].map(abs).reduce(0, +)
            / reference.samples[quarter..<(quarter + 200)].map(abs).reduce(0, +)
        #expect(abs(ratio - 0.25) < 0.02, "a quarter of the way through the ramp: \(ratio)")
        // The last ramps out from its start: silent for its second half.
        #expect(samples[(3 * pass + 44100 * 2)...].allSatisfy { $0 == 0 })
    }
}
