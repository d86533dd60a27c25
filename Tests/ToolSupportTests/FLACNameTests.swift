import AudioCore
import AudioFileServices
import Testing
import ToolSupport

/// afconvert's and aqrecord's names for FLAC: the file type and Apple's `-d` syntax with flags
/// and frames per packet.
@Suite("FLAC names")
struct FLACNameTests {
    @Test func fileType() {
        #expect(FileTypeName.type("flac") == AudioFileType("flac"))
        #expect(FileTypeName.type(forPath: "/tmp/x.FLAC") == AudioFileType("flac"))
        #expect(!FileTypeName.holdsAAC(AudioFileType("flac")))
    }

    @Test func dataFormatWithFlagsAndFrames() throws {
        let s = try #require(DataFormatSpecifier("flac@48000/3#1152"))
        let f = s.format(sampleRate: 44100, channels: 2)
        #expect(f.formatID == .flac && f.sampleRate == 48000 && f.formatFlags.rawValue == 3 && f.framesPerPacket == 1152)
        #expect(DataFormatSpecifier("flac/0x4")?.formatFlags == 4)
        #expect(DataFormatSpecifier("flac")?.formatFlags == nil)
        #expect(DataFormatSpecifier("flac/x") == nil)
        #expect(DataFormatSpecifier("flac#0") == nil)
    }
}
