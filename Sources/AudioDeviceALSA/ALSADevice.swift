public import AudioCore
public import AudioDevices
import CALSA
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An ALSA PCM opened for one direction: what ``ALSAOutputDevice`` and ``ALSAInputDevice``
/// share.
///
/// The PCM is set up for interleaved samples at the rate and channel count asked for, in 32-bit
/// float if it takes that, else 32-bit and then 16-bit integers, which the device converts to
/// and from. A `hw:` PCM that refuses the rate, channel count or every format is reopened as its
/// `plughw:` twin so that alsa-lib converts; ``note`` says so. Each device has an I/O thread of
/// its own between start and stop, the only thread that uses the PCM while it runs.
public class ALSADevice: @unchecked Sendable {
    /// Which device this is: backend `alsa`, the name it was opened by, the PCM's type and sample
    /// format in the description.
    public let info: AudioDeviceInfo
    /// Interleaved Float32 at the rate and channel count the device was opened with: what its
    /// source renders or its sink receives, whatever the PCM's own format.
    public let format: AudioStreamBasicDescription
    /// The ALSA name that was opened: the name asked for, or its `plughw:` twin.
    public let pcmName: String
    /// The sample format the PCM was set up with.
    public let sampleFormat: ALSASampleFormat
    /// Frames rendered and written, or read and delivered, at a time (the PCM's period).
    public let periodFrames: Int
    /// Frames the PCM buffers (about four periods).
    public let pcmBufferFrames: Int
    /// How the device had to deviate from the name it was given, for people (for example
    /// "hw:0,0 cannot play 44100 Hz; using plughw:0,0 (alsa-lib converts)"); nil when it did not.
    public var note: String? { info.note }

    let pcm: OpaquePointer
    let loop: PCMLoop
    /// The PCM can hold its buffer across a pause (`snd_pcm_pause`).
    let canPause: Bool
    let channels: Int
    /// Bytes of a frame in the PCM's format.
    let bytesPerFrame: Int
    /// A period of Float32: what a source renders into, what a sink receives.
    let scratch: UnsafeMutablePointer<Float>
    /// A period in the PCM's format, when that is not float (nil for float).
    let converted: UnsafeMutableRawPointer?

    // Used by one thread at a time: the I/O thread while it runs, else a start, stop or pause
    // (under the loop's lock, after the I/O thread has been joined).
    /// The PCM has no clock of its own (alsa-lib's `null`, a `file` PCM over it): it takes
    /// whatever is written, or gives whatever is asked for, at once. The I/O thread then paces
    /// itself by the monotonic clock, as a sound card would. Found out on the first transfer.
    nonisolated(unsafe) var clockless: Bool?
    /// For a clockless PCM: when pacing began, and frames transferred since.
    nonisolated(unsafe) var paceOrigin: UInt64 = 0
    nonisolated(unsafe) var pacedFrames: Int64 = 0

    /// Opens and sets up PCM `name` (see ``PCMSetup/open(name:stream:sampleRate:channels:periodTarget:)``)
    /// with a loop whose thread is called `threadName`.
    init(
        name: String, stream: PCMStream, sampleRate: Double, channels: Int, periodTarget: Int, threadName: String
    ) throws(AudioDeviceError) {
        let setup = try PCMSetup.open(name: name, stream: stream, sampleRate: sampleRate, channels: channels, periodTarget: periodTarget)
        do {
            loop = try PCMLoop(pcm: setup.pcm, threadName: threadName)
        } catch {
            snd_pcm_close(setup.pcm)
            throw error
        }
        pcm = setup.pcm
        pcmName = setup.openedName
        sampleFormat = setup.sampleFormat
        periodFrames = setup.periodFrames
        pcmBufferFrames = setup.bufferFrames
        canPause = setup.canPause
        self.channels = channels
        format = .deviceFloat(sampleRate: sampleRate, channels: channels)
        info = AudioDeviceInfo(
            backend: "alsa", name: name,
            description: "ALSA PCM \(setup.openedName) (\(setup.typeName), \(setup.sampleFormat))",
            direction: stream == .playback ? .output : .input, isDefault: name == "default", note: setup.note)
        let samples = setup.periodFrames * channels
        scratch = .allocate(capacity: samples)
        scratch.initialize(repeating: 0, count: samples)
        bytesPerFrame = channels * setup.sampleFormat.bytesPerSample
        if setup.sampleFormat == .float32 {
            converted = nil
        } else {
            let bytes = UnsafeMutableRawPointer.allocate(byteCount: setup.periodFrames * bytesPerFrame, alignment: 16)
            bytes.initializeMemory(as: UInt8.self, repeating: 0, count: setup.periodFrames * bytesPerFrame)
            converted = bytes
        }
    }

