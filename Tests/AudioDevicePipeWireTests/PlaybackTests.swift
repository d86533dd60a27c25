import Foundation
import Testing
import Synchronization
import AudioCore
import AudioDevices
@testable import AudioDevicePipeWire
import ProcessSupport

/// What one playback test plays and how.
struct PlaybackCase: CustomStringConvertible, Sendable {
    var format = TestFormat(format: .float32)
    var channels = 2
    var rate = 48000
    var seconds = 1.0
    var bufferFrames = 4096
    var description: String { "\(format) \(channels) ch \(rate) Hz" }
}

extension PipeWireShared {
    @Suite("PipeWire playback") struct Playback {
        /// Plays `c`'s noise through a device on `sink` (by index when the sink has other
        /// than two channels) while parecord records the monitor in the same format; returns
        /// the signal, the recording, the source and the device's clock readings.
        func playAndRecord(_ c: PlaybackCase, sink: String = PipeWireServer.sink, channelMap: String? = nil, server: OwnPipeWireServer? = nil)
            throws -> (signal: [Float], recording: [Float], source: SignalSource, clock: [Int64], device: PipeWireOutputDevice)
        {
            let frames = Int(c.seconds * Double(c.rate))
            let signal = try c.format.noise(frames: frames, channels: c.channels, rate: c.rate, seed: c.channels * 7 + c.rate % 1000)
            let recorder = try MonitorRecording(
                sink: sink, codec: c.format.pulseName, rate: c.rate, channels: c.channels, channelMap: channelMap, environment: server?.environment ?? [:])
            let device = try PipeWireOutputDevice(
                target: sink, sampleRate: Double(c.rate), channels: c.channels, bufferFrames: c.bufferFrames, sampleFormat: c.format.format,
                channelsByIndex: channelMap != nil, applicationName: "swift-audio-queue", remote: server?.remote)
            let source = SignalSource(signal, channels: c.channels)
            var clock: [Int64] = []
            var ahead: [Int64] = []
            var readings: [(host: UInt64, played: Int64)] = []
            try device.start(source: source)
            let ended = eventually(within: c.seconds + 20) {
                let played = device.framesPlayed
                clock.append(played)
                readings.append((HostTime.now(), played))
                if !source.stopped.load(ordering: .acquiring) { ahead.append(device.framesRendered - played) }
                return source.stopped.load(ordering: .acquiring)
            }
            // Rendered less played: what the stream and the graph hold, never less than nothing
            // and never more than a few of the graph's largest quanta (8192 frames).
            #expect(ahead.allSatisfy { $0 >= 0 && $0 <= 4 * 8192 }, "rendered less played: \(ahead.min() ?? 0)…\(ahead.max() ?? 0)")
            if let low = ahead.min(), let high = ahead.max() { print("\(c): rendered less played \(low)…\(high) frames") }
            // For the record: the clock's rate against the host's between its first and last
            // readings strictly inside the stream.
            let inside = readings.filter { $0.played > 0 && $0.played < Int64(frames) }
            if let first = inside.first, let last = inside.last, last.host > first.host + 100_000_000 {
                let rate = Double(last.played - first.played) / (Double(last.host - first.host) / 1e9)
                print("\(c): device clock \(Int(rate.rounded())) frames per host second over \(inside.count) readings")
            }
            clock.append(device.framesPlayed)
            #expect(ended, "the device did not report the end")
            let data = recorder.finish(after: c.rate / 5 * c.channels * c.format.format.bytes)
            device.close()
            if let dump = ProcessInfo.processInfo.environment["AQ_PIPEWIRE_DUMP"] {
                // For a look at what was played and recorded: the raw files.
                try? Data(signal.withUnsafeBytes { Data($0) }).write(to: URL(fileURLWithPath: dump + ".signal"))
                try? data.write(to: URL(fileURLWithPath: dump + ".recording"))
            }
            return (signal, c.format.decode(data, as: c.format.pulseName), source, clock, device)
        }

