import Foundation
import Testing
import Dispatch
import Synchronization
import AudioCore
import AudioDevices
import AudioDeviceALSA
@testable import AudioDevicePulse
import AudioTestSupport
import ProcessSupport

/// Checks that the host times a capture device gave advance with the frames it delivered: each
/// call's time is the previous one's plus the previous call's frames at `rate`, within `step`
/// seconds, and the whole recording's within `total`; and that no frame was recorded long
/// after (a monitor's times are when the sink plays, a little ahead) or long before it was
/// delivered. These are bounds on the device's own estimates, not on how long anything took.
func checkHostTimes(_ pieces: [MonitorRecorder.Piece], rate: Double, step: Double, total: Double, label: String) {
    onTimeChecks(label) { checkHostTimesStrictly(pieces, rate: rate, step: step, total: total, label: label) }
}

/// ``checkHostTimes(_:rate:step:total:label:)`` against any server.
func checkHostTimesStrictly(_ pieces: [MonitorRecorder.Piece], rate: Double, step: Double, total: Double, label: String) {
    guard let first = pieces.first, pieces.count > 10 else {
        Issue.record("\(label): \(pieces.count) capture calls")
        return
    }
    var frames = 0
    var worstStep = 0.0
    for (index, (previous, piece)) in zip(pieces, pieces.dropFirst()).enumerated() {
        #expect(piece.hostTime > previous.hostTime, "\(label): host time went back after piece \(index): \(pieces[max(0, index - 3)...min(pieces.count - 1, index + 3)].map { "\($0.frames)@\((Double($0.hostTime) - Double(first.hostTime)) / 1e6)/\((Double($0.calledAt) - Double(first.hostTime)) / 1e6)" })")
        let gap = (Double(piece.hostTime) - Double(previous.hostTime)) / 1e9 - Double(previous.frames) / rate
        worstStep = max(worstStep, abs(gap))
        frames += previous.frames
    }
    #expect(worstStep <= step, "\(label): a call's host time is \(worstStep * 1000) ms off the previous one's plus its frames")
    let drift = (Double(pieces.last!.hostTime) - Double(first.hostTime)) / 1e9 - Double(frames) / rate
    #expect(abs(drift) <= total, "\(label): over \(frames) frames the host times ran \(drift * 1000) ms off the frames")
    for piece in pieces {
        let lead = (Double(piece.hostTime) - Double(piece.calledAt)) / 1e9
        #expect(lead <= 0.05 && lead >= -2, "\(label): a piece recorded \(-lead) s before it was delivered")
        if lead > 0.05 || lead < -2 { break }
    }
}

/// Checks that every piece was at most `bufferFrames` and most about that size.
func checkPieceSizes(_ pieces: [MonitorRecorder.Piece], bufferFrames: Int, label: String) {
    let sizes = pieces.map(\.frames).sorted()
    guard !sizes.isEmpty else { return }
    #expect(sizes.last! <= bufferFrames, "\(label): a piece of \(sizes.last!) frames for \(bufferFrames) asked")
    #expect(sizes[sizes.count / 2] >= bufferFrames / 2, "\(label): pieces of \(sizes[sizes.count / 2]) frames (median) for \(bufferFrames) asked")
}

/// Checks that `recording` holds `reference` from its first half second to its end, exactly
/// (within 1e-4 a sample), and returns where it starts (nil when it is not there).
@discardableResult
func checkHolds(_ reference: [Float], recording: [Float], label: String) -> Int? {
    var lag: Int?
    onTimeChecks(label) { lag = checkHoldsStrictly(reference, recording: recording, label: label) }
    return lag
}

/// ``checkHolds(_:recording:label:)`` against any server.
@discardableResult
func checkHoldsStrictly(_ reference: [Float], recording: [Float], label: String) -> Int? {
    guard let lag = alignment(of: reference, in: recording, channels: 2, from: 24000) else {
        Issue.record("\(label): the signal at 0.5 s is not in the \(recording.count / 2)-frame recording")
        return nil
    }
    #expect(lag + reference.count <= recording.count, "\(label): the recording ends \((lag + reference.count - recording.count) / 2) frames before the signal")
    var firstBad: Int?
    for i in (24000 * 2)..<reference.count where lag + i < recording.count {
        if abs(recording[lag + i] - reference[i]) > 1e-4 {
            firstBad = i / 2
            break
        }
    }
    #expect(firstBad == nil, "\(label): the recording differs from the signal from frame \(firstBad ?? 0)")
    return lag
}

