import Foundation
import Testing
import Dispatch
import Locking
import AudioCore
import AudioDevices
import AudioDeviceALSA
import AudioDevicePulse
import AudioQueueServices
import AudioTestSupport

/// What an input queue recorded from the null sink's monitor while a queue played noise into
/// the sink: the samples on the queue's timeline (frames the queue lost are zeros there), and
/// what came back.
struct MonitorTake {
    let samples: [Float]
    let deliveries: [InputRecorder.Delivery]
    let lost: Int
    let converterError: OSStatus
    let underrunNotices: Int
    let deviceInfo: AudioDeviceInfo?
}

/// Plays `seconds` of noise through the sink while `input` records its monitor through an
/// input queue in `format` (buffers of `bufferSeconds`, three of them). With `holdFor`, the
/// program keeps every buffer it gets for that long once a second has been recorded.
func recordMonitor(
    input: any AudioInputDevice, format: AudioStreamBasicDescription, noise: String, bufferSeconds: Double = 0.25,
    buffers: Int = 3, holdFor: Double? = nil
) throws -> MonitorTake {
    let recorder = InputRecorder()
    let queue = try AudioInputQueue(format: format, device: input, callback: recorder.callback)
    let notices = Guarded(0)
    try queue.addPropertyListener(.converterError) { _, _ in notices.withLock { $0 += 1 } }
    let bytes = Int(bufferSeconds * format.sampleRate) * Int(format.bytesPerFrame)
    for _ in 0..<buffers { try queue.enqueue(try queue.allocateBuffer(byteCapacity: bytes)) }
    try queue.start()
    let output = try PulseBackend().makeOutput(name: Server.sink, sampleRate: 48000, channels: 2, bufferFrames: Server.testBufferFrames)
    let player = try FilePlayer(path: noise, device: output)
    let playing = try #require(player.queue)
    let stopped = DispatchSemaphore(value: 0)
    try playing.addPropertyListener(.isRunning) { q, _ in if !q.isRunning { stopped.signal() } }
    for b in player.buffers { player.fill(b) }
    try playing.start()
    if let holdFor {
        // An idle null sink's monitor may begin delivering only once something plays: hold
        // once a second has been recorded.
        let second = Int(1 / bufferSeconds)
        #expect(eventually { recorder.count >= second }, "nothing recorded")
        recorder.hold()
        Thread.sleep(forTimeInterval: holdFor)
        try recorder.release(to: queue)
    }
    #expect(stopped.wait(timeout: .now() + 30) == .success, "playback did not end")
    Thread.sleep(forTimeInterval: 0.3)
    try queue.stop(immediate: false)
    #expect(eventually { queue.state == .stopped && !queue.isRunning }, "the asynchronous stop did not complete")
    try playing.dispose(immediate: true)
    let deliveries = recorder.deliveries.filter { $0.packetCount > 0 }
    // The samples laid out on the queue's timeline.
    let channels = Int(format.channelsPerFrame)
    let total = deliveries.last.map { Int($0.startTime.sampleTime) + $0.packetCount } ?? 0
    var samples = [Float](repeating: 0, count: total * channels)
    for d in deliveries {
        let floats = decodeSamples(d.bytes, format: format)
        let at = Int(d.startTime.sampleTime) * channels
        for (i, x) in floats.enumerated() where at + i < samples.count { samples[at + i] = x }
    }
    let take = MonitorTake(
        samples: samples, deliveries: deliveries, lost: try queue.lostFrameCount, converterError: queue.converterError,
        underrunNotices: notices.withLock { $0 }, deviceInfo: queue.currentDeviceInfo)
    try queue.dispose(immediate: true)
    return take
}

/// Interleaved Float32 or 16-bit native samples as Float.
func decodeSamples(_ bytes: [UInt8], format: AudioStreamBasicDescription) -> [Float] {
    bytes.withUnsafeBytes { raw in
        if format.isFloat { return Array(raw.bindMemory(to: Float.self)) }
        return raw.bindMemory(to: Int16.self).map { Float($0) / 32768 }
    }
}