        /// Float32 stereo at the graph's rate: bit-exact through the null sink, and the
        /// device's clock: never back, never past what was rendered, all of it at the end.
        @Test func float32StereoIsBitExactAndTheClockCountsItAll() throws {
            let c = PlaybackCase(seconds: 1.5)
            let (signal, recording, source, clock, device) = try playAndRecord(c)
            expectBitExact(signal, recording, channels: 2, "\(c)")
            #expect(zip(clock, clock.dropFirst()).allSatisfy { $0 <= $1 }, "the clock went back")
            #expect(clock.allSatisfy { $0 <= Int64(source.frames) })
            #expect(clock.last == Int64(source.frames), "played \(clock.last ?? -1) of \(source.frames) frames")
            #expect(device.framesRendered == Int64(source.frames))
            // The clock ran while the stream played: readings in between, not only 0 and the end.
            #expect(clock.contains { $0 > 0 && $0 < Int64(source.frames) })
            #expect(source.events.withLock { $0.first?.kind } == .started)
            // The clock's rate against the host's, over the readings in between (for the record).
            let asked = "\(source.fewestAsked.load(ordering: .relaxed))…\(source.mostAsked.load(ordering: .relaxed))"
            print("\(c): frames asked a cycle \(asked), presentation delay at the end \(device.presentationDelay) frames")
        }

        /// Sample formats × channel counts × rates. Rates other than the graph's are played
        /// with the graph forced to that rate (else the graph resamples, which is not exact);
        /// channel counts other than 2 on a null sink of their own, by index (AUX channels).
        @Test(arguments: [TestFormat(format: .float32), TestFormat(format: .int16), TestFormat(format: .int24), TestFormat(format: .int32)],
              [1, 2, 6])
        func formatsAndChannelsAreBitExact(format: TestFormat, channels: Int) throws {
            for rate in [48000, 44100] {
                let c = PlaybackCase(format: format, channels: channels, rate: rate, seconds: 0.5)
                try withGraphSetting("clock.force-rate", rate == 48000 ? 0 : rate) {
                    if channels == 2 {
                        let played = try playAndRecord(c)
                        expectBitExact(played.signal, played.recording, channels: channels, "\(c)")
                    } else {
                        let sink = "aqpw\(channels)ch\(getpid())"
                        let map = (0..<channels).map { "aux\($0)" }.joined(separator: ",")
                        let module = try loadNullSink(sink, channels: channels, map: map)
                        defer { _ = try? runProcess("/usr/bin/pactl", ["unload-module", module]) }
                        let played = try playAndRecord(c, sink: sink, channelMap: map)
                        expectBitExact(played.signal, played.recording, channels: channels, "\(c)")
                    }
                }
            }
        }

        /// The graph's quantum forced to 441 frames (not a power of two, not a divisor of the
        /// request: on a server of the test's own that allows such quanta), to 104 and to 2048:
        /// every cycle asks the source for exactly the quantum, and the sink plays it bit-exact.
        @Test(arguments: [441, 104, 2048])
        func forcedQuantumIsBitExact(quantum: Int) throws {
            let server = OwnPipeWireServer(label: "quantum\(quantum)", sink: "aqquantum", anyQuantum: true)
            defer { server.stop() }
            try server.start()
            try withGraphSetting("clock.force-quantum", quantum, remote: server.remote) {
                let played = try playAndRecord(PlaybackCase(seconds: 1), sink: server.sink, server: server)
                expectBitExact(played.signal, played.recording, channels: 2, "quantum \(quantum)")
                #expect(played.clock.last == Int64(played.source.frames))
                let fewest = played.source.fewestAsked.load(ordering: .relaxed), most = played.source.mostAsked.load(ordering: .relaxed)
                #expect(fewest == quantum && most == quantum, "asked for \(fewest)…\(most) frames a cycle")
            }
        }

        /// A 44.1 kHz stream on the 48 kHz graph: the graph resamples (so no exact check), the
        /// device asks for what each cycle needs, and the clock counts every frame.
        @Test func resampledStreamPlaysEveryFrame() throws {
            let c = PlaybackCase(rate: 44100, seconds: 1)
            let played = try playAndRecord(c)
            #expect(played.device.framesRendered == Int64(played.source.frames))
            #expect(played.clock.last == Int64(played.source.frames))
            #expect(zip(played.clock, played.clock.dropFirst()).allSatisfy { $0 <= $1 })
        }

