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
        let named = environment(direction == .output ? "AUDIOQUEUE_DEVICE" : "AUDIOQUEUE_INPUT_DEVICE")
        /// The device of `backend` the chain takes: the named one, else the backend's default.
        func pick(_ backend: any AudioBackend) -> AudioDeviceInfo? {
            guard let devices = listing(backend)?.filter({ $0.direction == direction }) else { return nil }
            if let named { return devices.first { $0.name == named } }
            return devices.first { $0.isDefault } ?? devices.first
        }
        if let name = environment("AUDIOQUEUE_BACKEND") {
            return backend(named: name).flatMap(pick)
        }
        for backend in soundBackends where backend.isAvailable() {
            if let found = pick(backend) { return found }
        }
        guard direction == .output, named == nil, let fallback = fallbackBackend else { return nil }
        return pick(fallback)
    }
}
