import Foundation
import Testing
import ProcessSupport
import AudioCore
import AudioFileServices

/// The Ogg Opus writer's page laying, checked by ffprobe and opusinfo: packets of every lacing
/// shape (a multiple of 255 bytes needs a closing 0), packets continued across pages, granule
/// positions and end trimming, and the header pages.
@Suite("Writing Ogg Opus pages")
struct OggWriterTests {
    static let tools = ["/usr/bin/ffprobe", "/usr/bin/opusinfo"]

    /// Packets of one 20 ms CELT frame (TOC 0xFC: configuration 31, stereo, one frame) of
    /// `sizes` bytes each (their payload is not decoded here).
    static func packets(_ sizes: [Int]) -> (bytes: [UInt8], descriptions: [AudioStreamPacketDescription]) {
        var bytes: [UInt8] = []
        var descriptions: [AudioStreamPacketDescription] = []
        for size in sizes {
            descriptions.append(AudioStreamPacketDescription(startOffset: Int64(bytes.count), dataByteSize: UInt32(size)))
            bytes += [0xFC] + (1..<size).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        }
        return (bytes, descriptions)
    }

    static func path(_ name: String) -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("oggwriter-\(getpid())-\(UUID().uuidString.prefix(8))")
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir.appendingPathComponent(name).path
    }

    /// ffprobe reads back every packet at its size, packets of 20000 bytes continued across pages
    /// included; opusinfo finds no fault in the stream; the reader trims what the packet table
    /// said.
    @Test func packetsOfEveryShape() throws {
        try #require(Self.tools.allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }, "ffprobe or opusinfo is not installed")
        let sizes = [200, 254, 255, 256, 510, 20000, 20000, 20000, 20000, 1, 300] + [Int](repeating: 200, count: 60)
        let (bytes, descriptions) = Self.packets(sizes)
        let path = Self.path("shapes.opus")
        let writer = try AudioFileWriter(path: path, type: .ogg, format: .opus(channels: 2), flags: .eraseFile)
        try writer.setMagicCookie(OpusHead(channelCount: 2, preSkip: 312).packet)
        // In two calls, as an encoder hands them over.
        try writer.writePackets(
            startingPacket: 0, bytes: bytes, descriptions: Array(descriptions[0..<7]), packetCount: 7)
        let rest = Array(descriptions[7...]).map {
            AudioStreamPacketDescription(startOffset: $0.startOffset, dataByteSize: $0.dataByteSize)
        }
        try writer.writePackets(startingPacket: 7, bytes: bytes, descriptions: rest, packetCount: rest.count)
        let total = Int64(sizes.count * 960)
        try writer.setPacketTableInfo(AudioFilePacketTableInfo(numberValidFrames: total - 312 - 500, primingFrames: 312, remainderFrames: 500))
        try writer.close()

        let probe = try runProcess(
            "/usr/bin/ffprobe", ["-v", "error", "-select_streams", "a:0", "-show_entries", "packet=size", "-of", "csv=p=0", path])
        #expect(probe.status == 0, "\(probe.err)")
        // A packet with side data (the first: its skip samples) has a trailing comma.
        let probed = probe.out.split(separator: "\n").compactMap { Int($0.split(separator: ",").first ?? "") }
        #expect(probed == sizes, "ffprobe reads packets of \(probed)")
        let info = try runProcess("/usr/bin/opusinfo", [path])
        #expect(info.status == 0 && !info.out.contains("WARNING") && !info.out.contains("ERROR"), "\(info.out)\(info.err)")
        #expect(info.out.contains("Pre-skip: 312"))

        let file = try AudioFile(path: path)
        #expect(file.packetCount == Int64(sizes.count))
        let table = try #require(file.container.packetTableInfo)
        #expect(table.primingFrames == 312 && table.numberValidFrames == total - 312 - 500 && table.remainderFrames == 500)
    }

    /// Formats Ogg does not hold, and cookies of another channel count, are refused.
    @Test func refusals() throws {
        #expect(throws: AudioFileError.self) {
            _ = try AudioFileWriter(path: Self.path("x.opus"), type: .ogg, format: .aac(sampleRate: 48000, channels: 2), flags: .eraseFile)
        }
        #expect(throws: AudioFileError.self) {
            _ = try AudioFileWriter(path: Self.path("y.opus"), type: .ogg, format: .opus(sampleRate: 44100, channels: 2), flags: .eraseFile)
        }
        let writer = try AudioFileWriter(path: Self.path("z.opus"), type: .ogg, format: .opus(channels: 2), flags: .eraseFile)
        #expect(throws: AudioFileError.self) { try writer.setMagicCookie(OpusHead(channelCount: 1, preSkip: 312).packet) }
        #expect(throws: AudioFileError.self) { try writer.setMagicCookie([1, 2, 3]) }
        try writer.close()
    }
}
