import Foundation
import Testing
import Dispatch
import AudioCore
import AudioDevices
import AudioDeviceALSA
import AudioDevicePulse
import AudioQueueServices
import AudioTestSupport
import ProcessSupport

/// Channel assignments on real devices: a stereo queue's channels on channels 3 and 4 of a
/// four-channel device, silence on 1 and 2.
enum ChannelAssignmentPlayback {
    /// Registers the sound backends, unless they are registered already, with the priorities
    /// `AudioQueueKit.registerAll()` gives them: other suites of this process call that at any
    /// time, even between the check and the registration here, and whichever registers last
    /// leaves the default chain as the other would.
    static func registerBackends() {
        if AudioBackends.backend(named: "pulse") == nil { AudioBackends.register(PulseBackend(), priority: 20) }
        if AudioBackends.backend(named: "alsa") == nil { AudioBackends.register(ALSABackend(), priority: 10) }
    }

    static let seconds = 1.5
    static let frequencies = (left: 440.0, right: 1000.0)

    /// Plays `seconds` of a 440 Hz left and 1 kHz right tone through a stereo Float32 queue with
    /// its channels on `numbers` of device `uid`, and waits for the end.
    static func play(uid: String, numbers: [Int]) throws {
        registerBackends()
        let format = AudioStreamBasicDescription.linearPCM(sampleRate: 48000, channels: 2, bitsPerChannel: 32, isFloat: true)
        let queue = try AudioQueue(format: format) { _, _ in }
        let done = DispatchSemaphore(value: 0)
        try queue.addPropertyListener(.isRunning) { q, _ in if !q.isRunning { done.signal() } }
        try queue.setChannelAssignments(numbers.map { AudioQueueChannelAssignment(deviceUID: uid, channelNumber: $0) })
        let frames = Int(seconds * 48000)
        let buffer = try queue.allocateBuffer(byteCapacity: frames * 8)
        let samples = buffer.audioData.assumingMemoryBound(to: Float.self)
        for i in 0..<frames {
            samples[2 * i] = Float(0.5 * sin(2 * .pi * frequencies.left * Double(i) / 48000))
            samples[2 * i + 1] = Float(0.5 * sin(2 * .pi * frequencies.right * Double(i) / 48000))
        }
        buffer.audioDataByteSize = frames * 8
        try queue.enqueue(buffer)
        try queue.start()
        try queue.stop(immediate: false)
        #expect(done.wait(timeout: .now() + 20) == .success, "\(uid): playback did not end")
        #expect(queue.currentDevice?.hasPrefix(uid.split(separator: ":").first.map(String.init) ?? uid) == true)
        try queue.dispose(immediate: true)
    }

    /// Checks a four-channel recording: channels 1 and 2 silent, 3 and 4 the tones, by their
    /// frequencies over the part where channel 3 sounds.
    static func checkPlacement(_ samples: [Float], label: String) {
        func channel(_ c: Int) -> [Float] { stride(from: c, to: samples.count, by: 4).map { samples[$0] } }
        let channels = (0..<4).map(channel)
        #expect(channels[0].allSatisfy { abs($0) < 1e-4 }, "\(label): channel 1 is not silent (peak \(channels[0].map(abs).max() ?? 0))")
        #expect(channels[1].allSatisfy { abs($0) < 1e-4 }, "\(label): channel 2 is not silent (peak \(channels[1].map(abs).max() ?? 0))")
        guard let first = channels[2].firstIndex(where: { abs($0) > 0.05 }), let last = channels[2].lastIndex(where: { abs($0) > 0.05 }) else {
            Issue.record("\(label): channel 3 is silent (\(channels[2].count) frames recorded)")
            return
        }
        // At least a second of the tones, their middle half measured.
        #expect(last - first >= 48000, "\(label): \(Double(last - first) / 48000) s of the tone on channel 3")
        let from = first + (last - first) / 4, to = last - (last - first) / 4
        let third = frequency(Array(channels[2][from..<to])), fourth = frequency(Array(channels[3][from..<to]))
        #expect(abs(third - frequencies.left) < 2, "\(label): channel 3 at \(third) Hz")
        #expect(abs(fourth - frequencies.right) < 2, "\(label): channel 4 at \(fourth) Hz")
    }

