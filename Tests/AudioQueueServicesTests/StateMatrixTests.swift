import Foundation
import Testing
import AudioCore
import AudioDevices
import AudioQueueServices

/// Every control call in every state: what it returns and where it leaves the queue.
@Suite("Control calls in every state")
struct StateMatrixTests {
    enum Start: String, CaseIterable, Sendable { case stopped, running, paused, stopping, disposed }
    enum Call: String, CaseIterable, Sendable {
        case start, prime, pause, stopAsync, stopSync, flush, reset, dispose, enqueue, allocate, setOfflineFormat, offlineRender
    }
    /// nil: succeeds; otherwise Apple's error. Second: the state after.
    typealias Outcome = (AudioQueueError.Code?, AudioQueue.RunState?)

    static let table: [Start: [Call: Outcome]] = [
        .stopped: [
            .start: (nil, .running), .prime: (nil, .stopped), .pause: (nil, .stopped), .stopAsync: (nil, .stopped),
            .stopSync: (nil, .stopped), .flush: (nil, .stopped), .reset: (nil, .stopped), .dispose: (nil, nil),
            .enqueue: (nil, .stopped), .allocate: (nil, .stopped), .setOfflineFormat: (nil, .stopped),
            .offlineRender: (.invalidRunState, .stopped),
        ],
        .running: [
            .start: (nil, .running), .prime: (nil, .running), .pause: (nil, .paused), .stopAsync: (nil, .stopping),
            .stopSync: (nil, .stopped), .flush: (nil, .running), .reset: (nil, .running), .dispose: (nil, nil),
            .enqueue: (nil, .running), .allocate: (nil, .running), .setOfflineFormat: (.invalidRunState, .running),
            .offlineRender: (nil, .running),
        ],
        .paused: [
            .start: (nil, .running), .prime: (nil, .paused), .pause: (nil, .paused), .stopAsync: (nil, .paused),
            .stopSync: (nil, .stopped), .flush: (nil, .paused), .reset: (nil, .paused), .dispose: (nil, nil),
            .enqueue: (nil, .paused), .allocate: (nil, .paused), .setOfflineFormat: (.invalidRunState, .paused),
            .offlineRender: (.invalidRunState, .paused),
        ],
        .stopping: [
            .start: (.invalidRunState, .stopping), .prime: (.invalidRunState, .stopping), .pause: (nil, .paused),
            .stopAsync: (nil, .stopping), .stopSync: (nil, .stopped), .flush: (nil, .stopping), .reset: (nil, .stopping),
            .dispose: (nil, nil), .enqueue: (nil, .stopping), .allocate: (nil, .stopping),
            .setOfflineFormat: (.invalidRunState, .stopping), .offlineRender: (nil, .stopping),
        ],
    ]

    static var cases: [(Start, Call)] { Start.allCases.flatMap { s in Call.allCases.map { (s, $0) } } }

    @Test(arguments: cases)
    func call(in start: Start, _ call: Call) throws {
        let format = AudioStreamBasicDescription.linearPCM(sampleRate: 48000, channels: 2, bitsPerChannel: 32, isFloat: true)
        let queue = try offlineFloatQueue()
        for i in 0..<3 { try queue.enqueue(try floatBuffer(queue, ramp(frames: 1000, channels: 2, from: i * 1000))) }
        let spare = try floatBuffer(queue, ramp(frames: 10, channels: 2))
        let capture = try queue.allocateBuffer(byteCapacity: 8 * 64)
        switch start {
        case .stopped: break
        case .running: try queue.start()
        case .paused: try queue.start(); try queue.pause()
        case .stopping: try queue.start(); _ = try render(queue, frames: 10); try queue.stop(immediate: false)
        case .disposed: try queue.dispose(immediate: true)
        }
        var thrown: AudioQueueError.Code?
        do {
            switch call {
            case .start: try queue.start()
            case .prime: _ = try queue.prime()
            case .pause: try queue.pause()
            case .stopAsync: try queue.stop(immediate: false)
            case .stopSync: try queue.stop(immediate: true)
            case .flush: try queue.flush()
            case .reset: try queue.reset()
            case .dispose: try queue.dispose(immediate: true)
            case .enqueue: try queue.enqueue(spare)
            case .allocate: _ = try queue.allocateBuffer(byteCapacity: 16)
            case .setOfflineFormat: try queue.setOfflineRenderFormat(format)
            case .offlineRender: try queue.offlineRender(at: .sampleTime(0), into: capture, frameCount: 16)
            }
        } catch {
            thrown = error.code
        }
        guard let expected = Self.table[start]?[call] else {
            // Disposed: everything is refused.
            #expect(thrown == .disposalPending, "\(call) on a disposed queue")
            return
        }
        #expect(thrown == expected.0, "\(call) in \(start)")
        if let state = expected.1 {
            #expect(queue.state == state, "\(call) in \(start) left \(queue.state)")
        } else {
            expectCode(.disposalPending) { _ = try queue.allocateBuffer(byteCapacity: 4) }
        }
    }
}

