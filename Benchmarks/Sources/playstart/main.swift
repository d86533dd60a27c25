// playstart: how long an output queue takes from `start()` to the first frames handed to the
// output, played through the default device chain (a PulseAudio server when one answers).
//
//   playstart FILE [TRIALS]
//
// Each trial creates a queue for FILE, primes its three buffers through the output callback as
// Apple's guide does, and times, on the monotonic clock:
//   - cold: `start()` on a new queue, which chooses and opens the default device (connecting to
//     the server) before it starts it;
//   - warm: `start()` again after `stop(immediate: true)`, on the device already open.
// "First frames handed to the output" is the host time in the device's `.started` event, which
// every backend sends right after the first frames have gone to the output (after the first
// `pa_stream_write` on PulseAudio, the first `snd_pcm_writei` on ALSA). The program sees it by
// wrapping the default device in a pass-through device: the queue is pointed at the `timed`
// backend, whose device is the default chain's choice (PulseAudio, else ALSA, else a file)
// opened at `start()`, as the queue opens any default device.
//
// Prints one line per trial and a summary line per kind:
//   cold  median=… p90=… max=… (ms)  device=pulse:…
import AudioQueueKit
import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The host time of the latest `.started` event, and a semaphore signalled with it.
final class StartProbe: Sendable {
    let started = Atomic<UInt64>(0)
    let signal = DispatchSemaphore(value: 0)

    func reset() { started.store(0, ordering: .releasing) }

    func record(_ hostTime: UInt64) {
        started.store(hostTime, ordering: .releasing)
        signal.signal()
    }
}

let probe = StartProbe()

/// Passes the device's render calls and events through, noting when it started.
final class TimedSource: AudioRenderSource {
    let source: any AudioRenderSource
    let device: any AudioOutputDevice

    init(_ source: any AudioRenderSource, device: any AudioOutputDevice) {
        self.source = source
        self.device = device
    }

    func render(into buffer: UnsafeMutablePointer<Float>, frameCount: Int) -> Int {
        source.render(into: buffer, frameCount: frameCount)
    }

    func device(_ device: any AudioOutputDevice, didReport event: AudioDeviceEvent) {
        if event.kind == .started, let hostTime = event.hostTime { probe.record(hostTime) }
        source.device(self.device, didReport: event)
    }
}

/// The default device, unchanged but for a `TimedSource` between it and the queue.
final class TimedDevice: AudioOutputDevice {
    let inner: any AudioOutputDevice

    init(_ inner: any AudioOutputDevice) { self.inner = inner }

    var info: AudioDeviceInfo { inner.info }
    var format: AudioStreamBasicDescription { inner.format }
    func start(source: any AudioRenderSource) throws(AudioDeviceError) {
        try inner.start(source: TimedSource(source, device: self))
    }
    func stop(drain: Bool) { inner.stop(drain: drain) }
    func pause() { inner.pause() }
    var presentationDelay: Int { inner.presentationDelay }
    var framesRendered: Int64 { inner.framesRendered }
    var framesPlayed: Int64 { inner.framesPlayed }
    var framesPlayed: Int64 { inner.framesPlayed }
    func close() { inner.close() }
}

/// Opens what the default chain would open (before this backend was registered), wrapped.
struct TimedBackend: AudioBackend {
    var name: String { "timed" }
    func isAvailable() -> Bool { true }
    func devices() throws(AudioDeviceError) -> [AudioDeviceInfo] { [] }
    func makeOutput(name: String?, sampleRate: Double, channels: Int, bufferFrames: Int) throws(AudioDeviceError) -> any AudioOutputDevice {
        // Registered below priority 1, so the default chain does not offer this backend itself.
        TimedDevice(try AudioBackends.makeDefaultOutput(sampleRate: sampleRate, channels: channels, bufferFrames: bufferFrames))
    }
}

/// The guide's output callback, reading packets in order; no looping.
final class Reader: Sendable {
    let file: AudioFile
    let packetsPerBuffer: Int
    let next = Mutex<Int64>(0)

    init(file: AudioFile, packetsPerBuffer: Int) {
        self.file = file
        self.packetsPerBuffer = packetsPerBuffer
    }

