import Foundation
import Testing
import ProcessSupport
import AudioCore
@testable import AudioFileServices

@Suite("AudioFileStream: Ogg Opus")
struct StreamOggOpusTests {
    /// Fed in pieces of any size, a stream gives the packets the file reader's table lists, in
    /// order, with their durations, after the properties (pre-skip as priming).
    @Test(arguments: ["opusenc-stereo-44100.opus", "spec-spanning-pages.opus", "opusenc-8ch.opus", "chained-mono.opus"])
    func packetsMatchTheFileReader(_ name: String) throws {
        let url = Fixtures.opus.appendingPathComponent(name)
        let bytes = [UInt8](try Data(contentsOf: url))
        let file = try AudioFile(path: url.path)
        let all = try file.readPackets(from: 0, count: Int(file.packetCount))
        let descriptions = try #require(all.descriptions)
        let expected = descriptions.map { Array(all.data[Int($0.startOffset)..<(Int($0.startOffset) + Int($0.dataByteSize))]) }
        for size in [1, 7, 300, 1 << 20] {
            let run = streamRun(bytes) { size }
            #expect(run.error == nil, "\(name) in pieces of \(size): \(String(describing: run.error))")
            #expect(run.ready)
            #expect(run.fileFormat == .ogg || run.fileFormat == nil)
            #expect(run.dataFormat?.formatID == .opus && run.dataFormat?.sampleRate == 48000)
            #expect(run.packetTableInfo?.primingFrames == file.container.packetTableInfo?.primingFrames)
            #expect(run.packets == expected, "\(name) in pieces of \(size): \(run.packets.count) packets, the file \(expected.count)")
        }
    }

    /// A damaged page after the headers loses its packets, not the stream.
    @Test func damagedPageIsSkipped() throws {
        let url = Fixtures.malformed.appendingPathComponent("opus__bad-crc.opus")
        let run = streamRun([UInt8](try Data(contentsOf: url))) { 512 }
        #expect(run.error == nil)
        #expect(run.ready)
        #expect(!run.packets.isEmpty)
    }

    @Test func damagedHeaderFails() throws {
        let url = Fixtures.malformed.appendingPathComponent("opus__bad-crc-head.opus")
        let run = streamRun([UInt8](try Data(contentsOf: url))) { 512 }
        #expect(run.error?.code == .invalidFile)
    }
}
