import AudioCore
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
/// The PCM is set up as ``ALSADevice`` says; integer samples are converted to Float32. Between ``start(sink:)`` and ``stop()`` a dedicated thread reads a period at a
/// time and hands it to the sink; an overrun is recovered from and reported as
/// `AudioDeviceEvent.overrun`.
public final class ALSAInputDevice: ALSADevice, AudioInputDevice, @unchecked Sendable {
    private let captured = Atomic<Int64>(0)

    /// Opens ALSA PCM `name` for capture of interleaved Float32 at `sampleRate` with `channels`,
    /// delivering about `bufferFrames` frames at a time (the period: 256 to 4096 frames; the
    /// PCM buffers about four periods).
    ///
    /// - Throws: `AudioDeviceError` `.notFound` when there is no such PCM, `.openFailed` when
    ///   it exists but cannot be opened, `.formatNotSupported` when it cannot record the format
    ///   even through `plughw:`.
    public init(name: String = "default", sampleRate: Double, channels: Int, bufferFrames: Int = 1024) throws(AudioDeviceError) {
        try super.init(
            name: name, stream: .capture, sampleRate: sampleRate, channels: channels,
            periodTarget: bufferFrames > 0 ? bufferFrames : 1024, threadName: "aq.alsa.in")
    }

    public func start(sink: any AudioCaptureSink) throws(AudioDeviceError) {
        try loop.start(uid: info.uid, prepare: { [self] pcm throws(AudioDeviceError) in
            try prepare()
            let status = snd_pcm_start(pcm)
            guard status >= 0 else { throw runtimeError(status, "cannot start ALSA PCM \(pcmName)") }
        }, body: { [self] in
            run(sink: sink)
        })
    }

    /// Stops recording (what the PCM holds is dropped); returns when the I/O thread no longer
    /// calls the sink.
    public func stop() {
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
        let scratch = scratch
        var first = true
        while !loop.shouldStop {
            let result = snd_pcm_readi(pcm, pcmData, snd_pcm_uframes_t(period))
            if result > 0 {
                let n = min(result, period)
                if let raw = converted { SampleConversion.decode(raw, count: n * channels, format: sampleFormat, into: scratch) }
                if first {
                    first = false
                    sink.device(self, didReport: .started(hostTime: HostTime.now()))
                }
                if loop.shouldStop { return }
                sink.capture(scratch, frameCount: n)
                captured.add(Int64(n), ordering: .releasing)
                continue
            }
            if result == 0 {
                loop.waiter.wait(timeoutMilliseconds: waitTimeout)
                continue
            }
            switch handle(Int32(truncatingIfNeeded: result), transfer: "reading from") {
            case .retry, .waited:
                continue
            case .xrun:
                _ = snd_pcm_start(pcm)
                sink.device(self, didReport: .overrun)
            case .fatal(let error):
                sink.device(self, didReport: .failed(error))
                return
            }
        }
    }
}
