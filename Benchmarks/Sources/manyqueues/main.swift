// manyqueues: what many output queues playing short sounds at once cost in one process — a
// game's sound effects — through the default device chain (a PulseAudio server when one
// answers; AUDIOQUEUE_DEVICE names the sink).
//
//   manyqueues QUEUES [SECONDS]
//
// QUEUES queues of 48 kHz stereo Float32 are made and started, each on a device of its own as
// the default chain opens it. Each queue plays a 150 ms sound (a decaying tone) every 500 ms,
// the queues' sounds spread over the half second: a timer enqueues the sound, the output
// callback takes the played buffer back, and between sounds the queue runs dry, as a game's
// effect voices do. After two seconds of warm-up the process's CPU time is read from
// /proc/self/task/*/schedstat (nanoseconds each thread has run) over SECONDS (default 10), with
// the number of threads and how many times they went to sleep. Prints one line:
//   queues=N threads=T cpu_ms=… cpu_percent=… per_queue_percent=… wakeups_per_s=… device=…
import AudioQueueKit
import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

let arguments = CommandLine.arguments
guard arguments.count >= 2, let queues = Int(arguments[1]), queues >= 0 else {
    print("usage: manyqueues QUEUES [SECONDS]")
    exit(2)
}
let seconds: Double = arguments.count > 2 ? Double(arguments[2]) ?? 10 : 10

/// `value` with `digits` decimals.
func fixed(_ value: Double, _ digits: Int) -> String {
    var scale: Int64 = 1
    for _ in 0..<digits { scale *= 10 }
    let scaled = Int64((abs(value) * Double(scale)).rounded())
    var text = String(scaled / scale)
    if digits > 0 {
        var fraction = String(scaled % scale)
        while fraction.count < digits { fraction = "0" + fraction }
        text += "." + fraction
    }
    return value < 0 ? "-" + text : text
}

AudioQueueKit.registerAll()
let rate = 48_000.0
let format = AudioStreamBasicDescription.linearPCM(sampleRate: rate, channels: 2, bitsPerChannel: 32, isFloat: true)
let soundFrames = Int(rate * 0.15)
var samples = [Float](repeating: 0, count: soundFrames * 2)
for i in 0..<soundFrames {
    let t = Double(i) / rate
    let envelope: Double = exp(-t * 20) * 0.3
    let value = Float(sin(2 * Double.pi * 660 * t) * envelope)
    samples[2 * i] = value
    samples[2 * i + 1] = value
}
let sound = samples

/// Buffers played and back from a queue, ready for the next sound.
final class FreeBuffers: Sendable {
    let list = Mutex<[AudioQueueBuffer]>([])
    func put(_ buffer: AudioQueueBuffer) { list.withLock { $0.append(buffer) } }
    func take() -> AudioQueueBuffer? { list.withLock { $0.popLast() } }
}

/// One effect voice: a queue and the buffers it plays its sound from.
final class Voice: Sendable {
    let queue: AudioQueue
    let free = FreeBuffers()

    init() throws {
        let free = self.free
        queue = try AudioQueue(format: format) { _, buffer in free.put(buffer) }
        for _ in 0..<2 {
            let buffer = try queue.allocateBuffer(byteCapacity: sound.count * 4)
            sound.withUnsafeBytes { buffer.audioData.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
            buffer.audioDataByteSize = sound.count * 4
            free.put(buffer)
        }
    }

    /// Plays the sound once more (skipped when both buffers are still playing).
    func trigger() {
        guard let buffer = free.take() else { return }
        do { try queue.enqueue(buffer) } catch { free.put(buffer) }
    }
}

/// The text of a small file in /proc.
func readText(_ path: String) -> String? {
    guard let file = fopen(path, "r") else { return nil }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
        let n = fread(&chunk, 1, chunk.count, file)
        if n <= 0 { break }
        bytes += chunk[0..<n]
    }
    return String(decoding: bytes, as: UTF8.self)
}

/// Nanoseconds run and voluntary switches of every thread of this process, and their number.
func threadTimes() -> (nanoseconds: UInt64, switches: UInt64, threads: Int) {
    var total: UInt64 = 0
    var switches: UInt64 = 0
    var threads = 0
    guard let dir = opendir("/proc/self/task") else { return (0, 0, 0) }
    defer { closedir(dir) }
    while let entry = readdir(dir) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        guard let first = name.first, first.isNumber else { continue }
        threads += 1
        if let text = readText("/proc/self/task/\(name)/schedstat"), let run = text.split(separator: " ").first {
            total += UInt64(run) ?? 0
        }
        if let status = readText("/proc/self/task/\(name)/status") {
            for line in status.split(separator: "\n") where line.hasPrefix("voluntary_ctxt_switches") {
                if let value = line.split(separator: "\t").last ?? line.split(separator: " ").last {
                    switches += UInt64(value.trimmingPrefix(" ")) ?? 0
                }
            }
        }
    }
    return (total, switches, threads)
}

/// The timer's handler: each call is the next 50 ms slot of the half second, and triggers the
/// voices whose turn it is.
final class Tick: Sendable {
    let count = Atomic<Int>(0)
}

nonisolated func triggers(_ voices: [Voice]) -> @Sendable () -> Void {
    let tick = Tick()
    return { @Sendable in
        let slot = tick.count.add(1, ordering: .relaxed).oldValue % 10
        let count = max(voices.count, 1)
        for i in 0..<voices.count where i * 10 / count == slot { voices[i].trigger() }
    }
}

do {
    var voices: [Voice] = []
    for _ in 0..<queues { voices.append(try Voice()) }
    for voice in voices { try voice.queue.start() }
    let all = voices
    // One timer for all voices, as a game's audio thread would trigger them: every 50 ms it
    // triggers the voices whose turn in the half second has come.
    let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "triggers"))
    timer.schedule(deadline: .now(), repeating: .milliseconds(50))
    timer.setEventHandler(handler: triggers(all))
    timer.resume()
    usleep(2_000_000)
    let before = threadTimes()
    let startedAt = DispatchTime.now().uptimeNanoseconds
    usleep(UInt32(seconds * 1_000_000))
    let after = threadTimes()
    let wall: Double = Double(DispatchTime.now().uptimeNanoseconds - startedAt) / 1e9
    timer.cancel()
    let device = all.first?.queue.currentDevice ?? "-"
    for voice in all { try voice.queue.dispose(immediate: true) }
    let cpuMs: Double = Double(after.nanoseconds - before.nanoseconds) / 1e6
    let percent: Double = cpuMs / 1000 / wall * 100
    let wakeups: Double = Double(after.switches - before.switches) / wall
    let perQueue: String = queues > 0 ? fixed(percent / Double(queues), 3) : "-"
    var line = "queues=\(queues) threads=\(after.threads)"
    line += " cpu_ms=" + fixed(cpuMs, 1)
    line += " cpu_percent=" + fixed(percent, 3)
    line += " per_queue_percent=" + perQueue
    line += " wakeups_per_s=" + fixed(wakeups, 0)
    line += " device=" + device
    print(line)
} catch {
    print("manyqueues: \(error)")
    exit(1)
}
