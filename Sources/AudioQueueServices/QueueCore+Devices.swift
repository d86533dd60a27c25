import AudioCore
import AudioDevices
import Dispatch

/// A queue side that holds a device session: both directions' state does.
protocol DeviceSide {
    associatedtype Device
    var session: DeviceSession<Device> { get set }
}

/// How a queue type drives its kind of device (output or input): what the shared device code
/// needs to know about it.
struct DeviceDriver<Device>: Sendable {
    /// "output" or "input", for messages.
    let direction: String
    let info: @Sendable (Device) -> AudioDeviceInfo
    /// The device's own format: all its channels when channel assignments place the queue's
    /// among them (what `kAudioQueueDeviceProperty_NumberChannels` reports).
    let format: @Sendable (Device) -> AudioStreamBasicDescription
    let stop: @Sendable (Device, _ drain: Bool) -> Void
    /// Pauses the device (`AudioQueuePause`): an output device keeps what it holds; an input
    /// device stops after delivering what it recorded.
    let pause: @Sendable (Device) -> Void
    let close: @Sendable (Device) -> Void
    /// The device's clock for the queue's time: frames played (output) or captured (input).
    /// Published without locks, so it may be read under the state lock.
    let clock: @Sendable (Device) -> Int64
    /// What `AudioQueueDeviceGetCurrentTime` reports: frames rendered (output) or captured.
    let sampleTime: @Sendable (Device) -> Int64

    func uid(_ device: Device) -> String { info(device).uid }
}

extension QueueCore where Side: DeviceSide {
    /// Opens a device with `open` (the one asked for, or the default: `uid` nil), mapping the
    /// device's errors to Apple's codes; `mismatch` says why an opened device will not do (it is
    /// closed then). No lock held.
    func openDevice(
        _ driver: DeviceDriver<Side.Device>, open: (String?) throws(AudioDeviceError) -> Side.Device, mismatch: (Side.Device) -> String?
    ) throws(AudioQueueError) -> Side.Device {
        state.assertNotHeld()
        let uid = state.withLock { $0.side.session.requestedUID }
        let device: Side.Device
        do {
            device = try open(uid)
        } catch {
            throw AudioQueueError(error.code == .notFound ? .invalidDevice : .cannotStart, "no \(driver.direction) device: \(error)")
        }
        if let why = mismatch(device) {
            driver.close(device)
            throw AudioQueueError(.invalidDevice, why)
        }
        return device
    }

    /// Opens the device before a start when the queue has none yet (`needed` says, from the
    /// state); a device another thread set meanwhile wins and the one opened here is closed.
    func openDeviceIfNeeded(
        _ driver: DeviceDriver<Side.Device>, needed: (QueueState<Owner, Side>) -> Bool,
        open: () throws(AudioQueueError) -> Side.Device
    ) throws(AudioQueueError) {
        let needs = try state.withLock { s throws(AudioQueueError) -> Bool in
            try s.checkUsable()
            return s.side.session.device == nil && (s.phase.isStopped || s.phase.isPaused) && needed(s)
        }
        guard needs else { return }
        let opened = try open()
        let spare = state.withLock { s -> Side.Device? in
            guard s.side.session.device == nil else { return opened }
            _ = s.side.session.replace(with: opened, owned: true, uid: s.side.session.requestedUID)
            return nil
        }
        if let spare { driver.close(spare) }
    }

    /// Starts the device if the start of `generation` is still wanted (no pause, stop or reset
    /// since) and it is not running; `started` records what the queue needs once it runs. When
    /// it will not start, the queue goes back to `previous` (when given) and the error is thrown.
    func startDevice(
        _ driver: DeviceDriver<Side.Device>, generation: Int, restoring previous: QueuePhase?,
        start: (Side.Device) throws(AudioDeviceError) -> Void, started: (inout Side, Side.Device) -> Void
    ) throws(AudioQueueError) {
        try transitions.run { () throws(AudioQueueError) in
            let found = state.withLock { s -> (Side.Device, DeviceSession<Side.Device>.Status)? in
                guard s.side.session.generation == generation, s.phase.isActive, s.side.session.status != .running,
                      let device = s.side.session.device else { return nil }
                return (device, s.side.session.status)
            }
            guard let (device, status) = found else { return }
            do throws(AudioDeviceError) {
                try start(device)
            } catch {
                let released = state.withLock { s -> Owner? in
                    guard let previous, s.side.session.generation == generation else { return nil }
                    s.phase = previous
                    // A paused device that would not resume still holds what it had.
                    s.side.session.status = status
                    defer { s.keepAlive = nil }
                    return s.keepAlive
                }
                withExtendedLifetime(released) {}
                var failure = AudioQueueError(.cannotStart, "\(driver.uid(device)) did not start: \(error)")
                failure.deviceError = error
                throw failure
            }
            state.withLock { s in
                s.side.session.status = .running
                started(&s.side, device)
            }
        }
    }

