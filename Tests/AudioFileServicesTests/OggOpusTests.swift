import Foundation
import Testing
import ProcessSupport
import AudioCore
@testable import AudioFileServices

@Suite("Ogg Opus files")
struct OggOpusTests {
    func open(_ name: String) throws -> AudioFile {
        try AudioFile(path: Fixtures.opus.appendingPathComponent(name).path)
    }

    /// Pre-skip as priming, the last granule position as valid frames, as ffprobe counts packets.
    @Test func packetTableFromGranules() throws {
        let file = try open("opusenc-stereo-44100.opus")
        #expect(file.fileType == .ogg)
        #expect(file.dataFormat.formatID == .opus && file.dataFormat.sampleRate == 48000 && file.dataFormat.channelsPerFrame == 2)
        let format = try #require(file.container as? OggOpusFormat)
        #expect(format.head?.preSkip == 312 && format.head?.inputSampleRate == 44100)
        let info = try #require(file.container.packetTableInfo)
        #expect(info.primingFrames == 312)
        #expect(info.numberValidFrames == 9600)  // 0.2 s at 48 kHz, as opusenc was given
        #expect(Int64(info.primingFrames) + info.numberValidFrames + Int64(info.remainderFrames) == file.packetCount * 960)
        #expect(format.vorbisComment.map { $0.count > 8 } == true)
        #expect(file.container.magicCookie.map(OpusHead.isPacket) == true)
    }

    @Test func multichannelLayout() throws {
        let file = try open("opusenc-8ch.opus")
        let format = try #require(file.container as? OggOpusFormat)
        #expect(format.head?.mappingFamily == 1 && format.head?.channelCount == 8)
        #expect(file.container.channelLayout?.bitmap.rawValue == 0x63F)
    }

    /// RFC 7845 §4: a first audio page whose granule position is one second more than its
    /// packets' frames starts one second in; the durations count from there.
    @Test func laterStart() throws {
        let file = try open("spec-start-granule-48000.opus")
        let format = try #require(file.container as? OggOpusFormat)
        #expect(format.startGranulePosition == 48000)
        #expect(file.container.packetTableInfo?.numberValidFrames == 9600)
    }

    /// Chained streams: the first is read, and the file says that more follow.
    @Test func chainedReadsFirst() throws {
        let file = try open("chained-mono.opus")
        let format = try #require(file.container as? OggOpusFormat)
        #expect(format.hasFollowingStreams)
        #expect(file.container.packetTableInfo?.numberValidFrames == 9600)
        let single = try open("opusenc-mono-48000.opus")
        #expect(file.packetCount == single.packetCount)
    }

    @Test func pageCRC() throws {
        let data = try Data(contentsOf: Fixtures.opus.appendingPathComponent("opusenc-mono-48000.opus"))
        var bytes = [UInt8](data)
        let good = bytes.withUnsafeBytes { OggPageHeader.parse($0) }
        guard case .page(let page) = good else { Issue.record("\(good)"); return }
        #expect(page.isBeginning && page.granulePosition == 0)
        bytes[page.pageLength - 1] ^= 1
        let bad = bytes.withUnsafeBytes { OggPageHeader.parse($0) }
        if case .invalid = bad {} else { Issue.record("a changed byte passed the CRC: \(bad)") }
        let short = bytes.withUnsafeBytes { OggPageHeader.parse(UnsafeRawBufferPointer(rebasing: $0[0..<30])) }
        #expect(short == .needMore(page.pageLength))
    }

    /// The sliced CRC against the bit-by-bit definition (RFC 3533 §6), at every length around
    /// the CRC field and the four-byte steps.
    @Test func crcMatchesTheDefinition() {
        func reference(_ bytes: [UInt8]) -> UInt32 {
            var crc: UInt32 = 0
            for (i, byte) in bytes.enumerated() {
                crc ^= UInt32(i >= 22 && i < 26 ? 0 : byte) << 24
                for _ in 0..<8 { crc = crc & 0x8000_0000 != 0 ? (crc << 1) ^ 0x04C1_1DB7 : crc << 1 }
            }
            return crc
        }
        var generator = SystemRandomNumberGenerator()
        for length in [0, 1, 3, 21, 22, 23, 25, 26, 27, 30, 31, 255, 1000] {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            #expect(bytes.withUnsafeBytes { OggCRC.page($0) } == reference(bytes), "length \(length)")
        }
    }

    /// Every prefix of a file either opens or fails with an error; none traps or hangs.
    @Test func everyTruncationIsHandled() throws {
        let data = [UInt8](try Data(contentsOf: Fixtures.opus.appendingPathComponent("spec-spanning-pages.opus")))
        for cut in stride(from: 0, to: data.count, by: 97) {
            _ = try? AudioFile(source: MemoryByteSource(Array(data[0..<cut])))
        }
    }
}
