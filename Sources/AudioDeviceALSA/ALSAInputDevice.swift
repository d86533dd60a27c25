public import AudioCore
public import AudioDevices
import CALSA
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An ALSA capture PCM: a sound card (`hw:0,0`, `plughw:0`), the `default` device, or any
/// PCM alsa-lib's configuration defines (`pulse`, `null`, which records silence, ...).
///
/// The PCM is set up as an ``ALSAOutputDevice`` is: interleaved, float if it takes it, else
/// 32- or 16-bit integers converted to Float32, and a refusing `hw:` PCM is reopened as
/// `plughw:`. Between ``start(sink:)`` and ``stop()`` a dedicated thread reads a period at a
/// time and hands it to the sink; an overrun is recovered from and reported as
/// `AudioDeviceEvent.overrun`.
public final class ALSAInputDevice: AudioInputDevice, @unchecked Sendable {
    public let info: AudioDeviceInfo
    /// Interleaved Float32 at the rate and channel count the device was opened with: what the
    /// sink receives, whatever the PCM's own format.
    public let format: AudioStreamBasicDescription
    /// The ALSA name that was opened: the name asked for, or its `plughw:` twin.
    public let pcmName: String
    /// The sample format the PCM was set up with.
    public let sampleFormat: ALSASampleFormat
    /// Frames read and delivered at a time at most (the PCM's period).
    public let periodFrames: Int
    /// Frames the PCM buffers (about four periods).
    public let pcmBufferFrames: Int
    /// How the device had to deviate from the name it was given, for people; nil when it did not.
    public var note: String? { info.note }

    private let pcm: OpaquePointer
    private let loop: PCMLoop
    private let channels: Int
    /// What the sink receives.
    private let scratch: UnsafeMutablePointer<Float>
    /// What the PCM delivers when it is not float (nil for float).
    private let raw: UnsafeMutableRawPointer?
    private let bytesPerFrame: Int
    private let captured = Atomic<Int64>(0)

    /// Opens ALSA PCM `name` for capture of interleaved Float32 at `sampleRate` with `channels`,
    /// delivering about `bufferFrames` frames at a time (the period: 256 to 4096 frames; the
    /// PCM buffers about four periods).
    ///
    /// - Throws: `AudioDeviceError` `.notFound` when there is no such PCM, `.openFailed` when
    ///   it exists but cannot be opened, `.formatNotSupported` when it cannot record the format
    ///   even through `plughw:`.
    public init(name: String = "default", sampleRate: Double, channels: Int, bufferFrames: Int = 1024) throws(AudioDeviceError) {
        let target = bufferFrames > 0 ? bufferFrames : 1024
        let setup = try PCMSetup.open(name: name, stream: .capture, sampleRate: sampleRate, channels: channels, periodTarget: target)
        do {
            loop = try PCMLoop(pcm: setup.pcm, threadName: "aq.alsa.in")
        } catch {
            snd_pcm_close(setup.pcm)
            throw error
        }
        pcm = setup.pcm
        pcmName = setup.openedName
        sampleFormat = setup.sampleFormat
        periodFrames = setup.periodFrames
        pcmBufferFrames = setup.bufferFrames
        self.channels = channels
        format = .deviceFloat(sampleRate: sampleRate, channels: channels)
        info = AudioDeviceInfo(
            backend: "alsa", name: name,
            description: "ALSA PCM \(setup.openedName) (\(setup.typeName), \(setup.sampleFormat))",
            direction: .input, isDefault: name == "default", note: setup.note)
        let samples = setup.periodFrames * channels
        scratch = .allocate(capacity: samples)
        scratch.initialize(repeating: 0, count: samples)
        bytesPerFrame = channels * setup.sampleFormat.bytesPerSample
        if setup.sampleFormat == .float32 {
            raw = nil
        } else {
            let bytes = UnsafeMutableRawPointer.allocate(byteCount: setup.periodFrames * bytesPerFrame, alignment: 16)
            bytes.initializeMemory(as: UInt8.self, repeating: 0, count: setup.periodFrames * bytesPerFrame)
            raw = bytes
        }
    }

    deinit {
        loop.tearDown()
        scratch.deallocate()
        raw?.deallocate()
    }

    public func start(sink: any AudioCaptureSink) throws(AudioDeviceError) {
        try loop.start(uid: info.uid, prepare: { [self] pcm throws(AudioDeviceError) in
            if snd_pcm_state(pcm) != SND_PCM_STATE_PREPARED {
                _ = snd_pcm_drop(pcm)
                let status = snd_pcm_prepare(pcm)
                guard status >= 0 else { throw runtimeError(status, "cannot prepare ALSA PCM \(pcmName)") }
            }
            let status = snd_pcm_start(pcm)
            guard status >= 0 else { throw runtimeError(status, "cannot start ALSA PCM \(pcmName)") }
        }, body: { [self] in
            run(sink: sink)
        })
    }

    /// Stops recording (what the PCM holds is dropped); returns when the I/O thread no longer
    /// calls the sink.
    public func stop(drain: Bool) {
        loop.stop { pcm in
            _ = snd_pcm_drop(pcm)
            _ = snd_pcm_prepare(pcm)
        }
    }

    public var framesCaptured: Int64 { captured.load(ordering: .acquiring) }

    /// Stops and closes the PCM. Calling it again does nothing.
    public func close() {
        loop.close { pcm in _ = snd_pcm_drop(pcm) }
    }

    // MARK: - The I/O thread

    private func run(sink: any AudioCaptureSink) {
        let period = periodFrames
        let destination = raw ?? UnsafeMutableRawPointer(scratch)
        let milliseconds = Double(period) / format.sampleRate * 1000
        let timeout = Int32(min(max(milliseconds.rounded(.up), 5), 500))
        var first = true
        while !loop.shouldStop {
            let result = snd_pcm_readi(pcm, destination, snd_pcm_uframes_t(period))
            if result > 0 {
                let n = min(result, period)
                if let raw { SampleConversion.decode(raw, count: n * channels, format: sampleFormat, into: scratch) }
                if first {
                    first = false
                    sink.device(self, didReport: .started(hostTime: HostTime.now()))
                }
                if loop.shouldStop { return }
                sink.capture(scratch, frameCount: n, hostTime: HostTime.now())
                captured.add(Int64(n), ordering: .releasing)
                continue
            }
            if result == 0 {
                loop.waiter.wait(timeoutMilliseconds: timeout)
                continue
            }
            let code = Int32(truncatingIfNeeded: result)
            switch -code {
            case EAGAIN:
                loop.waiter.wait(timeoutMilliseconds: timeout)
            case EINTR:
                continue
            case EPIPE, ESTRPIPE:
                let recovered = snd_pcm_recover(pcm, code, 1)
                guard recovered >= 0 else {
                    sink.device(self, didReport: .failed(runtimeError(recovered, "ALSA PCM \(pcmName) did not recover from an overrun")))
                    return
                }
                _ = snd_pcm_start(pcm)
                sink.device(self, didReport: .overrun)
            default:
                sink.device(self, didReport: .failed(runtimeError(code, "reading from ALSA PCM \(pcmName)")))
                return
            }
        }
    }
}
