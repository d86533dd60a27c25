// tonelatency: how long a frame takes from the callback that produced it to the sink, for an
// output unit's render callback and an output queue's callback, seen on the sink's monitor.
//
//   tonelatency unit|queue SINK [TRIALS] [FRAMES]
//
// The player plays silence on pulse:SINK (48 kHz stereo Float32): the unit with I/O cycles of
// FRAMES frames (512 unless given), the queue with three buffers of FRAMES frames (4096). The
// monitor `SINK.monitor` is recorded the whole time in pieces of 5 ms, each with the host time
// the device gives its first frame (for a monitor: when the sink played it). Each trial asks the
// callback for a marker: the next callback writes a full-scale cosine (its first frame already
// loud) instead of silence and notes the host time it ran at; the trial waits for the first
// monitor frame above 0.25, and the difference is the latency. The unit's callback also says
// when its first frame will be heard (the time stamp's host time): that prediction is printed
// beside it, and so is the unit's latency property (the device's presentation delay). Prints a
// line per trial, then
//   measured median=… p90=… min=… max=… (ms)
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

/// Watches the monitor: whether anything has arrived, and the first loud frame once armed.
final class Detector: AudioCaptureSink, Sendable {
    let rate: Double
    let delivering = Atomic<Bool>(false)
    let armed = Atomic<Bool>(false)
    let found = Atomic<UInt64>(0)
    let signal = DispatchSemaphore(value: 0)

    init(rate: Double) { self.rate = rate }

    func capture(_ samples: UnsafePointer<Float>, frameCount: Int, hostTime: UInt64) {
        delivering.store(true, ordering: .releasing)
        guard armed.load(ordering: .acquiring) else { return }
        for frame in 0..<frameCount where abs(samples[2 * frame]) > 0.25 {
            armed.store(false, ordering: .releasing)
            found.store(hostTime + UInt64(Double(frame) / rate * 1e9), ordering: .releasing)
            signal.signal()
            return
        }
    }

    func device(_ device: any AudioInputDevice, didReport event: AudioDeviceEvent) {}
}

/// The marker the callbacks write when asked: 0.2 s of a 1 kHz cosine, then silence again.
final class Marker: Sendable {
    let rate: Double
    let requested = Atomic<Bool>(false)
    let remaining = Atomic<Int>(0)
    let producedAt = Atomic<UInt64>(0)
    let predicted = Atomic<UInt64>(0)

    init(rate: Double) { self.rate = rate }

    /// Writes `frames` stereo frames at `out`: silence, or the marker; `heard` is when the
    /// first frame will be heard, where the caller knows.
    func fill(_ out: UnsafeMutablePointer<Float>, frames: Int, heard: UInt64) {
        var left = remaining.load(ordering: .relaxed)
        if left == 0, requested.exchange(false, ordering: .acquiringAndReleasing) {
            producedAt.store(HostTime.now(), ordering: .releasing)
            predicted.store(heard, ordering: .releasing)
            left = Int(rate / 5)
        }
        let total = Int(rate / 5)
        for i in 0..<frames {
            var value: Float = 0
            if left > 0 {
                value = Float(cos(2 * Double.pi * 1000 * Double(total - left) / rate))
                left -= 1
            }
            out[2 * i] = value
            out[2 * i + 1] = value
        }
        remaining.store(left, ordering: .relaxed)
    }
}

func ms(_ value: Double) -> String {
    let hundredths = Int((value * 100).rounded())
    let a = abs(hundredths)
    return "\(hundredths < 0 ? "-" : "")\(a / 100).\(a % 100 < 10 ? "0" : "")\(a % 100)"
}

let arguments = CommandLine.arguments
guard arguments.count >= 3, ["unit", "queue"].contains(arguments[1]) else { fail("usage: tonelatency unit|queue SINK [TRIALS] [FRAMES]") }
let player = arguments[1]
let sink = arguments[2]
let trials = arguments.count > 3 ? max(1, Int(arguments[3]) ?? 20) : 20
let frames = arguments.count > 4 ? max(16, Int(arguments[4]) ?? 512) : (player == "unit" ? 512 : 4096)

