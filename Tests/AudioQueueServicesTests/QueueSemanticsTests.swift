import Foundation
import Testing
import AudioCore
import AudioQueueServices
import Synchronization

/// Enqueue, trim, schedule, parameters, metering and the control calls, checked sample by
/// sample through offline render on queues of Float32 PCM (so every rendered value can be
/// traced to the frame it came from).
@Suite("Queue semantics through offline render")
struct QueueSemanticsTests {
    @Test func buffersPlayInOrderAndComeBackInOrder() throws {
        let log = CallbackLog()
        let queue = try offlineFloatQueue(log: log)
        let a = ramp(frames: 700, channels: 2), b = ramp(frames: 500, channels: 2, from: 700), c = ramp(frames: 300, channels: 2, from: 1200)
        let buffers = try [a, b, c].map { try floatBuffer(queue, $0) }
        for buffer in buffers { try queue.enqueue(buffer) }
        try queue.start()
        try queue.stop(immediate: false)
        let out = try renderAll(queue, chunk: 256)
        #expect(out == a + b + c)
        waitUntil { log.count == 3 }
        #expect(log.order == buffers.map { ObjectIdentifier($0) })
        #expect(queue.state == .stopped)
    }

    @Test func trimRemovesExactlyThoseFrames() throws {
        let queue = try offlineFloatQueue()
        let a = ramp(frames: 1000, channels: 2), b = ramp(frames: 1000, channels: 2, from: 1000)
        try queue.enqueue(try floatBuffer(queue, a), trimFramesAtStart: 123, trimFramesAtEnd: 45)
        try queue.enqueue(try floatBuffer(queue, b), trimFramesAtStart: 0, trimFramesAtEnd: 999)
        try queue.start()
        try queue.stop(immediate: false)
        let out = try renderAll(queue, chunk: 100)
        #expect(out == Array(a[(123 * 2)..<((1000 - 45) * 2)]) + Array(b[0..<2]))
    }

    @Test func trimLongerThanTheBufferPlaysNothingOfIt() throws {
        let queue = try offlineFloatQueue()
        let a = ramp(frames: 100, channels: 2), b = ramp(frames: 100, channels: 2, from: 100)
        try queue.enqueue(try floatBuffer(queue, a), trimFramesAtStart: 80, trimFramesAtEnd: 80)
        try queue.enqueue(try floatBuffer(queue, b))
        try queue.start()
        try queue.stop(immediate: false)
        #expect(try renderAll(queue, chunk: 64) == b)
    }

    @Test func scheduledStartInsertsExactlyThatMuchSilence() throws {
        let queue = try offlineFloatQueue()
        let a = ramp(frames: 1000, channels: 2), b = ramp(frames: 500, channels: 2, from: 1000)
        let first = try queue.enqueue(try floatBuffer(queue, a), trimFramesAtStart: 0, trimFramesAtEnd: 0)
        #expect(first.sampleTime == 0)
        let second = try queue.enqueue(try floatBuffer(queue, b), trimFramesAtStart: 0, trimFramesAtEnd: 0, startTime: .sampleTime(1777))
        #expect(second.sampleTime == 1777)
        try queue.start()
        try queue.stop(immediate: false)
        let out = try renderAll(queue, chunk: 300)
        #expect(out == a + [Float](repeating: 0, count: 777 * 2) + b)
    }

