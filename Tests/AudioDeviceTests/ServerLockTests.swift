import Foundation
import Testing
import Dispatch
import Synchronization
import AudioCore
import AudioDevices
import AudioDevicePulse
import AudioQueueServices
import AudioTestSupport

extension SharedServer {
    /// A queue's calls never wait on the sound server, except starting and stopping: its state
    /// lock never nests the server's, and devices publish their clocks without locks.
    @Suite("Queues do not wait on the sound server")
    struct ServerLock {
        /// Another thread holds the main-loop lock every PulseAudio stream of the process
        /// shares for a second while a playing queue enqueues, reads its time, `isRunning` and
        /// its properties, and sets its volume: every call returns while the lock is still held,
        /// and the fastest of each call's five within 10 ms (a call that waited for the lock
        /// would take the rest of the second). A call that does ask the server (the device's
        /// latency) is the control: it returns only once the lock is let go.
        @Test func aPlayingQueueAnswersWhileTheServerLockIsHeld() throws {
            let output = try PulseBackend().makeOutput(
                name: Server.sink, sampleRate: 48000, channels: 2, bufferFrames: Server.testBufferFrames)
            let pulse = try #require(output as? PulseOutputDevice)
            let format = AudioStreamBasicDescription.linearPCM(sampleRate: 48000, channels: 2, bitsPerChannel: 32, isFloat: true)
            let queue = try AudioQueue(format: format, device: output) { _, _ in }
            defer { try? queue.dispose(immediate: true) }
            // Four seconds enqueued, so that the queue plays throughout; five more buffers for
            // the enqueues timed below.
            let bytes = 48000 / 2 * 8
            var buffers: [AudioQueueBuffer] = []
            for _ in 0..<13 {
                let buffer = try queue.allocateBuffer(byteCapacity: bytes)
                buffer.audioData.initializeMemory(as: UInt8.self, repeating: 0, count: bytes)
                buffer.audioDataByteSize = bytes
                buffers.append(buffer)
            }
            for buffer in buffers.prefix(8) { try queue.enqueue(buffer) }
            try queue.start()
            let deadline = Date().addingTimeInterval(10)
            while !queue.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
            try #require(queue.isRunning, "the queue did not start playing")

            let released = Atomic<Bool>(false)
            let locked = DispatchSemaphore(value: 0)
            let done = DispatchSemaphore(value: 0)
            Thread {
                pulse.withMainLoopLocked {
                    locked.signal()
                    Thread.sleep(forTimeInterval: 1)
                    released.store(true, ordering: .sequentiallyConsistent)
                }
                done.signal()
            }.start()
            locked.wait()
            // The control: a call that does take the server's lock waits for the second's end.
            let controlWaited = Atomic<Bool>(false)
            let controlDone = DispatchSemaphore(value: 0)
            Thread {
                _ = pulse.presentationDelay
                controlWaited.store(released.load(ordering: .sequentiallyConsistent), ordering: .sequentiallyConsistent)
                controlDone.signal()
            }.start()

            var spare = buffers.dropFirst(8).makeIterator()
            let calls: [(String, () throws -> Void)] = [
                ("enqueue", { try queue.enqueue(spare.next()!) }),
                ("currentTime", { _ = try queue.currentTime() }),
                ("deviceCurrentTime", { _ = try queue.deviceCurrentTime() }),
                ("isRunning", { _ = queue.isRunning }),
                ("state", { _ = queue.state }),
                ("currentDevice", { _ = queue.currentDevice }),
                ("currentDeviceInfo", { _ = queue.currentDeviceInfo }),
                ("converterError", { _ = queue.converterError }),
                ("deviceSampleRate", { _ = queue.deviceSampleRate }),
                ("decodeBufferSizeFrames", { _ = queue.decodeBufferSizeFrames }),
                ("channelLayout", { _ = try queue.channelLayout }),
                ("volume", { _ = try queue.parameter(.volume) }),
                ("setVolume", { try queue.setParameter(.volume, 1) }),
                ("makeTimeline", { _ = try queue.makeTimeline() }),
            ]
            var fastest: [String: Double] = [:]
            var late: [String] = []
            for (name, call) in calls {
                for _ in 0..<5 {
                    let start = DispatchTime.now().uptimeNanoseconds
                    try call()
                    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
                    fastest[name] = min(fastest[name] ?? .infinity, seconds)
                    if released.load(ordering: .sequentiallyConsistent) { late.append(name) }
                }
            }
            done.wait()
            controlDone.wait()
            let waited = controlWaited.load(ordering: .sequentiallyConsistent)
            #expect(waited, "the device's latency, which asks the server, did not wait")
            #expect(late.isEmpty, "returned only after the lock was let go: \(Set(late).sorted())")
            for (name, seconds) in fastest.sorted(by: { $0.key < $1.key }) {
                #expect(seconds < 0.010, "\(name) took \(seconds * 1000) ms at the fastest")
            }
        }
    }
}
