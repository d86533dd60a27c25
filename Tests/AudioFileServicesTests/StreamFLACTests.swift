import Foundation
import Testing
import ProcessSupport
import AudioCore
@testable import AudioFileServices

/// `.flac` streams through AudioFileStream: the packets AudioFile reads from the file, whatever
/// the pieces the bytes arrive in.
@Suite("FLAC streams")
struct StreamFLACTests {
    static let names = ["flac-2ch-44100-s16.flac", "flac-2ch-44100-s16-variable.flac", "flac-metadata.flac",
                        "flac-1ch-8000-s8.flac", "flac-8ch-44100-s24.flac", "ffmpeg-2ch-48000-s16.flac"]

    @Test(arguments: names)
    func packetsAreTheFilesPackets(name: String) throws {
        let path = Fixtures.root.appendingPathComponent("flac/\(name)").path
        let file = try AudioFile(path: path)
        let bytes = Array(try #require(FileManager.default.contents(atPath: path)))
        let (data, sizes) = try file.allPackets()
        var expected: [[UInt8]] = []
        var at = 0
        for size in sizes {
            expected.append(Array(data[at..<(at + size)]))
            at += size
        }
        let format = try #require(file.container as? FLACFormat)
        guard case .table(let table) = format.packets else { return }
        for pieces in [[65536], [1], [7, 1000, 3], [4096, 17]] {
            var i = 0
            let run = streamRun(bytes) {
                defer { i += 1 }
                return pieces[i % pieces.count]
            }
            #expect(run.error == nil, "\(run.error.map { "\($0)" } ?? "")")
            #expect(run.fileFormat == .flac || run.fileFormat == nil)
            #expect(run.dataFormat == file.dataFormat)
            #expect(run.packets.count == expected.count, "\(name) in pieces of \(pieces)")
            #expect(run.packets == expected, "\(name) in pieces of \(pieces)")
            let frames = run.frames.map { $0 == 0 ? file.dataFormat.framesPerPacket : $0 }
            #expect(frames == (0..<table.count).map { table.framesInPacket($0) })
            #expect(run.magicCookie == file.magicCookie || run.magicCookie == nil)
        }
    }

    /// A stream cut short mid-frame drops that frame; junk never hangs or crashes the parser.
    @Test func truncatedAndJunk() throws {
        let path = Fixtures.root.appendingPathComponent("flac/flac-2ch-44100-s16.flac").path
        let bytes = Array(try #require(FileManager.default.contents(atPath: path)))
        let file = try AudioFile(path: path)
        let run = streamRun(Array(bytes.prefix(bytes.count - 1000))) { 4096 }
        #expect(run.error == nil)
        #expect(Int64(run.packets.count) == file.packetCount - 1)
        var random = SplitMix(seed: 7)
        for _ in 0..<50 {
            var damaged = bytes
            for _ in 0..<8 { damaged[Int.random(in: 0..<damaged.count, using: &random)] = UInt8.random(in: 0...255, using: &random) }
            _ = streamRun(damaged) { 3000 }
        }
    }
}

extension StreamFLACTests {
    /// ID3v2 tags before `'fLaC'`: with the type hint FLAC (an HTTP stream's `audio/flac`, a
    /// `.flac` path) the stream is read past them, as the file is.
    @Test func id3v2BeforeTheMarkerWithTheHint() throws {
        let path = Fixtures.root.appendingPathComponent("flac/flac-id3v2.flac").path
        let file = try AudioFile(path: path)
        let bytes = Array(try #require(FileManager.default.contents(atPath: path)))
        let (data, sizes) = try file.allPackets()
        for pieces in [65536, 1, 100] {
            let run = streamRun(bytes, hint: .flac) { pieces }
            #expect(run.error == nil, "\(run.error.map { "\($0)" } ?? "")")
            #expect(run.dataOffset == file.dataOffset)
            #expect(run.packets.map(\.count) == sizes)
            #expect(run.packets.flatMap { $0 } == data)
        }
    }
}
