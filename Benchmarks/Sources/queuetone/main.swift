// queuetone: plays the tone unittone plays (440 Hz, 48 kHz stereo, 32-bit float interleaved, a
// quarter of full scale) for SECONDS through an output queue: three buffers of FRAMES frames
// (4096 unless given), each refilled with the next stretch of the sine in the queue's callback.
// Run by Benchmarks/units/run, which times the whole process.
//
//   queuetone SECONDS [FRAMES]
import AudioQueueKit
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

func fail(_ message: String) -> Never {
    var line = message + "\n"
    line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
    exit(1)
}

let arguments = CommandLine.arguments
guard arguments.count >= 2, let seconds = Double(arguments[1]), seconds > 0 else { fail("usage: queuetone SECONDS [FRAMES]") }
let frames = arguments.count > 2 ? max(16, Int(arguments[2]) ?? 4096) : 4096

AudioQueueKit.registerAll()
let rate = 48_000.0

/// The sine, a buffer at a time (the callbacks run one at a time, on the queue's thread).
final class Tone: Sendable {
    let rate: Double
    let frames: Int
    /// Frames of the sine written so far.
    let written = Mutex<Double>(0)

    init(rate: Double, frames: Int) {
        self.rate = rate
        self.frames = frames
    }

    /// Fills `buffer` with the next ``frames`` frames.
    func fill(_ buffer: AudioQueueBuffer) {
        guard let samples = buffer.data.baseAddress?.assumingMemoryBound(to: Float.self) else { return }
        let first = written.withLock { w in
            defer { w += Double(frames) }
            return w
        }
        for i in 0..<frames {
            let value = Float(0.25 * sin(2 * Double.pi * 440 * (first + Double(i)) / rate))
            samples[2 * i] = value
            samples[2 * i + 1] = value
        }
        buffer.audioDataByteSize = frames * 8
    }
}
let tone = Tone(rate: rate, frames: frames)

let queue: AudioQueue
do {
    queue = try AudioQueue(format: .float32(sampleRate: rate, channels: 2)) { [tone] queue, buffer in
        tone.fill(buffer)
        try? queue.enqueue(buffer)
    }
    for _ in 0..<3 {
        let buffer = try queue.allocateBuffer(byteCapacity: frames * 8)
        tone.fill(buffer)
        try queue.enqueue(buffer)
    }
    try queue.start()
} catch {
    fail("queuetone: \(error)")
}
usleep(UInt32(seconds * 1_000_000))
do {
    try queue.stop(immediate: true)
    try queue.dispose(immediate: true)
} catch {
    fail("queuetone: \(error)")
}
