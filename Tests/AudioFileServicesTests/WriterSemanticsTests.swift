import Foundation
import Testing
import AudioCore
import AudioFileServices

/// AudioFileCreateWithURL, AudioFileWritePackets and AudioFileWriteBytes semantics, and what
/// misuse gives.
@Suite("AudioFileWriter semantics and argument errors")
struct WriterSemanticsTests {
    let s16 = AudioStreamBasicDescription.linearPCM(sampleRate: 8000, channels: 1, bitsPerChannel: 16)
    let aac = AudioStreamBasicDescription(
        sampleRate: 44100, formatID: .mpeg4AAC, bytesPerPacket: 0, framesPerPacket: 1024, bytesPerFrame: 0,
        channelsPerFrame: 2, bitsPerChannel: 0)

    @Test func existingFileNeedsEraseFile() throws {
        let path = temporaryAudioPath("exists.wav")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let original = Data("not audio".utf8)
        try original.write(to: URL(fileURLWithPath: path))
        expectError(.duplicateFileName) { try AudioFileWriter(path: path, type: .wave, format: s16) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == original, "an existing file is left alone")
        #expect(AudioFileError.Code.duplicateFileName.rawValue == -48)

        let writer = try AudioFileWriter(path: path, type: .wave, format: s16, flags: .eraseFile)
        try writer.writePackets(startingPacket: 0, bytes: patternBytes(20), packetCount: 10)
        try writer.close()
        let file = try AudioFile(path: path)
        #expect(file.packetCount == 10)
        #expect(try file.readPackets(from: 0, count: 10).data == patternBytes(20))

        expectError(.fileNotFound) { try AudioFileWriter(path: "/nonexistent/dir/x.caf", type: .caf, format: s16) }
        expectError(.fileNotFound) {
            try AudioFileWriter(url: URL(string: "https://example.com/x.caf")!, type: .caf, format: s16)
        }
    }

    @Test func createWithURL() throws {
        let path = temporaryAudioPath("url with space.caf")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try AudioFileWriter(url: URL(fileURLWithPath: path), type: .caf, format: s16)
        #expect(writer.path == path)
        try writer.writePackets(startingPacket: 0, bytes: patternBytes(8), packetCount: 4)
        try writer.close()
        #expect(try AudioFile(url: URL(fileURLWithPath: path)).packetCount == 4)
    }

    /// Constant-size packets can be rewritten in place; a gap is refused; fewer bytes than
    /// packets write the whole packets they hold; zero packets are fine.
    @Test func constantSizePacketPositions() throws {
        for type in [AudioFileType.caf, .wave, .aiff] {
            let path = temporaryAudioPath("positions")
            defer { try? FileManager.default.removeItem(atPath: path) }
            let format = AudioStreamBasicDescription.linearPCM(sampleRate: 8000, channels: 1, bitsPerChannel: 16, isBigEndian: type == .aiff)
            let writer = try AudioFileWriter(path: path, type: type, format: format)
            var expected = patternBytes(200, seed: 1)
            #expect(try writer.writePackets(startingPacket: 0, bytes: expected, packetCount: 100) == 100)
            let replacement = patternBytes(20, seed: 2)
            #expect(try writer.writePackets(startingPacket: 10, bytes: replacement, packetCount: 10) == 10)
            expected.replaceSubrange(20..<40, with: replacement)
            #expect(writer.packetCount == 100)
            // Overwriting the last packets and going on past the end.
            let tail = patternBytes(20, seed: 3)
            #expect(try writer.writePackets(startingPacket: 95, bytes: tail, packetCount: 10) == 10)
            expected.replaceSubrange(190..<200, with: tail)
            #expect(writer.packetCount == 105)
            expectError(.invalidPacketOffset) { try writer.writePackets(startingPacket: 106, bytes: tail, packetCount: 10) }
            expectError(.invalidPacketOffset) { try writer.writePackets(startingPacket: -1, bytes: tail, packetCount: 10) }
            expectError(.parameter) { try writer.writePackets(startingPacket: 105, bytes: tail, packetCount: -1) }
            #expect(try writer.writePackets(startingPacket: 105, bytes: tail, packetCount: 0) == 0)
            // 7 bytes hold 3 whole packets of 2 bytes.
            #expect(try writer.writePackets(startingPacket: 105, bytes: Array(tail.prefix(7)), packetCount: 5) == 3)
            expected += tail.prefix(6)
            #expect(try writer.writePackets(startingPacket: 108, bytes: [1], packetCount: 1) == 0)
            #expect(writer.packetCount == 108)
            #expect(writer.dataByteCount == 216)
            try writer.close()
            let file = try AudioFile(path: path)
            #expect(file.packetCount == 108)
            #expect(try file.readPackets(from: 0, count: 108).data == expected)
            #expect(try ffprobe(path).durationTS == 108)
        }
    }

