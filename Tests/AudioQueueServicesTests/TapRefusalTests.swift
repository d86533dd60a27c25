import Foundation
import Testing
import Locking
import AudioCore
import AudioDevices
import AudioQueueServices

/// A processing tap runs with its queue's pipeline lock held. Every public member of either
/// queue that takes the transitions or pipeline lock — controls, parameters, typed and untyped
/// properties, time/pitch, offline render, taps, devices and channel assignments — answers
/// `invalidTapContext` when called from inside a tap, on the tap's own queue and on another
/// queue, and never waits: each run has a time-out that fails the test instead of hanging it.
/// Members that need only the state lock (enqueueing on an output queue, the run state, the
/// queue's time) may be called and return.
@Suite("Calls from inside a processing tap")
struct TapRefusalTests {
    /// One call made from inside a tap.
    struct Probe {
        let name: String
        /// False for a member that takes no queue lock a tap holds: it must return, whatever it answers.
        let refused: Bool
        let call: () throws -> Void
    }

    /// What each probe answered: nil for success, else the error's code.
    final class Answers: @unchecked Sendable {
        private let state = Guarded<[(String, Bool, AudioQueueError.Code?)]?>(nil)
        func run(_ probes: [Probe]) {
            var seen: [(String, Bool, AudioQueueError.Code?)] = []
            for probe in probes {
                do {
                    try probe.call()
                    seen.append((probe.name, probe.refused, nil))
                } catch {
                    seen.append((probe.name, probe.refused, (error as? AudioQueueError)?.code ?? .invalidParameter))
                }
            }
            state.withLock { if $0 == nil { $0 = seen } }
        }
        var seen: [(String, Bool, AudioQueueError.Code?)]? { state.withLock { $0 } }
    }

    static let refusedTimeout: TimeInterval = 60

    /// Runs `work` on a thread of its own; false when it has not ended within the time-out
    /// (a call inside the tap waited for a lock: the thread is left behind, the test fails).
    func finishes(_ work: @escaping @Sendable () -> Void) -> Bool {
        let done = DispatchSemaphore(value: 0)
        Thread {
            work()
            done.signal()
        }.start()
        return done.wait(timeout: .now() + Self.refusedTimeout) == .success
    }

    func expectAnswers(_ answers: Answers, sourceLocation: SourceLocation = #_sourceLocation) {
        guard let seen = answers.seen else {
            Issue.record("the tap never ran", sourceLocation: sourceLocation)
            return
        }
        for (name, refused, code) in seen where refused {
            #expect(code == .invalidTapContext, "\(name) answered \(code.map { "\($0)" } ?? "success")", sourceLocation: sourceLocation)
        }
        #expect(seen.filter(\.1).count >= 20, sourceLocation: sourceLocation)
    }

    /// Stops `queue` asynchronously and renders it to the end on a thread of its own: false when
    /// that never ends (a call inside its tap waited for a lock).
    func rendersToTheEnd(_ queue: AudioQueue) throws -> Bool {
        try queue.stop(immediate: false)
        return finishes { _ = try? renderAll(queue, chunk: 1024) }
    }

    /// Records through an input queue on `device`: false when the capture thread, which runs the
    /// tap, never delivers a buffer after the probes (a call inside the tap waited for a lock).
    func captureDelivers(_ device: TestInputDevice, _ recorder: InputRecorder, _ answers: Answers) -> Bool {
        device.push(frames: 9600)
        let delivered = finishes { _ = eventually(within: Self.refusedTimeout - 5) { recorder.count >= 1 && answers.seen != nil } }
        return delivered && recorder.count >= 1
    }

    // MARK: Output queues

