import Foundation
import Testing
import Synchronization
import AudioQueueKit
import AudioTestSupport

/// The playback code README.md and the Playing article teach, compiled here and run: the lines
/// between the markers below must be those of the first Swift block in each document (up to
/// the file's path and indentation), so the documents cannot teach code that does not build.
@Suite("Documentation snippets")
struct DocumentationSnippetTests {
    static let begin = "// snippet: playback"
    static let end = "// end of snippet"

    /// The snippet, rendered offline: what it plays is the file's decode, packet for packet.
    @Test func playbackSnippetPlaysTheFile() throws {
        let path = Fixtures.path("caf-aac-2ch-48000.caf")
        // snippet: playback
        AudioQueueKit.registerAll()                         // AAC through faad2
        let file = try AudioFile(path: path)
        let nextPacket = Mutex<Int64>(0)                    // the callbacks' state: one call at a time
        let fill: AudioQueue.OutputCallback = { queue, buffer in
            nextPacket.withLock { packet in
                let read = try? file.readPackets(from: packet, count: 64, into: buffer.data,
                                                 descriptions: buffer.packetDescriptionBuffer)
                guard let read, read.packetCount > 0 else {
                    try? queue.stop(immediate: false)       // plays what is enqueued, then stops
                    return
                }
                buffer.audioDataByteSize = read.byteCount
                buffer.packetDescriptionCount = read.packetCount
                try? queue.enqueue(buffer)
                packet += Int64(read.packetCount)
            }
        }
        let queue = try AudioQueue(format: file.dataFormat, callback: fill)
        if let cookie = file.magicCookie { try queue.setMagicCookie(cookie) }
        // end of snippet
        let format = queue.renderFormat
        try queue.setOfflineRenderFormat(format)
        for _ in 0..<3 { fill(queue, try queue.allocateBuffer(byteCapacity: 64 * 1536, packetDescriptionCapacity: 64)) }
        try queue.start()
        let capture = try queue.allocateBuffer(byteCapacity: 4096 * Int(format.bytesPerFrame))
        var rendered: [Float] = []
        var time = 0.0
        while true {
            try queue.offlineRender(at: .sampleTime(time), into: capture, frameCount: 4096)
            let frames = capture.audioDataByteSize / Int(format.bytesPerFrame)
            rendered += UnsafeBufferPointer(start: capture.audioData.assumingMemoryBound(to: Float.self), count: frames * Int(format.channelsPerFrame))
            time += Double(frames)
            if frames < 4096 { break }
        }
        try queue.dispose(immediate: true)

        // The snippet enqueues without trims: every packet's frames play, the priming first.
        let reference = try referenceDecode(path)
        let table = try #require(file.packetTableInfo)
        let channels = reference.channels
        let priming = Int(table.primingFrames) * channels
        #expect(rendered.count == Int(file.packetCount) * 1024 * channels)
        try #require(rendered.count >= priming + reference.samples.count)
        #expect(Array(rendered[priming..<(priming + reference.samples.count)]) == reference.samples)
    }

    /// The lines of this file between the markers, without their common indentation, with the
    /// fixture's path variable where the documents name a file.
    static func testedLines() throws -> [String] {
        let source = try String(contentsOfFile: #filePath, encoding: .utf8)
        return try block(in: source, from: begin, to: end)
    }

    static func block(in text: String, from: String, to: String) throws -> [String] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let first = try #require(lines.firstIndex { $0.trimmingCharacters(in: .whitespaces) == from }) + 1
        let last = try #require(lines[first...].firstIndex { $0.trimmingCharacters(in: .whitespaces) == to })
        return dedent(Array(lines[first..<last]))
    }

    static func dedent(_ lines: [String]) -> [String] {
        let indent = lines.filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
            .map { $0.prefix { $0 == " " }.count }.min() ?? 0
        return lines.map { String($0.dropFirst(min(indent, $0.prefix { $0 == " " }.count))) }
    }

    /// The lines of a document's first Swift block that makes an `AudioQueue`, without its
    /// imports and blank lines, with the file it opens replaced by `path`.
    static func documentLines(_ relativePath: String) throws -> [String] {
        let text = try String(contentsOf: Fixtures.packageRoot.appendingPathComponent(relativePath), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var index = 0
        while let open = lines[index...].firstIndex(where: { $0.hasPrefix("```swift") }) {
            let close = try #require(lines[(open + 1)...].firstIndex { $0.hasPrefix("```") })
            let body = lines[(open + 1)..<close]
            if body.contains(where: { $0.contains("AudioQueue(format:") }) {
                return body.filter { !$0.hasPrefix("import ") && !$0.isEmpty }
                    .map { $0.replacing(#/AudioFile\(path: "[^"]*"\)/#, with: "AudioFile(path: path)") }
            }
            index = close + 1
        }
        Issue.record("\(relativePath) has no Swift block that makes an AudioQueue")
        return []
    }

    @Test(arguments: ["README.md", "Sources/AudioQueueServices/AudioQueueServices.docc/Playing.md"])
    func documentsTeachTheTestedCode(document: String) throws {
        let tested = try Self.testedLines()
        let taught = try Self.documentLines(document)
        // The document may go on (allocate, prime and start, which the test does offline).
        #expect(Array(taught.prefix(tested.count)) == tested, "\(document) teaches other playback code than this test compiles")
    }
}