/// A module loaded into the test server with pactl for one test (unloaded by `unload()`); nil
/// when pactl cannot load it.
struct PulseTestModule {
    let index: String

    init?(_ arguments: [String]) {
        guard let result = try? runProcess("/usr/bin/pactl", ["load-module"] + arguments), result.status == 0 else { return nil }
        index = result.out.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !index.isEmpty else { return nil }
    }

    func unload() { _ = try? runProcess("/usr/bin/pactl", ["unload-module", index]) }

    /// A null source `name` (48 kHz stereo float): PulseAudio's module-null-source, or, on
    /// PipeWire's server, which has none, a null sink that is a source (`media.class`
    /// Audio/Source/Virtual).
    static func nullSource(named name: String) -> PulseTestModule? {
        let format = ["format=float32le", "rate=48000", "channels=2"]
        return PulseTestModule(["module-null-source", "source_name=\(name)"] + format)
            ?? PulseTestModule(["module-null-sink", "sink_name=\(name)", "media.class=Audio/Source/Virtual"] + format)
    }
}

/// The sample rate and channel count the server says a source runs at (`pactl list short
/// sources`: `... float32le 2ch 48000Hz ...`).
func sourceSpec(_ name: String) throws -> (rate: Int, channels: Int) {
    let list = try runProcess("/usr/bin/pactl", ["list", "short", "sources"])
    let line = try #require(list.out.split(separator: "\n").first { $0.split(separator: "\t").dropFirst().first == Substring(name) },
                            "pactl lists no source \(name): \(list.out)")
    let fields = line.split(whereSeparator: { $0 == "\t" || $0 == " " })
    let rate = try #require(fields.first { $0.hasSuffix("Hz") }.flatMap { Int($0.dropLast(2)) }, "\(line)")
    let channels = try #require(fields.first { $0.hasSuffix("ch") }.flatMap { Int($0.dropLast(2)) }, "\(line)")
    return (rate, channels)
}

// Plays to the shared server's sink and records its monitor, so it runs inside SharedServer.
extension SharedServer {
    @Suite("Capture through the sound server")
    struct CaptureTests {
        static let monitor = "\(Server.sink).monitor"

        /// Records the sink's monitor through `input` while paplay plays two seconds of noise to
        /// the sink; the recording holds the noise exactly, in pieces of about `bufferFrames`,
        /// with host times that advance with the frames; `.started` comes first and carries the
        /// first piece's host time.
        func recordWhilePlaying(_ input: any AudioInputDevice, bufferFrames: Int, step: Double, total: Double, label: String) throws {
            defer { input.close() }
            let noise = try noiseFile(seconds: 2, name: "capture")
            let reference = try referenceDecode(noise)
            let recorder = MonitorRecorder(seconds: 10, rate: 48000, channels: 2)
            try input.start(sink: recorder)
            // An idle null sink can take a while to send its monitor's first fragment.
            try #require(eventually(within: 5) { recorder.frames > 0 }, "\(label): nothing recorded")
            let play = try runProcess("/usr/bin/paplay", ["--device=\(Server.sink)", noise])
            #expect(play.status == 0, "paplay: \(play.err)")
            // paplay has played its end: half a second recorded after it holds the monitor's tail.
            #expect(recorder.waitForMore(seconds: 0.5, rate: 48000), "\(label): the monitor stopped recording")
            input.stop(drain: true)
            let calls = recorder.calls.load(ordering: .acquiring)
            #expect(input.framesCaptured == Int64(recorder.frames))
            // Closing ends the device's thread: any capture after stop returned has happened by now.
            input.close()
            #expect(recorder.calls.load(ordering: .acquiring) == calls, "\(label): capture went on after stop returned")

            checkHolds(reference.samples, recording: recorder.samples, label: label)
            let pieces = recorder.pieces
            checkPieceSizes(pieces, bufferFrames: bufferFrames, label: label)
            checkHostTimes(pieces, rate: 48000, step: step, total: total, label: label)
            let events = recorder.events.withLock { $0 }
            #expect(events.first == "started(hostTime: \(pieces.first?.hostTime ?? 0))", "\(label): \(events)")
            #expect(!events.contains { $0.hasPrefix("failed") }, "\(label): \(events)")
        }

