import Foundation
import Testing
import ProcessSupport
import AudioCore
import AudioFileServices

/// Records an issue unless `body` throws an ``AudioFileError`` with `code`.
func expectError<R>(
    _ code: AudioFileError.Code, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> R
) {
    do {
        _ = try body()
        Issue.record("expected \(code), but it succeeded", sourceLocation: sourceLocation)
    } catch let error as AudioFileError {
        #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
    } catch {
        Issue.record("expected \(code), got \(error)", sourceLocation: sourceLocation)
    }
}

@Suite("AudioFileReadPacketData semantics")
struct ReadPacketTests {
    let pcm = "wav-pcm_s16le-2ch-44100.wav"
    let adts = "adts-aac-2ch-44100.aac"

    @Test func constantBitRateReadsWholePackets() throws {
        let file = try AudioFile(path: Fixtures.path(pcm))
        #expect(!file.needsDescriptions)
        let read = try file.readPackets(from: 10, count: 100, maxBytes: 4 * 25 + 3)
        #expect(read.packetCount == 25)  // limited by bytes, never a partial packet
        #expect(read.data.count == 100)
        #expect(read.descriptions == nil)
        let bytes = try file.readBytes(at: 40, count: 100)
        #expect(read.data == bytes)
    }

    @Test func shortReadAtEndThenZero() throws {
        let file = try AudioFile(path: Fixtures.path(pcm))
        let n = file.packetCount
        let tail = try file.readPackets(from: n - 3, count: 10)
        #expect(tail.packetCount == 3)
        let end = try file.readPackets(from: n, count: 10)
        #expect(end.packetCount == 0 && end.data.isEmpty)
        expectError(.invalidPacketOffset) { try file.readPackets(from: n + 1, count: 1) }
        expectError(.invalidPacketOffset) { try file.readPackets(from: -1, count: 1) }
        expectError(.badPropertySize) { try file.readPackets(from: 0, count: 1, maxBytes: 3) }
    }

    @Test func readBytesAtEndOfData() throws {
        let file = try AudioFile(path: Fixtures.path(pcm))
        let last = try file.readBytes(at: file.dataByteCount - 5, count: 100)
        #expect(last.count == 5)
        expectError(.endOfFile) { try file.readBytes(at: file.dataByteCount, count: 1) }
        expectError(.position) { try file.readBytes(at: -1, count: 1) }
    }

    /// What AudioFileReadBytes calls: the same bytes, read into the caller's memory.
    @Test func readBytesIntoTheCallersBuffer() throws {
        let file = try AudioFile(path: Fixtures.path(pcm))
        var buffer = [UInt8](repeating: 0xA5, count: 100)
        let read = try buffer.withUnsafeMutableBytes { try file.readBytes(at: 40, into: $0) }
        #expect(read == 100)
        #expect(buffer == (try file.readBytes(at: 40, count: 100)))
        buffer = [UInt8](repeating: 0xA5, count: 100)
        let last = try buffer.withUnsafeMutableBytes { try file.readBytes(at: file.dataByteCount - 5, into: $0) }
        #expect(last == 5)
        #expect(Array(buffer[..<5]) == (try file.readBytes(at: file.dataByteCount - 5, count: 5)))
        #expect(buffer[5...].allSatisfy { $0 == 0xA5 })
        expectError(.endOfFile) { try buffer.withUnsafeMutableBytes { try file.readBytes(at: file.dataByteCount, into: $0) } }
        expectError(.position) { try buffer.withUnsafeMutableBytes { try file.readBytes(at: -1, into: $0) } }
    }

    @Test func variableBitRateDescriptionsLocateEachPacket() throws {
        let file = try AudioFile(path: Fixtures.path(adts))
        let reference = try Fixtures.framecrc(adts)
        #expect(file.needsDescriptions)
        let read = try file.readPackets(from: 1, count: 4)
        let descriptions = try #require(read.descriptions)
        #expect(descriptions.count == 4)
        var offset: Int64 = 0
        for (i, d) in descriptions.enumerated() {
            #expect(d.startOffset == offset)
            #expect(Int(d.dataByteSize) == reference[i + 1].size)
            #expect(adler32(read.data[Int(d.startOffset)..<Int(d.startOffset) + Int(d.dataByteSize)], start: 0) == reference[i + 1].adler)
            offset += Int64(d.dataByteSize)
        }
        #expect(Int(offset) == read.data.count)
        // A byte limit that cuts the third packet returns two.
        let limit = Int(descriptions[0].dataByteSize + descriptions[1].dataByteSize) + 1
        #expect(try file.readPackets(from: 1, count: 4, maxBytes: limit).packetCount == 2)
    }

