import AudioToolbox
import Foundation
import ProcessSupport
import Testing

/// Every property of the HAL subset as a portable audio library's macOS back-end reads it
/// (C/hal_properties.c): each device's and stream's names, channels, rates, buffer sizes and
/// formats, checked against each other and against the calls before AudioObject, the settable
/// ones set and read back, and every property any object answers fed wrong sizes on purpose.
/// The selectors tried are every one `<CoreAudio/AudioHardware*.h>` declares, read from the
/// headers here, so that a property answered but missing from the program's table fails.
@Suite("HAL properties", .serialized)
struct HALPropertyTests {
    /// The headers whose property selectors the program tries.
    static let headers = ["AudioHardwareBase.h", "AudioHardware.h", "AudioHardwareDeprecated.h"]

    /// The names declared in the headers' `CF_ENUM(AudioObjectPropertySelector)` blocks.
    static func declaredSelectors() throws -> [String] {
        var names: [String] = []
        for header in headers {
            let text = try String(contentsOfFile: CPrograms.path("Sources/CAudioToolbox/include/CoreAudio/\(header)"), encoding: .utf8)
            var inBlock = false
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if trimmed.hasPrefix("CF_ENUM(AudioObjectPropertySelector)") { inBlock = true; continue }
                if inBlock && trimmed.hasPrefix("};") { inBlock = false; continue }
                guard inBlock, trimmed.hasPrefix("k"), let name = trimmed.split(separator: " ").first else { continue }
                names.append(String(name))
            }
        }
        return names
    }

    static let program = Result { () throws -> String in
        let names = try declaredSelectors()
        let header = CPrograms.scratch.appendingPathComponent("hal_selectors.h")
        try names.map { "X(\($0))\n" }.joined().write(to: header, atomically: true, encoding: .utf8)
        return try CPrograms.build(
            "hal_properties", sources: ["Tests/AudioToolboxTests/C/hal_properties.c"], extra: ["-DHAL_SELECTORS=\"\(header.path)\""])
    }

    @Test("The headers declare the selectors the property table names (the list the program tries is not empty or cut short)")
    func selectorList() throws {
        let names = try Self.declaredSelectors()
        for name in ["kAudioHardwarePropertyDevices", "kAudioDevicePropertyBufferFrameSize", "kAudioStreamPropertyVirtualFormat",
                     "kAudioDevicePropertyStreamFormat", "kAudioHardwarePropertyDeviceForUID", "kAudioDevicePropertyIOThreadOSWorkgroup"] {
            #expect(names.contains(name), "\(name) is not among the \(names.count) selectors read")
        }
        #expect(names.count > 200)
    }

    @Test("Every device and stream of the private PulseAudio server (a mono 22050 Hz and a 6-channel sink among them) reads consistently, its buffer size and rate set and read back, and every property answers wrong sizes with a result code",
          .enabled(if: AudioServer.runTests, Comment(rawValue: AudioServer.skipReason)))
    func serverDevices() throws {
        let program = try Self.program.get()
        try #require(AudioServer.available, "no PulseAudio server answers")
        let mono = try HardwareTests.loadSink("halprop\(getpid())", description: "HALPropMono\(getpid())", channels: 1, rate: 22050)
        defer { _ = try? runProcess("/usr/bin/pactl", ["unload-module", mono]) }
        let surround = try HardwareTests.loadSink("halprop6ch\(getpid())", description: "HALPropSix\(getpid())", channels: 6, rate: 48000)
        defer { _ = try? runProcess("/usr/bin/pactl", ["unload-module", surround]) }
        // --shared: other suites set this server's default source meanwhile, and add and remove
        // sinks of their own; the program does not set the defaults, not even to what they are,
        // and changes the settings of this test's sinks only (and of the other backends' devices).
        let r = try runProcess(program, ["--shared", "halprop"], environment: ["AUDIOQUEUE_BACKEND": "", "AUDIOQUEUE_DEVICE": ""])
        #expect(r.status == 0, "\(r.out)\(r.err)")
        #expect(r.out.contains("checked "), "\(r.out)\(r.err)")
        #expect(!r.out.contains("FAIL"), "\(r.out)")
        // The two sinks of this test were among the devices checked, with pactl's channels
        // (their monitors are input devices of as many channels).
        #expect(r.out.contains("device pulse:halprop\(getpid()): 1 output, 0 input channels\n"), "\(r.out)")
        #expect(r.out.contains("device pulse:halprop6ch\(getpid()): 6 output, 0 input channels\n"), "\(r.out)")
        #expect(r.out.contains("device pulse:halprop6ch\(getpid()).monitor: 0 output, 6 input channels\n"), "\(r.out)")
    }

    @Test("The file, null and ALSA devices (AUDIOQUEUE_BACKEND=file, no sound server reachable) read consistently, the defaults set to themselves, and every property answers wrong sizes with a result code")
    func fileDevices() throws {
        let program = try Self.program.get()
        let directory = CPrograms.scratch.appendingPathComponent("hal-properties-file")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let r = try runProcess(program, [], environment: [
            "AUDIOQUEUE_BACKEND": "file", "AUDIOQUEUE_DEVICE": "", "TMPDIR": directory.path, "PULSE_SERVER": "/nonexistent",
            "PULSE_RUNTIME_PATH": directory.path, "PIPEWIRE_RUNTIME_DIR": directory.path, "PIPEWIRE_REMOTE": "",
        ])
        #expect(r.status == 0, "\(r.out)\(r.err)")
        #expect(r.out.contains("checked "), "\(r.out)\(r.err)")
        #expect(!r.out.contains("FAIL"), "\(r.out)")
    }
}
