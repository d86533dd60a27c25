import Foundation
import Testing
import Locking
import AudioCore
import AudioDevices
import AudioQueueServices

/// What a tap saw, call by call (the test's side: allocation is fine here).
final class TapLog: @unchecked Sendable {
    struct Entry {
        var frameCount: Int
        var flags: AudioQueueProcessingTapFlags
        var sampleTime: Double
        var got: Int
        var sourceFlags: AudioQueueProcessingTapFlags
        var queueTime: (sampleTime: Double, frameCount: Int)?
        var error: AudioQueueError.Code?
    }
    private let state = Guarded<(entries: [Entry], samples: [Float])>(([], []))
    func add(_ e: Entry) { state.withLock { $0.entries.append(e) } }
    /// Appends `frames` frames of the call's buffers, interleaved.
    func keep(_ call: AudioQueueProcessingTap.Call, frames: Int) {
        var interleaved: [Float] = []
        for f in 0..<frames { for c in 0..<call.channelCount { interleaved.append(call.buffer(channel: c)[f]) } }
        state.withLock { $0.samples += interleaved }
    }
    var entries: [Entry] { state.withLock { $0.entries } }
    var samples: [Float] { state.withLock { $0.samples } }
}

@Suite("Processing taps")
struct ProcessingTapTests {
    /// An offline queue with `frames` frames of the ramp enqueued, started.
    func startedQueue(frames: Int, channels: Int = 2, tap flags: AudioQueueProcessingTapFlags, processor: @escaping AudioQueueProcessingTap.Processor)
        throws -> (AudioQueue, AudioQueueProcessingTap, [Float]) {
        let queue = try offlineFloatQueue(channels: channels)
        let tap = try queue.makeProcessingTap(flags: flags, processor: processor)
        let samples = ramp(frames: frames, channels: channels)
        try queue.enqueue(try floatBuffer(queue, samples))
        try queue.start()
        return (queue, tap, samples)
    }

    /// A tap that passes the source on, logging each call.
    static func passThrough(_ log: TapLog, gain: Float = 1, returning limit: Int? = nil) -> AudioQueueProcessingTap.Processor {
        { call in
            var entry = TapLog.Entry(frameCount: call.frameCount, flags: call.flags, sampleTime: call.timeStamp.sampleTime, got: 0, sourceFlags: [])
            do throws(AudioQueueError) {
                entry.got = try call.getSourceAudio(frames: call.frameCount)
                entry.sourceFlags = call.sourceFlags
                entry.queueTime = try call.queueTime()
            } catch {
                entry.error = error.code
            }
            log.keep(call, frames: entry.got)
            for c in 0..<call.channelCount {
                let b = call.buffer(channel: c)
                for f in 0..<entry.got { b[f] *= gain }
            }
            log.add(entry)
            return min(limit ?? call.frameCount, entry.got)
        }
    }

    @Test func theTapSeesExactlyWhatIsEnqueued() throws {
        let log = TapLog()
        let (queue, tap, samples) = try startedQueue(frames: 10_000, tap: .preEffects, processor: Self.passThrough(log))
        #expect(tap.maximumFrames == 2048)
        let format = tap.processingFormat
        #expect(format.sampleRate == 48000 && format.channelsPerFrame == 2 && format.formatFlags.rawValue == 0x29)
        #expect(format.bytesPerFrame == 4 && format.bytesPerPacket == 4 && format.bitsPerChannel == 32)
        try queue.stop(immediate: false)
        let out = try renderAll(queue, chunk: 3000)
        #expect(log.samples == samples)
        #expect(out == samples)
        #expect(log.entries.allSatisfy { $0.error == nil && $0.frameCount <= 2048 })
    }

