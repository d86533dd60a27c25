import Foundation
import Testing
import ProcessSupport
import AudioCore
import AudioFileServices

/// FLAC's channel assignment (RFC 9639, 9.1.3) and rate as the reader reports them, against
/// what ffprobe reads in the same files.
@Suite("FLAC channel layouts and rates")
struct FLACChannelLayoutTests {
    /// ffmpeg's names for the layouts of FLAC's channel counts, as Core Audio bitmaps (ffmpeg's
    /// back channels are Core Audio's surrounds, its side channels the direct surrounds).
    static let ffmpegLayouts: [String: AudioChannelBitmap] = [
        "5.1": [.left, .right, .center, .lfeScreen, .leftSurround, .rightSurround],
        "5.1(side)": [.left, .right, .center, .lfeScreen, .leftSurround, .rightSurround],
        "7.1": [.left, .right, .center, .lfeScreen, .leftSurround, .rightSurround, .leftSurroundDirect, .rightSurroundDirect],
    ]

    @Test(arguments: ["flac-6ch-48000-s16.flac", "flac-8ch-44100-s24.flac"])
    func multichannelLayoutIsFFprobes(name: String) throws {
        let path = Fixtures.root.appendingPathComponent("flac").appendingPathComponent(name).path
        let probe = try runProcess("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "stream=channel_layout", "-of", "csv=p=0", path])
        let named = probe.out.trimmingCharacters(in: .whitespacesAndNewlines)
        let expected = try #require(Self.ffmpegLayouts[named], "ffprobe names the layout '\(named)'")
        let layout = try #require(try AudioFile(path: path).channelLayout)
        #expect(layout.tag == .useChannelBitmap && layout.bitmap == expected)
        #expect(layout.numberOfChannels == (name.hasPrefix("flac-6ch") ? 6 : 8))
    }

    /// Every FLAC fixture's rate and channel count are ffprobe's, DXD's 705,600 Hz (the top bit
    /// of STREAMINFO's 20-bit rate set) among them.
    @Test func ratesAndChannelsAreFFprobes() throws {
        let directory = Fixtures.root.appendingPathComponent("flac")
        let names = Fixtures.audioFiles(in: directory).filter { $0.hasSuffix(".flac") && !$0.contains("s32") }
        #expect(names.contains("flac-1ch-705600-s16.flac"))
        for name in names {
            let path = directory.appendingPathComponent(name).path
            let probe = try runProcess(
                "/usr/bin/ffprobe", ["-v", "error", "-show_entries", "stream=sample_rate,channels", "-of", "csv=p=0", path])
            let fields = probe.out.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",").compactMap { Double($0) }
            let format = try AudioFile(path: path).dataFormat
            #expect(fields == [format.sampleRate, Double(format.channelsPerFrame)], "\(name): ffprobe \(probe.out)")
        }
    }

    @Test func monoAndStereoUseTags() throws {
        let flac = Fixtures.root.appendingPathComponent("flac")
        #expect(try AudioFile(path: flac.appendingPathComponent("flac-1ch-8000-s8.flac").path).channelLayout?.tag == .mono)
        #expect(try AudioFile(path: flac.appendingPathComponent("flac-2ch-44100-s16.flac").path).channelLayout?.tag == .stereo)
    }
}
