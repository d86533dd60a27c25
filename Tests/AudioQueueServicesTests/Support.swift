import Foundation
import Testing
import Dispatch
import Synchronization
import AudioCore
import AudioCodecs
import AudioCodecFAAD
import AudioDevices
import AudioFileServices
import AudioQueueServices
import ExtendedAudioFileServices

/// Fixtures made by Scripts/make-fixtures (ffmpeg, sox).
enum Fixtures {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")
    static let valid = root.appendingPathComponent("valid")

    static func path(_ name: String) -> String { valid.appendingPathComponent(name).path }

    static var names: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: valid.path)) ?? []).filter {
            !$0.hasSuffix(".json") && !$0.hasSuffix(".framecrc") && !$0.hasSuffix(".f32crc")
        }.sorted()
    }

    /// Formats no decoder is offered for (WAVE ADPCM, GSM, MPEG).
    static func isUndecodable(_ name: String) -> Bool {
        name.contains("adpcm_ms") || name.contains("adpcm_ima_wav") || name.contains("gsm") || name.contains("mp3")
    }

    static var decodable: [String] { names.filter { !isUndecodable($0) } }

    /// ffmpeg's Adler-32 of its float decode (`-f crc`), where the fixture has one.
    static func ffmpegCRC(_ name: String) -> UInt32? {
        guard let text = try? String(contentsOfFile: path(name) + ".f32crc", encoding: .utf8),
              let range = text.range(of: "CRC=0x") else { return nil }
        return UInt32(text[range.upperBound...].prefix { $0.isHexDigit }, radix: 16)
    }
}

/// Adler-32 (RFC 1950), as ffmpeg's crc muxer computes it.
func adler32(_ samples: [Float]) -> UInt32 {
    var a: UInt32 = 1, b: UInt32 = 0
    samples.withUnsafeBytes { bytes in
        var index = 0
        while index < bytes.count {
            let end = min(index + 5552, bytes.count)
            for i in index..<end {
                a += UInt32(bytes[i])
                b += a
            }
            a %= 65521
            b %= 65521
            index = end
        }
    }
    return b << 16 | a
}

/// ExtAudioFile's decode of a whole file to interleaved Float32: what afconvert writes.
func referenceDecode(_ path: String) throws -> (samples: [Float], channels: Int) {
    AACDecoder.register()
    let reader = try ExtAudioFile(path: path)
    let client = AudioStreamBasicDescription.linearPCM(
        sampleRate: reader.decodedFormat.sampleRate, channels: reader.decodedFormat.channelsPerFrame, bitsPerChannel: 32, isFloat: true)
    try reader.setClientDataFormat(client)
    let buffer = try #require(PCMBuffer(format: client, frameCapacity: 4096))
    var out: [Float] = []
    while true {
        buffer.frameLength = 0
        let n = try reader.read(into: buffer, frameCount: 4096)
        if n == 0 { break }
        out += UnsafeBufferPointer(start: buffer.region().baseAddress!.assumingMemoryBound(to: Float.self), count: n * Int(client.channelsPerFrame))
    }
    return (out, Int(client.channelsPerFrame))
}

/// Records what a queue hands back, in order, and on which thread.
final class CallbackLog: @unchecked Sendable {
    private let lock = Mutex<[ObjectIdentifier]>([])
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
    buffer.audioDataByteSize = UInt32(samples.count * 4)
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
        let frames = Int(capture.audioDataByteSize) / bpf
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
    let got = Int(capture.audioDataByteSize) / bpf
    return Array(UnsafeBufferPointer(start: capture.audioData.assumingMemoryBound(to: Float.self), count: got * Int(format.channelsPerFrame)))
}

/// Plays a file through a queue the way the guide's Listing 3-6 and QA1636 do: half-second
/// buffers refilled in the callback, priming trimmed from the first frames and remainder from
/// the last (priming longer than a buffer carries into the next), looping `loops` times,
/// stopping asynchronously at the end.
final class FilePlayer: @unchecked Sendable {
    // Touched only by the queue's callbacks, which run one at a time.
    let file: AudioFile
    let packetsPerBuffer: Int
    private var packet: Int64 = 0
    private var loopsLeft: Int
    private var primingLeft: Int
    private(set) var done = false
    private let priming: Int
    private let remainder: Int
    var queue: AudioQueue!
    var buffers: [AudioQueueBuffer] = []