    /// Every category of an output queue's members, called on `queue`.
    static func outputProbes(_ queue: AudioQueue, spare: AudioQueueBuffer) -> [Probe] {
        var bytes = [UInt8](repeating: 0, count: 64)
        let one: UInt32 = 1
        return [
            // Controls.
            Probe(name: "start", refused: true) { try queue.start() },
            Probe(name: "prime", refused: true) { _ = try queue.prime() },
            Probe(name: "pause", refused: true) { try queue.pause() },
            Probe(name: "stop(immediate: false)", refused: true) { try queue.stop(immediate: false) },
            Probe(name: "stop(immediate: true)", refused: true) { try queue.stop(immediate: true) },
            Probe(name: "flush", refused: true) { try queue.flush() },
            Probe(name: "reset", refused: true) { try queue.reset() },
            Probe(name: "dispose", refused: true) { try queue.dispose(immediate: true) },
            // Parameters.
            Probe(name: "setParameter", refused: true) { try queue.setParameter(.volume, 0.5) },
            Probe(name: "parameter", refused: true) { _ = try queue.parameter(.volume) },
            // Typed properties.
            Probe(name: "magicCookie", refused: true) { _ = try queue.magicCookie },
            Probe(name: "setMagicCookie", refused: true) { try queue.setMagicCookie(nil) },
            Probe(name: "channelLayout", refused: true) { _ = try queue.channelLayout },
            Probe(name: "isLevelMeteringEnabled", refused: true) { _ = try queue.isLevelMeteringEnabled },
            Probe(name: "setLevelMeteringEnabled", refused: true) { try queue.setLevelMeteringEnabled(true) },
            Probe(name: "currentLevelMeter", refused: true) { _ = try queue.currentLevelMeter() },
            Probe(name: "setDecodeBufferSizeFrames", refused: true) { try queue.setDecodeBufferSizeFrames(8192) },
            Probe(name: "badPacketCount", refused: true) { _ = try queue.badPacketCount },
            Probe(name: "setCurrentDevice", refused: true) { try queue.setCurrentDevice(nil) },
            Probe(name: "setChannelAssignments", refused: true) {
                try queue.setChannelAssignments([.init(deviceUID: "file:x", channelNumber: 1), .init(deviceUID: "file:x", channelNumber: 2)])
            },
            // Time and pitch.
            Probe(name: "isTimePitchEnabled", refused: true) { _ = try queue.isTimePitchEnabled },
            Probe(name: "setTimePitchEnabled", refused: true) { try queue.setTimePitchEnabled(true) },
            Probe(name: "timePitchAlgorithm", refused: true) { _ = try queue.timePitchAlgorithm },
            Probe(name: "setTimePitchAlgorithm", refused: true) { try queue.setTimePitchAlgorithm(.timeDomain) },
            Probe(name: "isTimePitchBypassed", refused: true) { _ = try queue.isTimePitchBypassed },
            Probe(name: "setTimePitchBypassed", refused: true) { try queue.setTimePitchBypassed(true) },
            // Untyped properties (the C API's path).
            Probe(name: "propertySize", refused: true) { _ = try queue.propertySize(AudioQueuePropertyID.magicCookie.rawValue) },
            Probe(name: "getProperty", refused: true) {
                _ = try bytes.withUnsafeMutableBytes { b in try queue.getProperty(AudioQueuePropertyID.enableLevelMetering.rawValue, into: b) }
            },
            Probe(name: "setProperty", refused: true) {
                try withUnsafeBytes(of: one) { b in try queue.setProperty(AudioQueuePropertyID.enableLevelMetering.rawValue, from: b) }
            },
            // Offline render.
            Probe(name: "setOfflineRenderFormat", refused: true) { try queue.setOfflineRenderFormat(queue.renderFormat) },
            Probe(name: "offlineRender", refused: true) { try queue.offlineRender(at: .sampleTime(0), into: spare, frameCount: 16) },
            // Taps.
            Probe(name: "makeProcessingTap", refused: true) { _ = try queue.makeProcessingTap(flags: .postEffects) { _ in 0 } },
            Probe(name: "processingTap", refused: true) { _ = try queue.processingTap },
            // The state lock only: these return.
            Probe(name: "isRunning", refused: false) { _ = queue.isRunning },
            Probe(name: "state", refused: false) { _ = queue.state },
            Probe(name: "decodeBufferSizeFrames", refused: false) { _ = queue.decodeBufferSizeFrames },
        ]
    }

    /// An offline queue whose tap, on its first call, runs `probes(queue)`.
    func outputQueueProbing(_ answers: Answers, _ probes: @escaping @Sendable (AudioQueue) -> [Probe]) throws -> AudioQueue {
        let queue = try offlineFloatQueue(channels: 2)
        let holder = Guarded<AudioQueue?>(nil)
        _ = try queue.makeProcessingTap(flags: .preEffects) { call in
            let got = (try? call.getSourceAudio(frames: call.frameCount)) ?? 0
            if answers.seen == nil, let queue = holder.withLock({ $0 }) { answers.run(probes(queue)) }
            return got
        }
        holder.withLock { $0 = queue }
        try queue.enqueue(try floatBuffer(queue, ramp(frames: 4096, channels: 2)))
        try queue.start()
        return queue
    }

    @Test func everyOutputQueueMemberIsRefusedInsideItsOwnTap() throws {
        let answers = Answers()
        let spare = Guarded<AudioQueueBuffer?>(nil)
        let queue = try outputQueueProbing(answers) { queue in Self.outputProbes(queue, spare: spare.withLock { $0! }) }
        let buffer = try queue.allocateBuffer(byteCapacity: 4096)
        spare.withLock { $0 = buffer }
        let rendered = try rendersToTheEnd(queue)
        #expect(rendered, "a call from inside the tap waited for its queue's lock")
        guard rendered else { return }
        expectAnswers(answers)
        // Nothing the refused calls asked for happened.
        #expect(try queue.parameter(.volume) == 1)
        #expect(try !queue.isLevelMeteringEnabled && !queue.isTimePitchEnabled)
        try queue.dispose(immediate: true)
    }