    deinit {
        loop.tearDown()
        scratch.deallocate()
        converted?.deallocate()
    }

    /// The period as the PCM reads or writes it: ``converted``, or ``scratch`` for float.
    var pcmData: UnsafeMutableRawPointer { converted ?? UnsafeMutableRawPointer(scratch) }

    /// Makes the PCM ready to start afresh (dropping what it holds) unless it is already.
    func prepare() throws(AudioDeviceError) {
        guard snd_pcm_state(pcm) != SND_PCM_STATE_PREPARED else { return }
        _ = snd_pcm_drop(pcm)
        let status = snd_pcm_prepare(pcm)
        guard status >= 0 else { throw runtimeError(status, "cannot prepare ALSA PCM \(pcmName)") }
    }

    /// How long a wait for the PCM may last before the transfer is tried again: a period,
    /// within 5 and 500 ms.
    var waitTimeout: Int32 {
        let milliseconds = Double(periodFrames) / format.sampleRate * 1000
        return Int32(min(max(milliseconds.rounded(.up), 5), 500))
    }

    /// True when the PCM took what was just written without queueing any of it, or has a whole
    /// buffer to read right after a read: it has no clock (a real device holds written frames
    /// until it plays them, and records frames no faster than the sample rate).
    func hasNoClock() -> Bool {
        var delay: snd_pcm_sframes_t = 0
        guard snd_pcm_delay(pcm, &delay) >= 0, delay <= 0 else { return false }
        return snd_pcm_avail(pcm) >= pcmBufferFrames
    }

    /// For a clockless PCM: counts `frames` more transferred, starting the clock with the first.
    func countPaced(_ frames: Int) {
        if pacedFrames == 0 { paceOrigin = HostTime.now() }
        pacedFrames += Int64(frames)
    }

    /// For a clockless PCM: the host time at which frame `frames` since pacing began is due.
    func pacedHostTime(of frames: Int64) -> UInt64 {
        paceOrigin &+ UInt64(max(0, Double(frames) / format.sampleRate * 1e9))
    }

    /// For a clockless PCM: waits until `frames` frames since pacing began are due at the
    /// sample rate, waking for a stop every 20 ms.
    func pace(until frames: Int64) {
        let due = pacedHostTime(of: frames)
        while !loop.shouldStop {
            let now = HostTime.now()
            guard now < due else { return }
            HostTime.sleep(until: min(due, now + 20_000_000))
        }
    }

    /// What the I/O thread does after a transfer (`snd_pcm_readi` / `snd_pcm_writei`) failed.
    enum Failure {
        /// Interrupted: try again at once.
        case retry
        /// Not ready: waited for the PCM (or a stop) for up to ``waitTimeout``.
        case waited
        /// An xrun, recovered from: report it and go on.
        case xrun
        /// The device cannot go on.
        case fatal(AudioDeviceError)
    }

    /// Handles the error `code` a transfer returned (on the I/O thread): waits when the PCM is
    /// not ready, recovers from an xrun (`snd_pcm_recover`), and otherwise says why it failed;
    /// `transfer` names the call ("reading from", "writing to").
    func handle(_ code: Int32, transfer: String) -> Failure {
        switch -code {
        case EAGAIN:
            loop.waiter.wait(timeoutMilliseconds: waitTimeout)
            return .waited
        case EINTR:
            return .retry
        case EPIPE, ESTRPIPE:
            let recovered = snd_pcm_recover(pcm, code, 1)
            guard recovered >= 0 else {
                let xrun = info.direction == .input ? "an overrun" : "an xrun"
                return .fatal(runtimeError(recovered, "ALSA PCM \(pcmName) did not recover from \(xrun)"))
            }
            return .xrun
        default:
            return .fatal(runtimeError(code, "\(transfer) ALSA PCM \(pcmName)"))
        }
    }
}
