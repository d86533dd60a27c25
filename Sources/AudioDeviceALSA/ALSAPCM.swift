import AudioCore
import AudioDevices
import CALSA
import Locking
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The sample format an ALSA PCM was set up with. Devices always take and deliver interleaved
/// Float32; with an integer format the device converts (rounding and clipping on the way out).
public enum ALSASampleFormat: Hashable, Sendable, CustomStringConvertible {
    /// 32-bit float, native byte order (`FLOAT_LE` on little-endian machines): no conversion.
    case float32
    /// 32-bit signed integer, native byte order (`S32_LE` on little-endian machines).
    case int32
    /// 16-bit signed integer, native byte order (`S16_LE` on little-endian machines).
    case int16

    /// Bytes in one sample.
    public var bytesPerSample: Int {
        switch self {
        case .float32, .int32: 4
        case .int16: 2
        }
    }

    /// The alsa-lib name of the format (`FLOAT_LE`, `S32_LE`, `S16_LE` on little-endian machines).
    public var description: String { String(cString: snd_pcm_format_name(alsaFormat)) }

    var alsaFormat: snd_pcm_format_t {
        switch self {
        case .float32: SND_PCM_FORMAT_FLOAT
        case .int32: SND_PCM_FORMAT_S32
        case .int16: SND_PCM_FORMAT_S16
        }
    }

    /// The formats tried, in order of preference.
    static let preference: [ALSASampleFormat] = [.float32, .int32, .int16]
}

/// Which way a PCM is opened.
enum PCMStream {
    case playback
    case capture

    var alsa: snd_pcm_stream_t { self == .playback ? SND_PCM_STREAM_PLAYBACK : SND_PCM_STREAM_CAPTURE }
    var verb: String { self == .playback ? "play" : "record" }
    var noun: String { self == .playback ? "playback" : "capture" }
}

/// The text of an alsa-lib error code (a negative errno).
func alsaErrorText(_ code: Int32) -> String {
    String(cString: snd_strerror(code))
}

/// Collects what alsa-lib would print to stderr while `body` runs on this thread, so that it
/// can go into an error's reason instead of the terminal.
enum ALSAMessages {
    private final class Collector {
        var lines: [String] = []
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    private static let handler: snd_local_error_handler_t = { _, _, _, _, format, arguments in
        guard let raw = pthread_getspecific(ALSAMessages.key), let format else { return }
        let collector = Unmanaged<Collector>.fromOpaque(raw).takeUnretainedValue()
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 512) { buffer in
            guard let arguments, vsnprintf(buffer.baseAddress!, buffer.count, format, arguments) >= 0 else { return }
            collector.lines.append(String(cString: buffer.baseAddress!))
        }
    }

    /// Runs `body` with alsa-lib's messages on this thread collected rather than printed; returns
    /// its result and the messages.
    static func collecting<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> (T, [String]) {
        let collector = Collector()
        let previousValue = pthread_getspecific(key)
        let raw = Unmanaged.passUnretained(collector).toOpaque()
        pthread_setspecific(key, raw)
        let previousHandler = snd_lib_error_set_local(handler)
        defer {
            snd_lib_error_set_local(previousHandler)
            pthread_setspecific(key, previousValue)
        }
        let result = try withExtendedLifetime(collector) { () throws(E) -> T in try body() }
        return (result, collector.lines)
    }
}

/// A PCM opened and set up for interleaved audio at a rate and channel count: what both device
/// classes are built on.
struct PCMSetup {
    /// The open PCM (`snd_pcm_t *`), non-blocking.
    let pcm: OpaquePointer
    /// The ALSA name that was opened (the asked-for name, or its `plughw:` twin).
    let openedName: String
    let sampleFormat: ALSASampleFormat
    let periodFrames: Int
    let bufferFrames: Int
    let note: String?
    /// alsa-lib's description of the PCM type (`HW`, `PLUG`, `NULL`, `FILE`, `IOPLUG`, ...).
    let typeName: String
    /// The PCM can pause and resume holding what it buffers (`snd_pcm_pause`).
    let canPause: Bool

