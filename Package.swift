// swift-tools-version: 6.1
import PackageDescription

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "swift-audio-queue",
    products: [
        .library(name: "AudioCore", targets: ["AudioCore"]),
        .library(name: "AudioFileServices", targets: ["AudioFileServices"]),
        .executable(name: "afinfo", targets: ["afinfo"]),
    ],
    dependencies: [
        // `swift package generate-documentation` (DocC); no code depends on it.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        .target(name: "AudioCore", swiftSettings: strict),
        .target(name: "AudioFileServices", dependencies: ["AudioCore"], swiftSettings: strict),
        .executableTarget(
            name: "afinfo",
            dependencies: ["AudioFileServices"],
            path: "Examples/afinfo",
            swiftSettings: strict
        ),
        .testTarget(name: "AudioCoreTests", dependencies: ["AudioCore"], swiftSettings: strict),
        .testTarget(
            name: "AudioFileServicesTests",
            dependencies: ["AudioFileServices"],
            swiftSettings: strict
        ),
    ],
    swiftLanguageModes: [.v6]
)
