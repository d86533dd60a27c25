import AudioToolbox
import Foundation
import ProcessSupport
import Synchronization
import Testing

/// The HAL's IOProcs (<CoreAudio/AudioHardware.h>) as a small Mac tool drives a device with
/// them (C/ioproc_player.c): a known signal played through an IOProc, recorded from a null
/// sink's monitor by parecord (PulseAudio, and PipeWire where it is installed) or read back
/// from the WAVE file device, every sample compared; an input IOProc recording a monitor while
/// paplay plays sox's noise into the sink; the IOProcs' time stamps; misuse answered with
/// Apple's codes.
@Suite("HAL IOProcs", .serialized)
struct IOProcTests {
    static let program = Result { try CPrograms.build("ioproc_player", sources: ["Tests/AudioToolboxTests/C/ioproc_player.c"]) }

    /// Apple's result codes, from their four characters.
    static let badDevice = 0x2164_6576 // '!dev'
    static let illegal = 0x6E6F_7065 // 'nope'
    static let notRunning = 0x7374_6F70 // 'stop'

    static func floats(_ data: Data) -> [Float] {
        data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }

    static func floats(atPath path: String) -> [Float] {
        floats((try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data())
    }

    /// Where `reference` begins in `recorded` (frames of `channels`), found by the first frame
    /// of the recording that is not silence: that frame and the 63 after it must be a run of
    /// the reference starting within its first `rate / 5` frames (a monitor may miss the first
    /// milliseconds of a stream). Returns the frame of the recording and of the reference.
    static func align(_ recorded: [Float], _ reference: [Float], channels: Int, rate: Int) -> (recorded: Int, reference: Int)? {
        guard let firstSample = recorded.firstIndex(where: { $0 != 0 }) else { return nil }
        let a = firstSample / channels
        let window = 64 * channels
        guard (a * channels + window) <= recorded.count else { return nil }
        let head = recorded[(a * channels)..<(a * channels + window)]
        for k in 0..<min(rate / 5, reference.count / channels - 64) where reference[(k * channels)..<(k * channels + window)].elementsEqual(head) {
            return (a, k)
        }
        return nil
    }

    /// Checks that the recording holds the reference from where they align to the reference's
    /// end, every sample equal and every frame in order. A server that missed its deadline on
    /// a loaded machine (an underrun) plays silence and then the rest of the stream, late: runs
    /// of silent frames (both channels exactly 0, which the noise signals never have) are
    /// taken out of both before the comparison, and counted.
    static func expectHolds(_ recorded: [Float], _ reference: [Float], channels: Int, rate: Int, _ label: String) {
        guard let (a, k) = align(recorded, reference, channels: channels, rate: rate) else {
            Issue.record("\(label): the signal's start is not in the recording (\(recorded.count / channels) frames)")
            return
        }
        func sounding(_ samples: ArraySlice<Float>) -> (frames: [Float], silent: Int) {
            var kept: [Float] = []
            var silent = 0
            var i = samples.startIndex
            while i + channels <= samples.endIndex {
                let frame = samples[i..<(i + channels)]
                if frame.allSatisfy({ $0 == 0 }) { silent += 1 } else { kept += frame }
                i += channels
            }
            return (kept, silent)
        }
        let want = sounding(reference[(k * channels)...])
        let got = sounding(recorded[(a * channels)...])
        #expect(want.silent == 0, "\(label): the signal has \(want.silent) silent frames")
        guard got.frames.count >= want.frames.count else {
            Issue.record("\(label): the recording holds \(got.frames.count / channels) frames of the signal's \(want.frames.count / channels)")
            return
        }
        let firstDifference = zip(got.frames, want.frames).enumerated().first { $0.element.0 != $0.element.1 }
        #expect(firstDifference == nil, "\(label): sample \(firstDifference.map { $0.offset } ?? -1) after the start differs (\(want.frames.count / channels) frames from frame \(k) of the signal; \(got.silent) silent frames in the recording)")
    }

    /// Loads a Float32 null sink of the test's own on the shared server; its module number.
    static func loadSink(_ name: String, environment: [String: String] = [:]) throws -> String {
        let load = try runProcess("/usr/bin/pactl", [
            "load-module", "module-null-sink", "sink_name=\(name)", "format=float32le", "rate=48000", "channels=2",
        ], environment: environment)
        try #require(load.status == 0, "pactl load-module: \(load.err)")
        return load.out.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Plays `frames` of the program's signal through `uid` while parecord records `sink`'s
    /// monitor; returns the recording, the reference and what the program printed.
    static func playRecorded(uid: String, sink: String, frames: Int, label: String, environment: [String: String]) throws
        -> (recorded: [Float], reference: [Float], out: String) {
        let program = try program.get()
        let base = CPrograms.scratch.appendingPathComponent("ioproc-\(label)").path
        let raw = base + ".raw", ref = base + ".ref"
        defer {
            unlink(raw)
            unlink(ref)
        }
        let recorder = Process()
        recorder.executableURL = URL(fileURLWithPath: "/usr/bin/parecord")
        recorder.arguments = [
            "--device=\(sink).monitor", "--raw", "--format=float32le", "--rate=48000", "--channels=2", "--latency-msec=20", raw,
        ]
        if !environment.isEmpty { recorder.environment = mergedEnvironment(environment) }
        try recorder.run()
        let size = { ((try? FileManager.default.attributesOfItem(atPath: raw))?[.size] as? Int) ?? 0 }
        eventually(within: 10) { size() > 0 }
        let r = try runProcess(program, ["play", uid, "\(frames)", ref], environment: environment, timeout: 60)
        let wanted = size() + 48000 / 5 * 8
        eventually(within: 10) { size() >= wanted }
        // SIGKILL: the test process may block the signals parecord ends on, and a child
        // inherits that; what it recorded is in the file already.
        kill(recorder.processIdentifier, SIGKILL)
        recorder.waitUntilExit()
        #expect(r.status == 0, "\(label): \(r.out)\(r.err)")
        return (floats(atPath: raw), floats(atPath: ref), r.out)
    }

    @Test("An IOProc's signal reaches a PulseAudio null sink's monitor sample for sample; its cycles' time stamps advance a buffer at a time",
          .enabled(if: AudioServer.runTests, Comment(rawValue: AudioServer.skipReason)))
    func pulseOutputIsBitExact() throws {
        try #require(AudioServer.available, "no PulseAudio server answers")
        let sink = "ioproc\(getpid())"
        let module = try Self.loadSink(sink)
        defer { _ = try? runProcess("/usr/bin/pactl", ["unload-module", module]) }
        let env = ["AUDIOQUEUE_BACKEND": "", "AUDIOQUEUE_DEVICE": ""]
        let (recorded, reference, out) = try Self.playRecorded(uid: "pulse:\(sink)", sink: sink, frames: 48000, label: "pulse", environment: env)
        #expect(out.contains("rate 48000 channels 2 frames 48000\n"), "\(out)")
        #expect(out.contains("stopped\n") && out.contains("timestamps ok\n"), "\(out)")
        #expect(reference.count == 96000)
        Self.expectHolds(recorded, reference, channels: 2, rate: 48000, "pulse")
    }

    static let pipeWireInstalled = FileManager.default.isExecutableFile(atPath: "/usr/bin/pipewire")
        && FileManager.default.isExecutableFile(atPath: "/usr/bin/wireplumber")

    @Test("Through the native PipeWire backend, on a PipeWire server of the test's own: the monitor holds the IOProc's signal sample for sample",
          .enabled(if: pipeWireInstalled, "PipeWire is not installed (Scripts/test installs it)"))
    func pipeWireOutputIsBitExact() throws {
        let sink = "ioprocpw"
        try Self.withPrivatePipeWire(sink: sink, label: "ioproc") { server in
            let env = server.merging(["AUDIOQUEUE_BACKEND": "", "AUDIOQUEUE_DEVICE": ""]) { $1 }
            let (recorded, reference, out) = try Self.playRecorded(uid: "pipewire:\(sink)", sink: sink, frames: 48000, label: "pipewire", environment: env)
            #expect(out.contains("rate 48000 channels 2 frames 48000\n") && out.contains("timestamps ok\n"), "\(out)")
            Self.expectHolds(recorded, reference, channels: 2, rate: 48000, "pipewire")
        }
    }

    /// Runs `body` with a PipeWire server of the test's own (Scripts/lib/pipewire.sh), a null
    /// sink `sink` on it, and the environment that points clients at it; stops it afterwards.
    static func withPrivatePipeWire<T>(sink: String, label: String, _ body: ([String: String]) throws -> T) throws -> T {
        let directory = NSTemporaryDirectory() + "aq-pw-\(label)-\(getpid())"
        let script = CPrograms.repository.appendingPathComponent("Scripts/lib/pipewire.sh").path
        let started = try runProcess("/bin/bash", ["-c", "source '\(script)' && start_private_pipewire '\(sink)' '\(directory)'"], timeout: 60)
        defer {
            _ = try? runProcess("/bin/bash", ["-c", "AQ_PIPEWIRE_DIR='\(directory)'; source '\(script)' && stop_private_pipewire"], timeout: 60)
            try? FileManager.default.removeItem(atPath: directory)
        }
        try #require(started.status == 0, "start_private_pipewire: \(started.err)")
        return try body([
            "PIPEWIRE_RUNTIME_DIR": "\(directory)/run", "PIPEWIRE_REMOTE": "", "PULSE_RUNTIME_PATH": "\(directory)/run/pulse", "PULSE_SERVER": "",
        ])
    }

    @Test("Two IOProcs on the WAVE file device: the file holds their sum, sample for sample, from its first frame",
          arguments: [false, true])
    func fileDeviceHoldsTheSignal(mix: Bool) throws {
        let program = try Self.program.get()
        let directory = CPrograms.scratch.appendingPathComponent("ioproc-file-\(mix)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let wav = directory.appendingPathComponent("out.wav").path, ref = directory.appendingPathComponent("ref.raw").path
        let raw = directory.appendingPathComponent("out.raw").path
        let env = ["AUDIOQUEUE_BACKEND": "file", "AUDIOQUEUE_DEVICE": wav]
        let r = try runProcess(program, ["play", "default", "20000", ref] + (mix ? ["mix"] : []), environment: env, timeout: 60)
        #expect(r.status == 0, "\(r.out)\(r.err)")
        #expect(r.out.contains("rate 44100 channels 2 frames 20000\n") && r.out.contains("timestamps ok\n"), "\(r.out)")
        // ffmpeg reads the file back.
        let decoded = try runProcess("/usr/bin/ffmpeg", ["-nostdin", "-v", "error", "-y", "-i", wav, "-f", "f32le", "-c:a", "pcm_f32le", raw])
        try #require(decoded.status == 0, "ffmpeg: \(decoded.err)")
        let samples = Self.floats(atPath: raw), reference = Self.floats(atPath: ref)
        try #require(reference.count == 40000 && samples.count >= reference.count, "\(samples.count) samples in the file")
        let firstDifference = zip(samples, reference).enumerated().first { $0.element.0 != $0.element.1 }
        #expect(firstDifference == nil, "sample \(firstDifference.map { $0.offset } ?? -1) differs")
        // After the IOProc stopped itself, nothing but silence.
        #expect(samples[reference.count...].allSatisfy { $0 == 0 })
    }

    @Test("An input IOProc on a monitor records what paplay plays into the sink (sox's noise), sample for sample",
          .enabled(if: AudioServer.runTests, Comment(rawValue: AudioServer.skipReason)))
    func inputIOProcRecordsTheMonitor() throws {
        let program = try Self.program.get()
        try #require(AudioServer.available, "no PulseAudio server answers")
        let sink = "ioprocin\(getpid())"
        let module = try Self.loadSink(sink)
        defer { _ = try? runProcess("/usr/bin/pactl", ["unload-module", module]) }
        let base = CPrograms.scratch.appendingPathComponent("ioproc-input").path
        let noise = base + ".wav", ref = base + ".ref", out = base + ".raw"
        defer {
            for path in [noise, ref, out] { unlink(path) }
        }
        let sox = try runProcess("/usr/bin/sox", ["-R", "-n", "-r", "48000", "-c", "2", "-e", "floating-point", "-b", "32", noise, "synth", "1", "whitenoise", "vol", "0.5"])
        try #require(sox.status == 0, "sox: \(sox.err)")
        let decoded = try runProcess("/usr/bin/ffmpeg", ["-nostdin", "-v", "error", "-y", "-i", noise, "-f", "f32le", "-c:a", "pcm_f32le", ref])
        try #require(decoded.status == 0, "ffmpeg: \(decoded.err)")

        let recorder = Process()
        recorder.executableURL = URL(fileURLWithPath: program)
        recorder.arguments = ["record", "pulse:\(sink).monitor", "4", out]
        recorder.environment = mergedEnvironment(["AUDIOQUEUE_BACKEND": "", "AUDIOQUEUE_DEVICE": ""])
        let pipe = Pipe()
        recorder.standardOutput = pipe
        try recorder.run()
        Thread.sleep(forTimeInterval: 0.5)
        let play = try runProcess("/usr/bin/paplay", ["--device=\(sink)", noise], timeout: 20)
        #expect(play.status == 0, "paplay: \(play.err)")
        recorder.waitUntilExit()
        let printed = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(recorder.terminationStatus == 0, "\(printed)")
        #expect(printed.contains("rate 48000 channels 2\n") && printed.contains("timestamps ok\n"), "\(printed)")
        Self.expectHolds(Self.floats(atPath: out), Self.floats(atPath: ref), channels: 2, rate: 48000, "input")
    }

    @Test("Misuse: Apple's codes for a bad device, a NULL IOProc or pointer, an unknown IOProc ID, the time of a stopped device; the device runs while started, and destroying a running IOProc stops it")
    func misuse() throws {
        let program = try Self.program.get()
        let r = try runProcess(program, ["misuse", "null:null"], environment: ["AUDIOQUEUE_BACKEND": "", "AUDIOQUEUE_DEVICE": ""])
        #expect(r.status == 0, "\(r.out)\(r.err)")
        let lines = r.out.split(separator: "\n").map(String.init)
        let expected: [String] = [
            "create-bad-device \(Self.badDevice)", "create-system-object \(Self.badDevice)", "create-null-proc \(Self.illegal)",
            "create-null-out \(Self.illegal)", "start-bad-device \(Self.badDevice)", "stop-bad-device \(Self.badDevice)",
            "current-time-bad-device \(Self.badDevice)", "current-time-stopped \(Self.notRunning)", "add-null-proc \(Self.illegal)",
            "remove-unknown \(Self.illegal)", "create 0", "destroy 0", "start-unknown \(Self.illegal)", "stop-unknown \(Self.illegal)",
            "destroy-unknown \(Self.illegal)", "start-at-time-null \(Self.illegal)", "running 0",
            "start-device 0", "running 1", "current-time-running 0", "current-time-flags 7", "stop-device 0", "running 0",
            "create 0", "start 0", "running 1", "destroy-running 0", "running 0",
        ]
        #expect(lines == expected, "\(r.out)\(r.err)")
    }

    @Test("AudioDeviceStartAtTime on a running device: the IOProc's first cycle is the first cycle boundary at or after the time asked for, the time returned and AudioDeviceGetNearestStartTime's")
    func startAtTime() throws {
        let program = try Self.program.get()
        let r = try runProcess(program, ["startattime", "null:null"], environment: ["AUDIOQUEUE_BACKEND": "", "AUDIOQUEUE_DEVICE": ""], timeout: 60)
        #expect(r.status == 0 && r.out.hasPrefix("status 0\n"), "\(r.out)\(r.err)")
        let words = r.out.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)
        func value(_ name: String) -> Double? { words.firstIndex(of: name).flatMap { Double(words[$0 + 1]) } }
        let buffer = try #require(value("buffer"), "\(r.out)"), asked = try #require(value("asked"), "\(r.out)")
        let returned = try #require(value("returned"), "\(r.out)")
        #expect(returned >= asked && returned - asked < buffer && returned.truncatingRemainder(dividingBy: buffer) == 0, "\(r.out)")
        #expect(value("nearest") == returned && value("first-output") == returned, "\(r.out)")
        #expect(value("flags").map { Int($0) & 3 == 3 } == true, "\(r.out)")
    }

    @Test("Swift code written for macOS passes an IOProc of Apple's signature; the null device runs it, stamping each cycle")
    func swiftSignature() throws {
        let proc: AudioDeviceIOProc = { (
            _ device: AudioObjectID, _ now: UnsafePointer<AudioTimeStamp>, _ input: UnsafePointer<AudioBufferList>,
            _ inputTime: UnsafePointer<AudioTimeStamp>, _ output: UnsafeMutablePointer<AudioBufferList>,
            _ outputTime: UnsafePointer<AudioTimeStamp>, _ clientData: UnsafeMutableRawPointer?
        ) -> OSStatus in
            if now.pointee.mFlags.contains(.sampleTimeValid) && output.pointee.mNumberBuffers == 1 {
                clientData!.assumingMemoryBound(to: Atomic<Int>.self).pointee.add(1, ordering: .relaxed)
            }
            return noErr
        }
        var id: AudioDeviceIOProcID?
        #expect(AudioDeviceCreateIOProcID(AudioObjectID(12_345_678), proc, nil, &id) == kAudioHardwareBadDeviceError)

        var address = AudioObjectPropertyAddress(
            mSelector: kAudioHardwarePropertyTranslateUIDToDevice, mScope: kAudioObjectPropertyScopeGlobal, mElement: kAudioObjectPropertyElementMain)
        var uid: CFStringRef? = CFStringCreateWithCString(nil, "null:null", CFStringBuiltInEncodings.UTF8.rawValue)
        var device = AudioDeviceID(0)
        var size = UInt32(MemoryLayout<AudioDeviceID>.size)
        #expect(AudioObjectGetPropertyData(AudioObjectID(kAudioObjectSystemObject), &address, UInt32(MemoryLayout<CFStringRef?>.size), &uid, &size, &device) == noErr)
        CFRelease(UnsafeRawPointer(uid!))
        try #require(device != kAudioObjectUnknown)
        let cycles = UnsafeMutablePointer<Atomic<Int>>.allocate(capacity: 1)
        cycles.initialize(to: Atomic(0))
        defer { cycles.deallocate() }
        #expect(AudioDeviceCreateIOProcID(device, proc, cycles, &id) == noErr)
        let procID = try #require(id)
        #expect(AudioDeviceStart(device, procID) == noErr)
        #expect(eventually(within: 20) { cycles.pointee.load(ordering: .relaxed) > 0 })
        var time = AudioTimeStamp()
        #expect(AudioDeviceGetCurrentTime(device, &time) == noErr && time.mFlags.contains(.hostTimeValid))
        #expect(AudioDeviceStop(device, procID) == noErr)
        #expect(AudioDeviceGetCurrentTime(device, &time) == kAudioHardwareNotRunningError)
        #expect(AudioDeviceDestroyIOProcID(device, procID) == noErr)
    }
}