AudioQueueKit.registerAll()
let rate = 48_000.0
let detector = Detector(rate: rate)
let marker = Marker(rate: rate)
let monitor: any AudioInputDevice
do {
    monitor = try AudioBackends.makeInput(uid: "pulse:\(sink).monitor", sampleRate: rate, channels: 2, bufferFrames: 240)
    try monitor.start(sink: detector)
} catch {
    fail("tonelatency: cannot record pulse:\(sink).monitor: \(error)")
}

var unit: AudioOutputUnit?
var queue: AudioQueue?
do {
    if player == "unit" {
        guard let made = AudioComponent.findNext(matching: .halOutput)?.instantiate() as? AudioOutputUnit else { fail("tonelatency: no AUHAL") }
        try made.setCurrentDevice("pulse:\(sink)")
        try made.setStreamFormat(.float32(sampleRate: rate, channels: 2), scope: .input, element: 0)
        try made.setBufferFrameSize(frames)
        try made.setInputSource(.callback { [marker] _, time, _, count, data in
            guard let out = data?[0].data?.assumingMemoryBound(to: Float.self) else { return -50 }
            marker.fill(out, frames: Int(count), heard: time.hostTime)
            return 0
        })
        try made.initialize()
        try made.start()
        unit = made
    } else {
        let made = try AudioQueue(format: .float32(sampleRate: rate, channels: 2)) { [marker] queue, buffer in
            guard let out = buffer.data.baseAddress?.assumingMemoryBound(to: Float.self) else { return }
            marker.fill(out, frames: buffer.data.count / 8, heard: 0)
            buffer.audioDataByteSize = buffer.data.count
            try? queue.enqueue(buffer)
        }
        try made.setCurrentDevice("pulse:\(sink)")
        for _ in 0..<3 {
            let buffer = try made.allocateBuffer(byteCapacity: frames * 8)
            buffer.data.initializeMemory(as: UInt8.self, repeating: 0)
            buffer.audioDataByteSize = frames * 8
            try made.enqueue(buffer)
        }
        try made.start()
        queue = made
    }
} catch {
    fail("tonelatency: \(error)")
}

// The monitor of an idle null sink may take a second or two to deliver its first frames.
for _ in 0..<100 where !detector.delivering.load(ordering: .acquiring) { usleep(100_000) }
guard detector.delivering.load(ordering: .acquiring) else { fail("tonelatency: the monitor delivers nothing") }
usleep(500_000)

var measured: [Double] = []
for trial in 1...trials {
    detector.armed.store(true, ordering: .releasing)
    marker.requested.store(true, ordering: .releasing)
    guard detector.signal.wait(timeout: .now() + .seconds(5)) == .success else { fail("tonelatency: no marker on the monitor within 5 s") }
    let produced = marker.producedAt.load(ordering: .acquiring)
    let value = Double(Int64(bitPattern: detector.found.load(ordering: .acquiring) &- produced)) / 1e6
    measured.append(value)
    var line = "trial \(trial)  measured \(ms(value)) ms"
    if let unit {
        let predicted = Double(Int64(bitPattern: marker.predicted.load(ordering: .acquiring) &- produced)) / 1e6
        line += "  predicted by the time stamp \(ms(predicted)) ms  unit latency \(ms(unit.latency * 1000)) ms"
    }
    print(line)
    usleep(600_000)
}
unit?.stop()
unit?.uninitialize()
try? queue?.dispose(immediate: true)
monitor.stop(drain: false)
monitor.close()

let sorted = measured.sorted()
let p90 = sorted[min(sorted.count - 1, Int((Double(sorted.count) * 0.9).rounded(.up)) - 1)]
print("measured median=\(ms(sorted[sorted.count / 2])) p90=\(ms(p90)) min=\(ms(sorted.first!)) max=\(ms(sorted.last!)) (ms)  player=\(player) frames=\(frames)")