        /// `stop(drain: true)` returns once what was rendered has played: the clock then says
        /// every rendered frame has played.
        @Test func drainingStopPlaysOut() throws {
            let signal = try TestFormat(format: .float32).noise(frames: 96000, channels: 2, rate: 48000, seed: 5)
            let device = try PipeWireOutputDevice(target: PipeWireServer.sink, sampleRate: 48000, channels: 2, bufferFrames: 2048)
            defer { device.close() }
            let source = SignalSource(signal, channels: 2)
            try device.start(source: source)
            #expect(eventually { device.framesPlayed > 4800 })
            device.stop(drain: true)
            let rendered = device.framesRendered
            #expect(rendered > 0 && rendered < 96000)
            #expect(device.framesPlayed == rendered, "played \(device.framesPlayed) of \(rendered)")
            let reported = source.stopped.load(ordering: .acquiring)
            #expect(!reported, "a requested stop is not reported")
            // It starts again, from 0 on its clock.
            try device.start(source: SignalSource(Array(signal[0..<9600]), channels: 2))
            #expect(device.framesPlayed <= 9600)
            device.stop(drain: false)
        }

        /// Channels by index (`AUX0`…) on a sink whose channels have positions (a quad sink):
        /// channel N plays on the sink's channel N, bit-exact, as a queue's channel
        /// assignments need.
        @Test func channelsByIndexOnAPositionedSink() throws {
            let sink = "aqpwquad\(getpid())"
            let map = "front-left,front-right,rear-left,rear-right"
            let module = try loadNullSink(sink, channels: 4, map: map)
            defer { _ = try? runProcess("/usr/bin/pactl", ["unload-module", module]) }
            let c = PlaybackCase(channels: 4, seconds: 0.5)
            let played = try playAndRecord(c, sink: sink, channelMap: map)
            expectBitExact(played.signal, played.recording, channels: 4, "AUX on quad")
        }

        /// A source that stops its device from inside render (on the data thread): the call
        /// returns at once, the source is not asked again, and the device starts again.
        @Test func stopFromInsideRender() throws {
            final class Stopper: AudioRenderSource, @unchecked Sendable {
                weak var device: PipeWireOutputDevice?
                let calls = Atomic<Int>(0)
                func render(into buffer: UnsafeMutablePointer<Float>, frameCount: Int) -> Int {
                    buffer.update(repeating: 0.1, count: frameCount * 2)
                    if calls.add(1, ordering: .relaxed).newValue == 5 { device?.stop(drain: false) }
                    return frameCount
                }
                func device(_ device: any AudioOutputDevice, didReport event: AudioDeviceEvent) {}
            }
            let device = try PipeWireOutputDevice(target: PipeWireServer.sink, sampleRate: 48000, channels: 2, bufferFrames: 1024)
            defer { device.close() }
            let stopper = Stopper()
            stopper.device = device
            try device.start(source: stopper)
            #expect(eventually { stopper.calls.load(ordering: .relaxed) >= 5 })
            Thread.sleep(forTimeInterval: 0.2)
            #expect(stopper.calls.load(ordering: .relaxed) == 5, "asked again after the stop")
            let again = SignalSource([Float](repeating: 0.2, count: 9600), channels: 2)
            try device.start(source: again)
            #expect(eventually { again.stopped.load(ordering: .acquiring) }, "the device does not play again")
        }

        func loadNullSink(_ name: String, channels: Int, map: String) throws -> String {
            let load = try runProcess("/usr/bin/pactl", [
                "load-module", "module-null-sink", "sink_name=\(name)", "format=float32le", "rate=48000", "channels=\(channels)",
                "channel_map=\(map)",
            ])
            try #require(load.status == 0, "pactl load-module: \(load.err)")
            // The session manager links streams to it once it has seen it.
            Thread.sleep(forTimeInterval: 0.5)
            return load.out.trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }
}
