import Foundation
import Testing
import AudioCore
import AudioDevices
import AudioQueueServices

/// Every control call of an input queue in every state: what it returns and where it leaves
/// the queue.
@Suite("Input queue control calls in every state")
struct InputStateMatrixTests {
    enum Start: String, CaseIterable, Sendable { case stopped, running, paused, disposed }
    enum Call: String, CaseIterable, Sendable { case start, pause, stopAsync, stopSync, flush, reset, dispose, enqueue, allocate }
    /// nil: succeeds; otherwise Apple's error. Second: the state after (once an asynchronous
    /// stop has had its chance to complete).
    typealias Outcome = (AudioQueueError.Code?, AudioQueueRunState?)

    static let table: [Start: [Call: Outcome]] = [
        .stopped: [
            .start: (nil, .running), .pause: (nil, .stopped), .stopAsync: (nil, .stopped), .stopSync: (nil, .stopped),
            .flush: (nil, .stopped), .reset: (nil, .stopped), .dispose: (nil, nil), .enqueue: (nil, .stopped),
            .allocate: (nil, .stopped),
        ],
        .running: [
            .start: (nil, .running), .pause: (nil, .paused), .stopAsync: (nil, .stopped), .stopSync: (nil, .stopped),
            .flush: (nil, .running), .reset: (nil, .running), .dispose: (nil, nil), .enqueue: (nil, .running),
            .allocate: (nil, .running),
        ],
        .paused: [
            .start: (nil, .running), .pause: (nil, .paused), .stopAsync: (nil, .paused), .stopSync: (nil, .stopped),
            .flush: (nil, .paused), .reset: (nil, .paused), .dispose: (nil, nil), .enqueue: (nil, .paused),
            .allocate: (nil, .paused),
        ],
    ]

    static var cases: [(Start, Call)] { Start.allCases.flatMap { s in Call.allCases.map { (s, $0) } } }

    @Test(arguments: cases)
    func call(in start: Start, _ call: Call) throws {
        let format = AudioStreamBasicDescription.linearPCM(sampleRate: 48000, channels: 2, bitsPerChannel: 16)
        let device = TestInputDevice(sampleRate: 48000, channels: 2)
        let recorder = InputRecorder()
        let queue = try AudioInputQueue(format: format, device: device, callback: recorder.callback)
        for _ in 0..<2 { try queue.enqueue(try queue.allocateBuffer(byteCapacity: 4 * 480)) }
        let spare = try queue.allocateBuffer(byteCapacity: 4 * 480)
        switch start {
        case .stopped: break
        case .running: try queue.start()
        case .paused: try queue.start(); try queue.pause()
        case .disposed: try queue.dispose(immediate: true)
        }
        var thrown: AudioQueueError.Code?
        do {
            switch call {
            case .start: try queue.start()
            case .pause: try queue.pause()
            case .stopAsync: try queue.stop(immediate: false)
            case .stopSync: try queue.stop(immediate: true)
            case .flush: try queue.flush()
            case .reset: try queue.reset()
            case .dispose: try queue.dispose(immediate: true)
            case .enqueue: try queue.enqueue(spare)
            case .allocate: _ = try queue.allocateBuffer(byteCapacity: 16)
            }
        } catch {
            thrown = error.code
        }
        guard let expected = Self.table[start]?[call] else {
            // Disposed: everything is refused.
            #expect(thrown == .disposalPending)
            return
        }
        #expect(thrown == expected.0)
        if let after = expected.1 {
            #expect(eventually { queue.state == after }, "state \(queue.state), expected \(after)")
        }
        if call != .dispose { try queue.dispose(immediate: true) }
    }