/// Misuse returns Apple's codes, never a trap.
@Suite("Apple's error codes for misuse")
struct ErrorCodeTests {
    static let float2 = AudioStreamBasicDescription.linearPCM(sampleRate: 48000, channels: 2, bitsPerChannel: 32, isFloat: true)

    @Test func buffers() throws {
        let queue = try offlineFloatQueue()
        let other = try offlineFloatQueue()
        let foreign = try floatBuffer(other, [1, 2])
        expectCode(.invalidBuffer) { try queue.enqueue(foreign) }
        expectCode(.invalidBuffer) { try queue.freeBuffer(foreign) }
        let empty = try queue.allocateBuffer(byteCapacity: 64)
        expectCode(.bufferEmpty) { try queue.enqueue(empty) }
        let b = try floatBuffer(queue, [1, 2, 3, 4])
        try queue.enqueue(b)
        expectCode(.bufferEnqueuedTwice) { try queue.enqueue(b) }
        expectCode(.bufferInQueue) { try queue.freeBuffer(b) }
        try queue.freeBuffer(empty)
        expectCode(.invalidBuffer) { try queue.freeBuffer(empty) }
        expectCode(.invalidBuffer) { try queue.enqueue(empty) }
        expectCode(.invalidParameter) { _ = try queue.allocateBuffer(byteCapacity: 0) }
        let odd = try queue.allocateBuffer(byteCapacity: 64)
        odd.audioDataByteSize = 12   // one and a half stereo Float32 frames
        expectCode(.invalidParameter) { try queue.enqueue(odd) }
        odd.audioDataByteSize = 65
        expectCode(.invalidParameter) { try queue.enqueue(odd) }
        // Rendering offline into a buffer the queue is still to play would overwrite it.
        try queue.start()
        expectCode(.bufferInQueue) { try queue.offlineRender(at: .sampleTime(0), into: b, frameCount: 1) }
    }

    /// A buffer belongs to the queue that made it, even after that queue is gone and a new one
    /// is made in its place (the same address, often).
    @Test func buffersOfAQueueThatIsGoneBelongToNoOther() throws {
        for _ in 0..<20 {
            var old: AudioQueue? = try offlineFloatQueue()
            let orphan = try floatBuffer(old!, [1, 2])
            old = nil
            let queue = try offlineFloatQueue()
            expectCode(.invalidBuffer) { try queue.enqueue(orphan) }
            withExtendedLifetime(old) {}
        }
    }

