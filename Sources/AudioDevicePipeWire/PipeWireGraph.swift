#if canImport(Glibc)
import Glibc
#endif
import AudioDevices
import CPipeWire
import Locking

/// An audio node of the server's graph, as the registry and the node's own info describe it.
struct PipeWireNode: Sendable, Equatable {
    let id: UInt32
    /// `node.name`: what devices are opened by.
    var name: String
    /// `node.description` (else the name).
    var description: String
    /// `media.class`: `Audio/Sink`, `Audio/Source`, `Audio/Source/Virtual`, `Audio/Duplex`.
    var mediaClass: String
    /// `audio.channels` and `audio.rate`, when the node says.
    var channels: Int?
    var rate: Double?

    /// True for a node that plays (a sink: it also has a monitor to record from).
    var isSink: Bool { mediaClass == "Audio/Sink" || mediaClass == "Audio/Duplex" }
    /// True for a node that records.
    var isSource: Bool { mediaClass.hasPrefix("Audio/Source") || mediaClass == "Audio/Duplex" }
}

/// The server's graph as the device list and the streams need it: the audio nodes, the links
/// between nodes, and the `default` metadata (which sink and source the session manager links
/// streams that follow the default to), kept up to date by a registry listener of its own
/// (`aq_pw_graph`, CPipeWire's graph.c) on the process's connection.
///
/// One graph per connection (``shared(timeout:)``); when the server goes away the graph tells
/// its watchers and change handlers, and the next ``shared(timeout:)`` makes a new one on a new
/// connection. Its state is guarded by the loop's lock: the registry's events come on the
/// loop's thread, which holds it.
final class PipeWireGraph: @unchecked Sendable {
    let connection: PipeWireConnection
    var context: PipeWireContext { connection.context }

    // Lock held for all of these.
    private(set) var pointer: OpaquePointer?
    private(set) var nodes: [UInt32: PipeWireNode] = [:]
    /// Links by ID: the node they go out of and the node they go into.
    private(set) var links: [UInt32: (output: UInt32, input: UInt32)] = [:]
    /// The `default` metadata's keys on subject 0 (`default.audio.sink`, …), values as names.
    private(set) var defaults: [String: String] = [:]
    /// Why the graph no longer follows the server (the connection's loss); nil while it does.
    private(set) var lost: AudioDeviceError?
    private var listener: Int?
    private var lastDone: Int32 = -1
    private var changeHandlers: [Int: @Sendable () -> Void] = [:]
    private var nextHandler = 0
    var watches: [Int: PipeWireGraphWatch] = [:]
    var nextWatch = 0

    private let events: UnsafeMutablePointer<aq_pw_graph_events>

    /// The graphs made, by connection.
    private static let graphs = Guarded<[ObjectIdentifier: PipeWireGraph]>([:])

    /// The graph of the process's connection to the server the backend finds
    /// (`PipeWireBackend.remote()`); see ``shared(for:timeout:)``.
    static func shared(timeout: Double = 2) throws(AudioDeviceError) -> PipeWireGraph {
        try shared(for: PipeWireContext.shared().connection(remote: PipeWireBackend.remote()), timeout: timeout)
    }

    /// The graph of `connection`, made on first use (with a round trip for the server's
    /// globals and one for its nodes' info); a connection made after the server went away has
    /// a new one. Throws `.openFailed` when the server is gone, `.ioFailed` when it does not
    /// answer the round trips within `timeout` seconds.
    static func shared(for connection: PipeWireConnection, timeout: Double = 2) throws(AudioDeviceError) -> PipeWireGraph {
        let key = ObjectIdentifier(connection)
        // The loop's lock first, then the table's: the order of a loop callback that asks for
        // the graph (the loop's lock is recursive).
        let graph = try connection.context.withLock { () throws(AudioDeviceError) -> PipeWireGraph in
            try graphs.withLock { (all: inout [ObjectIdentifier: PipeWireGraph]) throws(AudioDeviceError) -> PipeWireGraph in
                all = all.filter { $0.value.isFollowing }
                if let graph = all[key], graph.connection === connection { return graph }
                let made = try PipeWireGraph(connection: connection)
                all[key] = made
                return made
            }
        }
        try graph.settle(timeout: timeout)
        return graph
    }

