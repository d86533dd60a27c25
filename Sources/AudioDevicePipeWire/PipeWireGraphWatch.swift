import AudioDevices

/// What a stream hears from the graph about where it runs (the loop's thread, lock held).
///
/// The seam between the graph and the streams: a device, once its stream has a node
/// (`pw_stream_get_node_id`), asks the graph to watch it
/// (``PipeWireGraph/watch(streamNode:direction:target:observer:)``) and keeps the returned
/// ``PipeWireGraphWatch`` until the stream goes; the graph then tells it, from the links the
/// session manager makes and the nodes that go, where the stream runs and when its node is gone.
/// The server's death is the connection's to report (`PipeWireStreamHandler.pipeWireLost`).
protocol PipeWireGraphObserver: AnyObject {
    /// The stream is linked to `device`: where the session manager put it (`moved` false, the
    /// first time), or, for a stream that follows the default, where it moved since (`moved`
    /// true: the default changed or the device went away).
    func pipeWireLinked(to device: AudioDeviceInfo, moved: Bool)
    /// The node a stream opened on by name runs on went away (`.disconnected`).
    func pipeWireTargetLost(_ error: AudioDeviceError)
}

/// One stream watched by the graph; see ``PipeWireGraphObserver``. All its calls are made with
/// the loop's lock held, but ``cancel()``, which takes it.
final class PipeWireGraphWatch: @unchecked Sendable {
    private let graph: PipeWireGraph
    private weak var observer: (any PipeWireGraphObserver)?
    let number: Int
    /// The stream's node.
    let streamNode: UInt32
    let direction: AudioDeviceDirection
    /// The device the stream was opened on by name (a node name, or `<sink>.monitor`); nil
    /// for a stream that follows the default.
    let target: String?
    /// The device the stream is linked to, once known.
    private(set) var current: String?
    private var lostReported = false

    fileprivate init(
        graph: PipeWireGraph, number: Int, streamNode: UInt32, direction: AudioDeviceDirection, target: String?,
        observer: any PipeWireGraphObserver
    ) {
        self.graph = graph
        self.number = number
        self.streamNode = streamNode
        self.direction = direction
        self.target = target
        self.observer = observer
    }

    /// Stops the calls (takes the lock).
    func cancel() {
        graph.context.withLock { _ = graph.watches.removeValue(forKey: number) }
    }

    /// The devices the stream is linked to now: the nodes at the other end of its links.
    private func peers() -> [AudioDeviceInfo] {
        var seen: Set<UInt32> = []
        var found: [AudioDeviceInfo] = []
        for (_, link) in graph.links.sorted(by: { $0.key < $1.key }) {
            let peer: UInt32
            switch direction {
            case .output where link.output == streamNode: peer = link.input
            case .input where link.input == streamNode: peer = link.output
            default: continue
            }
            guard seen.insert(peer).inserted, let device = graph.device(ofNode: peer, direction) else { continue }
            found.append(device)
        }
        return found
    }

    /// Links came or went: tells the observer when the stream runs on another device.
    func linksChanged() {
        let linked = peers()
        guard !linked.isEmpty, !linked.contains(where: { $0.name == current }) else { return }
        var device = linked[0]
        // A stream on the default is where the session manager put the default, whether or
        // not the metadata saying so has come yet (as a PulseAudio stream's move says).
        if target == nil { device.isDefault = true }
        let moved = current != nil
        current = device.name
        observer?.pipeWireLinked(to: device, moved: moved)
    }

    /// A node went away: the loss of the one a stream opened by name runs on.
    func nodeRemoved(_ node: PipeWireNode) {
        guard let target, !lostReported, target == node.name || target == node.name + PipeWireGraph.monitorSuffix else { return }
        lostReported = true
        observer?.pipeWireTargetLost(AudioDeviceError(.disconnected, "the PipeWire node \(target) went away"))
    }

    /// The defaults changed: the session manager moves a stream that follows them, which shows
    /// in its links; a stream on a named node is told its device again, its
    /// ``AudioDeviceInfo/isDefault`` as it is now.
    func defaultsChanged() {
        guard target != nil, let current, let device = peers().first(where: { $0.name == current }) else { return }
        observer?.pipeWireLinked(to: device, moved: false)
    }

    /// The server went away; the streams hear it from the connection.
    func serverLost(_ error: AudioDeviceError) {}
}

extension PipeWireGraph {
    /// Watches stream node `streamNode` of `direction`, opened on device `target` (nil: the
    /// default), for `observer` (held weakly), until the returned watch is cancelled. Tells the
    /// observer at once where the stream is linked when it is (takes the lock).
    func watch(
        streamNode: UInt32, direction: AudioDeviceDirection, target: String?, observer: any PipeWireGraphObserver
    ) -> PipeWireGraphWatch {
        context.withLock {
            nextWatch += 1
            let watch = PipeWireGraphWatch(
                graph: self, number: nextWatch, streamNode: streamNode, direction: direction, target: target, observer: observer)
            watches[nextWatch] = watch
            watch.linksChanged()
            return watch
        }
    }
}
