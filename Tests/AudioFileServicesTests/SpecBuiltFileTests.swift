import Testing
import ProcessSupport
import AudioCore
import AudioFileServices

/// Byte builders for files the fixture tools cannot write, laid out from the container specs
/// (the spec-built and hostile-input tests).
struct Bytes {
    var data: [UInt8] = []
    mutating func ascii(_ s: String) { data += Array(s.utf8) }
    mutating func be16(_ v: Int) { data += [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
    mutating func be32(_ v: UInt32) { data += [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
    mutating func be64(_ v: UInt64) { be32(UInt32(v >> 32)); be32(UInt32(v & 0xFFFF_FFFF)) }
    mutating func le16(_ v: Int) { data += [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
    mutating func le32(_ v: UInt32) { data += [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24)] }
    mutating func le64(_ v: UInt64) { le32(UInt32(v & 0xFFFF_FFFF)); le32(UInt32(v >> 32)) }
    /// CAF variable-length integer.
    mutating func varint(_ v: UInt64) {
        var groups: [UInt8] = [UInt8(v & 0x7F)]
        var rest = v >> 7
        while rest > 0 {
            groups.insert(UInt8(rest & 0x7F) | 0x80, at: 0)
            rest >>= 7
        }
        data += groups
    }
    mutating func cafChunk(_ id: String, _ body: [UInt8]) { ascii(id); be64(UInt64(body.count)); data += body }
    mutating func riffChunk(_ id: String, _ body: [UInt8]) {
        ascii(id); le32(UInt32(body.count)); data += body
        if body.count % 2 == 1 { data.append(0) }
    }
    mutating func iffChunk(_ id: String, _ body: [UInt8]) {
        ascii(id); be32(UInt32(body.count)); data += body
        if body.count % 2 == 1 { data.append(0) }
    }
}

private func open(_ bytes: [UInt8], ext: String? = nil, hint: AudioFileType? = nil) throws(AudioFileError) -> AudioFile {
    try AudioFile(source: MemoryByteSource(bytes), typeHint: hint, fileExtension: ext)
}

private func cafDesc(rate: Double, id: String, flags: UInt32, bytesPerPacket: UInt32, framesPerPacket: UInt32, channels: UInt32, bits: UInt32) -> [UInt8] {
    var d = Bytes()
    d.be64(rate.bitPattern)
    d.ascii(id)
    for v in [flags, bytesPerPacket, framesPerPacket, channels, bits] { d.be32(v) }
    return d.data
}

@Suite("Files built from the specs")
struct SpecBuiltFileTests {
    /// CAF with packets that vary in size and duration (framesPerPacket 0): two varints per entry.
    @Test func cafVariableFramesPerPacket() throws {
        var f = Bytes()
        f.ascii("caff"); f.be16(1); f.be16(0)
        f.cafChunk("desc", cafDesc(rate: 32000, id: "vorb", flags: 0, bytesPerPacket: 0, framesPerPacket: 0, channels: 1, bits: 0))
        let packets: [(bytes: UInt64, frames: UInt64)] = [(10, 256), (300, 2048), (1, 128)]
        var pakt = Bytes()
        pakt.be64(3); pakt.be64(2000); pakt.be32(400); pakt.be32(32)
        for p in packets { pakt.varint(p.bytes); pakt.varint(p.frames) }
        f.cafChunk("pakt", pakt.data)
        var payload = Bytes()
        payload.be32(0)
        for (i, p) in packets.enumerated() { payload.data += [UInt8](repeating: UInt8(i + 1), count: Int(p.bytes)) }
        f.cafChunk("data", payload.data)
        let file = try open(f.data)
        #expect(file.dataFormat.formatID == AudioFormatID("vorb"))
        #expect(file.packetCount == 3)
        #expect(file.totalFrames == 256 + 2048 + 128)
        #expect(file.packetTableInfo == AudioFilePacketTableInfo(numberValidFrames: 2000, primingFrames: 400, remainderFrames: 32))
        #expect(file.maximumPacketSize == 300)
        let read = try file.readPackets(from: 0, count: 3)
        #expect(read.descriptions?.map(\.variableFramesInPacket) == [256, 2048, 128])
        #expect(read.descriptions?.map(\.dataByteSize) == [10, 300, 1])
        #expect(read.data[10] == 2 && read.data[310] == 3)
    }

    /// A bit rate beyond `Int` (a lying desc) saturates instead of trapping.
    @Test func bitRateSaturates() throws {
        var f = Bytes()
        f.ascii("caff"); f.be16(1); f.be16(0)
        f.cafChunk("desc", cafDesc(rate: 9e8, id: "xxxx", flags: 0, bytesPerPacket: 0xFFFF_FFFF, framesPerPacket: 1, channels: 1, bits: 0))
        f.cafChunk("data", [0, 0, 0, 0])
        let file = try open(f.data)
        #expect(file.bitRate == Int.max)
        #expect(file.packetCount == 0)
    }

    @Test func cafVarintOverflowIsAChunkError() {
        var f = Bytes()
        f.ascii("caff"); f.be16(1); f.be16(0)
        f.cafChunk("desc", cafDesc(rate: 44100, id: "aac ", flags: 0, bytesPerPacket: 0, framesPerPacket: 1024, channels: 2, bits: 0))
        var pakt = Bytes()
        pakt.be64(1); pakt.be64(1024); pakt.be32(0); pakt.be32(0)
        pakt.data += [UInt8](repeating: 0xFF, count: 12) + [0x01]
        f.cafChunk("pakt", pakt.data)
        f.cafChunk("data", [0, 0, 0, 0, 1, 2, 3])
        expectError(.invalidChunk) { try open(f.data) }
    }

    @Test func cafChannelDescriptionsAndDataToEnd() throws {
        var f = Bytes()
        f.ascii("caff"); f.be16(1); f.be16(0)
        // 24-bit little-endian integer (CAF flag bit 1 = little-endian).
        f.cafChunk("desc", cafDesc(rate: 48000, id: "lpcm", flags: 2, bytesPerPacket: 6, framesPerPacket: 1, channels: 2, bits: 24))
        var chan = Bytes()
        chan.be32(0); chan.be32(0); chan.be32(2)
        for label in [AudioChannelLabel.leftSurround, .rightSurround] {
            chan.be32(label.rawValue); chan.be32(0); chan.be32(0); chan.be32(0); chan.be32(0)
        }
        f.cafChunk("chan", chan.data)
        f.cafChunk("free", [UInt8](repeating: 0, count: 17))
        f.ascii("data"); f.be64(UInt64.max)  // size -1: to the end of the file
        f.be32(0)
        f.data += [UInt8](repeating: 7, count: 6 * 10)
        let file = try open(f.data)
        #expect(file.packetCount == 10)
        #expect(file.channelLayout?.labels == [.leftSurround, .rightSurround])
        #expect(file.dataFormat.description == "2 ch, 48000 Hz, 'lpcm' (0x0000000C) 24-bit little-endian signed integer")
    }

    /// AIFF with its 80-bit rates, an odd-length text chunk before SSND and an SSND offset.
    @Test(arguments: [
        (44100.0, [UInt8]([0x40, 0x0E, 0xAC, 0x44, 0, 0, 0, 0, 0, 0])),
        (8000.0, [0x40, 0x0B, 0xFA, 0, 0, 0, 0, 0, 0, 0]),
        (96000.0, [0x40, 0x0F, 0xBB, 0x80, 0, 0, 0, 0, 0, 0]),
        (22050.0, [0x40, 0x0D, 0xAC, 0x44, 0, 0, 0, 0, 0, 0]),
    ])
    func aiffExtendedRateOddChunkAndOffset(rate: Double, extended: [UInt8]) throws {
        var comm = Bytes()
        comm.be16(1); comm.be32(5); comm.be16(12); comm.data += extended
        var ssnd = Bytes()
        ssnd.be32(4); ssnd.be32(0)
        ssnd.data += [9, 9, 9, 9] + [UInt8](repeating: 0x10, count: 10)
        var body = Bytes()
        body.ascii("AIFF")
        body.iffChunk("NAME", Array("odd".utf8))  // 3 bytes + pad byte
        body.iffChunk("COMM", comm.data)
        body.iffChunk("SSND", ssnd.data)
        var f = Bytes()
        f.ascii("FORM"); f.be32(UInt32(body.data.count)); f.data += body.data
        let file = try open(f.data)
        #expect(file.dataFormat.sampleRate == rate)
        #expect(file.dataFormat.bitsPerChannel == 12)
        #expect(file.dataFormat.formatFlags.contains(.isAlignedHigh))
        #expect(!file.dataFormat.formatFlags.contains(.isPacked))
        #expect(file.packetCount == 5)
        #expect(file.infoDictionary["title"] == "odd")
        #expect(try file.readBytes(at: 0, count: 2) == [0x10, 0x10])  // the 4-byte SSND offset is skipped
    }

    /// WAVE_FORMAT_EXTENSIBLE with 20 valid bits in 3-byte words and a channel mask.
    @Test func waveExtensibleValidBits() throws {
        var fmt = Bytes()
        fmt.le16(0xFFFE); fmt.le16(2); fmt.le32(48000); fmt.le32(48000 * 6); fmt.le16(6); fmt.le16(24)
        fmt.le16(22); fmt.le16(20); fmt.le32(0x3)
        fmt.data += [0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71]
        var body = Bytes()
        body.ascii("WAVE")
        for _ in 0..<5000 { body.riffChunk("junk", []) }  // many empty chunks: the walk must not stall
        body.riffChunk("fmt ", fmt.data)
        body.riffChunk("data", [UInt8](repeating: 0, count: 6 * 7))
        var f = Bytes()
        f.ascii("RIFF"); f.le32(UInt32(body.data.count)); f.data += body.data
        let file = try open(f.data)
        let format = file.dataFormat
        #expect(format.bitsPerChannel == 20)
        #expect(format.bytesPerFrame == 6)
        #expect(format.formatFlags == [.isSignedInteger, .isAlignedHigh])
        #expect(file.channelLayout?.bitmap == [.left, .right])
        #expect(file.packetCount == 7)
    }

    /// A RIFF size that ends before the audio data does is a writer's placeholder, not the end of
    /// the container: the chunks after the data are read, and nothing is reported. One that ends
    /// after the data, before the file does, is the container's end: what follows is ignored and
    /// reported.
    @Test func riffSizeEndingBeforeTheDataIsAPlaceholder() throws {
        var fmt = Bytes()
        fmt.le16(1); fmt.le16(1); fmt.le32(8000); fmt.le32(16000); fmt.le16(2); fmt.le16(16)
        func wave(riffSize: (Int) -> Int) -> [UInt8] {
            var body = Bytes()
            body.ascii("WAVE")
            body.riffChunk("fmt ", fmt.data)
            body.riffChunk("data", [1, 0, 2, 0, 3, 0])
            let audioEnd = 8 + body.data.count
            body.riffChunk("LIST", Array("INFOINAM".utf8) + [4, 0, 0, 0] + Array("abc\u{0}".utf8))
            var f = Bytes()
            f.ascii("RIFF"); f.le32(UInt32(riffSize(audioEnd) - 8)); f.data += body.data
            return f.data
        }
        let placeholder = try open(wave { _ in 12 })
        #expect(placeholder.packetCount == 3 && placeholder.repairs.isEmpty)
        #expect(placeholder.infoDictionary["title"] == "abc")
        let short = try open(wave { $0 })
        #expect(short.packetCount == 3 && short.infoDictionary["title"] == nil)
        #expect(short.repairs.map(\.kind) == [.bytesAfterContainer])
        #expect(short.repairs.first?.offset == 50 && short.repairs.first?.availableSize == 24)
    }

    /// A data size of 0 means "streamed, to the end of the file" only where the RIFF size does
    /// not say more chunks follow; inside a filled-in RIFF size it is an empty data chunk.
    @Test func waveZeroDataSize() throws {
        var fmt = Bytes()
        fmt.le16(1); fmt.le16(1); fmt.le32(8000); fmt.le32(16000); fmt.le16(2); fmt.le16(16)
        func wave(riffSize: UInt32?, tail: [UInt8]) -> [UInt8] {
            var body = Bytes()
            body.ascii("WAVE")
            body.riffChunk("fmt ", fmt.data)
            body.ascii("data"); body.le32(0)
            body.data += tail
            var f = Bytes()
            f.ascii("RIFF"); f.le32(riffSize ?? UInt32(body.data.count)); f.data += body.data
            return f.data
        }
        var list = Bytes()
        list.riffChunk("LIST", Array("INFOINAM".utf8) + [4, 0, 0, 0] + Array("abc\u{0}".utf8))
        let empty = try open(wave(riffSize: nil, tail: list.data))
        #expect(empty.packetCount == 0)
        #expect(empty.infoDictionary["title"] == "abc")
        let streamed = try open(wave(riffSize: 0, tail: [1, 0, 2, 0, 3, 0]))
        #expect(streamed.packetCount == 3)
        // A writer that never patched its sizes: RIFF size covers the header only.
        let unpatched = try open(wave(riffSize: 36, tail: [1, 0, 2, 0]))
        #expect(unpatched.packetCount == 2)
    }

    @Test func rf64SizesComeFromDs64() throws {
        func rf64(dataSize: UInt64, id: String = "RF64") -> [UInt8] {
            var fmt = Bytes()
            fmt.le16(1); fmt.le16(1); fmt.le32(8000); fmt.le32(16000); fmt.le16(2); fmt.le16(16)
            var ds64 = Bytes()
            ds64.le64(0); ds64.le64(dataSize); ds64.le64(dataSize / 2); ds64.le32(0)
            var f = Bytes()
            f.ascii(id); f.le32(0xFFFF_FFFF); f.ascii("WAVE")
            f.riffChunk("ds64", ds64.data)
            f.riffChunk("fmt ", fmt.data)
            f.ascii("data"); f.le32(0xFFFF_FFFF)
            f.data += [UInt8](repeating: 1, count: 20)
            return f.data
        }
        let file = try open(rf64(dataSize: 16))
        #expect(file.fileType == .rf64)
        #expect(file.dataByteCount == 16)
        #expect(file.packetCount == 8)
        #expect(try open(rf64(dataSize: 16, id: "BW64")).fileType == .bw64)
        // A 64-bit size larger than the file is not trusted: the data is what the file holds (a
        // recording cut short), and the repair is reported.
        let cut = try open(rf64(dataSize: 1 << 40))
        #expect(cut.dataByteCount == 20 && cut.packetCount == 10)
        #expect(cut.repairs == [AudioFileRepair(kind: .audioDataTruncated, chunk: "data", offset: 72, declaredSize: 1 << 40, availableSize: 20)])
    }

    /// ADTS with channel configuration 0: the program config element in the first frame gives
    /// the channels, and the synthesised AudioSpecificConfig carries it.
    @Test func adtsProgramConfigElement() throws {
        // PCE: ID_PCE(3)=5, tag(4)=0, object type(2)=1, sampling index(4)=4, front(4)=2,
        // side(4)=0, back(4)=1, lfe(2)=1, assoc(3)=0, cc(4)=0, 3 mixdown flags = 0,
        // front: CPE tag 0, SCE tag 0 → 3 channels; back: CPE tag 1 → 2; LFE tag 0 → 1: 6 channels.
        var bits: [Int] = []
        func put(_ v: Int, _ n: Int) { for k in stride(from: n - 1, through: 0, by: -1) { bits.append(v >> k & 1) } }
        put(5, 3); put(0, 4); put(1, 2); put(4, 4); put(2, 4); put(0, 4); put(1, 4); put(1, 2); put(0, 3); put(0, 4)
        put(0, 1); put(0, 1); put(0, 1)
        put(1, 1); put(0, 4)  // front CPE
        put(0, 1); put(0, 4)  // front SCE
        put(1, 1); put(1, 4)  // back CPE
        put(0, 4)  // LFE tag
        while bits.count % 8 != 0 { bits.append(0) }  // byte_alignment
        put(0, 8)  // comment_field_bytes
        put(7, 3)  // ID_END
        while bits.count % 8 != 0 { bits.append(0) }
        var payload: [UInt8] = []
        for i in stride(from: 0, to: bits.count, by: 8) { payload.append(UInt8(bits[i..<(i + 8)].reduce(0) { $0 << 1 | $1 })) }
        func frame() -> [UInt8] {
            let length = 7 + payload.count
            // sync, MPEG-4, layer 0, no CRC; profile LC (1), index 4, private 0, channel config 0.
            return [0xFF, 0xF1, 0x50, UInt8(length >> 11 & 0x3), UInt8(length >> 3 & 0xFF), UInt8((length & 7) << 5 | 0x1F), 0xFC] + payload
        }
        let file = try open(frame() + frame() + frame(), ext: "aac")
        #expect(file.dataFormat.channelsPerFrame == 6)
        #expect(file.packetCount == 3)
        #expect(file.channelLayout == nil)
        let cookie = try #require(file.magicCookie)
        // AudioSpecificConfig: object type 2, index 4, channel configuration 0, then GASpecificConfig.
        #expect(cookie[0] == 0x12 && cookie[1] >> 3 == 0 && cookie[1] & 0x80 == 0)
        #expect(cookie.count > 2)
    }

    /// Junk is skipped up to 1 MiB in one place; past that the stream is taken to have ended,
    /// so a file of noise costs a bounded scan.
    @Test func adtsJunkGapLimit() throws {
        let stream = try AudioFile(path: Fixtures.path("adts-aac-2ch-44100.aac")).source.bytes()
        let small = [UInt8](repeating: 0x41, count: 1000)
        let huge = [UInt8](repeating: 0x41, count: (1 << 20) + 100)
        #expect(try open(stream + small + stream, ext: "aac").packetCount == 20)
        #expect(try open(stream + huge + stream, ext: "aac").packetCount == 10)
        expectError(.invalidFile) { try open(huge + stream, ext: "aac") }
    }

    /// A frame holding several raw data blocks is one packet of 1024 frames per block.
    @Test func adtsMultipleRawDataBlocks() throws {
        let payload = [UInt8](repeating: 0x21, count: 40)
        func frame(blocks: Int) -> [UInt8] {
            let length = 7 + payload.count
            return [0xFF, 0xF1, 0x50, 0x80 | UInt8(length >> 11 & 0x3), UInt8(length >> 3 & 0xFF),
                    UInt8((length & 7) << 5 | 0x1F), 0xFC | UInt8(blocks - 1)] + payload
        }
        let file = try open(frame(blocks: 1) + frame(blocks: 3) + frame(blocks: 1), ext: "aac")
        #expect(file.packetCount == 3)
        #expect(file.totalFrames == 5 * 1024)
        let read = try file.readPackets(from: 0, count: 3)
        #expect(read.descriptions?.map(\.variableFramesInPacket) == [1024, 3072, 1024])
        #expect(read.descriptions?.map(\.dataByteSize) == [40, 40, 40])
    }

    @Test func typeHintOpensAnIDTaggedStreamWithoutExtension() throws {
        let adts = try [UInt8](AudioFile(path: Fixtures.path("adts-aac-1ch-44100-id3v23.aac")).source.bytes())
        expectError(.unsupportedFileType) { try open(adts) }
        #expect(try open(adts, hint: .adts).packetCount == 10)
    }
}

extension AudioByteSource {
    /// The whole source.
    func bytes() throws -> [UInt8] {
        var out = [UInt8](repeating: 0, count: Int(size))
        let n = try out.withUnsafeMutableBytes { try read(at: 0, into: $0) }
        return Array(out[0..<n])
    }
}
