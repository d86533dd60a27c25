import Foundation
import Testing
import Dispatch
import Locking
import Synchronization
import AudioCore
import AudioDevices
import AudioDevicePulse
import AudioQueueServices
import AudioTestSupport
import ProcessSupport

extension SharedServer {
    /// A queue with nothing to play (a sound effect's voice between sounds) leaves its
    /// PulseAudio stream idle instead of writing silence on every request: the server plays
    /// out what it has and stops asking. The queue's time goes on meanwhile, and the next
    /// sound plays whole.
    @Suite("Idling between sounds")
    struct IdlePlayback {
        /// Two sounds a second apart through a queue: both come back whole through the
        /// monitor, with the dry spell between them as silence, and the queue's time advances
        /// through the dry spell at about the sample rate.
        @Test func aQueueRunDryPlaysTheNextSoundWhole() throws {
            let rate = 48_000
            let reference = try referenceDecode(try noiseFile(seconds: 4, name: "idle")).samples
            let first = Array(reference[(rate / 2 * 2)..<(rate * 8 / 10 * 2)])          // 0.3 s
            let second = Array(reference[(rate * 2 * 2)..<(rate * 23 / 10 * 2)])        // 0.3 s

            let input = try PulseBackend().makeInput(name: "\(Server.sink).monitor", sampleRate: 48000, channels: 2, bufferFrames: 1024)
            defer { input.close() }
            let recorder = MonitorRecorder(seconds: 10, rate: 48000, channels: 2)
            try input.start(sink: recorder)

            // 170 ms of buffer: enough that a busy machine does not underrun a sound that must
            // come back exactly (85 ms underran under load), short enough that the stream plays
            // out and idles between the sounds (with 250 ms it never idled).
            let output = try PulseBackend().makeOutput(name: Server.sink, sampleRate: 48000, channels: 2, bufferFrames: 8192)
            let format = AudioStreamBasicDescription.linearPCM(sampleRate: 48000, channels: 2, bitsPerChannel: 32, isFloat: true)
            let returned = DispatchSemaphore(value: 0)
            let queue = try AudioQueue(format: format, device: output) { _, _ in returned.signal() }
            func enqueue(_ samples: [Float]) throws {
                let buffer = try queue.allocateBuffer(byteCapacity: samples.count * 4)
                samples.withUnsafeBytes { buffer.audioData.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
                buffer.audioDataByteSize = samples.count * 4
                try queue.enqueue(buffer)
            }
            try enqueue(first)
            try queue.start()
            try #require(returned.wait(timeout: .now() + 10) == .success, "the first sound did not come back")

            // The stream plays out its last ~170 ms and idles; the queue's time goes on.
            Thread.sleep(forTimeInterval: 0.4)
            let t0 = try queue.currentTime().timeStamp
            Thread.sleep(forTimeInterval: 0.5)
            let t1 = try queue.currentTime().timeStamp
            let seconds = Double(t1.hostTime - t0.hostTime) / 1e9
            let advanced = (t1.sampleTime - t0.sampleTime) / 48000
            #expect(advanced > seconds * 0.8 && advanced < seconds * 1.2,
                    "the queue's time advanced \(advanced) s in \(seconds) s of running dry")

            try enqueue(second)
            try #require(returned.wait(timeout: .now() + 10) == .success, "the second sound did not come back")
            // Its tail (the buffer comes back when decoded, before it has played), and the
            // monitor's: a second recorded after it came back.
            #expect(recorder.waitForMore(seconds: 1, rate: 48000), "the monitor stopped recording")
            input.stop()
            #expect(queue.isRunning, "the queue stopped running while dry")
            // A stop that waits for the queue to play out ends an idle stream too.
            let stopped = DispatchSemaphore(value: 0)
            try queue.addPropertyListener(.isRunning) { q, _ in if !q.isRunning { stopped.signal() } }
            try queue.stop(immediate: false)
            #expect(stopped.wait(timeout: .now() + 5) == .success, "stop(immediate: false) of a dry queue did not finish")
            try queue.dispose(immediate: true)

            // A monitor can miss the first milliseconds of a stream: match each sound from 0.1 s in.
            let recording = recorder.samples
            let skip = rate / 10
            let a = try #require(alignment(of: first, in: recording, channels: 2, from: skip), "the first sound is not in the recording")
            let b = try #require(alignment(of: second, in: recording, channels: 2, from: skip), "the second sound is not in the recording")
            for (name, sound, at) in [("first", first, a), ("second", second, b)] {
                try #require(at + sound.count <= recording.count, "the recording ends inside the \(name) sound")
                let firstBad = (skip * 2..<sound.count).first { abs(recording[at + $0] - sound[$0]) > 1e-4 }
                #expect(firstBad == nil, "the \(name) sound differs from what was enqueued from frame \(firstBad.map { $0 / 2 } ?? 0) of \(sound.count / 2) on")
            }
            // The first buffer came back once decoded, up to ~0.4 s before it finished playing.
            let gap = (b - (a + first.count)) / 2
            #expect(gap >= rate / 2, "\(gap) frames between the sounds; the queue ran dry for about 0.9 s after the first came back")
            let noise = recording[(a + first.count)..<b].firstIndex { $0 != 0 }
            #expect(noise == nil, "the dry spell is not silence from frame \(((noise ?? 0) - a - first.count) / 2) after the first sound on")
        }

