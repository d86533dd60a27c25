import Foundation
import Testing
import AudioCore
import AudioFileServices
import ProcessSupport

/// ffmpeg's decode of a file as 32-bit float samples.
func ffmpegDecode(_ path: String) throws -> [Float] {
    let tool = try #require(toolPath("ffmpeg"), "ffmpeg is not installed (Scripts/test installs it)")
    let out = temporaryAudioPath("decoded.f32")
    defer { try? FileManager.default.removeItem(atPath: out) }
    let result = try runProcess(tool, ["-v", "error", "-i", path, "-map", "0:a", "-f", "f32le", "-y", out])
    try #require(result.status == 0, "ffmpeg failed on \(path): \(result.err)")
    let data = try Data(contentsOf: URL(fileURLWithPath: out))
    return data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
}

/// AAC packets from fixtures written to MPEG-4, ADTS and CAF with priming and remainder frames,
/// checked with ffprobe, ffmpeg's decoder and this package's reader.
@Suite("Writing AAC to MPEG-4, ADTS and CAF")
struct AACWriterTests {
    /// A fixture's packets, cookie and a packet table to write them with.
    struct Source {
        let file: AudioFile
        let packets: (data: [UInt8], descriptions: [AudioStreamPacketDescription]?)
        let info: AudioFilePacketTableInfo

        init(_ name: String) throws {
            file = try AudioFile(path: Fixtures.path(name))
            packets = try readAllPackets(file)
            let total = file.packetCount * 1024
            // The fixture's own trims where it has them; else Apple's 2112 priming frames and a
            // remainder that is not a whole packet.
            info = file.packetTableInfo.flatMap { $0.primingFrames > 0 ? $0 : nil }
                ?? AudioFilePacketTableInfo(numberValidFrames: total - 2112 - 1357, primingFrames: 2112, remainderFrames: 1357)
        }

