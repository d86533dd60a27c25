import CAudioToolbox
import AudioDevices
import Locking
#if canImport(Glibc)
import Glibc
#endif

// Property listeners. While any listener is registered, the HAL's notification thread lists
// the backends' devices and defaults at once when a backend reports a change (the PulseAudio
// server's events: AudioDeviceChangeReporting), and every 100 ms for the backends that report
// none (an ALSA card's removal is seen only by a device that has it open), and calls the
// listeners of what changed: the system object's device list and default devices, a removed
// device's DeviceIsAlive — and the changes this process makes by setting a property (announce).
// The calls come on that thread, or on the run loop kAudioHardwarePropertyRunLoop names. The
// calls before AudioObject register here too, each with its own kind of function.

enum HALListeners {
    /// The function a listener calls: an AudioObject listener, or one of the calls before
    /// AudioObject (the system object's, a device's, a stream's), each with its own arguments.
    enum Callback: @unchecked Sendable {
        case object(AudioObjectPropertyListenerProc)
        case hardware(AudioHardwarePropertyListenerProc)
        case device(AudioDevicePropertyListenerProc)
        case stream(AudioStreamPropertyListenerProc)

        /// The function's address and its kind, which identify it.
        var identity: (UInt, Int) {
            switch self {
            case .object(let proc): (unsafeBitCast(proc, to: UInt.self), 0)
            case .hardware(let proc): (unsafeBitCast(proc, to: UInt.self), 1)
            case .device(let proc): (unsafeBitCast(proc, to: UInt.self), 2)
            case .stream(let proc): (unsafeBitCast(proc, to: UInt.self), 3)
            }
        }
    }

    /// A registered listener: the object and address it listens to, the function and its data.
    private struct Listener: @unchecked Sendable {
        let object: AudioObjectID
        let address: AudioObjectPropertyAddress
        let callback: Callback
        let clientData: UnsafeMutableRawPointer?

        /// Whether it was registered with these arguments; `data` nil matches any client data
        /// (the older calls remove a function without naming its data).
        func matches(
            _ object: AudioObjectID, _ callback: Callback, _ address: AudioObjectPropertyAddress, _ data: UnsafeMutableRawPointer??
        ) -> Bool {
            self.object == object && self.callback.identity == callback.identity
                && self.address.mSelector == address.mSelector && self.address.mScope == address.mScope
                && self.address.mElement == address.mElement && (data.map { clientData == $0 } ?? true)
        }

        /// Whether it hears of a change of `selector` of `object`.
        func hears(_ object: AudioObjectID, _ selector: AudioObjectPropertySelector) -> Bool {
            self.object == object
                && (address.mSelector == selector || address.mSelector == kAudioObjectPropertySelectorWildcard)
        }
    }

    private struct State {
        var listeners: [Listener] = []
        var threadRunning = false
        /// The run loop the calls go to (its CFRunLoopRef's bits; 0: the notification thread),
        /// and the loop itself, held so that a call can be posted to it without touching the CF
        /// object another thread may be letting go of.
        var runLoop: UInt = 0
        var loop: RunLoop?
        /// A backend reported a change the notification thread has not looked at yet.
        var changeReported = false
        /// Changes this process made (a property set), for the notification thread to tell.
        var announced: [(AudioObjectID, AudioObjectPropertySelector)] = []
    }

    private static let state = Guarded(State())
    /// How often the notification thread lists the devices.
    private static let interval: UInt64 = 100_000_000

    static var runLoopBits: UInt { state.withLock { $0.runLoop } }

    /// Makes the run loop `bits` names (0: none) the one the calls go to. The new loop is
    /// retained and given the HAL's source before it is published, and the swap is made under
    /// the lock, so concurrent sets and deliveries never see a loop that was let go of.
    static func setRunLoop(_ bits: UInt) {
        let new = bits == 0 ? nil : RunLoop.from(CFRunLoopRef(bitPattern: bits))
        let old = state.withLock { s -> (UInt, RunLoop?) in
            // The HAL's notifications are a source of the run loop (as the Mac's HAL adds its
            // own): a run of it waits for them instead of finishing at once for want of sources.
            if bits != 0 {
                _ = _CFRetain(UnsafeRawPointer(bitPattern: bits))
                new?.attachSource()
            }
            defer { (s.runLoop, s.loop) = (bits, new) }
            return (s.runLoop, s.loop)
        }
        if old.0 != 0 {
            old.1?.detachSource()
            _CFRelease(UnsafeRawPointer(bitPattern: old.0))
        }
    }

    /// Registers a listener; starts the notification thread (from a listing made now, so that
    /// a change after this returns is heard) when it is not running.
    static func add(_ object: AudioObjectID, _ address: AudioObjectPropertyAddress, _ callback: Callback, _ data: UnsafeMutableRawPointer?) {
        let start = state.withLock { s -> Bool in
            s.listeners.append(Listener(object: object, address: address, callback: callback, clientData: data))
            defer { s.threadRunning = true }
            return !s.threadRunning
        }
        guard start else { return }
        let baseline = HALObjects.refresh()
        do throws(AudioDeviceError) {
            let thread = try IOThread(name: "HAL notify") { watch(from: baseline) }
            thread.detach()
        } catch {
            state.withLock { $0.threadRunning = false }
        }
    }

    /// Removes a listener registered with the same arguments (none: nothing happens).
    static func remove(_ object: AudioObjectID, _ address: AudioObjectPropertyAddress, _ callback: Callback, _ data: UnsafeMutableRawPointer?) {
        state.withLock { s in
            if let index = s.listeners.firstIndex(where: { $0.matches(object, callback, address, .some(data)) }) {
                s.listeners.remove(at: index)
            }
            state.broadcast()
        }
    }

