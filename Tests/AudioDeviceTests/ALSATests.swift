import AudioCore
import AudioDevices
@testable import AudioDeviceALSA
import AudioTestSupport
import Locking
import Synchronization
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Renders a known ramp of `totalFrames` frames, then fewer frames than asked to end the
/// stream (or never ends when `totalFrames` is nil), and records what the device reports.
private final class RampSource: AudioRenderSource, @unchecked Sendable {
    struct State {
        var position = 0
        var calls = 0
        var events: [String] = []
        /// Set by the test while the device must not call: after pause or stop returns.
        var halted = false
        var callsWhileHalted = 0
    }

    let channels: Int
    let totalFrames: Int?
    let state = Guarded(State())
    /// Called on the device's I/O thread after an event is recorded.
    let onEvent: (@Sendable (any AudioOutputDevice, String) -> Void)?

    init(channels: Int, totalFrames: Int?, onEvent: (@Sendable (any AudioOutputDevice, String) -> Void)? = nil) {
        self.channels = channels
        self.totalFrames = totalFrames
        self.onEvent = onEvent
    }

    /// Sample `channel` of frame `frame`: distinct per frame and channel, inside -1...1.
    static func sample(frame: Int, channel: Int) -> Float {
        let value = Float(frame % 4000) / 4000 - 0.5
        return channel == 0 ? value : -value / Float(channel + 1)
    }

    func render(into buffer: UnsafeMutablePointer<Float>, frameCount: Int) -> Int {
        state.withLock { s in
            s.calls += 1
            if s.halted { s.callsWhileHalted += 1 }
            let n = totalFrames.map { min(frameCount, $0 - s.position) } ?? frameCount
            for f in 0..<n {
                for c in 0..<channels { buffer[f * channels + c] = Self.sample(frame: s.position + f, channel: c) }
            }
            s.position += n
            return n
        }
    }

    func device(_ device: any AudioOutputDevice, didReport event: AudioDeviceEvent) {
        let text = eventName(event)
        state.withLock { $0.events.append(text) }
        onEvent?(device, text)
    }

    var events: [String] { state.withLock { $0.events } }
    var calls: Int { state.withLock { $0.calls } }
    /// From now until ``resume()`` a call is a fault, counted in ``callsWhileHalted``.
    func halt() { state.withLock { $0.halted = true } }
    func resume() { state.withLock { $0.halted = false } }
    var callsWhileHalted: Int { state.withLock { $0.callsWhileHalted } }

    /// The whole ramp as the device should have played it.
    static func expected(frames: Int, channels: Int) -> [Float] {
        (0..<frames).flatMap { f in (0..<channels).map { c in sample(frame: f, channel: c) } }
    }
}

/// Records what a capture device delivers.
private final class RecordingSink: AudioCaptureSink, @unchecked Sendable {
    struct State {
        var frames = 0
        var nonZero = 0
        var events: [String] = []
        /// Set by the test once stop has returned; a capture after it is a fault.
        var halted = false
        var callsWhileHalted = 0
    }

    let channels: Int
    let state = Guarded(State())

    init(channels: Int) { self.channels = channels }

    func capture(_ samples: UnsafePointer<Float>, frameCount: Int, hostTime: UInt64) {
        state.withLock { s in
            if s.halted { s.callsWhileHalted += 1 }
            s.frames += frameCount
            for i in 0..<(frameCount * channels) where samples[i] != 0 { s.nonZero += 1 }
        }
    }

    func device(_ device: any AudioInputDevice, didReport event: AudioDeviceEvent) {
        let text = eventName(event)
        state.withLock { $0.events.append(text) }
    }
}

private func temporaryPath(_ label: String) -> String {
    let dir = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
    return "\(dir)/alsa-test-\(getpid())-\(label)-\(UInt32.random(in: 0...UInt32.max)).raw"
}

private func readFile(_ path: String) -> [UInt8] {
    guard let file = fopen(path, "rb") else { return [] }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = fread(&chunk, 1, chunk.count, file)
        if n == 0 { break }
        bytes.append(contentsOf: chunk[0..<n])
    }
    return bytes
}

private func bytes(of samples: [Float]) -> [UInt8] {
    samples.withUnsafeBytes { Array($0) }
}

@Suite("ALSA backend")
struct ALSATests {
    static let sampleRate = 48000.0
    static let channels = 2

