import Foundation
import Testing
import Dispatch
import Locking
import AudioCore
import AudioDevices
import AudioDeviceFile

/// Collects what a device captures, until `frames` frames have come.
private final class CollectingSink: AudioCaptureSink, @unchecked Sendable {
    let wanted: Int
    let channels: Int
    private let state = Guarded<(samples: [Float], times: [UInt64], started: Int)>(([], [], 0))
    let done = DispatchSemaphore(value: 0)

    init(frames: Int, channels: Int) {
        wanted = frames
        self.channels = channels
    }

    func capture(_ samples: UnsafePointer<Float>, frameCount: Int, hostTime: UInt64) {
        let finished = state.withLock { s -> Bool in
            let before = s.samples.count / channels
            s.samples += UnsafeBufferPointer(start: samples, count: frameCount * channels)
            s.times.append(hostTime)
            return before < wanted && s.samples.count / channels >= wanted
        }
        if finished { done.signal() }
    }

    func device(_ device: any AudioInputDevice, didReport event: AudioDeviceEvent) {
        if event.kind == .started { state.withLock { $0.started += 1 } }
    }

    var samples: [Float] { state.withLock { $0.samples } }
    var started: Int { state.withLock { $0.started } }
}

@Suite("File input device")
struct WAVFileInputDeviceTests {
    static func temporaryPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(getpid())-\(UUID().uuidString)").path
    }

    /// Runs ffmpeg with `arguments`; its standard output.
    @discardableResult
    static func ffmpeg(_ arguments: [String]) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        process.arguments = ["-nostdin", "-v", "error", "-y"] + arguments
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "ffmpeg \(arguments.joined(separator: " ")) failed")
        return data
    }

    /// A 0.25 s file of two tones (or one, with one channel) in `codec`, made by ffmpeg.
    static func makeFile(codec: String, rate: Int = 44100, channels: Int = 2, ext: String = "wav") throws -> String {
        let path = temporaryPath("input") + "." + ext
        let tone = channels == 1 ? "[0]anull" : "[0][1]amerge=inputs=2"
        try ffmpeg([
            "-f", "lavfi", "-i", "sine=frequency=440:duration=0.25:sample_rate=\(rate)",
            "-f", "lavfi", "-i", "sine=frequency=880:duration=0.25:sample_rate=\(rate)",
            "-filter_complex", tone, "-c:a", codec, path,
        ])
        return path
    }

    /// ffmpeg's decode of `path` to interleaved Float32.
    static func decode(_ path: String) throws -> [Float] {
        let data = try ffmpeg(["-i", path, "-f", "f32le", "-c:a", "pcm_f32le", "-"])
        return data.withUnsafeBytes { bytes in
            (0..<(bytes.count / 4)).map { Float(bitPattern: UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self))) }
        }
    }

    /// Records `frames` frames from `device` (unpaced).
    static func record(_ device: WAVFileInputDevice, frames: Int) throws -> [Float] {
        let sink = CollectingSink(frames: frames, channels: Int(device.format.channelsPerFrame))
        try device.start(sink: sink)
        #expect(sink.done.wait(timeout: .now() + 30) == .success)
        device.stop()
        #expect(sink.started == 1)
        return sink.samples
    }

    @Test(arguments: [
        ("pcm_u8", "wav"), ("pcm_s8", "aiff"), ("pcm_s16le", "wav"), ("pcm_s24le", "wav"), ("pcm_s32le", "wav"), ("pcm_f32le", "wav"), ("pcm_f64le", "wav"),
        ("pcm_s16be", "aiff"), ("pcm_s24be", "aiff"),
    ])
    func recordsTheFileThenSilence(codec: String, ext: String) throws {
        let path = try Self.makeFile(codec: codec, ext: ext)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let reference = try Self.decode(path)
        let device = try WAVFileInputDevice(path: path, sampleRate: 44100, channels: 2, pacing: .unpaced, periodFrames: 512)
        #expect(device.info.backend == "file" && device.info.direction == .input)
        let got = try Self.record(device, frames: reference.count / 2 + 2048)
        device.close()
        try #require(got.count >= reference.count + 4096)
        let largest = zip(reference, got).reduce(Float(0)) { max($0, abs($1.0 - $1.1)) }
        #expect(largest < 1e-6, "\(codec): samples differ by up to \(largest)")
        #expect(got[reference.count...].allSatisfy { $0 == 0 }, "\(codec): silence after the file")
    }

    @Test func channelsAreMappedAsAsked() throws {
        let mono = try Self.makeFile(codec: "pcm_s16le", channels: 1)
        let stereo = try Self.makeFile(codec: "pcm_s16le", channels: 2)
        defer { for p in [mono, stereo] { try? FileManager.default.removeItem(atPath: p) } }
        let monoReference = try Self.decode(mono), stereoReference = try Self.decode(stereo)
        // Mono into two channels: both channels carry it.
        let up = try Self.record(try WAVFileInputDevice(path: mono, sampleRate: 44100, channels: 2, pacing: .unpaced), frames: monoReference.count)
        var upMismatches = 0
        for i in 0..<monoReference.count where up[2 * i] != monoReference[i] || up[2 * i + 1] != monoReference[i] { upMismatches += 1 }
        #expect(upMismatches == 0)
        // Stereo into one channel: the mean.
        let frames = stereoReference.count / 2
        let down = try Self.record(try WAVFileInputDevice(path: stereo, sampleRate: 44100, channels: 1, pacing: .unpaced), frames: frames)
        var downMismatches = 0
        for i in 0..<frames {
            let mean: Float = (stereoReference[2 * i] + stereoReference[2 * i + 1]) / 2
            if abs(down[i] - mean) >= 1e-6 { downMismatches += 1 }
        }
        #expect(downMismatches == 0)
        // Stereo into three channels: the third is silent.
        let wide = try Self.record(try WAVFileInputDevice(path: stereo, sampleRate: 44100, channels: 3, pacing: .unpaced), frames: frames)
        var wideMismatches = 0
        for i in 0..<frames {
            let same = wide[3 * i] == stereoReference[2 * i] && wide[3 * i + 1] == stereoReference[2 * i + 1] && wide[3 * i + 2] == 0
            if !same { wideMismatches += 1 }
        }
        #expect(wideMismatches == 0)
    }

    @Test func refusesAnotherRateACompressedFileAndAMissingFile() throws {
        let wav = try Self.makeFile(codec: "pcm_s16le", rate: 48000)
        let alaw = try Self.makeFile(codec: "pcm_alaw", rate: 8000)
        defer { for p in [wav, alaw] { try? FileManager.default.removeItem(atPath: p) } }
        #expect(throws: AudioDeviceError.self) { try WAVFileInputDevice(path: wav, sampleRate: 44100, channels: 2) }
        #expect(throws: AudioDeviceError.self) { try WAVFileInputDevice(path: alaw, sampleRate: 8000, channels: 2) }
        #expect(throws: AudioDeviceError.self) { try WAVFileInputDevice(path: "/nonexistent/in.wav", sampleRate: 44100, channels: 2) }
        do {
            _ = try WAVFileInputDevice(path: wav, sampleRate: 44100, channels: 2)
        } catch {
            #expect(error.code == .formatNotSupported && error.reason.contains("48000"), "\(error)")
        }
    }

    /// Without a file it records silence at the sample rate: 0.2 s of it cannot all arrive
    /// before 0.2 s have passed. Only this lower bound is checked: a busy machine can make the
    /// run longer, never shorter, so the check cannot fail for want of speed.
    @Test func recordsSilenceAtTheSampleRateWithNoFile() throws {
        let device = try WAVFileBackend().makeInput(name: nil, sampleRate: 8000, channels: 1, bufferFrames: 400)
        #expect(device.info.note != nil)
        let sink = CollectingSink(frames: 1600, channels: 1)
        let begun = DispatchTime.now().uptimeNanoseconds
        try device.start(sink: sink)
        #expect(sink.done.wait(timeout: .now() + 30) == .success)
        let elapsed = DispatchTime.now().uptimeNanoseconds - begun
        device.close()
        #expect(sink.samples.allSatisfy { $0 == 0 })
        // Paced: 1600 frames at 8 kHz cannot all have come before 0.2 s.
        #expect(elapsed >= 190_000_000, "\(elapsed) ns")
    }

    /// A stop while the device waits to deliver a period it has read loses nothing: started
    /// again, it delivers from the first frame it had not handed over, so the two recordings
    /// together are the file. Periods of 50 ms at the sample rate: a stop from another thread
    /// right after the first period lands while the next one, already read, waits its time.
    @Test func aStopLosesNoFrameOfTheFile() throws {
        let path = try Self.makeFile(codec: "pcm_f32le")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let reference = try Self.decode(path)
        let frames = reference.count / 2
        let device = try WAVFileInputDevice(path: path, sampleRate: 44100, channels: 2, pacing: .realTime, periodFrames: 2205)
        let before = CollectingSink(frames: 1, channels: 2)
        try device.start(sink: before)
        #expect(before.done.wait(timeout: .now() + 30) == .success)
        device.stop()
        let first = before.samples
        #expect(device.framesCaptured == Int64(first.count / 2))
        let after = CollectingSink(frames: frames - first.count / 2, channels: 2)
        try device.start(sink: after)
        #expect(after.done.wait(timeout: .now() + 30) == .success)
        device.close()
        let got = first + after.samples
        try #require(got.count >= reference.count)
        #expect(Array(got.prefix(reference.count)) == reference.map { $0 })
        #expect(device.framesCaptured == Int64(got.count / 2))
    }

    /// The backend opens the file a device name gives.
    @Test func theBackendOpensTheNamedFile() throws {
        let path = try Self.makeFile(codec: "pcm_s16le")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let device = try WAVFileBackend(pacing: .unpaced).makeInput(name: path, sampleRate: 44100, channels: 2, bufferFrames: 1024)
        #expect(device is WAVFileInputDevice && device.info.name == path)
        device.close()
    }
}
