import Foundation
import Testing
import Dispatch
import Locking
import AudioCore
import AudioDevices
import AudioDeviceFile
import AudioFileServices

/// A source of a known ramp that ends after `total` frames.
private final class RampSource: AudioRenderSource, @unchecked Sendable {
    let total: Int
    let channels: Int
    private let position = Guarded(0)
    let stopped = DispatchSemaphore(value: 0)

    init(total: Int, channels: Int) {
        self.total = total
        self.channels = channels
    }

    static func sample(_ index: Int) -> Float { Float(index % 1000) / 1000 }

    func render(into buffer: UnsafeMutablePointer<Float>, frameCount: Int) -> Int {
        position.withLock { start in
            let frames = min(frameCount, total - start)
            for i in 0..<(frames * channels) { buffer[i] = Self.sample(start * channels + i) }
            start += frames
            return frames
        }
    }

    func device(_ device: any AudioOutputDevice, didReport event: AudioDeviceEvent) {
        if case .stopped = event { stopped.signal() }
    }
}

@Suite("WAVE file device")
struct WAVFileDeviceTests {
    static func temporaryPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(getpid()).wav").path
    }

    /// What the source renders is in the file, sample for sample, as 32-bit float WAVE.
    @Test func writesWhatItRendersExactly() throws {
        let path = Self.temporaryPath("wav-device")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let device = try WAVFileDevice(path: path, sampleRate: 48000, channels: 2, pacing: .unpaced, periodFrames: 480)
        #expect(device.info.backend == "file" && device.info.name == path)
        let source = RampSource(total: 10_000, channels: 2)
        try device.start(source: source)
        #expect(source.stopped.wait(timeout: .now() + 30) == .success)
        device.close()
        #expect(device.framesRendered == 10_000)
        let file = try AudioFile(path: path)
        #expect(file.fileType == .wave)
        #expect(file.dataFormat == .deviceFloat(sampleRate: 48000, channels: 2))
        let bytes = try file.readBytes(at: 0, count: Int(file.dataByteCount))
        let samples = bytes.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        #expect(samples == (0..<20_000).map(RampSource.sample))
    }

    /// Registered, the file backend is the `file` backend: a device name is a path.
    @Test func theFileBackendOpensThePathItIsGiven() throws {
        // Registered as AudioQueueKit.registerAll() does, which other suites of this process
        // call at any time: the process's backends are the same whichever runs first.
        AudioBackends.register(WAVFileBackend(), priority: 0)
        let path = Self.temporaryPath("wav-backend")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let device = try AudioBackends.makeOutput(uid: "file:\(path)", sampleRate: 44100, channels: 1, bufferFrames: 4096)
        #expect(device is WAVFileDevice)
        #expect(device.info.uid == "file:\(path)")
        device.close()
        #expect(FileManager.default.fileExists(atPath: path))
    }

    /// The device the file backend stands in with for the default output (when no sound
    /// backend plays: ``AudioBackends`` asks the first fallback backend registered) writes to a
    /// file of the process's own, and its note says why. The chain itself, with no sound
    /// backend answering, is tested with the ALSA backend's ("ALSA and the default chain"):
    /// in this process the PulseAudio backend may be registered by other tests.
    @Test func theFileBackendStandsInForTheDefaultOutput() throws {
        let device = try WAVFileBackend(pacing: .unpaced).makeFallbackOutput(
            sampleRate: 44100, channels: 2, bufferFrames: 4096, reason: "no sound backend is registered")
        let file = try #require(device as? WAVFileDevice)
        defer { try? FileManager.default.removeItem(atPath: file.path) }
        #expect(file.info.note == "no sound backend is registered")
        #expect(file.path.hasSuffix(".wav") && file.path.contains("audioqueue-\(getpid())"))
        device.close()
    }
}