    @Test func parameters() throws {
        let queue = try offlineFloatQueue()
        expectCode(.invalidParameter) { try queue.setParameter(id: 2, 2.5) }   // PlayRate: 0.5…2
        expectCode(.invalidParameter) { try queue.setParameter(id: 3, 2401) }  // Pitch: ±2400 cents
        expectCode(.invalidParameter) { _ = try queue.parameter(id: 99) }
        expectCode(.invalidParameter) { try queue.setParameter(.volume, 1.5) }
        expectCode(.invalidParameter) { try queue.setParameter(.volume, .nan) }
        expectCode(.invalidParameter) { try queue.setParameter(.pan, -2) }
        expectCode(.invalidParameter) { try queue.setParameter(.volumeRampTime, -1) }
        let b = try floatBuffer(queue, [1, 2])
        expectCode(.invalidParameter) {
            try queue.enqueue(b, trimFramesAtStart: 0, trimFramesAtEnd: 0, parameterEvents: [AudioQueueParameterEvent(.volume, 7)])
        }
        expectCode(.invalidParameter) { try queue.enqueue(b, trimFramesAtStart: -1, trimFramesAtEnd: 0) }
        expectCode(.invalidParameter) {
            try queue.enqueue(b, trimFramesAtStart: 0, trimFramesAtEnd: 0, startTime: AudioTimeStamp(hostTime: 5, flags: .hostTimeValid))
        }
        try queue.setParameter(id: 1, 0.5)
        #expect(try queue.parameter(id: 1) == 0.5)
    }

    @Test func vbrDataNeedsPacketDescriptions() throws {
        AACRegistration.once()
        let aac = AudioStreamBasicDescription(
            sampleRate: 44100, formatID: .mpeg4AAC, formatFlags: [], bytesPerPacket: 0, framesPerPacket: 1024,
            bytesPerFrame: 0, channelsPerFrame: 2, bitsPerChannel: 0)
        let queue = try AudioQueue(format: aac) { _, _ in }
        let b = try queue.allocateBuffer(byteCapacity: 100)
        b.audioDataByteSize = 100
        expectCode(.invalidParameter) { try queue.enqueue(b) }
        expectCode(.invalidParameter) { try queue.enqueue(b, packetDescriptions: [AudioStreamPacketDescription(startOffset: 90, dataByteSize: 20)]) }
        try queue.enqueue(b, packetDescriptions: [AudioStreamPacketDescription(startOffset: 0, dataByteSize: 100)])
        expectCode(.invalidRunState) { try queue.setMagicCookie([0x12, 0x10]) }
    }

    @Test func codecs() throws {
        // MACE 3:1: no decoder for it.
        let mace = AudioStreamBasicDescription(
            sampleRate: 22050, formatID: AudioFormatID(rawValue: 0x4D41_4333), formatFlags: [], bytesPerPacket: 2, framesPerPacket: 6,
            bytesPerFrame: 0, channelsPerFrame: 1, bitsPerChannel: 0)
        expectCode(.codecNotFound) { _ = try AudioQueue(format: mace) { _, _ in } }
        var zero = Self.float2
        zero.channelsPerFrame = 0
        expectCode(.invalidParameter) { _ = try AudioQueue(format: zero) { _, _ in } }
        AACRegistration.once()
        let aac = AudioStreamBasicDescription(
            sampleRate: 44100, formatID: .mpeg4AAC, formatFlags: [], bytesPerPacket: 0, framesPerPacket: 1024,
            bytesPerFrame: 0, channelsPerFrame: 2, bitsPerChannel: 0)
        let queue = try AudioQueue(format: aac) { _, _ in }
        expectCode(.invalidPropertyValue) { try queue.setMagicCookie([0xFF, 0xFF, 0xFF]) }
    }