    /// AudioFileWriteBytes: in place, appended, or past the end (the bytes between read as zeros).
    @Test func writeBytes() throws {
        let path = temporaryAudioPath("bytes.aiff")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let format = AudioStreamBasicDescription.linearPCM(sampleRate: 8000, channels: 2, bitsPerChannel: 16, isBigEndian: true)
        let writer = try AudioFileWriter(path: path, type: .aiff, format: format)
        var expected = patternBytes(100)
        #expect(try writer.writeBytes(startingByte: 0, expected) == 100)
        #expect(writer.packetCount == 25)
        #expect(try writer.writeBytes(startingByte: 10, [9, 9, 9]) == 3)
        expected.replaceSubrange(10..<13, with: [9, 9, 9])
        #expect(try writer.writeBytes(startingByte: 102, [7, 7]) == 2)
        expected += [0, 0, 7, 7]
        #expect(writer.dataByteCount == 104)
        #expect(writer.packetCount == 26)
        // A partial packet: counted once whole.
        #expect(try writer.writeBytes(startingByte: 104, [5, 5, 5]) == 3)
        #expect(writer.packetCount == 26)
        #expect(try writer.writeBytes(startingByte: 107, [5]) == 1)
        expected += [5, 5, 5, 5]
        #expect(writer.packetCount == 27)
        #expect(try writer.writeBytes(startingByte: 0, []) == 0)
        expectError(.position) { try writer.writeBytes(startingByte: -1, [1]) }
        // AIFF sizes are 32-bit.
        expectError(.doesNotAllow64BitDataSize) { try writer.writeBytes(startingByte: 0xFFFF_FFF0, [UInt8](repeating: 0, count: 32)) }
        #expect(writer.dataByteCount == 108)
        try writer.close()
        let file = try AudioFile(path: path)
        #expect(file.dataByteCount == 108)
        #expect(try file.readBytes(at: 0, count: 108) == expected)
        #expect(try ffprobe(path).durationTS == 27)
    }

    /// Past 4 GiB a WAVE file becomes RF64: the sizes move to the ds64 chunk. The bytes before
    /// the last few are skipped over, so the file is sparse where the file system allows.
    @Test func waveBecomesRF64() throws {
        let path = temporaryAudioPath("big.wav")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try AudioFileWriter(path: path, type: .wave, format: s16)
        let start: Int64 = 0x1_0000_0000
        try writer.writeBytes(startingByte: start, patternBytes(16))
        try writer.close()
        let file = try AudioFile(path: path)
        #expect(file.fileType == .rf64)
        #expect(file.dataByteCount == start + 16)
        #expect(file.packetCount == (start + 16) / 2)
        #expect(try file.readBytes(at: start - 2, count: 18) == [0, 0] + patternBytes(16))
        let probe = try ffprobe(path, countPackets: false)
        #expect(probe.codec == "pcm_s16le")
        #expect(probe.durationTS == (start + 16) / 2)
    }