    private init(connection: PipeWireConnection) throws(AudioDeviceError) {
        self.connection = connection
        events = .allocate(capacity: 1)
        var e = aq_pw_graph_events()
        e.node_added = { data, id, props in PipeWireGraph.from(data).nodeAdded(id, props) }
        e.node_info = { data, id, props in PipeWireGraph.from(data).nodeInfo(id, props) }
        e.link_added = { data, id, output, input in PipeWireGraph.from(data).linkAdded(id, output: output, input: input) }
        e.removed = { data, id in PipeWireGraph.from(data).removed(id) }
        e.default_property = { data, subject, key, value in
            PipeWireGraph.from(data).defaultProperty(subject, key.map { String(cString: $0) }, value.map { String(cString: $0) })
        }
        events.initialize(to: e)
        let made: Bool = context.withLock {
            if connection.lost != nil { return false }
            pointer = aq_pw_graph_new(connection.core, events, Unmanaged.passUnretained(self).toOpaque())
            guard pointer != nil else { return false }
            listener = connection.addListener { [unowned self] event in coreEvent(event) }
            return true
        }
        if !made {
            events.deallocate()
            throw AudioDeviceError(.openFailed, "PipeWire: cannot listen to the server's registry")
        }
    }

    deinit {
        context.withLock { stop() }
        events.deallocate()
    }

    private static func from(_ data: UnsafeMutableRawPointer?) -> PipeWireGraph {
        Unmanaged<PipeWireGraph>.fromOpaque(data!).takeUnretainedValue()
    }

    /// True while the graph follows the server (lock taken).
    var isFollowing: Bool { context.withLock { lost == nil && pointer != nil } }

    /// Stops listening (lock held).
    private func stop() {
        if let listener { connection.removeListener(listener) }
        listener = nil
        if let pointer { aq_pw_graph_destroy(pointer) }
        pointer = nil
    }

    /// Two round trips: the first brings every global (nodes, links, metadata), the second the
    /// info of the nodes bound meanwhile and the metadata's properties.
    func settle(timeout: Double) throws(AudioDeviceError) {
        try context.withLock { () throws(AudioDeviceError) in
            for _ in 0..<2 {
                if let lost { throw AudioDeviceError(.openFailed, "PipeWire: \(lost.reason)") }
                let seq = connection.sync()
                let answered = context.wait(until: { lastDone >= seq || lost != nil }, timeout: timeout)
                if let lost { throw AudioDeviceError(.openFailed, "PipeWire: \(lost.reason)") }
                if !answered { throw AudioDeviceError(.ioFailed, "PipeWire: the server does not answer") }
            }
        }
    }

    // MARK: Events (the loop's thread, lock held)

    private func coreEvent(_ event: PipeWireCoreEvent) {
        switch event {
        case .done(let id, let seq):
            if id == UInt32(PW_ID_CORE) { lastDone = max(lastDone, seq) }
        case .lost(let error):
            guard lost == nil else { return }
            lost = error
            for watch in watches.values { watch.serverLost(error) }
            changed()
        case .error:
            break
        }
    }

    private func nodeAdded(_ id: UInt32, _ props: UnsafePointer<spa_dict>?) {
        guard let name = Self.string(props, "node.name"), let mediaClass = Self.string(props, "media.class") else { return }
        nodes[id] = PipeWireNode(
            id: id, name: name, description: Self.string(props, "node.description") ?? name, mediaClass: mediaClass,
            channels: Self.string(props, "audio.channels").flatMap { Int($0) }, rate: Self.string(props, "audio.rate").flatMap { Double($0) })
        changed()
    }

