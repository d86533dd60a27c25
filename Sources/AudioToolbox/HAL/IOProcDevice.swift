import CAudioToolbox
import AudioDevices
import Dispatch
import Locking
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

// A HAL device's IOProcs: the registrations, whether the device runs, and the run
// (IOProcSession) while it does. The device runs while any IOProc of it is started, or the
// device itself is (AudioDeviceStart with a NULL ID); it is opened on the first start and
// closed when the last stops.
//
// Locks: `transitions` (rank transitions) orders starts and stops, and is held while the
// backend devices open, start and stop; never taken on a cycle's thread. `table` (a leaf) is
// held only to read or change a registration: the cycle takes it once per cycle to copy out
// the running IOProcs, and calls them without it.

/// The buffer frame size of a device's I/O cycle: `kAudioDevicePropertyBufferFrameSize`, as the
/// program set it (``HALDeviceSettings``).
func ioBufferFrames(for device: AudioObjectID) -> Int { Int(HALDeviceSettings.bufferFrameSize(of: device)) }

/// A device's time as its cycles keep it, read without a lock: by `AudioDeviceGetCurrentTime`
/// on any thread, the IOProcs' among them.
final class IOProcClock: Sendable {
    /// Host time of sample time 0; 0 before the first cycle.
    private let hostOfZero = Atomic<UInt64>(0)
    private let rateBits = Atomic<UInt64>(0)
    private let cycles = Atomic<Int64>(0)

    /// Marks a thread as inside a cycle: a stop asked for there is carried out after it.
    private static let inCycleKey: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// Whether the calling thread is running an IOProc cycle (of any device).
    static var onCycleThread: Bool { pthread_getspecific(inCycleKey) != nil }

    func enterCycle() { pthread_setspecific(Self.inCycleKey, UnsafeRawPointer(bitPattern: 1)) }

    func leaveCycle(cycles count: Int64) {
        cycles.store(count, ordering: .releasing)
        pthread_setspecific(Self.inCycleKey, nil)
    }

    func anchor(hostOfZero host: UInt64, rate: Double) {
        rateBits.store(rate.bitPattern, ordering: .relaxed)
        hostOfZero.store(host, ordering: .releasing)
    }

    func reset() {
        hostOfZero.store(0, ordering: .releasing)
        cycles.store(0, ordering: .releasing)
    }

    /// The sample rate and host time of sample 0, once the first cycle has run.
    var line: (rate: Double, hostOfZero: UInt64)? {
        let host = hostOfZero.load(ordering: .acquiring)
        guard host != 0 else { return nil }
        return (Double(bitPattern: rateBits.load(ordering: .relaxed)), host)
    }

    /// Cycles run since the start.
    var cycleCount: Int64 { cycles.load(ordering: .acquiring) }
}

final class IOProcDevice: @unchecked Sendable {
    /// IOProcs a device can have registered at once.
    static let capacity = 64

    private struct Table {
        var registrations: [IOProcRegistration] = []
        /// Started with a NULL ID.
        var selfStarted = false
        var running: Bool { selfStarted || registrations.contains { $0.running } }
    }

    let id: AudioObjectID
    let uid: String
    let clock = IOProcClock()
    private let table = Guarded(Table())
    private let transitions = Guarded<IOProcSession?>(nil, rank: .transitions)
    /// Whether `transitions` holds a run (set under it), for a start asked for inside a cycle.
    private let hasSession = Atomic<Bool>(false)

    init(id: AudioObjectID, uid: String) {
        self.id = id
        self.uid = uid
    }

    /// Whether the device runs: an IOProc of it, or the device itself, is started.
    var isRunning: Bool { table.withLock { $0.running } }

    /// Whether the device runs or still plays out what its IOProcs gave it before they
    /// stopped (`kAudioDevicePropertyDeviceIsRunning`): a program that waits for the device
    /// to stop and then exits has heard everything.
    var isRunningOrPlayingOut: Bool { isRunning || hasSession.load(ordering: .acquiring) }

    // MARK: Registrations

    /// Registers `proc` under `key`. False when the table is full.
    func register(key: UInt, proc: AudioDeviceIOProc, clientData: UnsafeMutableRawPointer?) -> Bool {
        table.withLock { t in
            if let i = t.registrations.firstIndex(where: { $0.key == key }) {
                t.registrations[i].clientData = clientData
                return true
            }
            guard t.registrations.count < Self.capacity else { return false }
            t.registrations.append(IOProcRegistration(key: key, proc: proc, clientData: clientData))
            return true
        }
    }

    func isRegistered(_ key: UInt) -> Bool { table.withLock { t in t.registrations.contains { $0.key == key } } }

    /// Removes the registration `key`, stopping it first. False: there is none.
    func unregister(_ key: UInt) throws(HALError) -> Bool {
        guard isRegistered(key) else { return false }
        try stop(key)
        return table.withLock { t in
            guard let i = t.registrations.firstIndex(where: { $0.key == key }) else { return false }
            t.registrations.remove(at: i)
            return true
        }
    }