    /// Variable-size packets: descriptions are required, must lie inside the bytes given, and
    /// packets are appended. A refused call writes nothing.
    @Test func variableSizeArguments() throws {
        let path = temporaryAudioPath("vbr.caf")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try AudioFileWriter(path: path, type: .caf, format: aac)
        let bytes = patternBytes(100)
        let good = [AudioStreamPacketDescription(startOffset: 0, dataByteSize: 60), AudioStreamPacketDescription(startOffset: 60, dataByteSize: 40)]
        expectError(.invalidPacketOffset) { try writer.writePackets(startingPacket: 0, bytes: bytes, packetCount: 2) }
        expectError(.invalidPacketOffset) {
            try writer.writePackets(startingPacket: 0, bytes: bytes, descriptions: [good[0], .init(startOffset: 61, dataByteSize: 40)], packetCount: 2)
        }
        expectError(.invalidPacketOffset) {
            try writer.writePackets(startingPacket: 0, bytes: bytes, descriptions: [.init(startOffset: -1, dataByteSize: 1)], packetCount: 1)
        }
        expectError(.invalidPacketOffset) {
            try writer.writePackets(startingPacket: 0, bytes: bytes, descriptions: [.init(startOffset: 0, dataByteSize: .max)], packetCount: 1)
        }
        expectError(.parameter) { try writer.writePackets(startingPacket: 0, bytes: bytes, descriptions: good, packetCount: 3) }
        expectError(.invalidPacketOffset) { try writer.writePackets(startingPacket: 1, bytes: bytes, descriptions: good, packetCount: 2) }
        expectError(.invalidPacketOffset) { try bytes.withUnsafeBytes { try writer.writePackets($0, count: 1) } }
        expectError(.operationNotSupported) { try writer.writeBytes(startingByte: 0, bytes) }
        #expect(writer.packetCount == 0)
        #expect(writer.dataByteCount == 0)
        #expect(try writer.writePackets(startingPacket: 0, bytes: bytes, descriptions: good, packetCount: 2) == 2)
        expectError(.invalidPacketOffset) { try writer.writePackets(startingPacket: 0, bytes: bytes, descriptions: good, packetCount: 2) }
        #expect(try writer.writePackets(startingPacket: 2, bytes: bytes, descriptions: good, packetCount: 1) == 1)
        #expect(writer.packetCount == 3)
        #expect(writer.maximumPacketSize == 60)
        try writer.close()
        let file = try AudioFile(path: path)
        let read = try readAllPackets(file)
        #expect(read.data == bytes + bytes.prefix(60))
        #expect(read.descriptions?.map(\.dataByteSize) == [60, 40, 60])
    }

    @Test func closedFiles() throws {
        let path = temporaryAudioPath("closed.caf")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try AudioFileWriter(path: path, type: .caf, format: s16)
        try writer.writePackets(startingPacket: 0, bytes: patternBytes(10), packetCount: 5)
        #expect(writer.isOpen)
        try writer.close()
        try writer.close()
        #expect(!writer.isOpen)
        expectError(.notOpen) { try writer.writePackets(startingPacket: 5, bytes: patternBytes(10), packetCount: 5) }
        expectError(.notOpen) { try writer.writeBytes(startingByte: 0, [1]) }
        expectError(.notOpen) { try writer.setMagicCookie([1]) }
        expectError(.notOpen) { try writer.setChannelLayout(nil) }
        expectError(.notOpen) { try writer.updateHeader() }
        #expect(writer.packetCount == 5)
        #expect(try AudioFile(path: path).packetCount == 5)
    }

