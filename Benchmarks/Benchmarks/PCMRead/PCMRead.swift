// Reads every packet of a large PCM WAVE file with the allocation-free
// `AudioFile.readPackets(from:count:into:descriptions:)`, 32768 packets per call into one reused
// buffer, against a plain `pread` loop over the same byte range in the same chunk size.
// The file is `AQ_BENCH_PCM` (default `Benchmarks/.data/long.wav`, made by `Benchmarks/run`);
// run the benchmark twice in a row and the second run reads from the page cache.
import AudioFileServices
import Benchmark
import BenchmarkData

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Packets per `readPackets` call, and so the chunk size of the `pread` baseline.
let packetsPerRead = 32768

/// Audio bytes per second of wall clock, in MB/s (10^6): the throughput both benchmarks report.
let dataRate = BenchmarkMetric.custom("data MB/s", polarity: .prefersLarger, useScalingFactor: false)

/// What the benchmarks share: the open file and one buffer, made once before the iterations.
final class PCMFixture: @unchecked Sendable {
    let path: String
    let file: AudioFile
    let buffer: UnsafeMutableRawBufferPointer
    let descriptor: Int32

    init() throws {
        path = benchmarkPath(environment: "AQ_BENCH_PCM", default: "long.wav")
        file = try AudioFile(path: path)
        let bytesPerPacket = Int(file.dataFormat.bytesPerPacket)
        precondition(bytesPerPacket > 0 && !file.needsDescriptions, "\(path) is not constant-size PCM")
        buffer = .allocate(byteCount: packetsPerRead * bytesPerPacket, alignment: 64)
        descriptor = open(path, O_RDONLY | O_CLOEXEC)
        precondition(descriptor >= 0, "cannot open \(path)")
    }

    deinit {
        buffer.deallocate()
        _ = close(descriptor)
    }

    /// Every packet through `AudioFile`; returns the bytes read.
    func readAllPackets() throws -> Int {
        var start: Int64 = 0
        var total = 0
        let packets = file.packetCount
        while start < packets {
            let (bytes, count) = try file.readPackets(from: start, count: packetsPerRead, into: buffer, descriptions: nil)
            precondition(count > 0)
            start += Int64(count)
            total += bytes
        }
        return total
    }

    /// The same byte range with `pread`, one chunk per `readPackets` call's worth of bytes.
    func preadAll() -> Int {
        var offset = file.dataOffset
        let end = file.dataOffset + file.dataByteCount
        var total = 0
        while offset < end {
            let want = Int(min(Int64(buffer.count), end - offset))
            let got = pread(descriptor, buffer.baseAddress!, want, off_t(offset))
            precondition(got == want, "short pread at \(offset)")
            offset += Int64(got)
            total += got
        }
        return total
    }
}

nonisolated(unsafe) var fixture: PCMFixture?

/// Times `body` and records its bytes per second under ``dataRate``.
func measureRate(_ benchmark: Benchmark, _ body: () throws -> Int) rethrows {
    let clock = ContinuousClock()
    var bytes = 0
    let elapsed = try clock.measure { bytes = try body() }
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    blackHole(bytes)
    benchmark.measurement(dataRate, Int((Double(bytes) / seconds / 1e6).rounded()))
}

let benchmarks: @Sendable () -> Void = {
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .readSyscalls, dataRate],
        timeUnits: .microseconds,
        units: [dataRate: .count, .readSyscalls: .count],
        warmupIterations: 2,
        maxDuration: .seconds(4),
        maxIterations: 40
    )
    let setup: Benchmark.BenchmarkSetupHook = { if fixture == nil { fixture = try PCMFixture() } }

    Benchmark("AudioFile.readPackets 32768", configuration: configuration, closure: { benchmark in
        try measureRate(benchmark) { try fixture!.readAllPackets() }
    }, setup: setup)

    Benchmark("pread baseline", configuration: configuration, closure: { benchmark in
        measureRate(benchmark) { fixture!.preadAll() }
    }, setup: setup)
}
