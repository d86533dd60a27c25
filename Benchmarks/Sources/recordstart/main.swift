// recordstart: how long an input queue takes from `start()` to the first frames it receives
// and to its first callback, recording from the default input chain (a PulseAudio server when
// one answers; `AUDIOQUEUE_BACKEND`/`AUDIOQUEUE_INPUT_DEVICE` choose another).
//
//   recordstart [TRIALS] [BUFFER_SECONDS]
//
// Each trial creates a queue in aqrecord's default format (44.1 kHz stereo 16-bit big-endian),
// enqueues three buffers of BUFFER_SECONDS (default 0.5, as aqrecord and the guide's chapter),
// and times, on the monotonic clock from just before `start()`:
//   - frames: the first frames the device hands the queue (the first `capture` call of the
//     device, seen through a pass-through device wrapping the default input);
//   - callback: the first input callback, and that less the buffer's own duration (a buffer is
//     handed back once it is full: what the queue adds to the time the audio itself takes).
// Cold: a new queue, which opens the default device (connecting to the server) at `start()`;
// warm: `start()` again after `stop(immediate: true)`.
import AudioQueueKit
import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The host time of the first capture after a reset, and a semaphore signalled with it.
final class CaptureProbe: Sendable {
    let first = Atomic<UInt64>(0)
    func reset() { first.store(0, ordering: .releasing) }
    func record() {
        _ = first.compareExchange(expected: 0, desired: HostTime.now(), ordering: .acquiringAndReleasing)
    }
}

let probe = CaptureProbe()

/// When the first callback came, and a semaphore signalled then.
final class CallbackProbe: Sendable {
    let first = Atomic<UInt64>(0)
    let signal = DispatchSemaphore(value: 0)
}

/// Passes what the device records through, noting when the first frames came.
final class TimedSink: AudioCaptureSink {
    let sink: any AudioCaptureSink
    let device: any AudioInputDevice

    init(_ sink: any AudioCaptureSink, device: any AudioInputDevice) {
        self.sink = sink
        self.device = device
    }

    func capture(_ samples: UnsafePointer<Float>, frameCount: Int, hostTime: UInt64) {
        probe.record()
        sink.capture(samples, frameCount: frameCount, hostTime: hostTime)
    }

    func device(_ device: any AudioInputDevice, didReport event: AudioDeviceEvent) {
        sink.device(self.device, didReport: event)
    }
}

/// The default input, unchanged but for a `TimedSink` between it and the queue.
final class TimedInput: AudioInputDevice {
    let inner: any AudioInputDevice
    init(_ inner: any AudioInputDevice) { self.inner = inner }
    var info: AudioDeviceInfo { inner.info }
    var format: AudioStreamBasicDescription { inner.format }
    func start(sink: any AudioCaptureSink) throws(AudioDeviceError) { try inner.start(sink: TimedSink(sink, device: self)) }
    func stop(drain: Bool) { inner.stop(drain: drain) }
    var framesCaptured: Int64 { inner.framesCaptured }
    func close() { inner.close() }
}

/// Opens what the default input chain would open, wrapped.
struct TimedBackend: AudioBackend {
    var name: String { "timed" }
    func isAvailable() -> Bool { true }
    func devices() throws(AudioDeviceError) -> [AudioDeviceInfo] { [] }
    func makeOutput(name: String?, sampleRate: Double, channels: Int, bufferFrames: Int) throws(AudioDeviceError) -> any AudioOutputDevice {
        throw AudioDeviceError(.notFound, "recording only")
    }
    func makeInput(name: String?, sampleRate: Double, channels: Int, bufferFrames: Int) throws(AudioDeviceError) -> any AudioInputDevice {
        TimedInput(try AudioBackends.makeDefaultInput(sampleRate: sampleRate, channels: channels, bufferFrames: bufferFrames))
    }
}

func fail(_ message: String) -> Never {
    var line = message + "\n"
    line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
    exit(1)
}

func ms(_ nanoseconds: UInt64, since start: UInt64) -> Double { Double(Int64(bitPattern: nanoseconds &- start)) / 1e6 }

func text(_ value: Double) -> String {
    let tenths = Int((value * 10).rounded())
    return "\(tenths / 10).\(abs(tenths % 10))"
}

let arguments = CommandLine.arguments
let trials = arguments.count > 1 ? max(1, Int(arguments[1]) ?? 20) : 20
let bufferSeconds = arguments.count > 2 ? max(0.01, Double(arguments[2]) ?? 0.5) : 0.5

AudioQueueKit.registerAll()
AudioBackends.register(TimedBackend(), priority: 0)

let format = AudioStreamBasicDescription.linearPCM(sampleRate: 44100, channels: 2, bitsPerChannel: 16, isBigEndian: true)
let bufferBytes = Int(44100 * bufferSeconds) * 4

/// Starts `queue` and returns (first frames, first callback) in ms after just before `start()`.
func timeStart(_ queue: AudioInputQueue, _ callback: CallbackProbe) -> (Double, Double) {
    probe.reset()
    callback.first.store(0, ordering: .releasing)
    let before = HostTime.now()
    do { try queue.start() } catch { fail("recordstart: start failed: \(error)") }
    guard callback.signal.wait(timeout: .now() + .seconds(10)) == .success else { fail("recordstart: no callback within 10 seconds") }
    let frames = probe.first.load(ordering: .acquiring)
    return (ms(frames, since: before), ms(callback.first.load(ordering: .acquiring), since: before))
}

var rows: [String: [(Double, Double)]] = ["cold": [], "warm": []]
var deviceName = ""
for trial in 1...trials {
    let callback = CallbackProbe()
    do {
        let queue = try AudioInputQueue(format: format) { queue, buffer, _, packets, _ in
            if packets > 0, callback.first.compareExchange(expected: 0, desired: HostTime.now(), ordering: .acquiringAndReleasing).exchanged {
                callback.signal.signal()
            }
            try? queue.enqueue(buffer)
        }
        try queue.setCurrentDevice("timed")
        for _ in 0..<3 { try queue.enqueue(try queue.allocateBuffer(byteCapacity: bufferBytes)) }
        let cold = timeStart(queue, callback)
        deviceName = queue.currentDeviceInfo?.uid ?? "?"
        try queue.stop(immediate: true)
        for _ in 0..<3 { try queue.enqueue(try queue.allocateBuffer(byteCapacity: bufferBytes)) }
        let warm = timeStart(queue, callback)
        try queue.dispose(immediate: true)
        rows["cold"]!.append(cold)
        rows["warm"]!.append(warm)
        print("trial \(trial)  cold frames \(text(cold.0)) ms, callback \(text(cold.1)) ms  warm frames \(text(warm.0)) ms, callback \(text(warm.1)) ms")
    } catch {
        fail("recordstart: \(error)")
    }
}

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
func p90(_ values: [Double]) -> Double {
    let s = values.sorted()
    return s[min(s.count - 1, Int((Double(s.count) * 0.9).rounded(.up)) - 1)]
}
for kind in ["cold", "warm"] {
    let frames = rows[kind]!.map(\.0)
    let callback = rows[kind]!.map(\.1)
    let beyond = callback.map { $0 - bufferSeconds * 1000 }
    print("\(kind)  frames median=\(text(median(frames))) p90=\(text(p90(frames))) max=\(text(frames.max()!))  "
        + "callback median=\(text(median(callback))) (beyond the \(Int(bufferSeconds * 1000)) ms buffer: median=\(text(median(beyond))) "
        + "p90=\(text(p90(beyond)))) (ms)  device=\(deviceName)")
}
