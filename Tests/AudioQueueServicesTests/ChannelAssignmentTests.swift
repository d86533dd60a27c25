import Foundation
import Testing
import ProcessSupport
import AudioCore
import AudioDevices
import AudioQueueKit
import AudioQueueServices

/// `kAudioQueueProperty_ChannelAssignments`: a queue's channels placed among a device's.
@Suite("Channel assignments")
struct ChannelAssignmentTests {
    /// A sine of `hertz` at 48 kHz, `frames` long, amplitude 0.5.
    static func tone(_ hertz: Double, frames: Int) -> [Float] {
        (0..<frames).map { Float(0.5 * sin(2 * Double.pi * hertz * Double($0) / 48000)) }
    }

    /// Interleaves channels of equal length.
    static func interleave(_ channels: [[Float]]) -> [Float] {
        var out: [Float] = []
        for f in 0..<channels[0].count { for c in channels { out.append(c[f]) } }
        return out
    }

    /// Channel `c` of `channels`-wide interleaved samples.
    static func channel(_ samples: [Float], _ c: Int, of channels: Int) -> [Float] {
        stride(from: c, to: samples.count, by: channels).map { samples[$0] }
    }

    /// An offline Float32 queue of `channels` with `assignments` (channel numbers on
    /// `null:null`), rendering `deviceChannels` wide; `samples` enqueued, then stopped.
    static func renderPlaced(
        _ samples: [Float], channels: Int, assignments: [Int], deviceChannels: Int
    ) throws -> [Float] {
        let format = AudioStreamBasicDescription.linearPCM(sampleRate: 48000, channels: UInt32(channels), bitsPerChannel: 32, isFloat: true)
        let queue = try AudioQueue(format: format) { _, _ in }
        try queue.setChannelAssignments(assignments.map { AudioQueueChannelAssignment(deviceUID: "null:null", channelNumber: $0) })
        let wide = AudioStreamBasicDescription.deviceFloat(sampleRate: 48000, channels: deviceChannels)
        try queue.setOfflineRenderFormat(wide)
        try queue.enqueue(try floatBuffer(queue, samples))
        try queue.start()
        try queue.stop(immediate: false)
        let frames = samples.count / channels
        let capture = try queue.allocateBuffer(byteCapacity: frames * deviceChannels * 4)
        try queue.offlineRender(at: .sampleTime(0), into: capture, frameCount: frames)
        let got = capture.audioDataByteSize / 4
        let out = Array(UnsafeBufferPointer(start: capture.audioData.assumingMemoryBound(to: Float.self), count: got))
        try queue.dispose(immediate: true)
        return out
    }

    @Test func stereoOnChannelsThreeAndFourOfFour() throws {
        let left = Self.tone(440, frames: 4800), right = Self.tone(660, frames: 4800)
        let out = try Self.renderPlaced(Self.interleave([left, right]), channels: 2, assignments: [3, 4], deviceChannels: 4)
        try #require(out.count == 4800 * 4, "\(out.count / 4) frames rendered")
        #expect(Self.channel(out, 0, of: 4).allSatisfy { $0 == 0 })
        #expect(Self.channel(out, 1, of: 4).allSatisfy { $0 == 0 })
        #expect(Self.firstDifference(Self.channel(out, 2, of: 4), left) == nil)
        #expect(Self.firstDifference(Self.channel(out, 3, of: 4), right) == nil)
    }

    @Test func monoOnTheRightChannel() throws {
        let mono = Self.tone(1000, frames: 2400)
        let out = try Self.renderPlaced(mono, channels: 1, assignments: [2], deviceChannels: 2)
        try #require(out.count == 2400 * 2)
        #expect(Self.channel(out, 0, of: 2).allSatisfy { $0 == 0 })
        #expect(Self.firstDifference(Self.channel(out, 1, of: 2), mono) == nil)
    }

    @Test func swappedChannels() throws {
        let left = Self.tone(440, frames: 1000), right = Self.tone(660, frames: 1000)
        let out = try Self.renderPlaced(Self.interleave([left, right]), channels: 2, assignments: [2, 1], deviceChannels: 2)
        #expect(Self.firstDifference(Self.channel(out, 0, of: 2), right) == nil)
        #expect(Self.firstDifference(Self.channel(out, 1, of: 2), left) == nil)
    }

