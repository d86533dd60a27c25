import Foundation
import Testing
import Locking
import AudioCore
import AudioCodecs
import AudioDevices
import AudioQueueServices

/// The input queue against a device the test drives frame by frame (``TestInputDevice``):
/// what comes back, in which order, with which start times, and what is lost when the program
/// does not enqueue buffers.
@Suite("Input queue")
struct InputQueueTests {
    static let rate = 48000.0
    static let float2 = AudioStreamBasicDescription.linearPCM(sampleRate: rate, channels: 2, bitsPerChannel: 32, isFloat: true)

    /// A queue recording `format` from a fresh test device, with `buffers` buffers of
    /// `frames` frames each enqueued.
    func makeQueue(
        _ format: AudioStreamBasicDescription = float2, buffers: Int = 3, bytes: Int = 4800 * 8, recorder: InputRecorder
    ) throws -> (AudioInputQueue, TestInputDevice) {
        let device = TestInputDevice(sampleRate: format.sampleRate, channels: Int(format.channelsPerFrame))
        let queue = try AudioInputQueue(format: format, device: device, callback: recorder.callback)
        for _ in 0..<buffers { try queue.enqueue(try queue.allocateBuffer(byteCapacity: bytes)) }
        return (queue, device)
    }

    /// Expects `got` to equal `expected`, saying where they first differ (not both arrays).
    func expectSame(_ got: [Float], _ expected: [Float], sourceLocation: SourceLocation = #_sourceLocation) {
        let first = (0..<min(got.count, expected.count)).first { got[$0] != expected[$0] } ?? (got.count == expected.count ? nil : min(got.count, expected.count))
        #expect(first == nil, "\(got.count) samples, \(expected.count) expected; first difference at \(first ?? 0)", sourceLocation: sourceLocation)
    }

    func expectedRamp(from: Int64, frames: Int, channels: Int) -> [Float] {
        var out: [Float] = []
        out.reserveCapacity(frames * channels)
        for f in 0..<Int64(frames) {
            for c in 0..<channels { out.append(TestInputDevice.value(frame: from + f, channel: c)) }
        }
        return out
    }

    @Test func everyFrameArrivesInOrderWithItsStartTime() throws {
        let recorder = InputRecorder()
        let (queue, device) = try makeQueue(recorder: recorder)
        try queue.start()
        // 30 buffers' worth, pushed as a device would: a block at a time, never more than the
        // enqueued buffers can take before the callbacks give them back.
        for i in 0..<30 {
            device.push(frames: 4800)
            #expect(eventually { recorder.count >= i + 1 })
        }
        device.push(frames: 1000)
        try queue.stop(immediate: false)
        #expect(eventually { queue.state == .stopped && !queue.isRunning })
        let deliveries = recorder.deliveries
        let withData = deliveries.filter { $0.packetCount > 0 }
        #expect(withData.count == 31)
        var next: Int64 = 0
        for d in withData {
            #expect(d.startTime.sampleTime == Double(next))
            #expect(d.startTime.flags.contains(.hostTimeValid))
            // The device's own time for that frame (to the nanosecond, less rounding).
            let expected = device.hostTime(ofFrame: next)
            #expect(max(d.startTime.hostTime, expected) - min(d.startTime.hostTime, expected) <= 1000)
            #expect(d.bytes.count == d.packetCount * 8)
            next += Int64(d.packetCount)
        }
        #expect(next == 30 * 4800 + 1000)
        expectSame(recorder.allFloats, expectedRamp(from: 0, frames: 30 * 4800 + 1000, channels: 2))
        #expect(try queue.lostFrameCount == 0)
        #expect(queue.converterError == 0)
        // The asynchronous stop asked the device for what it still held.
        #expect(device.stops.first == true)
    }

