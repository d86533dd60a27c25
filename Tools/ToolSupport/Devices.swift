public import AudioDevices

/// Prints every registered backend and its devices of one direction.
public func listDevices(_ direction: AudioDeviceDirection) {
    let noun = direction == .output ? "output" : "input"
    for backend in AudioBackends.all {
        print(backend.name + (backend.isAvailable() ? "" : " (not available)"))
        do {
            let devices = try backend.devices().filter { $0.direction == direction }
            if devices.isEmpty { print("  (no \(noun) devices)") }
            let width = devices.map(\.uid.count).max() ?? 0
            for device in devices {
                let uid = device.uid + String(repeating: " ", count: width - device.uid.count)
                print("  \(uid)  \(device.description)" + (device.isDefault ? " (default)" : ""))
            }
        } catch {
            print("  (cannot list devices: \(error))")
        }
    }
}