    @Test func properties() throws {
        let queue = try offlineFloatQueue()
        var four = [UInt8](repeating: 0, count: 4)
        expectCode(.invalidProperty) { _ = try four.withUnsafeMutableBytes { try queue.getProperty(0x6162_6364, into: $0) } }
        expectCode(.invalidProperty) { try four.withUnsafeBytes { try queue.setProperty(AudioQueuePropertyID.isRunning.rawValue, from: $0) } }
        var two = [UInt8](repeating: 0, count: 2)
        expectCode(.invalidPropertySize) { _ = try two.withUnsafeMutableBytes { try queue.getProperty(AudioQueuePropertyID.isRunning.rawValue, into: $0) } }
        expectCode(.invalidPropertySize) { try two.withUnsafeBytes { try queue.setProperty(AudioQueuePropertyID.enableLevelMetering.rawValue, from: $0) } }
        expectCode(.invalidPropertyValue) { try queue.setChannelLayout(AudioChannelLayout(tag: .mpeg_5_1_A)) }
        expectCode(.invalidPropertyValue) { try queue.setDecodeBufferSizeFrames(10) }
        expectCode(.invalidPropertyValue) { _ = try queue.currentLevelMeter() }
        expectCode(.invalidPropertyValue) { try queue.setOfflineRenderFormat(.linearPCM(sampleRate: 44100, channels: 2, bitsPerChannel: 16)) }
        // Raw reads match the typed properties, in Apple's layouts.
        var asbd = [UInt8](repeating: 0, count: 40)
        #expect(try asbd.withUnsafeMutableBytes { try queue.getProperty(AudioQueuePropertyID.streamDescription.rawValue, into: $0) } == 40)
        #expect(asbd.withUnsafeBytes { $0.loadUnaligned(as: Double.self) } == 48000)
        #expect(asbd.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 8, as: UInt32.self) } == 0x6C70_636D)   // 'lpcm'
        #expect(asbd.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 28, as: UInt32.self) } == 2)
        var frames = UInt32(8192)
        try withUnsafeBytes(of: &frames) { try queue.setProperty(AudioQueuePropertyID.decodeBufferSizeFrames.rawValue, from: $0) }
        #expect(queue.decodeBufferSizeFrames == 8192)
        var one = UInt32(1)
        try withUnsafeBytes(of: &one) { try queue.setProperty(AudioQueuePropertyID.enableLevelMetering.rawValue, from: $0) }
        #expect(try queue.isLevelMeteringEnabled)
        #expect(try queue.propertySize(AudioQueuePropertyID.currentLevelMeter.rawValue) == 16)
        let layout = AudioChannelLayout(tag: .stereo)
        try queue.setChannelLayout(layout)
        let size = try queue.propertySize(AudioQueuePropertyID.channelLayout.rawValue)
        var raw = [UInt8](repeating: 0, count: size)
        _ = try raw.withUnsafeMutableBytes { try queue.getProperty(AudioQueuePropertyID.channelLayout.rawValue, into: $0) }
        try queue.setChannelLayout(nil)
        try raw.withUnsafeBytes { try queue.setProperty(AudioQueuePropertyID.channelLayout.rawValue, from: $0) }
        #expect(try queue.channelLayout == layout)
        try queue.start()
        expectCode(.invalidRunState) { try queue.setDecodeBufferSizeFrames(8192) }
        expectCode(.invalidRunState) { try queue.setCurrentDevice(nil) }
    }

    @Test func modesAndDevices() throws {
        let queue = try offlineFloatQueue()
        let capture = try queue.allocateBuffer(byteCapacity: 800)
        try queue.start()
        expectCode(.invalidOfflineMode) { _ = try queue.deviceCurrentTime() }
        expectCode(.invalidParameter) { try queue.offlineRender(at: AudioTimeStamp(), into: capture, frameCount: 10) }
        expectCode(.invalidParameter) { try queue.offlineRender(at: .sampleTime(0), into: capture, frameCount: 101) }
        try queue.stop(immediate: true)
        try queue.setOfflineRenderFormat(nil)
        // Live again, on a device (the null backend's: a unit test plays to no real output).
        try queue.setCurrentDevice("null")
        try queue.start(); try queue.stop(immediate: true)
        #expect(queue.currentDevice == "null:null")
        let live = try AudioQueue(format: Self.float2, device: try NullDevice(sampleRate: 48000, channels: 2)) { _, _ in }
        let b = try live.allocateBuffer(byteCapacity: 80)
        expectCode(.invalidOfflineMode) { try live.offlineRender(at: .sampleTime(0), into: b, frameCount: 10) }
        // Apple's AudioQueueDeviceGetCurrentTime answers whether or not the device runs; the
        // sample time is valid only while it does.
        let idle = try live.deviceCurrentTime()
        #expect(idle.flags == .hostTimeValid)
        #expect(idle.hostTime > 0)
        expectCode(.invalidDevice) { try live.setCurrentDevice("nosuchbackend:x") }
        expectCode(.invalidDevice) { try live.setDevice(try NullDevice(sampleRate: 44100, channels: 2)) }
        expectCode(.invalidDevice) { _ = try AudioQueue(format: Self.float2, device: try NullDevice(sampleRate: 48000, channels: 1)) { _, _ in } }
        let broken = try AudioQueue(format: Self.float2, device: RefusingDevice()) { _, _ in }
        expectCode(.cannotStart) { try broken.start() }
        #expect(broken.state == .stopped)
        try live.dispose(immediate: true)
        expectCode(.disposalPending) { try live.dispose(immediate: true) }
        expectCode(.disposalPending) { try live.enqueue(b) }
    }

