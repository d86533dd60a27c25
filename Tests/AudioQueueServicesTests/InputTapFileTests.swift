import Foundation
import Testing
import AudioCore
import AudioDeviceFile
import AudioQueueServices

/// An input queue's tap on audio recorded from a file (the file backend's input device), against
/// sox's decode of the same file.
@Suite("Processing taps on recorded files")
struct InputTapFileTests {
    /// A second of stereo tones, 16-bit, made by sox; and sox's decode of it to Float32.
    static func tones() throws -> (path: String, samples: [Float]) {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("aq-input-tap-\(getpid())").path
        let r = try runProcess("/usr/bin/sox", ["-n", "-r", "44100", "-b", "16", "-c", "2", base + ".wav", "synth", "1", "sine", "300", "sine", "700", "gain", "-3"])
        try #require(r.status == 0, "sox: \(r.err)")
        let d = try runProcess("/usr/bin/sox", [base + ".wav", "-t", "f32", "-e", "floating-point", base + ".f32"])
        try #require(d.status == 0, "sox: \(d.err)")
        defer { unlink(base + ".f32") }
        let samples = try Data(contentsOf: URL(fileURLWithPath: base + ".f32")).withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        return (base + ".wav", samples)
    }

    @Test func aGainTapHalvesWhatIsRecordedFromAFile() throws {
        let (path, reference) = try Self.tones()
        defer { unlink(path) }
        #expect(reference.count == 88_200)
        let device = try WAVFileInputDevice(path: path, sampleRate: 44100, channels: 2, pacing: .unpaced, periodFrames: 512)
        let recorder = InputRecorder()
        let format = AudioStreamBasicDescription.linearPCM(sampleRate: 44100, channels: 2, bitsPerChannel: 32, isFloat: true)
        let queue = try AudioInputQueue(format: format, device: device, callback: recorder.callback)
        // Room for the whole file: the device delivers it as fast as the queue takes it.
        for _ in 0..<12 { try queue.enqueue(try queue.allocateBuffer(byteCapacity: 4410 * 8)) }
        _ = try queue.makeProcessingTap(flags: .preEffects) { call in
            guard let n = try? call.getSourceAudio(frames: call.frameCount) else { return 0 }
            for c in 0..<call.channelCount {
                let b = call.buffer(channel: c)
                for i in 0..<n { b[i] *= 0.5 }
            }
            return n
        }
        try queue.start()
        #expect(eventually(within: 30) { recorder.allBytes.count >= 88_200 * 4 })
        try queue.stop(immediate: true)
        try queue.dispose(immediate: true)
        let recorded = Array(recorder.allFloats.prefix(88_200))
        let wrong = zip(recorded, reference).filter { abs($0 - $1 * 0.5) > 1e-7 }.count
        let first = zip(recorded, reference).enumerated().first { abs($0.element.0 - $0.element.1 * 0.5) > 1e-7 }
        #expect(recorded.count == 88_200 && wrong == 0,
                "\(wrong) of \(recorded.count) samples are not half the file's; the first at \(first.map { "\($0.offset): \($0.element.0) for \($0.element.1)" } ?? "-"); lost \((try? queue.lostFrameCount) ?? -1)")
    }
}
