// The encoders a recording queue runs, in process: the 10-minute 44.1 kHz stereo 16-bit AIFF
// file (`AQ_BENCH_AIFF`, default `Benchmarks/.data/long.aiff`) converted to Float32 once, as a
// sound device delivers it, then encoded 4096 frames per call into one reused buffer to Apple
// IMA4, G.711 µ-law and 16-bit big-endian linear PCM.
import AudioCodecs
import AudioCore
import AudioFileServices
import Benchmark
import BenchmarkData

/// The whole file as interleaved Float32, and its description.
final class FloatSignal: @unchecked Sendable {
    let format: AudioStreamBasicDescription
    let frames: Int
    let samples: UnsafeMutableRawBufferPointer

    init(path: String) throws {
        let file = try AudioFile(path: path)
        let source = file.dataFormat
        let output = AudioStreamBasicDescription.linearPCM(
            sampleRate: source.sampleRate, channels: source.channelsPerFrame, bitsPerChannel: 32, isFloat: true)
        let converter = try PCMConverter(from: source, to: output)
        frames = Int(file.packetCount)
        format = output
        samples = .allocate(byteCount: frames * Int(output.bytesPerFrame), alignment: 64)
        let chunk = 65536
        let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk * Int(source.bytesPerFrame), alignment: 64)
        defer { bytes.deallocate() }
        var start = 0
        while start < frames {
            let (_, count) = try file.readPackets(from: Int64(start), count: chunk, into: bytes, descriptions: nil)
            precondition(count > 0)
            let out = UnsafeMutableRawBufferPointer(
                rebasing: samples[(start * Int(output.bytesPerFrame))..<((start + count) * Int(output.bytesPerFrame))])
            try converter.convert(UnsafeRawBufferPointer(bytes), frameCount: count, into: out)
            start += count
        }
    }

    deinit { samples.deallocate() }

    /// Encodes every frame with `encoder`, `framesPerCall` a call, into `out`; returns the bytes.
    func encodeAll(_ encoder: any AudioEncoder, framesPerCall: Int, into out: UnsafeMutableRawBufferPointer) throws -> Int {
        let frameBytes = Int(format.bytesPerFrame)
        var start = 0
        var total = 0
        while start < frames {
            let count = min(framesPerCall, frames - start)
            let input = UnsafeRawBufferPointer(rebasing: samples[(start * frameBytes)..<((start + count) * frameBytes)])
            total += try encoder.encode(input, frameCount: count, into: out, packetDescriptions: nil).byteCount
            start += count
        }
        return total
    }
}

let benchmarks: @Sendable () -> Void = {
    let path = benchmarkPath(environment: "AQ_BENCH_AIFF", default: "long.aiff")
    guard let signal = try? FloatSignal(path: path) else {
        print("IMA4Encode: cannot read \(path)")
        return
    }
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal],
        timeUnits: .milliseconds,
        units: [.mallocCountTotal: .count],
        warmupIterations: 1,
        maxDuration: .seconds(10),
        maxIterations: 7
    )
    let framesPerCall = 4096
    let rate = signal.format.sampleRate
    let channels = signal.format.channelsPerFrame
    let outputs: [(String, AudioStreamBasicDescription)] = [
        ("IMA4Encoder", AudioStreamBasicDescription(
            sampleRate: rate, formatID: .appleIMA4, bytesPerPacket: 0, framesPerPacket: 0, bytesPerFrame: 0,
            channelsPerFrame: channels, bitsPerChannel: 0)),
        ("G711Encoder µ-law", AudioStreamBasicDescription(
            sampleRate: rate, formatID: .uLaw, bytesPerPacket: 0, framesPerPacket: 0, bytesPerFrame: 0,
            channelsPerFrame: channels, bitsPerChannel: 0)),
        ("PCMEncoder 16-bit big-endian", .linearPCM(sampleRate: rate, channels: channels, bitsPerChannel: 16, isBigEndian: true)),
    ]
    for (name, output) in outputs {
        Benchmark("\(name), 10 min stereo, \(framesPerCall) frames per call", configuration: configuration) { benchmark in
            let encoder = try AudioEncoders.make(from: signal.format, to: output)
            let out = UnsafeMutableRawBufferPointer.allocate(byteCount: encoder.outputByteCount(forFrames: framesPerCall) ?? 0, alignment: 64)
            defer { out.deallocate() }
            benchmark.startMeasurement()
            blackHole(try signal.encodeAll(encoder, framesPerCall: framesPerCall, into: out))
            benchmark.stopMeasurement()
        }
    }
}
