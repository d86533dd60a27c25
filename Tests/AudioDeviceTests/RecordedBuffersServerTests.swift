import Foundation
import Testing
import Dispatch
import Locking
import AudioCore
import AudioDevices
import AudioDevicePulse
import AudioQueueServices
import AudioTestSupport

extension SharedServer {
    /// An input queue's recorded buffers as an `AsyncSequence`, recording the null sink's
    /// monitor through the private sound server while a queue plays noise into the sink.
    @Suite("Recorded buffers from the sound server", .timeLimit(.minutes(1)))
    struct RecordedBuffersFromServer {
        @Test func everyIMA4BufferFromTheMonitorArrivesInOrder() async throws {
            let noise = try noiseFile(seconds: 2, name: "seq")
            let input = try PulseBackend().makeInput(name: "\(Server.sink).monitor", sampleRate: 48000, channels: 2, bufferFrames: 480)
            let ima4 = AudioStreamBasicDescription(
                sampleRate: 48000, formatID: .appleIMA4, formatFlags: [], bytesPerPacket: 68, framesPerPacket: 64,
                bytesPerFrame: 0, channelsPerFrame: 2, bitsPerChannel: 0)
            let queue = try AudioInputQueue(format: ima4, device: input, bufferCount: 3, bufferDuration: 0.25)
            let buffers = queue.recordedBuffers
            let consumer = Task {
                var all: [AudioInputQueue.RecordedBuffer] = []
                for await recorded in buffers { all.append(recorded) }
                return all
            }
            try queue.start()
            let output = try PulseBackend().makeOutput(name: Server.sink, sampleRate: 48000, channels: 2, bufferFrames: Server.testBufferFrames)
            let player = try FilePlayer(path: noise, device: output)
            let playing = try #require(player.queue)
            for b in player.buffers { player.fill(b) }
            try playing.start()
            // The start returns before the device delivers (an idle null sink's monitor may
            // wait for something to play); isRunning says when it does. 20 s: a guard.
            let began = await withTaskGroup(of: Bool.self) { group in
                group.addTask { for await running in queue.isRunningChanges where running { return true }; return false }
                group.addTask { try? await Task.sleep(for: .seconds(20)); return false }
                let first = await group.next() ?? false
                group.cancelAll()
                return first
            }
            #expect(began, "recording did not begin")
            try await playing.playToEnd()
            try await queue.stop()
            try playing.dispose(immediate: true)

            let all = await consumer.value
            #expect(!all.isEmpty)
            var next = all.first?.startTime.sampleTime ?? 0
            for recorded in all {
                #expect(recorded.startTime.sampleTime == next)
                #expect(recorded.bytes.count == recorded.packetCount * 68)
                #expect(recorded.frameCount == recorded.packetCount * 64)
                #expect(recorded.packetDescriptions.isEmpty)
                next += Double(recorded.frameCount)
            }
            // Two seconds of noise played, most of it while recording.
            #expect(next - (all.first?.startTime.sampleTime ?? 0) >= 48000)
            #expect(try queue.lostFrameCount == 0)
            #expect(queue.converterError == 0)
            // Not silence: some packet's samples move (IMA4 packets begin with a predictor).
            #expect(all.contains { $0.bytes.contains { $0 != 0 && $0 != 0x80 } })
            try queue.dispose(immediate: true)
        }
    }
}