/// Checks that `recording` holds `reference` (both interleaved stereo) from its 0.5-second
/// point to its end: aligned, gain-normalised SNR of at least `minimumSNR` dB, and every 10 ms
/// block correlating (no gap). Returns the lag (recording frame of reference frame 0).
@discardableResult
func expectHoldsSignal(_ recording: [Float], _ reference: [Float], minimumSNR: Double, label: String, skip: Range<Int>? = nil) -> Int? {
    guard let lag = alignment(of: reference, in: recording, channels: 2, from: 24000, tolerance: 2e-4) else {
        Issue.record("\(label): the signal at 0.5 s is not in the \(recording.count / 2)-frame recording")
        return nil
    }
    let start = 24000 * 2, end = reference.count
    guard lag + end <= recording.count else {
        Issue.record("\(label): the recording stops \((lag + end - recording.count) / 2) frames before the signal's end")
        return nil
    }
    var rx = 0.0, xx = 0.0
    for i in start..<end where !(skip?.contains(i / 2) ?? false) {
        rx += Double(recording[lag + i]) * Double(reference[i])
        xx += Double(reference[i]) * Double(reference[i])
    }
    let gain = rx / xx
    var noise = 0.0, signal = 0.0
    for i in start..<end where !(skip?.contains(i / 2) ?? false) {
        let x = gain * Double(reference[i])
        let e = Double(recording[lag + i]) - x
        signal += x * x
        noise += e * e
    }
    let snr = noise == 0 ? 200 : 10 * log10(signal / noise)
    onTimeChecks(label) {
        #expect(snr >= minimumSNR, "\(label): SNR \(snr) dB (gain \(gain))")
    }
    var badBlocks: [Int] = []
    for block in stride(from: start, to: end - 960, by: 960) where !(skip?.contains(block / 2) ?? false) && !(skip?.contains(block / 2 + 479) ?? false) {
        var a = 0.0, b = 0.0, ab = 0.0
        for i in block..<(block + 960) {
            let r = Double(recording[lag + i]), x = Double(reference[i])
            a += r * r
            b += x * x
            ab += r * x
        }
        if ab / max((a * b).squareRoot(), 1e-30) < 0.99 { badBlocks.append(block / 2) }
    }
    onTimeChecks(label) {
        #expect(badBlocks.isEmpty, "\(label): \(badBlocks.count) 10 ms blocks do not correlate, the first at frame \(badBlocks.first ?? 0)")
    }
    return lag / 2
}

extension SharedServer {
    @Suite("Recording from the sound server")
    struct Recording {
        static let float2 = AudioStreamBasicDescription.linearPCM(sampleRate: 48000, channels: 2, bitsPerChannel: 32, isFloat: true)
        static let int16 = AudioStreamBasicDescription.linearPCM(sampleRate: 48000, channels: 2, bitsPerChannel: 16)

        @Test func pulseRecordsTheMonitorWhole() throws {
            try onTimeChecks("pulse recording") {
                let noise = try noiseFile(seconds: 3, name: "rec")
                let reference = try referenceDecode(noise).samples
                let input = try PulseBackend().makeInput(name: "\(Server.sink).monitor", sampleRate: 48000, channels: 2, bufferFrames: 480)
                let take = try recordMonitor(input: input, format: Self.float2, noise: noise)
                // Float32 through a float null sink: the signal itself.
                expectHoldsSignal(take.samples, reference, minimumSNR: 100, label: "pulse")
                #expect(take.lost == 0)
                #expect(take.converterError == 0)
                // Buffers follow one another on the timeline.
                for (a, b) in zip(take.deliveries, take.deliveries.dropFirst()) {
                    #expect(b.startTime.sampleTime == a.startTime.sampleTime + Double(a.packetCount))
                    #expect(b.startTime.hostTime > a.startTime.hostTime)
                }
            }
        }

