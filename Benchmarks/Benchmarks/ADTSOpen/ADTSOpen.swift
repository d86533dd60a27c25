// Opens the 10-minute ADTS file with `AudioFile(path:)` and reads `packetCount`, which scans every
// ADTS frame header to build the packet table: the work `afinfo` does on such a file, without
// process start-up. The file is `AQ_BENCH_ADTS` (default `Benchmarks/.data/long.aac`).
import AudioFileServices
import Benchmark
import BenchmarkData

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

let benchmarks: @Sendable () -> Void = {
    let path = benchmarkPath(environment: "AQ_BENCH_ADTS", default: "long.aac")
    Benchmark(
        "AudioFile(path:) + packetCount",
        configuration: .init(
            metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .readSyscalls, .peakMemoryResident],
            timeUnits: .microseconds,
            units: [.mallocCountTotal: .count, .readSyscalls: .count],
            warmupIterations: 3,
            maxDuration: .seconds(4),
            maxIterations: 100
        )
    ) { benchmark in
        let file = try AudioFile(path: path)
        blackHole(file.packetCount)
    }
}
