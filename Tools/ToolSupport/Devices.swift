public import AudioDevices

/// Prints every registered backend and its devices of one direction, with their channel counts
/// and rates when the backend knows them.
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
                var format: [String] = []
                if let channels = device.channels { format.append("\(channels) ch") }
                if let rate = device.sampleRate { format.append("\(Int(rate)) Hz") }
                print("  \(uid)  \(device.description)" + (format.isEmpty ? "" : " (\(format.joined(separator: ", ")))")
                    + (device.isDefault ? " (default)" : ""))
            }
        } catch {
            print("  (cannot list devices: \(error))")
        }
    }
}
