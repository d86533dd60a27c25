public import AudioCore
import Locking
import Synchronization

/// An input device that records silence at the sample rate, a period at a time: the null
/// backend's input, for tests and for machines with nothing to record from (as alsa-lib's
/// `null` PCM records silence).
public final class NullInputDevice: AudioInputDevice, @unchecked Sendable {
    public let info: AudioDeviceInfo
    public let format: AudioStreamBasicDescription
    private let periodFrames: Int
    private let channels: Int
    private let zeros: UnsafeMutablePointer<Float>
    private let captured = Atomic<Int64>(0)
    private let running = Atomic<Bool>(false)
    private let thread = Guarded<IOThread?>(nil)

    /// A null input for interleaved Float32 at `sampleRate` with `channels`, delivering
    /// `periodFrames` at a time.
    public init(sampleRate: Double, channels: Int, periodFrames: Int = 480) throws(AudioDeviceError) {
        guard sampleRate >= 1, sampleRate.isFinite, channels > 0, channels <= 64 else {
            throw AudioDeviceError(.formatNotSupported, "the null device cannot record \(channels) channels at \(sampleRate) Hz")
        }
        info = AudioDeviceInfo(backend: "null", name: "null", description: "Records silence", direction: .input, isDefault: true)
        format = .deviceFloat(sampleRate: sampleRate, channels: channels)
        self.periodFrames = max(16, periodFrames)
        self.channels = channels
        zeros = .allocate(capacity: self.periodFrames * channels)
        zeros.initialize(repeating: 0, count: self.periodFrames * channels)
    }

    deinit {
        stop(drain: false)
        zeros.deallocate()
    }

    public func start(sink: any AudioCaptureSink) throws(AudioDeviceError) {
        try thread.withLock { t throws(AudioDeviceError) in
            guard t == nil else { throw AudioDeviceError(.invalidState, "\(info.uid) is already recording") }
            running.store(true, ordering: .releasing)
            let period = periodFrames, rate = format.sampleRate
            nonisolated(unsafe) let zeros = self.zeros
            t = try IOThread(name: "aq.null.in", priority: .deviceIO) { [self] in
                let origin = HostTime.now()
                var periods: UInt64 = 0
                while running.load(ordering: .acquiring) {
                    // A period is delivered once it has been "recorded".
                    let recordedAt = origin + UInt64(Double(periods) * Double(period) / rate * 1e9)
                    periods += 1
                    HostTime.sleep(until: origin + UInt64(Double(periods) * Double(period) / rate * 1e9))
                    guard running.load(ordering: .acquiring) else { return }
                    sink.capture(zeros, frameCount: period, hostTime: recordedAt)
                    captured.add(Int64(period), ordering: .releasing)
                    if periods == 1 { sink.device(self, didReport: .started(hostTime: HostTime.now())) }
                }
            }
        }
    }

    /// Stops recording; what a real device would still hold is nothing here.
    public func stop(drain: Bool) {
        running.store(false, ordering: .releasing)
        thread.endThread()
    }

    public var framesCaptured: Int64 { captured.load(ordering: .acquiring) }

    public func close() { stop(drain: false) }
}
