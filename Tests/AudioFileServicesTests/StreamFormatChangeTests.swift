import Foundation
import Testing
import ProcessSupport
import AudioCore
@testable import AudioFileServices

/// MP3 files of five formats joined end to end (Tests/Fixtures/mp3-concat): every packet
/// ffprobe counts is delivered, and each change of format is reported before its packets.
@Suite struct StreamFormatChangeTests {
    struct Reference {
        var total: Int
        var parts: [(rate: Double, channels: UInt32, packets: Int)]
    }

    static func reference() throws -> (bytes: [UInt8], reference: Reference) {
        let file = Fixtures.mp3Concat.appendingPathComponent("five-formats.mp3")
        let text = Fixtures.mp3Concat.appendingPathComponent("five-formats.mp3.ffprobe.txt")
        guard FileManager.default.fileExists(atPath: file.path), let lines = try? String(contentsOf: text, encoding: .utf8)
        else { throw MissingFixture("mp3-concat/five-formats.mp3") }
        let rows = lines.split(separator: "\n")
        let total = try #require(Int(rows[0]))
        let parts = try rows.dropFirst().map { row in
            let fields = row.split(whereSeparator: { $0 == "," || $0 == " " })
            return (try #require(Double(fields[0])), try #require(UInt32(fields[1])), try #require(Int(fields[2])))
        }
        return (try Fixtures.bytes(file), Reference(total: total, parts: parts))
    }

    /// What one run saw: each announced format in order, and the packets delivered under each.
    final class Log {
        var events: [String] = []
        var formats: [AudioStreamBasicDescription] = []
        var packetsPerFormat: [Int] = []
        var total: Int { packetsPerFormat.reduce(0, +) }
    }

    static func listen(_ log: Log) -> (AudioFileStream, AudioFileStreamPropertyID) -> Void {
        { stream, property in
            log.events.append(property.description)
            if property == .readyToProducePackets, let format = stream.dataFormat {
                log.formats.append(format)
                log.packetsPerFormat.append(0)
            }
        }
    }

    @Test(arguments: [1, 7, 417, 4096, Int.max])
    func everyPacketIsDeliveredUnderItsFormat(piece: Int) throws {
        let (bytes, reference) = try Self.reference()
        let log = Log()
        let parser = try AudioFileStream(propertyListener: Self.listen(log), packets: { stream, packets in
            #expect(stream.dataFormat == log.formats.last)
            log.packetsPerFormat[log.packetsPerFormat.count - 1] += packets.count
        })
        var offset = 0
        while offset < bytes.count {
            let end = offset + min(piece, bytes.count - offset)
            try parser.parse(bytes[offset..<end])
            offset = end
        }
        try parser.finish()

        // ffprobe counts the Info frames of the files after the first as packets, as this parser does.
        #expect(log.total == reference.total)
        #expect(log.formats.map(\.sampleRate) == reference.parts.map(\.rate))
        #expect(log.formats.map(\.channelsPerFrame) == reference.parts.map(\.channels))
        #expect(log.packetsPerFormat.dropFirst() == reference.parts.dropFirst().map { $0.packets + 1 }[...])
        #expect(log.packetsPerFormat.first == reference.parts.first?.packets)
        // Each change: the data format, then ready to produce packets.
        #expect(log.events.filter { $0 == "dfmt" }.count == reference.parts.count)
        #expect(log.events.filter { $0 == "redy" }.count == reference.parts.count)
        let changes = log.events.drop { $0 != "redy" }.dropFirst()
        #expect(Array(changes) == Array(repeating: ["dfmt", "redy"], count: reference.parts.count - 1).flatMap { $0 })
    }

    @Test func pointerFormDeliversTheSamePackets() throws {
        let (bytes, reference) = try Self.reference()
        var count = 0
        var formats: [Double] = []
        let parser = try AudioFileStream(
            propertyListener: { stream, property, _ in
                if property == .dataFormat, let format = stream.dataFormat { formats.append(format.sampleRate) }
            },
            packets: { _, _, descriptions in count += descriptions?.count ?? 0 })
        try bytes.withUnsafeBytes { try parser.parse(bytes: $0) }
        try parser.parse(bytes: UnsafeRawBufferPointer(start: nil, count: 0))
        #expect(count == reference.total)
        #expect(formats == reference.parts.map(\.rate))
    }

    @Test func aFalseSyncInsideOneStreamIsNotAChange() throws {
        // One format throughout, with a lone header of another rate between two frames: junk,
        // as no two frames of its format follow it.
        let file = try AudioFile(path: Fixtures.root.appendingPathComponent("streams/tone-6s-1ch-22050.mp3").path)
        var stream: [UInt8] = []
        for (i, packet) in try file.readPackets(from: 0, count: 20).enumerated() {
            stream += packet
            if i == 5 { stream += [0xFF, 0xFB, 0x90, 0xC4] }  // MPEG-1 Layer III, 44100 Hz mono: a sync that leads nowhere
        }
        let log = Log()
        let parser = try AudioFileStream(propertyListener: Self.listen(log), packets: { _, packets in
            log.packetsPerFormat[log.packetsPerFormat.count - 1] += packets.count
        })
        try parser.parse(stream)
        try parser.finish()
        #expect(log.formats.count == 1)
        #expect(log.formats.first?.sampleRate == 22050)
        #expect(log.total == 20)
    }
}

/// MPEG audio in a WAVE file keeps the format its header gives: frames of another format in
/// the data chunk are junk to the stream as to AudioFile (an input the fuzzer found).
@Suite struct StreamWAVEFormatChangeTests {
    @Test func framesOfAnotherFormatInWAVEAreJunk() throws {
        let path = Fixtures.root.appendingPathComponent("fuzz-regressions/wave-mp3-frames-of-another-format.wav").path
        let bytes = try Fixtures.bytes(URL(fileURLWithPath: path))
        let file = try filePackets(path)
        for piece in [1, 100, 1 << 20] {
            let run = streamRun(bytes, pieces: { piece })
            #expect(run.error == nil)
            #expect(run.packets == file.packets)
            #expect(run.properties.filter { $0 == .dataFormat }.count == 1)
        }
    }
}
