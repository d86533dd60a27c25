// Decodes every packet of the 10-minute ADTS file twice over, side by side: with faad2's own
// calls alone, and through AACDecoder (the AudioDecoder adapter afconvert and the queue use), so
// the adapter's cost is the ratio of the two. Packets are read into memory first; the file is
// `AQ_BENCH_ADTS` (default `Benchmarks/.data/long.aac`).
import AudioCodecFAAD
import AudioCodecs
import AudioCore
import AudioFileServices
import Benchmark
import BenchmarkData
import CFAAD2Bench

#if canImport(Glibc)
import Glibc
#endif

/// Every packet of the file, and its AudioSpecificConfig.
struct Stream {
    let format: AudioStreamBasicDescription
    let cookie: [UInt8]
    let packets: [[UInt8]]

    init(path: String) throws {
        let file = try AudioFile(path: path)
        format = file.dataFormat
        cookie = file.magicCookie ?? []
        let read = try file.readPackets(from: 0, count: Int(file.packetCount))
        packets = (read.descriptions ?? []).map { d in
            Array(read.data[Int(d.startOffset)..<(Int(d.startOffset) + Int(d.dataByteSize))])
        }
    }
}

let benchmarks: @Sendable () -> Void = {
    let path = benchmarkPath(environment: "AQ_BENCH_ADTS", default: "long.aac")
    guard let stream = try? Stream(path: path) else {
        print("AACDecode: cannot read \(path)")
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

    Benchmark("faad2 calls alone", configuration: configuration) { benchmark in
        let handle = NeAACDecOpen()
        defer { NeAACDecClose(handle) }
        if let config = NeAACDecGetCurrentConfiguration(handle) {
            config.pointee.outputFormat = UInt8(FAAD_FMT_FLOAT)
            config.pointee.dontUpSampleImplicitSBR = 1
            _ = NeAACDecSetConfiguration(handle, config)
        }
        var cookie = stream.cookie
        var rate: UInt = 0
        var channels: UInt8 = 0
        _ = NeAACDecInit2(handle, &cookie, UInt(cookie.count), &rate, &channels)
        var info = NeAACDecFrameInfo()
        var samples = 0
        for packet in stream.packets {
            // faad2 takes a non-const pointer but only reads the packet.
            let out = packet.withUnsafeBytes { bytes in
                NeAACDecDecode(handle, &info, UnsafeMutablePointer(mutating: bytes.bindMemory(to: UInt8.self).baseAddress), UInt(bytes.count))
            }
            if out != nil { samples += Int(info.samples) }
        }
        blackHole(samples)
    }

    Benchmark("AACDecoder (AudioDecoder adapter)", configuration: configuration) { benchmark in
        let decoder = try AACDecoder(input: stream.format, magicCookie: stream.cookie)
        guard let buffer = PCMBuffer(format: decoder.outputFormat, frameCapacity: decoder.maximumFramesPerPacket) else { return }
        var frames = 0
        for packet in stream.packets {
            buffer.frameLength = 0
            frames += try packet.withUnsafeBytes { try decoder.decode(packet: $0, frames: nil, into: buffer) }
        }
        blackHole(frames)
    }
}
