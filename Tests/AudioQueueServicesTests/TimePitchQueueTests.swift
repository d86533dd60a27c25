import Testing
import AudioCore
import AudioDevices
import AudioQueueServices

/// The time/pitch properties and parameters of an output queue, and the queue's side of the
/// time/pitch unit (where rate changes fall, the end of the stream, reset, bypass, the queue's
/// time), with a stand-in processor whose output is known frame for frame.
@Suite("Time/pitch: properties, parameters, the queue's side of the unit")
struct TimePitchQueueTests {
    /// An offline Float32 queue with the stand-in unit enabled at `rate`.
    func standInQueue(rate: Float = 1, channels: Int = 2, latency: Int = 300) throws -> AudioQueue {
        let queue = try offlineFloatQueue(channels: channels)
        queue.setTimePitchProcessorFactory(StandInTimePitch.factory(latency: latency))
        try queue.setTimePitchEnabled(true)
        try queue.setParameter(.playRate, rate)
        return queue
    }

    func u32(_ queue: AudioQueue, _ id: AudioQueuePropertyID) throws -> UInt32 {
        var value: UInt32 = 0
        let n = try withUnsafeMutableBytes(of: &value) { try queue.getProperty(id.rawValue, into: $0) }
        #expect(n == 4)
        return value
    }

    func setU32(_ queue: AudioQueue, _ id: AudioQueuePropertyID, _ value: UInt32) throws {
        try withUnsafeBytes(of: value) { try queue.setProperty(id.rawValue, from: $0) }
    }

    @Test func defaults() throws {
        let queue = try offlineFloatQueue()
        #expect(try !queue.isTimePitchEnabled)
        #expect(try queue.timePitchAlgorithm == .spectral)
        #expect(try !queue.isTimePitchBypassed)
        #expect(try queue.parameter(.playRate) == 1)
        #expect(try queue.parameter(.pitch) == 0)
        #expect(try u32(queue, .enableTimePitch) == 0)
        #expect(try u32(queue, .timePitchAlgorithm) == 0x7370_6563)  // 'spec'
        #expect(try u32(queue, .timePitchBypass) == 0)
        for id in [AudioQueuePropertyID.enableTimePitch, .timePitchAlgorithm, .timePitchBypass] {
            #expect(try queue.propertySize(id.rawValue) == 4)
        }
    }

    @Test func parametersRoundTripAndRanges() throws {
        let queue = try offlineFloatQueue()
        // Stored and read back with the unit off, as a Mac does.
        for rate: Float in [0.5, 0.75, 1.5, 2] {
            try queue.setParameter(.playRate, rate)
            #expect(try queue.parameter(.playRate) == rate)
        }
        for cents: Float in [-2400, -1200, 0, 700, 2400] {
            try queue.setParameter(id: 3, cents)
            #expect(try queue.parameter(id: 3) == cents)
        }
        expectCode(.invalidParameter) { try queue.setParameter(.playRate, 0.49) }
        expectCode(.invalidParameter) { try queue.setParameter(.playRate, 2.01) }
        expectCode(.invalidParameter) { try queue.setParameter(.playRate, .nan) }
        expectCode(.invalidParameter) { try queue.setParameter(.pitch, -2401) }
        expectCode(.invalidParameter) { try queue.setParameter(.pitch, .infinity) }
        #expect(try queue.parameter(.playRate) == 2)
        #expect(try queue.parameter(.pitch) == 2400)
        let b = try floatBuffer(queue, [1, 2])
        expectCode(.invalidParameter) {
            try queue.enqueue(b, trimFramesAtStart: 0, trimFramesAtEnd: 0, parameterEvents: [AudioQueueParameterEvent(.playRate, 3)])
        }
        expectCode(.invalidParameter) {
            try queue.enqueue(b, trimFramesAtStart: 0, trimFramesAtEnd: 0, parameterEvents: [AudioQueueParameterEvent(.pitch, 2500)])
        }
    }

    @Test func propertiesRoundTripByID() throws {
        let queue = try offlineFloatQueue()
        queue.setTimePitchProcessorFactory(StandInTimePitch.factory())
        try setU32(queue, .timePitchAlgorithm, 0x7469_646F)  // 'tido'
        #expect(try queue.timePitchAlgorithm == .timeDomain)
        try setU32(queue, .enableTimePitch, 1)
        #expect(try queue.isTimePitchEnabled)
        try setU32(queue, .timePitchBypass, 1)
        #expect(try u32(queue, .timePitchBypass) == 1)
        try queue.setTimePitchAlgorithm(.varispeed)
        #expect(try u32(queue, .timePitchAlgorithm) == 0x7673_7064)
        try queue.setTimePitchAlgorithm(.lowQualityZeroLatency)
        #expect(try queue.timePitchAlgorithm == .lowQualityZeroLatency)
        try setU32(queue, .enableTimePitch, 0)
        #expect(try !queue.isTimePitchEnabled)
        let two: [UInt8] = [1, 0]
        expectCode(.invalidPropertySize) { try two.withUnsafeBytes { try queue.setProperty(AudioQueuePropertyID.enableTimePitch.rawValue, from: $0) } }
        expectCode(.invalidPropertySize) { try two.withUnsafeBytes { try queue.setProperty(AudioQueuePropertyID.timePitchBypass.rawValue, from: $0) } }
        var small = [UInt8](repeating: 0, count: 2)
        expectCode(.invalidPropertySize) { _ = try small.withUnsafeMutableBytes { try queue.getProperty(AudioQueuePropertyID.timePitchAlgorithm.rawValue, into: $0) } }
    }

