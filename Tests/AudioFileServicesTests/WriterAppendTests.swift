import Foundation
import Testing
import AudioCore
import AudioFileServices
import ProcessSupport

/// Bytes in memory as an ``AudioByteSource``.
struct MemorySource: AudioByteSource {
    let bytes: [UInt8]
    var size: Int64 { Int64(bytes.count) }

    func read(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) throws(AudioFileError) -> Int {
        guard offset < size else { return 0 }
        let n = min(buffer.count, bytes.count - Int(offset))
        bytes.withUnsafeBytes { buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[Int(offset)..<(Int(offset) + n)])) }
        return n
    }
}

/// Appending packets to a CAF file that was read (`AudioFileWriter(appendingTo:sink:)`).
@Suite("Appending to CAF files")
struct WriterAppendTests {
    /// Writes `packets` of `source` (from `from` on) into `writer`.
    func write(_ source: AudioFile, _ packets: Range<Int64>, into writer: AudioFileWriter) throws {
        let batch = try source.readPackets(from: packets.lowerBound, count: packets.count)
        try writer.writePackets(
            startingPacket: writer.packetCount, bytes: batch.data, descriptions: batch.descriptions, packetCount: batch.packetCount)
    }

    /// AAC packets written in two goes — the second appended to the file as read back — give
    /// the bytes of the file written in one, packet table and cookie included.
    @Test(arguments: ["caf-aac-2ch-48000.caf", "caf-pcm_s16le-6ch-48000.caf"])
    func appendedEqualsWrittenAtOnce(name: String) throws {
        let source = try AudioFile(path: Fixtures.path(name))
        let half = source.packetCount / 2
        let trims = source.packetTableInfo.flatMap { $0.primingFrames > 0 ? $0 : nil }

        let once = MemorySink()
        let writer = try AudioFileWriter(sink: once, type: .caf, format: source.dataFormat)
        if let cookie = source.magicCookie { try writer.setMagicCookie(cookie) }
        try write(source, 0..<source.packetCount, into: writer)
        if let trims { try writer.setPacketTableInfo(trims) }
        try writer.close()

        let twice = MemorySink()
        let first = try AudioFileWriter(sink: twice, type: .caf, format: source.dataFormat)
        if let cookie = source.magicCookie { try first.setMagicCookie(cookie) }
        try write(source, 0..<half, into: first)
        try first.close()
        let read = try AudioFile(source: MemorySource(bytes: twice.bytes))
        #expect(read.packetCount == half)
        let appending = try AudioFileWriter(appendingTo: read, sink: twice)
        #expect(appending.packetCount == half)
        #expect(appending.magicCookie == source.magicCookie)
        try write(source, half..<source.packetCount, into: appending)
        if let trims { try appending.setPacketTableInfo(trims) }
        try appending.close()
        #expect(twice.bytes == once.bytes)

        let back = try AudioFile(source: MemorySource(bytes: twice.bytes))
        #expect(back.packetCount == source.packetCount)
        #expect(try back.readPackets(from: 0, count: Int(back.packetCount)).data == (try source.readPackets(from: 0, count: Int(source.packetCount))).data)
    }

    /// Opened for appending and closed without a change, the file is left as it was.
    @Test func unchangedFileIsLeftAlone() throws {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Fixtures.path("caf-aac-2ch-48000.caf"))))
        let sink = MemorySink()
        sink.bytes = bytes
        let writer = try AudioFileWriter(appendingTo: try AudioFile(source: MemorySource(bytes: bytes)), sink: sink)
        try writer.updateHeader()
        try writer.close()
        #expect(sink.bytes == bytes)
        #expect(sink.closed)
    }

    @Test func refusals() throws {
        let wave = try AudioFile(path: Fixtures.path("wav-pcm_s16le-2ch-44100.wav"))
        let sink = MemorySink()
        expectError(.operationNotSupported) { try AudioFileWriter(appendingTo: wave, sink: sink) }
        #expect(sink.closed)
        // A chunk other than the packet table, cookie, layout, info or filler after the data
        // (an overview chunk).
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Fixtures.path("caf-aac-2ch-48000.caf"))))
        bytes += Array("ovvw".utf8) + [0, 0, 0, 0, 0, 0, 0, 8] + [0, 0, 0, 1, 0x61, 0, 0x62, 0]
        let withOverview = try AudioFile(source: MemorySource(bytes: bytes))
        expectError(.notOptimized) { try AudioFileWriter(appendingTo: withOverview, sink: MemorySink()) }
    }
}