    /// Plays the ramp through a `file` PCM, which writes exactly the frames it is given.
    @Test func playsTheRenderedSamplesIntoAFilePCM() throws {
        let path = temporaryPath("play")
        defer { unlink(path) }
        let frames = 10_000
        let device = try ALSAOutputDevice(
            name: "file:FILE=\(path),FORMAT=raw", sampleRate: Self.sampleRate, channels: Self.channels, bufferFrames: 4096)
        defer { device.close() }
        try #require(device.sampleFormat == .float32, "the file PCM takes float, so the file holds the samples as rendered")
        #expect(device.note == nil)
        #expect(device.format == .deviceFloat(sampleRate: Self.sampleRate, channels: Self.channels))
        #expect(device.info.backend == "alsa")
        #expect(device.periodFrames == 1024)

        let source = RampSource(channels: Self.channels, totalFrames: frames)
        try device.start(source: source)
        #expect(eventually { source.events.contains("stopped(drained: true)") })
        #expect(source.events == ["started", "stopped(drained: true)"])
        #expect(device.framesRendered == Int64(frames))
        device.stop(drain: true)
        #expect(device.presentationDelay == 0)

        let written = readFile(path)
        let expected = bytes(of: RampSource.expected(frames: frames, channels: Self.channels))
        #expect(written.count == expected.count)
        #expect(written == expected)
    }

    @Test func startsAgainAfterItDrained() throws {
        let path = temporaryPath("restart")
        defer { unlink(path) }
        let frames = 3000
        let device = try ALSAOutputDevice(
            name: "file:FILE=\(path),FORMAT=raw", sampleRate: Self.sampleRate, channels: Self.channels, bufferFrames: 2048)
        try #require(device.sampleFormat == .float32)

        let first = RampSource(channels: Self.channels, totalFrames: frames)
        try device.start(source: first)
        #expect(eventually { first.events.contains("stopped(drained: true)") })

        // No stop(drain:) in between: the loop ended by itself and start joins it.
        let second = RampSource(channels: Self.channels, totalFrames: frames)
        try device.start(source: second)
        #expect(eventually { second.events.contains("stopped(drained: true)") })
        #expect(second.events == ["started", "stopped(drained: true)"])
        device.stop(drain: true)
        #expect(device.framesRendered == Int64(2 * frames))
        device.close()

        let ramp = RampSource.expected(frames: frames, channels: Self.channels)
        #expect(readFile(path) == bytes(of: ramp + ramp))
    }

    /// alsa-lib's `null` PCM (under the `file` PCM) takes everything at once; the device
    /// paces itself by the clock, as a sound card would, so playing 0.5 s takes about that
    /// long rather than no time. A pause in the middle loses nothing: the part of a period not
    /// written yet is written first when it starts again.
    @Test func aClocklessPCMIsPacedAndPausesWithoutLoss() throws {
        let path = temporaryPath("pause")
        defer { unlink(path) }
        // Two seconds: the pause after about a quarter of a second must come before the end
        // even when a busy machine keeps this thread waiting.
        let frames = 96_000
        let device = try ALSAOutputDevice(
            name: "file:FILE=\(path),FORMAT=raw", sampleRate: Self.sampleRate, channels: Self.channels, bufferFrames: 2048)
        defer { device.close() }
        try #require(device.sampleFormat == .float32)
        let source = RampSource(channels: Self.channels, totalFrames: frames)
        let began = HostTime.now()
        try device.start(source: source)
        #expect(eventually { source.calls >= 6 })
        device.pause()
        source.halt()
        #expect(source.events == ["started"])
        source.resume()
        try device.start(source: source)
        #expect(eventually { source.events.contains("stopped(drained: true)") })
        let elapsed = Double(HostTime.now() - began) / 1e9
        device.stop(drain: true)
        // A lower bound no load can break, not a timing assertion: an unpaced device would be
        // done in a few milliseconds.
        #expect(elapsed >= Double(frames) / Self.sampleRate * 0.5, "played \(frames) frames in \(elapsed) s")
        #expect(source.callsWhileHalted == 0, "the source is not called while paused")
        let expected = bytes(of: RampSource.expected(frames: frames, channels: Self.channels))
        let written = readFile(path)
        #expect(written.count == expected.count)
        #expect(written == expected)
    }

    @Test func stopWithoutDrainingEndsAnEndlessStream() throws {
        let device = try ALSAOutputDevice(name: "null", sampleRate: Self.sampleRate, channels: Self.channels, bufferFrames: 4096)
        defer { device.close() }
        let source = RampSource(channels: Self.channels, totalFrames: nil)
        try device.start(source: source)
        #expect(eventually { source.calls >= 10 })
        device.stop(drain: false)
        source.halt()
        let callsAtStop = source.calls
        #expect(source.events.first == "started")
        #expect(!source.events.contains { $0.hasPrefix("stopped") || $0.hasPrefix("failed") })
        #expect(device.framesRendered == Int64(callsAtStop * device.periodFrames))

        // And it plays again.
        let again = RampSource(channels: Self.channels, totalFrames: 5000)
        try device.start(source: again)
        #expect(eventually { again.events.contains("stopped(drained: true)") })
        device.stop(drain: true)
        // Closing joins the I/O thread: any call after stop returned has happened by now.
        device.close()
        #expect(source.callsWhileHalted == 0, "the source is not called after stop returns")
    }