    @Test func unknownAlgorithmIsRefused() throws {
        let queue = try offlineFloatQueue()
        expectCode(.invalidPropertyValue) { try queue.setTimePitchAlgorithm(TimePitchAlgorithm(rawValue: 0x7870_7878)) }
        expectCode(.invalidPropertyValue) { try setU32(queue, .timePitchAlgorithm, 0) }
        #expect(try queue.timePitchAlgorithm == .spectral)
    }

    /// Enabling and the algorithm only while stopped and unprimed; bypass at any time.
    @Test func stateRules() throws {
        let queue = try standInQueue()
        try queue.enqueue(try floatBuffer(queue, sine(frequency: 1000, frames: 4800, channels: 2)))
        try queue.prime()
        expectCode(.invalidRunState) { try queue.setTimePitchEnabled(false) }
        expectCode(.invalidRunState) { try queue.setTimePitchAlgorithm(.timeDomain) }
        try queue.start()
        expectCode(.invalidRunState) { try queue.setTimePitchEnabled(false) }
        expectCode(.invalidRunState) { try setU32(queue, .enableTimePitch, 0) }
        expectCode(.invalidRunState) { try queue.setTimePitchAlgorithm(.timeDomain) }
        expectCode(.invalidRunState) { try setU32(queue, .timePitchAlgorithm, 0x7673_7064) }
        try queue.setTimePitchBypassed(true)
        try queue.setTimePitchBypassed(false)
        try queue.setParameter(.playRate, 0.5)
        try queue.pause()
        expectCode(.invalidRunState) { try queue.setTimePitchEnabled(false) }
        expectCode(.invalidRunState) { try queue.setTimePitchAlgorithm(.timeDomain) }
        try setU32(queue, .timePitchBypass, 1)
        try queue.stop(immediate: true)
        try queue.setTimePitchAlgorithm(.timeDomain)
        try queue.setTimePitchEnabled(false)
        try queue.setTimePitchEnabled(true)
        #expect(try queue.isTimePitchEnabled && queue.isTimePitchBypassed && queue.timePitchAlgorithm == .timeDomain)
        try queue.dispose(immediate: true)
    }

    @Test func inputQueueHasNoTimePitch() throws {
        let format = AudioStreamBasicDescription.linearPCM(sampleRate: 48000, channels: 1, bitsPerChannel: 32, isFloat: true)
        let queue = try AudioInputQueue(format: format, device: RefusingInputDevice(.openFailed)) { _, _, _, _, _ in }
        var four = [UInt8](repeating: 1, count: 4)
        for id in [AudioQueuePropertyID.enableTimePitch, .timePitchAlgorithm, .timePitchBypass] {
            expectCode(.invalidProperty) { _ = try queue.propertySize(id.rawValue) }
            expectCode(.invalidProperty) { _ = try four.withUnsafeMutableBytes { try queue.getProperty(id.rawValue, into: $0) } }
            expectCode(.invalidProperty) { try four.withUnsafeBytes { try queue.setProperty(id.rawValue, from: $0) } }
        }
    }

    // MARK: The queue's side of the unit

    /// 48,000 frames at rate 1.5 come out as 32,000, the frames the unit holds back included:
    /// offline render reaching the end gives them out.
    @Test func offlineEndGivesOutWhatTheUnitHolds() throws {
        let queue = try standInQueue(rate: 1.5)
        try queue.enqueue(try floatBuffer(queue, ramp(frames: 48000, channels: 2)))
        try queue.start()
        let out = try renderAll(queue, chunk: 1000)
        #expect(out.count / 2 == 32000)
        try queue.dispose(immediate: true)
    }