    private func nodeInfo(_ id: UInt32, _ props: UnsafePointer<spa_dict>?) {
        guard var node = nodes[id] else { return }
        if let description = Self.string(props, "node.description") { node.description = description }
        if let channels = Self.string(props, "audio.channels").flatMap({ Int($0) }), channels > 0 { node.channels = channels }
        if let rate = Self.string(props, "audio.rate").flatMap({ Double($0) }), rate > 0 { node.rate = rate }
        if node != nodes[id] {
            nodes[id] = node
            changed()
        }
    }

    private func linkAdded(_ id: UInt32, output: UInt32, input: UInt32) {
        links[id] = (output, input)
        for watch in watches.values { watch.linksChanged() }
    }

    private func removed(_ id: UInt32) {
        if links.removeValue(forKey: id) != nil {
            for watch in watches.values { watch.linksChanged() }
        }
        if let node = nodes.removeValue(forKey: id) {
            for watch in watches.values { watch.nodeRemoved(node) }
            changed()
        }
    }

    private func defaultProperty(_ subject: UInt32, _ key: String?, _ value: String?) {
        guard subject == 0 else { return }
        if let key {
            defaults[key] = value.flatMap(Self.name(inJSON:))
        } else {
            defaults.removeAll()
        }
        for watch in watches.values { watch.defaultsChanged() }
        changed()
    }

    // MARK: Change handlers

    /// Calls `handler` (the loop's thread, lock held) after each change of the nodes or the
    /// defaults, and once when the server goes away, until ``removeChangeHandler(_:)``.
    func addChangeHandler(_ handler: @escaping @Sendable () -> Void) -> Int {
        context.withLock {
            nextHandler += 1
            changeHandlers[nextHandler] = handler
            return nextHandler
        }
    }

    func removeChangeHandler(_ number: Int) {
        context.withLock { _ = changeHandlers.removeValue(forKey: number) }
    }

    private func changed() {
        for handler in changeHandlers.values { handler() }
    }

    // MARK: Reading properties

    /// The value of `key` in `props`.
    static func string(_ props: UnsafePointer<spa_dict>?, _ key: String) -> String? {
        aq_pw_dict_get(props, key).map { String(cString: $0) }
    }

    /// The `name` of a metadata value such as `{"name":"aqtest"}` or `{ "name": "aqtest" }`.
    static func name(inJSON json: String) -> String? {
        let scalars = Array(json.unicodeScalars)
        var i = 0
        /// The string starting at the quote at `i`, unescaped; `i` ends past its closing quote.
        func string() -> String? {
            guard i < scalars.count, scalars[i] == "\"" else { return nil }
            i += 1
            var out = String.UnicodeScalarView()
            while i < scalars.count {
                let c = scalars[i]
                i += 1
                if c == "\"" { return String(out) }
                if c == "\\", i < scalars.count {
                    let e = scalars[i]
                    i += 1
                    switch e {
                    case "n": out.append("\n")
                    case "t": out.append("\t")
                    case "u":
                        guard i + 4 <= scalars.count, let v = UInt32(String(String.UnicodeScalarView(scalars[i..<i + 4])), radix: 16),
                              let s = Unicode.Scalar(v) else { return nil }
                        out.append(s)
                        i += 4
                    default: out.append(e)
                    }
                } else {
                    out.append(c)
                }
            }
            return nil
        }
        func skipSpace() { while i < scalars.count, scalars[i].properties.isWhitespace { i += 1 } }
        skipSpace()
        guard i < scalars.count, scalars[i] == "{" else { return nil }
        i += 1
        while i < scalars.count {
            skipSpace()
            guard let key = string() else { return nil }
            skipSpace()
            guard i < scalars.count, scalars[i] == ":" else { return nil }
            i += 1
            skipSpace()
            if key == "name" { return string() }
            // Another key: skip a string or a plain value up to the next comma.
            if i < scalars.count, scalars[i] == "\"" { guard string() != nil else { return nil } }
            while i < scalars.count, scalars[i] != ",", scalars[i] != "}" { i += 1 }
            guard i < scalars.count, scalars[i] == "," else { return nil }
            i += 1
        }
        return nil
    }
}
