import AudioDevices
import CPipeWire

/// The devices the graph's nodes stand for, and the defaults.
///
/// A sink (`Audio/Sink`) is an output device by its `node.name`, and its monitor an input device
/// `<name>.monitor`, as the PulseAudio backend lists them; a source (`Audio/Source`,
/// `Audio/Source/Virtual`) is an input device; an `Audio/Duplex` node is both. The defaults are
/// the `default` metadata's `default.audio.sink` and `default.audio.source` (what the session
/// manager links streams to), else `default.configured.audio.*` (what a user chose): a sink
/// named as the default source means its monitor, as WirePlumber picks it when no source exists.
extension PipeWireGraph {
    /// The suffix of a monitor's device name.
    static let monitorSuffix = ".monitor"

    /// The default sink's or source's node name (lock held).
    func defaultNodeName(_ direction: AudioDeviceDirection) -> String? {
        let kind = direction == .output ? "sink" : "source"
        return defaults["default.audio.\(kind)"] ?? defaults["default.configured.audio.\(kind)"]
    }

    /// The name of the default device of `direction` (lock held): the default node's, or its
    /// monitor's when the default source is a sink.
    func defaultDeviceName(_ direction: AudioDeviceDirection) -> String? {
        guard let name = defaultNodeName(direction) else { return nil }
        if direction == .input, let node = node(named: name), node.isSink, !node.isSource { return name + Self.monitorSuffix }
        return name
    }

    /// The node called `name` (lock held).
    func node(named name: String) -> PipeWireNode? {
        nodes.values.first { $0.name == name }
    }

    /// The device node `id` stands for in `direction` (lock held): for input, a sink is its
    /// monitor. nil when the node is not an audio device.
    func device(ofNode id: UInt32, _ direction: AudioDeviceDirection) -> AudioDeviceInfo? {
        guard let node = nodes[id] else { return nil }
        switch direction {
        case .output where node.isSink: return info(node, .output, monitor: false)
        case .input where node.isSource: return info(node, .input, monitor: false)
        case .input where node.isSink: return info(node, .input, monitor: true)
        default: return nil
        }
    }

    /// What device `node` stands for (lock held).
    func info(_ node: PipeWireNode, _ direction: AudioDeviceDirection, monitor: Bool) -> AudioDeviceInfo {
        let name = monitor ? node.name + Self.monitorSuffix : node.name
        return AudioDeviceInfo(
            backend: "pipewire", name: name, description: monitor ? "Monitor of \(node.description)" : node.description,
            direction: direction, isDefault: defaultDeviceName(direction) == name, channels: node.channels, sampleRate: node.rate)
    }

    /// Every device, outputs first, each ordered by node ID (lock taken).
    func devices() -> [AudioDeviceInfo] {
        context.withLock {
            let sorted = nodes.values.sorted { $0.id < $1.id }
            return sorted.filter(\.isSink).map { info($0, .output, monitor: false) }
                + sorted.filter(\.isSource).map { info($0, .input, monitor: false) }
                + sorted.filter(\.isSink).map { info($0, .input, monitor: true) }
        }
    }

    /// Makes `name` (a node name; for input also `<sink>.monitor`) the default of `direction`
    /// as `pactl set-default-sink` does through pipewire-pulse: `default.configured.audio.sink`
    /// (or `.source`) of the `default` metadata, which the session manager follows with
    /// `default.audio.*`. Waits for the server to have it. `.notFound` for a name no node has.
    func setDefault(_ name: String, direction: AudioDeviceDirection) throws(AudioDeviceError) {
        try context.withLock { () throws(AudioDeviceError) in
            var nodeName = name
            if direction == .input, name.hasSuffix(Self.monitorSuffix), node(named: name) == nil {
                nodeName.removeLast(Self.monitorSuffix.count)
            }
            guard let node = node(named: nodeName), direction == .output ? node.isSink : (node.isSource || node.isSink) else {
                throw AudioDeviceError(.notFound, "PipeWire has no \(direction == .output ? "sink" : "source") \(name)")
            }
            guard let pointer else { throw AudioDeviceError(.disconnected, lost?.reason ?? "PipeWire: not connected") }
            let key = "default.configured.audio.\(direction == .output ? "sink" : "source")"
            let result = aq_pw_graph_set_default(pointer, key, Self.json(name: nodeName))
            if result < 0 { throw AudioDeviceError(.ioFailed, "PipeWire: cannot set \(key) (\(result))") }
        }
        try settle(timeout: 2)
    }

    /// `{"name":"…"}` with the name's quotes and backslashes escaped.
    static func json(name: String) -> String {
        var escaped = ""
        for c in name.unicodeScalars {
            switch c {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            default:
                if c.value < 0x20 { escaped += "\\u" + String(repeating: "0", count: 4 - String(c.value, radix: 16).count) + String(c.value, radix: 16) } else { escaped.unicodeScalars.append(c) }
            }
        }
        return "{\"name\":\"\(escaped)\"}"
    }
}