    /// Opens `name` and negotiates interleaved `channels` at `sampleRate`, float if the PCM
    /// takes it, else 32- or 16-bit integers. A `hw:` PCM that refuses is reopened as `plughw:`.
    /// `periodTarget` is the period size to aim for; the buffer is about four periods, and at
    /// least a quarter of a second.
    static func open(
        name: String, stream: PCMStream, sampleRate: Double, channels: Int, periodTarget: Int
    ) throws(AudioDeviceError) -> PCMSetup {
        guard sampleRate.isFinite, sampleRate >= 1, sampleRate <= 1_536_000, channels > 0, channels <= 64 else {
            throw AudioDeviceError(
                .formatNotSupported, "ALSA PCM '\(name)' cannot \(stream.verb) \(channels) channels at \(sampleRate) Hz")
        }
        let rate = UInt32(sampleRate.rounded())
        guard Double(rate) == sampleRate else {
            throw AudioDeviceError(.formatNotSupported, "ALSA PCM '\(name)' cannot \(stream.verb) at \(sampleRate) Hz (ALSA rates are whole numbers)")
        }
        let period = min(max(periodTarget, 256), 4096)

        let pcm = try openPCM(name: name, stream: stream)
        switch negotiate(pcm: pcm, rate: rate, channels: channels, period: period) {
        case .success(let n):
            return PCMSetup(
                pcm: pcm, openedName: name, sampleFormat: n.format, periodFrames: n.period,
                bufferFrames: n.buffer, note: nil, typeName: typeName(pcm), canPause: n.canPause)
        case .failure(let refusal):
            snd_pcm_close(pcm)
            guard let plugName = plugTwin(of: name) else {
                throw AudioDeviceError(.formatNotSupported, "ALSA PCM '\(name)' cannot \(stream.verb) \(refusal.text)")
            }
            let plug = try openPCM(name: plugName, stream: stream)
            switch negotiate(pcm: plug, rate: rate, channels: channels, period: period) {
            case .success(let n):
                return PCMSetup(
                    pcm: plug, openedName: plugName, sampleFormat: n.format, periodFrames: n.period, bufferFrames: n.buffer,
                    note: "\(name) cannot \(stream.verb) \(refusal.text); using \(plugName) (alsa-lib converts)",
                    typeName: typeName(plug), canPause: n.canPause)
            case .failure(let again):
                snd_pcm_close(plug)
                throw AudioDeviceError(
                    .formatNotSupported,
                    "ALSA PCM '\(name)' cannot \(stream.verb) \(refusal.text), and '\(plugName)' cannot \(stream.verb) \(again.text)")
            }
        }
    }

    /// `plughw:…` for a `hw:…` name; nil for anything else.
    static func plugTwin(of name: String) -> String? {
        if name == "hw" { return "plughw" }
        guard name.hasPrefix("hw:") else { return nil }
        return "plug" + name
    }

    private static func typeName(_ pcm: OpaquePointer) -> String {
        guard let name = snd_pcm_type_name(snd_pcm_type(pcm)) else { return "unknown" }
        return String(cString: name)
    }

    /// Opens `name` non-blocking, mapping failures to device errors.
    static func openPCM(name: String, stream: PCMStream) throws(AudioDeviceError) -> OpaquePointer {
        var handle: OpaquePointer?
        let (status, messages) = ALSAMessages.collecting { snd_pcm_open(&handle, name, stream.alsa, SND_PCM_NONBLOCK) }
        guard status >= 0, let handle else {
            var reason = "cannot open ALSA PCM '\(name)' for \(stream.noun): \(alsaErrorText(status))"
            if let detail = messages.last(where: { !$0.isEmpty }) {
                reason += " (\(detail.trimmingTrailingNewlines()))"
            }
            switch -status {
            case ENOENT, ENODEV, ENXIO: throw AudioDeviceError(.notFound, reason)
            default: throw AudioDeviceError(.openFailed, reason)
            }
        }
        return handle
    }

    struct Negotiated {
        var format: ALSASampleFormat
        var period: Int
        var buffer: Int
        var canPause: Bool
    }

    struct Refusal: Error {
        var text: String
    }

