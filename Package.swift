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
        .library(name: "AudioCodecs", targets: ["AudioCodecs"]),
        .library(name: "AudioCodecFAAD", targets: ["AudioCodecFAAD"]),
        .library(name: "AudioCodecMPG123", targets: ["AudioCodecMPG123"]),
        .library(name: "AudioCodecAVCodec", targets: ["AudioCodecAVCodec"]),
        .library(name: "AudioCodecFLAC", targets: ["AudioCodecFLAC"]),
        .library(name: "AudioCodecOpus", targets: ["AudioCodecOpus"]),
        .library(name: "AudioCodecVorbis", targets: ["AudioCodecVorbis"]),
        .library(name: "AudioConverterServices", targets: ["AudioConverterServices"]),
        .library(name: "ExtendedAudioFileServices", targets: ["ExtendedAudioFileServices"]),
        .library(name: "AudioDevices", targets: ["AudioDevices"]),
        .library(name: "AudioDeviceFile", targets: ["AudioDeviceFile"]),
        .library(name: "AudioDeviceALSA", targets: ["AudioDeviceALSA"]),
        .library(name: "AudioDevicePulse", targets: ["AudioDevicePulse"]),
        .library(name: "AudioDevicePipeWire", targets: ["AudioDevicePipeWire"]),
        .library(name: "AudioTimePitch", targets: ["AudioTimePitch"]),
        .library(name: "AudioQueueServices", targets: ["AudioQueueServices"]),
        .library(name: "AudioUnitServices", targets: ["AudioUnitServices"]),
        .library(name: "AudioQueueKit", targets: ["AudioQueueKit"]),
        .library(name: "AudioCodecKit", targets: ["AudioCodecKit"]),
        // Apple's C API: libAudioToolbox.so and the headers in Sources/CAudioToolbox/include.
        .library(name: "AudioToolbox", type: .dynamic, targets: ["AudioToolbox"]),
        .executable(name: "afinfo", targets: ["afinfo"]),
        .executable(name: "aqplay", targets: ["aqplay"]),
        .executable(name: "afconvert", targets: ["afconvert"]),
        .executable(name: "aqrecord", targets: ["aqrecord"]),
    ],
    dependencies: [
        // `swift package generate-documentation` (DocC); no code depends on it.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        .target(name: "AudioCore", swiftSettings: strict),
        // The package's lock (package access only; pthreads, which ThreadSanitizer follows).
        .target(name: "Locking", swiftSettings: strict),
        .target(name: "AudioFileServices", dependencies: ["AudioCore", "Locking"], swiftSettings: strict),
        .target(name: "AudioCodecs", dependencies: ["AudioCore", "Locking"], swiftSettings: strict),
        .systemLibrary(
            name: "CFAAD2",
            pkgConfig: "faad2",
            providers: [.apt(["libfaad-dev"])]
        ),
        .target(name: "AudioCodecFAAD", dependencies: ["AudioCodecs", "CFAAD2"], swiftSettings: strict),
        .systemLibrary(
            name: "CMPG123",
            pkgConfig: "libmpg123",
            providers: [.apt(["libmpg123-dev"])]
        ),
        .target(name: "AudioCodecMPG123", dependencies: ["AudioCodecs", "CMPG123"], swiftSettings: strict),
        // AAC-LC encoding through libavcodec's native encoder: a plain C target that opens
        // libavcodec (and with it libavutil) with dlopen when the first encoder is made, instead of
        // linking it, so that a program that encodes no AAC does not load it and the hundred
        // libraries it needs at every start. Its headers come from libavcodec-dev.
        .target(name: "CAVCodec"),
        .target(name: "AudioCodecAVCodec", dependencies: ["AudioCore", "AudioCodecs", "CAVCodec"], swiftSettings: strict),
        // FLAC decoding and encoding (libFLAC).
        .systemLibrary(name: "CFLAC", pkgConfig: "flac", providers: [.apt(["libflac-dev"])]),
        .target(name: "AudioCodecFLAC", dependencies: ["AudioCore", "AudioCodecs", "CFLAC"], swiftSettings: strict),
        // Opus decoding (libopus, with its multistream API for channel mapping family 1).
        .systemLibrary(name: "COpus", pkgConfig: "opus", providers: [.apt(["libopus-dev"])]),
        .target(name: "AudioCodecOpus", dependencies: ["AudioCore", "AudioCodecs", "COpus"], swiftSettings: strict),
        .systemLibrary(name: "CVorbis", pkgConfig: "vorbis", providers: [.apt(["libvorbis-dev"])]),
        .target(name: "AudioCodecVorbis", dependencies: ["AudioCore", "AudioCodecs", "CVorbis", "Locking"], swiftSettings: strict),
        .systemLibrary(name: "CSoxr", pkgConfig: "soxr", providers: [.apt(["libsoxr-dev"])]),
        // AudioConverter: decoder or encoder, PCM conversion, channel map and sample-rate
        // conversion (libsoxr) in one pull-model converter.
        .target(name: "AudioConverterServices", dependencies: ["AudioCore", "AudioCodecs", "CSoxr"], swiftSettings: strict),
        .target(
            name: "ExtendedAudioFileServices",
            dependencies: ["AudioFileServices", "AudioCodecs", "AudioConverterServices", "Locking"],
            swiftSettings: strict
        ),
        // rtkit's D-Bus client, for threads that ask for real-time scheduling where the process may
        // not set it itself: a plain C target that opens libdbus-1.so.3 with dlopen on first use
        // (its few types declared in the source), so nothing is linked, and no header is needed.
        .target(name: "CRealtimeKit"),
        .target(name: "AudioDevices", dependencies: ["AudioCore", "CRealtimeKit", "Locking"], swiftSettings: strict),
        .target(name: "AudioDeviceFile", dependencies: ["AudioCore", "AudioCodecs", "AudioDevices", "AudioFileServices", "Locking"], swiftSettings: strict),
        .systemLibrary(name: "CALSA", pkgConfig: "alsa", providers: [.apt(["libasound2-dev"])]),
        .target(name: "AudioDeviceALSA", dependencies: ["AudioCore", "AudioDevices", "CALSA", "Locking"], swiftSettings: strict),
        // No pkgConfig: libpulse's flags (-D_REENTRANT -pthread) are ones SwiftPM warns about in
        // every package that depends on this one; its headers need no -I.
        .systemLibrary(name: "CPulseAudio", providers: [.apt(["libpulse-dev"])]),
        .target(
            name: "AudioDevicePulse", dependencies: ["AudioCore", "AudioDevices", "CPulseAudio", "Locking"], swiftSettings: strict),
        // libpipewire-0.3 (MIT): a plain C target, without pkg-config (whose -D_REENTRANT and -pthread
        // SwiftPM warns about in every dependent): include/ links to the Debian packages' headers
        // (libpipewire-0.3-dev, libspa-0.2-dev), its module map links the library, and C
        // functions stand in for the API's macros.
        .target(name: "CPipeWire"),
        .target(
            name: "AudioDevicePipeWire", dependencies: ["AudioCore", "AudioDevices", "CPipeWire", "Locking"], swiftSettings: strict),
        // Time and pitch: Spectral, TimeDomain and Varispeed behind one protocol.
        // SoundTouch (LGPL-2.1, C++): the flags of pkg-config soundtouch, and a C API over it.
        .systemLibrary(name: "CSoundTouch", pkgConfig: "soundtouch", providers: [.apt(["libsoundtouch-dev"])]),
        .target(name: "CSoundTouchShim", dependencies: ["CSoundTouch"]),
        .target(name: "AudioTimePitch", dependencies: ["CSoxr", "CSoundTouchShim"], swiftSettings: strict),
        .target(
            name: "AudioQueueServices",
            dependencies: ["AudioCore", "AudioCodecs", "AudioConverterServices", "AudioDevices", "AudioTimePitch", "Locking"],
            swiftSettings: strict
        ),
        // Audio units: components, output units over the devices, the converter and mixer units, graphs.
        .target(
            name: "AudioUnitServices",
            dependencies: ["AudioCore", "AudioCodecs", "AudioConverterServices", "AudioDevices", "Locking"],
            swiftSettings: strict
        ),
        // The codecs of the package's own modules, registered in one call (no devices, no queues).
        .target(
            name: "AudioCodecKit",
            dependencies: ["AudioCodecs", "AudioCodecFAAD", "AudioCodecMPG123", "AudioCodecAVCodec", "AudioCodecFLAC", "AudioCodecOpus", "AudioCodecVorbis"],
            swiftSettings: strict
        ),
        .target(
            name: "AudioQueueKit",
            dependencies: [
                "AudioCore", "AudioFileServices", "AudioCodecs", "AudioCodecKit",
                "AudioConverterServices", "ExtendedAudioFileServices",
                "AudioDevices", "AudioDeviceFile", "AudioDeviceALSA", "AudioDevicePulse", "AudioDevicePipeWire", "AudioQueueServices",
                "AudioTimePitch", "AudioUnitServices",
            ],
            swiftSettings: strict
        ),
        // Apple's C API: the header tree (and the C data symbols), and its functions in Swift.
        .target(name: "CAudioToolbox"),
        .target(
            name: "AudioToolbox",
            // Every module its files import, named here (AudioQueueKit registers the codecs and backends).
            dependencies: [
                "CAudioToolbox", "AudioQueueKit", "AudioCore", "AudioCodecs", "AudioCodecFAAD", "AudioCodecOpus", "AudioConverterServices",
                "AudioDevices", "AudioFileServices", "AudioQueueServices", "AudioUnitServices", "ExtendedAudioFileServices", "Locking",
            ],
            swiftSettings: strict),
        // What the command-line tools share (status line, level bars, afconvert's data format names).
        .target(
            name: "ToolSupport",
            dependencies: ["AudioCore", "AudioDevices", "AudioFileServices", "AudioQueueServices"],
            path: "Tools/ToolSupport",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "aqplay",
            dependencies: ["AudioQueueKit", "ToolSupport"],
            path: "Tools/aqplay",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "afconvert",
            dependencies: [
                "ExtendedAudioFileServices", "AudioConverterServices", "AudioCodecKit", "ToolSupport",
            ],
            path: "Tools/afconvert",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "aqrecord",
            dependencies: ["AudioQueueKit", "ToolSupport"],
            path: "Tools/aqrecord",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "afinfo",
            dependencies: ["AudioFileServices"],
            path: "Tools/afinfo",
            swiftSettings: strict
        ),
        .testTarget(name: "AudioCoreTests", dependencies: ["AudioCore"], swiftSettings: strict),
        .testTarget(name: "AudioCodecsTests", dependencies: ["AudioCodecs", "ProcessSupport"], swiftSettings: strict),
        .testTarget(name: "AudioCodecKitTests", dependencies: ["AudioCodecKit", "AudioCodecs", "AudioCore"], swiftSettings: strict),
        .testTarget(
            name: "AudioCodecFAADTests", dependencies: ["AudioCodecFAAD", "AudioFileServices", "AudioTestSupport", "DecodeTestSupport"], swiftSettings: strict),
        .testTarget(
            name: "AudioCodecMPG123Tests",
            dependencies: ["AudioCodecMPG123", "AudioFileServices", "ExtendedAudioFileServices", "ProcessSupport", "DecodeTestSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "AudioCodecAVCodecTests",
            dependencies: [
                "AudioCodecAVCodec", "AudioCodecFAAD", "AudioFileServices", "ExtendedAudioFileServices", "ProcessSupport", "DecodeTestSupport",
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "AudioCodecFLACTests",
            dependencies: ["AudioCodecFLAC", "CFLAC", "AudioFileServices", "ExtendedAudioFileServices", "ProcessSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "AudioCodecOpusTests",
            dependencies: ["AudioCodecOpus", "COpus", "AudioFileServices", "ExtendedAudioFileServices", "ProcessSupport", "DecodeTestSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "AudioCodecVorbisTests",
            dependencies: [
                "AudioCodecVorbis", "AudioCodecKit", "AudioCodecAVCodec", "CVorbis", "AudioFileServices", "ExtendedAudioFileServices", "ProcessSupport", "DecodeTestSupport",
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "AudioConverterServicesTests",
            dependencies: ["AudioConverterServices", "AudioCodecs", "ProcessSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "AudioUnitServicesTests",
            dependencies: ["AudioUnitServices", "AudioCore", "AudioCodecs", "AudioConverterServices", "AudioDevices", "ProcessSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "ExtendedAudioFileServicesTests",
            dependencies: ["ExtendedAudioFileServices", "AudioConverterServices", "AudioCodecFAAD", "AudioCodecMPG123", "AudioCodecAVCodec", "ProcessSupport"],
            swiftSettings: strict
        ),
        // What every test target shares: running the package's executables and the reference tools,
        // the fixture locator, Adler-32, the random generator, the sound server probe and the wait.
        .target(name: "ProcessSupport", path: "Tests/ProcessSupport", swiftSettings: strict),
        .target(
            name: "DecodeTestSupport", dependencies: ["AudioCodecs", "ExtendedAudioFileServices", "AudioCore"],
            path: "Tests/DecodeTestSupport", swiftSettings: strict),
        // Fixtures and a guide-style file player shared by the queue and device tests.
        .target(
            name: "AudioTestSupport",
            dependencies: ["AudioQueueServices", "AudioDevices", "ExtendedAudioFileServices", "AudioCodecFAAD", "ProcessSupport", "Locking", "DecodeTestSupport"],
            path: "Tests/AudioTestSupport",
            swiftSettings: strict
        ),
        .testTarget(
            name: "AudioQueueServicesTests",
            dependencies: [
                "AudioQueueServices", "AudioDevices", "AudioDeviceFile", "ExtendedAudioFileServices", "AudioCodecFAAD",
                "AudioTestSupport", "HTTPTestSupport", "Locking",
                "AudioQueueKit",  // registerAll, for the channel assignment tests
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "AudioDeviceFileTests", dependencies: ["AudioDeviceFile", "AudioDevices", "AudioFileServices", "Locking"], swiftSettings: strict),
        .testTarget(
            name: "AudioDeviceTests",
            dependencies: [
                "AudioDevices", "AudioDeviceALSA", "AudioDevicePulse", "AudioQueueServices", "ExtendedAudioFileServices",
                "AudioCodecFAAD", "AudioTestSupport", "HTTPTestSupport", "Locking",
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "AudioDevicePipeWireTests",
            dependencies: [
                "AudioDevicePipeWire", "AudioDevices", "AudioQueueServices", "AudioQueueKit", "AudioTestSupport", "ProcessSupport", "Locking",
            ],
            swiftSettings: strict
        ),
        // Apple's C API: C and C++ programs (the guide's listings among them) compiled against
        // libAudioToolbox.so, and the same functions called from Swift.
        .testTarget(
            name: "AudioToolboxTests",
            // The Swift modules too: their IDs and codes are checked against the C headers.
            dependencies: ["AudioToolbox", "AudioCodecs", "AudioConverterServices", "AudioQueueServices", "ExtendedAudioFileServices", "ProcessSupport"],
            // The C and C++ programs the tests compile themselves against the library.
            exclude: ["C", "ABI", "Corpus"],
            swiftSettings: strict
        ),
        // An HTTP server inside the test process, serving files as streams arrive.
        .target(name: "HTTPTestSupport", dependencies: ["Locking"], path: "Tests/HTTPTestSupport", swiftSettings: strict),
        .testTarget(
            name: "ToolSupportTests",
            dependencies: ["ToolSupport", "HTTPTestSupport", "AudioFileServices", "ProcessSupport"],
            swiftSettings: strict
        ),
        // Every Swift block of README.md and the DocC catalogs, as Scripts/snippets copies them
        // (each with only the imports it shows); ScriptsTests runs them.
        .executableTarget(
            name: "docsnippets",
            dependencies: [
                "AudioCore", "AudioFileServices", "AudioCodecs", "AudioCodecFAAD", "AudioCodecMPG123", "AudioCodecAVCodec",
                "AudioCodecFLAC", "AudioCodecOpus", "AudioCodecVorbis", "AudioConverterServices", "ExtendedAudioFileServices", "AudioDevices",
                "AudioDeviceFile", "AudioDeviceALSA", "AudioDevicePulse", "AudioTimePitch", "AudioQueueServices",
                "AudioUnitServices", "AudioQueueKit", "AudioToolbox",
            ],
            path: "Tests/DocumentationSnippets",
            swiftSettings: strict + [.enableUpcomingFeature("MemberImportVisibility")]
        ),
        // The scripts: the Debian packages they install against what the manifests need.
        .testTarget(name: "ScriptsTests", dependencies: ["ProcessSupport"], swiftSettings: strict),
        .testTarget(name: "AudioTimePitchTests", dependencies: ["AudioTimePitch", "ProcessSupport"], swiftSettings: strict),
        .testTarget(
            name: "AudioFileServicesTests",
            dependencies: ["AudioFileServices", "ProcessSupport"],
            swiftSettings: strict
        ),
    ],
    swiftLanguageModes: [.v6]
)
