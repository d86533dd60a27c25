import Foundation
import Testing
import AudioCore
import AudioFileServices

/// A process killed while recording leaves what it had handed to the kernel: the file's bytes at
/// that moment. These tests copy the bytes of a file still being written (never closed) and open
/// the copy, as a reader would open what a killed recorder left.
@Suite("Files being written open at any moment")
struct WriterCrashSafetyTests {
    static let cases: [WriteCase] = [
        WriteCase(type: .wave, format: .linearPCM(sampleRate: 44100, channels: 2, bitsPerChannel: 16), expectedType: .wave),
        WriteCase(type: .aiff, format: .linearPCM(sampleRate: 44100, channels: 2, bitsPerChannel: 16, isBigEndian: true), expectedType: .aiff),
        WriteCase(
            type: .aiff,
            format: AudioStreamBasicDescription(
                sampleRate: 8000, formatID: .uLaw, bytesPerPacket: 1, framesPerPacket: 1, bytesPerFrame: 1, channelsPerFrame: 1,
                bitsPerChannel: 8),
            expectedType: .aifc),
        WriteCase(type: .caf, format: .linearPCM(sampleRate: 48000, channels: 1, bitsPerChannel: 24), expectedType: .caf),
        WriteCase(type: .caf, format: ima4(44100, 2), expectedType: .caf),
        WriteCase(type: .aifc, format: ima4(44100, 2), expectedType: .aifc),
    ]

    /// The file's bytes now, in a file of their own.
    static func snapshot(_ path: String) throws -> String {
        let copy = temporaryAudioPath("snapshot")
        try Data(contentsOf: URL(fileURLWithPath: path)).write(to: URL(fileURLWithPath: copy))
        return copy
    }

    @Test(arguments: cases)
    func snapshotWhileWriting(_ c: WriteCase) async throws {
        let size = Int(c.format.bytesPerPacket)
        let frames = Int64(c.format.framesPerPacket)
        let batch = c.format.formatID == .appleIMA4 ? 10 : 1000
        let bytes = c.format.formatID == .appleIMA4
            ? try FileWritingTests.audio(for: c.format) : patternBytes(3 * batch * size, seed: 5)
        #expect(bytes.count >= 3 * batch * size)
        func batchBytes(_ i: Int) -> [UInt8] { Array(bytes[(i * batch * size)..<((i + 1) * batch * size)]) }
        let path = temporaryAudioPath("recording")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try AudioFileWriter(path: path, type: c.type, format: c.format)

        // Right after creation the file is already a valid, empty file.
        let empty = try Self.snapshot(path)
        defer { try? FileManager.default.removeItem(atPath: empty) }
        #expect(try AudioFile(path: empty).packetCount == 0)

        try writer.writePackets(startingPacket: 0, bytes: batchBytes(0), packetCount: batch)
        let early = try Self.snapshot(path)
        defer { try? FileManager.default.removeItem(atPath: early) }
        let earlyFile = try AudioFile(path: early)
        #expect(earlyFile.packetCount <= Int64(batch))
        #expect(try earlyFile.readPackets(from: 0, count: batch).data == Array(bytes.prefix(Int(earlyFile.packetCount) * size)))

        // Once the update interval has passed, the next write brings the header up to date with
        // everything written so far, that write included.
        try await Task.sleep(for: AudioFileWriter.headerUpdateInterval + .milliseconds(100))
        try writer.writePackets(startingPacket: Int64(batch), bytes: batchBytes(1), packetCount: batch)
        try writer.writePackets(startingPacket: Int64(2 * batch), bytes: batchBytes(2), packetCount: batch)

        let copy = try Self.snapshot(path)
        defer { try? FileManager.default.removeItem(atPath: copy) }
        let file = try AudioFile(path: copy)
        #expect(file.fileType == c.expectedType)
        #expect(file.packetCount >= Int64(2 * batch), "everything up to the last header update")
        #expect(file.packetCount <= Int64(3 * batch))
        let count = Int(file.packetCount)
        #expect(try file.readPackets(from: 0, count: count).data == Array(bytes.prefix(count * size)))
        let probe = try ffprobe(copy)
        #expect(probe.codec == ffmpegCodec(c.format))
        #expect(probe.channels == Int(c.format.channelsPerFrame))
        let probed = try #require(probe.durationTS)
        #expect(probed >= Int64(2 * batch) * frames && probed <= Int64(3 * batch) * frames, "ffprobe: \(probed) frames")

        if c.type == .caf {
            // Killed in the middle of a packet: the whole packets are read.
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: copy))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data(bytes.prefix(size / 2 + 1)))
            try handle.close()
            let partial = try AudioFile(path: copy)
            #expect(partial.packetCount == file.packetCount)
            #expect(try partial.readPackets(from: 0, count: count + 1).data == Array(bytes.prefix(count * size)))
            #expect(try ffprobe(copy).codec == ffmpegCodec(c.format))
        }

        try writer.close()
        let closed = try AudioFile(path: path)
        #expect(closed.packetCount == Int64(3 * batch))
        #expect(try ffprobe(path).durationTS == Int64(3 * batch) * frames)
    }

    /// An explicit header update makes every packet written so far visible at once.
    @Test(arguments: cases)
    func updateHeaderShowsEverything(_ c: WriteCase) throws {
        let size = Int(c.format.bytesPerPacket)
        let bytes = c.format.formatID == .appleIMA4 ? try FileWritingTests.audio(for: c.format) : patternBytes(777 * size, seed: 3)
        let packets = bytes.count / size
        let path = temporaryAudioPath("updated")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try AudioFileWriter(path: path, type: c.type, format: c.format)
        try writer.writePackets(startingPacket: 0, bytes: bytes, packetCount: packets)
        try writer.updateHeader()
        let copy = try Self.snapshot(path)
        defer { try? FileManager.default.removeItem(atPath: copy) }
        let file = try AudioFile(path: copy)
        #expect(file.packetCount == Int64(packets))
        #expect(try file.readPackets(from: 0, count: packets).data == bytes)
        #expect(try ffprobe(copy).durationTS == Int64(packets) * Int64(c.format.framesPerPacket))
        try writer.close()
    }
}