    /// Sets hardware and software parameters; on refusal says what was refused.
    private static func negotiate(pcm: OpaquePointer, rate: UInt32, channels: Int, period: Int) -> Result<Negotiated, Refusal> {
        var hwOptional: OpaquePointer?
        guard snd_pcm_hw_params_malloc(&hwOptional) >= 0, let hw = hwOptional else {
            return .failure(Refusal(text: "(out of memory for hardware parameters)"))
        }
        defer { snd_pcm_hw_params_free(hw) }
        let (result, _) = ALSAMessages.collecting { () -> Result<Negotiated, Refusal> in
            var status = snd_pcm_hw_params_any(pcm, hw)
            guard status >= 0 else { return .failure(Refusal(text: "(no configuration: \(alsaErrorText(status)))")) }
            status = snd_pcm_hw_params_set_access(pcm, hw, SND_PCM_ACCESS_RW_INTERLEAVED)
            guard status >= 0 else { return .failure(Refusal(text: "interleaved samples")) }

            // What the PCM refuses on its own, for the message.
            var refused: [String] = []
            if snd_pcm_hw_params_test_channels(pcm, hw, UInt32(channels)) < 0 {
                refused.append(channels == 1 ? "1 channel" : "\(channels) channels")
            }
            if snd_pcm_hw_params_test_rate(pcm, hw, rate, 0) < 0 { refused.append("\(rate) Hz") }
            let formats = ALSASampleFormat.preference.filter { snd_pcm_hw_params_test_format(pcm, hw, $0.alsaFormat) >= 0 }
            if formats.isEmpty { refused.append("float, 32-bit or 16-bit samples") }
            guard refused.isEmpty else { return .failure(Refusal(text: refused.joined(separator: ", "))) }

            guard snd_pcm_hw_params_set_channels(pcm, hw, UInt32(channels)) >= 0,
                snd_pcm_hw_params_set_rate(pcm, hw, rate, 0) >= 0
            else {
                return .failure(Refusal(text: "\(rate) Hz with \(channels) channels"))
            }
            guard let format = formats.first(where: { snd_pcm_hw_params_set_format(pcm, hw, $0.alsaFormat) >= 0 }) else {
                return .failure(Refusal(text: "\(rate) Hz with \(channels) channels in float, 32-bit or 16-bit samples"))
            }

            // Sizes are wishes: a refused one leaves the configuration as it was.
            var periodSize = snd_pcm_uframes_t(period)
            var direction: Int32 = 0
            _ = snd_pcm_hw_params_set_period_size_near(pcm, hw, &periodSize, &direction)
            // Four periods, and for a PCM with a clock at least a quarter of a second: what it
            // holds plays on while this process waits for a core or for a page read back from
            // disk. (A file or null PCM plays nothing and is paced by the I/O thread.)
            let type = snd_pcm_type(pcm)
            let clockless = type == SND_PCM_TYPE_FILE || type == SND_PCM_TYPE_NULL
            var bufferSize = snd_pcm_uframes_t(clockless ? period * 4 : max(period * 4, Int(rate) / 4))
            _ = snd_pcm_hw_params_set_buffer_size_near(pcm, hw, &bufferSize)

            status = snd_pcm_hw_params(pcm, hw)
            guard status >= 0 else {
                return .failure(Refusal(text: "\(rate) Hz \(format) with \(channels) channels (\(alsaErrorText(status)))"))
            }
            var actualPeriod = snd_pcm_uframes_t(0)
            var actualBuffer = snd_pcm_uframes_t(0)
            direction = 0
            snd_pcm_hw_params_get_period_size(hw, &actualPeriod, &direction)
            snd_pcm_hw_params_get_buffer_size(hw, &actualBuffer)
            if actualPeriod == 0 { actualPeriod = snd_pcm_uframes_t(period) }
            if actualBuffer < actualPeriod { actualBuffer = actualPeriod }

            // Start as soon as one period is written; wake when a period fits.
            var swOptional: OpaquePointer?
            if snd_pcm_sw_params_malloc(&swOptional) >= 0, let sw = swOptional {
                defer { snd_pcm_sw_params_free(sw) }
                if snd_pcm_sw_params_current(pcm, sw) >= 0 {
                    _ = snd_pcm_sw_params_set_start_threshold(pcm, sw, actualPeriod)
                    _ = snd_pcm_sw_params_set_avail_min(pcm, sw, actualPeriod)
                    _ = snd_pcm_sw_params(pcm, sw)
                }
            }
            let canPause = snd_pcm_hw_params_can_pause(hw) != 0
            return .success(Negotiated(format: format, period: Int(actualPeriod), buffer: Int(actualBuffer), canPause: canPause))
        }
        return result
    }
}

extension String {
    func trimmingTrailingNewlines() -> String {
        var s = Substring(self)
        while let last = s.last, last.isNewline { s = s.dropLast() }
        return String(s)
    }
}

/// Errors a running PCM returns that mean the device went away: a sound card unplugged
/// (ENODEV), or the `pulse` plugin's EIO once the sound server killed its stream or went away.
func runtimeError(_ code: Int32, _ what: String) -> AudioDeviceError {
    let text = "\(what): \(alsaErrorText(code))"
    switch -code {
    case ENODEV, ENOTCONN, ESHUTDOWN, ECONNRESET, ENXIO, EIO: return AudioDeviceError(.disconnected, text)
    default: return AudioDeviceError(.ioFailed, text)
    }
}

/// The file descriptors the I/O thread waits on: the PCM's own and a pipe that a stop request
/// makes readable. Allocated when the device opens; waiting allocates nothing.
final class PCMWaiter: @unchecked Sendable {
    private let pcm: OpaquePointer
    private let fds: UnsafeMutablePointer<pollfd>
    private let pcmCount: Int
    private let wakeRead: Int32
    private let wakeWrite: Int32