        @Test func pulseMonitorRecordsWhatPlays() throws {
            try onTimeChecks("pulse capture") {
                let input = try PulseBackend().makeInput(name: Self.monitor, sampleRate: 48000, channels: 2, bufferFrames: 480)
                #expect(input.info.name == Self.monitor && input.info.direction == .input)
                // The bounds the device keeps to whatever the load: within its loss threshold (two
                // pieces, 20 ms) a host time moves an eighth of the way to the server's estimate.
                try recordWhilePlaying(input, bufferFrames: 480, step: 0.0025, total: 0.02, label: "pulse")
            }
        }

        /// alsa-lib's `pulse` PCM records the server's default source, the test sink's monitor.
        /// Its delay is libpulse's interpolated latency, which jumps by tens of milliseconds at
        /// times, and by more when the machine is busy (a read that comes late finds the
        /// plugin's delay not yet grown by the wait): the device smooths it, moving an eighth
        /// of the way to an estimate within half a second of where the frames put it, and the
        /// test holds it to just that — steps of at most 62.5 ms, a drift of at most 0.5 s.
        /// Through PipeWire's server (0.3.65) the plugin's delay is as far off as that server's
        /// quantum-sized timing reports make libpulse's interpolation (0.1–0.5 s over the
        /// recording here), and on a loaded machine a block is sometimes lost: what goes wrong
        /// there is recorded as a known issue, not a failure.
        @Test func alsaPulsePCMRecordsWhatPlays() throws {
            // The monitor as the configured default, so that a sink another suite loads (its
            // monitor is a source too) cannot become the default meanwhile.
            let set = try runProcess("/usr/bin/pactl", ["set-default-source", Self.monitor])
            try #require(set.status == 0, "pactl set-default-source: \(set.err)")
            let input = try ALSABackend().makeInput(name: "pulse", sampleRate: 48000, channels: 2, bufferFrames: 480)
            try withKnownIssue("alsa-lib's pulse plugin through PipeWire's PulseAudio server", isIntermittent: true) {
                try recordWhilePlaying(input, bufferFrames: 480, step: 0.0625, total: 0.5, label: "alsa pulse")
            } when: {
                Server.isPipeWire
            }
        }

        /// The test sink runs at the rate and channel count pactl says; recording it at another
        /// rate or channel count says that the server converts. At 44.1 kHz the pieces and host
        /// times follow 44.1 kHz.
        @Test func aSourceOfAnotherRateOrChannelCountIsNoted() throws {
            let spec = try sourceSpec(Self.monitor)
            let backend = PulseBackend()
            let same = try backend.makeInput(name: Self.monitor, sampleRate: Double(spec.rate), channels: spec.channels, bufferFrames: 960)
            #expect(same.info.note == nil)
            same.close()
            let mono = try backend.makeInput(name: Self.monitor, sampleRate: Double(spec.rate), channels: 1, bufferFrames: 960)
            #expect(mono.info.note == "source \(Self.monitor) has \(spec.channels) channels; PulseAudio remixes to 1 channel")
            mono.close()
            let both = try backend.makeInput(name: Self.monitor, sampleRate: 22050, channels: 1, bufferFrames: 441)
            #expect(both.info.note == "source \(Self.monitor) runs at \(spec.rate) Hz with \(spec.channels) channels; PulseAudio resamples to 22050 Hz and remixes to 1 channel")
            both.close()

            try #require(spec.rate != 44100, "the test sink runs at 44.1 kHz itself")
            let input = try backend.makeInput(name: Self.monitor, sampleRate: 44100, channels: 2, bufferFrames: 882)
            defer { input.close() }
            #expect(input.info.note == "source \(Self.monitor) runs at \(spec.rate) Hz; PulseAudio resamples to 44100 Hz")
            let recorder = MonitorRecorder(seconds: 4, rate: 44100, channels: 2)
            try input.start(sink: recorder)
            try #require(eventually(within: 5) { recorder.frames >= 44100 }, "nothing recorded at 44.1 kHz")
            input.stop(drain: false)
            let pieces = recorder.pieces
            checkPieceSizes(pieces, bufferFrames: 882, label: "44.1 kHz")
            // Within the loss threshold (two pieces, 40 ms) a host time moves an eighth of the way.
            onTimeChecks("44.1 kHz host times") {
                checkHostTimes(pieces, rate: 44100, step: 0.005, total: 0.04, label: "44.1 kHz")
            }
        }

