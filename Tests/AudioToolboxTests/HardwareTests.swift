import AudioToolbox
import Foundation
import ProcessSupport
import Testing

/// The HAL subset (<CoreAudio/AudioHardware.h>) as a media player's macOS output module uses
/// it (C/hal_output.c): the devices it lists against what `pactl` says of the private
/// PulseAudio server, a device picked by name and played to through its UID, the default
/// output's listener (on a server of the test's own), and the file backend.
@Suite("HAL devices", .serialized)
struct HardwareTests {
    static let program = Result { try CPrograms.build("hal_output", sources: ["Tests/AudioToolboxTests/C/hal_output.c"]) }

    /// A device line of `hal_output list`.
    struct Device: Equatable {
        var id: String
        var name: String
        var uid: String
        var outputChannels: Int
        var inputChannels: Int
        var rate: Int
        var alive: Bool
    }

    /// What `hal_output list` printed: the devices, and the default output's and input's UIDs.
    static func listing(_ out: String) -> (devices: [Device], output: String?, input: String?) {
        var devices: [Device] = []
        var output: String?, input: String?
        for line in out.split(separator: "\n") {
            if line.hasPrefix("device ") {
                let f = line.dropFirst(7).split(separator: "|", omittingEmptySubsequences: false).map(String.init)
                guard f.count == 7 else { continue }
                devices.append(Device(
                    id: f[0], name: f[1], uid: f[2], outputChannels: Int(f[3]) ?? -1, inputChannels: Int(f[4]) ?? -1,
                    rate: Int(f[5]) ?? -1, alive: f[6] == "1"))
            } else if line.hasPrefix("default-output ") {
                output = String(line.dropFirst("default-output ".count))
            } else if line.hasPrefix("default-input ") {
                input = String(line.dropFirst("default-input ".count))
            }
        }
        return (devices, output, input)
    }