    /// Callbacks that ran somewhere other than the callback queue given to the initializer.
    private(set) var callbacksOffQueue = 0
    private let onQueue: (() -> Bool)?

    init(path: String, loops: Int = 1, seconds: Double = 0.5, device: (any AudioOutputDevice)? = nil,
         callbackQueue: DispatchQueue? = nil, onQueue: (() -> Bool)? = nil) throws {
        self.onQueue = onQueue
        AACDecoder.register()
        file = try AudioFile(path: path)
        let f = file.dataFormat
        let maxPacket = max(file.packetSizeUpperBound, 1)
        // Listing 3-7.
        var size: Int
        if f.framesPerPacket != 0 {
            size = Int(f.sampleRate / Double(f.framesPerPacket) * seconds) * maxPacket
        } else {
            size = max(0x50000, maxPacket)
        }
        if size > 0x50000 && size > maxPacket { size = 0x50000 } else if size < 0x4000 { size = 0x4000 }
        packetsPerBuffer = max(size / maxPacket, 1)
        loopsLeft = loops
        priming = Int(file.packetTableInfo?.primingFrames ?? 0)
        remainder = Int(file.packetTableInfo?.remainderFrames ?? 0)
        primingLeft = priming
        let descriptions = file.needsDescriptions ? packetsPerBuffer : 0
        queue = try AudioQueue(format: f, callbackQueue: callbackQueue, device: device) { [weak self] queue, buffer in
            guard let self else { return }
            if let onQueue = self.onQueue, !onQueue() { self.callbacksOffQueue += 1 }
            self.fill(buffer)
        }
        if let cookie = file.magicCookie { try queue.setMagicCookie(cookie) }
        for _ in 0..<3 {
            buffers.append(try queue.allocateBuffer(byteCapacity: packetsPerBuffer * maxPacket, packetDescriptionCapacity: descriptions))
        }
    }

    deinit { try? queue.dispose(immediate: true) }

    func frames(in buffer: AudioQueueBuffer, packets: Int) -> Int {
        let f = file.dataFormat
        if buffer.packetDescriptionCount > 0, let d = buffer.packetDescriptions {
            return (0..<Int(buffer.packetDescriptionCount)).reduce(0) {
                $0 + (d[$1].variableFramesInPacket > 0 ? Int(d[$1].variableFramesInPacket) : Int(f.framesPerPacket))
            }
        }
        return packets * Int(max(f.framesPerPacket, 1))
    }

    func fill(_ buffer: AudioQueueBuffer) {
        if done { return }
        do {
            var result = try file.readPackets(from: packet, count: packetsPerBuffer, into: buffer.data,
                                              descriptions: buffer.packetDescriptions == nil ? nil : buffer.packetDescriptionBuffer)
            if result.packetCount == 0 {
                loopsLeft -= 1
                if loopsLeft > 0 {
                    packet = 0
                    primingLeft = priming
                    result = try file.readPackets(from: packet, count: packetsPerBuffer, into: buffer.data,
                                                  descriptions: buffer.packetDescriptions == nil ? nil : buffer.packetDescriptionBuffer)
                }
            }
            guard result.packetCount > 0 else {
                done = true
                try queue.stop(immediate: false)
                return
            }
            buffer.audioDataByteSize = UInt32(result.byteCount)
            buffer.packetDescriptionCount = buffer.packetDescriptions == nil ? 0 : UInt32(result.packetCount)
            let frames = frames(in: buffer, packets: result.packetCount)
            let trimStart = min(primingLeft, frames)
            primingLeft -= trimStart
            packet += Int64(result.packetCount)
            let trimEnd = packet == file.packetCount ? remainder : 0
            try queue.enqueue(buffer, trimFramesAtStart: trimStart, trimFramesAtEnd: trimEnd)
        } catch {
            Issue.record("fill failed: \(error)")
            done = true
        }
    }

    /// Offline: primes through the callback, starts, renders to the end.
    func renderOffline(chunk: Int = 4096) throws -> [Float] {
        try queue.setOfflineRenderFormat(queue.renderFormat)
        for b in buffers { fill(b) }
        try queue.start()
        return try renderAll(queue, chunk: chunk)
    }
}

enum AACRegistration {
    static func once() { AACDecoder.register() }
}