        /// `stop(drain: true)` delivers what the server had recorded by the call. A null source of
        /// the test's own (pactl loads it) records at the sample rate and, asked for 50 ms
        /// fragments, hands the server 50 ms at a time; so when stop is called, up to 50 ms
        /// recorded before it is still in the source, which a stop without draining drops (it
        /// delivers 5 to 45 ms less). The frames delivered are at least those from the first
        /// piece's arrival to the call (within 2 ms) — what the device promises when the drain
        /// ends within its 100 ms; a stop that took longer (a busy machine kept the I/O thread
        /// waiting) ended at that deadline, and its round shows nothing. Nothing comes after
        /// stop returns, in every round.
        @Test func pulseStopDrainingDeliversWhatWasRecordedBeforeIt() throws {
            let source = try #require(PulseTestModule.nullSource(named: "aqdrain\(getpid())"), "pactl cannot load a null source")
            defer { source.unload() }
            var checked = 0
            for round in 0..<5 {
                let input = try PulseBackend().makeInput(name: "aqdrain\(getpid())", sampleRate: 48000, channels: 2, bufferFrames: 2400)
                defer { input.close() }
                let recorder = MonitorRecorder(seconds: 4, rate: 48000, channels: 2)
                try input.start(sink: recorder)
                try #require(eventually(within: 5) { recorder.frames > 0 }, "round \(round): nothing recorded")
                // Stop at a different point of a fragment each round.
                Thread.sleep(forTimeInterval: 0.2 + Double(round) * 0.011)
                let called = HostTime.now()
                input.stop(drain: true)
                let returned = HostTime.now()
                let calls = recorder.calls.load(ordering: .acquiring)
                let first = try #require(recorder.pieces.first)
                let recordedBefore = Double(first.frames) + (Double(called) - Double(first.calledAt)) / 1e9 * 48000
                if returned - called < 90_000_000 {
                    checked += 1
                    #expect(Double(recorder.frames) >= recordedBefore - 96,
                            "round \(round): \(recorder.frames) frames delivered of \(Int(recordedBefore)) recorded before stop was called")
                }
                checkPieceSizes(recorder.pieces, bufferFrames: 2400, label: "round \(round)")
                // Closing ends the device's thread: any capture after stop returned has happened by now.
                input.close()
                #expect(recorder.calls.load(ordering: .acquiring) == calls, "round \(round): capture went on after stop returned")
            }
            #expect(checked > 0, "every draining stop ran into its deadline")
        }