    /// A four-channel 16-bit offline format: the queue's channels converted in their places.
    @Test func sixteenBitFourChannelOfflineFormat() throws {
        let format = AudioStreamBasicDescription.linearPCM(sampleRate: 48000, channels: 2, bitsPerChannel: 32, isFloat: true)
        let queue = try AudioQueue(format: format) { _, _ in }
        try queue.setChannelAssignments([.init(deviceUID: "null:null", channelNumber: 4), .init(deviceUID: "null:null", channelNumber: 1)])
        try queue.setOfflineRenderFormat(.linearPCM(sampleRate: 48000, channels: 4, bitsPerChannel: 16, isFloat: false))
        // Quarter and minus half scale: exact in 16 bits.
        try queue.enqueue(try floatBuffer(queue, Array(repeating: [0.25, -0.5], count: 1000).flatMap { $0 }))
        try queue.start()
        try queue.stop(immediate: false)
        let capture = try queue.allocateBuffer(byteCapacity: 1000 * 8)
        try queue.offlineRender(at: .sampleTime(0), into: capture, frameCount: 1000)
        try #require(capture.audioDataByteSize == 1000 * 8)
        let samples = Array(UnsafeBufferPointer(start: capture.audioData.assumingMemoryBound(to: Int16.self), count: 4000))
        #expect((0..<1000).allSatisfy { samples[4 * $0] == -16384 && samples[4 * $0 + 1] == 0 && samples[4 * $0 + 2] == 0 && samples[4 * $0 + 3] == 8192 })
        try queue.dispose(immediate: true)
    }

    /// Without assignments the offline format must have the queue's channels, as before; a
    /// format narrower than the highest assigned channel is refused.
    @Test func offlineFormatWidthFollowsTheAssignments() throws {
        let format = AudioStreamBasicDescription.linearPCM(sampleRate: 48000, channels: 2, bitsPerChannel: 32, isFloat: true)
        let queue = try AudioQueue(format: format) { _, _ in }
        let quad = AudioStreamBasicDescription.deviceFloat(sampleRate: 48000, channels: 4)
        expectCode(.invalidPropertyValue) { try queue.setOfflineRenderFormat(quad) }
        try queue.setChannelAssignments([.init(deviceUID: "null:null", channelNumber: 3), .init(deviceUID: "null:null", channelNumber: 4)])
        expectCode(.invalidPropertyValue) { try queue.setOfflineRenderFormat(format) }
        try queue.setOfflineRenderFormat(quad)
        // Offline, the format is the device: channel 5 is past it; clearing would leave the
        // four-channel format without a placement.
        expectCode(.invalidPropertyValue) {
            try queue.setChannelAssignments([.init(deviceUID: "null:null", channelNumber: 5), .init(deviceUID: "null:null", channelNumber: 1)])
        }
        expectCode(.invalidPropertyValue) { try queue.setChannelAssignments([]) }
        try queue.setOfflineRenderFormat(nil)
        try queue.setChannelAssignments([])
        #expect(queue.channelAssignments == nil)
        try queue.setOfflineRenderFormat(format)
    }

    @Test func misuseIsRefusedWithApplesCodes() throws {
        let format = AudioStreamBasicDescription.linearPCM(sampleRate: 48000, channels: 2, bitsPerChannel: 32, isFloat: true)
        let queue = try AudioQueue(format: format) { _, _ in }
        func a(_ uid: String, _ n: Int) -> AudioQueueChannelAssignment { .init(deviceUID: uid, channelNumber: n) }
        // One per queue channel.
        expectCode(.invalidPropertySize) { try queue.setChannelAssignments([a("null:null", 1)]) }
        expectCode(.invalidPropertySize) {
            try queue.setChannelAssignments([a("null:null", 1), a("null:null", 2), a("null:null", 3)])
        }
        // Channels from 1, none twice, one device.
        expectCode(.invalidPropertyValue) { try queue.setChannelAssignments([a("null:null", 0), a("null:null", 1)]) }
        expectCode(.invalidPropertyValue) { try queue.setChannelAssignments([a("null:null", 2), a("null:null", 2)]) }
        expectCode(.invalidPropertyValue) { try queue.setChannelAssignments([a("null:null", 1), a("file:/tmp/x.wav", 2)]) }
        expectCode(.invalidPropertyValue) { try queue.setChannelAssignments([a("", 1), a("", 2)]) }
        // An unknown backend.
        expectCode(.invalidDevice) { try queue.setChannelAssignments([a("nosuch:dev", 1), a("nosuch:dev", 2)]) }
        #expect(queue.channelAssignments == nil)
        // Accepted: the queue moves to the device named.
        try queue.setChannelAssignments([a("null:null", 2), a("null:null", 1)])
        #expect(queue.currentDevice == "null:null")
        #expect(queue.channelAssignments == [a("null:null", 2), a("null:null", 1)])
        // Choosing another device drops them.
        try queue.setCurrentDevice("null:default")
        #expect(queue.channelAssignments == nil)
    }

