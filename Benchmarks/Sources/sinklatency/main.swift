// sinklatency: how long an output queue takes from `start()` to its first frame reaching the
// sink, seen on the sink's monitor.
//
//   sinklatency OUTPUT-BACKEND SINK [TRIALS] [MONITOR-BACKEND]
//
// The monitor `SINK.monitor` is recorded the whole time through MONITOR-BACKEND (default
// pulse: the same recorder for every backend measured), in pieces of 5 ms, each with the host
// time the device gives its first frame (for a monitor: when the sink played it). Each trial
// makes a queue of 48 kHz stereo Float32 on OUTPUT-BACKEND's SINK, enqueues half a second of a
// full-scale 1 kHz cosine (its first frame already loud), notes the host time just before
// `start()` and waits for the first monitor frame above 0.25; the difference is the latency.
// Cold: a new queue, which opens the device; warm: `start()` again after `stop(immediate:
// true)` and half a second of silence. Prints a line per trial, then
//   cold median=… p90=… min=… max=… (ms) device=…
//   warm …
import AudioQueueKit
import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

func fail(_ message: String) -> Never {
    var line = message + "\n"
    line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
    exit(1)
}

/// Watches the monitor for the first loud frame once armed.
final class Detector: AudioCaptureSink, Sendable {
    let rate: Double
    let armed = Atomic<Bool>(false)
    let found = Atomic<UInt64>(0)
    let signal = DispatchSemaphore(value: 0)
    let failure = Mutex<String?>(nil)

    init(rate: Double) { self.rate = rate }

    func arm() {
        found.store(0, ordering: .releasing)
        armed.store(true, ordering: .releasing)
    }

    func capture(_ samples: UnsafePointer<Float>, frameCount: Int, hostTime: UInt64) {
        guard armed.load(ordering: .acquiring) else { return }
        for frame in 0..<frameCount where abs(samples[2 * frame]) > 0.25 {
            armed.store(false, ordering: .releasing)
            found.store(hostTime + UInt64(Double(frame) / rate * 1e9), ordering: .releasing)
            signal.signal()
            return
        }
    }

    func device(_ device: any AudioInputDevice, didReport event: AudioDeviceEvent) {
        if event.kind == .failed {
            failure.withLock { $0 = event.description }
            signal.signal()
        }
    }
}

/// `value` with two decimals.
func ms(_ value: Double) -> String {
    let hundredths = Int((value * 100).rounded())
    let a = abs(hundredths)
    return "\(hundredths < 0 ? "-" : "")\(a / 100).\(a % 100 < 10 ? "0" : "")\(a % 100)"
}

let arguments = CommandLine.arguments
guard arguments.count >= 3 else { fail("usage: sinklatency OUTPUT-BACKEND SINK [TRIALS] [MONITOR-BACKEND]") }
let backend = arguments[1]
let sink = arguments[2]
let trials = arguments.count > 3 ? max(1, Int(arguments[3]) ?? 20) : 20
let monitorBackend = arguments.count > 4 ? arguments[4] : "pulse"

AudioQueueKit.registerAll()
let rate = 48_000.0
let detector = Detector(rate: rate)
let monitor: any AudioInputDevice
do {
    monitor = try AudioBackends.makeInput(uid: "\(monitorBackend):\(sink).monitor", sampleRate: rate, channels: 2, bufferFrames: 240)
    try monitor.start(sink: detector)
} catch {
    fail("sinklatency: cannot record \(monitorBackend):\(sink).monitor: \(error)")
}
usleep(500_000)

let format = AudioStreamBasicDescription.linearPCM(sampleRate: rate, channels: 2, bitsPerChannel: 32, isFloat: true)
let frames = Int(rate / 2)
let tone: [Float] = (0..<frames).flatMap { i -> [Float] in
    let v = Float(cos(2 * Double.pi * 1000 * Double(i) / rate) * 0.9)
    return [v, v]
}

/// Fills and enqueues two buffers of the tone.
func prime(_ queue: AudioQueue) throws {
    for _ in 0..<2 {
        let buffer = try queue.allocateBuffer(byteCapacity: tone.count * 4)
        tone.withUnsafeBytes { buffer.data.baseAddress!.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        buffer.audioDataByteSize = tone.count * 4
        try queue.enqueue(buffer)
    }
}

/// Starts `queue` and waits for the tone on the monitor; milliseconds from just before `start()`.
func timeStart(_ queue: AudioQueue) -> Double {
    detector.arm()
    let before = HostTime.now()
    do { try queue.start() } catch { fail("sinklatency: start failed: \(error)") }
    guard detector.signal.wait(timeout: .now() + .seconds(5)) == .success else { fail("sinklatency: nothing reached the monitor within 5 s") }
    if let failure = detector.failure.withLock({ $0 }) { fail("sinklatency: the monitor failed: \(failure)") }
    return Double(Int64(bitPattern: detector.found.load(ordering: .acquiring) &- before)) / 1e6
}

var cold: [Double] = []
var warm: [Double] = []
var deviceName = ""
for trial in 1...trials {
    do {
        let queue = try AudioQueue(format: format, callbackQueue: nil, device: nil) { _, _ in }
        try queue.setCurrentDevice("\(backend):\(sink)")
        try prime(queue)
        let c = timeStart(queue)
        deviceName = queue.currentDevice ?? "?"
        try queue.stop(immediate: true)
        usleep(500_000)
        try prime(queue)
        let w = timeStart(queue)
        try queue.dispose(immediate: true)
        usleep(500_000)
        cold.append(c)
        warm.append(w)
        print("trial \(trial)  cold \(ms(c)) ms  warm \(ms(w)) ms")
    } catch {
        fail("sinklatency: \(error)")
    }
}
monitor.stop(drain: false)
monitor.close()

func summary(_ name: String, _ values: [Double], device deviceName: String) {
    let sorted = values.sorted()
    let p90 = sorted[min(sorted.count - 1, Int((Double(sorted.count) * 0.9).rounded(.up)) - 1)]
    print("\(name)  median=\(ms(sorted[sorted.count / 2])) p90=\(ms(p90)) min=\(ms(sorted.first!)) max=\(ms(sorted.last!)) (ms)  device=\(deviceName)")
}
summary("cold", cold, device: deviceName)
summary("warm", warm, device: deviceName)