    /// Chooses the device by UID for the next start (`kAudioQueueProperty_CurrentDevice`); only
    /// while stopped. A device the queue opened itself is closed.
    func chooseDevice(_ driver: DeviceDriver<Side.Device>, uid: String?) throws(AudioQueueError) {
        try transitions.run { () throws(AudioQueueError) in
            let old = try state.withLock { s throws(AudioQueueError) -> Side.Device? in
                try s.checkUsable()
                guard s.phase.isStopped else {
                    throw AudioQueueError(.invalidRunState, "the device can be changed only while the queue is stopped")
                }
                if let uid {
                    let backend = String(uid.split(separator: ":", maxSplits: 1).first ?? "")
                    guard AudioBackends.backend(named: backend) != nil else {
                        throw AudioQueueError(.invalidDevice, "no audio backend '\(backend)'")
                    }
                }
                return s.side.session.replace(with: nil, owned: false, uid: uid)
            }
            if let old { driver.close(old) }
        }
    }

    /// Uses `device`, which the program opened, from the next start; only while stopped, and
    /// `invalidDevice` with `mismatch`'s reason when it will not do.
    func useDevice(
        _ driver: DeviceDriver<Side.Device>, _ device: Side.Device, mismatch: String?
    ) throws(AudioQueueError) {
        try transitions.run { () throws(AudioQueueError) in
            let old = try state.withLock { s throws(AudioQueueError) -> Side.Device? in
                try s.checkUsable()
                guard s.phase.isStopped else {
                    throw AudioQueueError(.invalidRunState, "the device can be changed only while the queue is stopped")
                }
                if let mismatch { throw AudioQueueError(.invalidDevice, mismatch) }
                let old = s.side.session.replace(with: device, owned: false, uid: driver.uid(device))
                return old.map { $0 as AnyObject } === (device as AnyObject) ? nil : old
            }
            if let old { driver.close(old) }
        }
    }

    /// Schedules `start` on the control queue after `nanoseconds` (a start at a later time);
    /// the owner is held weakly.
    func startLater(after nanoseconds: UInt64, _ owner: Owner, _ start: @escaping @Sendable (Owner) -> Void) {
        controlQueue.asyncAfter(deadline: .now() + .nanoseconds(Int(min(nanoseconds, 3_600_000_000_000)))) { [weak owner] in
            guard let owner else { return }
            start(owner)
        }
    }
}

extension QueueCore {
    /// Nanoseconds until `time` — a host time, or a sample time on a device clock that now
    /// reads `deviceFrames` at `sampleRate` — or 0 for nil or a time that has passed.
    static func delay(until time: AudioTimeStamp?, sampleRate: Double, deviceFrames: () -> Int64) -> UInt64 {
        guard let time else { return 0 }
        if time.flags.contains(.hostTimeValid) {
            let now = HostTime.now()
            return time.hostTime > now ? time.hostTime - now : 0
        }
        guard time.flags.contains(.sampleTimeValid) else { return 0 }
        let ahead = (time.sampleTime - Double(deviceFrames())) / sampleRate
        return ahead > 0 ? UInt64(min(ahead, 3600) * 1e9) : 0
    }

    /// `invalidParameter` for a start time whose sample time is not finite.
    static func checkStartTime(_ time: AudioTimeStamp?) throws(AudioQueueError) {
        if let time, time.flags.contains(.sampleTimeValid), !time.flags.contains(.hostTimeValid), !time.sampleTime.isFinite {
            throw AudioQueueError(.invalidParameter, "the start time \(time.sampleTime) is not a finite sample time")
        }
    }
}