    /// An input queue made with a device of another channel count records it mapped: channel
    /// assignments (which need a device of the queue's own) are refused.
    @Test func inputQueueWithAMappedDeviceRefuses() throws {
        let format = AudioStreamBasicDescription.linearPCM(sampleRate: 48000, channels: 2, bitsPerChannel: 32, isFloat: true)
        let mono = try NullInputDevice(sampleRate: 48000, channels: 1)
        let queue = try AudioInputQueue(format: format, device: mono) { _, _, _, _, _ in }
        expectCode(.invalidDevice) {
            try queue.setChannelAssignments([.init(deviceUID: "null:null", channelNumber: 1), .init(deviceUID: "null:null", channelNumber: 2)])
        }
        // Clearing none leaves the device the program supplied.
        try queue.setChannelAssignments([])
        #expect(queue.currentDevice == "null:null")
        try queue.dispose(immediate: true)
    }

    /// Only while stopped; the untyped path takes the C layout's bytes and refuses reading.
    @Test func runningQueueAndUntypedPath() throws {
        let queue = try offlineFloatQueue()
        try queue.enqueue(try floatBuffer(queue, ramp(frames: 100, channels: 2)))
        try queue.start()
        let list = [AudioQueueChannelAssignment(deviceUID: "null:null", channelNumber: 2), .init(deviceUID: "null:null", channelNumber: 1)]
        expectCode(.invalidRunState) { try queue.setChannelAssignments(list) }
        try queue.stop(immediate: true)
        let bytes = AudioQueueChannelAssignment.untypedBytes(list)
        try bytes.withUnsafeBytes { try queue.setProperty(AudioQueuePropertyID.channelAssignments.rawValue, from: $0) }
        #expect(queue.channelAssignments == list)
        expectCode(.invalidProperty) { _ = try queue.propertySize(AudioQueuePropertyID.channelAssignments.rawValue) }
        expectCode(.invalidPropertySize) {
            try Array(bytes.dropLast()).withUnsafeBytes { try queue.setProperty(AudioQueuePropertyID.channelAssignments.rawValue, from: $0) }
        }
        try queue.setProperty(AudioQueuePropertyID.channelAssignments.rawValue, from: UnsafeRawBufferPointer(start: nil, count: 0))
        #expect(queue.channelAssignments == nil)
    }

    /// The WAVE file device is opened with the highest assigned channel: a stereo queue on
    /// channels 3 and 4 writes a four-channel file, 1 and 2 silent (read back by sox).
    @Test func wavFileDeviceWritesTheDeviceChannels() throws {
        AudioQueueKit.registerAll()
        let path = NSTemporaryDirectory() + "aq-assign-\(getpid()).wav"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let format = AudioStreamBasicDescription.linearPCM(sampleRate: 48000, channels: 2, bitsPerChannel: 32, isFloat: true)
        let done = DispatchSemaphore(value: 0)
        let queue = try AudioQueue(format: format) { _, _ in }
        try queue.addPropertyListener(.isRunning) { q, _ in if !q.isRunning { done.signal() } }
        try queue.setChannelAssignments([.init(deviceUID: "file:\(path)", channelNumber: 3), .init(deviceUID: "file:\(path)", channelNumber: 4)])
        let left = Self.tone(440, frames: 9600), right = Self.tone(660, frames: 9600)
        try queue.enqueue(try floatBuffer(queue, Self.interleave([left, right])))
        try queue.start()
        try queue.stop(immediate: false)
        #expect(done.wait(timeout: .now() + 20) == .success, "playback did not end")
        // The device's own channels (kAudioQueueDeviceProperty_NumberChannels).
        #expect(queue.deviceNumberOfChannels == 4)
        try queue.dispose(immediate: true)
        let channels = try runProcess("/usr/bin/soxi", ["-c", path])
        #expect(channels.out.trimmingCharacters(in: .whitespacesAndNewlines) == "4", "soxi: \(channels.out) \(channels.err)")
        let raw = path + ".f32"
        defer { try? FileManager.default.removeItem(atPath: raw) }
        let sox = try runProcess("/usr/bin/sox", [path, "-t", "raw", "-e", "floating-point", "-b", "32", "-L", raw])
        try #require(sox.status == 0, "sox: \(sox.err)")
        let data = try Data(contentsOf: URL(fileURLWithPath: raw))
        let samples = data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        try #require(samples.count >= 9600 * 4, "\(samples.count / 4) frames in the file")
        #expect(Self.channel(samples, 0, of: 4).allSatisfy { $0 == 0 }, "channel 1 is not silent")
        #expect(Self.channel(samples, 1, of: 4).allSatisfy { $0 == 0 }, "channel 2 is not silent")
        #expect(Self.firstDifference(Self.channel(samples, 2, of: 4), left, tolerance: 1e-6) == nil)
        #expect(Self.firstDifference(Self.channel(samples, 3, of: 4), right, tolerance: 1e-6) == nil)
    }

