import Foundation
import ProcessSupport
import Testing
import AudioCore
@testable import AudioFileServices

/// Raw AC-3/E-AC-3 files and AC-3 in MPEG-4, QuickTime, CAF and WAVE, against ffprobe's
/// reports (Tests/Fixtures/ac3, made by Scripts/fixtures/make_ac3_fixtures.sh).
@Suite struct AC3ReaderTests {
    static let folder = FixtureFolder("ac3")
    static let clean = [
        "ac3-2ch-48000.ac3", "ac3-6ch-48000.ac3", "ac3-1ch-44100.ac3", "ac3-5ch-32000.ac3", "eac3-2ch-48000.ec3",
        "eac3-6ch-48000.ec3", "ac3-6ch-48000.m4a", "eac3-6ch-48000.mp4", "ac3-2ch-48000.mov", "ac3-6ch-48000.caf",
        "ac3-2ch-48000.wav",
    ]

    @Test(arguments: clean)
    func formatAndPacketCountAgreeWithFFprobe(_ name: String) throws {
        let reference = try Self.folder.reference(name)
        let file = try AudioFile(path: Self.folder.path(name))
        let format = file.dataFormat
        #expect(format.formatID == (name.hasPrefix("eac3") ? .enhancedAC3 : .ac3))
        #expect(Int(format.sampleRate) == Int(reference["rate"] ?? ""))
        #expect(Int(format.channelsPerFrame) == Int(reference["channels"] ?? ""))
        #expect(format.framesPerPacket == 1536)
        #expect(format.bytesPerPacket == 0)
        #expect(file.packetCount == Int64(reference["packets"] ?? ""))
        // Every packet starts with a sync word.
        let packets = try file.readPackets(from: 0, count: Int(file.packetCount))
        for packet in packets { #expect(packet.prefix(2).elementsEqual([0x0B, 0x77])) }
        if name.hasSuffix(".ac3") || name.hasSuffix(".ec3") {
            #expect(file.fileType == .ac3)
            // The cookie is the dac3/dec3 body the headers imply.
            let cookie = try #require(file.magicCookie)
            let configuration = try AC3Configuration(cookie: cookie, enhanced: format.formatID == .enhancedAC3)
            #expect(configuration.channelCount == Int(format.channelsPerFrame))
        }
    }

    @Test func rawStreamsAreFoundByMagicAndByExtension() throws {
        let bytes = try Fixtures.bytes(Self.folder.directory.appendingPathComponent("eac3-2ch-48000.ec3"))
        let file = try AudioFile(source: MemoryByteSource(bytes))
        #expect(file.fileType == .ac3)
        #expect(AudioFileFormats.forExtension("ec3") == AC3Format.self)
        #expect(AudioFileFormats.forExtension("eac3") == AC3Format.self)
        #expect(AudioFileFormats.forExtension("AC3") == AC3Format.self)
        // Junk first: no magic, but the extension finds it.
        let junk = try Fixtures.bytes(Self.folder.directory.appendingPathComponent("junk-2ch-48000.ac3"))
        let found = try AudioFile(source: MemoryByteSource(junk), fileExtension: "ac3")
        #expect(found.packetCount == 7)
        #expect(found.dataOffset == 45)
    }

    @Test func aCutLastFrameIsKeptShortAsFFmpegReadsIt() throws {
        let file = try AudioFile(path: Self.folder.path("cut-2ch-48000.ac3"))
        #expect(file.packetCount == 7)
        let last = try file.readPackets(from: 6, count: 1)
        #expect(last[0].count == 384)
    }

    @Test func filesWithoutAFrameAreRefused() throws {
        for bytes: [UInt8] in [[], [0x0B, 0x77], [UInt8](repeating: 0, count: 5000), [0x0B, 0x77] + [UInt8](repeating: 0xFF, count: 100)] {
            #expect(throws: AudioFileError.self) { try AudioFile(source: MemoryByteSource(bytes), fileExtension: "ac3") }
        }
        // Every prefix of a stream opens or fails with a typed error.
        let bytes = try Fixtures.bytes(Self.folder.directory.appendingPathComponent("eac3-6ch-48000.ec3"))
        for cut in stride(from: 0, to: bytes.count, by: 97) {
            _ = try? AudioFile(source: MemoryByteSource(Array(bytes.prefix(cut))), fileExtension: "ec3")
        }
    }

    /// An E-AC-3 header: strmtyp, substreamid, frame size, 48 kHz six blocks, acmod, lfeon, bsid
    /// 16, and for a dependent frame a channel map.
    static func eac3Frame(type: Int, substream: Int, size: Int, acmod: Int, lfe: Bool, chanmap: Int?) -> [UInt8] {
        var bits: [Int] = []
        func put(_ v: Int, _ n: Int) { for k in stride(from: n - 1, through: 0, by: -1) { bits.append(v >> k & 1) } }
        put(type, 2); put(substream, 3); put(size / 2 - 1, 11); put(0, 2); put(3, 2); put(acmod, 3); put(lfe ? 1 : 0, 1)
        put(16, 5); put(31, 5); put(0, 1)
        if type == 1 {
            put(chanmap == nil ? 0 : 1, 1)
            if let chanmap { put(chanmap, 16) }
        }
        while bits.count % 8 != 0 { bits.append(0) }
        var bytes: [UInt8] = [0x0B, 0x77]
        for i in stride(from: 0, to: bits.count, by: 8) { bytes.append(UInt8(bits[i..<(i + 8)].reduce(0) { $0 << 1 | $1 })) }
        return bytes + [UInt8](repeating: 0, count: size - bytes.count)
    }

    @Test func aDependentSubstreamJoinsItsIndependentFrameInOnePacket() throws {
        // 5.1 independent frames, each followed by a dependent frame adding Lrs/Rrs (chanmap
        // bit 6): four packets of 7.1.
        var bytes: [UInt8] = []
        for _ in 0..<4 {
            bytes += Self.eac3Frame(type: 0, substream: 0, size: 512, acmod: 7, lfe: true, chanmap: nil)
            bytes += Self.eac3Frame(type: 1, substream: 0, size: 256, acmod: 2, lfe: false, chanmap: 0x8000 >> 6)
        }
        let file = try AudioFile(source: MemoryByteSource(bytes))
        #expect(file.fileType == .ac3)
        #expect(file.dataFormat.formatID == .enhancedAC3)
        #expect(file.packetCount == 4)
        #expect(file.dataFormat.channelsPerFrame == 8)
        // kAudioChannelLayoutTag_EAC3_7_1_A = (160 << 16) | 8.
        let eac3_7_1_A: UInt32 = 160 << 16 | 8
        #expect(file.channelLayout?.tag.rawValue == eac3_7_1_A)
        let packets = try file.readPackets(from: 0, count: 4)
        #expect(packets.map(\.count) == [768, 768, 768, 768])
        // The stream parser cuts the same packets.
        let run = streamRun(bytes) { 100 }
        #expect(run.error == nil)
        #expect(run.packets.map(\.count) == [768, 768, 768, 768])
        #expect(run.dataFormat?.channelsPerFrame == 8)
    }

    @Test(arguments: [
        "ac3-6ch-48000.ac3", "eac3-2ch-48000.ec3", "junk-2ch-48000.ac3", "cut-2ch-48000.ac3", "ac3-2ch-48000.wav",
        "../fuzz-regressions/wave-ac3-stream-against-file.wav",
    ])
    func theStreamParserCutsThePacketsAudioFileReads(_ name: String) throws {
        let bytes = try Fixtures.bytes(Self.folder.directory.appendingPathComponent(name))
        let file = try AudioFile(source: MemoryByteSource(bytes), fileExtension: "ac3")
        let expected = try file.readPackets(from: 0, count: Int(file.packetCount)).map { Array($0) }
        for size in [1, 7, 1000, 1 << 16] {
            let run = streamRun(bytes, hint: .ac3) { size }
            #expect(run.error == nil, "\(name) in pieces of \(size)")
            #expect(run.packets == expected, "\(name) in pieces of \(size)")
            #expect(run.dataFormat?.formatID == file.dataFormat.formatID)
            #expect(run.dataFormat?.channelsPerFrame == file.dataFormat.channelsPerFrame)
            #expect(run.magicCookie == nil || run.magicCookie == file.magicCookie)
            #expect(run.ready)
        }
    }
}
