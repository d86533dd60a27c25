import Foundation
import Testing
import ProcessSupport
import AudioCore
import AudioFileServices

/// Tests/Fixtures/mpeg4-more (Scripts/fixtures/make_mpeg4_more_fixtures.sh) against the numbers
/// its builders wrote and ffprobe's reading.
@Suite("More MPEG-4 files")
struct MPEG4MoreTests {
    static func path(_ name: String) -> String { Fixtures.mpeg4More.appendingPathComponent(name).path }
    static func facts(_ name: String) -> [String: Any]? { Fixtures.json(Fixtures.mpeg4More.appendingPathComponent(name + ".facts.json")) }

    /// HE-AAC with SBR signalled explicitly — by the backward-compatible sync extension 0x2b7,
    /// hierarchically (object type 5), or by a CAF 'aach' description — is 'aach' at the SBR
    /// rate, 2048 frames per packet, the packet table in output frames: iTunSMPB's core frames
    /// (2112 priming) and the edit list's media time both become 4224 priming frames.
    @Test(arguments: ["he-sync-1ch-22050.m4a", "he-explicit-1ch-22050.m4a", "he-1ch-22050.caf", "he-sbr-sync-1ch-22050.m4a"])
    func heAACIsReportedAtTheOutputRate(name: String) throws {
        let file = try AudioFile(path: Self.path(name))
        let f = file.dataFormat
        #expect(f.formatID == .mpeg4AAC_HE && f.sampleRate == 44100 && f.framesPerPacket == 2048 && f.channelsPerFrame == 1)
        #expect(file.packetCount == 26)
        let table = try #require(file.packetTableInfo)
        #expect(table.primingFrames == 4224 && table.numberValidFrames == 48510 && table.remainderFrames == 514)
        #expect(file.totalFrames == 26 * 2048)
        #expect(abs(file.estimatedDuration - 1.1) < 1e-9)
        if let mp4 = file.container as? MP4Format {
            #expect(mp4.gaplessSource == (name.contains("sync") ? "iTunSMPB" : "editList"))
        }
        // The builder's own numbers: CAF's in output frames, the M4As' in core frames.
        let facts = try #require(Self.facts(name))
        let scale = name.hasSuffix(".caf") ? 1 : 2
        #expect(Int(table.numberValidFrames) == scale * (facts["validFrames"] as! Int))
        #expect(Int(table.primingFrames) == scale * (facts["primingFrames"] as! Int))
    }

    /// The sync extension's sbrPresentFlag decides: set to 0, the same config is plain AAC-LC
    /// at the core rate.
    @Test func syncExtensionPresentFlag() throws {
        let asc = try #require(Self.facts("he-sync-1ch-22050.m4a")?["audioSpecificConfig"] as? String)
        // LC, 22050 Hz (7), mono; 0x2b7, object type 5, sbrPresentFlag 1, 44100 Hz (4), padding.
        #expect(asc == "138856e5a0")
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Self.path("he-sync-1ch-22050.m4a"))))
        let at = try #require(Self.find([0x13, 0x88, 0x56, 0xE5, 0xA0], in: bytes))
        bytes[at + 4] = 0x20  // sbrPresentFlag 0
        let plain = try AudioFile(source: MemoryByteSource(bytes))
        #expect(plain.dataFormat.formatID == .mpeg4AAC && plain.dataFormat.sampleRate == 22050 && plain.dataFormat.framesPerPacket == 1024)
        #expect(plain.packetTableInfo?.primingFrames == 2112)
    }

    static func find(_ needle: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= needle.count else { return nil }
        return (0...(bytes.count - needle.count)).first { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }
    }

    /// ADTS cannot signal SBR: the stream is AAC-LC at its core rate, implicit SBR or not.
    @Test(arguments: ["he-core-1ch-22050.aac", "he-implicit-1ch-22050.aac"])
    func adtsIsTheCore(name: String) throws {
        let file = try AudioFile(path: Self.path(name))
        #expect(file.dataFormat.formatID == .mpeg4AAC && file.dataFormat.sampleRate == 22050 && file.dataFormat.framesPerPacket == 1024)
        #expect(file.packetCount == 26)
    }

    /// An audiobook whose 2-byte AudioSpecificConfig sets dependsOnCoreCoder (and so ends
    /// before coreCoderDelay) opens as AAC-LC.
    @Test func twoByteConfigOpens() throws {
        let file = try AudioFile(path: Self.path("asc2-dependscore-2ch-44100.m4b"))
        #expect(file.fileType == .m4b)
        #expect(file.dataFormat.formatID == .mpeg4AAC && file.dataFormat.sampleRate == 44100 && file.dataFormat.channelsPerFrame == 2)
        #expect(file.packetTableInfo?.numberValidFrames == 22050)
    }

    /// Three timed-metadata tracks before the audio track: one audio track, the audio's own
    /// sample table (every packet is ffmpeg's).
    @Test func metadataTracksAreNotAudio() throws {
        let file = try AudioFile(path: Self.path("aac-1ch-32000-mett.m4a"))
        #expect(file.trackCount == 1)
        #expect(file.dataFormat.sampleRate == 32000 && file.dataFormat.channelsPerFrame == 1)
        let probe = try runProcess("/usr/bin/ffprobe", [
            "-v", "error", "-select_streams", "a:0", "-count_packets", "-show_entries", "stream=nb_read_packets,index",
            "-of", "csv=p=0", Self.path("aac-1ch-32000-mett.m4a")])
        let fields = probe.out.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",")
        #expect(fields.first == "3", "ffmpeg sees the audio as the fourth stream")
        #expect(fields.last.flatMap { Int64($0) } == file.packetCount)
    }

    /// A file cut inside mdat: the whole samples are read, a sample cut in the middle is not,
    /// and the repair says where; cut before moov, it is still an error.
    @Test func cutShort() throws {
        let mid = try AudioFile(path: Fixtures.malformed.appendingPathComponent("mpeg4-more-trunc-mid-sample.m4a").path)
        let boundary = try AudioFile(path: Fixtures.malformed.appendingPathComponent("mpeg4-more-trunc-sample-boundary.m4a").path)
        #expect(mid.packetCount == 15 && boundary.packetCount == 15)
        #expect(mid.dataByteCount == boundary.dataByteCount)
        let repair = try #require(mid.repairs.first)
        #expect(repair.kind == .audioDataTruncated && repair.chunk == "mdat")
        #expect(repair.offset + 8 + repair.availableSize == mid.source.size)
        #expect(repair.declaredSize > repair.availableSize)
        #expect(mid.packetTableInfo?.remainderFrames == 0)
        #expect(throws: AudioFileError.self) {
            try AudioFile(path: Fixtures.malformed.appendingPathComponent("mpeg4-more-trunc-moov-last.m4a").path)
        }
    }
}