    /// `pactl list short sinks` (or sources): each one's name, channel count and rate, from
    /// its sample specification ("float32le 2ch 48000Hz").
    static func pactlEndpoints(_ kind: String) throws -> [(name: String, channels: Int, rate: Int)] {
        let r = try runProcess("/usr/bin/pactl", ["list", "short", kind])
        try #require(r.status == 0, "pactl list short \(kind): \(r.err)")
        return r.out.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: "\t").map(String.init)
            guard fields.count >= 4 else { return nil }
            let spec = fields[3].split(separator: " ")
            guard spec.count == 3, let channels = Int(spec[1].dropLast(2)), let rate = Int(spec[2].dropLast(2)) else { return nil }
            return (fields[1], channels, rate)
        }
    }

    /// The server's default sink, as `pactl info` says.
    static func defaultSink() throws -> String {
        let r = try runProcess("/usr/bin/pactl", ["info"])
        let line = r.out.split(separator: "\n").first { $0.hasPrefix("Default Sink: ") }
        return try #require(line.map { String($0.dropFirst("Default Sink: ".count)) }, "pactl info: \(r.out)")
    }

    /// Loads a null sink of the test's own (`channels` at `rate`, described as `description`);
    /// returns its module number.
    static func loadSink(_ name: String, description: String, channels: Int, rate: Int) throws -> String {
        let load = try runProcess("/usr/bin/pactl", [
            "load-module", "module-null-sink", "sink_name=\(name)", "rate=\(rate)", "channels=\(channels)",
            "sink_properties=device.description=\(description)",
        ])
        try #require(load.status == 0, "pactl load-module: \(load.err)")
        return load.out.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test("Every sink and source pactl lists is a device with pactl's channels and rate, the server's defaults are the defaults, and a device picked by name plays through its UID",
          .enabled(if: AudioServer.runTests, Comment(rawValue: AudioServer.skipReason)))
    func listsServerDevices() throws {
        let program = try Self.program.get()
        try #require(AudioServer.available, "no PulseAudio server answers")
        let sink = "hal\(getpid())"
        let module = try Self.loadSink(sink, description: "HALTest\(getpid())", channels: 1, rate: 22050)
        defer { _ = try? runProcess("/usr/bin/pactl", ["unload-module", module]) }

        let env = ["AUDIOQUEUE_BACKEND": "", "AUDIOQUEUE_DEVICE": ""]
        // Other suites load and unload sinks of their own on this server meanwhile: what pactl
        // lists both before and after hal_output's listing was there during it, and only that
        // is held against the listing.
        let sinksBefore = try Self.pactlEndpoints("sinks"), sourcesBefore = try Self.pactlEndpoints("sources")
        let r = try runProcess(program, ["list"], environment: env)
        try #require(r.status == 0, "hal_output list: \(r.out)\(r.err)")
        let (devices, output, input) = Self.listing(r.out)
        let sinksAfter = try Self.pactlEndpoints("sinks"), sourcesAfter = try Self.pactlEndpoints("sources")
        let sinks = sinksBefore.filter { s in sinksAfter.contains { $0 == s } }
        let sources = sourcesBefore.filter { s in sourcesAfter.contains { $0 == s } }
        #expect(sinks.contains { $0.name == sink && $0.channels == 1 && $0.rate == 22050 }, "pactl: \(sinks)")
        #expect(sources.contains { $0.name == "\(sink).monitor" }, "pactl: \(sources)")
        for s in sinks {
            let device = devices.first { $0.uid == "pulse:\(s.name)" }
            #expect(device?.outputChannels == s.channels && device?.rate == s.rate && device?.alive == true,
                    "sink \(s.name) (\(s.channels) ch, \(s.rate) Hz): \(String(describing: device))")
        }
        for s in sources {
            let device = devices.first { $0.uid == "pulse:\(s.name)" }
            #expect(device?.inputChannels == s.channels && device?.outputChannels == 0 && device?.rate == s.rate,
                    "source \(s.name) (\(s.channels) ch, \(s.rate) Hz): \(String(describing: device))")
        }
        #expect(Set(devices.map(\.id)).count == devices.count, "device IDs are unique: \(r.out)")
        #expect(output == "pulse:\(try Self.defaultSink())", "\(r.out)")
        #expect(input?.hasPrefix("pulse:") == true, "\(r.out)")

        let played = try runProcess(program, ["play", "HALTest\(getpid())"], environment: env)
        #expect(played.status == 0, "\(played.out)\(played.err)")
        #expect(played.out.contains("playing pulse:\(sink)\n"), "\(played.out)\(played.err)")
        let missing = try runProcess(program, ["play", "NoSuchDevice\(getpid())"], environment: env)
        #expect(missing.status == 1 && missing.out.contains("no output device"), "\(missing.out)\(missing.err)")
    }

    /// A PulseAudio server of the test's own, with null sinks `first` (its default) and `second`
    /// ("HALSecond"), so that changing its default never disturbs the shared server the other
    /// suites play to.
    struct OwnServer {
        let directory: String
        /// What hal_output needs to find it (and no backend or device named).
        var environment: [String: String] {
            ["PULSE_RUNTIME_PATH": directory, "PULSE_SERVER": "", "PIPEWIRE_RUNTIME_DIR": directory, "AUDIOQUEUE_BACKEND": "", "AUDIOQUEUE_DEVICE": ""]
        }

        static let runnable = FileManager.default.isExecutableFile(atPath: "/usr/bin/pulseaudio") || AudioServer.required

        init() throws {
            directory = CPrograms.scratch.appendingPathComponent("pulse-hal").path
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }

        /// Starts it and waits (up to five seconds) until pactl reaches it.
        func start() throws {
            let r = try runProcess("/usr/bin/pulseaudio", [
                "-n", "--daemonize=yes", "--exit-idle-time=-1", "--use-pid-file=yes",
                "--load=module-null-sink sink_name=first rate=48000 channels=2",
                "--load=module-null-sink sink_name=second rate=44100 channels=2 sink_properties=device.description=HALSecond",
                "--load=module-native-protocol-unix",
            ], environment: environment)
            try #require(r.status == 0, "pulseaudio did not start: \(r.err)")
            for _ in 0..<50 where (try? pactl(["info"]))?.status != 0 { usleep(100_000) }
            _ = try pactl(["set-default-sink", "first"])
        }

        func pactl(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
            try runProcess("/usr/bin/pactl", arguments, environment: environment)
        }

        /// Its default sink, as `pactl info` says.
        func defaultSink() throws -> String {
            let r = try pactl(["info"])
            let line = r.out.split(separator: "\n").first { $0.hasPrefix("Default Sink: ") }
            return try #require(line.map { String($0.dropFirst("Default Sink: ".count)) }, "pactl info: \(r.out)\(r.err)")
        }

        /// Stops it and removes its directory.
        func remove() {
            _ = try? runProcess("/usr/bin/pulseaudio", ["--kill"], environment: environment)
            try? FileManager.default.removeItem(atPath: directory)
        }
    }

    @Test("A DefaultOutputDevice listener on the system object is called when pactl set-default-sink changes the default, on the HAL's thread and on a run loop set with kAudioHardwarePropertyRunLoop; setting the default output sets the server's default sink",
          .enabled(if: OwnServer.runnable, "pulseaudio is not installed (Scripts/test installs it)"))
    func defaultOutputListener() throws {
        let program = try Self.program.get()
        let server = try OwnServer()
        defer { server.remove() }
        try server.start()
        let env = server.environment
        try #require(try server.defaultSink() == "first")

        let r = try runProcess(program, ["listen", "second"], environment: env)
        #expect(r.status == 0, "\(r.out)\(r.err)")
        #expect(r.out.contains("changed pulse:second\n"), "\(r.out)\(r.err)")
        #expect(try server.defaultSink() == "second")

        // Back to the first, heard on the main thread's run loop this time.
        let back = try runProcess(program, ["listen", "first", "runloop"], environment: env)
        #expect(back.status == 0, "\(back.out)\(back.err)")
        #expect(back.out.contains("changed pulse:first\n"), "\(back.out)\(back.err)")
        #expect(back.out.contains("on the run loop's thread\n"), "\(back.out)\(back.err)")
        #expect(try server.defaultSink() == "first")

        // Setting the default output sets the server's default sink, as a Mac sets the
        // system's; a device whose backend has no settable default (ALSA's) refuses ('nope').
        let set = try runProcess(program, ["setdefault", "HALSecond"], environment: env)
        #expect(set.status == 0 && set.out.contains("status 0"), "\(set.out)\(set.err)")
        #expect(try server.defaultSink() == "second")
        let refused = try runProcess(program, ["setdefault", "Default ALSA Device"], environment: env)
        #expect(refused.out.contains("status \(0x6E6F7065)"), "\(refused.out)\(refused.err)")
        #expect(try server.defaultSink() == "second")
    }

    @Test("With AUDIOQUEUE_BACKEND=file the default output is the file device; playing to its UID writes the tone (ffprobe: 44.1 kHz, 2 ch, 13,230 frames)")
    func fileBackend() throws {
        let program = try Self.program.get()
        let directory = CPrograms.scratch.appendingPathComponent("hal-file")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let env = ["AUDIOQUEUE_BACKEND": "file", "AUDIOQUEUE_DEVICE": "", "TMPDIR": directory.path]

        let r = try runProcess(program, ["list"], environment: env)
        try #require(r.status == 0, "\(r.out)\(r.err)")
        let (devices, output, _) = Self.listing(r.out)
        let fileDevice = devices.first { $0.uid.hasPrefix("file:\(directory.path)/") }
        #expect(fileDevice?.outputChannels == 2 && fileDevice?.inputChannels == 0, "\(r.out)")
        #expect(output == fileDevice?.uid, "\(r.out)")
        // The file device is listed as the default; the null device, no default, is not.
        #expect(!devices.contains { $0.uid == "null:null" }, "\(r.out)")

        let played = try runProcess(program, ["play", "default"], environment: env)
        #expect(played.status == 0, "\(played.out)\(played.err)")
        let line = played.out.split(separator: "\n").first { $0.hasPrefix("playing file:") }
        let path = try #require(line.map { String($0.dropFirst("playing file:".count)) }, "\(played.out)\(played.err)")
        let probe = try runProcess("/usr/bin/ffprobe", [
            "-v", "error", "-show_entries", "stream=sample_rate,channels,duration_ts", "-of", "default=nw=1", path,
        ])
        #expect(probe.status == 0, "\(probe.err)")
        #expect(probe.out.contains("sample_rate=44100") && probe.out.contains("channels=2") && probe.out.contains("duration_ts=13230"),
                "\(probe.out)")
    }

    @Test("Swift code written for macOS finds the default output among the devices with Apple's signatures")
    func swiftSignatures() throws {
        var address = AudioObjectPropertyAddress(
            mSelector: kAudioHardwarePropertyDefaultOutputDevice, mScope: kAudioObjectPropertyScopeGlobal,
            mElement: kAudioObjectPropertyElementMain)
        var deviceID = AudioDeviceID(0)
        var size = UInt32(MemoryLayout<AudioDeviceID>.size)
        let system = AudioObjectID(kAudioObjectSystemObject)
        #expect(AudioObjectHasProperty(system, &address))
        #expect(AudioObjectGetPropertyData(system, &address, 0, nil, &size, &deviceID) == kAudioHardwareNoError)
        #expect(deviceID != kAudioObjectUnknown)

        address.mSelector = kAudioHardwarePropertyDevices
        #expect(AudioObjectGetPropertyDataSize(system, &address, 0, nil, &size) == noErr)
        var devices = [AudioDeviceID](repeating: 0, count: Int(size) / MemoryLayout<AudioDeviceID>.size)
        #expect(AudioObjectGetPropertyData(system, &address, 0, nil, &size, &devices) == noErr)
        #expect(devices.contains(deviceID))

        var rate = Float64(0)
        size = UInt32(MemoryLayout<Float64>.size)
        address.mSelector = kAudioDevicePropertyNominalSampleRate
        #expect(AudioObjectGetPropertyData(deviceID, &address, 0, nil, &size, &rate) == noErr)
        #expect(rate > 0)

        // The default output is a sound server's (the suite's PulseAudio server, or PipeWire's
        // in its own run): its maker by name, a virtual device rather than built-in hardware.
        var maker = [CChar](repeating: 0, count: 256)
        size = UInt32(maker.count)
        address.mSelector = kAudioDevicePropertyDeviceManufacturer
        #expect(AudioObjectGetPropertyData(deviceID, &address, 0, nil, &size, &maker) == noErr)
        let name = String(decoding: maker.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        #expect(["PulseAudio", "PipeWire"].contains(name), "manufacturer \(name)")
        var transport = UInt32(0)
        size = UInt32(MemoryLayout<UInt32>.size)
        address.mSelector = kAudioDevicePropertyTransportType
        #expect(AudioObjectGetPropertyData(deviceID, &address, 0, nil, &size, &transport) == noErr)
        #expect(transport == kAudioDeviceTransportTypeVirtual)
    }
}
