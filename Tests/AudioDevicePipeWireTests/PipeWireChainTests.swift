import Foundation
import Testing
import AudioDevices
import AudioTestSupport

extension PipeWireGraphServer {
    /// The default chain with the pipewire backend first: PipeWire when its socket answers (or when
    /// the PulseAudio server says it runs on PipeWire, whose socket is then beside it), else
    /// PulseAudio, else ALSA, else a WAVE file; `AUDIOQUEUE_BACKEND=pipewire` chooses it by name.
    /// aqplay, run with the environment each case needs, says what it chose.
    @Suite("PipeWire in the default chain")
    struct PipeWireChainTests {
        let chime = Fixtures.path("caf-aac-2ch-48000.caf")

        /// A directory of the test's own, removed afterwards by the caller.
        func scratch(_ label: String) throws -> String {
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("aq-pwchain-\(label)-\(getpid())").path
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            return dir
        }

        @Test("With the PipeWire socket answering, the default output is the pipewire backend's default sink")
        func pipeWireComesFirst() throws {
            try GraphServer.require()
            let r = try runProcess(aqplay, [chime], environment: ["AUDIOQUEUE_BACKEND": "", "AUDIOQUEUE_DEVICE": ""])
            #expect(r.status == 0, "\(r.err)")
            // The device is named once the session manager has linked the stream ("default" before).
            #expect(r.out.contains("playing through pipewire:"), "\(r.out)")
        }

        @Test("No PipeWire socket where PIPEWIRE_RUNTIME_DIR points: the chain goes on to PulseAudio (pipewire-pulse here)")
        func withoutTheSocketPulseAudioPlays() throws {
            try GraphServer.require()
            let dir = try scratch("nosocket")
            defer { try? FileManager.default.removeItem(atPath: dir) }
            let r = try runProcess(aqplay, [chime], environment: ["PIPEWIRE_RUNTIME_DIR": dir, "AUDIOQUEUE_BACKEND": "", "AUDIOQUEUE_DEVICE": ""])
            #expect(r.status == 0, "\(r.err)")
            #expect(r.out.contains("playing through pulse:"), "\(r.out)")
        }

        @Test("Neither PIPEWIRE_RUNTIME_DIR nor a socket in XDG_RUNTIME_DIR: the PulseAudio server says it runs on PipeWire, and PipeWire's socket beside it plays")
        func thePulseAudioServerShowsTheWay() throws {
            try GraphServer.require()
            let dir = try scratch("xdg")
            defer { try? FileManager.default.removeItem(atPath: dir) }
            let r = try runProcess(aqplay, [chime], environment: [
                "PIPEWIRE_RUNTIME_DIR": "", "PIPEWIRE_REMOTE": "", "XDG_RUNTIME_DIR": dir, "AUDIOQUEUE_BACKEND": "", "AUDIOQUEUE_DEVICE": "",
            ])
            #expect(r.status == 0, "\(r.err)")
            #expect(r.out.contains("playing through pipewire:"), "\(r.out)")
        }

        @Test("No sound server and no ALSA device: a WAVE file plays, and the library says the pipewire backend was not available")
        func withNothingTheDefaultIsAWAVEFile() throws {
            let dir = try scratch("nothing")
            defer { try? FileManager.default.removeItem(atPath: dir) }
            let emptyConfig = dir + "/empty-alsa.conf"
            _ = FileManager.default.createFile(atPath: emptyConfig, contents: Data())
            let r = try runProcess(aqplay, [chime], environment: [
                "PIPEWIRE_RUNTIME_DIR": dir, "PULSE_SERVER": "unix:\(dir)/no-such-socket", "PULSE_RUNTIME_PATH": dir + "/no-pulse",
                "ALSA_CONFIG_PATH": emptyConfig, "TMPDIR": dir, "AUDIOQUEUE_BACKEND": "", "AUDIOQUEUE_DEVICE": "",
            ])
            #expect(r.status == 0, "\(r.err)")
            #expect(r.out.contains("playing to WAVE file \(dir)"), "\(r.out)")
            #expect(r.err.contains("pipewire: not available"), "\(r.err)")
            #expect(r.err.contains("pulse: not available"), "\(r.err)")
        }

        @Test("AUDIOQUEUE_BACKEND=pipewire chooses it; without a server that is an error, not another backend")
        func chosenByName() throws {
            try GraphServer.require()
            let played = try runProcess(aqplay, [chime], environment: ["AUDIOQUEUE_BACKEND": "pipewire", "AUDIOQUEUE_DEVICE": ""])
            #expect(played.status == 0, "\(played.err)")
            #expect(played.out.contains("playing through pipewire:"), "\(played.out)")
            let dir = try scratch("byname")
            defer { try? FileManager.default.removeItem(atPath: dir) }
            let refused = try runProcess(aqplay, [chime], environment: ["PIPEWIRE_RUNTIME_DIR": dir, "AUDIOQUEUE_BACKEND": "pipewire", "AUDIOQUEUE_DEVICE": ""])
            #expect(refused.status == 1, "\(refused.out)")
            #expect(refused.err.contains("PipeWire"), "\(refused.err)")
        }
    }
}