    /// The frequency of a 48 kHz sine from its rising zero crossings.
    static func frequency(_ x: [Float]) -> Double {
        var crossings: [Int] = []
        for i in 1..<max(1, x.count) where x[i - 1] < 0 && x[i] >= 0 { crossings.append(i) }
        guard crossings.count >= 2 else { return 0 }
        return Double(crossings.count - 1) / (Double(crossings.last! - crossings.first!) / 48000)
    }

    /// Interleaved Float32 samples from a raw file.
    static func rawFloats(_ path: String) -> [Float] {
        guard let data = FileManager.default.contents(atPath: path) else { return [] }
        return data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }
}

@Suite("Channel assignments on ALSA")
struct ChannelAssignmentALSATests {
    /// alsa-lib's `file` PCM writes what it is given: opened with four channels (the highest
    /// assigned; ALSA lists no channel count for a PCM name), the tones in 3 and 4.
    @Test func stereoOnChannelsThreeAndFourOfAFilePCM() throws {
        let path = NSTemporaryDirectory() + "aq-assign-alsa-\(getpid()).raw"
        defer { unlink(path) }
        try ChannelAssignmentPlayback.play(uid: "alsa:file:FILE=\(path),FORMAT=raw", numbers: [3, 4])
        let samples = ChannelAssignmentPlayback.rawFloats(path)
        #expect(samples.count >= Int(ChannelAssignmentPlayback.seconds * 48000) * 4, "\(samples.count / 4) frames written")
        ChannelAssignmentPlayback.checkPlacement(samples, label: "alsa file")
    }
}

extension SharedServer {
    /// A four-channel null sink (front-left, front-right, rear-left, rear-right) on the private
    /// server, its monitor recorded by parecord while a queue plays on its channels 3 and 4.
    @Suite("Channel assignments on a four-channel sink")
    struct ChannelAssignmentPulse {
        /// Plays through `uid` (naming the sink `sink`) while parecord records its monitor.
        func recordQuad(_ sink: String, playing uid: String, map: String = Self.quad) throws -> [Float] {
            let raw = NSTemporaryDirectory() + "aq-assign-\(sink).raw"
            defer { unlink(raw) }
            let recorder = Process()
            recorder.executableURL = URL(fileURLWithPath: "/usr/bin/parecord")
            recorder.arguments = [
                "--device=\(sink).monitor", "--raw", "--format=float32le", "--rate=48000", "--channels=4",
                "--channel-map=\(map)", "--latency-msec=20", raw,
            ]
            try recorder.run()
            // The monitor may begin some milliseconds late: give it time to start.
            Thread.sleep(forTimeInterval: 0.5)
            try ChannelAssignmentPlayback.play(uid: uid, numbers: [3, 4])
            Thread.sleep(forTimeInterval: 0.5)
            // SIGKILL: the test process may block the signals parecord ends on, and a child
            // inherits that; what it recorded is in the file already (the middle is measured).
            kill(recorder.processIdentifier, SIGKILL)
            recorder.waitUntilExit()
            return ChannelAssignmentPlayback.rawFloats(raw)
        }

        static let quad = "front-left,front-right,rear-left,rear-right"

        func loadQuad(_ name: String, map: String = Self.quad) throws -> String {
            let load = try runProcess("/usr/bin/pactl", [
                "load-module", "module-null-sink", "sink_name=\(name)", "format=float32le", "rate=48000", "channels=4",
                "channel_map=\(map)",
            ])
            try #require(load.status == 0, "pactl load-module: \(load.err)")
            return load.out.trimmingCharacters(in: .whitespacesAndNewlines)
        }

        /// On a quad sink, and on one whose channels have no positions (aux0…aux3, as a
        /// multichannel interface's pro-audio profile has): the stream takes the sink's
        /// channels by index, not by name.
        @Test(arguments: [Self.quad, "aux0,aux1,aux2,aux3"])
        func pulseStereoOnChannelsThreeAndFour(map: String) throws {
            let sink = "aqquad\(map.hasPrefix("aux") ? "aux" : "")\(getpid())"
            let module = try loadQuad(sink, map: map)
            defer { _ = try? runProcess("/usr/bin/pactl", ["unload-module", module]) }
            ChannelAssignmentPlayback.registerBackends()
            // The sink's own channel count is what the queue opens it with.
            #expect(AudioBackends.listedDevice(uid: "pulse:\(sink)", direction: .output)?.channels == 4)
            let samples = try recordQuad(sink, playing: "pulse:\(sink)", map: map)
            ChannelAssignmentPlayback.checkPlacement(samples, label: "pulse \(map)")
        }

