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
            resources: [],
            swiftSettings: strict
        ),
    ],
    swiftLanguageModes: [.v6]
)