        /// Holding the capture thread up for longer than the server and the connection to it can
        /// keep for the stream loses frames: `.overrun` is reported, and the host times jump
        /// forward by about what was lost.
        ///
        /// The test makes the loss certain instead of hoping for it. It records a null source of
        /// its own (no other stream sets that source's latency), asks the server to keep only
        /// 20 ms for the stream (and checks what the server granted), and holds the thread up
        /// for 3 s: the server's queue for the stream overflows once that and the socket to the
        /// client are full, and the socket holds a few hundred fragments of 5 ms at most. That
        /// frames were lost is measured apart from the device: the source runs by the server's
        /// clock, so the frames delivered between two calls a second after the stall fall short
        /// of the time between those calls by what was dropped.
        @Test func pulseStalledCaptureOverruns() throws {
            let name = "aqstall\(getpid())"
            let source = try #require(PulseTestModule.nullSource(named: name), "pactl cannot load a null source")
            defer { source.unload() }
            let input = try PulseInputDevice(
                source: name, sampleRate: 48000, channels: 2, bufferFrames: 240, applicationName: "swift-audio-queue tests",
                server: nil, queueFrames: 960)
            defer { input.close() }
            let granted = try #require(input.grantedBuffer, "the record stream is not ready")
            try #require(granted.queueFrames <= 4800 && granted.fragmentFrames <= 960,
                         "the server keeps \(granted.queueFrames) frames for the stream in fragments of \(granted.fragmentFrames) (asked for 960 in 240)")
            let stall = 3.0
            let recorder = MonitorRecorder(seconds: 10, rate: 48000, channels: 2, stall: (call: 20, seconds: stall))
            try input.start(sink: recorder)
            try #require(eventually(within: 5) { recorder.stalling.load(ordering: .acquiring) }, "nothing recorded")
            // The stall, the burst of what was kept, and a second of recording as it comes.
            Thread.sleep(forTimeInterval: stall + 1.5)
            let calls = recorder.calls.load(ordering: .acquiring)
            try #require(eventually(within: 10) { recorder.calls.load(ordering: .acquiring) > calls + 50 }, "recording did not go on")
            input.stop(drain: false)

            let pieces = recorder.pieces
            try #require(pieces.count > 40, "\(pieces.count) capture calls")
            let first = pieces[10], last = pieces[pieces.count - 1]
            let delivered = pieces[10..<(pieces.count - 1)].reduce(0) { $0 + $1.frames }
            let lost = (Double(last.calledAt) - Double(first.calledAt)) / 1e9 - Double(delivered) / 48000
            try #require(lost > 1, "a \(stall) s stall lost \(lost) s: the server and the connection kept the rest (queue of \(granted.queueFrames) frames granted)")

            let events = recorder.events.withLock { $0 }
            #expect(events.contains("overrun"), "\(lost) s lost, events \(events)")
            let jumps = zip(pieces, pieces.dropFirst()).map { (Double($1.hostTime) - Double($0.hostTime)) / 1e9 - Double($0.frames) / 48000 }
            #expect((jumps.max() ?? 0) > lost / 2, "\(lost) s lost, but the host times jump by \(jumps.max() ?? 0) s at most")
        }
    }
}

extension SharedServer.ServerLossTests {
    /// Capture from a server that goes away: `.failed` with `.disconnected`, nothing captured
    /// after it, and the device refuses to start again.
    @Test(.enabled(if: LossyServer.runnable, "pulseaudio is not installed (Scripts/test installs it)"))
    func killingTheServerFailsTheRecording() throws {
        let lossy = try LossyServer(label: "kill-rec")
        // Whatever happens below, no server is left behind (a second kill does nothing).
        defer { lossy.remove() }
        try lossy.start()
        let server = lossy.address
        var input: PulseInputDevice?
        eventually(within: 5) {
            input = try? PulseInputDevice(
                source: "lossy.monitor", sampleRate: 48000, channels: 2, bufferFrames: 480,
                applicationName: "swift-audio-queue tests", server: server)
            return input != nil
        }
        let device = try #require(input, "the private server does not answer")
        defer { device.close() }
        let recorder = MonitorRecorder(seconds: 10, rate: 48000, channels: 2)
        try device.start(sink: recorder)
        try #require(eventually(within: 5) { recorder.frames >= 4800 }, "nothing recorded from the private server")

        lossy.kill()
        #expect(eventually(within: 5) { recorder.events.withLock { $0.contains { $0.hasPrefix("failed") } } },
                "no failure reported: \(recorder.events.withLock { $0 })")
        let events = recorder.events.withLock { $0 }
        #expect(events.first?.hasPrefix("started") == true && events.last?.hasPrefix("failed") == true, "\(events)")
        #expect(recorder.failures.withLock { $0.map(\.code) } == [.disconnected])
        let calls = recorder.calls.load(ordering: .acquiring)
        #expect(throws: AudioDeviceError.self) { try device.start(sink: recorder) }
        do {
            try device.start(sink: recorder)
        } catch {
            #expect(error.code == .disconnected, "\(error)")
        }
        device.stop(drain: true)   // nothing to stop: returns at once
        // Closing ends the device's thread: any capture after the failure has happened by now.
        device.close()
        #expect(recorder.calls.load(ordering: .acquiring) == calls, "capture went on after the failure")
    }
}