    @Test func everyOutputQueueMemberIsRefusedInsideAnotherQueuesTap() throws {
        let other = try offlineFloatQueue(channels: 2)
        let spare = try other.allocateBuffer(byteCapacity: 4096)
        try other.enqueue(try floatBuffer(other, ramp(frames: 1024, channels: 2)))
        let answers = Answers()
        let queue = try outputQueueProbing(answers) { _ in Self.outputProbes(other, spare: spare) }
        let rendered = try rendersToTheEnd(queue)
        #expect(rendered, "a call from inside the tap waited for another queue's lock")
        guard rendered else { return }
        expectAnswers(answers)
        #expect(try other.parameter(.volume) == 1 && other.state == .stopped)
        try queue.dispose(immediate: true)
        try other.dispose(immediate: true)
    }

    // MARK: Input queues

    static let float2 = AudioStreamBasicDescription.linearPCM(sampleRate: 48000, channels: 2, bitsPerChannel: 32, isFloat: true)

    /// Every category of an input queue's members, called on `queue`.
    static func inputProbes(_ queue: AudioInputQueue, spare: AudioQueueBuffer) -> [Probe] {
        var bytes = [UInt8](repeating: 0, count: 64)
        let one: UInt32 = 1
        return [
            // Controls.
            Probe(name: "start", refused: true) { try queue.start() },
            Probe(name: "pause", refused: true) { try queue.pause() },
            Probe(name: "stop(immediate: false)", refused: true) { try queue.stop(immediate: false) },
            Probe(name: "stop(immediate: true)", refused: true) { try queue.stop(immediate: true) },
            Probe(name: "flush", refused: true) { try queue.flush() },
            Probe(name: "reset", refused: true) { try queue.reset() },
            Probe(name: "dispose", refused: true) { try queue.dispose(immediate: true) },
            // Buffers: enqueueing measures the buffer against the capture line.
            Probe(name: "enqueue", refused: true) { try queue.enqueue(spare) },
            // Typed properties.
            Probe(name: "magicCookie", refused: true) { _ = try queue.magicCookie },
            Probe(name: "maximumOutputPacketSize", refused: true) { _ = try queue.maximumOutputPacketSize },
            Probe(name: "capturedFormat", refused: true) { _ = try queue.capturedFormat },
            Probe(name: "isLevelMeteringEnabled", refused: true) { _ = try queue.isLevelMeteringEnabled },
            Probe(name: "setLevelMeteringEnabled", refused: true) { try queue.setLevelMeteringEnabled(true) },
            Probe(name: "currentLevelMeter", refused: true) { _ = try queue.currentLevelMeter() },
            Probe(name: "lostFrameCount", refused: true) { _ = try queue.lostFrameCount },
            Probe(name: "primeInfo", refused: true) { _ = try queue.primeInfo },
            Probe(name: "setCurrentDevice", refused: true) { try queue.setCurrentDevice(nil) },
            Probe(name: "setDevice", refused: true) { try queue.setDevice(TestInputDevice(sampleRate: 48000, channels: 2)) },
            Probe(name: "setChannelAssignments", refused: true) {
                try queue.setChannelAssignments([.init(deviceUID: "file:x", channelNumber: 1), .init(deviceUID: "file:x", channelNumber: 2)])
            },
            // Untyped properties (the C API's path).
            Probe(name: "propertySize", refused: true) { _ = try queue.propertySize(AudioQueuePropertyID.maximumOutputPacketSize.rawValue) },
            Probe(name: "getProperty", refused: true) {
                _ = try bytes.withUnsafeMutableBytes { b in try queue.getProperty(AudioQueuePropertyID.maximumOutputPacketSize.rawValue, into: b) }
            },
            Probe(name: "setProperty", refused: true) {
                try withUnsafeBytes(of: one) { b in try queue.setProperty(AudioQueuePropertyID.enableLevelMetering.rawValue, from: b) }
            },
            // Taps.
            Probe(name: "makeProcessingTap", refused: true) { _ = try queue.makeProcessingTap(flags: .preEffects) { _ in 0 } },
            Probe(name: "processingTap", refused: true) { _ = try queue.processingTap },
            // The state lock only: these return.
            Probe(name: "isRunning", refused: false) { _ = queue.isRunning },
            Probe(name: "state", refused: false) { _ = queue.state },
            Probe(name: "channelLayout", refused: false) { _ = queue.channelLayout },
        ]
    }

