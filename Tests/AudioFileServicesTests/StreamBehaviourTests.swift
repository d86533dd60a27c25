import Foundation
import Testing
import ProcessSupport
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
        var random = SplitMix(seed: seed)
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
        var random = SplitMix(seed: 99)
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

extension StreamBehaviourTests {
    /// A header of many tiny chunks fed a byte at a time: 40 000 empty chunks before 'fmt ' and
    /// 'data' (the walk goes on from where it stopped, so this is one walk, not one per chunk).
    @Test func headerOfManyChunksIsWalkedOnce() throws {
        let wave = try Self.bytes(Self.valid("wav-pcm_s16le-1ch-8000-info.wav"))
        let file = try AudioFile(path: Self.valid("wav-pcm_s16le-1ch-8000-info.wav"))
        // RIFF header, then the empty chunks, then the file's own chunks.
        var bytes = Array(wave[0..<12])
        for _ in 0..<40_000 { bytes += Array("JUNK".utf8) + [0, 0, 0, 0] }
        bytes += Array(wave[12...])
        let reference = try filePackets(Self.valid("wav-pcm_s16le-1ch-8000-info.wav"))
        let run = streamRun(bytes, pieces: { 1 })
        #expect(run.error == nil)
        #expect(run.packets == reference.packets)
        #expect(run.dataOffset == file.dataOffset + 320_000)
    }
}

extension StreamBehaviourTests {
    /// A stream shorter than the 64 bytes the container is recognised by is recognised at the
    /// end of the stream: a WAVE file of 16 bytes of PCM.
    @Test func tinyStreamIsRecognisedAtTheEnd() throws {
        let wave = try Self.bytes(Self.valid("wav-pcm_s16le-2ch-44100.wav"))
        let file = try AudioFile(path: Self.valid("wav-pcm_s16le-2ch-44100.wav"))
        let header = Array(wave[0..<Int(file.dataOffset)])
        guard header.count + 16 < 64 else { Issue.record("the fixture's header is \(header.count) bytes"); return }
        var bytes = header + Array(wave[Int(file.dataOffset)..<(Int(file.dataOffset) + 16)])
        // The sizes say 16 bytes of data in a RIFF of that length.
        let riff = UInt32(bytes.count - 8), data = UInt32(16)
        bytes.replaceSubrange(4..<8, with: withUnsafeBytes(of: riff.littleEndian, Array.init))
        bytes.replaceSubrange((header.count - 4)..<header.count, with: withUnsafeBytes(of: data.littleEndian, Array.init))
        let run = streamRun(bytes, pieces: { 5 })
        #expect(run.error == nil)
        #expect(run.packets.count == 4)
        #expect(run.packets.joined().elementsEqual(wave[Int(file.dataOffset)..<(Int(file.dataOffset) + 16)]))
    }
}

extension StreamBehaviourTests {
    /// An MP3 with a Xing table of contents seeks by it: the estimate lands within 2 % of the
    /// audio data (plus one frame: the table has 1 % steps) of AudioFile's offset for the packet,
    /// at every tenth of the file.
    @Test func mp3SeekUsesTheXingTableOfContents() throws {
        let path = MP3Fixtures.path("vbr-q4-2ch-44100.mp3")
        let reference = try filePackets(path)
        guard case .table(let table) = reference.file.container.packets else { Issue.record("no table"); return }
        let data = try Self.bytes(path)
        let stream = try AudioFileStream(propertyListener: { _, _, _ in }, packets: { _, _, _ in })
        try data.withUnsafeBytes { all in
            try stream.parse(bytes: UnsafeRawBufferPointer(rebasing: all[0..<(Int(reference.file.dataOffset) + 2000)]))
        }
        for tenth in 1..<10 {
            let packet = table.count * tenth / 10
            let (offset, estimated) = try stream.seek(toPacket: Int64(packet))
            #expect(estimated)
            let exact = table.offsets[packet] - reference.file.dataOffset
            #expect(abs(offset - exact) <= reference.file.dataByteCount / 50 + Int64(reference.file.maximumPacketSize), "packet \(packet): \(offset) vs \(exact)")
        }
    }
}

extension StreamBehaviourTests {
    /// A WAVE file whose 'fmt ' chunk follows its data opens as a file, but a stream reaches the
    /// audio before knowing its format: Apple's kAudioFileStreamError_NotOptimized.
    @Test func formatAfterTheDataIsNotOptimized() throws {
        let path = Self.valid("wav-pcm_s16le-2ch-44100.wav")
        let wave = try Self.bytes(path)
        let file = try AudioFile(path: path)
        // RIFF header, the data chunk (header and body), then the 'fmt ' chunk (the 24 bytes
        // after the RIFF header in this ffmpeg file).
        #expect(Array(wave[12..<16]) == Array("fmt ".utf8))
        let fmt = Array(wave[12..<(12 + 8 + 16)])
        let data = Array(wave[(Int(file.dataOffset) - 8)..<Int(file.dataOffset + file.dataByteCount)])
        let bytes = Array(wave[0..<12]) + data + fmt
        #expect(throws: Never.self) { _ = try AudioFile(source: MemoryByteSource(bytes)) }
        let run = streamRun(bytes, pieces: { 4096 })
        #expect(run.error?.code == .notOptimized)
        #expect(run.packets.isEmpty)
    }

    /// An AIFF COMM chunk that counts fewer sample frames than SSND holds: the file has the frames
    /// COMM counts, and so has the stream (also with an SSND size far past the end of the file).
    @Test func aiffFrameCountBoundsThePackets() throws {
        let path = Self.valid("aiff-pcm_s16be-2ch-44100.aiff")
        var bytes = try Self.bytes(path)
        func chunk(_ id: String) -> Int? {
            var p = 12
            while p + 8 <= bytes.count {
                if Array(bytes[p..<(p + 4)]) == Array(id.utf8) { return p }
                p += 8 + (Int(bytes.be32(p + 4)) + 1) & ~1
            }
            return nil
        }
        let comm = try #require(chunk("COMM"))
        let frames = Int(bytes.be32(comm + 10))
        #expect(frames > 100)
        let counted = frames / 2
        bytes.replaceSubrange((comm + 10)..<(comm + 14), with: [UInt8(counted >> 24), UInt8(counted >> 16 & 0xFF), UInt8(counted >> 8 & 0xFF), UInt8(counted & 0xFF)])
        var oversized = bytes
        let ssnd = try #require(chunk("SSND"))
        oversized.replaceSubrange((ssnd + 4)..<(ssnd + 8), with: [0x7F, 0xFF, 0xFF, 0xF0])
        for file in [bytes, oversized] {
            #expect(try AudioFile(source: MemoryByteSource(file)).packetCount == Int64(counted))
            for piece in [1, 4096, file.count] {
                let run = streamRun(file, pieces: { piece })
                #expect(run.error == nil)
                #expect(run.packets.count == counted, "pieces of \(piece)")
            }
        }
    }
}
