import Foundation
import Testing
@_exported import AudioTestSupport
import Dispatch
import Locking
import AudioCore
import AudioCodecs
import AudioCodecFAAD
import AudioDevices
import AudioFileServices
import AudioQueueServices
import ExtendedAudioFileServices

/// Records what a queue hands back, in order, and on which thread.
final class CallbackLog: @unchecked Sendable {
    private let lock = Guarded<[ObjectIdentifier]>([])
    func record(_ buffer: AudioQueueBuffer) { lock.withLock { $0.append(ObjectIdentifier(buffer)) } }
    var order: [ObjectIdentifier] { lock.withLock { $0 } }
    var count: Int { lock.withLock { $0.count } }
}

/// A queue of interleaved Float32 PCM in offline mode (Float32 out), whose callback only logs.
func offlineFloatQueue(channels: Int = 2, rate: Double = 48000, log: CallbackLog = CallbackLog()) throws -> AudioQueue {
    let format = AudioStreamBasicDescription.linearPCM(sampleRate: rate, channels: UInt32(channels), bitsPerChannel: 32, isFloat: true)
    let queue = try AudioQueue(format: format) { _, buffer in log.record(buffer) }
    try queue.setOfflineRenderFormat(format)
    return queue
}

/// A buffer holding `samples` (interleaved Float32).
func floatBuffer(_ queue: AudioQueue, _ samples: [Float]) throws -> AudioQueueBuffer {
    let buffer = try queue.allocateBuffer(byteCapacity: max(samples.count * 4, 4))
    samples.withUnsafeBytes { buffer.audioData.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
    buffer.audioDataByteSize = samples.count * 4
    return buffer
}

/// A recognisable signal: every sample distinct and never zero.
func ramp(frames: Int, channels: Int, from start: Int = 0) -> [Float] {
    (0..<(frames * channels)).map { Float(start * channels + $0 + 1) / 1_000_000 }
}

/// Renders an offline queue `chunk` frames at a time until a render comes back short (the end
/// of the stream) or `limit` frames; returns the interleaved Float32 samples.
func renderAll(_ queue: AudioQueue, chunk: Int = 1000, limit: Int = 50_000_000) throws -> [Float] {
    let format = queue.renderFormat
    let bpf = Int(format.bytesPerFrame)
    let capture = try queue.allocateBuffer(byteCapacity: chunk * bpf)
    var out: [Float] = []
    var time = 0.0
    while out.count / Int(format.channelsPerFrame) < limit {
        try queue.offlineRender(at: .sampleTime(time), into: capture, frameCount: chunk)
        let frames = capture.audioDataByteSize / bpf
        out += UnsafeBufferPointer(start: capture.audioData.assumingMemoryBound(to: Float.self), count: frames * Int(format.channelsPerFrame))
        time += Double(frames)
        if frames < chunk { break }
    }
    try queue.freeBuffer(capture)
    return out
}

/// Renders exactly `frames` frames (expecting a full render).
func render(_ queue: AudioQueue, frames: Int) throws -> [Float] {
    let format = queue.renderFormat
    let bpf = Int(format.bytesPerFrame)
    let capture = try queue.allocateBuffer(byteCapacity: max(frames * bpf, 1))
    defer { try? queue.freeBuffer(capture) }
    try queue.offlineRender(at: .sampleTime(0), into: capture, frameCount: frames)
    let got = capture.audioDataByteSize / bpf
    return Array(UnsafeBufferPointer(start: capture.audioData.assumingMemoryBound(to: Float.self), count: got * Int(format.channelsPerFrame)))
}

enum AACRegistration {
    static func once() { AACDecoder.register() }
}

/// Mono Float32 at 48 kHz: a queue format whose rendered samples are the values enqueued.
let float32Mono = AudioStreamBasicDescription.linearPCM(sampleRate: 48000, channels: 1, bitsPerChannel: 32, isFloat: true)

/// ``eventually(within:_:)`` for async tests: waits by suspending, not by blocking a thread of
/// the cooperative pool (the tasks it waits for need those threads).
func settles(within seconds: Double = 20, _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    while !condition() {
        if ContinuousClock.now > deadline { return condition() }
        try? await Task.sleep(for: .milliseconds(2))
    }
    return true
}
