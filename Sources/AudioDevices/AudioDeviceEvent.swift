/// Something that happened on a device, reported from its I/O thread to the
/// ``AudioRenderSource`` that feeds it or the ``AudioCaptureSink`` it feeds.
///
/// An event is a ``kind`` and what that kind carries: the host time of a start, the error of a
/// failure, the endpoint a device moved to. Kinds are an open set, as swift-system's `Errno`
/// is: a device may report a kind added after a program was written, so a `switch` over
/// kinds needs a `default:`, and a new kind is not a breaking change.
///
/// ```swift
/// func device(_ device: any AudioOutputDevice, didReport event: AudioDeviceEvent) {
///     switch event.kind {
///     case .started: print("playing since", event.hostTime ?? 0)
///     case .failed: print("lost:", event.error?.reason ?? "")
///     default: break
///     }
/// }
/// ```
public struct AudioDeviceEvent: Hashable, Sendable, CustomStringConvertible {
    /// What kind of thing happened: a name, with static members for the kinds devices report.
    public struct Kind: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The kind's name.
        public var rawValue: String
        /// The kind named `rawValue`, known or not.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// Output: the first frames were handed to the output. Input: the first frames were
        /// recorded. Carries ``AudioDeviceEvent/hostTime``.
        public static let started = Kind(rawValue: "started")
        /// The source ended, everything it rendered has been played, and the device has
        /// stopped. Carries ``AudioDeviceEvent/drained``.
        public static let stopped = Kind(rawValue: "stopped")
        /// The device ran dry and played silence it did not get (an xrun or server underflow).
        public static let underrun = Kind(rawValue: "underrun")
        /// A capture device lost frames because they were not taken in time (an overrun).
        public static let overrun = Kind(rawValue: "overrun")
        /// The device failed while running and has stopped. Carries ``AudioDeviceEvent/error``.
        public static let failed = Kind(rawValue: "failed")
        /// The device now plays to (or records from) another endpoint. Carries
        /// ``AudioDeviceEvent/device``.
        public static let moved = Kind(rawValue: "moved")

        /// The name.
        public var description: String { rawValue }
    }

    /// What happened.
    public var kind: Kind
    /// ``Kind/started``: when the first frame was handed to the output, or was recorded (the
    /// host time the first ``AudioCaptureSink/capture(_:frameCount:hostTime:)`` call carries),
    /// in nanoseconds of the monotonic clock. nil for other kinds.
    public var hostTime: UInt64?
    /// ``Kind/stopped``: the device played out what it had before stopping (always true: a
    /// stop requested with ``AudioOutputDevice/stop(drain:)`` is not reported, since the
    /// caller knows). false for other kinds.
    public var drained: Bool
    /// ``Kind/failed``: what went wrong. nil for other kinds.
    public var error: AudioDeviceError?
    /// ``Kind/moved``: the endpoint the device now plays to or records from, which its `info`
    /// now returns. nil for other kinds.
    public var device: AudioDeviceInfo?

    /// An event of `kind` carrying what is given.
    public init(
        _ kind: Kind, hostTime: UInt64? = nil, drained: Bool = false, error: AudioDeviceError? = nil, device: AudioDeviceInfo? = nil
    ) {
        self.kind = kind
        self.hostTime = hostTime
        self.drained = drained
        self.error = error
        self.device = device
    }

    /// Output: the first frames were handed to the output, at `hostTime` (nanoseconds,
    /// monotonic clock). Input: the first frames were recorded at `hostTime`, the host time the
    /// first ``AudioCaptureSink/capture(_:frameCount:hostTime:)`` call carries.
    public static func started(hostTime: UInt64) -> AudioDeviceEvent { AudioDeviceEvent(.started, hostTime: hostTime) }
    /// The source ended (rendered fewer frames than asked), everything it rendered has been
    /// played, and the device has stopped. `drained` is always true; a stop requested with
    /// ``AudioOutputDevice/stop(drain:)`` is not reported, since the caller knows.
    public static func stopped(drained: Bool) -> AudioDeviceEvent { AudioDeviceEvent(.stopped, drained: drained) }
    /// The device ran dry and played silence it did not get (an xrun or server underflow).
    public static let underrun = AudioDeviceEvent(.underrun)
    /// A capture device lost frames because they were not taken in time (an overrun).
    public static let overrun = AudioDeviceEvent(.overrun)
    /// The device failed while running and has stopped.
    public static func failed(_ error: AudioDeviceError) -> AudioDeviceEvent { AudioDeviceEvent(.failed, error: error) }
    /// The device now plays to (or records from) another endpoint, which `device` describes and
    /// the device's `info` now returns: a device opened on a sound server's default follows it
    /// when the default changes or the endpoint it ran on goes away, and goes on playing (or
    /// recording) there. A discontinuity.
    public static func moved(_ device: AudioDeviceInfo) -> AudioDeviceEvent { AudioDeviceEvent(.moved, device: device) }

    /// Matches an event against a kind, so a `switch` over events can name kinds:
    /// `case AudioDeviceEvent.Kind.failed:`.
    public static func ~= (kind: Kind, event: AudioDeviceEvent) -> Bool { event.kind == kind }

    /// The kind and what it carries, for logs: `started(hostTime: 12)`, `failed(no server)`,
    /// `moved(pulse:sink2)`.
    public var description: String {
        if let hostTime { return "\(kind)(hostTime: \(hostTime))" }
        if let error { return "\(kind)(\(error))" }
        if let device { return "\(kind)(\(device.uid))" }
        if kind == .stopped { return "\(kind)(drained: \(drained))" }
        return kind.description
    }
}
