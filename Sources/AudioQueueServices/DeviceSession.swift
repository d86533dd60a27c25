import AudioDevices
import Locking

/// A queue's hold on its device (output or input), kept behind the queue's state lock.
///
/// The device's own transitions — start, pause, stop, close — are slow (a sound server may take
/// seconds to answer; an ALSA stop joins its thread), so they never run with the state lock
/// held: a queue makes them holding its ``DeviceTransitions`` lock (an immediate stop, a
/// failure and the end of an asynchronous output stop also hold the pipeline lock, so that
/// the pipeline empties in the same step), and records the outcome here. ``generation`` changes with every start, pause and stop, so that a start
/// scheduled for later can tell whether it is still wanted.
struct DeviceSession<Device> {
    enum Status: Equatable {
        /// Not started (or stopped).
        case idle
        /// Playing or recording.
        case running
        /// Paused, holding what it had not played yet (output).
        case paused
    }

    /// The device, once chosen or opened.
    var device: Device?
    /// The queue opened the device itself, and so closes it; a device the program supplied
    /// is only stopped.
    var owned = false
    /// The UID asked for (`kAudioQueueProperty_CurrentDevice`); nil for the default.
    var requestedUID: String?
    /// The channel assignments (`kAudioQueueProperty_ChannelAssignments`) for the device
    /// `requestedUID` names; nil for none. Choosing another device drops them.
    var assignments: AssignedChannels?
    /// Why the device stopped working; a start fails until another device is chosen.
    var failure: AudioDeviceError?
    var status = Status.idle
    var generation = 0

    /// Replaces the device; returns the old one when the queue must close it.
    mutating func replace(with device: Device?, owned: Bool, uid: String?) -> Device? {
        let old = self.owned ? self.device : nil
        self.device = device
        self.owned = owned
        if uid != requestedUID { assignments = nil }
        requestedUID = uid
        failure = nil
        status = .idle
        return old
    }

    /// Whether a device asked for by `requestedUID` is the default: none asked for, or a
    /// backend's default by name (`alsa:default`, `pulse:default`, or a bare `pulse:` or `alsa`).
    static func followsDefault(requestedUID: String?) -> Bool {
        guard let uid = requestedUID else { return true }
        return uid.hasSuffix(":default") || uid.hasSuffix(":") || !uid.contains(":")
    }

    /// The running device to replace when it fails, if the queue follows the default: one the
    /// queue opened itself as a default. With the UID it was asked by and the generation it
    /// runs in, for ``adopt(_:generation:)``.
    var followable: (device: Device, requestedUID: String?, generation: Int)? {
        guard status == .running, owned, Self.followsDefault(requestedUID: requestedUID), let device else { return nil }
        return (device, requestedUID, generation)
    }

    /// Puts `replacement` in the failed device's place if nothing changed the session since
    /// ``followable`` gave `generation`; false when the queue stopped or paused meanwhile.
    mutating func adopt(_ replacement: Device, generation: Int) -> Bool {
        guard self.generation == generation, status == .running else { return false }
        device = replacement
        return true
    }

    /// Takes the device away for disposal; returns it with whether the queue must close it.
    mutating func release() -> (Device?, Bool) {
        defer {
            device = nil
            owned = false
            status = .idle
        }
        return (device, owned)
    }
}

/// Serializes a queue's device transitions (start, pause, stop, close) without blocking the
/// state lock: held across the device's call, taken before the render and state locks, and
/// never while waiting for the callback queue (a callback may itself stop the queue).
///
/// Like ``PipelineLock``, its checked path refuses a processing tap's thread: a tap holds the
/// pipeline lock, and this lock comes before it.
final class DeviceTransitions: Sendable {
    private let lock = Guarded((), rank: .transitions)
    /// The queue's ``QueueCore/serial``.
    let serial: UInt64

    init(queue serial: UInt64) { self.serial = serial }

    /// Runs `body` with the lock held; `invalidTapContext`, without taking it, on a thread
    /// running a processing tap.
    func run<T>(_ call: StaticString = #function, _ body: () throws(AudioQueueError) -> T) throws(AudioQueueError) -> T {
        try TapThread.refuse(serial, call)
        return try lock.withLock { _ throws(AudioQueueError) -> T in try body() }
    }

    /// Runs `body` with the lock held, unchecked: only on the queue's own threads and queues
    /// (render, capture, control, callback line), which never take it inside a tap.
    func runOnQueueThread<T>(_ body: () -> T) -> T {
        TapThread.assertOutside()
        return lock.withLock { _ in body() }
    }
}
