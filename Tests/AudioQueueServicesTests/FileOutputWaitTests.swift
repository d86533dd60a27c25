import Foundation
import Testing
import Dispatch
import Locking
import AudioCore
import AudioDevices
import AudioDeviceFile
import AudioFileServices
import AudioQueueServices

/// A program that plays `samples` the guide's way: a few buffers enqueued before the start,
/// each refilled and enqueued again from its callback, and an asynchronous stop once the
/// samples run out. Before each refill its callback calls `hold` with the callback's number
/// (from 1) and the frames enqueued so far, which may keep it waiting.
private final class RefillingPlayer: @unchecked Sendable {
    let samples: [Float]
    let bufferFrames: Int
    let hold: @Sendable (_ queue: AudioQueue, _ callback: Int, _ enqueued: Int) -> Void
    private let state = Guarded<(next: Int, callbacks: Int, stopping: Bool)>((0, 0, false))
    let stopped = DispatchSemaphore(value: 0)

    init(samples: [Float], bufferFrames: Int, hold: @escaping @Sendable (AudioQueue, Int, Int) -> Void) {
        self.samples = samples
        self.bufferFrames = bufferFrames
        self.hold = hold
    }

    /// The next buffer's worth of samples, and the frames enqueued once it is.
    private func takeNext() -> ArraySlice<Float> {
        state.withLock { s in
            let end = min(s.next + bufferFrames, samples.count)
            defer { s.next = end }
            return samples[s.next..<end]
        }
    }

    func fill(_ buffer: AudioQueueBuffer, with chunk: ArraySlice<Float>) {
        chunk.withUnsafeBytes { buffer.audioData.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        buffer.audioDataByteSize = chunk.count * 4
    }

    func callback(_ queue: AudioQueue, _ buffer: AudioQueueBuffer) {
        let (number, enqueued) = state.withLock { s in
            s.callbacks += 1
            return (s.callbacks, s.next)
        }
        hold(queue, number, enqueued)
        let chunk = takeNext()
        if chunk.isEmpty {
            let first = state.withLock { s in
                defer { s.stopping = true }
                return !s.stopping
            }
            if first { try? queue.stop(immediate: false) }
            return
        }
        fill(buffer, with: chunk)
        do {
            try queue.enqueue(buffer)
        } catch {
            Issue.record("enqueue failed: \(error)")
        }
    }

    /// Plays everything through `device` with `buffers` buffers and waits for the queue to
    /// stop; returns whether the queue's timeline saw a discontinuity meanwhile.
    func play(through device: WAVFileDevice, buffers: Int = 3) throws -> Bool {
        let queue = try AudioQueue(format: float32Mono, device: device) { [self] queue, buffer in callback(queue, buffer) }
        defer { try? queue.dispose(immediate: true) }
        try queue.addPropertyListener(.isRunning) { [stopped] q, _ in if !q.isRunning { stopped.signal() } }
        let timeline = try queue.makeTimeline()
        for _ in 0..<buffers {
            let buffer = try queue.allocateBuffer(byteCapacity: bufferFrames * 4)
            fill(buffer, with: takeNext())
            try queue.enqueue(buffer)
        }
        try queue.start()
        #expect(stopped.wait(timeout: .now() + 120) == .success, "the queue did not stop")
        return try queue.currentTime(timeline: timeline).discontinuity
    }
}

/// The samples of the WAVE file at `path` (32-bit float, as the file device writes).
private func samplesOfFile(_ path: String) throws -> [Float] {
    let file = try AudioFile(path: path)
    let bytes = try file.dataByteCount > 0 ? file.readBytes(at: 0, count: Int(file.dataByteCount)) : []
    return bytes.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
}

/// Waits for `condition` for up to a minute; a hang is a failure.
private func waitLong(_ what: String, _ condition: () -> Bool) {
    let deadline = DispatchTime.now() + 60
    while !condition() {
        if DispatchTime.now() > deadline {
            Issue.record("timed out waiting until \(what)")
            return
        }
        usleep(500)
    }
}

/// The WAVE file output has no clock to miss: when the queue is late — its render thread, or
/// the program's callback refilling a buffer — it waits, and the file holds exactly what the
/// queue rendered. Only a gap the program leaves of its own accord (nothing enqueued, no
/// callback outstanding) is silence in the file.
@Suite("WAVE file output waits for a late queue")
struct FileOutputWaitTests {
    static func temporaryPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(getpid())-\(UUID().uuidString).wav").path
    }

