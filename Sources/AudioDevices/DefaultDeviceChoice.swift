/// The default chain of one direction (see ``AudioBackends``), said once: the backend
/// `AUDIOQUEUE_BACKEND` names when set, alone; else each registered sound backend, highest
/// priority first, that is available; the device asked of each is the one
/// `AUDIOQUEUE_DEVICE` (for input `AUDIOQUEUE_INPUT_DEVICE`) names, else its default; and
/// when none has one, for output with no device named, the first fallback backend's.
/// Opening a device (``AudioBackends/open(_:tried:)``) and finding it without opening
/// anything (``AudioBackends/defaultDevice(_:listing:)``) both walk it.
struct DefaultChain {
    /// The variable that names the device.
    let variable: String
    /// The device the variable names; nil: each backend's default.
    let device: String?
    /// The backend `AUDIOQUEUE_BACKEND` names: the only one the chain asks.
    let backend: String?
    let direction: AudioDeviceDirection

    /// What stands in at the end of the chain: the first registered fallback backend, for
    /// output with no device named; nil for input.
    var fallback: (any AudioFallbackBackend)? { direction == .output && device == nil ? AudioBackends.fallbackBackend : nil }

    /// The chain as the environment and the registered backends make it now.
    init(_ direction: AudioDeviceDirection) {
        self.direction = direction
        variable = direction == .output ? "AUDIOQUEUE_DEVICE" : "AUDIOQUEUE_INPUT_DEVICE"
        device = AudioBackends.environment(variable)
        backend = AudioBackends.environment("AUDIOQUEUE_BACKEND")
    }

    /// Asks the backend `AUDIOQUEUE_BACKEND` names for its device when that is set (its
    /// error, or its absence, is the chain's); else each available sound backend in turn,
    /// until one gives one. Returns that, or nil with why each backend gave none (also told
    /// to `tried`): the fallback's turn is the caller's.
    func walk<Found>(
        tried: ((String) -> Void)? = nil, _ take: (any AudioBackend) throws(AudioDeviceError) -> Found
    ) throws(AudioDeviceError) -> (Found?, [String]) {
        if let backend {
            return (try take(AudioBackends.registered(backend, else: "AUDIOQUEUE_BACKEND=\(backend): no such backend")), [])
        }
        var reasons: [String] = []
        for backend in AudioBackends.soundBackends {
            let reason: String
            if backend.isAvailable() {
                do throws(AudioDeviceError) {
                    return (try take(backend), reasons)
                } catch {
                    reason = "\(backend.name): \(error)"
                }
            } else {
                reason = "\(backend.name): not available"
            }
            tried?(reason)
            reasons.append(reason)
        }
        return (nil, reasons)
    }
}

extension AudioBackends {
    /// The device the default chain (see ``AudioBackends``) would open for `direction`, found
    /// without opening anything: the device `AUDIOQUEUE_DEVICE` (`AUDIOQUEUE_INPUT_DEVICE` for
    /// input) names, or the backend's default, from the backend `AUDIOQUEUE_BACKEND` names when
    /// set, else from the first available sound backend that lists it; else, for output, the
    /// fallback backend's device. nil when there is none.
    ///
    /// `listing` gives a backend's devices (nil: it could not list them, so it is passed over);
    /// a caller that has listed them already passes what it found.
    public static func defaultDevice(
        _ direction: AudioDeviceDirection, listing: (any AudioBackend) -> [AudioDeviceInfo]? = { try? $0.devices() }
    ) -> AudioDeviceInfo? {
        let chain = DefaultChain(direction)
        /// The device of `backend` the chain takes: the named one, else the backend's default.
        func pick(_ backend: any AudioBackend) -> AudioDeviceInfo? {
            guard let devices = listing(backend)?.filter({ $0.direction == direction }) else { return nil }
            if let named = chain.device { return devices.first { $0.name == named } }
            return devices.first { $0.isDefault } ?? devices.first
        }
        let found = try? chain.walk { backend throws(AudioDeviceError) in
            guard let device = pick(backend) else { throw AudioDeviceError(.notFound, "\(backend.name) lists no such device") }
            return device
        }
        guard let found else { return nil }  // the backend AUDIOQUEUE_BACKEND names has none
        return found.0 ?? chain.fallback.flatMap { pick($0) }
    }
}