    /// Removes every listener registered with this object, address and function, whatever
    /// its client data (the older calls' remove).
    static func removeAll(_ object: AudioObjectID, _ address: AudioObjectPropertyAddress, _ callback: Callback) {
        state.withLock { s in
            s.listeners.removeAll { $0.matches(object, callback, address, nil) }
            state.broadcast()
        }
    }

    /// Tells the listeners of changes this process made (a property it set); the notification
    /// thread calls them, as it calls them for the changes it finds. Nothing when no listener
    /// is registered.
    static func announce(_ changes: [(AudioObjectID, AudioObjectPropertySelector)]) {
        state.withLock { s in
            guard s.threadRunning, !s.listeners.isEmpty else { return }
            s.announced += changes
            s.changeReported = true
            state.broadcast()
        }
    }

    /// A backend reported a change (on its own thread): the notification thread looks now.
    private static func changeReported() {
        state.withLock { s in
            s.changeReported = true
            state.broadcast()
        }
    }

    /// The notification thread: lists the devices when a backend reports a change and every
    /// ``interval``, until no listener is left, and tells the listeners what changed.
    private static func watch(from baseline: HALSnapshot) {
        var previous = baseline
        var subscriptions: [String: any AudioDeviceChangeSubscription] = [:]
        var round = 0
        while true {
            // Reports from the backends that give them; asked for again every 2 s while a
            // backend cannot give them (no server answers).
            if round % 20 == 0 {
                for case let backend as any AudioDeviceChangeReporting in AudioBackends.all
                where subscriptions[backend.name]?.isActive != true {
                    subscriptions[backend.name] = backend.reportChanges { changeReported() }
                }
            }
            round += 1
            let next = state.withLock { s -> [(AudioObjectID, AudioObjectPropertySelector)]? in
                if s.listeners.isEmpty { s.threadRunning = false; return nil }
                if !s.changeReported { state.wait(timeoutNanos: interval) }
                s.changeReported = false
                if s.listeners.isEmpty { s.threadRunning = false; return nil }
                defer { s.announced = [] }
                return s.announced
            }
            guard let announced = next else { return }
            let now = HALObjects.refresh()
            deliver(announced + changes(from: previous, to: now))
            previous = now
        }
    }

    /// The (object, selector) pairs that differ between two listings.
    private static func changes(from old: HALSnapshot, to new: HALSnapshot) -> [(AudioObjectID, AudioObjectPropertySelector)] {
        var changed: [(AudioObjectID, AudioObjectPropertySelector)] = []
        let system = systemObjectID
        if old.devices.map(\.id) != new.devices.map(\.id) { changed.append((system, kAudioHardwarePropertyDevices)) }
        if old.defaultOutput != new.defaultOutput {
            changed.append((system, kAudioHardwarePropertyDefaultOutputDevice))
            changed.append((system, kAudioHardwarePropertyDefaultSystemOutputDevice))
        }
        if old.defaultInput != new.defaultInput { changed.append((system, kAudioHardwarePropertyDefaultInputDevice)) }
        for device in old.devices where new.device(device.id) == nil {
            changed.append((device.id, kAudioDevicePropertyDeviceIsAlive))
        }
        for device in new.devices {
            guard let before = old.device(device.id) else { continue }
            if before.name != device.name { changed.append((device.id, kAudioObjectPropertyName)) }
            if before.sampleRate != device.sampleRate { changed.append((device.id, kAudioDevicePropertyNominalSampleRate)) }
            if before.channels(.output) != device.channels(.output) || before.channels(.input) != device.channels(.input) {
                changed.append((device.id, kAudioDevicePropertyStreamConfiguration))
            }
        }
        return changed
    }

    /// Calls every listener that hears of a change, on the notification thread or the run loop.
    private static func deliver(_ changed: [(AudioObjectID, AudioObjectPropertySelector)]) {
        guard !changed.isEmpty else { return }
        let (listeners, loop) = state.withLock { ($0.listeners, $0.loop) }
        for (object, selector) in changed {
            for listener in listeners where listener.hears(object, selector) {
                let call = Call(listener: listener, object: object, selector: selector)
                if let runLoop = loop {
                    runLoop.post(mode: RunLoop.commonModes) { call.run() }
                } else {
                    call.run()
                }
            }
        }
    }

    /// One call of a listener for one change; made only while it is still registered. A call
    /// already under way when the listener is removed on another thread may still finish after
    /// the removal returns (Apple's documentation promises nothing either way).
    private struct Call: @unchecked Sendable {
        let listener: Listener
        let object: AudioObjectID
        let selector: AudioObjectPropertySelector

        func run() {
            let registered = HALListeners.state.withLock { s in
                s.listeners.contains { $0.matches(listener.object, listener.callback, listener.address, .some(listener.clientData)) }
            }
            guard registered else { return }
            let scope = listener.address.mScope == kAudioObjectPropertyScopeWildcard ? kAudioObjectPropertyScopeGlobal : listener.address.mScope
            var address = AudioObjectPropertyAddress(mSelector: selector, mScope: scope, mElement: kAudioObjectPropertyElementMain)
            switch listener.callback {
            case .object(let proc): _ = proc(object, 1, &address, listener.clientData)
            case .hardware(let proc): _ = proc(selector, listener.clientData)
            case .device(let proc): _ = proc(object, 0, scope == kAudioObjectPropertyScopeInput, selector, listener.clientData)
            case .stream(let proc): _ = proc(object, 0, selector, listener.clientData)
            }
        }
    }
}
