import Foundation
import Testing
import ProcessSupport
import AudioCore
@testable import AudioFileServices

/// AudioFileStream on MPEG audio inside WAVE (format tags 0x0055 and 0x0050): ffmpeg's frames,
/// the first frame's format before any packet, and nothing read past the data chunk.
@Suite struct StreamWAVEMPEGTests {
    static let fixtures: [(path: String, framecrc: [(size: Int, adler: UInt32)]?, id: AudioFormatID, channels: UInt32)] = [
        (Fixtures.path("wav-mp3-2ch-44100.wav"), try? Fixtures.framecrc("wav-mp3-2ch-44100.wav"), .mpegLayer3, 2),
        refs("stereo-44100-128k-in.wav", .mpegLayer3, 2),
        refs("mono-22050-48k-in.wav", .mpegLayer3, 1),
        refs("stereo-48000-192k-in.wav", .mpegLayer2, 2),
    ]

    static func refs(_ name: String, _ id: AudioFormatID, _ channels: UInt32) -> (String, [(size: Int, adler: UInt32)]?, AudioFormatID, UInt32) {
        let dir = Fixtures.root.appendingPathComponent("mp3-refs")
        return (dir.appendingPathComponent(name).path, try? Fixtures.framecrc(name, in: dir), id, channels)
    }

    /// What the listener and the packets callback saw, in order.
    enum Event: Equatable {
        case property(AudioFileStreamPropertyID)
        case packets
    }

    static func events(_ bytes: [UInt8], piece: Int) throws -> (events: [Event], packets: [[UInt8]], format: AudioStreamBasicDescription?) {
        final class Box {
            var events: [Event] = []
            var packets: [[UInt8]] = []
        }
        let box = Box()
        let stream = try AudioFileStream(
            propertyListener: { _, id, _ in box.events.append(.property(id)) },
            packets: { _, data, descriptions in
                if box.events.last != .packets { box.events.append(.packets) }
                for d in descriptions ?? [] {
                    box.packets.append(Array(data[Int(d.startOffset)..<(Int(d.startOffset) + Int(d.dataByteSize))]))
                }
            })
        try bytes.withStreamBytes { all throws(AudioFileStreamError) in
            var offset = 0
            while offset < all.count {
                let n = min(piece, all.count - offset)
                try stream.parse(bytes: UnsafeRawBufferPointer(rebasing: all[offset..<(offset + n)]))
                offset += n
            }
            try stream.parse(bytes: UnsafeRawBufferPointer(start: nil, count: 0))
        }
        return (box.events, box.packets, stream.dataFormat)
    }

