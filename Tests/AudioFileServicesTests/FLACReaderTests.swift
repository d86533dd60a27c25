import Foundation
import Testing
import ProcessSupport
import AudioCore
import AudioFileServices

/// The FLAC reader against ffprobe (packets) and the flac tool's files (metadata blocks).
@Suite("FLAC reader")
struct FLACReaderTests {
    static let directory = Fixtures.root.appendingPathComponent("flac")
    static func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    static var files: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
            .filter { $0.hasSuffix(".flac") || $0.hasSuffix(".m4a") || $0.hasSuffix(".caf") }.sorted()
    }

    static func refValue(_ name: String, _ key: String) -> String? {
        guard let text = try? String(contentsOfFile: path(name + ".ref"), encoding: .utf8) else { return nil }
        return text.split(separator: "\n").first { $0.hasPrefix(key + "=") }.map { String($0.dropFirst(key.count + 1)) }
    }

    /// ffprobe's packets: (offset, size) each.
    static func ffprobePackets(_ name: String) throws -> [(offset: Int64, size: Int)] {
        let r = try runProcess("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "packet=pos,size", "-of", "csv=p=0", path(name)])
        return r.out.split(separator: "\n").compactMap { line in
            let f = line.split(separator: ",").compactMap { Int64($0) }
            return f.count == 2 ? (f[1], Int(f[0])) : nil
        }
    }

    @Test func fixturesArePresent() {
        #expect(Self.files.count >= 18, "run Scripts/fixtures/make_flac_fixtures.sh")
    }

    /// Packet counts are ffprobe's (`-count_packets`), frames the stream's, in every container.
    @Test(arguments: files)
    func packetCountsAreFFprobes(name: String) throws {
        let file = try AudioFile(path: Self.path(name))
        #expect(file.dataFormat.formatID == .flac)
        if let packets = Self.refValue(name, "packets").flatMap(Int64.init) {
            #expect(file.packetCount == packets)
        }
        let frames = try #require(Self.refValue(name, "frames").flatMap(Int64.init))
        #expect(file.packetTableInfo?.numberValidFrames == frames)
        #expect(file.packetTableInfo?.primingFrames == 0)
        #expect(file.magicCookie.flatMap(FLACStreamInfo.init(magicCookie:)) != nil)
    }

    /// Native files: every packet lies where ffprobe's FLAC parser puts it, byte for byte.
    @Test(arguments: files.filter { $0.hasSuffix(".flac") && !$0.contains("s32") })
    func packetsAreFFprobes(name: String) throws {
        let file = try AudioFile(path: Self.path(name))
        #expect(file.fileType == .flac)
        let reference = try Self.ffprobePackets(name)
        let format = try #require(file.container as? FLACFormat)
        guard case .table(let table) = format.packets else {
            Issue.record("no packet table")
            return
        }
        #expect(table.count == reference.count)
        for (i, packet) in reference.enumerated() where i < table.count {
            #expect(table.offsets[i] == packet.offset && Int(table.sizes[i]) == packet.size, "packet \(i)")
        }
        #expect(file.dataOffset == reference.first?.offset)
    }

    @Test func variableBlockSizes() throws {
        let file = try AudioFile(path: Self.path("flac-2ch-44100-s16-variable.flac"))
        #expect(file.dataFormat.framesPerPacket == 4096)
        let format = try #require(file.container as? FLACFormat)
        guard case .table(let table) = format.packets else { return }
        #expect((0..<table.count).map { table.framesInPacket($0) } == [4096, 4096, 1152, 1152, 1152, 576, 576, 2000])
        #expect(format.streamInfo.minimumBlockSize == 576 && format.streamInfo.maximumBlockSize == 4096)
    }

    /// Every metadata block type is walked; VORBIS_COMMENT and PICTURE bodies are kept raw.
    @Test func metadataBlocks() throws {
        let file = try AudioFile(path: Self.path("flac-metadata.flac"))
        let format = try #require(file.container as? FLACFormat)
        let types = format.metadata.blocks.map(\.type)
        #expect(types.first == .streamInfo)
        #expect(Set(types) == [.streamInfo, .padding, .application, .seekTable, .vorbisComment, .cueSheet, .picture])
        let listed = try runProcess("/usr/bin/metaflac", ["--list", Self.path("flac-metadata.flac")]).out
        // Each "METADATA block #N" line is followed by "  type: T (NAME)".
        let lines = listed.split(separator: "\n")
        let metaflacTypes = zip(lines, lines.dropFirst()).filter { $0.0.contains("METADATA block #") }.map { String($0.1.split(separator: " ")[1]) }
        #expect(types.map { String($0.rawValue) } == metaflacTypes)
        let comment = try #require(format.vorbisComment)
        #expect(String(decoding: comment, as: UTF8.self).contains("TITLE=Metadata test"))
        #expect(format.pictures.count == 1)
        #expect(format.pictures.first?.prefix(4) == [0, 0, 0, 3], "front cover, as flac --picture writes")
        let padding = try #require(format.metadata.blocks.first { $0.type == .padding })
        #expect(padding.length == 64)
        #expect(file.packetCount == 6)
    }

    /// A file that starts with an ID3v2 tag: found by its extension, and by content alone.
    @Test func id3v2Prefix() throws {
        let plain = try AudioFile(path: Self.path("flac-2ch-44100-s16.flac"))
        let tagged = try AudioFile(path: Self.path("flac-id3v2.flac"))
        let bytes = try #require(FileManager.default.contents(atPath: Self.path("flac-id3v2.flac")))
        let byContent = try AudioFile(source: MemoryByteSource(Array(bytes)))
        for file in [tagged, byContent] {
            #expect(file.fileType == .flac)
            #expect(file.packetCount == plain.packetCount)
            #expect(file.dataOffset - plain.dataOffset == (file.container as? FLACFormat)?.metadata.id3v2End)
            #expect(try file.allPackets().data == (try plain.allPackets().data))
        }
    }

    /// Every truncation of a file and seeded byte flips: an AudioFileError or a file that reads
    /// to its end; never a crash or a hang.
    @Test func hostileBytes() throws {
        let bytes = Array(try #require(FileManager.default.contents(atPath: Self.path("flac-metadata.flac"))))
        var opened = 0
        for length in stride(from: 0, to: bytes.count, by: 97) {
            if let file = try? AudioFile(source: MemoryByteSource(Array(bytes[..<length])), fileExtension: "flac") {
                _ = try file.allPackets(batch: 5)
                opened += 1
            }
        }
        #expect(opened > 0)
        var random = SplitMix(seed: 0xF1AC)
        for _ in 0..<300 {
            var damaged = bytes
            for _ in 0..<Int.random(in: 1...8, using: &random) {
                damaged[Int.random(in: 0..<min(damaged.count, 9000), using: &random)] = UInt8.random(in: 0...255, using: &random)
            }
            if let file = try? AudioFile(source: MemoryByteSource(damaged), fileExtension: "flac") {
                _ = try file.allPackets(batch: 7)
            }
        }
    }

    @Test func frameHeaders() {
        // 4096 frames (code 12), 44100 Hz (9), stereo independent, 16-bit, frame 0, CRC-8.
        var header: [UInt8] = [0xFF, 0xF8, 0xC9, 0x18, 0x00]
        header.append(crc8(header))
        let parsed = header.withUnsafeBytes { FLACFrameHeader($0) }
        #expect(parsed?.blockSize == 4096 && parsed?.sampleRate == 44100 && parsed?.channels == 2)
        #expect(parsed?.bitsPerSample == 16 && parsed?.number == 0 && parsed?.length == 6 && parsed?.variableBlockSize == false)
        var bad = header
        bad[5] ^= 1
        #expect(bad.withUnsafeBytes { FLACFrameHeader($0) } == nil, "CRC-8")
        // Variable block size: sample number 1,000,000 (4 bytes coded), 16-bit size 65536 (code 7),
        // rate 384000 Hz in tens (code 14), 8 channels, 24-bit.
        var v: [UInt8] = [0xFF, 0xF9, 0x7E, 0x7C, 0xF3, 0xB4, 0x89, 0x80, 0xFF, 0xFF, 0x96, 0x00]
        v.append(crc8(v))
        let vp = v.withUnsafeBytes { FLACFrameHeader($0) }
        #expect(vp?.number == 1_000_000 && vp?.blockSize == 65536 && vp?.sampleRate == 384_000)
        #expect(vp?.channels == 8 && vp?.bitsPerSample == 24 && vp?.variableBlockSize == true)
        for reserved in [[0xFF, 0xF8, 0x09, 0x18, 0x00], [0xFF, 0xF8, 0xCF, 0x18, 0x00], [0xFF, 0xF8, 0xC9, 0xB8, 0x00],
                         [0xFF, 0xF8, 0xC9, 0x16, 0x00], [0xFF, 0xF8, 0xC9, 0x19, 0x00]] as [[UInt8]] {
            let h = reserved + [crc8(reserved)]
            #expect(h.withUnsafeBytes { FLACFrameHeader($0) } == nil, "\(reserved)")
        }
    }

    private func crc8(_ bytes: [UInt8]) -> UInt8 {
        var crc: UInt8 = 0
        for b in bytes {
            crc ^= b
            for _ in 0..<8 { crc = crc & 0x80 != 0 ? (crc << 1) ^ 0x07 : crc << 1 }
        }
        return crc
    }
}