    /// An input queue records the assigned device channels: channels 4 and 2 of a
    /// four-channel WAVE file (made by sox) through the file backend's input device.
    @Test func inputQueueRecordsTheAssignedChannels() throws {
        AudioQueueKit.registerAll()
        let path = NSTemporaryDirectory() + "aq-assign-in-\(getpid()).wav"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let sox = try runProcess("/usr/bin/sox", [
            "-n", "-r", "48000", "-c", "4", "-e", "floating-point", "-b", "32", path,
            "synth", "0.5", "sine", "300", "sine", "500", "sine", "700", "sine", "900", "vol", "0.5",
        ])
        try #require(sox.status == 0, "sox: \(sox.err)")
        let format = AudioStreamBasicDescription.linearPCM(sampleRate: 48000, channels: 2, bitsPerChannel: 32, isFloat: true)
        let recorded = RecordedSamples()
        let queue = try AudioInputQueue(format: format) { q, buffer, _, _, _ in
            recorded.append(buffer)
            try? q.enqueue(buffer)
        }
        try queue.setChannelAssignments([.init(deviceUID: "file:\(path)", channelNumber: 4), .init(deviceUID: "file:\(path)", channelNumber: 2)])
        for _ in 0..<3 { try queue.enqueue(try queue.allocateBuffer(byteCapacity: 4800 * 8)) }
        try queue.start()
        #expect(eventually(within: 10) { recorded.count >= 2 * 12000 })
        try queue.stop(immediate: true)
        try queue.dispose(immediate: true)
        let samples = recorded.samples
        // By zero crossings over the first 12000 frames (0.25 s): 900 Hz and 500 Hz.
        let first = Array(Self.channel(samples, 0, of: 2).prefix(12000)), second = Array(Self.channel(samples, 1, of: 2).prefix(12000))
        #expect(abs(Self.frequency(first) - 900) < 10, "channel 1: \(Self.frequency(first)) Hz")
        #expect(abs(Self.frequency(second) - 500) < 10, "channel 2: \(Self.frequency(second)) Hz")
    }

    /// Where `got` first differs from `expected` (over `expected`'s length), with both values.
    /// Differences up to `tolerance` pass (sox reads float WAVE through 32-bit integers).
    static func firstDifference(_ got: [Float], _ expected: [Float], tolerance: Float = 0) -> String? {
        guard got.count >= expected.count else { return "\(got.count) samples, not \(expected.count)" }
        guard let i = expected.indices.first(where: { abs(got[$0] - expected[$0]) > tolerance }) else { return nil }
        return "at \(i): \(got[i]), not \(expected[i])"
    }

    /// The frequency of a 48 kHz sine from its rising zero crossings.
    static func frequency(_ x: [Float]) -> Double {
        var crossings: [Int] = []
        for i in 1..<x.count where x[i - 1] < 0 && x[i] >= 0 { crossings.append(i) }
        guard crossings.count >= 2 else { return 0 }
        return Double(crossings.count - 1) / (Double(crossings.last! - crossings.first!) / 48000)
    }
}

/// What an input queue's buffers held, in order.
final class RecordedSamples: @unchecked Sendable {
    private let lock = NSLock()
    private var store: [Float] = []
    func append(_ buffer: AudioQueueBuffer) {
        let n = buffer.audioDataByteSize / 4
        let p = UnsafeBufferPointer(start: buffer.audioData.assumingMemoryBound(to: Float.self), count: n)
        lock.withLock { store += p }
    }
    var count: Int { lock.withLock { store.count } }
    var samples: [Float] { lock.withLock { store } }
}
