// The queue's cost, side by side with what it is built on:
// - a whole 10-minute file (AAC `AQ_BENCH_ADTS`, default .data/long.aac; PCM `AQ_BENCH_WAV`,
//   default .data/long.wav) decoded to Float32 by ExtAudioFile — afconvert's decode — and
//   rendered through an offline AudioQueue fed by the guide's callback: the ratio is what the
//   queue machinery (buffers, callbacks, ring, parameters) adds;
// - 10,000 enqueue → render → callback cycles of 256-frame buffers: the per-buffer cost.
import AudioCodecFAAD
import AudioCodecs
import AudioCore
import AudioFileServices
import AudioQueueServices
import Benchmark
import BenchmarkData
import ExtendedAudioFileServices

/// ExtAudioFile to Float32, 4096 frames per read; returns the frames decoded.
func extAudioFileDecode(_ path: String) throws -> Int {
    let reader = try ExtAudioFile(path: path)
    let client = AudioStreamBasicDescription.linearPCM(
        sampleRate: reader.decodedFormat.sampleRate, channels: reader.decodedFormat.channelsPerFrame, bitsPerChannel: 32, isFloat: true)
    try reader.setClientDataFormat(client)
    guard let buffer = PCMBuffer(format: client, frameCapacity: 4096) else { return 0 }
    var frames = 0
    while true {
        buffer.frameLength = 0
        let n = try reader.read(into: buffer, frameCount: 4096)
        if n == 0 { break }
        frames += n
        blackHole(buffer.region().baseAddress)
    }
    return frames
}

/// Plays a file through an offline queue as the guide does (half-second buffers, three of
/// them, refilled in the callback; priming and remainder trimmed) and renders 4096 frames of
/// Float32 at a time; returns the frames rendered.
final class OfflinePlayer: @unchecked Sendable {
    // Touched by the queue's callbacks, which run one at a time, and before start.
    let file: AudioFile
    var queue: AudioQueue!
    var packet: Int64 = 0
    var primingLeft: Int
    let packetsPerBuffer: Int
    var buffers: [AudioQueueBuffer] = []

    init(path: String) throws {
        file = try AudioFile(path: path)
        let f = file.dataFormat
        let maxPacket = max(file.packetSizeUpperBound, 1)
        var size = f.framesPerPacket != 0 ? Int(f.sampleRate / Double(f.framesPerPacket) * 0.5) * maxPacket : max(0x50000, maxPacket)
        if size > 0x50000 && size > maxPacket { size = 0x50000 } else if size < 0x4000 { size = 0x4000 }
        packetsPerBuffer = max(size / maxPacket, 1)
        primingLeft = Int(file.packetTableInfo?.primingFrames ?? 0)
        queue = try AudioQueue(format: f) { [weak self] _, buffer in self?.fill(buffer) }
        if let cookie = file.magicCookie { try queue.setMagicCookie(cookie) }
        for _ in 0..<3 {
            buffers.append(try queue.allocateBuffer(byteCapacity: packetsPerBuffer * maxPacket,
                                                    packetDescriptionCapacity: file.needsDescriptions ? packetsPerBuffer : 0))
        }
    }

    func fill(_ buffer: AudioQueueBuffer) {
        guard let read = try? file.readPackets(from: packet, count: packetsPerBuffer, into: buffer.data,
                                               descriptions: buffer.packetDescriptions == nil ? nil : buffer.packetDescriptionBuffer),
              read.packetCount > 0 else {
            try? queue.stop(immediate: false)
            return
        }
        buffer.audioDataByteSize = read.byteCount
        buffer.packetDescriptionCount = buffer.packetDescriptions == nil ? 0 : read.packetCount
        let frames = read.packetCount * Int(max(file.dataFormat.framesPerPacket, 1))
        let trimStart = min(primingLeft, frames)
        primingLeft -= trimStart
        packet += Int64(read.packetCount)
        let trimEnd = packet == file.packetCount ? Int(file.packetTableInfo?.remainderFrames ?? 0) : 0
        _ = try? queue.enqueue(buffer, trimFramesAtStart: trimStart, trimFramesAtEnd: trimEnd)
    }

    func render() throws -> Int {
        let format = AudioStreamBasicDescription.linearPCM(
            sampleRate: queue.renderFormat.sampleRate, channels: queue.renderFormat.channelsPerFrame, bitsPerChannel: 32, isFloat: true)
        try queue.setOfflineRenderFormat(format)
        for b in buffers { fill(b) }
        try queue.start()
        let capture = try queue.allocateBuffer(byteCapacity: 4096 * Int(format.bytesPerFrame))
        var frames = 0
        while true {
            try queue.offlineRender(at: .sampleTime(Double(frames)), into: capture, frameCount: 4096)
            let n = capture.audioDataByteSize / Int(format.bytesPerFrame)
            frames += n
            blackHole(capture.audioData)
            if n < 4096 { break }
        }
        try queue.dispose(immediate: true)
        return frames
    }
}

let benchmarks: @Sendable () -> Void = {
    AACDecoder.register()
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal],
        timeUnits: .milliseconds,
        units: [.mallocCountTotal: .count],
        warmupIterations: 1,
        maxDuration: .seconds(20),
        maxIterations: 7
    )
    for (label, variable, file) in [("AAC", "AQ_BENCH_ADTS", "long.aac"), ("PCM", "AQ_BENCH_WAV", "long.wav")] {
        let path = benchmarkPath(environment: variable, default: file)
        Benchmark("\(label) 10 min: ExtAudioFile decode (afconvert's)", configuration: configuration) { _ in
            blackHole(try extAudioFileDecode(path))
        }
        Benchmark("\(label) 10 min: AudioQueue offline render", configuration: configuration) { _ in
            blackHole(try OfflinePlayer(path: path).render())
        }
    }

    Benchmark(
        "enqueue → render → callback, 10,000 buffers of 256 frames",
        configuration: .init(metrics: [.wallClock, .cpuTotal], timeUnits: .milliseconds, warmupIterations: 1, maxDuration: .seconds(10), maxIterations: 10)
    ) { _ in
        let cycles = 10_000
        let format = AudioStreamBasicDescription.linearPCM(sampleRate: 48000, channels: 2, bitsPerChannel: 32, isFloat: true)
        final class Count: @unchecked Sendable { var value = 0 }   // callbacks only
        let count = Count()
        let queue = try AudioQueue(format: format) { queue, buffer in
            count.value += 1
            if count.value <= cycles - 3 { try? queue.enqueue(buffer) }
        }
        try queue.setOfflineRenderFormat(format)
        for _ in 0..<3 {
            let b = try queue.allocateBuffer(byteCapacity: 256 * 8)
            b.audioDataByteSize = 256 * 8
            try queue.enqueue(b)
        }
        try queue.start()
        let capture = try queue.allocateBuffer(byteCapacity: 256 * 8)
        var rendered = 0
        while rendered < cycles * 256 {
            try queue.offlineRender(at: .sampleTime(Double(rendered)), into: capture, frameCount: 256)
            let n = capture.audioDataByteSize / 8
            if n == 0 { break }
            rendered += n
        }
        blackHole(rendered)
        try queue.dispose(immediate: true)
    }
}