    /// Every fourth callback holds its refill back until the device has written everything
    /// enqueued and has since found the queue not ready at least twice: the ring is empty and
    /// the program late. The file is the ramp enqueued, bit for bit, with no silence in it;
    /// the queue counted no underrun; and the queue's time kept step with the frames written.
    @Test(arguments: [AudioDevicePacing.realTime, .unpaced])
    func aLateCallbackLeavesNoSilenceInTheFile(pacing: AudioDevicePacing) throws {
        let path = Self.temporaryPath("late-callback")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let device = try WAVFileDevice(path: path, sampleRate: 48000, channels: 1, pacing: pacing, periodFrames: 256)
        let samples = ramp(frames: 3 * 1024 * 8, channels: 1)
        let timesAtWait = Guarded<[(time: Double, enqueued: Int)]>([])
        let player = RefillingPlayer(samples: samples, bufferFrames: 1024) { queue, number, enqueued in
            guard number % 4 == 0, enqueued < samples.count else { return }
            waitLong("the device has written the \(enqueued) frames enqueued") { device.framesRendered >= Int64(enqueued) }
            let looks = device.waitCount
            waitLong("the device has found the queue not ready twice more") { device.waitCount >= looks + 2 }
            if let time = try? queue.currentTime() { timesAtWait.withLock { $0.append((time.timeStamp.sampleTime, enqueued)) } }
        }
        let discontinuity = try player.play(through: device)
        device.close()
        let written = try samplesOfFile(path)
        #expect(written.count == samples.count)
        #expect(written == samples, "the file differs from what was enqueued from frame \(written.indices.first { $0 >= samples.count || written[$0] != samples[$0] }.map(String.init) ?? "-")")
        #expect(!written.contains(0), "silence in the file")
        #expect(!discontinuity, "the queue counted an underrun")
        let times = timesAtWait.withLock { $0 }
        // While the device waits, the queue's time stands at the frames written: the same
        // distance from the frames enqueued at every wait (what the device took before the
        // queue read its clock at the start, if anything), none lost or added.
        #expect(times.count == 5)
        let offsets = Set(times.map { Double($0.enqueued) - $0.time })
        #expect(offsets.count == 1 && offsets.first.map { $0 >= 0 } == true, "the queue's time while the device waited: \(times)")
    }

    /// A program that lets its only buffer come back and enqueues nothing for a while (no
    /// callback outstanding) has left a gap of its own: the file holds silence there, counted
    /// as a discontinuity of the queue's timeline, between the audio before and after it.
    @Test func aGapTheProgramLeavesIsSilence() throws {
        let path = Self.temporaryPath("own-gap")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let device = try WAVFileDevice(path: path, sampleRate: 48000, channels: 1, pacing: .realTime, periodFrames: 256)
        let first = ramp(frames: 2048, channels: 1), second = ramp(frames: 1500, channels: 1, from: 2048)
        let returned = Guarded<AudioQueueBuffer?>(nil)
        let queue = try AudioQueue(format: float32Mono, device: device) { _, buffer in returned.withLock { $0 = buffer } }
        defer { try? queue.dispose(immediate: true) }
        let stopped = DispatchSemaphore(value: 0)
        try queue.addPropertyListener(.isRunning) { q, _ in if !q.isRunning { stopped.signal() } }
        let timeline = try queue.makeTimeline()
        try queue.enqueue(try floatBuffer(queue, first))
        try queue.start()
        // The callback has returned; the program enqueues nothing until the device has
        // written at least 4096 frames of the gap.
        waitLong("the buffer has come back") { returned.withLock { $0 } != nil }
        waitLong("the device has gone on past the buffer") { device.framesRendered >= 2048 + 4096 }
        let buffer = try #require(returned.withLock { $0 })
        second.withUnsafeBytes { buffer.audioData.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        buffer.audioDataByteSize = second.count * 4
        try queue.enqueue(buffer)
        try queue.stop(immediate: false)
        #expect(stopped.wait(timeout: .now() + 60) == .success, "the queue did not stop")
        let discontinuity = try queue.currentTime(timeline: timeline).discontinuity
        device.close()
        let written = try samplesOfFile(path)
        try #require(written.count >= first.count + 4096 + second.count)
        #expect(Array(written.prefix(first.count)) == first)
        #expect(Array(written.suffix(second.count)) == second)
        #expect(written[first.count..<(written.count - second.count)].allSatisfy { $0 == 0 }, "the gap is silence")
        #expect(discontinuity, "the gap is a discontinuity of the queue's timeline")
    }
}