        @Test func alsaPulsePCMRecordsTheMonitorWhole() throws {
            let noise = try noiseFile(seconds: 3, name: "rec")
            let reference = try referenceDecode(noise).samples
            // alsa-lib's pulse PCM records the server's default source: the monitor, configured
            // as the default so that another suite's sink cannot become it meanwhile.
            let set = try runProcess("/usr/bin/pactl", ["set-default-source", "\(Server.sink).monitor"])
            try #require(set.status == 0, "pactl set-default-source: \(set.err)")
            let input = try ALSABackend().makeInput(name: "pulse", sampleRate: 48000, channels: 2, bufferFrames: 480)
            let take = try recordMonitor(input: input, format: Self.int16, noise: noise)
            // Through PipeWire's server, alsa-lib's pulse plugin sometimes loses a block on a
            // loaded machine (as in the capture suite's test of it): a known issue there.
            withKnownIssue("alsa-lib's pulse plugin through PipeWire's PulseAudio server", isIntermittent: true) {
                expectHoldsSignal(take.samples, reference, minimumSNR: 35, label: "alsa pulse")
                #expect(take.lost == 0)
            } when: {
                Server.isPipeWire
            }
        }

        /// A program that keeps its buffers for a second loses what was recorded meanwhile, less
        /// what the ten buffers it had enqueued took — the next start time jumps by exactly that
        /// many frames, a record underrun is reported — and nothing else. (Ten buffers of 50 ms
        /// leave half a second for the callback thread outside the hold, so that a busy machine
        /// does not make a second hole.)
        @Test func holdingBuffersLosesThatTimeAndNothingElse() throws {
            try onTimeChecks("held buffers") {
                let noise = try noiseFile(seconds: 3, name: "rec")
                let reference = try referenceDecode(noise).samples
                let input = try PulseBackend().makeInput(name: "\(Server.sink).monitor", sampleRate: 48000, channels: 2, bufferFrames: 480)
                let take = try recordMonitor(input: input, format: Self.float2, noise: noise, bufferSeconds: 0.05, buffers: 10, holdFor: 1)
                #expect(take.lost >= 9600, "\(take.lost) frames lost")
                #expect(take.converterError == AudioQueueError.Code.recordUnderrun.rawValue)
                #expect(take.underrunNotices >= 1)
                var jumps: [Int64] = []
                for (a, b) in zip(take.deliveries, take.deliveries.dropFirst()) {
                    let gap = Int64(b.startTime.sampleTime) - Int64(a.startTime.sampleTime) - Int64(a.packetCount)
                    if gap != 0 { jumps.append(gap) }
                }
                #expect(jumps.count == 1 && jumps.reduce(0, +) == take.lost, "jumps \(jumps), lost \(take.lost)")
                // Outside the hole the recording is the signal, in place on the timeline.
                let holeStart = take.deliveries.indices.first { i in
                    i + 1 < take.deliveries.count
                        && Int64(take.deliveries[i + 1].startTime.sampleTime) != Int64(take.deliveries[i].startTime.sampleTime) + Int64(take.deliveries[i].packetCount)
                }
                let hole: Range<Int>? = holeStart.map { i in
                    let d = take.deliveries[i]
                    let from = Int(d.startTime.sampleTime) + d.packetCount
                    return from..<(from + Int(take.lost))
                }
                // The hole is in recording frames; the check skips the reference frames it covers.
                if let hole, let lag = alignment(of: reference, in: take.samples, channels: 2, from: 24000, tolerance: 2e-4).map({ $0 / 2 }) {
                    expectHoldsSignal(take.samples, reference, minimumSNR: 100, label: "held", skip: (hole.lowerBound - lag)..<(hole.upperBound - lag))
                } else {
                    Issue.record("no hole found, or the signal is not in the recording")
                }
            }
        }

        @Test func aRateTheSourceDoesNotRunAtIsResampledAndSaidSo() throws {
            let input = try PulseBackend().makeInput(name: "\(Server.sink).monitor", sampleRate: 44100, channels: 2, bufferFrames: 441)
            let recorder = InputRecorder()
            let queue = try AudioInputQueue(
                format: .linearPCM(sampleRate: 44100, channels: 2, bitsPerChannel: 16), device: input, callback: recorder.callback)
            for _ in 0..<3 { try queue.enqueue(try queue.allocateBuffer(byteCapacity: 4410 * 4)) }
            try queue.start()
            #expect(eventually { recorder.count >= 3 })
            try queue.stop(immediate: true)
            #expect(queue.currentDeviceInfo?.note?.contains("48000") == true, "note: \(queue.currentDeviceInfo?.note ?? "none")")
            try queue.dispose(immediate: true)
        }
    }
}