    /// A tap runs with its queue's render lock held: a call into its own queue other than the
    /// two Apple allows answers invalidTapContext instead of waiting on that lock for ever, and
    /// so does a call on another queue (its lock would be taken out of order).
    @Test func callsIntoItsOwnQueueFromInsideATapAreRefused() throws {
        let other = try offlineFloatQueue(channels: 2)
        let codes = Guarded<[AudioQueueError.Code?]>([])
        let holder = Guarded<AudioQueue?>(nil)
        let (queue, _, _) = try startedQueue(frames: 4096, tap: .preEffects) { call in
            let got = (try? call.getSourceAudio(frames: call.frameCount)) ?? 0
            guard let queue = holder.withLock({ $0 }) else { return got }
            func code(_ body: () throws(AudioQueueError) -> Void) -> AudioQueueError.Code? {
                do { try body() } catch { return error.code }
                return nil
            }
            let seen = [
                code { () throws(AudioQueueError) in try queue.setParameter(.volume, 0.5) },
                code { () throws(AudioQueueError) in _ = try queue.parameter(.volume) },
                code { () throws(AudioQueueError) in _ = try queue.propertySize(AudioQueuePropertyID.isRunning.rawValue) },
                code { () throws(AudioQueueError) in try queue.reset() },
                code { () throws(AudioQueueError) in try other.setParameter(.volume, 0.25) },
            ]
            codes.withLock { if $0.isEmpty { $0 = seen } }
            return got
        }
        holder.withLock { $0 = queue }
        try queue.stop(immediate: false)
        _ = try renderAll(queue, chunk: 1024)
        let seen = codes.withLock { $0 }
        #expect(seen == [.invalidTapContext, .invalidTapContext, .invalidTapContext, .invalidTapContext, .invalidTapContext])
        #expect(try other.parameter(AudioQueueParameterID.volume) == 1)
        #expect(try queue.parameter(AudioQueueParameterID.volume) == 1)
    }

    @Test func aGainTapHalvesTheOutput() throws {
        let log = TapLog()
        let (queue, _, samples) = try startedQueue(frames: 9000, tap: .postEffects, processor: Self.passThrough(log, gain: 0.5))
        try queue.stop(immediate: false)
        let out = try renderAll(queue, chunk: 4096)
        #expect(out == samples.map { $0 * 0.5 })
    }

    @Test func fewerFramesFromTheTapLeaveSilenceInTheRest() throws {
        let log = TapLog()
        let (queue, _, samples) = try startedQueue(frames: 6000, channels: 1, tap: .preEffects, processor: Self.passThrough(log, returning: 100))
        let out = try render(queue, frames: 5000)
        #expect(out.count == 5000)
        var expected: [Float] = []
        var at = 0
        for e in log.entries {
            expected += samples[at..<(at + 100)] + [Float](repeating: 0, count: e.frameCount - 100)
            at += e.frameCount
        }
        #expect(at == 5000)
        #expect(out == expected)
    }

    /// When the buffer queue runs dry, only what the source gave comes out, whatever the tap
    /// returns: the render ends where the audio does.
    @Test func aShortSourceShortensTheOutput() throws {
        let (queue, _, _) = try startedQueue(frames: 1000, channels: 1, tap: .preEffects) { call in
            _ = try? call.getSourceAudio(frames: call.frameCount)
            let b = call.buffer(channel: 0)
            for f in 0..<call.frameCount { b[f] = 1 }
            return call.frameCount
        }
        try queue.stop(immediate: false)
        let out = try renderAll(queue, chunk: 3000)
        #expect(out.count == 1000)
        #expect(out.allSatisfy { $0 == 1 })
    }

