import Foundation
import Testing
import AudioCore
@testable import AudioFileServices

/// AudioFileStream's callbacks, memory bound, junk and discontinuities, seeking and bad input.
@Suite struct StreamBehaviourTests {
    static func bytes(_ path: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) }
    static func valid(_ name: String) -> String { Fixtures.path(name) }

    // MARK: Properties

    /// Apple's order (Audio File Stream Services reference): file format, data format, magic
    /// cookie, data offset, byte count, packet count, packet table info, upper bound, ready —
    /// each only where the stream has it.
    @Test func propertiesArriveInApplesOrder() throws {
        let caf = streamRun(try Self.bytes(Self.valid("caf-aac-2ch-48000.caf")), pieces: { 1 })
        #expect(caf.properties == [.fileFormat, .dataFormat, .magicCookieData, .dataOffset, .audioDataByteCount, .audioDataPacketCount, .packetTableInfo, .packetSizeUpperBound, .readyToProducePackets])
        let wave = streamRun(try Self.bytes(Self.valid("wav-pcm_s16le-2ch-44100.wav")), pieces: { 1000 })
        #expect(wave.properties == [.fileFormat, .dataFormat, .dataOffset, .audioDataByteCount, .audioDataPacketCount, .packetSizeUpperBound, .readyToProducePackets])
        let streamed = streamRun(try Self.bytes(Self.valid("wav-streamed-pcm_s16le-2ch-22050.wav")), pieces: { 1000 })
        #expect(streamed.properties == [.fileFormat, .dataFormat, .dataOffset, .packetSizeUpperBound, .readyToProducePackets])
        let adts = streamRun(try Self.bytes(Self.valid("adts-aac-2ch-44100.aac")), pieces: { 333 })
        #expect(adts.properties == [.fileFormat, .dataFormat, .magicCookieData, .dataOffset, .packetSizeUpperBound, .readyToProducePackets])
        let mp3 = streamRun(try Self.bytes(MP3Fixtures.path("vbr-q4-2ch-44100.mp3")), pieces: { 4096 })
        #expect(mp3.properties == [.fileFormat, .dataFormat, .dataOffset, .audioDataPacketCount, .packetTableInfo, .packetSizeUpperBound, .readyToProducePackets])
    }

    @Test func propertyFlagsGoInAndOut() throws {
        var flagsIn: [AudioFileStreamPropertyFlags] = []
        let stream = try AudioFileStream(
            propertyListener: { _, id, flags in
                flagsIn.append(flags)
                if id == .magicCookieData { flags.insert(.cacheProperty) }
            },
            packets: { _, _, _ in })
        try Self.bytes(Self.valid("caf-aac-2ch-48000.caf")).withUnsafeBytes { try stream.parse(bytes: $0) }
        #expect(!flagsIn.isEmpty && flagsIn.allSatisfy { $0.contains(.propertyIsCached) })
        #expect(stream.listenerFlags(for: .magicCookieData) == [.cacheProperty])
        #expect(stream.listenerFlags(for: .dataFormat) == [])
    }

    // MARK: Memory

    /// The parser keeps at most the header before the audio data (its data offset, plus a chunk
    /// header's worth of look-ahead) or one packet plus its frame header and the next header.
    @Test(arguments: StreamPacketTests.fixtures)
    func bufferingIsBounded(_ path: String) throws {
        let data = try Self.bytes(path)
        guard case .packets = StreamPacketTests.expected(path, data) else { return }
        let file = try AudioFile(path: path)
        let bound = max(HeaderGatherer.detectionBytes, Int(file.dataOffset) + 16, file.maximumPacketSize + 16)
        for piece in [1, 7, 4096, 1 << 20] {
            let run = streamRun(data, pieces: { piece })
            #expect(run.error == nil)
            #expect(run.maximumRetained <= bound, "\(StreamFixtures.name(path)), pieces of \(piece): kept \(run.maximumRetained) bytes, bound \(bound)")
        }
    }

    // MARK: Junk and discontinuities

    static func junk(_ count: Int, seed: UInt64) -> [UInt8] {
        var random = SeededRandom(seed: seed)
        return (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
    }

    @Test(arguments: ["adts-aac-2ch-44100.aac", "adts-aac-1ch-44100-crc.aac", "mp3/cbr-128k-2ch-44100.mp3", "mp3/noxing-2ch-48000.mp3"])
    func junkBeforeTheStreamIsSkipped(_ name: String) throws {
        let path = name.hasPrefix("mp3/") ? MP3Fixtures.path(String(name.dropFirst(4))) : Self.valid(name)
        let reference = try filePackets(path)
        var data = try Self.bytes(path)
        // The tag-less audio after 5000 bytes of junk.
        data = Self.junk(5000, seed: 7) + Array(data[Int(reference.file.dataOffset)...])
        for piece in [1, 100, 4096, data.count] {
            let run = streamRun(data, pieces: { piece })
            #expect(run.error == nil)
            // The Xing frame, if any, is not audio; after junk it counts as the first frame.
            let packets = run.packets.drop { $0.count != reference.packets.first?.count || $0 != reference.packets.first! }
            #expect(Array(packets) == reference.packets, "\(name), pieces of \(piece): \(run.packets.count) packets, AudioFile \(reference.packets.count)")
        }
    }

    /// After a discontinuity in the middle of a frame, followed by junk, the parser finds the
    /// next frame and goes on with exactly AudioFile's packets from there.
    @Test(arguments: ["adts-aac-2ch-44100.aac", "mp3/cbr-128k-2ch-44100.mp3", "mp3/vbr-q4-2ch-44100.mp3"])
    func discontinuityResynchronises(_ name: String) throws {
        let path = name.hasPrefix("mp3/") ? MP3Fixtures.path(String(name.dropFirst(4))) : Self.valid(name)
        let reference = try filePackets(path)
        guard case .table(let table) = reference.file.container.packets else { Issue.record("no table"); return }
        let data = try Self.bytes(path)
        let isADTS = reference.file.fileType == .adts
        let cut = data.count / 3, resume = data.count / 2 + 123
        var packets: [[UInt8]] = []
        let stream = try AudioFileStream(propertyListener: { _, _, _ in }, packets: { _, bytes, descriptions in
            for d in descriptions ?? [] {
                packets.append(Array(bytes[Int(d.startOffset)..<(Int(d.startOffset) + Int(d.dataByteSize))]))
            }
        })
        try data.withUnsafeBytes { all in
            try stream.parse(bytes: UnsafeRawBufferPointer(rebasing: all[0..<cut]))
            let before = packets.count
            // Whole frames before the cut (their headers start before it, and they end before it).
            let complete = (0..<table.count).filter { table.offsets[$0] + Int64(table.sizes[$0]) <= Int64(cut) }.count
            #expect(before == complete)
            let junk = Self.junk(777, seed: 3)
            try junk.withUnsafeBytes { try stream.parse(bytes: $0, flags: .discontinuity) }
            var p = resume
            while p < all.count {
                let n = min(500, all.count - p)
                try stream.parse(bytes: UnsafeRawBufferPointer(rebasing: all[p..<(p + n)]))
                p += n
            }
            let headerBytes: Int64 = isADTS ? 7 : 0
            let next = (0..<table.count).first { table.offsets[$0] - headerBytes >= Int64(resume) }!
            #expect(Array(packets[before...]) == Array(reference.packets[next...]), "\(name): \(packets.count - before) packets after the jump, expected \(reference.packets.count - next)")
        }
    }

    // MARK: Seeking

    /// Exact offsets where packets are listed or constant in size: AudioFile's offset from the
    /// data start; parsing from there gives AudioFile's packets from the target on.
    @Test(arguments: ["caf-aac-2ch-48000.caf", "wav-pcm_s16le-2ch-44100.wav", "aifc-adpcm_ima_qt-2ch-44100.aifc", "mp4/aac-2ch-44100-faststart.m4a"])
    func seekIsExact(_ name: String) throws {
        let path = name.hasPrefix("mp4/") ? Fixtures.root.appendingPathComponent(name).path : Self.valid(name)
        let reference = try filePackets(path)
        let data = try Self.bytes(path)
        var packets: [[UInt8]] = []
        let stream = try AudioFileStream(propertyListener: { _, _, _ in }, packets: { s, bytes, descriptions in
            if let descriptions {
                for d in descriptions { packets.append(Array(bytes[Int(d.startOffset)..<(Int(d.startOffset) + Int(d.dataByteSize))])) }
            } else {
                let size = Int(s.dataFormat!.bytesPerPacket)
                for p in stride(from: 0, to: bytes.count, by: size) { packets.append(Array(bytes[p..<(p + size)])) }
            }
        })
        let target = Int64(reference.packets.count * 2 / 3)
        try data.withUnsafeBytes { all in
            try stream.parse(bytes: UnsafeRawBufferPointer(rebasing: all[0..<(Int(reference.file.dataOffset) + 100)]))
            #expect(stream.readyToProducePackets)
            let (offset, estimated) = try stream.seek(toPacket: target)
            #expect(!estimated)
            let expected: Int64
            switch reference.file.container.packets {
            case .table(let table): expected = table.offsets[Int(target)] - reference.file.dataOffset
            case .constant(let size, _): expected = target * Int64(size)
            }
            #expect(offset == expected)
            packets.removeAll()
            let start = Int(reference.file.dataOffset + offset)
            try stream.parse(bytes: UnsafeRawBufferPointer(rebasing: all[start...]), flags: .discontinuity)
            #expect(packets == Array(reference.packets[Int(target)...]))
            #expect(throws: AudioFileStreamError.self) { try stream.seek(toPacket: -1) }
        }
    }

    @Test func seekInFramesIsEstimatedAndResynchronises() throws {
        let path = Self.valid("adts-aac-2ch-44100.aac")
        let reference = try filePackets(path)
        let data = try Self.bytes(path)
        var packets: [[UInt8]] = []
        let stream = try AudioFileStream(propertyListener: { _, _, _ in }, packets: { _, bytes, descriptions in
            for d in descriptions! { packets.append(Array(bytes[Int(d.startOffset)..<(Int(d.startOffset) + Int(d.dataByteSize))])) }
        })
        try data.withUnsafeBytes { all in
            try stream.parse(bytes: UnsafeRawBufferPointer(rebasing: all[0..<(all.count / 4)]))
            let (offset, estimated) = try stream.seek(toPacket: Int64(reference.packets.count / 2))
            #expect(estimated)
            packets.removeAll()
            let start = Int(stream.dataOffset! + offset)
            try stream.parse(bytes: UnsafeRawBufferPointer(rebasing: all[start...]), flags: .discontinuity)
            // A run of AudioFile's packets to the end of the file, starting near the target.
            #expect(!packets.isEmpty)
            let first = reference.packets.firstIndex(of: packets[0])
            #expect(first.map { Array(reference.packets[$0...]) == packets } ?? false)
            #expect(first.map { abs($0 - reference.packets.count / 2) < reference.packets.count / 10 } ?? false)
        }
    }

    @Test func seekBeforeReadyIsRefused() throws {
        let stream = try AudioFileStream(propertyListener: { _, _, _ in }, packets: { _, _, _ in })
        #expect { try stream.seek(toPacket: 0) } throws: { ($0 as? AudioFileStreamError)?.code == .dataUnavailable }
    }

    // MARK: Misuse and bad input

    @Test func callsFromCallbacksAndAfterCloseAreRefused() throws {
        let data = try Self.bytes(Self.valid("adts-aac-2ch-44100.aac"))
        var inner: AudioFileStreamError?
        var calls = 0
        let stream = try AudioFileStream(propertyListener: { _, _, _ in }, packets: { s, _, _ in
            calls += 1
            do { try [UInt8](repeating: 0, count: 4).withUnsafeBytes { try s.parse(bytes: $0) } } catch { inner = error as? AudioFileStreamError }
            s.close()
        })
        try data.withUnsafeBytes { try stream.parse(bytes: $0) }
        #expect(inner?.code == .illegalOperation)
        #expect(calls == 1)
        #expect { try data.withUnsafeBytes { try stream.parse(bytes: $0) } } throws: { ($0 as? AudioFileStreamError)?.code == .illegalOperation }
    }

    /// Every damaged file, whole and a byte at a time: the parser ends (with packets or a typed
    /// error) and never keeps more than it may.
    @Test func malformedInputEndsCleanly() throws {
        let names = (try FileManager.default.contentsOfDirectory(atPath: Fixtures.malformed.path)).filter { !$0.hasSuffix(".json") }
        #expect(names.count > 20)
        var random = SeededRandom(seed: 99)
        for name in names.sorted() {
            let data = try Self.bytes(Fixtures.malformed.appendingPathComponent(name).path)
            for piece in [1, 4096, data.count] {
                let run = streamRun(data, pieces: { piece })
                #expect(run.maximumRetained <= max(data.count, 64))
            }
            // Truncated and bit-flipped too.
            var damaged = data
            for _ in 0..<8 where !damaged.isEmpty { damaged[Int.random(in: 0..<damaged.count, using: &random)] ^= 0xFF }
            _ = streamRun(damaged, pieces: { random.pieceSize() })
            _ = streamRun(Array(data.prefix(data.count / 2)), pieces: { 3 })
        }
        let noise = Self.junk(1 << 18, seed: 5)
        let run = streamRun(noise, pieces: { 4096 })
        #expect(run.packets.isEmpty)
        #expect(run.maximumRetained < 64 * 1024)
    }

    @Test func errorsCarryApplesCodes() {
        #expect(AudioFileStreamError.Code.invalidFile.rawValue == 0x6474_613F)
        #expect(AudioFileStreamError.Code.notOptimized.description == "'optm'")
        #expect(AudioFileStreamError.Code.discontinuityCantRecover.description == "'dsc!'")
        #expect(AudioFileStreamError.Code.allCases.count == 12)
        #expect(Set(AudioFileStreamError.Code.allCases.map(\.rawValue)).count == 12)
    }
}

