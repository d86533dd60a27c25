import Foundation
import Testing
import ProcessSupport
import Dispatch
import Locking
import AudioCore
import AudioDevices
import AudioDeviceFile
import AudioFileServices
import AudioQueueServices

/// The live path: render thread, decode ring, a device's own I/O thread, callbacks on the
/// caller's DispatchQueue.
@Suite("Live playback through devices")
struct LiveDeviceTests {
    /// Plays fixtures through a WAVFileDevice consuming at the sample rate: the file holds
    /// exactly the reference decode; isRunning goes true then false; every callback ran on the
    /// DispatchQueue the program gave.
    @Test(arguments: ["wav-pcm_s16le-2ch-44100.wav", "caf-aac-2ch-48000.caf", "aifc-adpcm_ima_qt-2ch-44100.aifc", "wav-pcm_mulaw-2ch-8000.wav"])
    func playsIntoAFileExactly(name: String) throws {
        guard Fixtures.names.contains(name) else {
            Issue.record("fixture \(name) is missing; available: \(Fixtures.names.filter { $0.hasPrefix(String(name.prefix(4))) }.prefix(8))")
            return
        }
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("live-\(getpid())-\(name).wav").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        let reference = try referenceDecode(Fixtures.path(name))
        let file = try AudioFile(path: Fixtures.path(name))
        let rate = file.dataFormat.sampleRate
        let device = try WAVFileDevice(path: out, sampleRate: rate, channels: reference.channels, pacing: .realTime)
        let callbacks = DispatchQueue(label: "test.callbacks")
        let key = DispatchSpecificKey<Int>()
        callbacks.setSpecific(key: key, value: 7)
        let player = try FilePlayer(path: Fixtures.path(name), device: device, callbackQueue: callbacks,
                                    onQueue: { DispatchQueue.getSpecific(key: key) == 7 })
        let queue = player.queue!
        let events = Guarded<[Bool]>([])
        let stopped = DispatchSemaphore(value: 0)
        try queue.addPropertyListener(.isRunning) { q, _ in
            let running = q.isRunning
            events.withLock { $0.append(running) }
            if DispatchQueue.getSpecific(key: key) != 7 { events.withLock { $0.append(running) } }   // off-queue: shows as a duplicate
            if !running { stopped.signal() }
        }
        for b in player.buffers { player.fill(b) }
        try queue.start()
        #expect(stopped.wait(timeout: .now() + 30) == .success, "playback did not end")
        try queue.dispose(immediate: true)
        device.close()
        // A listener reads the value when it runs (as Apple's do): two notifications, the
        // first still running unless the whole file fit in the device's first period.
        let seen = events.withLock { $0 }
        #expect(seen.count == 2 && seen.last == false, "\(seen)")
        if Double(reference.samples.count / reference.channels) > 2048 { #expect(seen.first == true, "\(seen)") }
        #expect(player.callbacksOffQueue == 0)
        let written = try AudioFile(path: out)
        let bytes = try written.readBytes(at: 0, count: Int(written.dataByteCount))
        let samples = bytes.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        #expect(samples.count == reference.samples.count)
        let firstDifference = samples.indices.first { $0 < reference.samples.count && samples[$0] != reference.samples[$0] }
        #expect(firstDifference == nil, "differs from the reference decode at sample \(firstDifference ?? -1)")
    }

    /// Linear PCM is refilled on the device's own thread, not by waking the render thread for
    /// each refill (two context switches, more than converting costs). Two seconds of 16-bit
    /// PCM, all enqueued before the start, take about fifteen refills of the 8192-frame ring;
    /// the render thread is woken only by the start and the stop, however long the queue plays.
    @Test func linearPCMRefillsOnTheDeviceThread() throws {
        let format = AudioStreamBasicDescription.linearPCM(sampleRate: 44100, channels: 2, bitsPerChannel: 16, isFloat: false)
        let device = try NullDevice(sampleRate: 44100, channels: 2, periodFrames: 1024)
        let queue = try AudioQueue(format: format, device: device) { _, _ in }
        for _ in 0..<4 {
            let buffer = try queue.allocateBuffer(byteCapacity: 22050 * 4)
            buffer.audioData.initializeMemory(as: UInt8.self, repeating: 0x11, count: 22050 * 4)
            buffer.audioDataByteSize = 22050 * 4
            try queue.enqueue(buffer)
        }
        let counts = try refillCountsOfAPlay(queue, stopping: true)
        #expect(device.framesRendered >= 88200, "played \(device.framesRendered) frames")
        #expect(counts.ioThread >= 10 && counts.renderThread <= 5, "\(counts)")
    }

    /// A codec's packets are decoded on the render thread, never on the device's (where they
    /// would hold up every stream that thread serves).
    @Test func codecPacketsAreDecodedOnTheRenderThread() throws {
        let name = "caf-aac-2ch-48000.caf"
        let device = try NullDevice(sampleRate: 48000, channels: 2, periodFrames: 1024)
        let player = try FilePlayer(path: Fixtures.path(name), loops: 10, device: device)
        for b in player.buffers { player.fill(b) }
        let counts = try refillCountsOfAPlay(player.queue!, stopping: false)
        #expect(player.failure == nil)
        #expect(device.framesRendered >= 72000, "played \(device.framesRendered) frames")
        #expect(counts.ioThread == 0 && counts.renderThread >= 10, "\(counts)")
    }

    /// Starts `queue` (and asks it to stop once it has played what is enqueued, when
    /// `stopping`), waits for it to stop, disposes of it and returns how its ring was refilled.
    private func refillCountsOfAPlay(_ queue: AudioQueue, stopping: Bool) throws -> (ioThread: Int, renderThread: Int) {
        let stopped = DispatchSemaphore(value: 0)
        try queue.addPropertyListener(.isRunning) { q, _ in if !q.isRunning { stopped.signal() } }
        try queue.start()
        if stopping { try queue.stop(immediate: false) }
        #expect(stopped.wait(timeout: .now() + 30) == .success, "playback did not end")
        let counts = queue.refillCounts
        try queue.dispose(immediate: true)
        return counts
    }

    /// Running dry while playing is an underrun: the device plays silence and the timeline
    /// reports a discontinuity, once.
    @Test func underrunIsATimelineDiscontinuity() throws {
        let format = AudioStreamBasicDescription.linearPCM(sampleRate: 48000, channels: 1, bitsPerChannel: 32, isFloat: true)
        let device = try NullDevice(sampleRate: 48000, channels: 1, periodFrames: 256)
        let queue = try AudioQueue(format: format, device: device) { _, _ in }
        let timeline = try queue.makeTimeline()
        try queue.enqueue(try floatBuffer(queue, [Float](repeating: 0.5, count: 2400)))
        try queue.start()
        // Once the device has played a period past the 2400 frames, the timeline has run dry;
        // the discontinuity stays reported until it is read.
        #expect(eventually { device.framesRendered >= 2400 + 256 })
        let time = try queue.currentTime(timeline: timeline)
        #expect(time.discontinuity)
        #expect(time.timeStamp.sampleTime >= 2400)
        #expect(time.timeStamp.flags.contains(.sampleTimeValid))
        #expect(try queue.deviceCurrentTime().sampleTime > 0)
        try queue.dispose(immediate: true)
    }

    /// stop(immediate: true) on a live queue: every buffer comes back before it returns and
    /// no callback runs after.
    @Test func synchronousStopOfALiveQueue() throws {
        let format = AudioStreamBasicDescription.linearPCM(sampleRate: 48000, channels: 2, bitsPerChannel: 32, isFloat: true)
        let log = CallbackLog()
        let callbacks = DispatchQueue(label: "callbacks")
        let queue = try AudioQueue(
            format: format, callbackQueue: callbacks, device: try NullDevice(sampleRate: 48000, channels: 2, periodFrames: 256)
        ) { queue, buffer in
            log.record(buffer)
            try? queue.enqueue(buffer)   // keep playing forever
        }
        for _ in 0..<3 { try queue.enqueue(try floatBuffer(queue, ramp(frames: 480, channels: 2))) }
        try queue.start()
        #expect(eventually { log.count >= 10 })
        try queue.stop(immediate: true)
        let atReturn = log.count
        #expect(queue.state == .stopped && !queue.isRunning)
        // Disposing joins the queue's threads, and a block on the callback queue runs after any
        // callback already sent there: a callback after stop returned would have run by now.
        try queue.dispose(immediate: true)
        callbacks.sync {}
        #expect(log.count == atReturn)
    }

    /// After an asynchronous stop has played everything, the same queue and device start again.
    @Test func startsAgainAfterAnAsynchronousStop() throws {
        let format = AudioStreamBasicDescription.linearPCM(sampleRate: 48000, channels: 1, bitsPerChannel: 32, isFloat: true)
        let device = try NullDevice(sampleRate: 48000, channels: 1, periodFrames: 480)
        let queue = try AudioQueue(format: format, device: device) { _, _ in }
        let stopped = DispatchSemaphore(value: 0)
        try queue.addPropertyListener(.isRunning) { q, _ in if !q.isRunning { stopped.signal() } }
        for round in 0..<2 {
            try queue.enqueue(try floatBuffer(queue, [Float](repeating: 0.25, count: 2400)))
            try queue.start()
            try queue.stop(immediate: false)
            #expect(stopped.wait(timeout: .now() + 10) == .success, "round \(round) did not end")
            #expect(queue.state == .stopped)
        }
        #expect(device.framesRendered >= 4800)
        try queue.dispose(immediate: true)
    }

    /// A start at a future host time: nothing plays and isRunning stays false until then.
    @Test func startAtAHostTimeWaitsForIt() throws {
        let format = AudioStreamBasicDescription.linearPCM(sampleRate: 48000, channels: 1, bitsPerChannel: 32, isFloat: true)
        let device = try NullDevice(sampleRate: 48000, channels: 1, periodFrames: 480)
        let queue = try AudioQueue(format: format, device: device) { _, _ in }
        let started = DispatchSemaphore(value: 0)
        try queue.addPropertyListener(.isRunning) { q, _ in if q.isRunning { started.signal() } }
        try queue.enqueue(try floatBuffer(queue, [Float](repeating: 0.25, count: 4800)))
        let at = HostTime.now() + 300_000_000
        try queue.start(at: AudioTimeStamp(hostTime: at, flags: .hostTimeValid))
        let rendered = device.framesRendered, running = queue.isRunning
        // Nothing before the time asked for; what is seen after it (a busy machine can keep
        // this thread waiting that long) proves nothing either way.
        if HostTime.now() < at {
            #expect(rendered == 0)
            #expect(!running)
        }
        #expect(started.wait(timeout: .now() + 10) == .success)
        #expect(HostTime.now() >= at)
        #expect(device.framesRendered > 0)
        try queue.dispose(immediate: true)
    }
}