    @Test func startTwiceAndUseAfterCloseAreRefused() throws {
        let device = try ALSAOutputDevice(name: "null", sampleRate: Self.sampleRate, channels: 1)
        let source = RampSource(channels: 1, totalFrames: nil)
        try device.start(source: source)
        #expect(throws: AudioDeviceError(.invalidState, "alsa:null is already running")) {
            try device.start(source: source)
        }
        device.close()
        device.close()
        #expect(device.presentationDelay == 0)
        #expect(throws: AudioDeviceError(.invalidState, "alsa:null is closed")) {
            try device.start(source: source)
        }
    }

    @Test func closingFromTheIOThreadWhenTheStreamEnds() throws {
        var device: ALSAOutputDevice? = try ALSAOutputDevice(name: "null", sampleRate: Self.sampleRate, channels: Self.channels)
        let closed = Atomic<Bool>(false)
        let source = RampSource(channels: Self.channels, totalFrames: 2500) { device, event in
            if event.hasPrefix("stopped") {
                device.stop(drain: true)
                device.close()
                closed.store(true, ordering: .releasing)
            }
        }
        try device!.start(source: source)
        #expect(eventually { closed.load(ordering: .acquiring) })
        #expect(source.events == ["started", "stopped(drained: true)"])
        #expect(throws: AudioDeviceError(.invalidState, "alsa:null is closed")) {
            try device!.start(source: source)
        }
        device!.close()
        device = nil
    }

    @Test func concurrentStopsAreSerialized() async throws {
        let device = try ALSAOutputDevice(name: "null", sampleRate: Self.sampleRate, channels: Self.channels)
        defer { device.close() }
        var sources: [RampSource] = []
        for round in 0..<20 {
            let source = RampSource(channels: Self.channels, totalFrames: nil)
            try device.start(source: source)
            #expect(eventually { source.calls >= 2 })
            await withTaskGroup(of: Void.self) { group in
                for i in 0..<4 { group.addTask { device.stop(drain: (i + round) % 2 == 0) } }
            }
            source.halt()
            #expect(device.presentationDelay == 0)
            sources.append(source)
        }
        // Closing joins the I/O thread: any call after a stop returned has happened by now.
        device.close()
        #expect(sources.allSatisfy { $0.callsWhileHalted == 0 }, "a source was called after stop returned")
    }

    @Test func aNameThatDoesNotExistIsNotFound() {
        let backend = ALSABackend()
        #expect {
            _ = try backend.makeOutput(name: "nosuchpcm", sampleRate: Self.sampleRate, channels: Self.channels, bufferFrames: 4096)
        } throws: { error in
            (error as? AudioDeviceError)?.code == .notFound
        }
        #expect {
            _ = try backend.makeInput(name: "nosuchpcm", sampleRate: Self.sampleRate, channels: Self.channels, bufferFrames: 1024)
        } throws: { error in
            (error as? AudioDeviceError)?.code == .notFound
        }
    }

    @Test func impossibleFormatsAreRefused() {
        #expect {
            _ = try ALSAOutputDevice(name: "null", sampleRate: 44100.5, channels: 2)
        } throws: { error in
            (error as? AudioDeviceError)?.code == .formatNotSupported
        }
        #expect {
            _ = try ALSAOutputDevice(name: "null", sampleRate: 48000, channels: 0)
        } throws: { error in
            (error as? AudioDeviceError)?.code == .formatNotSupported
        }
    }

    /// `default` first and marked default, both ways; alsa-lib's plug-ins that are not devices
    /// (`aplay -L` names them: `null`, `jack`, `oss`, `upmix`, …) are not listed, though they open
    /// by name; every other entry is `pulse`, `pipewire` or a card's `hw:` PCM.
    @Test func listsDefaultAndNoPlugins() throws {
        let devices = try ALSABackend().devices()
        let outputs = devices.filter { $0.direction == .output }
        #expect(outputs.first?.name == "default")
        #expect(outputs.first?.isDefault == true)
        #expect(devices.contains { $0.name == "default" && $0.direction == .input })
        #expect(devices.allSatisfy { $0.backend == "alsa" && ($0.isDefault == ($0.name == "default")) })
        #expect(devices.allSatisfy { ["default", "pulse", "pipewire"].contains($0.name) || $0.name.hasPrefix("hw:") }, "\(devices)")
        #expect(!devices.contains { $0.name == "null" })
    }

    @Test func recordsSilenceFromTheNullPCM() throws {
        let device = try ALSAInputDevice(name: "null", sampleRate: Self.sampleRate, channels: Self.channels, bufferFrames: 512)
        defer { device.close() }
        #expect(device.format == .deviceFloat(sampleRate: Self.sampleRate, channels: Self.channels))
        let sink = RecordingSink(channels: Self.channels)
        try device.start(sink: sink)
        #expect(eventually { sink.state.withLock { $0.frames } >= 4096 })
        device.stop()
        sink.state.withLock { $0.halted = true }
        let state = sink.state.withLock { $0 }
        #expect(state.events.first == "started")
        #expect(state.nonZero == 0)
        #expect(device.framesCaptured == Int64(state.frames))
        // Closing joins the I/O thread: any call after stop returned has happened by now.
        device.close()
        #expect(sink.state.withLock { $0.callsWhileHalted } == 0, "the sink is not called after stop returns")
    }

    /// The integers ALSA is given are ffmpeg's conversions of the same floats, bit for bit: noise
    /// beyond full scale and exact 16-bit ties (Tests/Fixtures/codecs/pcm-noise.*, made by
    /// Scripts/fixtures/make_codec_refs.sh).
    @Test(arguments: [(ALSASampleFormat.int16, "s16le"), (.int32, "s32le")])
    func integerConversionMatchesFFmpeg(format: ALSASampleFormat, name: String) throws {
        let floats = try Fixtures.codecBytes("pcm-noise.f32le")
        let reference = try Fixtures.codecBytes("pcm-noise.f32le.\(name)")
        let count = floats.count / 4
        var out = [UInt8](repeating: 0xA5, count: reference.count)
        floats.withUnsafeBytes { raw in
            let samples = raw.bindMemory(to: Float.self)
            out.withUnsafeMutableBytes { SampleConversion.encode(samples.baseAddress!, count: count, into: $0.baseAddress!, format: format) }
        }
        #expect(count == 2048)
        #expect(out == reference)
    }

    @Test func plughwIsTheTwinOfHw() {
        #expect(PCMSetup.plugTwin(of: "hw:0,0") == "plughw:0,0")
        #expect(PCMSetup.plugTwin(of: "hw:CARD=PCH,DEV=0") == "plughw:CARD=PCH,DEV=0")
        #expect(PCMSetup.plugTwin(of: "hw") == "plughw")
        #expect(PCMSetup.plugTwin(of: "plughw:0") == nil)
        #expect(PCMSetup.plugTwin(of: "default") == nil)
    }

    /// Ties go to even (ffmpeg's `lrintf`), beyond full scale clips, NaN is silence.
    @Test func integerConversionRoundsAndClips() {
        let input: [Float] = [0, 0.5, -0.5, 1, -1, 2, -2, 1.0 / 65536, -1.0 / 65536, .nan, 3.0 / 65536, -3.0 / 65536, 0x1p-32, 0x1.8p-31]
        var s16 = [Int16](repeating: 7, count: input.count)
        s16.withUnsafeMutableBytes { out in
            SampleConversion.encode(input, count: input.count, into: out.baseAddress!, format: .int16)
        }
        #expect(s16 == [0, 16384, -16384, 32767, -32768, 32767, -32768, 0, 0, 0, 2, -2, 0, 0])
        var s32 = [Int32](repeating: 7, count: input.count)
        s32.withUnsafeMutableBytes { out in
            SampleConversion.encode(input, count: input.count, into: out.baseAddress!, format: .int32)
        }
        #expect(s32 == [0, 1 << 30, -(1 << 30), .max, .min, .max, .min, 32768, -32768, 0, 98304, -98304, 0, 2])

        var back = [Float](repeating: 9, count: 3)
        [Int16(16384), -32768, 32767].withUnsafeBytes { raw in
            SampleConversion.decode(raw.baseAddress!, count: 3, format: .int16, into: &back)
        }
        #expect(back == [0.5, -1, 32767.0 / 32768])
        [Int32(1 << 30), .min, 0].withUnsafeBytes { raw in
            SampleConversion.decode(raw.baseAddress!, count: 3, format: .int32, into: &back)
        }
        #expect(back == [0.5, -1, 0])
    }
}

// Plays into the shared server's default sink, so it runs inside SharedServer, alone.
extension SharedServer {
    @Suite("ALSA backend through PulseAudio")
    struct ALSAPulseTests {
        /// Through alsa-lib's `pulse` PCM, when the test harness runs a private PulseAudio server.
        @Test func playsThroughThePulsePCM() throws {
            let device = try ALSAOutputDevice(name: "pulse", sampleRate: ALSATests.sampleRate, channels: ALSATests.channels, bufferFrames: 4096)
            defer { device.close() }
            let frames = 4800
            let source = RampSource(channels: ALSATests.channels, totalFrames: frames)
            try device.start(source: source)
            #expect(eventually { source.events.contains("stopped(drained: true)") })
            #expect(source.events.first == "started")
            #expect(source.events.last == "stopped(drained: true)")
            #expect(device.framesRendered == Int64(frames))
        }
    }
}