    /// A started input queue on a test device whose tap, on its first call (on the capture
    /// thread), runs `probes(queue)`.
    func inputQueueProbing(
        _ answers: Answers, recorder: InputRecorder, _ probes: @escaping @Sendable (AudioInputQueue) -> [Probe]
    ) throws -> (AudioInputQueue, TestInputDevice) {
        let device = TestInputDevice(sampleRate: 48000, channels: 2)
        let queue = try AudioInputQueue(format: Self.float2, device: device, callback: recorder.callback)
        for _ in 0..<3 { try queue.enqueue(try queue.allocateBuffer(byteCapacity: 4800 * 8)) }
        let holder = Guarded<AudioInputQueue?>(nil)
        _ = try queue.makeProcessingTap(flags: .preEffects) { call in
            let got = (try? call.getSourceAudio(frames: call.frameCount)) ?? 0
            if answers.seen == nil, let queue = holder.withLock({ $0 }) { answers.run(probes(queue)) }
            return got
        }
        holder.withLock { $0 = queue }
        try queue.start()
        return (queue, device)
    }

    @Test func everyInputQueueMemberIsRefusedInsideItsOwnTap() throws {
        let answers = Answers()
        let recorder = InputRecorder()
        let spare = Guarded<AudioQueueBuffer?>(nil)
        let (queue, device) = try inputQueueProbing(answers, recorder: recorder) { queue in
            Self.inputProbes(queue, spare: spare.withLock { $0! })
        }
        let buffer = try queue.allocateBuffer(byteCapacity: 4800 * 8)
        spare.withLock { $0 = buffer }
        let delivered = captureDelivers(device, recorder, answers)
        #expect(delivered, "the capture thread did not deliver: a call inside its tap waited for a lock")
        guard delivered else { return }
        expectAnswers(answers)
        #expect(try !queue.isLevelMeteringEnabled && queue.state == .running)
        try queue.stop(immediate: true)
        try queue.dispose(immediate: true)
    }

    @Test func everyInputQueueMemberIsRefusedInsideAnotherQueuesTap() throws {
        let otherDevice = TestInputDevice(sampleRate: 48000, channels: 2)
        let other = try AudioInputQueue(format: Self.float2, device: otherDevice) { _, _, _, _ in }
        let spare = try other.allocateBuffer(byteCapacity: 4800 * 8)
        let answers = Answers()
        let recorder = InputRecorder()
        let (queue, device) = try inputQueueProbing(answers, recorder: recorder) { _ in Self.inputProbes(other, spare: spare) }
        let delivered = captureDelivers(device, recorder, answers)
        #expect(delivered, "the capture thread did not deliver: a call inside its tap waited for another queue's lock")
        guard delivered else { return }
        expectAnswers(answers)
        #expect(try !other.isLevelMeteringEnabled && other.state == .stopped)
        try queue.stop(immediate: true)
        try queue.dispose(immediate: true)
        try other.dispose(immediate: true)
    }

    /// An output queue's tap calling into an input queue's members, and the reverse, is
    /// refused too: the locks do not know which kind of queue the tap belongs to.
    @Test func aTapOfOneKindIsRefusedByAQueueOfTheOther() throws {
        let inputDevice = TestInputDevice(sampleRate: 48000, channels: 2)
        let input = try AudioInputQueue(format: Self.float2, device: inputDevice) { _, _, _, _ in }
        let inputSpare = try input.allocateBuffer(byteCapacity: 4800 * 8)
        let outputAnswers = Answers()
        let output = try outputQueueProbing(outputAnswers) { _ in Self.inputProbes(input, spare: inputSpare) }
        let rendered = try rendersToTheEnd(output)
        #expect(rendered, "a call from inside the output queue's tap waited for an input queue's lock")
        guard rendered else { return }
        expectAnswers(outputAnswers)

        let other = try offlineFloatQueue(channels: 2)
        let outputSpare = try other.allocateBuffer(byteCapacity: 4096)
        let inputAnswers = Answers()
        let recorder = InputRecorder()
        let (recording, device) = try inputQueueProbing(inputAnswers, recorder: recorder) { _ in
            Self.outputProbes(other, spare: outputSpare)
        }
        let delivered = captureDelivers(device, recorder, inputAnswers)
        #expect(delivered, "a call from inside the input queue's tap waited for an output queue's lock")
        guard delivered else { return }
        expectAnswers(inputAnswers)
        try recording.stop(immediate: true)
        for queue in [output, other] { try queue.dispose(immediate: true) }
        for queue in [recording, input] { try queue.dispose(immediate: true) }
    }
}