    @Test func aSiphonSeesTheAudioAndCannotChangeIt() throws {
        let log = TapLog()
        let errors = Guarded<[AudioQueueError.Code]>([])
        let (queue, _, samples) = try startedQueue(frames: 7000, tap: [.postEffects, .siphon]) { call in
            log.keep(call, frames: call.frameCount)
            log.add(TapLog.Entry(frameCount: call.frameCount, flags: call.flags, sampleTime: call.timeStamp.sampleTime, got: call.frameCount,
                                 sourceFlags: [], queueTime: try? call.queueTime()))
            do throws(AudioQueueError) {
                _ = try call.getSourceAudio(frames: 1)
            } catch {
                errors.withLock { $0.append(error.code) }
            }
            for c in 0..<call.channelCount { call.buffer(channel: c).update(repeating: 0) }
            return 0
        }
        try queue.stop(immediate: false)
        let out = try renderAll(queue, chunk: 2500)
        #expect(out == samples)
        #expect(log.samples == samples)
        #expect(errors.withLock { $0 }.allSatisfy { $0 == .invalidTapContext } && !errors.withLock { $0 }.isEmpty)
        #expect(log.entries.first?.flags.contains([.postEffects, .siphon, .startOfStream]) == true)
        #expect(log.entries.last?.flags.contains(.endOfStream) == true)
    }

    @Test func startOfStreamOnTheFirstCallAndAfterAReset() throws {
        let log = TapLog()
        let (queue, _, _) = try startedQueue(frames: 5000, tap: .preEffects, processor: Self.passThrough(log))
        _ = try render(queue, frames: 4000)
        let first = log.entries
        #expect(first.count == 2)
        #expect(first[0].flags.contains(.startOfStream) && first[0].sourceFlags.contains(.startOfStream))
        #expect(!first[1].flags.contains(.startOfStream) && !first[1].sourceFlags.contains(.startOfStream))
        try queue.reset()
        try queue.enqueue(try floatBuffer(queue, ramp(frames: 3000, channels: 2)))
        _ = try render(queue, frames: 2000)
        let after = Array(log.entries.dropFirst(first.count))
        #expect(after.first?.sourceFlags.contains(.startOfStream) == true)
        #expect(after.first?.sampleTime == 0)
    }

    @Test func endOfStreamAfterAnAsynchronousStop() throws {
        let log = TapLog()
        let (queue, _, _) = try startedQueue(frames: 5000, tap: .preEffects, processor: Self.passThrough(log))
        try queue.stop(immediate: false)
        let out = try renderAll(queue, chunk: 1024)
        #expect(out.count == 10_000)
        let ends = log.entries.filter { $0.sourceFlags.contains(.endOfStream) }
        #expect(ends.count == 1)
        #expect(log.entries.last { $0.got > 0 }?.sourceFlags.contains(.endOfStream) == true)
        #expect(queue.state == .stopped)
    }

    @Test func timeStampsAndQueueTimeAreContinuous() throws {
        for flags: AudioQueueProcessingTapFlags in [.preEffects, .postEffects] {
            let log = TapLog()
            let (queue, _, _) = try startedQueue(frames: 12_345, tap: flags, processor: Self.passThrough(log))
            try queue.stop(immediate: false)
            _ = try renderAll(queue, chunk: 777)
            var next = 0.0
            for e in log.entries where e.got > 0 {
                #expect(e.sampleTime == next)
                #expect(e.queueTime?.sampleTime == next)
                #expect(e.queueTime?.frameCount == e.got)
                next += Double(e.got)
            }
            #expect(next == 12_345)
        }
    }