    @Test func startTimesCountUntrimmedFramesAndMustAscend() throws {
        let queue = try offlineFloatQueue()
        let a = ramp(frames: 1000, channels: 2)
        // A start time earlier than the previous buffer's end plays right after it.
        try queue.enqueue(try floatBuffer(queue, a), trimFramesAtStart: 100, trimFramesAtEnd: 0, startTime: .sampleTime(50))
        let late = try queue.enqueue(try floatBuffer(queue, a), trimFramesAtStart: 0, trimFramesAtEnd: 0, startTime: .sampleTime(60))
        #expect(late.sampleTime == 950)
        #expect(throws: AudioQueueError.self) {
            try queue.enqueue(try floatBuffer(queue, a), trimFramesAtStart: 0, trimFramesAtEnd: 0, startTime: .sampleTime(10))
        }
        try queue.start()
        try queue.stop(immediate: false)
        let out = try renderAll(queue, chunk: 300)
        #expect(out == [Float](repeating: 0, count: 50 * 2) + Array(a[200...]) + a)
    }

    @Test func perBufferVolumeAppliesAtTheBufferBoundary() throws {
        let queue = try offlineFloatQueue()
        let a = ramp(frames: 1000, channels: 2), b = ramp(frames: 1000, channels: 2, from: 1000)
        try queue.enqueue(try floatBuffer(queue, a))
        try queue.enqueue(try floatBuffer(queue, b), trimFramesAtStart: 0, trimFramesAtEnd: 0, parameterEvents: [AudioQueueParameterEvent(.volume, 0.5)])
        try queue.start()
        try queue.stop(immediate: false)
        // The volume is still 1 until the buffer plays: events are not applied at enqueue.
        #expect(try queue.parameter(.volume) == 1)
        let out = try renderAll(queue, chunk: 333)
        #expect(out == a + b.map { $0 * 0.5 })
        #expect(try queue.parameter(.volume) == 0.5)
    }

    @Test func volumeRampsHaveNoStep() throws {
        let queue = try offlineFloatQueue(channels: 1)
        let ones = [Float](repeating: 1, count: 20000)
        try queue.enqueue(try floatBuffer(queue, ones))
        try queue.start()
        _ = try render(queue, frames: 1000)
        try queue.setParameter(.volumeRampTime, 0.1)
        try queue.setParameter(.volume, 0)
        let out = try render(queue, frames: 10000)
        // Linear from 1 to 0 over 4800 frames, then 0.
        let steps = zip(out, out.dropFirst()).map { abs($1 - $0) }
        #expect(steps.max()! <= 1.0 / 4800 + 1e-6, "largest step \(steps.max()!)")
        #expect(out[4799] == 0 && out[9999] == 0)
        #expect(out[0] < 1 && out[0] > 0.999)
        #expect(abs(out[2399] - 0.5) < 1e-3)
    }

    @Test func setParameterWithoutRampIsImmediate() throws {
        let queue = try offlineFloatQueue(channels: 1)
        try queue.enqueue(try floatBuffer(queue, [Float](repeating: 1, count: 2000)))
        try queue.start()
        _ = try render(queue, frames: 1000)
        try queue.setParameter(.volume, 0.25)
        #expect(try render(queue, frames: 1000) == [Float](repeating: 0.25, count: 1000))
    }

    @Test func panIsBalanceForStereo() throws {
        let queue = try offlineFloatQueue(channels: 2)
        let a = ramp(frames: 100, channels: 2)
        try queue.setParameter(.pan, -1)
        try queue.enqueue(try floatBuffer(queue, a))
        try queue.enqueue(try floatBuffer(queue, a), trimFramesAtStart: 0, trimFramesAtEnd: 0, parameterEvents: [AudioQueueParameterEvent(.pan, 0.5)])
        try queue.start()
        let out = try render(queue, frames: 200)
        for i in 0..<100 {
            #expect(out[2 * i] == a[2 * i] && out[2 * i + 1] == 0)
            #expect(out[200 + 2 * i] == a[2 * i] * 0.5 && out[200 + 2 * i + 1] == a[2 * i + 1])
        }
    }

    @Test func meteringIsTheRMSAndPeakOfWhatWasRendered() throws {
        let queue = try offlineFloatQueue(channels: 2)
        try queue.setLevelMeteringEnabled(true)
        var samples: [Float] = []
        for i in 0..<4000 {
            samples.append(Float(sin(Double(i) * 0.05)) * 0.8)
            samples.append(Float(i % 7) / 10 - 0.3)
        }
        try queue.enqueue(try floatBuffer(queue, samples))
        try queue.setParameter(.volume, 0.5)
        try queue.start()
        _ = try render(queue, frames: 1500)
        let out = try render(queue, frames: 2000)
        let meter = try queue.currentLevelMeter()
        let dB = try queue.currentLevelMeterDB()
        #expect(meter.count == 2)
        for c in 0..<2 {
            let channel = stride(from: c, to: out.count, by: 2).map { Double(out[$0]) }
            let rms = (channel.map { $0 * $0 }.reduce(0, +) / Double(channel.count)).squareRoot()
            let peak = channel.map(abs).max()!
            #expect(abs(Double(meter[c].averagePower) - rms) < 1e-6, "channel \(c): \(meter[c].averagePower) vs \(rms)")
            #expect(abs(Double(meter[c].peakPower) - peak) < 1e-7)
            #expect(abs(Double(dB[c].averagePower) - 20 * log10(rms)) < 1e-4)
            #expect(abs(Double(dB[c].peakPower) - 20 * log10(peak)) < 1e-4)
        }
    }

    @Test func pauseAndResumeKeepThePosition() throws {
        let reference = ramp(frames: 5000, channels: 2)
        let queue = try offlineFloatQueue()
        try queue.enqueue(try floatBuffer(queue, reference))
        try queue.start()
        let first = try render(queue, frames: 1234)
        try queue.pause()
        #expect(queue.state == .paused)
        #expect(try queue.currentTime().timeStamp.sampleTime == 1234)
        expectCode(.invalidRunState) { _ = try render(queue, frames: 10) }
        try queue.start()
        try queue.stop(immediate: false)
        let rest = try renderAll(queue, chunk: 500)
        #expect(first + rest == reference)
    }

    @Test func resetDropsEverythingAndReturnsTheBuffers() throws {
        let log = CallbackLog()
        let queue = try offlineFloatQueue(log: log)
        let buffers = try (0..<3).map { try floatBuffer(queue, ramp(frames: 1000, channels: 2, from: $0 * 1000)) }
        for b in buffers { try queue.enqueue(b) }
        try queue.start()
        _ = try render(queue, frames: 500)
        try queue.reset()
        // Every buffer came back before reset returned.
        #expect(log.count == 3)
        #expect(queue.state == .running)
        #expect(try render(queue, frames: 100).isEmpty)
        let next = ramp(frames: 200, channels: 2, from: 9000)
        try queue.enqueue(buffers[0].reused(with: next))
        #expect(try render(queue, frames: 200) == next)
    }

    @Test func asyncStopPlaysEveryEnqueuedFrame() throws {
        let queue = try offlineFloatQueue()
        var all: [Float] = []
        for i in 0..<5 {
            let part = ramp(frames: 333 + i, channels: 2, from: i * 400)
            all += part
            try queue.enqueue(try floatBuffer(queue, part))
        }
        try queue.start()
        _ = try render(queue, frames: 100)
        try queue.stop(immediate: false)
        #expect(queue.state == .stopping)
        let rest = try renderAll(queue, chunk: 128)
        #expect(Array(all[200...]) == rest)
        #expect(queue.state == .stopped)
    }

    @Test func syncStopReturnsEveryBufferAndNoCallbackFollows() throws {
        let log = CallbackLog()
        let callbacks = DispatchQueue(label: "callbacks")
        let format = AudioStreamBasicDescription.linearPCM(sampleRate: 48000, channels: 2, bitsPerChannel: 32, isFloat: true)
        let queue = try AudioQueue(format: format, callbackQueue: callbacks) { _, buffer in log.record(buffer) }
        try queue.setOfflineRenderFormat(format)
        for i in 0..<4 { try queue.enqueue(try floatBuffer(queue, ramp(frames: 1000, channels: 2, from: i * 1000))) }
        try queue.start()
        _ = try render(queue, frames: 1500)
        try queue.stop(immediate: true)
        let atReturn = log.count
        #expect(atReturn == 4)
        #expect(queue.state == .stopped)
        #expect(!queue.isRunning)
        expectCode(.invalidRunState) { _ = try render(queue, frames: 10) }
        // Disposing joins the queue's threads, and a block on the callback queue runs after any
        // callback already sent there: a callback after stop returned would have run by now.
        try queue.dispose(immediate: true)
        callbacks.sync {}
        #expect(log.count == atReturn)
    }

    @Test func theGuidesCallbackPatternRefillsAndStopsFromInside() throws {
        // Listing 3-6 in miniature: each callback refills its buffer until the source runs
        // out, then calls stop(immediate: false) from inside the callback.
        let source = ramp(frames: 10_000, channels: 2)
        final class State: @unchecked Sendable { var next = 0; var stopped = false }
        let state = State()
        let format = AudioStreamBasicDescription.linearPCM(sampleRate: 48000, channels: 2, bitsPerChannel: 32, isFloat: true)
        let queue = try AudioQueue(format: format) { queue, buffer in
            if state.stopped { return }
            let frames = min(700, 10_000 - state.next)
            if frames > 0 {
                source[(state.next * 2)..<((state.next + frames) * 2)].withUnsafeBytes { buffer.audioData.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
                buffer.audioDataByteSize = frames * 8
                try? queue.enqueue(buffer)
                state.next += frames
            } else {
                try? queue.stop(immediate: false)
                state.stopped = true
            }
        }
        try queue.setOfflineRenderFormat(format)
        let buffers = try (0..<3).map { _ in try queue.allocateBuffer(byteCapacity: 700 * 8) }
        for b in buffers {
            let frames = 700
            source[(state.next * 2)..<((state.next + frames) * 2)].withUnsafeBytes { b.audioData.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
            b.audioDataByteSize = frames * 8
            try queue.enqueue(b)
            state.next += frames
        }
        try queue.start()
        let out = try renderAll(queue, chunk: 512)
        #expect(out == source)
        #expect(queue.state == .stopped)
    }

    @Test func primeDecodesAheadAndReportsFrames() throws {
        let queue = try offlineFloatQueue()
        try queue.enqueue(try floatBuffer(queue, ramp(frames: 3000, channels: 2)))
        #expect(try queue.prime(frames: 1000) == 1000)
        #expect(try queue.prime() == 3000)
        try queue.start()
        try queue.stop(immediate: false)
        #expect(try renderAll(queue) == ramp(frames: 3000, channels: 2))
    }

    /// Frames a reset discards before they play do not count towards the queue's time: a
    /// buffer enqueued after it to start at sample time 500 starts 500 frames after what did
    /// play.
    @Test func resetDiscardedFramesDoNotMoveStartTimes() throws {
        let queue = try offlineFloatQueue()
        try queue.enqueue(try floatBuffer(queue, ramp(frames: 3000, channels: 2)))
        try queue.start()
        let played = try render(queue, frames: 1000)
        #expect(played == Array(ramp(frames: 3000, channels: 2)[0..<2000]))
        #expect(try queue.prime() == 2000)
        try queue.reset()
        let b = ramp(frames: 400, channels: 2, from: 7000)
        let stamp = try queue.enqueue(try floatBuffer(queue, b), trimFramesAtStart: 0, trimFramesAtEnd: 0, startTime: .sampleTime(1500))
        #expect(stamp.sampleTime == 1500)
        try queue.stop(immediate: false)
        let rest = try renderAll(queue, chunk: 300)
        #expect(rest == [Float](repeating: 0, count: 500 * 2) + b)
    }

    /// A queue stopping asynchronously can pause (a player paused in the last seconds of a
    /// file); resumed, it plays the rest and then stops.
    @Test func pauseWhileStoppingResumesAndStops() throws {
        let queue = try offlineFloatQueue()
        let source = ramp(frames: 6000, channels: 2)
        try queue.enqueue(try floatBuffer(queue, source))
        try queue.start()
        try queue.stop(immediate: false)
        #expect(queue.state == .stopping)
        let head = try render(queue, frames: 1000)
        try queue.pause()
        #expect(queue.state == .paused)
        expectCode(.invalidRunState) { _ = try render(queue, frames: 10) }
        try queue.start()
        #expect(queue.state == .stopping)
        let rest = try renderAll(queue, chunk: 700)
        #expect(head + rest == source)
        #expect(queue.state == .stopped)
    }

    /// Priming past the decode buffer (4096 frames) decodes every enqueued buffer, and what
    /// was primed plays first, in order, before what is enqueued after it.
    @Test func primeBeyondTheDecodeBufferKeepsOrder() throws {
        let queue = try offlineFloatQueue()
        let source = ramp(frames: 20_000, channels: 2)
        for part in 0..<4 {
            try queue.enqueue(try floatBuffer(queue, Array(source[(part * 8000)..<((part + 1) * 8000)])))
        }
        #expect(queue.decodeBufferSizeFrames < 16_000)
        #expect(try queue.prime(frames: 6000) >= 6000)
        #expect(try queue.prime() == 16_000)
        try queue.enqueue(try floatBuffer(queue, Array(source[32_000...])))
        try queue.start()
        try queue.stop(immediate: false)
        #expect(try renderAll(queue, chunk: 3000) == source)
    }

    /// Offline output in another PCM format goes through the converter: 16-bit integers,
    /// rounded and clipped.
    @Test func offlineRenderConvertsToTheOfflineFormat() throws {
        let float = AudioStreamBasicDescription.linearPCM(sampleRate: 48000, channels: 1, bitsPerChannel: 32, isFloat: true)
        let int16 = AudioStreamBasicDescription.linearPCM(sampleRate: 48000, channels: 1, bitsPerChannel: 16)
        let queue = try AudioQueue(format: float) { _, _ in }
        try queue.setOfflineRenderFormat(int16)
        let source: [Float] = [0, 0.5, -0.5, 1, -1, 2, 0.25 / 32768, 1 / 32768]
        try queue.enqueue(try floatBuffer(queue, source))
        try queue.start()
        let capture = try queue.allocateBuffer(byteCapacity: 64)
        try queue.offlineRender(at: .sampleTime(0), into: capture, frameCount: 8)
        #expect(capture.audioDataByteSize == 16)
        let out = Array(UnsafeBufferPointer(start: capture.audioData.assumingMemoryBound(to: Int16.self), count: 8))
        #expect(out == [0, 16384, -16384, 32767, -32768, 32767, 0, 1])
    }

    @Test func enqueueDuringResetIsRefused() throws {
        let seen = CallbackLog()
        final class Box: @unchecked Sendable { var error: AudioQueueError? }
        let box = Box()
        let format = AudioStreamBasicDescription.linearPCM(sampleRate: 48000, channels: 1, bitsPerChannel: 32, isFloat: true)
        let queue = try AudioQueue(format: format) { queue, buffer in
            seen.record(buffer)
            do { try queue.enqueue(buffer) } catch let e as AudioQueueError { box.error = e } catch {}
        }
        try queue.setOfflineRenderFormat(format)
        try queue.enqueue(try floatBuffer(queue, [1, 2, 3]))
        try queue.reset()
        #expect(seen.count == 1)
        #expect(box.error?.code == .enqueueDuringReset)
    }

    /// stop(immediate: true) from inside a callback: the other buffers come back after it
    /// returns, never nested inside it.
    @Test func callbacksNeverNest() throws {
        final class State: @unchecked Sendable {
            let depth = Atomic<Int>(0)
            let deepest = Atomic<Int>(0)
            let calls = Atomic<Int>(0)
        }
        let state = State()
        let queue = try AudioQueue(format: float32Mono) { queue, _ in
            let d = state.depth.add(1, ordering: .relaxed).newValue
            if d > state.deepest.load(ordering: .relaxed) { state.deepest.store(d, ordering: .relaxed) }
            if state.calls.add(1, ordering: .relaxed).newValue == 1 { try? queue.stop(immediate: true) }
            state.depth.subtract(1, ordering: .relaxed)
        }
        try queue.setOfflineRenderFormat(float32Mono)
        for _ in 0..<4 { try queue.enqueue(try floatBuffer(queue, [Float](repeating: 0.1, count: 100))) }
        try queue.start()
        _ = try render(queue, frames: 150)
        waitUntil { state.calls.load(ordering: .relaxed) == 4 }
        #expect(state.deepest.load(ordering: .relaxed) == 1)
        #expect(queue.state == .stopped)
    }
}

extension AudioQueueBuffer {
    func reused(with samples: [Float]) -> AudioQueueBuffer {
        samples.withUnsafeBytes { audioData.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        audioDataByteSize = samples.count * 4
        return self
    }
}

/// Waits for `condition` (callbacks arrive on the queue's own thread); a hang is a failure.
func waitUntil(_ condition: () -> Bool) {
    if !eventually(condition) { Issue.record("timed out") }
}

/// Expects `body` to throw an AudioQueueError with `code`.
func expectCode(_ code: AudioQueueError.Code, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void) {
    do {
        try body()
        Issue.record("expected \(code), but the call succeeded", sourceLocation: sourceLocation)
    } catch let error as AudioQueueError {
        #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
    } catch {
        Issue.record("expected \(code), got \(error)", sourceLocation: sourceLocation)
    }
}
