import AudioDevices
import CPipeWire

// The devices' side of the graph's seam (PipeWireGraphWatch.swift): where their streams are
// linked becomes their `info`, a move of a stream on the default is reported as `.moved`, and
// the loss of the node a stream was opened on by name as `.failed`.

extension PipeWireGraph {
    /// Watches `stream` (once it has a node) opened on device `target` (nil: the default) for
    /// `observer`; nil when the graph cannot be had (the server went away meanwhile: the
    /// stream hears that from its connection).
    static func watch(_ stream: PipeWireStream, target: String?, observer: any PipeWireGraphObserver) -> PipeWireGraphWatch? {
        guard let graph = try? shared(for: stream.connection) else { return nil }
        let node = stream.context.withLock { stream.pointer.map { pw_stream_get_node_id($0) } ?? UInt32(SPA_ID_INVALID) }
        guard node != UInt32(SPA_ID_INVALID) else { return nil }
        return graph.watch(streamNode: node, direction: stream.direction, target: target, observer: observer)
    }
}

extension PipeWireOutputDevice: PipeWireGraphObserver {
    func pipeWireLinked(to device: AudioDeviceInfo, moved: Bool) {
        let changed = linked.withLock { info -> Bool in
            guard info != device else { return false }
            info = device
            return true
        }
        if moved && changed { report(.moved(device)) }
    }

    func pipeWireTargetLost(_ error: AudioDeviceError) { fail(error) }
}

extension PipeWireInputDevice: PipeWireGraphObserver {
    func pipeWireLinked(to device: AudioDeviceInfo, moved: Bool) {
        let changed = linked.withLock { info -> Bool in
            guard info != device else { return false }
            info = device
            return true
        }
        if moved && changed { report(.moved(device)) }
    }

    func pipeWireTargetLost(_ error: AudioDeviceError) { fail(error) }
}
