import Foundation
import Testing
import ProcessSupport
import AudioCore

/// `aqplay --channels`: the file's channels on the device channels named
/// (`kAudioQueueProperty_ChannelAssignments`); offline, the file written is the device.
@Suite("aqplay --channels")
struct AqplayChannelsTests {
    /// `--channels 3,4 --offline`: a four-channel file (soxi says), channels 1 and 2 silent,
    /// 3 and 4 sample for sample the stereo rendering without `--channels`.
    @Test func stereoOnChannelsThreeAndFourOffline() throws {
        let plain = AqplayTests.output("channels-plain"), placed = AqplayTests.output("channels-34")
        defer {
            try? FileManager.default.removeItem(atPath: plain)
            try? FileManager.default.removeItem(atPath: placed)
        }
        let input = Fixtures.path("wav-pcm_s16le-2ch-44100.wav")
        #expect(try runProcess(aqplay, ["--offline", plain, input]).status == 0)
        let result = try runProcess(aqplay, ["--channels", "3,4", "--offline", placed, input])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.contains("4 ch"), "\(result.out)")
        let soxi = try runProcess("/usr/bin/soxi", ["-c", placed])
        #expect(soxi.out.trimmingCharacters(in: .whitespacesAndNewlines) == "4", "soxi: \(soxi.out)\(soxi.err)")
        let stereo = try AqplayTests.floats(plain).samples, quad = try AqplayTests.floats(placed).samples
        try #require(quad.count == 2 * stereo.count && !stereo.isEmpty, "\(quad.count) samples against \(stereo.count)")
        var misplaced = 0
        for f in 0..<(stereo.count / 2) {
            if quad[4 * f] != 0 || quad[4 * f + 1] != 0 || quad[4 * f + 2] != stereo[2 * f] || quad[4 * f + 3] != stereo[2 * f + 1] {
                misplaced += 1
            }
        }
        #expect(misplaced == 0, "\(misplaced) frames out of place")
    }

    /// `--channels 2` plays a mono file on the right channel only.
    @Test func monoOnTheRight() throws {
        let plain = AqplayTests.output("mono-plain"), placed = AqplayTests.output("mono-right")
        defer {
            try? FileManager.default.removeItem(atPath: plain)
            try? FileManager.default.removeItem(atPath: placed)
        }
        let input = Fixtures.path("aifc-pcm_f64be-1ch-22050.aifc")
        #expect(try runProcess(aqplay, ["--offline", plain, input]).status == 0)
        #expect(try runProcess(aqplay, ["--channels", "2", "--offline", placed, input]).status == 0)
        let mono = try AqplayTests.floats(plain).samples, stereo = try AqplayTests.floats(placed).samples
        try #require(stereo.count == 2 * mono.count && !mono.isEmpty)
        #expect((0..<mono.count).allSatisfy { stereo[2 * $0] == 0 && stereo[2 * $0 + 1] == mono[$0] })
    }

    /// What `--channels` refuses: numbers outside 1…64, repeats, empty items, words (a usage
    /// error, status 2), and a count other than the file's channels (status 1).
    @Test(arguments: ["0,1", "3,3", "3,", ",4", "x", "65,1", ""])
    func badListsAreUsageErrors(list: String) throws {
        let result = try runProcess(aqplay, ["--channels", list, "--offline", "/dev/null", Fixtures.path("wav-pcm_s16le-2ch-44100.wav")])
        #expect(result.status == 2, "\(list): \(result.status) \(result.err)")
        #expect(result.err.contains("--channels needs device channel numbers"), "\(list): \(result.err)")
    }

    @Test func countMustMatchTheFile() throws {
        let result = try runProcess(aqplay, ["--channels", "3", "--offline", "/dev/null", Fixtures.path("wav-pcm_s16le-2ch-44100.wav")])
        #expect(result.status == 1)
        #expect(result.err.contains("has 2 channels; --channels names 1"), "\(result.err)")
    }
}
