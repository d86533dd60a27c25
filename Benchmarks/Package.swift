// swift-tools-version: 6.1
// Performance benchmarks for swift-audio-queue. A package of its own so that the benchmark
// harness and its dependencies stay out of the main package. Run everything with `Benchmarks/run`.
import PackageDescription

let package = Package(
    name: "swift-audio-queue-benchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "swift-audio-queue", path: ".."),
        // Only the MallocInterposer trait: the default RuntimeInterposer trait pulls in a Linux
        // 6.3 ARC interposer package these benchmarks don't need.
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // Where the benchmarks find their data files.
        .target(name: "BenchmarkData", path: "Sources/BenchmarkData"),
        .executableTarget(
            name: "PCMRead",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                "BenchmarkData",
                .product(name: "AudioFileServices", package: "swift-audio-queue"),
            ],
            path: "Benchmarks/PCMRead",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "ADTSOpen",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                "BenchmarkData",
                .product(name: "AudioFileServices", package: "swift-audio-queue"),
            ],
            path: "Benchmarks/ADTSOpen",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // faad2 for the raw-decoder baseline of AACDecode (the main package keeps its CFAAD2
        // module internal to AudioCodecFAAD).
        .systemLibrary(name: "CFAAD2Bench", path: "Sources/CFAAD2Bench", pkgConfig: "faad2", providers: [.apt(["libfaad-dev"])]),
        .executableTarget(
            name: "AACDecode",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                "BenchmarkData",
                .product(name: "AudioFileServices", package: "swift-audio-queue"),
                .product(name: "AudioCodecFAAD", package: "swift-audio-queue"),
                "CFAAD2Bench",
            ],
            path: "Benchmarks/AACDecode",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // The offline render of C/crender.c through the Swift API (Benchmarks/capi).
        // Many output queues playing short sounds at once (Benchmarks/manyqueues).
        .executableTarget(
            name: "manyqueues",
            dependencies: [.product(name: "AudioQueueKit", package: "swift-audio-queue")],
            path: "Sources/manyqueues"
        ),
        .executableTarget(
            name: "swiftrender",
            dependencies: [.product(name: "AudioQueueKit", package: "swift-audio-queue")],
            path: "Sources/swiftrender"
        ),
        .executableTarget(
            name: "QueueRender",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                "BenchmarkData",
                .product(name: "AudioFileServices", package: "swift-audio-queue"),
                .product(name: "AudioCodecFAAD", package: "swift-audio-queue"),
                .product(name: "ExtendedAudioFileServices", package: "swift-audio-queue"),
                .product(name: "AudioQueueServices", package: "swift-audio-queue"),
            ],
            path: "Benchmarks/QueueRender",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "IMA4Encode",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                "BenchmarkData",
                .product(name: "AudioFileServices", package: "swift-audio-queue"),
                .product(name: "AudioCodecs", package: "swift-audio-queue"),
            ],
            path: "Benchmarks/IMA4Encode",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // Whole-process reader: every packet of a file through AudioFile, nothing written; for
        // timing against `sox in.wav -t raw /dev/null` with hyperfine.
        .executableTarget(
            name: "pcmcat",
            dependencies: [.product(name: "AudioFileServices", package: "swift-audio-queue")],
            path: "Sources/pcmcat"
        ),
        // AudioFileStream's parsing throughput, in process (Benchmarks/stream).
        .executableTarget(
            name: "streamparse",
            dependencies: [.product(name: "AudioFileServices", package: "swift-audio-queue")],
            path: "Sources/streamparse"
        ),
        // Whole-process IMA4 encoder: a PCM file through AudioFile, PCMConverter (to Float32) and
        // IMA4Encoder; for timing against `ffmpeg -c:a adpcm_ima_qt -f null -` with hyperfine.
        .executableTarget(
            name: "imaenc",
            dependencies: [
                .product(name: "AudioFileServices", package: "swift-audio-queue"),
                .product(name: "AudioCodecs", package: "swift-audio-queue"),
            ],
            path: "Sources/imaenc"
        ),
        // Whole-process resampler: a 16-bit WAVE file through SampleRateConverter (libsoxr) to a
        // 16-bit WAVE file at another rate; timed against `sox in.wav -r 48000 out.wav` by
        // Benchmarks/src.
        // Runs a time/pitch processor over a WAVE file (Benchmarks/timepitch).
        .executableTarget(
            name: "tpbench",
            dependencies: [.product(name: "AudioTimePitch", package: "swift-audio-queue")],
            path: "Sources/tpbench"
        ),
        .executableTarget(
            name: "srcbench",
            dependencies: [.product(name: "AudioConverterServices", package: "swift-audio-queue")],
            path: "Sources/srcbench"
        ),
        // From an output queue's start() to the first frames handed to the default output
        // (PulseAudio when a server answers); run by `Benchmarks/playback`.
        .executableTarget(
            name: "playstart",
            dependencies: [.product(name: "AudioQueueKit", package: "swift-audio-queue")],
            path: "Sources/playstart"
        ),
        // From an output queue's start() to its first frame on the sink's monitor; run by
        // `Benchmarks/pipewire/run`.
        .executableTarget(
            name: "sinklatency",
            dependencies: [.product(name: "AudioQueueKit", package: "swift-audio-queue")],
            path: "Sources/sinklatency"
        ),
        // A tone through the default output unit's render callback, its twin through an output
        // queue, and the time from either callback to the sink; run by `Benchmarks/units/run`.
        .executableTarget(
            name: "unittone",
            dependencies: [.product(name: "AudioQueueKit", package: "swift-audio-queue")],
            path: "Sources/unittone"
        ),
        .executableTarget(
            name: "queuetone",
            dependencies: [.product(name: "AudioQueueKit", package: "swift-audio-queue")],
            path: "Sources/queuetone"
        ),
        .executableTarget(
            name: "tonelatency",
            dependencies: [.product(name: "AudioQueueKit", package: "swift-audio-queue")],
            path: "Sources/tonelatency"
        ),
        // From an input queue's start() to the first frames it receives and to its first
        // callback, from the default input; run by `Benchmarks/record`.
        .executableTarget(
            name: "recordstart",
            dependencies: [.product(name: "AudioQueueKit", package: "swift-audio-queue")],
            path: "Sources/recordstart"
        ),
    ],
    swiftLanguageModes: [.v6]
)
