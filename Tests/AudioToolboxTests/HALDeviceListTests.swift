import Foundation
import ProcessSupport
import Testing

/// What the HAL's device list holds (C/hal_devices.c), against what `pactl` says of the private
/// PulseAudio server and `aplay -L` of alsa-lib's configuration: the server's sinks with their
/// descriptions, channel counts and rates, told apart when two share a description; no ALSA
/// plug-in that is not a device; a sink another program adds, on the next listing and through
/// a listener.
@Suite("HAL device list")
struct HALDeviceListTests {
    static let program = Result { try CPrograms.build("hal_devices", sources: ["Tests/AudioToolboxTests/C/hal_devices.c"]) }
    /// No backend or device named: the default chain and the full list.
    static let environment = ["AUDIOQUEUE_BACKEND": "", "AUDIOQUEUE_DEVICE": ""]

    /// A device line of `hal_devices`.
    struct Device: Equatable {
        var name: String
        var uid: String
        var outputChannels: Int
        var inputChannels: Int
        var rate: Int
    }

    static func devices(_ lines: some Sequence<Substring>) -> [Device] {
        lines.compactMap { line in
            guard line.hasPrefix("device ") else { return nil }
            let f = line.dropFirst(7).split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            guard f.count == 6 else { return nil }
            return Device(name: f[1], uid: f[2], outputChannels: Int(f[3]) ?? -1, inputChannels: Int(f[4]) ?? -1, rate: Int(f[5]) ?? -1)
        }
    }