/// ALSA's `null` PCM has no clock; the device records from it at the sample rate by the monotonic
/// clock, as from a card, so its host times are exact, a drain delivers the frames due by the
/// stop, and a sink that holds it up past its buffer makes it overrun.
@Suite("ALSA capture without a clock")
struct ALSAClocklessCaptureTests {
    /// Periods of 2048 frames (a PCM buffer of about 170 ms), so that a busy machine seldom holds
    /// the thread up past the buffer; when it does, that is an overrun, as on a card, and the
    /// host times jump there by at least the buffer and are exact everywhere else.
    @Test func hostTimesPiecesAndDrain() throws {
        let device = try ALSAInputDevice(name: "null", sampleRate: 48000, channels: 2, bufferFrames: 2048)
        defer { device.close() }
        #expect(device.periodFrames == 2048)
        let recorder = MonitorRecorder(seconds: 4, rate: 48000, channels: 2)
        try device.start(sink: recorder)
        try #require(eventually(within: 10) { recorder.frames >= 48000 })
        let before = HostTime.now()
        device.stop(drain: true)
        let after = HostTime.now()
        let calls = recorder.calls.load(ordering: .acquiring)
        let pieces = recorder.pieces
        let events = recorder.events.withLock { $0 }
        checkPieceSizes(pieces, bufferFrames: 2048, label: "null")
        #expect(events.first == "started(hostTime: \(pieces[0].hostTime))" && events.dropFirst().allSatisfy { $0 == "overrun" }, "\(events)")
        let overruns = events.count - 1
        if overruns == 0 {
            checkHostTimesStrictly(pieces, rate: 48000, step: 0.0001, total: 0.0001, label: "null")
            let last = try #require(pieces.last)
            let end = last.hostTime + UInt64(Double(last.frames) / 48000 * 1e9)
            #expect(end + 1_000_000 >= before, "what was delivered ends \(Double(before) - Double(end)) ns before stop was called")
            #expect(end <= after + 1_000_000, "frames delivered that were due only after stop returned")
        } else {
            let buffer = Double(device.pcmBufferFrames) / 48000
            let gaps = zip(pieces, pieces.dropFirst()).map { (Double($1.hostTime) - Double($0.hostTime)) / 1e9 - Double($0.frames) / 48000 }
            let jumps = gaps.filter { abs($0) > 0.0001 }
            #expect(jumps.count == overruns && jumps.allSatisfy { $0 >= buffer - 0.0001 }, "\(overruns) overruns, host time jumps \(jumps) s")
        }
        #expect(device.framesCaptured == Int64(recorder.frames))
        // Closing joins the device's thread: any capture after stop returned has happened by now.
        device.close()
        #expect(recorder.calls.load(ordering: .acquiring) == calls, "capture went on after stop returned")
    }

    @Test func aStalledSinkOverruns() throws {
        let device = try ALSAInputDevice(name: "null", sampleRate: 48000, channels: 2, bufferFrames: 480)
        defer { device.close() }
        let recorder = MonitorRecorder(seconds: 4, rate: 48000, channels: 2, stall: (call: 5, seconds: 0.3))
        try device.start(sink: recorder)
        #expect(eventually(within: 5) { recorder.calls.load(ordering: .acquiring) >= 20 })
        device.stop()
        #expect(recorder.events.withLock { $0 }.contains("overrun"), "\(recorder.events.withLock { $0 })")
        let pieces = recorder.pieces
        // The frames of the stall are lost: the host time jumps forward by about 0.3 s there.
        let jump = (Double(pieces[5].hostTime) - Double(pieces[4].hostTime)) / 1e9 - Double(pieces[4].frames) / 48000
        #expect(jump > 0.2, "the host time moved \(jump) s past the frames before the stall")
    }
}