        /// The same through alsa-lib's `pulse` PCM naming the sink.
        @Test func alsaPulsePCMStereoOnChannelsThreeAndFour() throws {
            let sink = "aqquadalsa\(getpid())"
            let module = try loadQuad(sink)
            defer { _ = try? runProcess("/usr/bin/pactl", ["unload-module", module]) }
            let samples = try recordQuad(sink, playing: "alsa:pulse:DEVICE=\(sink)")
            ChannelAssignmentPlayback.checkPlacement(samples, label: "alsa pulse")
        }

        /// An input queue on the quad sink's monitor records its channels 4 and 2 while paplay
        /// plays four tones (sox made them; the channel map given, since paplay cannot tell it
        /// from the file) into the sink: 900 Hz and 500 Hz, by frequency.
        @Test func inputQueueRecordsChannelsFourAndTwoOfAMonitor() throws {
            let sink = "aqquadin\(getpid())"
            let module = try loadQuad(sink)
            defer { _ = try? runProcess("/usr/bin/pactl", ["unload-module", module]) }
            ChannelAssignmentPlayback.registerBackends()
            let tones = NSTemporaryDirectory() + "aq-assign-tones-\(getpid()).wav"
            defer { unlink(tones) }
            let sox = try runProcess("/usr/bin/sox", [
                "-n", "-r", "48000", "-c", "4", "-e", "floating-point", "-b", "32", tones,
                "synth", "2", "sine", "300", "sine", "500", "sine", "700", "sine", "900", "vol", "0.5",
            ])
            try #require(sox.status == 0, "sox: \(sox.err)")
            let format = AudioStreamBasicDescription.linearPCM(sampleRate: 48000, channels: 2, bitsPerChannel: 32, isFloat: true)
            let recorded = RecordedFloats()
            let queue = try AudioInputQueue(format: format) { q, buffer, _, _, _ in
                recorded.append(buffer)
                try? q.enqueue(buffer)
            }
            let uid = "pulse:\(sink).monitor"
            try queue.setChannelAssignments([.init(deviceUID: uid, channelNumber: 4), .init(deviceUID: uid, channelNumber: 2)])
            for _ in 0..<4 { try queue.enqueue(try queue.allocateBuffer(byteCapacity: 4800 * 8)) }
            try queue.start()
            let play = try runProcess("/usr/bin/paplay", ["--device=\(sink)", "--channel-map=\(Self.quad)", tones], timeout: 20)
            #expect(play.status == 0, "paplay: \(play.err)")
            Thread.sleep(forTimeInterval: 0.3)
            try queue.stop(immediate: true)
            #expect(queue.deviceNumberOfChannels == 4)
            try queue.dispose(immediate: true)
            let samples = recorded.samples
            let first = stride(from: 0, to: samples.count, by: 2).map { samples[$0] }
            let second = stride(from: 1, to: samples.count, by: 2).map { samples[$0] }
            guard let start = first.firstIndex(where: { abs($0) > 0.05 }), let end = first.lastIndex(where: { abs($0) > 0.05 }),
                  end - start > 48000 else {
                Issue.record("\(first.count) frames recorded, too little of the tones")
                return
            }
            let from = start + (end - start) / 4, to = end - (end - start) / 4
            let a = ChannelAssignmentPlayback.frequency(Array(first[from..<to])), b = ChannelAssignmentPlayback.frequency(Array(second[from..<to]))
            #expect(abs(a - 900) < 2, "queue channel 1 (device channel 4): \(a) Hz")
            #expect(abs(b - 500) < 2, "queue channel 2 (device channel 2): \(b) Hz")
        }

        /// A channel past the sink's four is refused when the assignments are set.
        @Test func channelPastTheSinkIsRefused() throws {
            let sink = "aqquadpast\(getpid())"
            let module = try loadQuad(sink)
            defer { _ = try? runProcess("/usr/bin/pactl", ["unload-module", module]) }
            ChannelAssignmentPlayback.registerBackends()
            let format = AudioStreamBasicDescription.linearPCM(sampleRate: 48000, channels: 2, bitsPerChannel: 32, isFloat: true)
            let queue = try AudioQueue(format: format) { _, _ in }
            let uid = "pulse:\(sink)"
            do {
                try queue.setChannelAssignments([.init(deviceUID: uid, channelNumber: 4), .init(deviceUID: uid, channelNumber: 5)])
                Issue.record("channel 5 of a four-channel sink was accepted")
            } catch {
                #expect(error.code == .invalidPropertyValue, "\(error)")
            }
        }
    }
}