        /// Writes the packets to a new file of `type` in batches of 3, with the cookie and packet
        /// table info (where the container takes them).
        func write(_ type: AudioFileType, to path: String, cookie: [UInt8]? = nil) throws -> AudioFileWriter {
            let writer = try AudioFileWriter(path: path, type: type, format: file.dataFormat)
            try writer.setMagicCookie(cookie ?? file.magicCookie ?? [])
            let descriptions = try #require(packets.descriptions)
            var next = 0
            while next < descriptions.count {
                let n = min(3, descriptions.count - next)
                let base = Int(descriptions[next].startOffset)
                let batch = descriptions[next..<(next + n)].map {
                    AudioStreamPacketDescription(startOffset: $0.startOffset - Int64(base), dataByteSize: $0.dataByteSize)
                }
                let end = Int(descriptions[next + n - 1].startOffset) + Int(descriptions[next + n - 1].dataByteSize)
                #expect(try writer.writePackets(
                    startingPacket: Int64(next), bytes: Array(packets.data[base..<end]), descriptions: batch, packetCount: n) == n)
                next += n
            }
            if type == .adts {
                expectError(.unsupportedProperty) { try writer.setPacketTableInfo(info) }
                #expect(writer.packetTableInfo == nil)
            } else {
                try writer.setPacketTableInfo(info)
                #expect(writer.packetTableInfo == info)
            }
            try writer.close()
            return writer
        }
    }

    static let fixtures = ["caf-aac-2ch-48000.caf", "adts-aac-2ch-44100.aac", "caf-aac-6ch-48000.caf", "adts-aac-1ch-8000.aac"]

    @Test(arguments: fixtures)
    func mpeg4(name: String) throws {
        let source = try Source(name)
        let path = temporaryAudioPath("aac.m4a")
        defer { try? FileManager.default.removeItem(atPath: path) }
        _ = try source.write(.m4a, to: path)

        let file = try AudioFile(path: path)
        #expect(file.fileType == .m4a)
        #expect(file.dataFormat.formatID == .mpeg4AAC)
        #expect(file.dataFormat.sampleRate == source.file.dataFormat.sampleRate)
        #expect(file.dataFormat.channelsPerFrame == source.file.dataFormat.channelsPerFrame)
        #expect(file.packetCount == source.file.packetCount)
        let copy = try readAllPackets(file)
        #expect(copy.data == source.packets.data)
        #expect(copy.descriptions?.map(\.dataByteSize) == source.packets.descriptions?.map(\.dataByteSize))
        #expect(file.packetTableInfo == source.info)

        let probe = try ffprobe(path)
        #expect(probe.codec == "aac")
        // ffmpeg leaves out packets wholly past the edit's end.
        let edited = (Int64(source.info.primingFrames) + source.info.numberValidFrames + 1023) / 1024
        #expect(probe.readPackets == edited || probe.readPackets == source.file.packetCount, "\(String(describing: probe.readPackets)) packets")
        #expect(probe.channels == Int(source.file.dataFormat.channelsPerFrame))
        // ffmpeg honours the edit list: it skips the priming frames and stops after the valid ones
        // (ffmpeg 5.1 at the end of the packet holding the last valid frame; later versions
        // trim to the frame).
        let ours = try ffmpegDecode(path), reference = try ffmpegDecode(Fixtures.path(name))
        let channels = Int(source.file.dataFormat.channelsPerFrame)
        let priming = Int(source.info.primingFrames), valid = Int(source.info.numberValidFrames)
        let packetEnd = (priming + valid + 1023) / 1024 * 1024 - priming
        #expect(ours.count == valid * channels || ours.count == packetEnd * channels, "\(ours.count / channels) frames")
        let start = Int(source.info.primingFrames) * channels
        // ffmpeg decodes the fixture from its first frame (its CAF reader too): the M4A's samples
        // are the fixture's from the priming frames on.
        #expect(start + ours.count <= reference.count)
        if start + ours.count <= reference.count {
            #expect(ours == Array(reference[start..<(start + ours.count)]), "the decoded samples differ")
        }
    }

    @Test(arguments: fixtures)
    func adts(name: String) throws {
        let source = try Source(name)
        let path = temporaryAudioPath("aac.aac")
        defer { try? FileManager.default.removeItem(atPath: path) }
        _ = try source.write(.adts, to: path)

        let file = try AudioFile(path: path)
        #expect(file.fileType == .adts)
        #expect(file.packetCount == source.file.packetCount)
        let copy = try readAllPackets(file)
        #expect(copy.data == source.packets.data)
        let probe = try ffprobe(path)
        #expect(probe.codec == "aac")
        #expect(probe.readPackets == source.file.packetCount)
        // Every frame decodes: the whole stream, as ffmpeg decodes the ADTS written from it.
        let ours = try ffmpegDecode(path)
        let channels = Int(source.file.dataFormat.channelsPerFrame)
        #expect(ours.count == Int(source.file.packetCount) * 1024 * channels)
        if name.hasSuffix(".aac") {
            #expect(ours == (try ffmpegDecode(Fixtures.path(name))), "the decoded samples differ")
        }
    }

    @Test(arguments: fixtures)
    func caf(name: String) throws {
        let source = try Source(name)
        let path = temporaryAudioPath("aac.caf")
        defer { try? FileManager.default.removeItem(atPath: path) }
        // ADTS reports a bare AudioSpecificConfig; CAF's 'kuki' holds an ES_Descriptor, as Apple's
        // encoder gives it (the CAF writer stores the cookie as given).
        let cookie = source.file.fileType == .adts ? esds(try #require(source.file.magicCookie)) : try #require(source.file.magicCookie)
        _ = try source.write(.caf, to: path, cookie: cookie)

        let file = try AudioFile(path: path)
        #expect(file.packetCount == source.file.packetCount)
        #expect(try readAllPackets(file).data == source.packets.data)
        #expect(file.packetTableInfo == source.info)
        let probe = try ffprobe(path)
        #expect(probe.codec == "aac")
        #expect(probe.readPackets == source.file.packetCount)
        #expect(try ffmpegPackets(path).count == Int(source.file.packetCount))
        // The same packets decode to the same samples (ffmpeg 5.1's CAF reader decodes every
        // frame, priming included, as its ADTS reader does).
        let ours = try ffmpegDecode(path), reference = try ffmpegDecode(Fixtures.path(name))
        #expect(ours.count == reference.count, "\(ours.count) samples, the source \(reference.count)")
        #expect(ours == reference, "the decoded samples differ")
    }

    /// Apple Lossless from CAF fixtures into M4A: the last packet's actual length goes in
    /// `stts`, and the file decodes as the fixture does.
    @Test(arguments: ["alac-1ch-48000-s24-tone.caf", "alac-1ch-8000-s16-tone.caf", "alac-1ch-44100-s16-noise.caf"])
    func alac(name: String) throws {
        let fixture = Fixtures.root.appendingPathComponent("alac/\(name)").path
        let source = try AudioFile(path: fixture)
        let packets = try readAllPackets(source)
        // These fixtures' 'pakt' counts every frame valid; their last ALAC frame is shorter, as
        // ffmpeg's decode says: that is the remainder written.
        let reference = try ffmpegDecode(fixture)
        let channels = Int(source.dataFormat.channelsPerFrame)
        let total = source.packetCount * Int64(source.dataFormat.framesPerPacket)
        let decoded = Int64(reference.count / channels)
        try #require(decoded > total - Int64(source.dataFormat.framesPerPacket) && decoded <= total)
        let info = AudioFilePacketTableInfo(numberValidFrames: decoded, primingFrames: 0, remainderFrames: Int32(total - decoded))
        let path = temporaryAudioPath("alac.m4a")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try AudioFileWriter(path: path, type: .m4a, format: source.dataFormat)
        try writer.setMagicCookie(try #require(source.magicCookie))
        try writer.writePackets(startingPacket: 0, bytes: packets.data, descriptions: packets.descriptions, packetCount: Int(source.packetCount))
        try writer.setPacketTableInfo(info)
        try writer.close()

        let file = try AudioFile(path: path)
        #expect(file.dataFormat.formatID == .appleLossless)
        #expect(file.packetCount == source.packetCount)
        #expect(try readAllPackets(file).data == packets.data)
        // No edit list and no iTunSMPB: the reader takes the remainder from the 'stts' total.
        #expect(file.packetTableInfo == info)
        let probe = try ffprobe(path)
        #expect(probe.codec == "alac")
        #expect(probe.readPackets == source.packetCount)
        #expect(probe.durationTS == decoded)
        let ours = try ffmpegDecode(path)
        #expect(ours.count == reference.count)
        #expect(ours == reference, "the decoded samples differ")
    }

    /// Writing through a sink the program provides gives the same bytes as writing to a path.
    @Test func sinkWritesTheSameFile() throws {
        let source = try Source("caf-aac-2ch-48000.caf")
        let path = temporaryAudioPath("aac.m4a")
        defer { try? FileManager.default.removeItem(atPath: path) }
        _ = try source.write(.m4a, to: path)
        let sink = MemorySink()
        let writer = try AudioFileWriter(sink: sink, type: .m4a, format: source.file.dataFormat)
        try writer.setMagicCookie(try #require(source.file.magicCookie))
        try writer.writePackets(
            startingPacket: 0, bytes: source.packets.data, descriptions: source.packets.descriptions, packetCount: Int(source.file.packetCount))
        try writer.setPacketTableInfo(source.info)
        try writer.close()
        #expect(sink.bytes == Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        #expect(sink.closed)
    }

    @Test func misuse() throws {
        let source = try AudioFile(path: Fixtures.path("caf-aac-2ch-48000.caf"))
        let path = temporaryAudioPath("bad.m4a")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let pcm = AudioStreamBasicDescription(
            sampleRate: 44100, formatID: .linearPCM, formatFlags: [.isSignedInteger, .isPacked], bytesPerPacket: 4,
            framesPerPacket: 1, bytesPerFrame: 4, channelsPerFrame: 2, bitsPerChannel: 16)
        for type in [AudioFileType.m4a, .adts, .mpeg4, .m4b] {
            expectError(.unsupportedDataFormat) { try AudioFileWriter(path: path, type: type, format: pcm) }
        }
        #expect(!FileManager.default.fileExists(atPath: path))
        var seven = source.dataFormat
        seven.channelsPerFrame = 7
        expectError(.unsupportedDataFormat) { try AudioFileWriter(path: path, type: .adts, format: seven) }
        var odd = source.dataFormat
        odd.sampleRate = 44000
        expectError(.unsupportedDataFormat) { try AudioFileWriter(path: path, type: .adts, format: odd) }

        let writer = try AudioFileWriter(path: path, type: .m4a, format: source.dataFormat, flags: .eraseFile)
        // Not a cookie; a cookie for another rate; an ES_Descriptor cut short.
        expectError(.parameter) { try writer.setMagicCookie([0xFF, 0xFF]) }
        expectError(.parameter) { try writer.setMagicCookie([0x12, 0x10]) }
        let cookie = try #require(source.magicCookie)
        expectError(.parameter) { try writer.setMagicCookie(Array(cookie.prefix(12))) }
        try writer.setMagicCookie(cookie)
        #expect(writer.magicCookie == cookie)
        let one = AudioStreamPacketDescription(startOffset: 0, dataByteSize: 4)
        expectError(.invalidPacketOffset) {
            try writer.writePackets(startingPacket: 0, bytes: [1, 2, 3, 4], descriptions: nil, packetCount: 1)
        }
        try writer.writePackets(startingPacket: 0, bytes: [1, 2, 3, 4], descriptions: [one], packetCount: 1)
        expectError(.parameter) {
            try writer.setPacketTableInfo(AudioFilePacketTableInfo(numberValidFrames: 1000, primingFrames: 2112, remainderFrames: 0))
        }
        try writer.close()

        let adtsPath = temporaryAudioPath("big.aac")
        defer { try? FileManager.default.removeItem(atPath: adtsPath) }
        let adts = try AudioFileWriter(path: adtsPath, type: .adts, format: source.dataFormat)
        let big = AudioStreamPacketDescription(startOffset: 0, dataByteSize: 8185)
        expectError(.parameter) {
            try adts.writePackets(startingPacket: 0, bytes: [UInt8](repeating: 0, count: 8185), descriptions: [big], packetCount: 1)
        }
        #expect(adts.packetCount == 0)
        try adts.close()
    }
}

/// Past 4 GiB of packets an MPEG-4 file's `mdat` takes a 64-bit size and `stco` becomes `co64`.
/// The packets go through a sink that keeps only the header and the `moov`; the file is read
/// back with zeros for the packets in between.
@Test("MPEG-4 past 4 GiB: 64-bit mdat size and co64") func mpeg4Past4GiB() throws {
    let format = AudioStreamBasicDescription(
        sampleRate: 44100, formatID: .mpeg4AAC, bytesPerPacket: 0, framesPerPacket: 1024, bytesPerFrame: 0, channelsPerFrame: 2, bitsPerChannel: 0)
    let sink = SparseSink()
    let writer = try AudioFileWriter(sink: sink, type: .m4a, format: format)
    let packet = [UInt8](repeating: 0, count: 1 << 26)
    let count = 85  // 85 × 64 MiB: chunks of 21 packets, the last starting past 4 GiB
    for i in 0..<count {
        try writer.writePackets(
            startingPacket: Int64(i), bytes: packet, descriptions: [AudioStreamPacketDescription(startOffset: 0, dataByteSize: 1 << 26)],
            packetCount: 1)
    }
    try writer.close()
    let dataEnd = writer.dataOffset + Int64(count) << 26
    #expect(sink.size == dataEnd + Int64(sink.tail.count))
    // The free box and mdat header became one 64-bit mdat header.
    #expect(Array(sink.head[32..<48]) == [0, 0, 0, 1] + Array("mdat".utf8) + BigEndian.u64(UInt64(dataEnd - 32)))
    let types = stride(from: 0, to: sink.tail.count - 4, by: 1).map { String(decoding: sink.tail[$0..<($0 + 4)], as: UTF8.self) }
    #expect(types.contains("co64"), "\(sink.tail.count) bytes of moov at \(sink.tailStart)")
    #expect(!types.contains("stco"))
    let file = try AudioFile(source: SparseSource(sink: sink, dataEnd: dataEnd))
    #expect(file.packetCount == Int64(count))
    let last = try file.readPackets(from: Int64(count - 1), count: 1)
    #expect(last.descriptions?.first?.dataByteSize == 1 << 26)
}

enum BigEndian {
    static func u64(_ v: UInt64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: v >> (56 - 8 * UInt64($0))) } }
}

