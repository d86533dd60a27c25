// swift-tools-version: 6.1
// The libFuzzer harness over format detection and parsing. Build and run it with Scripts/fuzz;
// it is its own package because it is compiled with -sanitize=fuzzer and has no main.
import PackageDescription

let package = Package(
    name: "AudioFileFuzz",
    dependencies: [.package(name: "swift-audio-queue", path: "..")],
    targets: [
        .executableTarget(
            name: "AudioFileFuzzer",
            dependencies: [
                .product(name: "AudioFileServices", package: "swift-audio-queue"),
                .product(name: "ExtendedAudioFileServices", package: "swift-audio-queue"),
                .product(name: "AudioCodecFAAD", package: "swift-audio-queue"),
                .product(name: "AudioCodecFLAC", package: "swift-audio-queue"),
                .product(name: "AudioCodecOpus", package: "swift-audio-queue"),
                .product(name: "AudioCodecVorbis", package: "swift-audio-queue"),
                .product(name: "AudioCodecAVCodec", package: "swift-audio-queue"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