    /// Every frame ffmpeg demuxes, in order; the data format (layer, channels) from the first
    /// frame announced before ReadyToProducePackets, and both before the first packet.
    @Test(arguments: 0..<4)
    func framesAndFormatBeforePackets(_ index: Int) throws {
        let fixture = Self.fixtures[index]
        let reference = try #require(fixture.framecrc, "no framecrc for \(fixture.path)")
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: fixture.path)))
        for piece in [1, 100, 4096, bytes.count] {
            let run = try Self.events(bytes, piece: piece)
            let label = "\(StreamFixtures.name(fixture.path)), pieces of \(piece)"
            #expect(run.events == [
                .property(.fileFormat), .property(.dataFormat), .property(.dataOffset), .property(.audioDataByteCount),
                .property(.packetSizeUpperBound), .property(.readyToProducePackets), .packets,
            ], "\(label)")
            #expect(run.packets.map(\.count) == reference.map(\.size), "\(label)")
            #expect(run.packets.map { adler32($0[...], start: 0) } == reference.map(\.adler), "\(label)")
            #expect(run.format?.formatID == fixture.id, "\(label)")
            #expect(run.format?.channelsPerFrame == fixture.channels, "\(label)")
        }
    }

    /// Offsets of the data chunk's header and body in a fixture.
    static func dataChunk(_ bytes: [UInt8]) throws -> (header: Int, size: Int) {
        var p = 12
        while p + 8 <= bytes.count {
            let size = Int(bytes[p + 4]) | Int(bytes[p + 5]) << 8 | Int(bytes[p + 6]) << 16 | Int(bytes[p + 7]) << 24
            if Array(bytes[p..<(p + 4)]) == Array("data".utf8) { return (p, size) }
            p += 8 + size + (size & 1)
        }
        throw AudioFileStreamError(.invalidFile, "no data chunk")
    }

    static func chunk(_ id: String, _ body: [UInt8]) -> [UInt8] {
        let n = UInt32(body.count)
        return Array(id.utf8) + [UInt8(n & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n >> 16 & 0xFF), UInt8(n >> 24)]
            + body + (body.count & 1 == 1 ? [0] : [])
    }

    /// `bytes` with its data chunk's body replaced by `data` and `trailing` chunks after it.
    static func rebuilt(_ bytes: [UInt8], data: [UInt8], trailing: [UInt8]) throws -> [UInt8] {
        let located = try dataChunk(bytes)
        var out = Array(bytes[0..<located.header]) + chunk("data", data) + trailing
        let riff = UInt32(out.count - 8)
        out.replaceSubrange(4..<8, with: [UInt8(riff & 0xFF), UInt8(riff >> 8 & 0xFF), UInt8(riff >> 16 & 0xFF), UInt8(riff >> 24)])
        return out
    }

    /// Frames in chunks after the data (an `id3 ` chunk holding a copy of the audio, a LIST) are
    /// not packets; a last frame cut short by the data's end is not one either.
    @Test(arguments: 0..<4)
    func nothingPastTheDataChunk(_ index: Int) throws {
        let fixture = Self.fixtures[index]
        let reference = try #require(fixture.framecrc)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: fixture.path)))
        let located = try Self.dataChunk(bytes)
        let audio = Array(bytes[(located.header + 8)..<(located.header + 8 + located.size)])
        let trailing = Self.chunk("id3 ", audio) + Self.chunk("LIST", Array("INFOISFT".utf8) + [4, 0, 0, 0] + Array("abc\0".utf8))
        // Whole, and with the last frame cut 3 bytes short (an odd size, so a pad byte follows).
        for (data, expected) in [(audio, reference.count), (Array(audio.dropLast(3)), reference.count - 1)] {
            let file = try Self.rebuilt(bytes, data: data, trailing: trailing)
            let opened = try AudioFile(source: MemoryByteSource(file))
            #expect(opened.packetCount == Int64(expected))
            for piece in [1, 333, 4096, file.count] {
                let run = try Self.events(file, piece: piece)
                #expect(run.packets.map(\.count) == Array(reference.prefix(expected).map(\.size)), "\(StreamFixtures.name(fixture.path)), \(data.count) bytes, pieces of \(piece)")
            }
        }
    }

    /// A data chunk without a whole frame: ready, with the header's format and no packets, as
    /// AudioFile opens it.
    @Test func dataWithoutFrames() throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.fixtures[0].path)))
        let file = try Self.rebuilt(bytes, data: [UInt8](repeating: 0, count: 500), trailing: [])
        // And streamed: a data size of 0xFFFFFFFF runs to the end of the stream.
        var streamed = file
        let data = try Self.dataChunk(file).header
        streamed.replaceSubrange((data + 4)..<(data + 8), with: [0xFF, 0xFF, 0xFF, 0xFF])
        for (file, piece) in [(file, 1), (file, 4096), (streamed, 1), (streamed, 4096)] {
            let opened = try AudioFile(source: MemoryByteSource(file))
            #expect(opened.packetCount == 0)
            let run = streamRun(file, pieces: { piece })
            #expect(run.error == nil)
            #expect(run.ready)
            #expect(run.packets.isEmpty)
            #expect(run.packetCount == 0)
            #expect(run.dataFormat?.formatID == .mpegLayer3)
        }
    }
}