/// What an input queue's buffers held, in order.
final class RecordedFloats: @unchecked Sendable {
    private let lock = NSLock()
    private var store: [Float] = []
    func append(_ buffer: AudioQueueBuffer) {
        let p = UnsafeBufferPointer(start: buffer.audioData.assumingMemoryBound(to: Float.self), count: buffer.audioDataByteSize / 4)
        lock.withLock { store += p }
    }
    var samples: [Float] { lock.withLock { store } }
}

@Suite("Channel placement")
struct ChannelPlacementTests {
    @Test func placementsAreChecked() {
        #expect(ChannelPlacement(deviceChannelIndices: [2, 3], deviceChannels: 4) != nil)
        #expect(ChannelPlacement(deviceChannelIndices: [2, 2], deviceChannels: 4) == nil)
        #expect(ChannelPlacement(deviceChannelIndices: [-1, 1], deviceChannels: 4) == nil)
        #expect(ChannelPlacement(deviceChannelIndices: [3, 4], deviceChannels: 4) == nil)
        #expect(ChannelPlacement(deviceChannelIndices: [], deviceChannels: 4) == nil)
        #expect(ChannelPlacement(deviceChannelIndices: [0, 1], deviceChannels: 2)?.isIdentity == true)
        #expect(ChannelPlacement(deviceChannelIndices: [1, 0], deviceChannels: 2)?.isIdentity == false)
    }

    /// A device asking for more frames at once than the wrapper's buffer holds gets them all,
    /// placed; a source that ends short ends the device's request short.
    @Test func placedOutputRendersLongRequestsInPieces() throws {
        let placement = try #require(ChannelPlacement(deviceChannelIndices: [3, 1], deviceChannels: 4))
        let inner = IdleDevice(channels: 4)
        let placed = try PlacedOutputDevice(device: inner, placement: placement)
        #expect(placed.format.channelsPerFrame == 2 && placed.deviceFormat.channelsPerFrame == 4)
        let source = CountingSource(total: 7000)
        // The wrapper as the device's source: asked for 5000 frames, then 5000 more (2000 left).
        let buffer = UnsafeMutablePointer<Float>.allocate(capacity: 5000 * 4)
        defer { buffer.deallocate() }
        try placed.start(source: source)
        #expect(placed.render(into: buffer, frameCount: 5000) == 5000)
        var wrong = 0
        for f in 0..<5000 where buffer[4 * f] != 0 || buffer[4 * f + 2] != 0 || buffer[4 * f + 3] != Float(f) || buffer[4 * f + 1] != -Float(f) {
            wrong += 1
        }
        #expect(wrong == 0, "\(wrong) frames out of place")
        #expect(placed.render(into: buffer, frameCount: 5000) == 2000)
        #expect(buffer[4 * 1999 + 3] == 6999)
        #expect(inner.startedWith === placed)
    }
}

/// Frame f of channel 0 is f, of channel 1 is -f, for `total` frames.
final class CountingSource: AudioRenderSource, @unchecked Sendable {
    let total: Int
    var position = 0
    init(total: Int) { self.total = total }
    func render(into buffer: UnsafeMutablePointer<Float>, frameCount: Int) -> Int {
        let n = min(frameCount, total - position)
        for i in 0..<n {
            buffer[2 * i] = Float(position + i)
            buffer[2 * i + 1] = -Float(position + i)
        }
        position += n
        return n
    }
    func device(_ device: any AudioOutputDevice, didReport event: AudioDeviceEvent) {}
}

/// A device that starts nothing: the test calls its source itself.
final class IdleDevice: AudioOutputDevice, @unchecked Sendable {
    let info = AudioDeviceInfo(backend: "test", name: "idle", description: "Calls nothing")
    let format: AudioStreamBasicDescription
    var startedWith: (any AudioRenderSource)?
    init(channels: Int) { format = .deviceFloat(sampleRate: 48000, channels: channels) }
    func start(source: any AudioRenderSource) throws(AudioDeviceError) { startedWith = source }
    func stop(drain: Bool) {}
    var presentationDelay: Int { 0 }
    var framesRendered: Int64 { 0 }
    var framesPlayed: Int64 { 0 }
    func close() {}
}
