public import AudioCore
public import AudioDevices
import Locking
import Foundation

/// A capture device for tests of the input queue's seam: it records a ramp whose every sample
/// says which frame and channel it is (``TestInputDevice/value(frame:channel:)``), exactly
/// representable in Float32, with host times on a clock of its own. Frames are delivered when
/// the test pushes them (``push(frames:)``), so that a test decides exactly when the queue
/// gets what.
public final class TestInputDevice: AudioInputDevice, @unchecked Sendable {
    public let info = AudioDeviceInfo(backend: "test", name: "ramp", description: "A ramp for tests", direction: .input)
    public let format: AudioStreamBasicDescription
    private let state = Guarded<(sink: (any AudioCaptureSink)?, next: Int64, starts: Int, stops: [Bool])>((nil, 0, 0, []))
    /// The host time of frame 0.
    public let origin: UInt64 = 1_000_000_000_000

    /// What the device records for each frame and channel: the ramp unless given.
    private let signal: @Sendable (Int64, Int) -> Float

    public init(sampleRate: Double, channels: Int, signal: (@Sendable (_ frame: Int64, _ channel: Int) -> Float)? = nil) {
        format = .deviceFloat(sampleRate: sampleRate, channels: channels)
        self.signal = signal ?? { Self.value(frame: $0, channel: $1) }
    }

    /// Something like music: three tones and their overtones in each channel, a tremolo, and
    /// a little noise (deterministic), peaking below 0.8.
    public static func musicLike(sampleRate: Double) -> @Sendable (Int64, Int) -> Float {
        { frame, channel in
            let t = Double(frame) / sampleRate
            let base = [220.0, 277.18, 329.63].map { $0 * (channel == 0 ? 1 : 1.5) }
            var x = 0.0
            for (i, f) in base.enumerated() {
                let envelope = 0.6 + 0.4 * sin(2 * Double.pi * (0.5 + Double(i) * 0.3) * t)
                x += envelope * (0.18 * sin(2 * Double.pi * f * t) + 0.06 * sin(2 * Double.pi * 2 * f * t + 0.3))
            }
            var seed = UInt64(bitPattern: frame &* 2_862_933_555_777_941_757 &+ Int64(channel) &* 3_037_000_493)
            seed ^= seed >> 29
            let noise = Double(Int64(bitPattern: seed) % 1000) / 1000 * 0.01
            return Float(x + noise)
        }
    }

    /// The sample the device records for `frame` on `channel`: distinct for every frame below
    /// 4,000,000 and channel below 8, never 0, within ±0.5.
    public static func value(frame: Int64, channel: Int) -> Float {
        let n = Int((frame % 4_000_000) * 8) + channel + 1
        return (channel & 1 == 0 ? 1 : -1) * Float(n) / 67_108_864
    }

    /// The host time at which `frame` was recorded.
    public func hostTime(ofFrame frame: Int64) -> UInt64 {
        origin + UInt64(Double(frame) / format.sampleRate * 1e9)
    }

    public func start(sink: any AudioCaptureSink) throws(AudioDeviceError) {
        state.withLock {
            $0.sink = sink
            $0.starts += 1
        }
        sink.device(self, didReport: .started(hostTime: HostTime.now()))
    }

    /// Frames recorded but still held by the device, delivered by a draining stop.
    private let held = Guarded(0)

    /// Records `frames` frames that the device keeps until `stop(drain: true)` delivers them
    /// (what a sound server still holds when a program stops).
    public func holdUntilDrained(frames: Int) {
        held.withLock { $0 += frames }
    }

    public func stop(drain: Bool) {
        let pending = held.withLock { h -> Int in
            defer { h = 0 }
            return h
        }
        if drain && pending > 0 { push(frames: pending) }
        state.withLock {
            $0.sink = nil
            $0.stops.append(drain)
        }
    }

    /// How the device was stopped, in order (`true`: asked to deliver what it holds).
    public var stops: [Bool] { state.withLock { $0.stops } }
    public var starts: Int { state.withLock { $0.starts } }

    public var framesCaptured: Int64 { state.withLock { $0.next } }

    public func close() { stop(drain: false) }

    /// Records `frames` more frames of the ramp, in blocks of `block`; returns false when the
    /// device is not started (nothing is recorded then).
    @discardableResult
    public func push(frames: Int, block: Int = 480) -> Bool {
        let channels = Int(format.channelsPerFrame)
        var samples = [Float](repeating: 0, count: block * channels)
        var done = 0
        while done < frames {
            let n = min(block, frames - done)
            guard let (sink, first) = state.withLock({ s -> ((any AudioCaptureSink), Int64)? in
                guard let sink = s.sink else { return nil }
                defer { s.next += Int64(n) }
                return (sink, s.next)
            }) else { return false }
            for f in 0..<n {
                for c in 0..<channels { samples[f * channels + c] = signal(first + Int64(f), c) }
            }
            samples.withUnsafeBufferPointer { sink.capture($0.baseAddress!, frameCount: n, hostTime: hostTime(ofFrame: first)) }
            done += n
        }
        return true
    }

    /// Skips `frames` frames of the ramp without recording them (a device that lost them).
    public func skip(frames: Int) {
        state.withLock { $0.next += Int64(frames) }
    }
}
