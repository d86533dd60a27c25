import Foundation
import Testing
import AudioDevicePulse
import AudioTestSupport
import HTTPTestSupport
import ProcessSupport

extension SharedServer {
    /// aqplay playing an HTTP stream sent in real time by the in-process server, through the
    /// sound server's null sink, whose monitor is recorded meanwhile.
    @Suite("aqplay streams through the sound server")
    struct StreamPlayback {
        /// Six seconds of a 440 Hz tone at amplitude 0.5 (MP3, 32 kbit/s).
        static let file = Fixtures.root.appendingPathComponent("streams/tone-6s-1ch-22050.mp3").path

        /// The stream's bytes per second of audio: ffprobe's bit rate over 8.
        static func bytesPerSecond() throws -> Int {
            let probe = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file + ".ffprobe.json")))
            let streams = (probe as? [String: Any])?["streams"] as? [[String: Any]]
            let bitRate = try #require((streams?.first?["bit_rate"] as? String).flatMap { Int($0) })
            return bitRate / 8
        }

        /// Plays `response` with aqplay while recording the sink's monitor; returns aqplay's
        /// result and the frames of the recording that hold the tone (not silence).
        static func playAndCount(_ response: ServedResponse) throws -> (result: (status: Int32, out: String, err: String), soundFrames: Int) {
            let server = try LocalHTTPServer()
            defer { server.stop() }
            server.route("/radio", response)
            let input = try PulseBackend().makeInput(name: "\(Server.sink).monitor", sampleRate: 48000, channels: 2, bufferFrames: 1024)
            defer { input.close() }
            let recorder = MonitorRecorder(seconds: 30, rate: 48000, channels: 2)
            try input.start(sink: recorder)
            let result = try runProcess(aqplay, ["--backend", "pulse", "--device", Server.sink, server.url("/radio")])
            // The monitor's tail: half a second recorded after aqplay's end.
            #expect(recorder.waitForMore(seconds: 0.5, rate: 48000), "the monitor stopped recording")
            input.stop()
            let samples = recorder.samples
            var sound = 0
            for frame in 0..<(samples.count / 2) where abs(samples[2 * frame]) > 0.01 { sound += 1 }
            return (result, sound)
        }

        /// Sent at the stream's own bit rate with ICY titles: aqplay plays all six seconds
        /// through PulseAudio and prints the titles.
        @Test func throttledStreamPlays() throws {
            var response = ServedResponse(body: [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.file))), framing: .chunked([2048]))
            response.bytesPerSecond = try Self.bytesPerSecond()
            response.metadataInterval = 4000
            response.titles = ["Tone – part one", "Tone – part two"]
            let (result, sound) = try Self.playAndCount(response)
            #expect(result.status == 0, "\(result.err)")
            #expect(result.out.contains("playing through pulse:\(Server.sink)"), "\(result.out)")
            let titles = result.out.split(separator: "\n").filter { $0.hasPrefix("stream title: ") }
            #expect(titles == ["stream title: Tone – part one", "stream title: Tone – part two"], "\(result.out)")
            // 6 s of tone; a sine spends under 2% of its time within 0.01 of zero.
            #expect(sound > Int(5.5 * 48000), "\(Double(sound) / 48000) s of tone recorded")
        }

        /// A stream that stops sending for four seconds after two seconds of audio: the queue runs
        /// dry (reported as an underrun), then plays the rest when it comes; nothing is lost.
        @Test func stallIsAnUnderrunAndPlaysOn() throws {
            let body = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.file)))
            var response = ServedResponse(body: body)
            let rate = try Self.bytesPerSecond()
            response.bytesPerSecond = rate
            response.stallAfter = 2 * rate
            response.stallSeconds = 4
            let (result, sound) = try Self.playAndCount(response)
            #expect(result.status == 0, "\(result.err)")
            #expect(result.err.contains("underrun at"), "\(result.err)")
            #expect(result.err.contains("the stream stalled"), "\(result.err)")
            #expect(sound > Int(5.5 * 48000), "\(Double(sound) / 48000) s of tone recorded")
        }
    }
}
