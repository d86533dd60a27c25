import Foundation
import Testing
import Dispatch
import Synchronization
import AudioCore
import AudioDevices
import AudioQueueServices

/// Cases that once went wrong: each test fails on the old behaviour.
@Suite("Queue regressions")
struct QueueRegressionTests {
    static let mono = AudioStreamBasicDescription.linearPCM(sampleRate: 48000, channels: 1, bitsPerChannel: 32, isFloat: true)

    /// Frames prepared by prime() are played once the queue starts, not thrown away; prime(0)
    /// decodes every enqueued buffer (Apple: "Pass 0 to decode all enqueued buffers"), not
    /// just what the decode buffer (4096 frames here) holds.
    @Test func primedFramesArePlayed() throws {
        let device = try NullDevice(sampleRate: 48000, channels: 1, periodFrames: 480)
        let queue = try AudioQueue(format: Self.mono, device: device) { _, _ in }
        let stopped = DispatchSemaphore(value: 0)
        try queue.addPropertyListener(.isRunning) { q, _ in if !q.isRunning { stopped.signal() } }
        try queue.enqueue(try floatBuffer(queue, [Float](repeating: 0.5, count: 10_000)))
        #expect(queue.decodeBufferSizeFrames == 4096)
        #expect(try queue.prime() == 10_000)
        try queue.stop(immediate: false)
        try queue.start()
        #expect(stopped.wait(timeout: .now() + 10) == .success)
        #expect(device.framesRendered == 10_000)
        try queue.dispose(immediate: true)
    }

    /// A start scheduled for later and then superseded (pause, start now) leaves the queue
    /// playing normally; one scheduled while an asynchronous stop is pending still plays out.
    @Test func supersededScheduledStart() throws {
        let device = try NullDevice(sampleRate: 48000, channels: 1, periodFrames: 480)
        let queue = try AudioQueue(format: Self.mono, device: device) { queue, buffer in try? queue.enqueue(buffer) }
        try queue.enqueue(try floatBuffer(queue, [Float](repeating: 0.5, count: 4800)))
        try queue.start(at: AudioTimeStamp(hostTime: HostTime.now() + 200_000_000, flags: .hostTimeValid))
        try queue.pause()
        try queue.start()
        // Wait until the device has played past the superseded start time (0.2 s) twice over.
        #expect(eventually { device.framesRendered >= 19_200 })
        #expect(queue.state == .running)
        #expect(queue.converterError == 0)
        try queue.stop(immediate: true)
        try queue.start()
        #expect(queue.state == .running)
        try queue.dispose(immediate: true)

        let short = try AudioQueue(format: Self.mono, device: try NullDevice(sampleRate: 48000, channels: 1, periodFrames: 480)) { _, _ in }
        let stopped = DispatchSemaphore(value: 0)
        try short.addPropertyListener(.isRunning) { q, _ in if !q.isRunning { stopped.signal() } }
        try short.enqueue(try floatBuffer(short, [Float](repeating: 0.5, count: 2400)))
        try short.stop(immediate: false)
        try short.start(at: AudioTimeStamp(hostTime: HostTime.now() + 100_000_000, flags: .hostTimeValid))
        #expect(stopped.wait(timeout: .now() + 10) == .success)
        #expect(short.state == .stopped)
        try short.dispose(immediate: true)
    }

    @Test func outOfRangeArgumentsAreErrorsNotTraps() throws {
        let queue = try offlineFloatQueue()
        let b = try floatBuffer(queue, [1, 2])
        expectCode(.invalidParameter) { try queue.enqueue(b, trimFramesAtStart: .max, trimFramesAtEnd: .max) }
        let live = try AudioQueue(format: Self.mono, device: try NullDevice(sampleRate: 48000, channels: 1)) { _, _ in }
        expectCode(.invalidParameter) { try live.start(at: .sampleTime(.infinity)) }
        try live.start(at: .sampleTime(1e30))   // far in the future: accepted, clamped
        try live.dispose(immediate: true)
        var twoFrames = Self.mono
        twoFrames.framesPerPacket = 2
        twoFrames.bytesPerPacket = 8
        expectCode(.invalidParameter) { _ = try AudioQueue(format: twoFrames) { _, _ in } }
        var planar = AudioStreamBasicDescription.linearPCM(sampleRate: 48000, channels: 2, bitsPerChannel: 32, isFloat: true)
        planar.formatFlags.insert(.isNonInterleaved)
        planar.bytesPerFrame = 4
        planar.bytesPerPacket = 4
        expectCode(.invalidParameter) { _ = try AudioQueue(format: planar) { _, _ in } }
        let ulaw = AudioStreamBasicDescription(
            sampleRate: 8000, formatID: .uLaw, formatFlags: [], bytesPerPacket: 1, framesPerPacket: 1,
            bytesPerFrame: 0, channelsPerFrame: 1, bitsPerChannel: 8)
        let odd = try AudioQueue(format: ulaw) { _, _ in }
        try odd.setOfflineRenderFormat(odd.renderFormat)
        let bytes = try odd.allocateBuffer(byteCapacity: 100)
        bytes.audioDataByteSize = 100
        try odd.enqueue(bytes)
        try odd.start()
        try odd.stop(immediate: false)
        #expect(try renderAll(odd).count == 100)
    }