    @Test func unsafeBufferVariantMatches() throws {
        let file = try AudioFile(path: Fixtures.path(adts))
        var buffer = [UInt8](repeating: 0, count: 4096)
        var descriptions = [AudioStreamPacketDescription](repeating: .init(startOffset: 0, dataByteSize: 0), count: 8)
        let result = try buffer.withUnsafeMutableBytes { raw in
            try descriptions.withUnsafeMutableBufferPointer { d in
                try file.readPackets(from: 0, count: 8, into: raw, descriptions: d)
            }
        }
        let expected = try file.readPackets(from: 0, count: 8, maxBytes: 4096)
        #expect(result.packetCount == expected.packetCount)
        #expect(Array(buffer[0..<result.byteCount]) == expected.data)
        #expect(Array(descriptions[0..<result.packetCount]) == expected.descriptions)
        // VBR data without room for descriptions is a size error, not a trap.
        expectError(.badPropertySize) {
            try buffer.withUnsafeMutableBytes { raw in try file.readPackets(from: 0, count: 8, into: raw, descriptions: nil) }
        }
    }

    @Test func concurrentReadersSeeTheSameBytes() async throws {
        let file = try AudioFile(path: Fixtures.path(pcm))
        let whole = try file.readPackets(from: 0, count: Int(file.packetCount)).data
        try await withThrowingTaskGroup(of: Bool.self) { group in
            for start in stride(from: Int64(0), to: file.packetCount, by: 500) {
                group.addTask {
                    let part = try file.readPackets(from: start, count: 500).data
                    return part[...] == whole[Int(start) * 4..<Int(start) * 4 + part.count]
                }
            }
            for try await same in group { #expect(same) }
        }
    }

    @Test func opensFromAFileURL() throws {
        let url = Fixtures.valid.appendingPathComponent(pcm)
        let file = try AudioFile(url: url)
        #expect(file.packetCount == (try AudioFile(path: url.path)).packetCount)
        expectError(.fileNotFound) { try AudioFile(url: URL(string: "https://example.invalid/a.wav")!) }
    }

    @Test func openErrors() {
        expectError(.fileNotFound) { try AudioFile(path: "/nonexistent/file.wav") }
        expectError(.invalidFile) { try AudioFile(path: Fixtures.valid.path) }
        expectError(.unsupportedFileType) {
            try AudioFile(source: MemoryByteSource(Array("plain text, not audio".utf8)))
        }
    }

    /// Packets with headers or other bytes between them (ADTS, MPEG audio, MPEG-4) read many at
    /// a time, with one read of their whole span or, in a buffer too small for the span, run by
    /// run, come out back to back exactly as read one by one.
    @Test(arguments: ["valid/adts-aac-2ch-44100.aac", "mp3/cbr-128k-2ch-44100.mp3", "mp4/aac-2ch-44100.m4a"])
    func packetsAcrossGapsReadAsOneByOne(fixture: String) throws {
        let file = try AudioFile(path: Fixtures.root.appendingPathComponent(fixture).path)
        let count = min(Int(file.packetCount), 40)
        var single: [UInt8] = []
        var sizes: [UInt32] = []
        for packet in 0..<count {
            let read = try file.readPackets(from: Int64(packet), count: 1)
            single += read.data
            sizes.append(try #require(read.descriptions?.first).dataByteSize)
        }
        for room in [1 << 20, single.count] {
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: room, alignment: 16)
            defer { buffer.deallocate() }
            let descriptions = UnsafeMutableBufferPointer<AudioStreamPacketDescription>.allocate(capacity: count)
            defer { descriptions.deallocate() }
            let read = try file.readPackets(from: 0, count: count, into: buffer, descriptions: descriptions)
            #expect(read.packetCount == count && read.byteCount == single.count)
            #expect(Array(UnsafeRawBufferPointer(rebasing: buffer[0..<read.byteCount])) == single)
            var offset: Int64 = 0
            for i in 0..<read.packetCount {
                #expect(descriptions[i].startOffset == offset && descriptions[i].dataByteSize == sizes[i])
                offset += Int64(sizes[i])
            }
        }
    }
}