    /// A device whose stop takes its time (a sound server answering slowly, an ALSA thread
    /// being joined) does not hold up the calls that only look at the queue or add to it.
    @Test func aSlowDeviceTransitionDoesNotBlockStateOrEnqueue() throws {
        let device = GatedInputDevice(sampleRate: 48000, channels: 2)
        let queue = try AudioInputQueue(format: .linearPCM(sampleRate: 48000, channels: 2, bitsPerChannel: 16), device: device) { _, _, _, _, _ in }
        let buffer = try queue.allocateBuffer(byteCapacity: 1920)
        try queue.start()
        let stopper = Thread { try? queue.pause() }
        stopper.start()
        #expect(device.entered.wait(timeout: .now() + 20) == .success)
        // The device is in the middle of stopping. These must not wait for it.
        let answered = DispatchSemaphore(value: 0)
        let observer = Thread {
            _ = queue.state
            _ = queue.isRunning
            try? queue.enqueue(buffer)
            answered.signal()
        }
        observer.start()
        let result = answered.wait(timeout: .now() + 20)
        device.gate.signal()
        #expect(result == .success)
        #expect(eventually { queue.state == .paused })
        try queue.dispose(immediate: true)
    }
}

/// An input device whose stop waits for the test to open a gate.
final class GatedInputDevice: AudioInputDevice, @unchecked Sendable {
    let info = AudioDeviceInfo(backend: "test", name: "gated", description: "A device that stops slowly", direction: .input)
    let format: AudioStreamBasicDescription
    let entered = DispatchSemaphore(value: 0)
    let gate = DispatchSemaphore(value: 0)

    init(sampleRate: Double, channels: Int) { format = .deviceFloat(sampleRate: sampleRate, channels: channels) }
    func start(sink: any AudioCaptureSink) throws(AudioDeviceError) {}
    func stop(drain: Bool) {
        entered.signal()
        _ = gate.wait(timeout: .now() + 30)
    }
    var framesCaptured: Int64 { 0 }
    func close() {}
}

/// The same for an output queue: a pause waiting on its device leaves state, isRunning and
/// enqueue free.
@Suite("Device transitions outside the state lock")
struct DeviceTransitionTests {
    @Test func aSlowOutputDeviceDoesNotBlockStateOrEnqueue() throws {
        let device = GatedOutputDevice(sampleRate: 48000, channels: 2)
        let format = AudioStreamBasicDescription.linearPCM(sampleRate: 48000, channels: 2, bitsPerChannel: 32, isFloat: true)
        let queue = try AudioQueue(format: format, device: device) { _, _ in }
        let buffer = try floatBuffer(queue, ramp(frames: 100, channels: 2))
        try queue.start()
        let pauser = Thread { try? queue.pause() }
        pauser.start()
        #expect(device.entered.wait(timeout: .now() + 20) == .success)
        let answered = DispatchSemaphore(value: 0)
        let observer = Thread {
            _ = queue.state
            _ = queue.isRunning
            try? queue.enqueue(buffer)
            answered.signal()
        }
        observer.start()
        let result = answered.wait(timeout: .now() + 20)
        device.gate.signal()
        #expect(result == .success)
        #expect(eventually { queue.state == .paused })
        try queue.dispose(immediate: true)
    }
}

/// An output device whose pause waits for the test to open a gate.
final class GatedOutputDevice: AudioOutputDevice, @unchecked Sendable {
    let info = AudioDeviceInfo(backend: "test", name: "gated", description: "A device that pauses slowly")
    let format: AudioStreamBasicDescription
    let entered = DispatchSemaphore(value: 0)
    let gate = DispatchSemaphore(value: 0)

    init(sampleRate: Double, channels: Int) { format = .deviceFloat(sampleRate: sampleRate, channels: channels) }
    func start(source: any AudioRenderSource) throws(AudioDeviceError) {}
    func stop(drain: Bool) {}
    func pause() {
        entered.signal()
        _ = gate.wait(timeout: .now() + 30)
    }
    var presentationDelay: Int { 0 }
    var framesRendered: Int64 { 0 }
    var framesPlayed: Int64 { 0 }
    func close() {}
}
