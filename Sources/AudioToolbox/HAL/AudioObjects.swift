import CAudioToolbox
import AudioDevices
import Locking

// The HAL's objects: the system object (kAudioObjectSystemObject), a device for every UID the
// registered backends list, and a stream object for each side (output, input) a device has.
// An object's ID is a number given out the first time its UID is seen and kept for the
// process: a device that goes away and comes back has its old ID again.

/// The system object's ID (`kAudioObjectSystemObject` is an int, as in Apple's header).
let systemObjectID = AudioObjectID(kAudioObjectSystemObject)

/// A device as the HAL shows it: one UID (`backend:name`), its output and input sides as its
/// backend lists them (ALSA's `default` has both; a PulseAudio sink only the output).
struct HALDevice: Sendable, Equatable {
    let id: AudioObjectID
    let uid: String
    let backend: String
    var output: AudioDeviceInfo?
    var input: AudioDeviceInfo?
    /// The stream object of each side.
    var outputStream: AudioObjectID
    var inputStream: AudioObjectID

    /// The description for people (the output side's, if it has one).
    var name: String { (output ?? input)?.description ?? uid }

    /// The side a scope asks about: input for the input scope, output for any other.
    func side(_ scope: AudioObjectPropertyScope) -> AudioDeviceInfo? {
        scope == kAudioObjectPropertyScopeInput ? input : output
    }

    /// The side `direction` names.
    func side(_ direction: AudioDeviceDirection) -> AudioDeviceInfo? { direction == .input ? input : output }

    /// The stream object of a side, when the device has it.
    func stream(_ direction: AudioDeviceDirection) -> AudioObjectID? {
        side(direction) == nil ? nil : (direction == .input ? inputStream : outputStream)
    }

    /// The device's own channel count on a side: what its backend says, else 2 (a backend
    /// that does not say — ALSA, the file and null devices — plays what a queue gives it).
    func channels(_ direction: AudioDeviceDirection) -> Int? {
        guard let info = side(direction) else { return nil }
        return info.channels ?? 2
    }

    /// The device's own sample rate: what its backend says, else 44100 Hz.
    var sampleRate: Double { output?.sampleRate ?? input?.sampleRate ?? 44100 }
}

/// What the backends list at one moment, and the default devices then.
struct HALSnapshot: Sendable, Equatable {
    var devices: [HALDevice] = []
    var defaultOutput: AudioObjectID = kAudioObjectUnknown
    var defaultInput: AudioObjectID = kAudioObjectUnknown

    func device(_ id: AudioObjectID) -> HALDevice? { devices.first { $0.id == id } }
    func device(uid: String) -> HALDevice? { devices.first { $0.uid == uid } }

    /// The device and side a stream object belongs to.
    func stream(_ id: AudioObjectID) -> (HALDevice, AudioDeviceDirection)? {
        for device in devices {
            if device.stream(.output) == id { return (device, .output) }
            if device.stream(.input) == id { return (device, .input) }
        }
        return nil
    }
}

/// What an object ID names.
enum HALObject {
    case system
    case device(HALDevice)
    case stream(HALDevice, AudioDeviceDirection)
}

enum HALObjects {
    private struct IDs {
        /// Device IDs start above the small numbers a program might pass by mistake.
        var next: AudioObjectID = 32
        var byKey: [String: AudioObjectID] = [:]
    }

    private static let ids = Guarded(IDs())
    private static let latest = Guarded<HALSnapshot?>(nil)

    /// The ID of the object `key` names, given out now if it has none.
    private static func id(_ key: String) -> AudioObjectID {
        ids.withLock { t in
            if let id = t.byKey[key] { return id }
            let id = t.next
            t.next += 1
            t.byKey[key] = id
            return id
        }
    }

    /// Lists every registered backend's devices now (a backend that cannot list them — no
    /// server answers — has none) and chooses the defaults as the queues' default chain does.
    @discardableResult
    static func refresh() -> HALSnapshot {
        AudioToolboxSetUp.audioInUse()
        var listed: [String: [AudioDeviceInfo]] = [:]
        var snapshot = HALSnapshot()
        for backend in AudioBackends.all {
            guard let devices = try? backend.devices() else { continue }
            listed[backend.name] = devices
            for info in devices {
                let uid = info.uid
                let index: Int
                if let found = snapshot.devices.firstIndex(where: { $0.uid == uid }) {
                    index = found
                } else {
                    snapshot.devices.append(HALDevice(
                        id: id(uid), uid: uid, backend: info.backend,
                        outputStream: id(uid + "\u{0}output"), inputStream: id(uid + "\u{0}input")))
                    index = snapshot.devices.count - 1
                }
                if info.direction == .input {
                    if snapshot.devices[index].input == nil { snapshot.devices[index].input = info }
                } else if snapshot.devices[index].output == nil {
                    snapshot.devices[index].output = info
                }
            }
        }
        let listing: (any AudioBackend) -> [AudioDeviceInfo]? = { listed[$0.name] }
        if let info = AudioBackends.defaultDevice(.output, listing: listing), let device = snapshot.device(uid: info.uid) {
            snapshot.defaultOutput = device.id
        }
        if let info = AudioBackends.defaultDevice(.input, listing: listing), let device = snapshot.device(uid: info.uid) {
            snapshot.defaultInput = device.id
        }
        latest.withLock { $0 = snapshot }
        return snapshot
    }

    /// The last listing, or a new one when there is none yet.
    static var current: HALSnapshot { latest.withLock { $0 } ?? refresh() }

    /// What `id` names: the system object, or a device or stream of the last listing (listed
    /// again when it is not in it, in case it has appeared since). nil: no such object.
    static func object(_ id: AudioObjectID) -> (HALObject, HALSnapshot)? {
        if id == systemObjectID { return (.system, current) }
        guard id != kAudioObjectUnknown, ids.withLock({ $0.byKey.values.contains(id) }) else { return nil }
        func find(_ snapshot: HALSnapshot) -> (HALObject, HALSnapshot)? {
            if let device = snapshot.device(id) { return (.device(device), snapshot) }
            if let (device, direction) = snapshot.stream(id) { return (.stream(device, direction), snapshot) }
            return nil
        }
        // The last listing first; a new one only when the object is not in it.
        return find(current) ?? find(refresh())
    }

    /// Whether a queue of this process runs on the device with `uid`.
    static func isRunning(_ uid: String) -> Bool {
        QueueBox.table.all.contains { box in
            guard box.queue != nil else { return false }
            return box.control.isRunning && box.control.currentDevice == uid
        }
    }
}