    /// Switching the offline format between renders uses buffers of the new format.
    @Test func offlineFormatChangesBetweenRenders() throws {
        let queue = try AudioQueue(format: Self.mono) { _, _ in }
        let int16 = AudioStreamBasicDescription.linearPCM(sampleRate: 48000, channels: 1, bitsPerChannel: 16)
        let int32 = AudioStreamBasicDescription.linearPCM(sampleRate: 48000, channels: 1, bitsPerChannel: 32)
        let capture = try queue.allocateBuffer(byteCapacity: 4000)
        for format in [int16, int32] {
            try queue.setOfflineRenderFormat(format)
            try queue.enqueue(try floatBuffer(queue, [Float](repeating: 0.5, count: 1000)))
            try queue.start()
            try queue.offlineRender(at: .sampleTime(0), into: capture, frameCount: 1000)
            #expect(capture.audioDataByteSize == 1000 * format.bytesPerFrame)
            if format == int16 {
                #expect(capture.audioData.load(fromByteOffset: 1998, as: Int16.self) == 16384)
            } else {
                #expect(capture.audioData.load(fromByteOffset: 3996, as: Int32.self) == 1 << 30)
            }
            try queue.stop(immediate: true)
        }
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
        let queue = try AudioQueue(format: Self.mono) { queue, _ in
            let d = state.depth.add(1, ordering: .relaxed).newValue
            if d > state.deepest.load(ordering: .relaxed) { state.deepest.store(d, ordering: .relaxed) }
            if state.calls.add(1, ordering: .relaxed).newValue == 1 { try? queue.stop(immediate: true) }
            state.depth.subtract(1, ordering: .relaxed)
        }
        try queue.setOfflineRenderFormat(Self.mono)
        for _ in 0..<4 { try queue.enqueue(try floatBuffer(queue, [Float](repeating: 0.1, count: 100))) }
        try queue.start()
        _ = try render(queue, frames: 150)
        waitUntil { state.calls.load(ordering: .relaxed) == 4 }
        #expect(state.deepest.load(ordering: .relaxed) == 1)
        #expect(queue.state == .stopped)
    }

    /// A live queue plays to the end of an asynchronous dispose even when the program keeps
    /// no reference to it.
    @Test func aPlayingQueueKeepsItselfAlive() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("aq-alive-\(getpid()).wav").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let device = try WAVFileDevice(path: path, sampleRate: 48000, channels: 1, pacing: .realTime, periodFrames: 480)
        do {
            let queue = try AudioQueue(format: Self.mono, device: device) { _, _ in }
            try queue.enqueue(try floatBuffer(queue, [Float](repeating: 0.25, count: 4800)))
            try queue.start()
            try queue.dispose(immediate: false)
        }
        waitUntil { device.framesRendered >= 4800 }
        #expect(device.framesRendered == 4800)
        device.close()
    }

    /// Disposing of a queue leaves a device the program supplied open for the next queue.
    @Test func aSuppliedDeviceOutlivesItsQueue() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("aq-reuse-\(getpid()).wav").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let device = try WAVFileDevice(path: path, sampleRate: 48000, channels: 1, pacing: .unpaced, periodFrames: 480)
        for _ in 0..<2 {
            let queue = try AudioQueue(format: Self.mono, device: device) { _, _ in }
            let stopped = DispatchSemaphore(value: 0)
            try queue.addPropertyListener(.isRunning) { q, _ in if !q.isRunning { stopped.signal() } }
            try queue.enqueue(try floatBuffer(queue, [Float](repeating: 0.25, count: 960)))
            try queue.stop(immediate: false)
            try queue.start()
            #expect(stopped.wait(timeout: .now() + 10) == .success)
            try queue.dispose(immediate: true)
        }
        #expect(device.framesRendered == 1920)
        device.close()
    }
}
