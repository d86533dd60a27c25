import Foundation
import Testing
import Locking
import Synchronization
import AudioCore
import AudioDevices
@testable import AudioDevicePipeWire
import ProcessSupport

/// Without a server: connecting fails with `.openFailed` and a reason, and does not hang.
@Suite("PipeWire without a server") struct PipeWireWithoutServer {
    /// No socket at the path: refused at once.
    @Test func noSocketIsOpenFailed() throws {
        let context = try PipeWireContext.shared()
        let path = NSTemporaryDirectory() + "aq-pw-nosuch-\(getpid())/pipewire-0"
        #expect(throws: AudioDeviceError.self) { try context.probe(remote: path) }
        do {
            try context.probe(remote: path)
        } catch {
            #expect(error.code == .openFailed)
            #expect(error.reason.contains("PipeWire"), "\(error.reason)")
        }
    }

    /// A socket that accepts connections but never answers: the first round trip times out.
    @Test func silentSocketIsOpenFailed() throws {
        let dir = NSTemporaryDirectory() + "aq-pw-silent-\(getpid())"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/pipewire-0"
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        try #require(fd >= 0)
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in path.utf8.prefix(raw.count - 1).enumerated() { raw[i] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        try #require(bound == 0 && listen(fd, 4) == 0, "cannot listen on \(path)")
        do {
            try PipeWireContext.shared().probe(remote: path, timeout: 0.5)
            Issue.record("a server that never answers was taken for one")
        } catch {
            #expect(error.code == .openFailed)
            #expect(error.reason.contains("does not answer") || error.reason.contains("went away"), "\(error.reason)")
        }
    }

    /// Where no server answers (the run against PulseAudio): the backend says it is
    /// unavailable, and opening a device fails with `.openFailed` rather than waiting.
    @Test(.enabled(if: !PipeWireServer.available, "a PipeWire server answers"))
    func withoutAServerTheBackendIsUnavailable() throws {
        let backend = PipeWireBackend()
        #expect(!backend.isAvailable())
        do {
            _ = try backend.makeOutput(name: nil, sampleRate: 48000, channels: 2, bufferFrames: 1024)
            Issue.record("an output opened without a server")
        } catch {
            #expect(error.code == .openFailed, "\(error)")
        }
        #expect(throws: AudioDeviceError.self) { _ = try backend.makeInput(name: nil, sampleRate: 48000, channels: 2, bufferFrames: 1024) }
    }

    /// The backend's name and registration: `AUDIOQUEUE_BACKEND=pipewire` finds it by this name.
    @Test func backendIsCalledPipewire() {
        #expect(PipeWireBackend().name == "pipewire")
    }
}

/// Collects what an input device delivers, in memory made beforehand.
final class CaptureCollector: AudioCaptureSink, @unchecked Sendable {
    private let storage: UnsafeMutablePointer<Float>
    let capacity: Int
    let channels: Int
    private let count = Atomic<Int>(0)
    let largestPiece = Atomic<Int>(0)
    let events = Guarded<[AudioDeviceEvent]>([])
    let times = Guarded<[UInt64]>([])

    init(frames: Int, channels: Int) {
        capacity = frames * channels
        self.channels = channels
        storage = .allocate(capacity: capacity)
    }

    deinit { storage.deallocate() }

    func capture(_ samples: UnsafePointer<Float>, frameCount: Int, hostTime: UInt64) {
        let at = count.load(ordering: .relaxed)
        let n = min(frameCount * channels, capacity - at)
        if n > 0 { (storage + at).update(from: samples, count: n) }
        count.store(at + max(n, 0), ordering: .releasing)
        if frameCount > largestPiece.load(ordering: .relaxed) { largestPiece.store(frameCount, ordering: .relaxed) }
    }

    func device(_ device: any AudioInputDevice, didReport event: AudioDeviceEvent) { events.withLock { $0.append(event) } }

    var frames: Int { count.load(ordering: .acquiring) / channels }
    var samples: [Float] { Array(UnsafeBufferPointer(start: storage, count: count.load(ordering: .acquiring))) }
}

extension PipeWireShared {
    @Suite("PipeWire capture") struct Capture {
        /// paplay plays ffmpeg's noise (a WAVE of the format's own samples) into the sink; the
        /// device records the sink's monitor natively in that format: every frame, exactly, in
        /// pieces of at most bufferFrames.
        @Test(arguments: [TestFormat(format: .float32), TestFormat(format: .int16), TestFormat(format: .int24)])
        func monitorCaptureIsBitExact(format: TestFormat) throws {
            let signal = try format.noise(frames: 48000, channels: 2, rate: 48000, seed: 21)
            let wav = NSTemporaryDirectory() + "aq-pw-capture-\(getpid()).wav"
            defer { unlink(wav) }
            let raw = wav + ".raw"
            defer { unlink(raw) }
            try Data(signal.withUnsafeBytes { Data($0) }).write(to: URL(fileURLWithPath: raw))
            let codec = ["float32": "pcm_f32le", "int16": "pcm_s16le", "int24": "pcm_s24le"][format.description]!
            let made = try runProcess("/usr/bin/ffmpeg", [
                "-nostdin", "-v", "error", "-y", "-f", "f32le", "-ar", "48000", "-ac", "2", "-i", raw, "-c:a", codec, wav,
            ])
            try #require(made.status == 0, "ffmpeg: \(made.err)")
            let device = try PipeWireInputDevice(
                source: "\(PipeWireServer.sink).monitor", sampleRate: 48000, channels: 2, bufferFrames: 480, sampleFormat: format.format)
            defer { device.close() }
            let collector = CaptureCollector(frames: 48000 * 6, channels: 2)
            try device.start(sink: collector)
            #expect(eventually { collector.frames > 4800 }, "the monitor delivers nothing")
            let played = try runProcess("/usr/bin/paplay", ["--device=\(PipeWireServer.sink)", "--latency-msec=100", wav])
            #expect(played.status == 0, "paplay: \(played.err)")
            let target = collector.frames + 9600
            eventually { collector.frames >= target }
            device.stop(drain: true)
            expectBitExact(signal, collector.samples, channels: 2, "monitor capture \(format)")
            #expect(collector.largestPiece.load(ordering: .relaxed) <= 480)
            #expect(device.framesCaptured == Int64(collector.frames))
            let events = collector.events.withLock { $0 }
            #expect(events.first?.kind == .started)
        }
    }
}
