import AudioDevicePulse
import AudioDevices
import Dispatch
import Foundation
import Locking
import Synchronization
import Testing
import ProcessSupport

/// The server the PulseAudio tests use: whatever libpulse finds (Scripts/lib/pulse.sh starts a
/// private one and points PULSE_RUNTIME_PATH at it); ProcessSupport's ``AudioServer`` probes it.
private enum PulseTestServer {
    static let sink = AudioServer.sink
    static let rate = 48_000.0
}

// Inside SharedServer: no other test's stream may play (or a test sink be loaded) meanwhile.
extension SharedServer {
@Suite(
    "PulseAudio backend", .serialized,
    // Skipped when no PulseAudio server answers (start one with Scripts/lib/pulse.sh), unless
    // AQ_REQUIRE_AUDIO_SERVER=1, where that is a failure.
    .enabled(if: AudioServer.runTests, "no PulseAudio server answers and AQ_REQUIRE_AUDIO_SERVER is not 1")
)
struct PulseTests {
    init() throws {
        try #require(AudioServer.available, "AQ_REQUIRE_AUDIO_SERVER=1 but no PulseAudio server answers")
    }

    /// The test sink and its monitor are listed, each in its direction, with the defaults marked.
    @Test func listsTheTestSinkAndItsMonitor() throws {
        let backend = PulseBackend()
        #expect(backend.name == "pulse")
        let devices = try backend.devices()
        let sink = PulseTestServer.sink
        let output = devices.first { $0.name == sink && $0.direction == .output }
        #expect(output != nil, "no sink \(sink) in \(devices.map(\.uid))")
        #expect(output?.uid == "pulse:\(sink)")
        let monitor = devices.first { $0.name == "\(sink).monitor" && $0.direction == .input }
        #expect(monitor != nil, "no source \(sink).monitor in \(devices.map(\.uid))")
        #expect(devices.filter { $0.direction == .output && $0.isDefault }.count <= 1)
        #expect(devices.filter { $0.direction == .input && $0.isDefault }.count <= 1)
    }

    /// Two seconds played to a null sink come back through its monitor unchanged: same samples,
    /// gain 1, no gap; `.started` and `.stopped(drained: true)` are reported.
    @Test func playsExactlyWhatTheSourceRenders() throws {
        try onTimeChecks("pulse device playback") {
            let privateSink = PrivateNullSink()
            let sink = privateSink?.name ?? PulseTestServer.sink
            defer { privateSink?.unload() }
            let rate = PulseTestServer.rate
            let signal = TestSignal.make(frames: Int(rate * 2), rate: rate)
            let backend = PulseBackend(applicationName: "swift-audio-queue tests")

            let recorder = Recorder(capacityFrames: Int(rate * 8), channels: 2)
            let input = try backend.makeInput(name: "\(sink).monitor", sampleRate: rate, channels: 2, bufferFrames: 1024)
            defer { input.close() }
            #expect(input.info.direction == .input && input.info.name == "\(sink).monitor")
            try input.start(sink: recorder)
            try #require(recorder.started.wait(timeout: .now() + 5) == .success, "the monitor did not start recording")

            let source = SignalSource(signal, channels: 2)
            let output = try backend.makeOutput(name: sink, sampleRate: rate, channels: 2, bufferFrames: Server.testBufferFrames)
            defer { output.close() }
            #expect(output.info.uid == "pulse:\(sink)")
            #expect(output.format.sampleRate == rate && output.format.channelsPerFrame == 2)
            try output.start(source: source)
            try #require(source.started.wait(timeout: .now() + 5) == .success, "no .started")
            try #require(source.stopped.wait(timeout: .now() + 10) == .success, "no .stopped after the source ended")
            #expect(source.events.withLock { $0 } == ["started", "stopped(drained: true)"])
            #expect(output.framesRendered == Int64(signal.count / 2))
            output.stop(drain: true)   // after the device stopped by itself: nothing to do

            // Everything played is in the monitor by now; let the record stream deliver it.
            let wanted = recorder.frames + Int(rate / 2)
            _ = eventually(within: 5) { recorder.frames >= wanted }
            input.stop()
            let recorded = recorder.frames
            #expect(input.framesCaptured == Int64(recorded))
            // Closing ends the device's thread: any capture after stop returned has happened by now.
            input.close()
            #expect(recorder.frames == recorded, "capture continued after stop()")
            #expect(recorder.events.withLock { $0 }.first == "started")

            let samples = recorder.samples
            let offset = try #require(TestSignal.align(signal, in: samples, channels: 2, rate: rate), "the signal is not in the recording")
            let from = Int(rate / 2), frames = signal.count / 2
            try #require(offset + frames <= samples.count / 2, "the recording ends \(offset + frames - samples.count / 2) frames early")
            var worst: Float = 0, worstAt = 0
            for i in (from * 2)..<(frames * 2) {
                let d = abs(samples[offset * 2 + i] - signal[i])
                if d > worst { (worst, worstAt) = (d, i / 2) }
            }
            #expect(worst <= 1e-4, "recording differs from the signal by \(worst) at frame \(worstAt) (aligned at \(offset))")
        }
    }