    @Test func framesWithNoBufferAreDroppedAndTheNextStartTimeJumps() throws {
        let recorder = InputRecorder()
        let (queue, device) = try makeQueue(buffers: 2, recorder: recorder)
        let notices = Guarded<[OSStatus]>([])
        try queue.addPropertyListener(.converterError) { q, _ in
            let error = q.converterError
            notices.withLock { $0.append(error) }
        }
        try queue.start()
        let timeline = try queue.makeTimeline()
        recorder.hold()
        device.push(frames: 9600)
        #expect(eventually { recorder.count == 2 })
        // The program holds both buffers: what is recorded now has nowhere to go.
        device.push(frames: 14400)
        #expect(eventually { (try? queue.lostFrameCount) == 14400 })
        try recorder.release(to: queue)
        device.push(frames: 9600)
        #expect(eventually { recorder.count == 4 })
        let d = recorder.deliveries
        #expect(d.map(\.startTime.sampleTime) == [0, 4800, 24000, 28800])
        #expect(d.map(\.packetCount) == [4800, 4800, 4800, 4800])
        // Nothing else is lost: the buffers after the gap hold exactly the frames after it.
        expectSame(recorder.allFloats, expectedRamp(from: 0, frames: 9600, channels: 2) + expectedRamp(from: 24000, frames: 9600, channels: 2))
        #expect(queue.converterError == AudioQueueError.Code.recordUnderrun.rawValue)
        #expect(eventually { notices.withLock { $0 } == [AudioQueueError.Code.recordUnderrun.rawValue] })
        #expect(try queue.currentTime(timeline: timeline).discontinuity)
        #expect(try queue.currentTime(timeline: timeline).timeStamp.sampleTime == 33600)
        try queue.dispose(immediate: true)
    }

    @Test func aDeviceThatLostFramesMovesTheTimelineOn() throws {
        let recorder = InputRecorder()
        let (queue, device) = try makeQueue(buffers: 3, recorder: recorder)
        try queue.start()
        let timeline = try queue.makeTimeline()
        device.push(frames: 2400)
        device.skip(frames: 1200)
        device.push(frames: 2400)
        try queue.stop(immediate: false)
        #expect(eventually { queue.state == .stopped })
        // The device's own gap is in its host times: the queue's timeline follows the frames it
        // was given (a discontinuity only when it drops them itself).
        let d = recorder.deliveries.filter { $0.packetCount > 0 }
        #expect(d.first?.packetCount == 4800)
        #expect(try queue.currentTime(timeline: timeline).discontinuity == false)
    }

    /// An asynchronous stop delivers what the device still held, and waits for the callbacks
    /// to give buffers back rather than dropping what does not fit in those enqueued.
    @Test func anAsynchronousStopLosesNothingTheDeviceHeld() throws {
        let recorder = InputRecorder()
        let (queue, device) = try makeQueue(buffers: 2, recorder: recorder)
        try queue.start()
        device.push(frames: 2000)
        // Three buffers' worth more, held by the device until the stop drains it.
        device.holdUntilDrained(frames: 14400)
        try queue.stop(immediate: false)
        #expect(eventually { queue.state == .stopped && !queue.isRunning })
        #expect(try queue.lostFrameCount == 0)
        let withData = recorder.deliveries.filter { $0.packetCount > 0 }
        #expect(withData.map(\.packetCount).reduce(0, +) == 16400)
        expectSame(recorder.allFloats, expectedRamp(from: 0, frames: 16400, channels: 2))
        try queue.dispose(immediate: true)
    }