    init(pcm: OpaquePointer) throws(AudioDeviceError) {
        self.pcm = pcm
        pcmCount = max(0, Int(snd_pcm_poll_descriptors_count(pcm)))
        var ends: (Int32, Int32) = (-1, -1)
        let status = withUnsafeMutableBytes(of: &ends) { pipe($0.baseAddress!.assumingMemoryBound(to: Int32.self)) }
        guard status == 0 else {
            throw AudioDeviceError(.openFailed, "cannot create a pipe: \(String(cString: strerror(errno)))")
        }
        for fd in [ends.0, ends.1] {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        (wakeRead, wakeWrite) = ends
        fds = .allocate(capacity: pcmCount + 1)
        fds.initialize(repeating: pollfd(), count: pcmCount + 1)
    }

    deinit {
        close(wakeRead)
        close(wakeWrite)
        fds.deallocate()
    }

    /// Makes the next waits return at once (until ``reset()``).
    func wake() {
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }

    /// Clears previous ``wake()`` calls.
    func reset() {
        var bytes: (UInt64, UInt64) = (0, 0)
        while withUnsafeMutableBytes(of: &bytes, { read(wakeRead, $0.baseAddress, $0.count) }) > 0 {}
    }

    /// Waits until the PCM is ready, ``wake()`` is called, or `timeoutMilliseconds` pass.
    func wait(timeoutMilliseconds: Int32) {
        var count = 0
        if pcmCount > 0 {
            let filled = snd_pcm_poll_descriptors(pcm, fds, UInt32(pcmCount))
            count = filled > 0 ? Int(filled) : 0
        }
        fds[count] = pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)
        let ready = poll(fds, nfds_t(count + 1), timeoutMilliseconds)
        if ready > 0 && count > 0 {
            // Lets plugins that mangle poll events (timers, sockets) consume them.
            var revents: UInt16 = 0
            _ = snd_pcm_poll_descriptors_revents(pcm, fds, UInt32(count), &revents)
        }
    }
}

/// Float32 to the PCM's integer formats and back. Nothing here allocates.
enum SampleConversion {
    /// Writes `count` samples from `source` into `destination` in `format`, rounding to the
    /// nearest integer with ties to even and clipping to the format's range (AudioCore's
    /// rounding, the one PCMConverter uses).
    static func encode(_ source: UnsafePointer<Float>, count: Int, into destination: UnsafeMutableRawPointer, format: ALSASampleFormat) {
        switch format {
        case .float32:
            destination.copyMemory(from: source, byteCount: count * 4)
        case .int32:
            convertFloatToInt32(source, count: count, into: destination.assumingMemoryBound(to: Int32.self))
        case .int16:
            convertFloatToInt16(source, count: count, into: destination.assumingMemoryBound(to: Int16.self))
        }
    }

    /// Reads `count` samples in `format` from `source` into `destination` as Float32 in -1...1.
    static func decode(_ source: UnsafeRawPointer, count: Int, format: ALSASampleFormat, into destination: UnsafeMutablePointer<Float>) {
        switch format {
        case .float32:
            UnsafeMutableRawPointer(destination).copyMemory(from: source, byteCount: count * 4)
        case .int32:
            let input = source.assumingMemoryBound(to: Int32.self)
            for i in 0..<count { destination[i] = Float(Double(input[i]) / 2_147_483_648) }
        case .int16:
            let input = source.assumingMemoryBound(to: Int16.self)
            for i in 0..<count { destination[i] = Float(input[i]) / 32768 }
        }
    }
}

/// What an output device's I/O thread last learned about playback progress, published without
/// a lock the program can hold (the package's sequence lock, `Published`: writers are the I/O
/// thread, or a start or stop while it is not running) so that ``ALSAOutputDevice/presentationDelay`` never
/// has to call into alsa-lib from another thread. Some plugins (the `pulse` PCM) lose track of
/// their position when `snd_pcm_delay` runs concurrently with `snd_pcm_writei`.
final class PlaybackClock: Sendable {
    private struct Measurement {
        var measuredAt: UInt64 = 0
        var played: Int64 = 0
        var queued: Int64 = 0
        var running = false
    }

    private let measurement = Published(Measurement())
    private let nanosecondsPerFrame: Double

    init(sampleRate: Double) {
        nanosecondsPerFrame = 1e9 / sampleRate
    }

    /// Records that `played` frames have been played, `queued` more are waiting in the PCM,
    /// and (when `running`) the PCM is playing them now.
    func publish(played: Int64, queued: Int64, running: Bool) {
        measurement.publish(Measurement(measuredAt: HostTime.now(), played: played, queued: queued, running: running))
    }

    /// Frames played by now: the last measurement plus the time since, at the sample rate,
    /// never more than were queued then.
    func playedNow() -> Int64 {
        let m = measurement.read()
        guard m.running else { return m.played }
        let now = HostTime.now()
        let elapsed = now > m.measuredAt ? Int64(Double(now - m.measuredAt) / nanosecondsPerFrame) : 0
        return m.played + min(elapsed, m.queued)
    }
}