    /// A PlayRate event on the second buffer applies from that buffer's first frame: 24,000
    /// frames at rate 1 then 24,000 at rate 2 make 36,000, the first 24,000 the input itself.
    @Test func playRateEventAppliesFromItsBuffer() throws {
        let queue = try standInQueue(rate: 1)
        let first = ramp(frames: 24000, channels: 2)
        try queue.enqueue(try floatBuffer(queue, first))
        let second = try floatBuffer(queue, ramp(frames: 24000, channels: 2, from: 24000))
        try queue.enqueue(second, trimFramesAtStart: 0, trimFramesAtEnd: 0, parameterEvents: [AudioQueueParameterEvent(.playRate, 2)])
        try queue.start()
        let out = try renderAll(queue, chunk: 777)
        #expect(out.count / 2 == 36000)
        guard out.count / 2 == 36000 else { return }
        #expect(Array(out[0..<(24000 * 2)]) == first)
        // The rate changes at the second buffer's first frame.
        #expect(out[24000 * 2] == ramp(frames: 1, channels: 2, from: 24000)[0])
        #expect(try queue.parameter(.playRate) == 2)
        try queue.dispose(immediate: true)
    }

    /// Buffer start times are in queue time (source frames): at rate 2, a buffer scheduled
    /// 4800 frames after the end of the first starts 2400 output frames later, and the
    /// enqueue reports the start time asked for.
    @Test func startTimesAreInQueueTime() throws {
        let queue = try standInQueue(rate: 2)
        try queue.enqueue(try floatBuffer(queue, [Float](repeating: 0.5, count: 4800 * 2)))
        let later = try floatBuffer(queue, [Float](repeating: 0.25, count: 4800 * 2))
        let stamp = try queue.enqueue(later, trimFramesAtStart: 0, trimFramesAtEnd: 0, startTime: .sampleTime(9600))
        #expect(stamp.sampleTime == 9600)
        try queue.start()
        let out = try renderAll(queue, chunk: 1000)
        #expect(out.count / 2 == 2400 + 2400 + 2400)
        guard out.count / 2 == 7200 else { return }
        #expect(out[2 * 2399] == 0.5 && out[2 * 2400] == 0 && out[2 * 4799] == 0 && out[2 * 4800] == 0.25)
        try queue.dispose(immediate: true)
    }

    /// The queue's time counts source frames: N output frames at rate 1.5 are 1.5 N.
    @Test func queueTimeAtRateOneAndAHalf() throws {
        let queue = try standInQueue(rate: 1.5)
        try queue.enqueue(try floatBuffer(queue, ramp(frames: 96000, channels: 2)))
        try queue.start()
        _ = try render(queue, frames: 10000)
        _ = try render(queue, frames: 20000)
        let time = try queue.currentTime().timeStamp.sampleTime
        #expect(abs(time - 45000) <= 2, "queue time \(time) after 30,000 output frames at 1.5")
        try queue.dispose(immediate: true)
    }

    /// An asynchronous stop plays everything, what the unit holds included.
    @Test func asynchronousStopPlaysTheTail() throws {
        let queue = try standInQueue(rate: 2, latency: 2000)
        try queue.enqueue(try floatBuffer(queue, ramp(frames: 30000, channels: 2)))
        try queue.start()
        try queue.stop(immediate: false)
        let out = try renderAll(queue, chunk: 4096)
        #expect(out.count / 2 == 15000)
        try queue.dispose(immediate: true)
    }

    /// A reset drops what the unit holds: nothing of the first stream comes out after it.
    @Test func resetDropsWhatTheUnitHolds() throws {
        let queue = try standInQueue(rate: 1.5, latency: 2000)
        try queue.enqueue(try floatBuffer(queue, [Float](repeating: 0.5, count: 48000 * 2)))
        try queue.start()
        _ = try render(queue, frames: 4000)
        try queue.reset()
        try queue.enqueue(try floatBuffer(queue, [Float](repeating: 0.25, count: 15000 * 2)))
        let out = try renderAll(queue, chunk: 1000)
        #expect(out.count / 2 == 10000)
        #expect(!out.contains(0.5))
        try queue.dispose(immediate: true)
    }

    /// Bypassed, the audio passes through untouched, bit for bit, at rate 1.
    @Test func bypassPlaysTheInputUnchanged() throws {
        let queue = try standInQueue(rate: 1.5)
        try queue.setTimePitchBypassed(true)
        let input = sine(frequency: 1000, frames: 20000, channels: 2).enumerated().map { $0.element + Float($0.offset % 7) * 1e-5 }
        try queue.enqueue(try floatBuffer(queue, input))
        try queue.start()
        let out = try renderAll(queue, chunk: 999)
        #expect(out == input)
        let time = try queue.currentTime().timeStamp.sampleTime
        #expect(time == 20000)
        try queue.dispose(immediate: true)
    }

    /// With the unit off, PlayRate set to 2 changes nothing.
    @Test func playRateWithoutTheUnitIsStoredOnly() throws {
        let queue = try offlineFloatQueue()
        try queue.setParameter(.playRate, 2)
        let input = ramp(frames: 5000, channels: 2)
        try queue.enqueue(try floatBuffer(queue, input))
        try queue.start()
        #expect(try renderAll(queue) == input)
        try queue.dispose(immediate: true)
    }
}
