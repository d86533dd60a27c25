import Foundation
import Testing
import ProcessSupport
import AudioCore
@testable import AudioFileServices

/// Headers whose sizes and counts are chosen to overflow arithmetic or to make the parser hold or
/// build more than it may: each ends in a typed error or behaves, never traps or allocates
/// without bound. The hostile bytes are built here from the container layouts.
@Suite struct StreamHostileInputTests {
    static func cafDesc(id: String, bytesPerPacket: UInt32, framesPerPacket: UInt32) -> [UInt8] {
        var d = Bytes()
        d.be64(Double(44100).bitPattern)
        d.ascii(id)
        for v in [0, bytesPerPacket, framesPerPacket, 2, 0] as [UInt32] { d.be32(v) }
        return d.data
    }

    /// A CAF header: desc, an optional pakt, and a data chunk of `dataSize` (with its edit count).
    static func caf(id: String, bytesPerPacket: UInt32, framesPerPacket: UInt32, pakt: [UInt8]?, dataSize: UInt64) -> [UInt8] {
        var f = Bytes()
        f.ascii("caff"); f.be16(1); f.be16(0)
        f.cafChunk("desc", cafDesc(id: id, bytesPerPacket: bytesPerPacket, framesPerPacket: framesPerPacket))
        if let pakt { f.cafChunk("pakt", pakt) }
        f.ascii("data"); f.be64(dataSize); f.be32(0)
        return f.data
    }

    static func paktHeader(count: UInt64, valid: UInt64, priming: UInt32, remainder: UInt32) -> Bytes {
        var p = Bytes()
        p.be64(count); p.be64(valid); p.be32(priming); p.be32(remainder)
        return p
    }

    /// A stream fed `bytes` in one piece, then told the stream ends; the parser for more calls.
    static func stream(_ bytes: [UInt8], hint: AudioFileType? = nil) throws -> (AudioFileStream, AudioFileStreamError?) {
        let stream = try AudioFileStream(fileTypeHint: hint, propertyListener: { _, _, _ in }, packets: { _, _, _ in })
        do {
            try bytes.withUnsafeBytes { try stream.parse(bytes: $0) }
        } catch let error as AudioFileStreamError {
            return (stream, error)
        }
        return (stream, nil)
    }

    // 1. A chunk before the audio data whose size runs past Int64.
    @Test func chunkSizeNearInt64MaxBeforeData() throws {
        var f = Bytes()
        f.ascii("caff"); f.be16(1); f.be16(0)
        f.ascii("free"); f.be64(0x7FFF_FFFF_FFFF_FFFF)
        f.data += [UInt8](repeating: 0, count: 64 - f.data.count)
        let run = streamRun(f.data, pieces: { 64 })
        #expect(run.error?.code == .invalidFile, "\(String(describing: run.error))")
    }

    /// A chunk ending past the header limit is refused when its header arrives, not waited for.
    @Test func chunkPastHeaderLimitBeforeData() throws {
        var f = Bytes()
        f.ascii("caff"); f.be16(1); f.be16(0)
        f.ascii("free"); f.be64(UInt64(AudioFileStream.maximumHeaderBytes))
        let run = streamRun(f.data, pieces: { 1 })
        #expect(run.error?.code == .invalidFile, "\(String(describing: run.error))")
    }

    // 2. pakt frame counts whose total overflows, with data cut short (the repair path).
    @Test func paktFrameCountsOverflowingTheTotal() throws {
        var pakt = Self.paktHeader(count: 1, valid: 0x7FFF_FFFF_FFFF_FFFF, priming: 1, remainder: 0)
        pakt.varint(4)
        var bytes = Self.caf(id: "aac ", bytesPerPacket: 0, framesPerPacket: 1024, pakt: pakt.data, dataSize: 4 + 1000)
        bytes += [1, 2, 3, 4]
        expectError(.invalidChunk) { try AudioFile(source: MemoryByteSource(bytes)) }
        let run = streamRun(bytes, pieces: { 7 })
        #expect(run.error?.code == .invalidFile, "\(String(describing: run.error))")
    }

