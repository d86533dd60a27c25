import Foundation
import Testing
import Dispatch
import ProcessSupport
import AudioCore
import AudioDeviceFile
import AudioFileServices
import AudioQueueServices

/// The time/pitch unit on a live queue, playing to a WAVE file device in real time, with the
/// stand-in processor (see ``StandInTimePitch``): what the unit holds plays at the end of an
/// asynchronous stop and after `AudioQueueFlush`, and the ring is refilled on the render thread.
@Suite("Time/pitch: live playback")
struct TimePitchLiveTests {
    /// A live queue of Float32 stereo at 48 kHz playing to a new WAVE file, with the stand-in
    /// unit at `rate`, holding back 2000 frames until the end.
    func liveQueue(rate: Float, label: String) throws -> (AudioQueue, WAVFileDevice) {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tp-\(getpid())-\(label).wav").path
        let device = try WAVFileDevice(path: path, sampleRate: 48000, channels: 2, periodFrames: 480)
        let format = AudioStreamBasicDescription.linearPCM(sampleRate: 48000, channels: 2, bitsPerChannel: 32, isFloat: true)
        let queue = try AudioQueue(format: format, device: device) { _, _ in }
        queue.setTimePitchProcessorFactory(StandInTimePitch.factory(latency: 2000))
        try queue.setTimePitchEnabled(true)
        try queue.setParameter(.playRate, rate)
        return (queue, device)
    }

    /// Frames of the file whose first sample is `value`.
    func frames(of value: Float, in device: WAVFileDevice) throws -> Int {
        device.close()
        defer { try? FileManager.default.removeItem(atPath: device.path) }
        let file = try AudioFile(path: device.path)
        let bytes = try file.readBytes(at: 0, count: Int(file.dataByteCount))
        let samples = bytes.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        return stride(from: 0, to: samples.count, by: 2).count { samples[$0] == value }
    }

    @Test func asynchronousStopPlaysWhatTheUnitHolds() throws {
        let (queue, device) = try liveQueue(rate: 2, label: "stop")
        try queue.enqueue(try floatBuffer(queue, [Float](repeating: 0.5, count: 24000 * 2)))
        let stopped = DispatchSemaphore(value: 0)
        try queue.addPropertyListener(.isRunning) { q, _ in if !q.isRunning { stopped.signal() } }
        try queue.start()
        try queue.stop(immediate: false)
        #expect(stopped.wait(timeout: .now() + 20) == .success, "playback did not end")
        // With the unit in, the ring is refilled on the render thread only.
        #expect(queue.refillCounts.ioThread == 0)
        try queue.dispose(immediate: true)
        #expect(try frames(of: 0.5, in: device) == 12000)
    }

    @Test func flushPlaysWhatTheUnitHolds() throws {
        let (queue, device) = try liveQueue(rate: 2, label: "flush")
        try queue.enqueue(try floatBuffer(queue, [Float](repeating: 0.25, count: 24000 * 2)))
        try queue.start()
        try queue.flush()
        // Without the flush the unit would hold back its last 2000 frames.
        #expect(eventually { device.framesRendered >= 12000 })
        // The queue's time counts source frames: two per frame played.
        let time = try queue.currentTime().timeStamp.sampleTime
        #expect(time >= 24000 - 2000, "queue time \(time) after \(device.framesRendered) frames at rate 2")
        try queue.stop(immediate: true)
        try queue.dispose(immediate: true)
        #expect(try frames(of: 0.25, in: device) == 12000)
    }
}