    /// `stop(drain: false)` in the middle returns without waiting for the audio, the source is not
    /// called after it, and the device starts again (on a fresh stream).
    @Test func stopsMidStreamAndStartsAgain() throws {
        let rate = PulseTestServer.rate
        let device = try PulseOutputDevice(sink: PulseTestServer.sink, sampleRate: rate, channels: 2, bufferFrames: 4096)
        defer { device.close() }
        let source = SignalSource(TestSignal.make(frames: Int(rate), rate: rate), channels: 2, loops: true)

        var callsAtLastStop: Int?
        for round in 1...2 {
            if let callsAtLastStop {
                #expect(source.renderCalls.load(ordering: .acquiring) == callsAtLastStop, "round \(round - 1): render called after stop returned")
            }
            let before = device.framesRendered
            try device.start(source: source)
            try #require(source.started.wait(timeout: .now() + 5) == .success, "round \(round): no .started")
            try #require(eventually(within: 5) { device.framesRendered >= before + Int64(rate / 4) }, "round \(round): rendering stalled")
            #expect(device.presentationDelay >= 0 && device.presentationDelay < Int(rate * 2))
            #expect(eventually(within: 2) { device.streamTime != nil }, "round \(round): no stream time")

            let returned = DispatchSemaphore(value: 0)
            let callsAtStop = Guarded<Int>(-1)
            DispatchQueue.global().async {
                device.stop(drain: round == 2)
                callsAtStop.withLock { $0 = source.renderCalls.load(ordering: .acquiring) }
                returned.signal()
            }
            try #require(returned.wait(timeout: .now() + 5) == .success, "round \(round): stop did not return")
            callsAtLastStop = callsAtStop.withLock { $0 }
            #expect(device.framesRendered > before)
        }
        // Closing ends the device's thread: any call after the last stop returned has happened by now.
        device.close()
        #expect(source.renderCalls.load(ordering: .acquiring) == callsAtLastStop, "round 2: render called after stop returned")
        // (An underrun on a loaded machine is not what this test is about.)
        #expect(source.events.withLock { $0 }.filter { $0 != "underrun" } == ["started", "started"], "a requested stop is not reported")
    }

    /// Unknown sinks and sources are `.notFound`; the monitor of a real sink opens.
    @Test func unknownDevicesAreNotFound() throws {
        let backend = PulseBackend()
        for make in [
            { _ = try backend.makeOutput(name: "no-such-sink-\(getpid())", sampleRate: 48_000, channels: 2, bufferFrames: 4096) },
            { _ = try backend.makeInput(name: "no-such-source-\(getpid())", sampleRate: 48_000, channels: 2, bufferFrames: 1024) },
        ] as [() throws -> Void] {
            do {
                try make()
                Issue.record("opened a device that does not exist")
            } catch let error as AudioDeviceError {
                #expect(error.code == .notFound, "\(error)")
            }
        }
        do {
            _ = try PulseOutputDevice(sampleRate: 48_000, channels: 0, bufferFrames: 4096)
            Issue.record("opened a device with no channels")
        } catch {
            #expect(error.code == .formatNotSupported)
        }
    }
}
}

// MARK: Test doubles

/// Renders a fixed signal (once, then a short render ends the stream; or looping) and records
/// the events. Rendering takes no lock and allocates nothing.
private final class SignalSource: AudioRenderSource, @unchecked Sendable {
    private let samples: UnsafeMutableBufferPointer<Float>
    private let channels: Int
    private let loops: Bool
    private let position = Atomic<Int>(0)
    let renderCalls = Atomic<Int>(0)
    let events = Guarded<[String]>([])
    let started = DispatchSemaphore(value: 0)
    let stopped = DispatchSemaphore(value: 0)

    init(_ signal: [Float], channels: Int, loops: Bool = false) {
        samples = .allocate(capacity: signal.count)
        _ = samples.initialize(from: signal)
        self.channels = channels
        self.loops = loops
    }

    deinit { samples.deallocate() }