    @Test func anImmediateStopHandsBackThePartialBufferAndTheEmptyOnes() throws {
        let recorder = InputRecorder()
        let (queue, device) = try makeQueue(buffers: 3, recorder: recorder)
        try queue.start()
        device.push(frames: 6000)
        #expect(eventually { recorder.count == 1 })
        // The device has delivered 1200 frames into the second buffer's time when the stop
        // comes: that buffer comes back with all of them (as a Mac's queue does), whether or
        // not the capture thread had taken them from the device yet.
        try queue.stop(immediate: true)
        let d = recorder.deliveries
        #expect(d.count >= 3)
        #expect(d[0].packetCount == 4800)
        #expect(d[1].packetCount == 1200)
        expectSame(d[1].bytes.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }, expectedRamp(from: 4800, frames: d[1].packetCount, channels: 2))
        #expect(d.dropFirst(2).allSatisfy { $0.packetCount == 0 && $0.bytes.isEmpty })
        #expect(queue.state == .stopped)
        // Re-enqueueing from inside the callbacks of a stop is refused, as Apple's queue does.
        #expect(recorder.enqueueErrors.allSatisfy { $0 == .enqueueDuringReset })
    }

    @Test func resetDiscardsWhatWasRecordedAndKeepsRunning() throws {
        let recorder = InputRecorder()
        let (queue, device) = try makeQueue(buffers: 2, recorder: recorder)
        try queue.start()
        device.push(frames: 1000)
        #expect(eventually { device.framesCaptured == 1000 })
        recorder.hold()
        try queue.reset()
        #expect(queue.state == .running)
        let returned = recorder.deliveries
        #expect(returned.count == 2 && returned.allSatisfy { $0.packetCount == 0 })
        try recorder.release(to: queue)
        device.push(frames: 4800)
        #expect(eventually { recorder.count == 3 })
        // The frames after the reset start where the timeline is: the discarded ones counted.
        #expect(recorder.deliveries[2].startTime.sampleTime == 1000)
        expectSame(recorder.deliveries[2].bytes.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }, expectedRamp(from: 1000, frames: 4800, channels: 2))
        try queue.dispose(immediate: true)
    }

    @Test func flushHandsBackWhatIsThere() throws {
        let recorder = InputRecorder()
        let (queue, device) = try makeQueue(buffers: 2, recorder: recorder)
        try queue.start()
        device.push(frames: 700)
        try queue.flush()
        #expect(eventually { recorder.count == 1 })
        #expect(recorder.deliveries[0].packetCount == 700)
        try queue.dispose(immediate: true)
    }

    /// Integer, big-endian, non-interleaved and 8-bit formats: the bytes are the ramp converted
    /// as the formats define (round to nearest, clip), computed here independently.
    @Test(arguments: [16, 24, 32])
    func integerFormats(bits: Int) throws {
        let format = AudioStreamBasicDescription.linearPCM(sampleRate: Self.rate, channels: 2, bitsPerChannel: UInt32(bits), isBigEndian: bits == 16)
        let recorder = InputRecorder()
        let frameBytes = 2 * bits / 8
        let (queue, device) = try makeQueue(format, buffers: 2, bytes: 480 * frameBytes, recorder: recorder)
        try queue.start()
        device.push(frames: 960)
        #expect(eventually { recorder.count == 2 })
        let bytes = recorder.allBytes
        let ramp = expectedRamp(from: 0, frames: 960, channels: 2)
        #expect(bytes.count == 960 * frameBytes)
        let scale = Double(1 << (bits - 1))
        for (i, x) in ramp.enumerated() {
            let v = Int64(max(min((Double(x) * scale).rounded(.toNearestOrEven), scale - 1), -scale))
            var word = UInt64(bitPattern: v)
            var got: UInt64 = 0
            let width = bits / 8
            for b in 0..<width {
                let byte = UInt64(bytes[i * width + (bits == 16 ? width - 1 - b : b)])
                got |= byte << (8 * b)
            }
            word &= (1 << (8 * width)) - 1
            #expect(got == word, "sample \(i)")
            if got != word { break }
        }
        try queue.dispose(immediate: true)
    }

    @Test func nonInterleavedFloat() throws {
        var format = AudioStreamBasicDescription.linearPCM(sampleRate: Self.rate, channels: 2, bitsPerChannel: 32, isFloat: true)
        format.formatFlags.insert(.isNonInterleaved)
        format.bytesPerFrame = 4
        format.bytesPerPacket = 4
        let recorder = InputRecorder()
        let (queue, device) = try makeQueue(format, buffers: 1, bytes: 480 * 8, recorder: recorder)
        try queue.start()
        device.push(frames: 480)
        #expect(eventually { recorder.count == 1 })
        let floats = recorder.allFloats
        let ramp = expectedRamp(from: 0, frames: 480, channels: 2)
        try #require(floats.count == 960)
        #expect(Array(floats[0..<480]) == stride(from: 0, to: 960, by: 2).map { ramp[$0] })
        #expect(Array(floats[480..<960]) == stride(from: 1, to: 960, by: 2).map { ramp[$0] })
        try queue.dispose(immediate: true)
    }

    /// The meter reads what was captured: sines of amplitude 0.5 and 0.25 give those peaks
    /// and RMS levels of amplitude / √2, and −6.02 dB between the channels.
    @Test func meteringMeasuresWhatIsCaptured() throws {
        let rate = Self.rate
        let device = TestInputDevice(sampleRate: rate, channels: 2) { frame, channel in
            Float((channel == 0 ? 0.5 : 0.25) * sin(2 * Double.pi * 1000 * Double(frame) / rate))
        }
        let recorder = InputRecorder()
        let queue = try AudioInputQueue(format: Self.float2, device: device, callback: recorder.callback)
        for _ in 0..<3 { try queue.enqueue(try queue.allocateBuffer(byteCapacity: 4800 * 8)) }
        #expect { try queue.currentLevelMeter() } throws: { ($0 as? AudioQueueError)?.code == .invalidPropertyValue }
        try queue.setLevelMeteringEnabled(true)
        try queue.start()
        device.push(frames: 9600)
        #expect(eventually { recorder.count >= 2 })
        let levels = try queue.currentLevelMeter()
        try #require(levels.count == 2)
        #expect(abs(levels[0].peakPower - 0.5) < 1e-3 && abs(levels[1].peakPower - 0.25) < 1e-3)
        #expect(abs(Double(levels[0].averagePower) - 0.5 / 2.squareRoot()) < 5e-3 && abs(Double(levels[1].averagePower) - 0.25 / 2.squareRoot()) < 5e-3)
        let db = try queue.currentLevelMeterDB()
        #expect(abs((db[0].averagePower - db[1].averagePower) - 6.02) < 0.05)
        try queue.dispose(immediate: true)
    }

    /// A device recording another channel count than the queue's: one channel goes to every
    /// channel, several are averaged into one.
    @Test(arguments: [(1, 2), (2, 1)])
    func channelCountsAreMapped(device deviceChannels: Int, queue queueChannels: Int) throws {
        let device = TestInputDevice(sampleRate: Self.rate, channels: deviceChannels)
        let format = AudioStreamBasicDescription.linearPCM(sampleRate: Self.rate, channels: UInt32(queueChannels), bitsPerChannel: 32, isFloat: true)
        let recorder = InputRecorder()
        let queue = try AudioInputQueue(format: format, device: device, callback: recorder.callback)
        try queue.enqueue(try queue.allocateBuffer(byteCapacity: 480 * 4 * queueChannels))
        try queue.start()
        device.push(frames: 480)
        #expect(eventually { recorder.count == 1 })
        let floats = recorder.allFloats
        try #require(floats.count == 480 * queueChannels)
        for f in 0..<480 {
            let frame = Int64(f)
            if deviceChannels == 1 {
                let x = TestInputDevice.value(frame: frame, channel: 0)
                #expect(floats[f * 2] == x && floats[f * 2 + 1] == x)
            } else {
                let mean = (TestInputDevice.value(frame: frame, channel: 0) + TestInputDevice.value(frame: frame, channel: 1)) / 2
                #expect(abs(floats[f] - mean) <= 1e-7)
            }
        }
        try queue.dispose(immediate: true)
    }

    /// AC-3, which nothing encodes (AAC has an encoder once `AudioQueueKit.registerAll()` has run,
    /// as tests elsewhere in this process may have done).
    @Test func aFormatWithNoEncoderIsRefusedNamingIt() {
        let ac3 = AudioStreamBasicDescription(
            sampleRate: 48000, formatID: AudioFormatID(rawValue: 0x6163_2D33), formatFlags: [], bytesPerPacket: 0, framesPerPacket: 1536,
            bytesPerFrame: 0, channelsPerFrame: 2, bitsPerChannel: 0)
        do {
            _ = try AudioInputQueue(format: ac3) { _, _, _, _, _ in }
            Issue.record("AC-3 was accepted")
        } catch {
            #expect(error.code == .codecNotFound)
            #expect(error.reason.contains("ac-3"))
        }
    }

    @Test func misuseGivesApplesCodes() throws {
        let recorder = InputRecorder()
        let (queue, _) = try makeQueue(buffers: 0, recorder: recorder)
        let buffer = try queue.allocateBuffer(byteCapacity: 4800)
        try queue.enqueue(buffer)
        #expect { try queue.enqueue(buffer) } throws: { ($0 as? AudioQueueError)?.code == .bufferEnqueuedTwice }
        #expect { try queue.freeBuffer(buffer) } throws: { ($0 as? AudioQueueError)?.code == .bufferInQueue }
        let tiny = try queue.allocateBuffer(byteCapacity: 4)
        #expect { try queue.enqueue(tiny) } throws: { ($0 as? AudioQueueError)?.code == .invalidParameter }
        let other = try AudioInputQueue(format: Self.float2, device: TestInputDevice(sampleRate: Self.rate, channels: 2)) { _, _, _, _, _ in }
        let foreign = try other.allocateBuffer(byteCapacity: 4800)
        #expect { try queue.enqueue(foreign) } throws: { ($0 as? AudioQueueError)?.code == .invalidBuffer }
        #expect { _ = try queue.propertySize(AudioQueuePropertyID.decodeBufferSizeFrames.rawValue) } throws: {
            ($0 as? AudioQueueError)?.code == .invalidProperty
        }
        var small = [UInt8](repeating: 0, count: 8)
        #expect {
            _ = try small.withUnsafeMutableBytes { try queue.getProperty(AudioQueuePropertyID.streamDescription.rawValue, into: $0) }
        } throws: { ($0 as? AudioQueueError)?.code == .invalidPropertySize }
        try queue.dispose(immediate: true)
        #expect { try queue.start() } throws: { ($0 as? AudioQueueError)?.code == .disposalPending }
    }
}
