import Foundation
import Testing
import AudioCore
import AudioFileServices
import AudioDevicePulse
import AudioTestSupport

/// aqrecord against the private server: it records the null sink's monitor while noise plays
/// into the sink, and is stopped by Ctrl-C (SIGINT) or killed (SIGKILL).
extension SharedServer {
    @Suite("aqrecord")
    struct Aqrecord {
        /// paplay playing noise into the sink until stopped, so that its monitor records sound
        /// from the start (an idle null sink's monitor may begin only once something plays).
        /// At a low latency: the null sink renders, and its monitor delivers, in blocks of the
        /// latency its streams ask for (paplay's default is two seconds).
        final class Noise {
            let process = Process()
            init() throws {
                let path = try noiseFile(seconds: 12, name: "aqrecord")
                process.executableURL = URL(fileURLWithPath: "/usr/bin/paplay")
                process.arguments = ["--latency-msec=20", "-d", Server.sink, path]
                process.standardOutput = FileHandle.nullDevice
                process.standardError = FileHandle.nullDevice
                try process.run()
                // The first recording of the monitor after a new stream begins to play into
                // the sink gets almost nothing (parecord too: 0.03 s of a 1-second recording);
                // the ones after it get everything. One here, until it has heard the noise.
                let input = try PulseBackend().makeInput(name: "\(Server.sink).monitor", sampleRate: 48000, channels: 2, bufferFrames: 480)
                let recorder = MonitorRecorder(seconds: 10, rate: 48000, channels: 2)
                try input.start(sink: recorder)
                _ = eventually(within: 10) { recorder.secondsSinceFirstSound(rate: 48000) >= 0.2 }
                input.stop()
                input.close()
            }
            deinit {
                // SIGKILL: a child of the test process may have inherited other signals ignored.
                if process.isRunning { kill(process.processIdentifier, SIGKILL) }
                process.waitUntilExit()
            }
        }

        /// aqrecord running, once it has said it is recording.
        struct Running {
            let process: Process
            let output: Pipe
            let errors: Pipe
        }

        static func launch(_ arguments: [String]) throws -> Running {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: aqrecord)
            process.arguments = ["--backend", "pulse", "--device", "\(Server.sink).monitor"] + arguments
            let out = Pipe(), err = Pipe()
            process.standardOutput = out
            process.standardError = err
            try process.run()
            // The first line says recording has started.
            var line = Data()
            while !line.contains(UInt8(ascii: "\n")) {
                let chunk = out.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                line.append(chunk)
            }
            try #require(String(decoding: line, as: UTF8.self).hasPrefix("recording from pulse:"), "aqrecord said: \(String(decoding: line, as: UTF8.self)) \(String(decoding: err.fileHandleForReading.availableData, as: UTF8.self))")
            return Running(process: process, output: out, errors: err)
        }

        /// The seconds a file being recorded holds so far (0 while it does not open).
        static func secondsWritten(_ path: String) -> Double {
            guard let file = try? AudioFile(path: path) else { return 0 }
            return Double(file.validFrames) / file.dataFormat.sampleRate
        }

        static func ffprobe(_ path: String) throws -> (codec: String, rate: Int, channels: Int, seconds: Double) {
            let r = try runProcess("/usr/bin/ffprobe", [
                "-v", "error", "-select_streams", "a:0", "-count_packets", "-show_entries",
                "stream=codec_name,sample_rate,channels,duration", "-of", "default=nw=1", path,
            ])
            try #require(r.status == 0, "ffprobe cannot read \(path): \(r.err)")
            var fields: [String: String] = [:]
            for line in r.out.split(separator: "\n") {
                let parts = line.split(separator: "=", maxSplits: 1)
                if parts.count == 2 { fields[String(parts[0])] = String(parts[1]) }
            }
            return (fields["codec_name"] ?? "", Int(fields["sample_rate"] ?? "") ?? 0, Int(fields["channels"] ?? "") ?? 0,
                    Double(fields["duration"] ?? "") ?? -1)
        }

        static let cases: [(arguments: [String], file: String, codec: String)] = [
            ([], "take.aiff", "pcm_s16be"),
            (["-f", "caff", "-d", "ima4"], "take.caf", "adpcm_ima_qt"),
            (["-d", "ulaw@8000", "-c", "1"], "take.wav", "pcm_mulaw"),
        ]

        @Test(arguments: 0..<3)
        func interruptedRecordingIsCompleteAndAsLongAsTheTimeRecorded(_ index: Int) throws {
            let c = Self.cases[index]
            let noise = try Noise()
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("aqrecord-\(getpid())-\(c.file)").path
            defer { unlink(path) }
            let running = try Self.launch(c.arguments + [path])
            // The recording is under way once the file being written holds two seconds.
            #expect(eventually(within: 30) { Self.secondsWritten(path) >= 2 }, "the file never held two seconds")
            running.process.interrupt()
            running.process.waitUntilExit()
            let err = String(decoding: running.errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            let out = String(decoding: running.output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(running.process.terminationStatus == 0, "aqrecord: \(err)")
            withExtendedLifetime(noise) {}
            let file = try AudioFile(path: path)
            let seconds = Double(file.validFrames) / file.dataFormat.sampleRate
            #expect(seconds >= 2, "\(seconds) s in the file")
            // What aqrecord says it recorded is what the file holds, frame for frame.
            #expect(out.contains("recorded \(file.validFrames) frames"), "aqrecord said: \(out); the file holds \(file.validFrames) frames")
            let probe = try Self.ffprobe(path)
            #expect(probe.codec == c.codec)
            #expect(probe.rate == Int(file.dataFormat.sampleRate))
            #expect(abs(probe.seconds - seconds) <= 0.002, "ffprobe: \(probe.seconds) s, here \(seconds) s")
        }

        @Test(arguments: 0..<3)
        func killedRecordingStillOpens(_ index: Int) throws {
            let c = Self.cases[index]
            let noise = try Noise()
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("aqrecord-kill-\(getpid())-\(c.file)").path
            defer { unlink(path) }
            let running = try Self.launch(c.arguments + [path])
            #expect(eventually(within: 30) { Self.secondsWritten(path) >= 2 }, "the file never held two seconds")
            kill(running.process.processIdentifier, SIGKILL)
            running.process.waitUntilExit()
            withExtendedLifetime(noise) {}
            let file = try AudioFile(path: path)
            let seconds = Double(file.validFrames) / file.dataFormat.sampleRate
            #expect(seconds >= 2, "\(seconds) s in the killed recording")
            let probe = try Self.ffprobe(path)
            #expect(probe.codec == c.codec)
            #expect(probe.seconds >= 2, "ffprobe: \(probe.seconds) s")
        }

        @Test func errorsNameTheFileAndApplesCode() throws {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("aqrecord-\(getpid())-bad.wav").path
            let r = try runProcess(aqrecord, ["--duration", "1", "-f", "WAVE", "-d", "ima4", path])
            #expect(r.status == 1)
            #expect(r.err.contains(path) && r.err.contains("1718449215"), "\(r.err)")
            let usage = try runProcess(aqrecord, ["-d", "LEI12", path])
            #expect(usage.status == 2)
        }
    }
}
