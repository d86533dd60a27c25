import Foundation
import Testing
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
    }
}