    /// Loads a null sink; returns its module number.
    static func loadSink(_ arguments: [String]) throws -> String {
        let r = try runProcess("/usr/bin/pactl", ["load-module", "module-null-sink"] + arguments)
        try #require(r.status == 0, "pactl load-module: \(r.err)")
        return r.out.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func unload(_ module: String) {
        _ = try? runProcess("/usr/bin/pactl", ["unload-module", module])
    }

    @Test("Two sinks with one description are two devices with different names; a 6-channel 96 kHz sink has the channels and rate pactl reports",
          .enabled(if: AudioServer.runTests, Comment(rawValue: AudioServer.skipReason)))
    func sameDescription() throws {
        let program = try Self.program.get()
        try #require(AudioServer.available, "no PulseAudio server answers")
        let id = "\(getpid())"
        var modules: [String] = []
        defer { modules.forEach(Self.unload) }
        for sink in ["a", "b"] {
            modules.append(try Self.loadSink(["sink_name=same\(sink)\(id)", "sink_properties=device.description=Same\(id)"]))
        }
        modules.append(try Self.loadSink([
            "sink_name=six\(id)", "channels=6", "rate=96000", "sink_properties=device.description=Six\(id)",
        ]))
        let reported = try HardwareTests.pactlEndpoints("sinks").first { $0.name == "six\(id)" }
        #expect(reported?.channels == 6 && reported?.rate == 96000, "pactl: \(String(describing: reported))")

        let r = try runProcess(program, ["list"], environment: Self.environment)
        try #require(r.status == 0, "\(r.out)\(r.err)")
        let devices = Self.devices(r.out.split(separator: "\n"))
        let a = devices.first { $0.uid == "pulse:samea\(id)" }, b = devices.first { $0.uid == "pulse:sameb\(id)" }
        #expect(a != nil && b != nil, "\(r.out)")
        if let a, let b {
            #expect(a.name != b.name, "\(r.out)")
            #expect(a.name.hasPrefix("Same\(id)") && b.name.hasPrefix("Same\(id)"), "\(r.out)")
        }
        let six = devices.first { $0.uid == "pulse:six\(id)" }
        #expect(six?.name == "Six\(id)", "\(r.out)")
        #expect(six?.outputChannels == reported?.channels && six?.rate == reported?.rate && six?.inputChannels == 0, "\(r.out)")
        #expect(Set(devices.map(\.name)).count == devices.count, "no two devices share a name: \(r.out)")
    }

    @Test("alsa-lib's plug-ins that are not devices (aplay -L), ALSA's pulse PCM beside the PulseAudio backend, and the file and null devices are not listed; the null device still answers by UID",
          .enabled(if: AudioServer.runTests, Comment(rawValue: AudioServer.skipReason)))
    func onlyDevices() throws {
        let program = try Self.program.get()
        try #require(AudioServer.available, "no PulseAudio server answers")
        let aplay = try runProcess("/usr/bin/aplay", ["-L"])
        // Names start a line; their descriptions are indented below them.
        let names = aplay.out.split(separator: "\n").filter { !$0.hasPrefix(" ") && !$0.isEmpty }.map(String.init)
        let cards = ["hw:", "plughw:", "sysdefault:", "front:", "surround", "iec958:", "hdmi:", "dmix:", "dsnoop:", "usbstream:"]
        let plugins = names.filter { name in name != "default" && name != "pipewire" && !cards.contains { name.hasPrefix($0) } }

        let r = try runProcess(program, ["list"], environment: Self.environment)
        try #require(r.status == 0, "\(r.out)\(r.err)")
        let devices = Self.devices(r.out.split(separator: "\n"))
        #expect(devices.contains { $0.uid.hasPrefix("pulse:") }, "\(r.out)")
        for plugin in plugins {
            #expect(!devices.contains { $0.uid == "alsa:\(plugin)" }, "alsa:\(plugin) (aplay -L) is listed: \(r.out)")
        }
        #expect(!devices.contains { $0.uid.hasPrefix("file:") || $0.uid.hasPrefix("null:") }, "\(r.out)")
        #expect(r.out.contains("default-output pulse:"), "\(r.out)")

        let null = try runProcess(program, ["uid", "null:null"], environment: Self.environment)
        #expect(null.status == 0 && null.out.hasPrefix("translated ") && !null.out.hasPrefix("translated 0|"), "\(null.out)\(null.err)")
        #expect(null.out.hasSuffix("|Discards audio\n"), "\(null.out)")
    }

    @Test("A sink pactl loads is on the very next listing, with its description",
          .enabled(if: AudioServer.runTests, Comment(rawValue: AudioServer.skipReason)))
    func nextListing() throws {
        let program = try Self.program.get()
        try #require(AudioServer.available, "no PulseAudio server answers")
        let sink = "next\(getpid())"
        let r = try runProcess(program, ["next", sink, "Next\(getpid())"], environment: Self.environment)
        let module = r.out.split(separator: "\n").first { $0.hasPrefix("module ") }.map { String($0.dropFirst(7)) }
        defer { module.map(Self.unload) }
        try #require(r.status == 0, "\(r.out)\(r.err)")
        let parts = r.out.components(separatedBy: "listing 2\n")
        try #require(parts.count == 2, "\(r.out)")
        let before = Self.devices(parts[0].split(separator: "\n")), after = Self.devices(parts[1].split(separator: "\n"))
        #expect(!before.contains { $0.uid == "pulse:\(sink)" }, "\(r.out)")
        #expect(after.contains { $0.uid == "pulse:\(sink)" && $0.name == "Next\(getpid())" }, "\(r.out)")
    }

    @Test("A listener of the device list is called when pactl loads a sink, and the list then has it",
          .enabled(if: AudioServer.runTests, Comment(rawValue: AudioServer.skipReason)))
    func listenerHearsNewSink() throws {
        let program = try Self.program.get()
        try #require(AudioServer.available, "no PulseAudio server answers")
        let sink = "heard\(getpid())"
        let r = try runProcess(program, ["heard", sink, "Heard\(getpid())"], environment: Self.environment)
        let module = r.out.split(separator: "\n").first { $0.hasPrefix("module ") }.map { String($0.dropFirst(7)) }
        defer { module.map(Self.unload) }
        #expect(r.status == 0 && r.out.contains("heard pulse:\(sink)\n"), "\(r.out)\(r.err)")
    }
}
