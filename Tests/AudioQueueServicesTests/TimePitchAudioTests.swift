import Testing
import AudioCore
import AudioQueueServices

/// What the time/pitch unit does to sound, through offline render with the real processors: a
/// 1 kHz sine keeps its frequency and takes 1/rate of its duration (Spectral, TimeDomain),
/// Varispeed shifts it with the rate, Pitch shifts it without the rate. Checked by zero
/// crossings and frame counts, never against earlier output.
@Suite("Time/pitch: the sound through the real processors")
struct TimePitchAudioTests {
    static let frames = 96000  // 2 s at 48 kHz

    /// Renders a 1 kHz sine of `frames` frames through a queue with `algorithm` at `rate` and
    /// `pitch`, to the end of the stream.
    func play(_ algorithm: TimePitchAlgorithm, rate: Float, pitch: Float = 0, channels: Int = 2) throws -> [Float] {
        let queue = try offlineFloatQueue(channels: channels)
        try queue.setTimePitchAlgorithm(algorithm)
        try queue.setTimePitchEnabled(true)
        try queue.setParameter(.playRate, rate)
        try queue.setParameter(.pitch, pitch)
        let input = sine(frequency: 1000, frames: Self.frames, channels: channels)
        // Buffers of 0.1 s, as a player would enqueue them.
        for start in stride(from: 0, to: Self.frames, by: 4800) {
            try queue.enqueue(try floatBuffer(queue, Array(input[(start * channels)..<((start + 4800) * channels)])))
        }
        try queue.start()
        let out = try renderAll(queue, chunk: 1024)
        try queue.dispose(immediate: true)
        return out
    }

    func expectDuration(_ out: [Float], channels: Int = 2, _ expected: Double, sourceLocation: SourceLocation = #_sourceLocation) {
        let got = Double(out.count / channels)
        #expect(abs(got - expected) <= expected * 0.005, "\(got) frames, expected \(expected) ± 0.5 %", sourceLocation: sourceLocation)
    }

    func expectFrequency(_ out: [Float], channels: Int = 2, _ expected: Double, sourceLocation: SourceLocation = #_sourceLocation) {
        let n = out.count / channels
        guard n > 9600 else {
            Issue.record("only \(n) frames", sourceLocation: sourceLocation)
            return
        }
        let f = zeroCrossingFrequency(out, channels: channels, range: 4800..<(n - 4800))
        #expect(abs(f - expected) <= 1, "\(f) Hz, expected \(expected) ± 1 Hz", sourceLocation: sourceLocation)
    }

    @Test(arguments: [TimePitchAlgorithm.spectral, .timeDomain])
    func rateOneAndAHalfKeepsThePitch(algorithm: TimePitchAlgorithm) throws {
        let out = try play(algorithm, rate: 1.5)
        expectDuration(out, Double(Self.frames) / 1.5)
        expectFrequency(out, 1000)
    }

    @Test func varispeedShiftsThePitchWithTheRate() throws {
        let out = try play(.varispeed, rate: 1.5)
        expectDuration(out, Double(Self.frames) / 1.5)
        expectFrequency(out, 1500)
    }

    @Test func pitchUpAnOctaveKeepsTheDuration() throws {
        let out = try play(.spectral, rate: 1, pitch: 1200)
        expectDuration(out, Double(Self.frames))
        expectFrequency(out, 2000)
    }

    /// A PlayRate event on the second buffer: 1 s at rate 1 and 1 s at rate 2 last 1.5 s.
    @Test(arguments: [TimePitchAlgorithm.spectral, .timeDomain, .varispeed])
    func playRateEventOnTheSecondBuffer(algorithm: TimePitchAlgorithm) throws {
        let queue = try offlineFloatQueue()
        try queue.setTimePitchAlgorithm(algorithm)
        try queue.setTimePitchEnabled(true)
        let input = sine(frequency: 1000, frames: 96000, channels: 2)
        try queue.enqueue(try floatBuffer(queue, Array(input[0..<96000])))
        let second = try floatBuffer(queue, Array(input[96000...]))
        try queue.enqueue(second, trimFramesAtStart: 0, trimFramesAtEnd: 0, parameterEvents: [AudioQueueParameterEvent(.playRate, 2)])
        try queue.start()
        let out = try renderAll(queue, chunk: 1024)
        expectDuration(out, 72000)
        if algorithm != .varispeed {
            // The first second plays at 1 kHz, the rest at 1 kHz too, twice as fast.
            #expect(abs(zeroCrossingFrequency(out, channels: 2, range: 4800..<43200) - 1000) <= 1)
            #expect(abs(zeroCrossingFrequency(out, channels: 2, range: 52800..<67200) - 1000) <= 1)
        } else {
            #expect(abs(zeroCrossingFrequency(out, channels: 2, range: 52800..<67200) - 2000) <= 2)
        }
        try queue.dispose(immediate: true)
    }

    /// Bypassed, a real unit passes the input through bit for bit.
    @Test func bypassIsBitExact() throws {
        let queue = try offlineFloatQueue()
        try queue.setTimePitchEnabled(true)
        try queue.setTimePitchBypassed(true)
        try queue.setParameter(.playRate, 1.5)
        let input = sine(frequency: 1000, frames: 30000, channels: 2)
        try queue.enqueue(try floatBuffer(queue, input))
        try queue.start()
        #expect(try renderAll(queue, chunk: 1000) == input)
        try queue.dispose(immediate: true)
    }

    /// The queue's time counts source frames: after N output frames at rate 1.5, about 1.5 N.
    @Test func queueTimeCountsSourceFrames() throws {
        let queue = try offlineFloatQueue()
        try queue.setTimePitchEnabled(true)
        try queue.setParameter(.playRate, 1.5)
        try queue.enqueue(try floatBuffer(queue, sine(frequency: 1000, frames: 96000, channels: 2)))
        try queue.start()
        for _ in 0..<3 { _ = try render(queue, frames: 10000) }
        let time = try queue.currentTime().timeStamp.sampleTime
        #expect(abs(time - 45000) <= 45000 * 0.005, "queue time \(time) after 30,000 frames at 1.5")
        try queue.dispose(immediate: true)
    }

    /// An asynchronous stop plays the whole stream, what the unit holds included; a reset
    /// drops it.
    @Test func asynchronousStopPlaysEverythingResetDrops() throws {
        let queue = try offlineFloatQueue()
        try queue.setTimePitchEnabled(true)
        try queue.setParameter(.playRate, 1.5)
        try queue.enqueue(try floatBuffer(queue, sine(frequency: 1000, frames: 48000, channels: 2)))
        try queue.start()
        try queue.stop(immediate: false)
        let out = try renderAll(queue, chunk: 4096)
        #expect(abs(out.count / 2 - 32000) <= 2, "\(out.count / 2) frames of 32,000")
        // The last 10 ms still carry the sine.
        let tail = out.suffix(480 * 2).map(abs).max() ?? 0
        #expect(tail > 0.3, "the tail peaks at \(tail)")

        try queue.start()
        try queue.enqueue(try floatBuffer(queue, [Float](repeating: 0.5, count: 48000 * 2)))
        _ = try render(queue, frames: 4096)
        try queue.reset()
        try queue.enqueue(try floatBuffer(queue, [Float](repeating: 0, count: 15000 * 2)))
        let after = try renderAll(queue, chunk: 1000)
        #expect(abs(after.count / 2 - 10000) <= 2)
        #expect((after.map(abs).max() ?? 1) < 1e-3, "what the unit held before the reset came out")
        try queue.dispose(immediate: true)
    }
}
