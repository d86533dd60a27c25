// unittone: plays a 440 Hz sine (48 kHz stereo, 32-bit float interleaved, a quarter of full
// scale) for SECONDS through the default output unit's render callback, the way a synthesizer
// plays; the twin of queuetone, which plays the same tone through an output queue. Run by
// Benchmarks/units/run, which times the whole process.
//
//   unittone SECONDS [FRAMES]    FRAMES: the unit's I/O cycle (bufferFrameSize), 512 unless given
import AudioQueueKit

#if canImport(Glibc)
import Glibc
#endif

func fail(_ message: String) -> Never {
    var line = message + "\n"
    line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
    exit(1)
}

let arguments = CommandLine.arguments
guard arguments.count >= 2, let seconds = Double(arguments[1]), seconds > 0 else { fail("usage: unittone SECONDS [FRAMES]") }
let cycle = arguments.count > 2 ? Int(arguments[2]) : nil

AudioQueueKit.registerAll()
guard let component = AudioComponent.findNext(matching: .defaultOutput),
    let unit = component.instantiate() as? AudioOutputUnit
else { fail("unittone: no default output unit") }

let rate = 48_000.0
do {
    try unit.setStreamFormat(.float32(sampleRate: rate, channels: 2), scope: .input, element: 0)
    if let cycle { try unit.setBufferFrameSize(cycle) }
    try unit.setInputSource(.callback { [rate] _, time, _, frames, data in
        guard let samples = data?[0].data?.assumingMemoryBound(to: Float.self) else { return -50 }
        let first = time.sampleTime
        for i in 0..<Int(frames) {
            let value = Float(0.25 * sin(2 * Double.pi * 440 * (first + Double(i)) / rate))
            samples[2 * i] = value
            samples[2 * i + 1] = value
        }
        return 0
    })
    try unit.initialize()
    try unit.start()
} catch {
    fail("unittone: \(error)")
}
usleep(UInt32(seconds * 1_000_000))
unit.stop()
unit.uninitialize()
