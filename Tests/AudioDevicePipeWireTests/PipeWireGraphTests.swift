import Foundation
import Testing
import Dispatch
import Synchronization
import AudioCore
import AudioDevices
@testable import AudioDevicePipeWire
import AudioQueueServices
import AudioQueueKit
import AudioTestSupport

extension PipeWireGraphServer {
    /// The PipeWire backend's devices, from the server's registry: nodes come and go, the
    /// `default` metadata says which are the defaults, a queue on the default follows it, and a
    /// queue on a named node that goes away stops with the node's loss. Against the private server
    /// Scripts/test starts; the tests change its default and put it back, so they run one at a time.
    @Suite("PipeWire devices")
    struct PipeWireGraphTests {
        let backend = PipeWireBackend()

        init() { AudioQueueKit.registerAll() }

        @Test("The null sink aqtest is an output with its channels and rate, its monitor an input, and the default sink the default")
        func enumerationSeesTheNullSinkAndItsMonitor() throws {
            try GraphServer.require()
            #expect(backend.isAvailable())
            let devices = try backend.devices()
            let sink = try #require(devices.first { $0.direction == .output && $0.name == GraphServer.sink }, "\(devices)")
            #expect(sink.uid == "pipewire:\(GraphServer.sink)")
            #expect(sink.channels == 2 && sink.sampleRate == 48000, "\(sink)")
            let monitor = try #require(devices.first { $0.direction == .input && $0.name == GraphServer.sink + ".monitor" }, "\(devices)")
            #expect(monitor.channels == 2, "\(monitor)")
            let defaultSink = try GraphServer.defaultSink()
            #expect(devices.filter { $0.direction == .output && $0.isDefault }.map(\.name) == [defaultSink], "\(devices)")
            #expect(!devices.contains { $0.name == "Dummy-Driver" || $0.name == "Freewheel-Driver" }, "drivers are no devices: \(devices)")
            #expect(AudioBackends.defaultDevice(.output, listing: { $0.name == "pipewire" ? try? $0.devices() : nil })?.name == defaultSink)
        }

        @Test("A null sink loaded through pipewire-pulse appears with its channels and rate, is reported as a change, and disappears when unloaded")
        func aSecondSinkAppearsAndDisappears() throws {
            try GraphServer.require()
            let changes = Atomic<Int>(0)
            let subscription = try #require(backend.reportChanges { changes.add(1, ordering: .relaxed) })
            let name = "aqpw\(getpid())"
            let module = try GraphServer.loadNullSink(name, channels: 1, rate: 22050)
            var unloaded = false
            defer { if !unloaded { _ = try? GraphServer.pactl(["unload-module", module]) } }
            #expect(eventually(within: 5) { (try? backend.devices())?.contains { $0.name == name && $0.direction == .output } == true })
            let devices = try backend.devices()
            let sink = try #require(devices.first { $0.name == name && $0.direction == .output })
            #expect(sink.channels == 1 && sink.sampleRate == 22050, "\(sink)")
            #expect(devices.contains { $0.name == name + ".monitor" && $0.direction == .input })
            #expect(eventually(within: 5) { changes.load(ordering: .relaxed) > 0 }, "no change reported for the new sink")
            #expect(subscription.isActive)

            let before = changes.load(ordering: .relaxed)
            _ = try GraphServer.pactl(["unload-module", module])
            unloaded = true
            #expect(eventually(within: 5) { (try? backend.devices())?.contains { $0.name == name } == false }, "the sink stayed listed")
            #expect(eventually(within: 5) { changes.load(ordering: .relaxed) > before }, "no change reported for the sink's removal")
        }

        @Test("Setting the default (pactl, or the backend) moves a playing queue on the default: currentDevice listeners fire, the timeline says discontinuity, the clock goes on")
        func aQueueOnTheDefaultFollowsIt() throws {
            try GraphServer.require()
            let original = try GraphServer.defaultSink()
            let name = "aqpwf\(getpid())"
            let module = try GraphServer.loadNullSink(name)
            defer {
                _ = try? GraphServer.pactl(["set-default-sink", original])
                _ = try? GraphServer.pactl(["unload-module", module])
            }
            #expect(eventually(within: 5) { (try? backend.devices())?.contains { $0.name == name } == true })
            let player = try TonePlayer(uid: "pipewire")
            defer { player.dispose() }
            try player.startAndWaitUntilPlaying()
            #expect(player.queue.currentDevice == "pipewire:\(original)", "\(player.queue.currentDevice ?? "none")")

            _ = try GraphServer.pactl(["set-default-sink", name])
            #expect(player.moved.wait(timeout: .now() + 10) == .success, "no currentDevice change heard")
            #expect(player.queue.currentDevice == "pipewire:\(name)")
            #expect(player.queue.currentDeviceInfo?.isDefault == true)
            #expect(try player.queue.currentTime(timeline: player.timeline).discontinuity, "no discontinuity for the move")
            #expect(player.clockAdvances(), "the clock stopped after the move")

            // Back, through the backend this time (the `default` metadata, as pactl sets it).
            try backend.setDefaultDevice(original, direction: .output)
            #expect(try GraphServer.defaultSink() == original)
            #expect(player.moved.wait(timeout: .now() + 10) == .success, "no currentDevice change heard")
            #expect(player.queue.currentDevice == "pipewire:\(original)")
            #expect(player.clockAdvances(), "the clock stopped after the move")
            #expect(player.queue.isRunning && player.queue.deviceFailure == nil)
            #expect(player.devices.withLock { $0 } == ["pipewire:\(name)", "pipewire:\(original)"])
        }