        /// At the device: a source that has run dry is not asked again once the server has
        /// played out what it had; `framesPlayed` goes on meanwhile. Told that audio is back, the device plays
        /// it, ends the stream when the source says so, and reports no underrun of its own.
        @Test func aDrySourceIsNotAskedUntilItHasAudio() throws {
            try onTimeChecks("dry source") {
                let rate = 48_000
                let source = BurstSource(frames: rate, ready: rate / 4)
                let device = try PulseOutputDevice(sink: Server.sink, sampleRate: 48000, channels: 2, bufferFrames: 4096)
                defer { device.close() }
                try device.start(source: source)
                try #require(source.started.wait(timeout: .now() + 5) == .success, "no .started")
                try #require(eventually(within: 5) { source.dryCalls.load(ordering: .acquiring) > 0 }, "the source never ran dry")

                // The server plays out its ~85 ms and stops asking: wait until it has not asked for
                // 0.3 s (on a busy machine its last requests can come late), then watch for 0.5 s.
                var last = source.calls.load(ordering: .acquiring), since = HostTime.now()
                try #require(eventually(within: 10) {
                    let calls = source.calls.load(ordering: .acquiring)
                    if calls != last {
                        last = calls
                        since = HostTime.now()
                    }
                    return HostTime.now() - since >= 300_000_000
                }, "the stream kept asking the dry source")
                let calls0 = source.calls.load(ordering: .acquiring)
                let played0 = device.framesPlayed, host0 = HostTime.now()
                Thread.sleep(forTimeInterval: 0.5)
                let calls1 = source.calls.load(ordering: .acquiring)
                let played1 = device.framesPlayed, host1 = HostTime.now()
                #expect(calls1 == calls0, "the idle stream asked the dry source \(calls1 - calls0) times in 0.5 s")
                let seconds = Double(host1 - host0) / 1e9
                let advanced = Double(played1 - played0) / 48000
                #expect(advanced > seconds * 0.8 && advanced < seconds * 1.2, "framesPlayed advanced \(advanced) s in \(seconds) s of idling")

                source.makeReady(rate, ending: true)
                device.sourceHasAudio()
                try #require(source.stopped.wait(timeout: .now() + 10) == .success, "no .stopped after the source ended")
                #expect(device.framesRendered == Int64(rate))
                #expect(source.events.withLock { $0 } == ["started", "stopped(drained: true)"])
                #expect(device.framesPlayed >= played1 + Int64(rate * 3 / 4), "framesPlayed went on by less than what played after the idle spell")
            }
        }
    }
}

/// Renders a quiet tone only as far as it is made ready (``makeReady(_:ending:)``), never
/// silence, and counts the device's calls.
private final class BurstSource: AudioRenderSource, @unchecked Sendable {
    private let total: Int
    private let position = Atomic<Int>(0)
    private let ready: Atomic<Int>
    private let ends = Atomic<Bool>(false)
    let calls = Atomic<Int>(0)
    let dryCalls = Atomic<Int>(0)
    let events = Guarded<[String]>([])
    let started = DispatchSemaphore(value: 0)
    let stopped = DispatchSemaphore(value: 0)

    init(frames: Int, ready: Int) {
        total = frames
        self.ready = Atomic(ready)
    }

    func makeReady(_ frames: Int, ending: Bool) {
        ready.store(min(frames, total), ordering: .releasing)
        ends.store(ending, ordering: .releasing)
    }

    func render(into buffer: UnsafeMutablePointer<Float>, frameCount: Int) -> Int {
        let (n, _) = renderReady(into: buffer, frameCount: frameCount)
        (buffer + n * 2).update(repeating: 0, count: (frameCount - n) * 2)
        return frameCount
    }

    func renderReady(into buffer: UnsafeMutablePointer<Float>, frameCount: Int) -> (frames: Int, ended: Bool) {
        calls.add(1, ordering: .releasing)
        let at = position.load(ordering: .relaxed)
        let n = min(frameCount, ready.load(ordering: .acquiring) - at)
        for i in 0..<n {
            let value = Float(0.2 * sin(2 * Double.pi * 440 * Double(at + i) / 48000))
            buffer[2 * i] = value
            buffer[2 * i + 1] = value
        }
        position.store(at + n, ordering: .relaxed)
        let ended = ends.load(ordering: .acquiring) && at + n == ready.load(ordering: .acquiring)
        if n == 0 && !ended { dryCalls.add(1, ordering: .releasing) }
        return (n, ended)
    }

    func device(_ device: any AudioOutputDevice, didReport event: AudioDeviceEvent) {
        events.withLock { $0.append(eventName(event)) }
        switch event {
        case .started: started.signal()
        case .stopped, .failed: stopped.signal()
        default: break
        }
    }
}