/// A sink that keeps the first 4096 bytes and what is written after the first byte past 4 GiB.
final class SparseSink: AudioByteSink, @unchecked Sendable {
    var head = [UInt8](repeating: 0, count: 4096)
    var tail: [UInt8] = []
    var tailStart: Int64 = .max
    var size: Int64 = 0
    let name = "sparse"

    func write(_ data: UnsafeRawBufferPointer, at offset: Int64) throws(AudioFileError) {
        if offset < 4096 {
            for i in 0..<min(data.count, 4096 - Int(offset)) { head[Int(offset) + i] = data[i] }
        }
        if offset > 1 << 32 && data.count < 1 << 20 {  // the moov, not packets
            tailStart = offset
            tail = Array(data)
        }
        size = max(size, offset + Int64(data.count))
    }

    func setSize(_ size: Int64) throws(AudioFileError) { self.size = size }
    func close() {}
}

/// A ``SparseSink``'s file: its head and tail, zeros between.
struct SparseSource: AudioByteSource {
    let sink: SparseSink
    let dataEnd: Int64
    var size: Int64 { sink.size }

    func read(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) throws(AudioFileError) -> Int {
        let n = Int(max(0, min(Int64(buffer.count), size - offset)))
        guard n > 0 else { return 0 }
        let wanted = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<n])
        wanted.initializeMemory(as: UInt8.self, repeating: 0)
        let end = offset + Int64(n)
        if offset < 4096 {
            for at in offset..<min(end, 4096) { wanted[Int(at - offset)] = sink.head[Int(at)] }
        }
        if end > sink.tailStart {
            for at in max(offset, sink.tailStart)..<end { wanted[Int(at - offset)] = sink.tail[Int(at - sink.tailStart)] }
        }
        return n
    }
}

/// An ``AudioByteSink`` in memory.
final class MemorySink: AudioByteSink, @unchecked Sendable {
    var bytes: [UInt8] = []
    var closed = false
    let name = "memory"

    func write(_ data: UnsafeRawBufferPointer, at offset: Int64) throws(AudioFileError) {
        let end = Int(offset) + data.count
        if bytes.count < end { bytes += [UInt8](repeating: 0, count: end - bytes.count) }
        bytes.replaceSubrange(Int(offset)..<end, with: data)
    }

    func setSize(_ size: Int64) throws(AudioFileError) {
        if Int(size) < bytes.count { bytes.removeLast(bytes.count - Int(size)) } else { bytes += [UInt8](repeating: 0, count: Int(size) - bytes.count) }
    }

    func close() { closed = true }
}