        @Test("A queue on a named node stops when the node goes away, with kAudioQueueErr_QueueInvalidated and the node's loss as the reason")
        func removingANamedNodeReportsItsLoss() throws {
            try GraphServer.require()
            let name = "aqpwl\(getpid())"
            let module = try GraphServer.loadNullSink(name)
            var unloaded = false
            defer { if !unloaded { _ = try? GraphServer.pactl(["unload-module", module]) } }
            #expect(eventually(within: 5) { (try? backend.devices())?.contains { $0.name == name } == true })
            let player = try TonePlayer(uid: "pipewire:\(name)")
            defer { player.dispose() }
            try player.startAndWaitUntilPlaying()
            #expect(player.queue.currentDevice == "pipewire:\(name)")
            _ = try GraphServer.pactl(["unload-module", module])
            unloaded = true
            #expect(player.stopped.wait(timeout: .now() + 10) == .success, "the queue went on without its node")
            #expect(!player.queue.isRunning)
            let failure = player.queue.deviceFailure
            #expect(failure?.reason.contains("went away") == true, "\(String(describing: failure))")
            #expect(player.queue.converterError == -66_671, "converterError \(player.queue.converterError)")
            #expect(player.devices.withLock { $0 }.isEmpty, "a queue on a named node does not move")
        }

        @Test("aqplay and aqrecord --list-devices list the server's nodes under the pipewire backend")
        func theToolsListTheNodes() throws {
            try GraphServer.require()
            let env = ["AUDIOQUEUE_BACKEND": "", "AUDIOQUEUE_DEVICE": ""]
            let played = try runProcess(aqplay, ["--list-devices"], environment: env)
            #expect(played.status == 0, "\(played.err)")
            #expect(played.out.contains("pipewire:\(GraphServer.sink)"), "\(played.out)")
            let recorded = try runProcess(aqrecord, ["--list-devices"], environment: env)
            #expect(recorded.status == 0, "\(recorded.err)")
            #expect(recorded.out.contains("pipewire:\(GraphServer.sink).monitor"), "\(recorded.out)")
        }
    }
}

/// What needs no server: the metadata's values, and where PipeWire's socket is beside a
/// PulseAudio server's.
@Suite("PipeWire graph values")
struct PipeWireGraphValueTests {
    @Test("The metadata's JSON values give their names, spaced or not, escaped or not")
    func metadataValues() {
        #expect(PipeWireGraph.name(inJSON: #"{"name":"aqtest"}"#) == "aqtest")
        #expect(PipeWireGraph.name(inJSON: #"{ "name": "aqtest" }"#) == "aqtest")
        #expect(PipeWireGraph.name(inJSON: #"{ "other": 3, "name": "a\"b\\c\u0041" }"#) == "a\"b\\cA")
        #expect(PipeWireGraph.name(inJSON: #"{"name":3}"#) == nil)
        #expect(PipeWireGraph.name(inJSON: "") == nil)
        #expect(PipeWireGraph.name(inJSON: #"{"name":"unterminated"#) == nil)
        #expect(PipeWireGraph.name(inJSON: PipeWireGraph.json(name: "q\"x\\y\n")) == "q\"x\\y\n")
    }

    @Test("PipeWire's socket is found beside pipewire-pulse's, only for a server that says it runs on PipeWire")
    func socketBesidePulseAudio() {
        let onPipeWire = AudioServerIdentity(name: "PulseAudio (on PipeWire 0.3.65)", socketPath: "/run/user/7/pulse/native")
        #expect(onPipeWire.isPipeWire)
        #expect(PipeWireServerLocation.socket(besides: onPipeWire) == "/run/user/7/pipewire-0")
        #expect(PipeWireServerLocation.socket(besides: AudioServerIdentity(name: "PulseAudio (on PipeWire 1.2.7)", socketPath: "unix:/tmp/x/pulse/native")) == "/tmp/x/pipewire-0")
        #expect(PipeWireServerLocation.socket(besides: AudioServerIdentity(name: "pulseaudio", socketPath: "/run/user/7/pulse/native")) == nil)
        #expect(PipeWireServerLocation.socket(besides: AudioServerIdentity(name: "PulseAudio (on PipeWire 0.3.65)", socketPath: "/tmp/native")) == nil)
        #expect(PipeWireServerLocation.socket(besides: AudioServerIdentity(name: "PulseAudio (on PipeWire 0.3.65)", socketPath: nil)) == nil)
        #expect(!PipeWireServerLocation.acceptsConnection("/nonexistent/aq-\(getpid())/pipewire-0"))
        #expect(!PipeWireServerLocation.acceptsConnection("/" + String(repeating: "x", count: 200)))
    }
}