    func fill(_ queue: AudioQueue, _ buffer: AudioQueueBuffer) {
        next.withLock { packet in
            let descriptions = buffer.packetDescriptions == nil ? nil : buffer.packetDescriptionBuffer
            guard let read = try? file.readPackets(from: packet, count: packetsPerBuffer, into: buffer.data, descriptions: descriptions),
                  read.packetCount > 0 else { return }
            buffer.audioDataByteSize = read.byteCount
            buffer.packetDescriptionCount = descriptions == nil ? 0 : read.packetCount
            try? queue.enqueue(buffer)
            packet += Int64(read.packetCount)
        }
    }
}

func fail(_ message: String) -> Never {
    var line = message + "\n"
    line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
    exit(1)
}

/// `value` with two decimals, right-aligned in `width` characters.
func ms(_ value: Double, width: Int = 0) -> String {
    let hundredths = Int((value * 100).rounded())
    let sign = hundredths < 0 ? "-" : ""
    let a = abs(hundredths)
    let fraction = a % 100
    let text = "\(sign)\(a / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    return String(repeating: " ", count: max(0, width - text.count)) + text
}

/// Starts `queue` and waits for the device's `.started` event; milliseconds from just before
/// `start()` to the event's host time.
func timeStart(_ queue: AudioQueue) -> Double {
    probe.reset()
    let before = HostTime.now()
    do {
        try queue.start()
    } catch {
        fail("playstart: start failed: \(error)")
    }
    guard probe.signal.wait(timeout: .now() + .seconds(5)) == .success else {
        fail("playstart: the device did not report that it started within 5 seconds")
    }
    let started = probe.started.load(ordering: .acquiring)
    return Double(Int64(bitPattern: started &- before)) / 1e6
}

let arguments = CommandLine.arguments
guard arguments.count >= 2 else { fail("usage: playstart FILE [TRIALS]") }
let path = arguments[1]
let trials = arguments.count > 2 ? max(1, Int(arguments[2]) ?? 20) : 20

AudioQueueKit.registerAll()
AudioBackends.register(TimedBackend(), priority: 0)

var cold: [Double] = []
var warm: [Double] = []
var deviceName = ""
for trial in 1...trials {
    do {
        let file = try AudioFile(path: path)
        let bytes = 0x50000
        let perBuffer = max(1, bytes / max(1, file.packetSizeUpperBound))
        let reader = Reader(file: file, packetsPerBuffer: perBuffer)
        let queue = try AudioQueue(format: file.dataFormat, callbackQueue: nil, device: nil) { queue, buffer in
            reader.fill(queue, buffer)
        }
        try queue.setCurrentDevice("timed")
        if let cookie = file.magicCookie, !cookie.isEmpty { try queue.setMagicCookie(cookie) }
        let descriptions = file.dataFormat.bytesPerPacket == 0 || file.needsDescriptions ? perBuffer : 0
        for _ in 0..<3 {
            let buffer = try queue.allocateBuffer(byteCapacity: bytes, packetDescriptionCapacity: descriptions)
            reader.fill(queue, buffer)
        }
        let c = timeStart(queue)
        deviceName = queue.currentDevice ?? "?"
        // Let it play a little, as a player would before the user stops and starts again.
        usleep(200_000)
        try queue.stop(immediate: true)
        for _ in 0..<3 {
            let buffer = try queue.allocateBuffer(byteCapacity: bytes, packetDescriptionCapacity: descriptions)
            reader.fill(queue, buffer)
        }
        let w = timeStart(queue)
        usleep(100_000)
        try queue.dispose(immediate: true)
        cold.append(c)
        warm.append(w)
        print("trial \(trial)  cold \(ms(c, width: 7)) ms  warm \(ms(w, width: 7)) ms")
    } catch {
        fail("playstart: \(error)")
    }
}

func summary(_ name: String, _ values: [Double], device deviceName: String) {
    let sorted = values.sorted()
    let median = sorted[sorted.count / 2]
    let p90 = sorted[min(sorted.count - 1, Int((Double(sorted.count) * 0.9).rounded(.up)) - 1)]
    print("\(name)  median=\(ms(median)) p90=\(ms(p90)) max=\(ms(sorted.last!)) min=\(ms(sorted.first!)) (ms)  device=\(deviceName)")
}
summary("cold", cold, device: deviceName)
summary("warm", warm, device: deviceName)
