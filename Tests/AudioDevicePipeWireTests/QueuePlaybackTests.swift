import Foundation
import Testing
import Dispatch
import AudioDevices
import AudioQueueKit
import AudioTestSupport
import ProcessSupport

/// AudioQueueKit registers the backend under the name `AUDIOQUEUE_BACKEND` selects it by.
@Suite("PipeWire backend registration") struct PipeWireRegistration {
    @Test func registerAllRegistersPipewire() {
        AudioQueueKit.registerAll()
        #expect(AudioBackends.backend(named: "pipewire") is PipeWireBackend)
    }
}

extension PipeWireShared {
    @Suite("PipeWire through an audio queue") struct QueuePlayback {
        /// aqplay (an output queue, its file read by AudioFile) plays ffmpeg's 16-bit noise with
        /// `AUDIOQUEUE_BACKEND=pipewire` on the null sink; the monitor, recorded by parecord as
        /// 16-bit, holds every sample of the file.
        @Test func aqplayOnPipeWireIsBitExact() throws {
            let format = TestFormat(format: .int16)
            let signal = try format.noise(frames: 72000, channels: 2, rate: 48000, seed: 33)
            let base = NSTemporaryDirectory() + "aq-pw-aqplay-\(getpid())"
            let raw = base + ".raw", wav = base + ".wav"
            defer {
                unlink(raw)
                unlink(wav)
            }
            let samples = signal.map { Int16(($0 * 32768).rounded()) }
            try samples.withUnsafeBytes { Data($0) }.write(to: URL(fileURLWithPath: raw))
            let made = try runProcess("/usr/bin/ffmpeg", ["-nostdin", "-v", "error", "-y", "-f", "s16le", "-ar", "48000", "-ac", "2", "-i", raw, "-c:a", "pcm_s16le", wav])
            try #require(made.status == 0, "ffmpeg: \(made.err)")
            let recorder = try MonitorRecording(sink: PipeWireServer.sink, codec: "s16le", rate: 48000, channels: 2, channelMap: nil)
            let played = try runProcess(aqplay, [wav], environment: [
                "AUDIOQUEUE_BACKEND": "pipewire", "AUDIOQUEUE_DEVICE": PipeWireServer.sink,
            ], timeout: 60)
            let data = recorder.finish(after: 48000 / 5 * 4)
            #expect(played.status == 0, "aqplay: \(played.err)")
            expectBitExact(signal, format.decode(data, as: "s16le"), channels: 2, "aqplay on pipewire")
        }
    
        /// An output queue (a file player, as the guide's) on a PipeWire device, paused once:
        /// its time and its device's time never go back and never pass the frames of the file,
        /// the device's time ends at the file's length, and the monitor holds every frame in
        /// order, silence only where the queue was paused.
        @Test func queueTimesOnPipeWire() throws {
            let format = TestFormat(format: .float32)
            let signal = try format.noise(frames: 96000, channels: 2, rate: 48000, seed: 44)
            let base = NSTemporaryDirectory() + "aq-pw-queue-\(getpid())"
            let raw = base + ".raw", wav = base + ".wav"
            defer {
                unlink(raw)
                unlink(wav)
            }
            try signal.withUnsafeBytes { Data($0) }.write(to: URL(fileURLWithPath: raw))
            let made = try runProcess("/usr/bin/ffmpeg", ["-nostdin", "-v", "error", "-y", "-f", "f32le", "-ar", "48000", "-ac", "2", "-i", raw, "-c:a", "pcm_f32le", wav])
            try #require(made.status == 0, "ffmpeg: \(made.err)")
            let recorder = try MonitorRecording(sink: PipeWireServer.sink, codec: "float32le", rate: 48000, channels: 2, channelMap: nil)
            let device = try PipeWireOutputDevice(target: PipeWireServer.sink, sampleRate: 48000, channels: 2, bufferFrames: 2048)
            let player = try FilePlayer(path: wav, device: device)
            let queue = try #require(player.queue)
            let stopped = DispatchSemaphore(value: 0)
            try queue.addPropertyListener(.isRunning) { q, _ in if !q.isRunning { stopped.signal() } }
            for b in player.buffers { player.fill(b) }
            try queue.start()
            var queueTimes: [Double] = [], deviceTimes: [Double] = []
            func sample() {
                if let t = try? queue.currentTime().timeStamp, t.flags.contains(.sampleTimeValid) { queueTimes.append(t.sampleTime) }
                if let t = try? queue.deviceCurrentTime(), t.flags.contains(.sampleTimeValid) { deviceTimes.append(t.sampleTime) }
            }
            eventually { sample(); return device.framesPlayed > 24000 }
            try queue.pause()
            Thread.sleep(forTimeInterval: 0.3)
            try queue.start()
            var ended = false
            eventually(within: 30) {
                sample()
                ended = stopped.wait(timeout: .now() + .milliseconds(2)) == .success
                return ended
            }
            #expect(ended, "the queue did not stop at the end")
            let data = recorder.finish(after: 48000 / 5 * 8)
            try queue.dispose(immediate: true)
            #expect(player.failure == nil)
            // A stopped queue's time is 0 again: the readings after the end are left out.
            while queueTimes.count > 1, queueTimes.last == 0 { queueTimes.removeLast() }
            let back = zip(queueTimes, queueTimes.dropFirst()).first { $0 > $1 }
            #expect(back == nil, "the queue's time went back: \(String(describing: back)) of \(queueTimes.count) readings")
            #expect(zip(deviceTimes, deviceTimes.dropFirst()).allSatisfy { $0 <= $1 }, "the device's time went back")
            #expect(deviceTimes.allSatisfy { $0 <= 96000 } && queueTimes.allSatisfy { $0 <= 96000 })
            #expect(device.framesPlayed == 96000, "the device played \(device.framesPlayed) of 96000 frames")
            let comparison = compare(signal, in: format.decode(data, as: "float32le"), channels: 2)
            #expect(comparison.inOrder && comparison.skippedFrames == 0, "\(comparison)")
            #expect(comparison.losses >= 1 && comparison.silentFrames >= 4800, "the pause is not in the recording: \(comparison)")
        }
    }
}
