import Foundation
import Testing
import Dispatch
import Locking
import AudioCore
import AudioDevices
import AudioQueueServices
import AudioQueueKit
import AudioTestSupport

/// The private PipeWire server Scripts/lib/pipewire.sh starts (PIPEWIRE_RUNTIME_DIR, null sink
/// `aqtest`), found the way the backend finds it.
enum GraphServer {
    static let required = AudioServer.required
    /// Whether a PipeWire server accepts a connection at the socket the environment names.
    static let available: Bool = {
        guard let socket = PipeWireServerLocation.environmentSocket() else { return false }
        return PipeWireServerLocation.acceptsConnection(socket.path)
    }()
    static let runTests = available || required
    static let sink = AudioServer.sink
    static let skipReason: Comment =
        "no PipeWire server answers (Scripts/test starts a private one: source Scripts/lib/pipewire.sh; start_private_pipewire; AQ_REQUIRE_AUDIO_SERVER=1 makes this a failure)"

    /// Fails the test unless a server answers (when one is required, its absence is a failure).
    static func require() throws {
        try #require(available, "AQ_REQUIRE_AUDIO_SERVER=1 but no PipeWire server answers at PIPEWIRE_RUNTIME_DIR")
    }

    /// Runs pactl (through pipewire-pulse) against the test server.
    @discardableResult
    static func pactl(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        try runProcess("/usr/bin/pactl", arguments)
    }

    /// Loads a null sink `name` (through pipewire-pulse); returns the module's index for unloading.
    static func loadNullSink(_ name: String, channels: Int = 2, rate: Int = 48000) throws -> String {
        let r = try pactl(["load-module", "module-null-sink", "sink_name=\(name)", "format=float32le", "rate=\(rate)", "channels=\(channels)"])
        try #require(r.status == 0, "pactl cannot load a null sink: \(r.err)")
        return r.out.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The server's default sink (`pactl get-default-sink`).
    static func defaultSink() throws -> String {
        try pactl(["get-default-sink"]).out.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The sink pipewire-pulse shows each of its playback streams on, by index
    /// (`pactl list short sink-inputs`: index, sink index, …) as sink names.
    static func sinksPlaying() throws -> [String] {
        var names: [String: String] = [:]
        for line in try pactl(["list", "short", "sinks"]).out.split(separator: "\n") {
            let fields = line.split(separator: "\t")
            if fields.count > 1 { names[String(fields[0])] = String(fields[1]) }
        }
        return try pactl(["list", "short", "sink-inputs"]).out.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: "\t")
            return fields.count > 1 ? names[String(fields[1])] : nil
        }
    }
}

/// Every test of this target's own files that uses the server runs in this suite, one at a
/// time: some change the server's default, and none should hear another's stream.
@Suite(.serialized, .enabled(if: GraphServer.runTests, GraphServer.skipReason))
struct PipeWireGraphServer {}

/// A queue playing a quiet tone without end (each played buffer enqueued again) on `uid`, with
/// listeners for `currentDevice` (`moved`, `devices`) and `isRunning` turning false (`stopped`),
/// and a timeline.
final class TonePlayer: Sendable {
    let queue: AudioQueue
    let timeline: AudioQueueTimeline
    let moved = DispatchSemaphore(value: 0)
    let stopped = DispatchSemaphore(value: 0)
    let devices = Guarded<[String]>([])

    init(uid: String) throws {
        AudioQueueKit.registerAll()
        let rate = 48000.0
        let format = AudioStreamBasicDescription.linearPCM(sampleRate: rate, channels: 2, bitsPerChannel: 32, isFloat: true)
        queue = try AudioQueue(format: format, callbackQueue: nil, device: nil) { queue, buffer in try? queue.enqueue(buffer) }
        try queue.setCurrentDevice(uid)
        timeline = try queue.makeTimeline()
        try queue.addPropertyListener(.currentDevice) { [weak self] q, _ in
            let device = q.currentDevice ?? "none"
            self?.devices.withLock { $0.append(device) }
            self?.moved.signal()
        }
        try queue.addPropertyListener(.isRunning) { [stopped] q, _ in if !q.isRunning { stopped.signal() } }
        let frames = 4800
        for _ in 0..<3 {
            let buffer = try queue.allocateBuffer(byteCapacity: frames * 8)
            let samples = buffer.data.bindMemory(to: Float.self)
            for i in 0..<frames {
                let v = Float(sin(2 * Double.pi * 440 * Double(i) / rate) * 0.1)
                samples[2 * i] = v
                samples[2 * i + 1] = v
            }
            buffer.audioDataByteSize = frames * 8
            try queue.enqueue(buffer)
        }
    }

    var sampleTime: Double { (try? queue.currentTime().timeStamp.sampleTime) ?? 0 }

    /// Starts, waits until the queue's clock has passed 0.3 s, and clears the timeline.
    func startAndWaitUntilPlaying() throws {
        try queue.start()
        try #require(eventually(within: 10) { self.sampleTime > 14_400 }, "the queue did not start playing")
        _ = try queue.currentTime(timeline: timeline)
    }

    /// Whether the clock goes on by a tenth of a second (within ten seconds).
    func clockAdvances() -> Bool {
        let from = sampleTime
        return eventually(within: 10) { self.sampleTime > from + 4800 }
    }

    func dispose() { try? queue.dispose(immediate: true) }
}