    // 3. Constant-size packets of an unknown format in a stream whose data size is huge: the
    // frame count of the packets the stream may hold overflows.
    @Test func constantPacketsFramesOverflow() throws {
        let pakt = Self.paktHeader(count: 0, valid: 10, priming: 0, remainder: 0)
        let bytes = Self.caf(id: "xxxx", bytesPerPacket: 1, framesPerPacket: 5, pakt: pakt.data, dataSize: 0x7FFF_FFFF_FFFF_FFFF)
        let run = streamRun(bytes + [1, 2, 3], pieces: { 5 })
        #expect(run.error == nil, "\(String(describing: run.error))")
        #expect(run.ready)
        #expect(run.packetTableInfo == AudioFilePacketTableInfo(numberValidFrames: 10, primingFrames: 0, remainderFrames: 0))
        #expect(run.packets == [[1], [2], [3]])
    }

    // 4 and 8. MPEG-4 sample tables rewritten in place in a fast-start M4A.
    static func m4a(patching patches: [(box: String, body: [UInt8])]) throws -> [UInt8] {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: MP4Fixtures.path("aac-2ch-44100-faststart.m4a"))))
        for (box, body) in patches {
            let type = Array(box.utf8)
            let at = try #require((0..<(bytes.count - 4)).first { Array(bytes[$0..<($0 + 4)]) == type })
            let size = Int(bytes[at - 4]) << 24 | Int(bytes[at - 3]) << 16 | Int(bytes[at - 2]) << 8 | Int(bytes[at - 1])
            try #require(body.count <= size - 8)
            bytes.replaceSubrange((at + 4)..<(at + 4 + body.count), with: body)
        }
        return bytes
    }

    /// A constant sample size, one chunk of `perChunk` samples at the chunk offset already there.
    static func constantSampleTables(size: UInt32, count: UInt32, perChunk: UInt32) -> [(box: String, body: [UInt8])] {
        var stsz = Bytes(); stsz.be32(0); stsz.be32(size); stsz.be32(count)
        var stsc = Bytes(); stsc.be32(0); stsc.be32(1); stsc.be32(1); stsc.be32(perChunk); stsc.be32(1)
        var stco = Bytes(); stco.be32(0); stco.be32(1)
        return [("stsz", stsz.data), ("stsc", stsc.data), ("stco", stco.data)]
    }

    @Test func constantSizeSampleCountBeyondWhatAStreamHolds() throws {
        let bytes = try Self.m4a(patching: Self.constantSampleTables(size: 1, count: 0xFFFF_FFFF, perChunk: 0xFFFF_FFFF))
        let (_, error) = try Self.stream(bytes)
        #expect(error?.code == .invalidFile, "\(String(describing: error))")
        #expect(error?.description.contains("stsz") == true, "\(String(describing: error))")
    }

    @Test func packetLargerThan16MiBIsRefusedAtHeaderTime() throws {
        let bytes = try Self.m4a(patching: Self.constantSampleTables(size: 32 << 20, count: 1, perChunk: 1))
        let (_, error) = try Self.stream(bytes)
        #expect(error?.code == .unsupportedDataFormat, "\(String(describing: error))")
        #expect(error?.description.contains("packet 0") == true, "\(String(describing: error))")

        var pakt = Self.paktHeader(count: 1, valid: 1024, priming: 0, remainder: 0)
        pakt.varint(16 << 20 + 1)
        let caf = Self.caf(id: "aac ", bytesPerPacket: 0, framesPerPacket: 1024, pakt: pakt.data, dataSize: UInt64.max)
        let (_, cafError) = try Self.stream(caf)
        #expect(cafError?.code == .unsupportedDataFormat, "\(String(describing: cafError))")
    }

    // 5. ID3v2 tags at the start of an MPEG audio stream: kept up to 1 MiB in all.
    @Test func endlessEmptyID3Tags() throws {
        let empty: [UInt8] = Array("ID3".utf8) + [4, 0, 0, 0, 0, 0, 0]
        let tags = [[UInt8]](repeating: empty, count: 100_000).flatMap { $0 }
        let (stream, error) = try Self.stream(tags, hint: .mp3)
        #expect(error == nil, "\(String(describing: error))")
        let cutter = try #require(stream.cutter as? FrameCutter)
        #expect(cutter.tags.count == 16)
        #expect(stream.maximumRetainedBytes < 1 << 20)
    }

    @Test func repeatedMebibyteID3Tags() throws {
        // A tag whose body is 1 MiB (syncsafe 0x40 00 00 00 = 2^20), zeros (padding).
        let tag: [UInt8] = Array("ID3".utf8) + [4, 0, 0, 0, 0x40, 0, 0] + [UInt8](repeating: 0, count: 1 << 20)
        let (stream, error) = try Self.stream([[UInt8]](repeating: tag, count: 6).flatMap { $0 }, hint: .mp3)
        #expect(error == nil, "\(String(describing: error))")
        let cutter = try #require(stream.cutter as? FrameCutter)
        #expect(cutter.tagBytes == 1 << 20)
    }

    // 6. Seeking to a packet past Int64 once the data offset is added, where the data end is unknown.
    @Test func seekFarBeyondUnboundedWAVEData() throws {
        for dataSize: UInt32 in [0, 0xFFFF_FFFF] {
            var f = Bytes()
            f.ascii("RIFF"); f.le32(0xFFFF_FFFF); f.ascii("WAVE")
            f.ascii("fmt "); f.le32(16); f.le16(1); f.le16(2); f.le32(44100); f.le32(44100 * 4); f.le16(4); f.le16(16)
            f.ascii("data"); f.le32(dataSize)
            let (stream, error) = try Self.stream(f.data + [UInt8](repeating: 0, count: 64))
            try #require(error == nil, "\(String(describing: error))")
            #expect(stream.readyToProducePackets)
            #expect(throws: AudioFileStreamError.self) { try stream.seek(toPacket: Int64.max / 4) }
            do {
                _ = try stream.seek(toPacket: Int64.max / 4)
            } catch {
                #expect(error.code == .invalidPacketOffset)
            }
            #expect(throws: AudioFileStreamError.self) { try stream.seek(toPacket: 0x3FFF_FFFF_FFFF_FFFF) }
        }
        // CAF whose data runs to the end of the stream (size -1).
        var caf = Self.caf(id: "lpcm", bytesPerPacket: 4, framesPerPacket: 1, pakt: nil, dataSize: UInt64.max)
        caf.replaceSubrange(48..<52, with: [0, 0, 0, 16])  // 16 bits per channel
        let (stream, error) = try Self.stream(caf + [UInt8](repeating: 0, count: 64))
        try #require(error == nil, "\(String(describing: error))")
        do {
            _ = try stream.seek(toPacket: Int64.max / 4)
            Issue.record("seek past Int64 succeeded")
        } catch {
            #expect(error.code == .invalidPacketOffset)
        }
    }

    // 7. Byte-to-packet translation for a byte near Int64.max, on a packet-table stream.
    @Test func byteToPacketNearInt64Max() throws {
        var pakt = Self.paktHeader(count: 2, valid: 2048, priming: 0, remainder: 0)
        pakt.varint(3); pakt.varint(5)
        let caf = Self.caf(id: "aac ", bytesPerPacket: 0, framesPerPacket: 1024, pakt: pakt.data, dataSize: 4 + 8)
        let (stream, error) = try Self.stream(caf + [UInt8](repeating: 9, count: 8))
        try #require(error == nil, "\(String(describing: error))")
        #expect(stream.readyToProducePackets)
        do {
            _ = try stream.packet(forByteOffset: Int64.max - 1)
            Issue.record("byte offset past Int64 succeeded")
        } catch {
            #expect(error.code == .invalidPacketOffset)
        }
        #expect(try stream.packet(forByteOffset: 4).packet == 1)
        #expect(throws: AudioFileStreamError.self) { try stream.byteOffset(forPacket: Int64.max) }
        #expect(throws: AudioFileStreamError.self) { try stream.frame(forPacket: Int64.max) }
        #expect(try stream.packet(forFrame: Int64.max).packet == Int64.max / 1024)
    }
}
