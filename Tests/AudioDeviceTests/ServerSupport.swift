import Foundation
import Testing
import Synchronization
import AudioCore
import AudioDevices
import AudioDevicePulse
import AudioDeviceALSA
import AudioTestSupport

/// The PulseAudio server Scripts/test starts (private runtime directory, null sink `aqtest`).
enum Server {
    /// CI sets AQ_REQUIRE_AUDIO_SERVER=1: there, a missing server is a failure, not a skip.
    static let required = ProcessInfo.processInfo.environment["AQ_REQUIRE_AUDIO_SERVER"] == "1"
    static let available = PulseBackend().isAvailable()
    /// Run server tests when a server answers, or when one is required (they then fail).
    static let runTests = available || required
    static let sink = ProcessInfo.processInfo.environment["AQ_TEST_SINK"] ?? "aqtest"
    /// The device buffer the playback tests ask for: a quarter of a second, so that a test
    /// machine busy with other tests does not let the server run dry (an underrun would put a
    /// gap into a recording that must match the signal exactly).
    static let testBufferFrames = 12_000
    static let skipReason: Comment = "no PulseAudio server answers (Scripts/test starts a private one; AQ_REQUIRE_AUDIO_SERVER=1 makes this a failure)"
}

/// Every test that plays to the shared server's sink runs inside this suite, one at a time, so
/// that no two streams mix in the sink's monitor.
@Suite(.serialized, .enabled(if: Server.runTests, Server.skipReason))
struct SharedServer {}

/// Collects what a capture device records, in preallocated memory (the capture thread must not
/// allocate).
final class MonitorRecorder: AudioCaptureSink, @unchecked Sendable {
    private let storage: UnsafeMutablePointer<Float>
    let capacity: Int
    let channels: Int
    private let count = Atomic<Int>(0)
    let events = Mutex<[String]>([])

    init(seconds: Double, rate: Double, channels: Int) {
        capacity = Int(seconds * rate) * channels
        self.channels = channels
        storage = .allocate(capacity: capacity)
        storage.initialize(repeating: 0, count: capacity)
    }

    deinit { storage.deallocate() }

    func capture(_ samples: UnsafePointer<Float>, frameCount: Int, hostTime: UInt64) {
        let n = frameCount * channels
        let at = count.load(ordering: .relaxed)
        let take = min(n, capacity - at)
        guard take > 0 else { return }
        (storage + at).update(from: samples, count: take)
        count.store(at + take, ordering: .releasing)
    }

    func device(_ device: any AudioInputDevice, didReport event: AudioDeviceEvent) {
        events.withLock { $0.append("\(event)") }
    }

    var samples: [Float] { Array(UnsafeBufferPointer(start: storage, count: count.load(ordering: .acquiring))) }

    /// Seconds recorded since the first sample that is not silence (0 before it).
    func secondsSinceFirstSound(rate: Double) -> Double {
        let n = count.load(ordering: .acquiring)
        var i = 0
        while i < n && storage[i] == 0 { i += 1 }
        return Double((n - i) / channels) / rate
    }
}

/// Finds where `signal[from..<from+probe]` appears in `recording` (exactly, or within
/// `tolerance` per sample) and returns the recording index of `signal[0]`.
func alignment(of signal: [Float], in recording: [Float], channels: Int, from: Int, probe: Int = 512, tolerance: Float = 1e-4) -> Int? {
    let start = from * channels
    guard start + probe <= signal.count else { return nil }
    var i = 0
    while i + probe <= recording.count {
        if abs(recording[i] - signal[start]) <= tolerance && i % channels == 0 {
            var ok = true
            for k in 1..<probe where abs(recording[i + k] - signal[start + k]) > tolerance {
                ok = false
                break
            }
            if ok { return i - start }
        }
        i += 1
    }
    return nil
}

/// Noise made by ffmpeg (two independent channels, 48 kHz, 32-bit float WAVE), `seconds` long.
func noiseFile(seconds: Int, name: String) throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("aq-noise-\(getpid())-\(name).wav").path
    if FileManager.default.fileExists(atPath: path) { return path }
    let ffmpeg = try #require(["/usr/bin/ffmpeg", "/usr/local/bin/ffmpeg"].first { FileManager.default.isExecutableFile(atPath: $0) },
                              "ffmpeg is needed (Scripts/test installs it)")
    let result = try runProcess(ffmpeg, [
        "-nostdin", "-v", "error", "-y", "-filter_complex",
        "anoisesrc=color=white:sample_rate=48000:amplitude=0.3:seed=11:duration=\(seconds)[l];"
            + "anoisesrc=color=pink:sample_rate=48000:amplitude=0.3:seed=12:duration=\(seconds)[r];"
            + "[l][r]join=inputs=2:channel_layout=stereo[out]",
        "-map", "[out]", "-c:a", "pcm_f32le", path,
    ])
    try #require(result.status == 0, "ffmpeg failed: \(result.err)")
    return path
}