extension StreamBehaviourTests {
    /// A last frame after junk has no following header to confirm it; the end-of-stream call
    /// (no bytes) lets it count when it ends exactly there, as AudioFile counts it.
    @Test(arguments: ["adts-aac-2ch-44100.aac", "mp3/noxing-2ch-48000.mp3"])
    func lastFrameAfterJunkCountsAtTheEnd(_ name: String) throws {
        let path = name.hasPrefix("mp3/") ? MP3Fixtures.path(String(name.dropFirst(4))) : Self.valid(name)
        let reference = try filePackets(path)
        guard case .table(let table) = reference.file.container.packets else { Issue.record("no table"); return }
        let data = try Self.bytes(path)
        let lastIndex = table.count - 1
        let lastStart = Int(table.offsets[lastIndex]) - (reference.file.fileType == .adts ? 7 : 0)
        let bytes = Array(data[0..<lastStart]) + Self.junk(300, seed: 11) + Array(data[lastStart...])
        var packets: [[UInt8]] = []
        let stream = try AudioFileStream(propertyListener: { _, _, _ in }, packets: { _, b, descriptions in
            for d in descriptions! { packets.append(Array(b[Int(d.startOffset)..<(Int(d.startOffset) + Int(d.dataByteSize))])) }
        })
        try bytes.withUnsafeBytes { try stream.parse(bytes: $0) }
        #expect(packets == Array(reference.packets[0..<lastIndex]))
        try stream.parse(bytes: UnsafeRawBufferPointer(start: nil, count: 0))
        #expect(packets == reference.packets)
    }
}