    /// On a cycle's thread: copies the running registrations into `slots` and returns how many.
    func runningRegistrations(into slots: UnsafeMutablePointer<IOProcRegistration>) -> Int {
        table.withLock { t in
            var n = 0
            for r in t.registrations where r.running && n < Self.capacity {
                slots[n] = r
                n += 1
            }
            return n
        }
    }

    // MARK: Starting and stopping

    /// Starts IOProc `key` (nil: the device itself), from the cycle whose output (or input)
    /// sample time is at least `startSample`. Throws kAudioHardwareIllegalOperationError for an
    /// unknown IOProc, the backend's code when the device cannot open.
    func start(_ key: UInt?, startSample: Double = -.infinity, startIsInput: Bool = false) throws(HALError) {
        let mark: () -> Bool = { [table] in
            table.withLock { t in
                guard let key else {
                    t.selfStarted = true
                    return true
                }
                guard let i = t.registrations.firstIndex(where: { $0.key == key }) else { return false }
                if !t.registrations[i].running {
                    t.registrations[i].running = true
                    t.registrations[i].startSample = startSample
                    t.registrations[i].startIsInput = startIsInput
                }
                return true
            }
        }
        if IOProcClock.onCycleThread && hasSession.load(ordering: .acquiring) {
            // Inside an IOProc, of a device that has a run: it goes on, with this one in it (a
            // close that a stop in the same cycle scheduled finds it started and keeps it).
            guard mark() else { throw .illegal }
            return
        }
        try transitions.withLock { session throws(HALError) in
            guard mark() else { throw .illegal }
            if session != nil { return }
            do throws(AudioDeviceError) {
                session = try open()
                hasSession.store(true, ordering: .releasing)
            } catch {
                table.withLock { t in
                    if let key, let i = t.registrations.firstIndex(where: { $0.key == key }) {
                        t.registrations[i].running = false
                    } else if key == nil {
                        t.selfStarted = false
                    }
                }
                throw HALError(status: error.code.rawValue)
            }
        }
    }

    /// Stops IOProc `key` (nil: the device itself): it is not called again after the cycle
    /// running now. The device stops when nothing of it is started any more — at once, or,
    /// when asked on a cycle's thread, just after the cycle.
    func stop(_ key: UInt?) throws(HALError) {
        let known = table.withLock { t -> Bool in
            guard let key else {
                t.selfStarted = false
                return true
            }
            guard let i = t.registrations.firstIndex(where: { $0.key == key }) else { return false }
            t.registrations[i].running = false
            return true
        }
        guard known else { throw .illegal }
        guard !isRunning else { return }
        if IOProcClock.onCycleThread {
            DispatchQueue.global().async { [self] in closeIfIdle() }
        } else {
            closeIfIdle()
        }
    }

    /// Closes the run when nothing is started (a start may have come since the stop; one that
    /// came inside a last cycle while it closed opens it again).
    private func closeIfIdle() {
        transitions.withLock { session in
            guard let running = session, !isRunning else { return }
            // Its cycles may start IOProcs until it has stopped: they only mark them.
            running.stop()
            hasSession.store(false, ordering: .releasing)
            session = nil
            clock.reset()
            if isRunning, let reopened = try? open() {
                session = reopened
                hasSession.store(true, ordering: .releasing)
            }
        }
    }

    /// Opens the device's sides as the HAL lists them, at its nominal rate and channel counts,
    /// and starts its cycles.
    private func open() throws(AudioDeviceError) -> IOProcSession {
        guard let device = HALObjects.current.device(id) ?? HALObjects.refresh().device(id) else {
            throw AudioDeviceError(.notFound, "device \(id) is gone")
        }
        clock.reset()
        let session = IOProcSession(
            owner: self, frames: ioBufferFrames(for: id), rate: HALDeviceSettings.sampleRate(of: device),
            outputChannels: device.channels(.output) ?? 0, inputChannels: device.channels(.input) ?? 0)
        try session.start(uid: uid)
        return session
    }
}

/// The devices that have had IOProcs, by ID.
enum IOProcDevices {
    private static let table = Guarded<[AudioObjectID: IOProcDevice]>([:])

    /// Device `id`'s IOProcs; kAudioHardwareBadDeviceError when `id` is no device.
    /// Known devices are found without the HAL's listing, so that an IOProc may call this.
    static func device(_ id: AudioObjectID) throws(HALError) -> IOProcDevice {
        if let known = table.withLock({ $0[id] }) { return known }
        guard let (object, _) = HALObjects.object(id), case .device(let device) = object else {
            throw HALError(status: kAudioHardwareBadDeviceError)
        }
        return table.withLock { t in
            if let found = t[id] { return found }
            let made = IOProcDevice(id: id, uid: device.uid)
            t[id] = made
            return made
        }
    }

    /// Whether an IOProc of the device with `uid`, or the device itself, is started, or the
    /// device still plays out what they gave it.
    static func isRunning(uid: String) -> Bool {
        let devices = table.withLock { Array($0.values) }
        return devices.contains { $0.uid == uid && $0.isRunningOrPlayingOut }
    }
}