    /// Behind the time/pitch unit at 1.5×, a post-effects tap's chunks each cover 1.5 times
    /// their frames of queue time; a pre-effects tap's cover their own.
    @Test(arguments: [AudioQueueProcessingTapFlags.preEffects, .postEffects])
    func queueTimeFollowsThePlayRate(flags: AudioQueueProcessingTapFlags) throws {
        let log = TapLog()
        let queue = try offlineFloatQueue(channels: 1)
        try queue.setTimePitchEnabled(true)
        try queue.setParameter(.playRate, 1.5)
        _ = try queue.makeProcessingTap(flags: flags, processor: Self.passThrough(log))
        try queue.enqueue(try floatBuffer(queue, sine(frequency: 1000, frames: 48_000, channels: 1)))
        try queue.start()
        try queue.stop(immediate: false)
        let out = try renderAll(queue, chunk: 4096)
        let entries = log.entries.filter { $0.got > 0 }
        let tapFrames = entries.reduce(0) { $0 + $1.got }
        let queueFrames = entries.reduce(0) { $0 + ($1.queueTime?.frameCount ?? 0) }
        if flags == .preEffects {
            #expect(tapFrames == 48_000 && queueFrames == 48_000)
        } else {
            #expect(abs(Double(tapFrames) - 32_000) < 640, "\(tapFrames) frames after the unit")
            #expect(abs(Double(queueFrames) - 48_000) < 960, "\(queueFrames) frames of queue time")
            for e in entries { #expect(abs(Double(e.queueTime?.frameCount ?? 0) - Double(e.got) * 1.5) <= 0.5) }
        }
        #expect(abs(Double(out.count) - 32_000) < 640)
    }

    @Test func misuseGivesApplesCodes() throws {
        let queue = try offlineFloatQueue()
        #expect(throws: AudioQueueError.self) { try queue.makeProcessingTap(flags: [.preEffects, .postEffects]) { _ in 0 } }
        for bad: AudioQueueProcessingTapFlags in [[], [.siphon], [.preEffects, .postEffects], [.preEffects, .startOfStream]] {
            do {
                _ = try queue.makeProcessingTap(flags: bad) { _ in 0 }
                Issue.record("\(bad) accepted")
            } catch { #expect(error.code == .paramError) }
        }
        let tap = try queue.makeProcessingTap(flags: .preEffects) { _ in 0 }
        #expect(try queue.processingTap === tap)
        do {
            _ = try queue.makeProcessingTap(flags: .postEffects) { _ in 0 }
            Issue.record("a second tap")
        } catch { #expect(error.code == .tooManyTaps) }
        do {
            _ = try tap.call.getSourceAudio(frames: 16)
            Issue.record("source outside the processor")
        } catch { #expect(error.code == .invalidTapContext) }
        do {
            _ = try tap.call.queueTime()
            Issue.record("queue time outside the processor")
        } catch { #expect(error.code == .invalidTapContext) }
        try queue.start()
        for state in ["running", "paused"] {
            do {
                try tap.dispose()
                Issue.record("dispose while \(state)")
            } catch { #expect(error.code == .invalidRunState) }
            try queue.pause()
        }
        try queue.stop(immediate: true)
        try tap.dispose()
        #expect(try tap.isDisposed && queue.processingTap == nil)
        let again = try queue.makeProcessingTap(flags: .postEffects) { _ in 0 }
        try queue.start()
        do {
            _ = try queue.makeProcessingTap(flags: .postEffects) { _ in 0 }
            Issue.record("a tap on a running queue")
        } catch { #expect(error.code == .invalidRunState) }
        try queue.dispose(immediate: true)
        #expect(again.isDisposed)
    }

    @Test(arguments: [(8000.0, 512), (22050.0, 1024), (44100.0, 2048), (48000.0, 2048), (96000.0, 4096)])
    func maximumFramesIsAboutFiftyMilliseconds(rate: Double, frames: Int) throws {
        let queue = try offlineFloatQueue(channels: 1, rate: rate)
        let tap = try queue.makeProcessingTap(flags: .preEffects) { _ in 0 }
        #expect(tap.maximumFrames == frames)
    }

    /// An input tap that takes and returns less than it is asked for each time: what it did not
    /// take waits for its next call, and the recording is continuous.
    @Test func anInputTapTakingLessLeavesTheRestWaiting() throws {
        let recorder = InputRecorder()
        let format = AudioStreamBasicDescription.linearPCM(sampleRate: 48000, channels: 1, bitsPerChannel: 32, isFloat: true)
        let device = TestInputDevice(sampleRate: 48000, channels: 1)
        let queue = try AudioInputQueue(format: format, device: device, callback: recorder.callback)
        for _ in 0..<3 { try queue.enqueue(try queue.allocateBuffer(byteCapacity: 4800 * 4)) }
        let asked = Guarded<[Int]>([])
        _ = try queue.makeProcessingTap(flags: .preEffects) { call in
            asked.withLock { $0.append(call.frameCount) }
            return (try? call.getSourceAudio(frames: min(100, call.frameCount))) ?? 0
        }
        try queue.start()
        for i in 0..<5 {
            device.push(frames: 4800)
            #expect(eventually { recorder.count >= i + 1 })
        }
        try queue.stop(immediate: false)
        #expect(eventually { queue.state == .stopped })
        let expected = (0..<Int64(24_000)).map { TestInputDevice.value(frame: $0, channel: 0) }
        #expect(recorder.allFloats == expected)
        #expect(asked.withLock { $0 }.contains { $0 > 100 })
    }

    /// An input tap through the capture path: a device, the capture thread, the buffers.
    @Test func aGainTapOnAnInputQueueChangesWhatIsRecorded() throws {
        let recorder = InputRecorder()
        let format = AudioStreamBasicDescription.linearPCM(sampleRate: 48000, channels: 2, bitsPerChannel: 32, isFloat: true)
        let device = TestInputDevice(sampleRate: 48000, channels: 2)
        let queue = try AudioInputQueue(format: format, device: device, callback: recorder.callback)
        for _ in 0..<3 { try queue.enqueue(try queue.allocateBuffer(byteCapacity: 4800 * 8)) }
        let log = TapLog()
        _ = try queue.makeProcessingTap(flags: .preEffects, processor: Self.passThrough(log, gain: 0.5))
        try queue.start()
        for i in 0..<10 {
            device.push(frames: 4800)
            #expect(eventually { recorder.count >= i + 1 })
        }
        try queue.stop(immediate: false)
        #expect(eventually { queue.state == .stopped })
        var expected: [Float] = []
        for f in 0..<Int64(48_000) { for c in 0..<2 { expected.append(TestInputDevice.value(frame: f, channel: c) * 0.5) } }
        #expect(recorder.allFloats == expected)
        let entries = log.entries
        #expect(entries.first?.sourceFlags.contains(.startOfStream) == true)
        #expect(entries.allSatisfy { $0.error == .invalidTapType })
        #expect(entries.reduce(0) { $0 + $1.got } == 48_000)
        // Each call's time stamp is the capture time of its first frame.
        var next = 0.0
        for e in entries {
            #expect(e.sampleTime == next)
            next += Double(e.got)
        }
    }
}

/// A tap on a queue playing in real time (the render thread, the device's I/O thread), on the
/// null device.
@Suite("Processing taps while playing")
struct LiveProcessingTapTests {
    @Test func aSiphonSeesEverythingAQueuePlays() throws {
        let format = AudioStreamBasicDescription.linearPCM(sampleRate: 48000, channels: 2, bitsPerChannel: 32, isFloat: true)
        let device = try NullDevice(sampleRate: 48000, channels: 2)
        let queue = try AudioQueue(format: format, device: device) { _, _ in }
        let log = TapLog()
        _ = try queue.makeProcessingTap(flags: [.postEffects, .siphon]) { call in
            log.keep(call, frames: call.frameCount)
            log.add(TapLog.Entry(frameCount: call.frameCount, flags: call.flags, sampleTime: call.timeStamp.sampleTime, got: call.frameCount, sourceFlags: []))
            return 0
        }
        let samples = ramp(frames: 14_400, channels: 2)
        for part in 0..<3 {
            try queue.enqueue(try floatBuffer(queue, Array(samples[(part * 9600)..<((part + 1) * 9600)])))
        }
        try queue.start()
        try queue.stop(immediate: false)
        #expect(eventually(within: 20) { queue.state == .stopped && !queue.isRunning })
        #expect(log.samples == samples)
        #expect(log.entries.first?.flags.contains(.startOfStream) == true)
        #expect(log.entries.last?.flags.contains(.endOfStream) == true)
        try queue.dispose(immediate: true)
    }
}