    @Test func formatsTheContainersRefuse() throws {
        let path = temporaryAudioPath("refused")
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            _ = try AudioFileWriter(path: path, type: .wave, format: ima4(44100, 2))
            Issue.record("ima4 in WAVE was accepted")
        } catch {
            #expect(error.code == .unsupportedDataFormat)
            #expect(error.reason.contains("0x11"), "\(error.reason)")
        }
        #expect(!FileManager.default.fileExists(atPath: path), "a refused format creates no file")
        expectError(.unsupportedDataFormat) { try AudioFileWriter(path: path, type: .aiff, format: aac) }
        var badIMA4 = ima4(44100, 2)
        badIMA4.bytesPerPacket = 34
        expectError(.unsupportedDataFormat) { try AudioFileWriter(path: path, type: .caf, format: badIMA4) }
        expectError(.unsupportedDataFormat) { try AudioFileWriter(path: path, type: .aifc, format: badIMA4) }
        var nonInterleaved = s16
        nonInterleaved.formatFlags.insert(.isNonInterleaved)
        expectError(.unsupportedDataFormat) { try AudioFileWriter(path: path, type: .caf, format: nonInterleaved) }
        var noRate = aac
        noRate.sampleRate = 0
        expectError(.unsupportedDataFormat) { try AudioFileWriter(path: path, type: .caf, format: noRate) }
        // A layout that does not fit is refused at creation and leaves no file.
        expectError(.parameter) { try AudioFileWriter(path: path, type: .caf, format: s16, channelLayout: AudioChannelLayout(tag: .stereo)) }
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    /// Formats with fields at their extremes are refused or written, never a trap.
    @Test func extremeFormats() throws {
        let path = temporaryAudioPath("extreme")
        let values: [UInt32] = [0, 1, 2, 3, 8, 34, 64, 0xFFFF, 0x1_0000, 0x7FFF_FFFF, .max]
        let ids: [AudioFormatID] = [.linearPCM, .uLaw, .appleIMA4, .mpeg4AAC]
        let flags: [AudioFormatFlags] = [[], [.isFloat, .isBigEndian], [.isSignedInteger, .isAlignedHigh], AudioFormatFlags(rawValue: .max)]
        var created = 0
        for type in [AudioFileType.caf, .wave, .aiff, .aifc] {
            for id in ids {
                for flag in flags {
                    for bytes in values {
                        for bits in [0, 8, 24, 64, 65, UInt32.max] {
                            for channels in [UInt32(0), 1, 6, 0x8000, .max] {
                                let format = AudioStreamBasicDescription(
                                    sampleRate: 44100, formatID: id, formatFlags: flag, bytesPerPacket: bytes,
                                    framesPerPacket: id == .linearPCM ? 1 : 64, bytesPerFrame: bytes,
                                    channelsPerFrame: channels, bitsPerChannel: bits)
                                guard let writer = try? AudioFileWriter(path: path, type: type, format: format, flags: .eraseFile) else { continue }
                                created += 1
                                _ = try? writer.writePackets(startingPacket: 0, bytes: patternBytes(64), packetCount: 4)
                                try writer.close()
                                #expect(try AudioFile(path: path).dataFormat == writer.dataFormat, "\(type) \(format)")
                            }
                        }
                    }
                }
            }
        }
        try? FileManager.default.removeItem(atPath: path)
        #expect(created > 0)
    }

    /// A recording callback writes while another thread reads the writer's properties.
    @Test func propertiesWhileWriting() async throws {
        let path = temporaryAudioPath("threads.wav")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try AudioFileWriter(path: path, type: .wave, format: s16)
        let chunk = patternBytes(512)
        let batches = 400
        async let writing: Void = Task.detached {
            for i in 0..<batches {
                try writer.writePackets(startingPacket: Int64(i * 256), bytes: chunk, packetCount: 256)
            }
        }.value
        var last: Int64 = 0
        for _ in 0..<2000 {
            let count = writer.packetCount
            #expect(count >= last)
            #expect(count % 256 == 0)
            last = count
            _ = writer.dataByteCount
            _ = writer.channelLayout
        }
        try await writing
        try writer.close()
        #expect(writer.packetCount == Int64(batches * 256))
        #expect(try AudioFile(path: path).packetCount == Int64(batches * 256))
    }
}
