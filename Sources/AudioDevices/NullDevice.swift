public import AudioCore

/// An output device that plays nothing: it takes audio from its source at the sample rate
/// (or as fast as the source renders) and discards it. The device for tests and for machines
/// with no sound at all.
///
/// It has no clock to keep: audio its source has on the way but not yet ready is waited for,
/// never replaced by silence, as the WAVE file device does, so that a queue's time on it
/// counts exactly the frames the queue rendered (see ``AudioDevicePacing``).
public final class NullDevice: AudioOutputDevice {
    public let info: AudioDeviceInfo
    public let format: AudioStreamBasicDescription
    private let loop: PacedIOLoop

    /// A null device for interleaved Float32 at `sampleRate` with `channels`, pulling
    /// `periodFrames` at a time.
    public init(sampleRate: Double, channels: Int, pacing: AudioDevicePacing = .realTime, periodFrames: Int = 1024) throws(AudioDeviceError) {
        guard sampleRate >= 1, sampleRate.isFinite, channels > 0, channels <= 64 else {
            throw AudioDeviceError(.formatNotSupported, "the null device cannot play \(channels) channels at \(sampleRate) Hz")
        }
        info = AudioDeviceInfo(backend: "null", name: "null", description: "Discards audio", isDefault: true)
        format = .deviceFloat(sampleRate: sampleRate, channels: channels)
        loop = PacedIOLoop(format: format, pacing: pacing, periodFrames: periodFrames)
    }

    public func start(source: any AudioRenderSource) throws(AudioDeviceError) {
        try loop.start(device: self, source: source, consume: { _ in }, finish: {})
    }

    public func stop(drain: Bool) { loop.stop() }

    /// Ends a wait for audio the source had on the way.
    public func sourceHasAudio() { loop.sourceHasAudio() }

    /// Always 0: what the source renders is "played" at once.
    public var presentationDelay: Int { 0 }
    public var framesRendered: Int64 { loop.framesRendered }
    /// Everything rendered is played at once: the loop's counter, an atomic.
    public var framesPlayed: Int64 { loop.framesRendered }
    public func close() { loop.stop() }

    /// How the loop consumes audio.
    var loopPacing: AudioDevicePacing { loop.pacing }

    /// What the I/O thread got from the scheduler while it runs (``ThreadScheduler``).
    package var ioThreadScheduling: ThreadScheduling? { loop.threadScheduling }
}

/// The null backend: one device, `null`, that discards audio in real time, and records
/// silence.
public struct NullBackend: AudioBackend {
    /// A null backend.
    public init() {}
    public var name: String { "null" }
    public var manufacturer: String { "swift-audio-queue (null device)" }
    public func isAvailable() -> Bool { true }
    public func devices() throws(AudioDeviceError) -> [AudioDeviceInfo] {
        [
            AudioDeviceInfo(backend: "null", name: "null", description: "Discards audio", isDefault: true),
            AudioDeviceInfo(backend: "null", name: "null", description: "Records silence", direction: .input, isDefault: true),
        ]
    }
    public func makeOutput(name: String?, sampleRate: Double, channels: Int, bufferFrames: Int) throws(AudioDeviceError) -> any AudioOutputDevice {
        guard name == nil || name == "null" || name == "default" else { throw AudioDeviceError(.notFound, "the null backend has no device \(name!)") }
        return try NullDevice(sampleRate: sampleRate, channels: channels)
    }
    public func makeInput(name: String?, sampleRate: Double, channels: Int, bufferFrames: Int) throws(AudioDeviceError) -> any AudioInputDevice {
        guard name == nil || name == "null" || name == "default" else { throw AudioDeviceError(.notFound, "the null backend has no device \(name!)") }
        return try NullInputDevice(sampleRate: sampleRate, channels: channels, periodFrames: bufferFrames)
    }
}
