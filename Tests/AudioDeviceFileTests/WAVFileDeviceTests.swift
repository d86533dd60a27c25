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

/// Whether `condition` comes true within a minute (a hang is a failure, never a slow machine).
private func comesTrue(_ condition: () -> Bool) -> Bool {
    let deadline = DispatchTime.now() + 60
    while !condition() {
        if DispatchTime.now() > deadline { return condition() }
        usleep(500)
    }
    return true
}

/// A source of the same ramp whose audio is late from frame `stallAt` until ``release()``:
/// asked with `renderAwaiting` it gives what comes before, and nothing more, counting the asks
/// meanwhile; asked with `render`, as a clocked device asks, it fills the rest with silence,
/// as an audio queue does on an underrun.
private final class StallingRampSource: AudioRenderSource, @unchecked Sendable {
    let total: Int
    let stallAt: Int
    private let state = Guarded<(position: Int, released: Bool, asksWhileStalled: Int)>((0, false, 0))
    let stopped = DispatchSemaphore(value: 0)

    init(total: Int, stallAt: Int) {
        self.total = total
        self.stallAt = stallAt
    }

    func release() { state.withLock { $0.released = true } }
    var asksWhileStalled: Int { state.withLock { $0.asksWhileStalled } }

    func renderAwaiting(into buffer: UnsafeMutablePointer<Float>, frameCount: Int) -> (frames: Int, ended: Bool) {
        state.withLock { s in
            let limit = s.released ? total : stallAt
            let frames = min(frameCount, limit - s.position)
            for i in 0..<frames { buffer[i] = RampSource.sample(s.position + i) }
            s.position += frames
            if frames < frameCount && !s.released { s.asksWhileStalled += 1 }
            return (frames, s.released && frames < frameCount)
        }
    }

    func render(into buffer: UnsafeMutablePointer<Float>, frameCount: Int) -> Int {
        let (frames, ended) = renderAwaiting(into: buffer, frameCount: frameCount)
        if ended { return frames }
        (buffer + frames).update(repeating: 0, count: frameCount - frames)
        return frameCount
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

    /// A source whose audio is late is waited for: the device writes nothing while it waits
    /// (however many times it looks), then the rest, and the file is the source's ramp with
    /// no silence in it. The stall begins mid-period, so that the period waited for is
    /// completed, not cut short.
    @Test(arguments: [AudioDevicePacing.realTime, .unpaced])
    func waitsForLateAudioInsteadOfWritingSilence(pacing: AudioDevicePacing) throws {
        let path = Self.temporaryPath("wav-device-late-\(pacing)")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let device = try WAVFileDevice(path: path, sampleRate: 48000, channels: 1, pacing: pacing, periodFrames: 480)
        let source = StallingRampSource(total: 4800, stallAt: 2000)
        try device.start(source: source)
        #expect(comesTrue { source.asksWhileStalled >= 3 })
        // 2000 frames are ready: four whole periods written, the fifth waiting for the rest.
        #expect(device.framesRendered == 1920)
        source.release()
        device.sourceHasAudio()
        #expect(source.stopped.wait(timeout: .now() + 30) == .success)
        device.close()
        #expect(device.framesRendered == 4800)
        let file = try AudioFile(path: path)
        let bytes = try file.readBytes(at: 0, count: Int(file.dataByteCount))
        let samples = bytes.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        #expect(samples == (0..<4800).map(RampSource.sample))
    }

    /// The null device shares the file device's loop: it too takes no silence for late audio.
    @Test func theNullDeviceWaitsForLateAudioToo() throws {
        let device = try NullDevice(sampleRate: 48000, channels: 1, pacing: .unpaced, periodFrames: 480)
        let source = StallingRampSource(total: 4800, stallAt: 2000)
        try device.start(source: source)
        #expect(comesTrue { source.asksWhileStalled >= 3 })
        #expect(device.framesRendered == 1920)
        source.release()
        device.sourceHasAudio()
        #expect(source.stopped.wait(timeout: .now() + 30) == .success)
        #expect(device.framesRendered == 4800)
        device.close()
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