    /// Values out of range (trims, start times, formats a queue cannot take) are errors, not
    /// traps; an unusual but valid description (µ-law without bytes per frame) plays.
    @Test func outOfRangeArgumentsAreErrorsNotTraps() throws {
        let queue = try offlineFloatQueue()
        let b = try floatBuffer(queue, [1, 2])
        expectCode(.invalidParameter) { try queue.enqueue(b, trimFramesAtStart: .max, trimFramesAtEnd: .max) }
        let live = try AudioQueue(format: float32Mono, device: try NullDevice(sampleRate: 48000, channels: 1)) { _, _ in }
        expectCode(.invalidParameter) { try live.start(at: .sampleTime(.infinity)) }
        try live.start(at: .sampleTime(1e30))   // far in the future: accepted, clamped
        try live.dispose(immediate: true)
        var twoFrames = float32Mono
        twoFrames.framesPerPacket = 2
        twoFrames.bytesPerPacket = 8
        expectCode(.invalidParameter) { _ = try AudioQueue(format: twoFrames) { _, _ in } }
        var planar = AudioStreamBasicDescription.linearPCM(sampleRate: 48000, channels: 2, bitsPerChannel: 32, isFloat: true)
        planar.formatFlags.insert(.isNonInterleaved)
        planar.bytesPerFrame = 4
        planar.bytesPerPacket = 4
        expectCode(.invalidParameter) { _ = try AudioQueue(format: planar) { _, _ in } }
        let ulaw = AudioStreamBasicDescription(
            sampleRate: 8000, formatID: .uLaw, formatFlags: [], bytesPerPacket: 1, framesPerPacket: 1,
            bytesPerFrame: 0, channelsPerFrame: 1, bitsPerChannel: 8)
        let odd = try AudioQueue(format: ulaw) { _, _ in }
        try odd.setOfflineRenderFormat(odd.renderFormat)
        let bytes = try odd.allocateBuffer(byteCapacity: 100)
        bytes.audioDataByteSize = 100
        try odd.enqueue(bytes)
        try odd.start()
        try odd.stop(immediate: false)
        #expect(try renderAll(odd).count == 100)
    }
}

/// A device that will not start: the one seam where a stand-in is the point of the test.
final class RefusingDevice: AudioOutputDevice {
    let info = AudioDeviceInfo(backend: "test", name: "refusing", description: "never starts")
    let format = AudioStreamBasicDescription.deviceFloat(sampleRate: 48000, channels: 2)
    /// What the device's start throws.
    let code: AudioDeviceError.Code
    init(_ code: AudioDeviceError.Code = .openFailed) { self.code = code }
    func start(source: any AudioRenderSource) throws(AudioDeviceError) { throw AudioDeviceError(code, "busy") }
    func stop(drain: Bool) {}
    var presentationDelay: Int { 0 }
    var framesRendered: Int64 { 0 }
    var framesPlayed: Int64 { 0 }
    func close() {}
}