    func render(into buffer: UnsafeMutablePointer<Float>, frameCount: Int) -> Int {
        renderCalls.add(1, ordering: .releasing)
        let total = samples.count / channels
        var done = 0
        var at = position.load(ordering: .relaxed)
        while done < frameCount {
            if at == total {
                guard loops else { break }
                at = 0
            }
            let n = min(frameCount - done, total - at)
            (buffer + done * channels).update(from: samples.baseAddress! + at * channels, count: n * channels)
            done += n
            at += n
        }
        position.store(at, ordering: .relaxed)
        return done
    }

    func device(_ device: any AudioOutputDevice, didReport event: AudioDeviceEvent) {
        events.withLock { $0.append(eventName(event)) }
        switch event {
        case .started: started.signal()
        case .stopped, .failed: stopped.signal()
        default: break
        }
    }
}

/// Keeps what a capture device delivers (up to its capacity).
private final class Recorder: AudioCaptureSink, @unchecked Sendable {
    private let storage: UnsafeMutablePointer<Float>
    private let capacity: Int
    private let channels: Int
    private let count = Atomic<Int>(0)
    let events = Guarded<[String]>([])
    let started = DispatchSemaphore(value: 0)

    init(capacityFrames: Int, channels: Int) {
        capacity = capacityFrames
        self.channels = channels
        storage = .allocate(capacity: capacityFrames * channels)
    }

    deinit { storage.deallocate() }

    /// Frames kept so far.
    var frames: Int { count.load(ordering: .acquiring) }
    /// The frames kept, interleaved.
    var samples: [Float] { Array(UnsafeBufferPointer(start: storage, count: frames * channels)) }

    func capture(_ samples: UnsafePointer<Float>, frameCount: Int, hostTime: UInt64) {
        let at = count.load(ordering: .relaxed)
        let n = min(frameCount, capacity - at)
        guard n > 0 else { return }
        (storage + at * channels).update(from: samples, count: n * channels)
        count.store(at + n, ordering: .releasing)
    }

    func device(_ device: any AudioInputDevice, didReport event: AudioDeviceEvent) {
        events.withLock { $0.append(eventName(event)) }
        if case .started = event { started.signal() }
    }
}

private enum TestSignal {
    /// Stereo: 440 Hz on the left, 1 kHz on the right, each with its own low-level noise so
    /// that only one alignment fits.
    static func make(frames: Int, rate: Double) -> [Float] {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func noise() -> Float {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Float(Int64(bitPattern: state >> 11) - (1 << 52)) / Float(1 << 52)
        }
        var out = [Float](repeating: 0, count: frames * 2)
        for i in 0..<frames {
            let t = Double(i) / rate
            out[2 * i] = Float(0.4 * sin(2 * .pi * 440 * t)) + 0.1 * noise()
            out[2 * i + 1] = Float(0.3 * sin(2 * .pi * 1000 * t)) + 0.1 * noise()
        }
        return out
    }

    /// The frame of `recording` where `signal` starts, by cross-correlating a 1024-frame piece of
    /// the signal (from 0.5 s in) with the recording around where sound first appears.
    static func align(_ signal: [Float], in recording: [Float], channels: Int, rate: Double) -> Int? {
        guard let firstSound = recording.firstIndex(where: { abs($0) > 1e-3 }).map({ $0 / channels }) else { return nil }
        let piece = Int(rate / 2), length = 1024
        let recorded = recording.count / channels
        var best: (offset: Int, score: Double)?
        signal.withUnsafeBufferPointer { s in
            recording.withUnsafeBufferPointer { r in
                for offset in max(0, firstSound - Int(rate / 2))...firstSound where offset + piece + length <= recorded {
                    var score = 0.0
                    for k in (piece * channels)..<((piece + length) * channels) {
                        score += Double(s[k]) * Double(r[offset * channels + k])
                    }
                    if score > (best?.score ?? -.infinity) { best = (offset, score) }
                }
            }
        }
        return best?.offset
    }
}

/// A null sink of the test's own on the server (so that nothing else playing to the shared
/// test sink mixes into its monitor), loaded with pactl; nil when that is not possible.
private struct PrivateNullSink {
    let name: String
    let module: String

    init?() {
        let name = "aqpulsetest\(getpid())"
        guard let module = Self.pactl(["load-module", "module-null-sink", "sink_name=\(name)", "format=float32le", "rate=48000", "channels=2"]),
              !module.isEmpty else { return nil }
        self.name = name
        self.module = module
    }

    func unload() { _ = Self.pactl(["unload-module", module]) }

    private static func pactl(_ arguments: [String]) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["pactl"] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

