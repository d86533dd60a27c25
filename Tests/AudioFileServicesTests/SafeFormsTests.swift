import Foundation
import Testing
import ProcessSupport
import AudioCore
@testable import AudioFileServices

/// The forms without pointers give what the pointer forms give.
@Suite struct SafeFormsTests {
    /// An MP3 stream, read whole.
    static func mp3() throws -> [UInt8] {
        try Fixtures.bytes(Fixtures.root.appendingPathComponent("streams/tone-6s-1ch-22050.mp3"))
    }

    /// Parses `feed`'s pieces with the safe forms; returns the packets delivered.
    static func packets(_ feed: (AudioFileStream) throws -> Void) throws -> [[UInt8]] {
        var out: [[UInt8]] = []
        let parser = try AudioFileStream(packets: { _, packets in out += packets.map { Array($0) } })
        try feed(parser)
        try parser.finish()
        return out
    }

    @Test func everyCollectionOfBytesParsesAlike() throws {
        let bytes = try Self.mp3()
        let reference = streamRun(bytes, pieces: { 1000 }).packets
        #expect(reference.count > 200)
        // An array, in one piece and in slices.
        #expect(try Self.packets { try $0.parse(bytes) } == reference)
        #expect(try Self.packets { p in
            for start in stride(from: 0, to: bytes.count, by: 333) { try p.parse(bytes[start..<min(start + 333, bytes.count)]) }
        } == reference)
        // Data, as FileHandle and URLSession hand it over.
        #expect(try Self.packets { try $0.parse(Data(bytes)) } == reference)
        // A collection without contiguous storage: copied, then parsed.
        #expect(try Self.packets { try $0.parse(bytes.lazy.map { $0 }) } == reference)
        // An empty collection parses nothing and does not end the stream.
        #expect(try Self.packets { p in
            try p.parse([UInt8]())
            try p.parse(bytes)
        } == reference)
    }

    @Test func packetsCarryTheirDescriptions() throws {
        let bytes = try Self.mp3()
        var batches: [AudioFile.Packets] = []
        let parser = try AudioFileStream(packets: { _, packets in batches.append(packets) })
        try parser.parse(bytes)
        try parser.finish()
        for batch in batches {
            #expect(batch.descriptions?.count == batch.count)
            for (i, packet) in batch.enumerated() {
                #expect(packet.count == Int(batch.descriptions![i].dataByteSize))
                #expect(batch.frameCount(ofPacket: i, framesPerPacket: 576) == 576)
            }
        }
    }

    @Test func finishEndsTheStreamAsNoBytesDo() throws {
        let parser = try AudioFileStream(packets: { _, _ in })
        try parser.parse(try Self.mp3())
        try parser.finish()
        parser.close()
        #expect(throws: AudioFileStreamError.self) { try parser.parse([0xFF]) }
    }

    @Test func writerAppendsPacketsAndBytes() throws {
        // Variable-size packets from a stream into a CAF file, as AudioFile.Packets.
        let bytes = try Self.mp3()
        let path = temporaryAudioPath("safe-forms.caf")
        defer { unlink(path) }
        var format: AudioStreamBasicDescription?
        var writer: AudioFileWriter?
        var written = 0
        let parser = try AudioFileStream(
            propertyListener: { stream, property in
                if property == .readyToProducePackets { format = stream.dataFormat }
            },
            packets: { _, packets in
                if writer == nil { writer = try? AudioFileWriter(path: path, type: .caf, format: format!, flags: .eraseFile) }
                written += (try? writer?.writePackets(packets)) ?? 0
            })
        try parser.parse(bytes)
        try parser.finish()
        try #require(writer).close()
        let reread = try AudioFile(path: path)
        #expect(Int(reread.packetCount) == written)
        #expect(try readAllPackets(reread).data == streamRun(bytes, pieces: { 4096 }).packets.flatMap { $0 })

        // Constant-size packets as bytes: whole packets only.
        let pcmPath = temporaryAudioPath("safe-forms.wav")
        defer { unlink(pcmPath) }
        let pcm = try AudioFileWriter(path: pcmPath, type: .wave, format: .int16(sampleRate: 8000, channels: 2), flags: .eraseFile)
        #expect(try pcm.writePackets(patternBytes(400)) == 100)
        #expect(try pcm.writePackets(Data(patternBytes(40, seed: 2))[4...]) == 9)
        #expect(throws: AudioFileError.self) { try pcm.writePackets(patternBytes(6)) }
        try pcm.close()
        #expect(try AudioFile(path: pcmPath).packetCount == 109)
    }

    @Test func variableSizeWithoutDescriptionsIsRefused() throws {
        let path = temporaryAudioPath("safe-forms-aac.caf")
        defer { unlink(path) }
        let writer = try AudioFileWriter(path: path, type: .caf, format: .aac(sampleRate: 44100, channels: 2), flags: .eraseFile)
        #expect {
            try writer.writePackets([1, 2, 3])
        } throws: { ($0 as? AudioFileError)?.code == .invalidPacketOffset }
        try writer.close()
    }
}

/// The packet table read as Int.
@Suite struct PacketTableIntTests {
    @Test func readsSizesAndFramesAsInt() throws {
        let file = try AudioFile(path: Fixtures.root.appendingPathComponent("streams/tone-6s-1ch-22050.mp3").path)
        guard case .table(let table) = file.container.packets else { Issue.record("an MP3 file lists its packets"); return }
        #expect(table.count > 200)
        #expect((0..<table.count).allSatisfy { table.size(ofPacket: $0) == Int(table.sizes[$0]) })
        #expect(table.frameCount(ofPacket: 0) == 576 && table.frameCount(ofPacket: table.count) == 0)
        #expect(table.size(ofPacket: -1) == 0)
        #expect(table.largestPacketSize == file.maximumPacketSize)
    }
}

/// Contiguous bytes are parsed and written where they lie: the collection is never iterated.
@Suite struct ZeroCopyTests {
    /// Bytes that say when they are read one by one (a copy) rather than through their storage.
    struct Watched: RandomAccessCollection {
        final class Log: @unchecked Sendable { var iterated = 0, contiguous = 0 }
        let bytes: [UInt8]
        let log: Log
        var startIndex: Int { 0 }
        var endIndex: Int { bytes.count }
        subscript(i: Int) -> UInt8 {
            log.iterated += 1
            return bytes[i]
        }
        func withContiguousStorageIfAvailable<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R? {
            log.contiguous += 1
            return try bytes.withUnsafeBufferPointer(body)
        }
    }

    @Test func parsingAndWritingUseTheStorage() throws {
        let bytes = try SafeFormsTests.mp3()
        let log = Watched.Log()
        var count = 0
        let parser = try AudioFileStream(packets: { _, packets in count += packets.count })
        try parser.parse(Watched(bytes: bytes, log: log))
        try parser.finish()
        #expect(count > 200)
        #expect(log.contiguous == 1 && log.iterated == 0)

        let path = temporaryAudioPath("zero-copy.wav")
        defer { unlink(path) }
        let writer = try AudioFileWriter(path: path, type: .wave, format: .int16(sampleRate: 8000, channels: 1), flags: .eraseFile)
        #expect(try writer.writePackets(Watched(bytes: patternBytes(200), log: log)) == 100)
        try writer.close()
        #expect(log.contiguous == 2 && log.iterated == 0)
    }
}
