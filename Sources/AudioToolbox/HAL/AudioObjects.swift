import CAudioToolbox
import AudioDevices
import Locking

// The HAL's objects: the system object (kAudioObjectSystemObject), a device for every UID the
// registered backends list, and a stream object for each side (output, input) a device has.
// An object's ID is a number given out the first time its UID is seen and kept for the
// process: a device that goes away and comes back has its old ID again.
//
// The device list (kAudioHardwarePropertyDevices) is what a user can play to and record from:
// the sound backends' devices, without those another backend lists itself while it does
// (AudioDeviceInfo.nativeBackend: ALSA's `pulse` and `pipewire` PCMs, the sinks of PipeWire's
// PulseAudio server), which would show one device twice. The file and
// null backends' devices stand in for hardware rather than being it: they are listed only
// while one of them is a default device (AUDIOQUEUE_BACKEND names its backend, or no sound
// backend has a device), so that the default is always among the devices, as on a Mac; the
// others keep their IDs and answer by ID and through kAudioHardwarePropertyTranslateUIDToDevice.
// Two devices with the same description are told apart by their backend names ("Same (a)",
// "Same (b)"), else by a number ("Same (2)").

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

    /// The name for people: the description (the output side's, if it has one), with what
    /// tells it apart from another device of the same description when there is one.
    var name: String = ""

    /// The backend's description (the output side's, if it has one).
    var description: String { (output ?? input)?.description ?? uid }

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
    /// The devices not in the list (see above) that answer by ID and UID all the same.
    var unlisted: [HALDevice] = []

    func device(_ id: AudioObjectID) -> HALDevice? { devices.first { $0.id == id } ?? unlisted.first { $0.id == id } }
    func device(uid: String) -> HALDevice? { devices.first { $0.uid == uid } ?? unlisted.first { $0.uid == uid } }

    /// The device and side a stream object belongs to.
    func stream(_ id: AudioObjectID) -> (HALDevice, AudioDeviceDirection)? {
        for device in devices + unlisted {
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
    /// A backend that reports its changes is listed from what it kept since its last report
    /// (``subscriptions``), so a listing costs little more than a round trip to each server.
    @discardableResult
    static func refresh() -> HALSnapshot {
        AudioToolboxSetUp.audioInUse()
        var listed: [String: [AudioDeviceInfo]] = [:]
        var all: [HALDevice] = []
        let backends = AudioBackends.all
        for backend in backends {
            guard let devices = try? backend.devices() else { continue }
            listed[backend.name] = devices
            for info in devices {
                let uid = info.uid
                let index: Int
                if let found = all.firstIndex(where: { $0.uid == uid }) {
                    index = found
                } else {
                    all.append(HALDevice(
                        id: id(uid), uid: uid, backend: info.backend,
                        outputStream: id(uid + "\u{0}output"), inputStream: id(uid + "\u{0}input")))
                    index = all.count - 1
                }
                if info.direction == .input {
                    if all[index].input == nil { all[index].input = info }
                } else if all[index].output == nil {
                    all[index].output = info
                }
            }
        }
        subscribe(backends.filter { listed[$0.name] != nil })
        var snapshot = HALSnapshot()
        let listing: (any AudioBackend) -> [AudioDeviceInfo]? = { listed[$0.name] }
        let defaultOutput = AudioBackends.defaultDevice(.output, listing: listing).flatMap { info in all.first { $0.uid == info.uid } }
        let defaultInput = AudioBackends.defaultDevice(.input, listing: listing).flatMap { info in all.first { $0.uid == info.uid } }
        snapshot.defaultOutput = defaultOutput?.id ?? kAudioObjectUnknown
        snapshot.defaultInput = defaultInput?.id ?? kAudioObjectUnknown
        let sound = Set(AudioBackends.soundBackends.map(\.name))
        // A device another backend lists itself (ALSA's `pulse` PCM, PipeWire's PulseAudio
        // server's sinks), while that backend lists devices.
        let doubled: (HALDevice) -> Bool = { device in
            [device.output, device.input].contains { info in
                info?.nativeBackend.map { listed[$0]?.isEmpty == false } ?? false
            }
        }
        for device in named(all.filter { !doubled($0) }) + named(all.filter(doubled)) {
            let isDefault = device.id == snapshot.defaultOutput || device.id == snapshot.defaultInput
            if isDefault || (sound.contains(device.backend) && !doubled(device)) {
                snapshot.devices.append(device)
            } else {
                snapshot.unlisted.append(device)
            }
        }
        latest.withLock { $0 = snapshot }
        return snapshot
    }

    /// The devices with their names for people: the description, and when another device has
    /// the same one, its backend name in parentheses ("Same (a)"), else a number ("Same (2)").
    static func named(_ devices: [HALDevice]) -> [HALDevice] {
        var devices = devices
        let counts = Dictionary(devices.map { ($0.description, 1) }, uniquingKeysWith: +)
        var taken: Set<String> = []
        for index in devices.indices {
            let device = devices[index]
            var name = device.description
            if counts[name, default: 0] > 1 {
                let own = (device.output ?? device.input)?.name ?? device.uid
                name = own == name ? name : "\(name) (\(own))"
            }
            let base = name
            var number = 2
            while taken.contains(name) {
                name = "\(base) (\(number))"
                number += 1
            }
            taken.insert(name)
            devices[index].name = name
        }
        return devices
    }

    /// What the HAL holds of the backends that report their changes: one subscription each,
    /// which keeps the backend's connection to its server and lets it keep its listing between
    /// reports; asked for again, at most every 2 s, when it is lost (the server went away).
    private struct Subscriptions: Sendable {
        var held: [String: any AudioDeviceChangeSubscription] = [:]
        var asked: [String: UInt64] = [:]
    }

    private static let subscriptions = Guarded(Subscriptions())

    /// Subscribes to the changes of those of `backends` that report them and have no active
    /// subscription.
    private static func subscribe(_ backends: [any AudioBackend]) {
        let now = HostTime.now()
        // Asked outside the table's lock: a backend's subscription takes its server's lock.
        let held = subscriptions.withLock { $0.held }
        let lost = Set(held.filter { !$0.value.isActive }.keys)
        let wanted = subscriptions.withLock { s -> [any AudioDeviceChangeReporting] in
            var wanted: [any AudioDeviceChangeReporting] = []
            for case let backend as any AudioDeviceChangeReporting in backends where s.held[backend.name] == nil || lost.contains(backend.name) {
                if let last = s.asked[backend.name], now &- last < 2_000_000_000 { continue }
                s.asked[backend.name] = now
                wanted.append(backend)
            }
            return wanted
        }
        for backend in wanted {
            guard let subscription = backend.reportChanges({}) else { continue }
            subscriptions.withLock { $0.held[backend.name] = subscription }
        }
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

    /// Whether a queue of this process, or an IOProc of the device, runs on the device with `uid`.
    static func isRunning(_ uid: String) -> Bool {
        IOProcDevices.isRunning(uid: uid) || QueueBox.table.all.contains { box in
            guard box.queue != nil else { return false }
            return box.control.isRunning && box.control.currentDevice == uid
        }
    }
}
