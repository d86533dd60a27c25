import AudioCore
import Locking

/// A graph of audio units (Apple's `AUGraph`): nodes, each an ``AudioComponentDescription`` and,
/// once the graph is open, its unit; the connections and input callbacks between them; and the
/// graph's one output node, whose unit starts and stops the rendering.
///
/// Life cycle as Apple's: add nodes, ``open()`` (every node's unit is made; a node added to an
/// open graph gets its unit at once), connect, ``initialize()`` (the connections and callbacks
/// are given to the units, then every unit is initialized, sources before the units they feed),
/// ``start()``. Connections and callbacks changed after initialization take effect at
/// ``update()``, as a running Apple graph takes them; before it, at ``initialize()``.
///
/// Errors carry Apple's `kAUGraphErr_…` codes: `nodeNotFound`, `invalidConnection` (an input
/// that already has a connection or callback, or a node connected to itself), `outputNode` (a
/// second output unit, a start without one, removing it while running), `invalidAudioUnit` (a
/// description no component matches).
///
/// The graph is meant to be driven from one thread at a time; it holds its own lock only to
/// read or change its description, never across a call into a unit.
public final class AudioUnitGraph: @unchecked Sendable {
    /// A node's number (Apple's `AUNode`): 1 for the first node added, then counting up.
    public typealias Node = Int32

    /// What feeds a node's input (Apple's `AUNodeInteraction`).
    public enum Interaction: Sendable {
        /// Output `sourceOutput` of `sourceNode` into input `destInput` of `destNode`
        /// (`kAUNodeInteraction_Connection`).
        case connection(sourceNode: Node, sourceOutput: UInt32, destNode: Node, destInput: UInt32)
        /// A render callback on input `destInput` of `destNode` (`kAUNodeInteraction_InputCallback`).
        case inputCallback(destNode: Node, destInput: UInt32, callback: AudioUnitRenderCallback)

        /// The node whose input it feeds.
        public var destNode: Node {
            switch self {
            case .connection(_, _, let node, _), .inputCallback(let node, _, _): node
            }
        }
        /// The input it feeds.
        public var destInput: UInt32 {
            switch self {
            case .connection(_, _, _, let input), .inputCallback(_, let input, _): input
            }
        }
        /// Whether `node` is its source or destination.
        func involves(_ node: Node) -> Bool {
            if case .connection(let source, _, let dest, _) = self { return source == node || dest == node }
            return destNode == node
        }
    }

    struct Entry {
        let node: Node
        let description: AudioComponentDescription
        var unit: AudioUnit?
        var isOutput: Bool { description.type == AudioComponentDescription.outputType }
    }

    struct Notification {
        let token: Int
        let callback: AudioUnitRenderCallback
        var unitToken: Int?
    }

    struct State {
        var nodes: [Entry] = []
        var nextNode: Node = 1
        var isOpen = false
        var isInitialized = false
        /// The graph's description of every node input's feed.
        var interactions: [Interaction] = []
        /// What the units were last given, by destination (node, input).
        var applied: [NodeInput: Interaction] = [:]
        var notifications: [Notification] = []
        var nextToken = 0
        /// The unit the notifications are on.
        var notifiedUnit: AudioUnit?
    }

    struct NodeInput: Hashable {
        let node: Node
        let input: UInt32
    }

    private let state = Guarded(State())

    /// An empty graph (`NewAUGraph`).
    public init() {}

    deinit {
        let units = state.withLock { $0.nodes.compactMap(\.unit) }
        for unit in units {
            (unit as? AudioOutputUnit)?.stop()
            unit.uninitialize()
        }
    }

    // MARK: Nodes

    /// Adds a node for the component `description` describes (`AUGraphAddNode`) and returns its
    /// number; an open graph makes its unit at once. `invalidAudioUnit` when no component
    /// matches; `outputNode` for a second output unit.
    @discardableResult
    public func addNode(_ description: AudioComponentDescription) throws(AudioUnitError) -> Node {
        guard let component = AudioComponent.findNext(matching: description) else {
            throw AudioUnitError(.invalidAudioUnit, "no component matches \(description)")
        }
        let open = state.withLock { $0.isOpen }
        let unit = open ? component.instantiate() : nil
        let node = try state.withLock { s throws(AudioUnitError) -> Node in
            let entry = Entry(node: s.nextNode, description: component.description, unit: unit)
            if entry.isOutput, s.nodes.contains(where: \.isOutput) {
                throw AudioUnitError(.outputNode, "a graph has one output node")
            }
            s.nodes.append(entry)
            s.nextNode += 1
            return entry.node
        }
        attachNotifications()
        return node
    }

    /// Removes `node` and every connection or callback it takes part in (`AUGraphRemoveNode`);
    /// the units it fed lose those inputs at once. `nodeNotFound`; `outputNode` for the output
    /// node of a running graph.
    public func removeNode(_ node: Node) throws(AudioUnitError) {
        let entry = try self.entry(node)
        if entry.isOutput, isRunning { throw AudioUnitError(.outputNode, "the output node of a running graph stays") }
        let (removed, units) = state.withLock { s in
            s.nodes.removeAll { $0.node == node }
            let removed = s.applied.filter { $0.value.involves(node) }
            for key in removed.keys { s.applied[key] = nil }
            s.interactions.removeAll { $0.involves(node) }
            if s.notifiedUnit === entry.unit { s.notifiedUnit = nil }
            return (removed, s.nodes)
        }
        for key in removed.keys where key.node != node {
            try? units.first { $0.node == key.node }?.unit?.setInputSource(.none, element: key.input)
        }
        if let unit = entry.unit {
            (unit as? AudioOutputUnit)?.stop()
            unit.uninitialize()
        }
    }

    /// The number of nodes (`AUGraphGetNodeCount`).
    public var nodeCount: Int { state.withLock { $0.nodes.count } }

    /// The node at `index` in the order they were added (`AUGraphGetIndNode`); `parameter` (-50)
    /// for an index past the last.
    public func node(at index: Int) throws(AudioUnitError) -> Node {
        let node = state.withLock { s in index >= 0 && index < s.nodes.count ? s.nodes[index].node : nil }
        guard let node else { throw AudioUnitError(.parameter, "the graph has no node at index \(index)") }
        return node
    }

    /// A node's description and, once the graph is open, its unit (`AUGraphNodeInfo`).
    public func nodeInfo(_ node: Node) throws(AudioUnitError) -> (description: AudioComponentDescription, unit: AudioUnit?) {
        let entry = try self.entry(node)
        return (entry.description, entry.unit)
    }

    private func entry(_ node: Node) throws(AudioUnitError) -> Entry {
        guard let entry = state.withLock({ s in s.nodes.first { $0.node == node } }) else {
            throw AudioUnitError(.nodeNotFound, "the graph has no node \(node)")
        }
        return entry
    }

    /// The output node's unit, if the graph is open and has one.
    private var head: AudioUnit? { state.withLock { s in s.nodes.first(where: \.isOutput)?.unit } }

    // MARK: Open and close

    /// Whether ``open()`` has run (and ``close()`` not since) (`AUGraphIsOpen`).
    public var isOpen: Bool { state.withLock { $0.isOpen } }

    /// Makes every node's unit, uninitialized (`AUGraphOpen`). Opening an open graph does nothing.
    public func open() {
        let wanted = state.withLock { s -> [(Node, AudioComponentDescription)] in
            guard !s.isOpen else { return [] }
            s.isOpen = true
            return s.nodes.filter { $0.unit == nil }.map { ($0.node, $0.description) }
        }
        for (node, description) in wanted {
            guard let unit = AudioComponent.findNext(matching: description)?.instantiate() else { continue }
            state.withLock { s in
                if let i = s.nodes.firstIndex(where: { $0.node == node }) { s.nodes[i].unit = unit }
            }
        }
        attachNotifications()
    }

    /// Uninitializes and drops every unit, keeping the nodes and their interactions
    /// (`AUGraphClose`).
    public func close() {
        stop()
        uninitialize()
        state.withLock { s in
            for i in s.nodes.indices { s.nodes[i].unit = nil }
            s.isOpen = false
            s.applied = [:]
            for i in s.notifications.indices { s.notifications[i].unitToken = nil }
            s.notifiedUnit = nil
        }
    }

    // MARK: Interactions

    /// Connects output `sourceOutput` of `sourceNode` to input `destInput` of `destNode`
    /// (`AUGraphConnectNodeInput`); the unit takes it at ``initialize()`` or, once initialized,
    /// at ``update()``. `nodeNotFound`; `invalidConnection` when the input already has a
    /// connection or callback, or the node would feed itself.
    public func connect(sourceNode: Node, sourceOutput: UInt32, destNode: Node, destInput: UInt32) throws(AudioUnitError) {
        _ = try entry(sourceNode)
        _ = try entry(destNode)
        guard sourceNode != destNode else { throw AudioUnitError(.invalidConnection, "node \(sourceNode) cannot feed itself") }
        try addInteraction(.connection(sourceNode: sourceNode, sourceOutput: sourceOutput, destNode: destNode, destInput: destInput))
    }

    /// Sets the render callback of input `destInput` of `destNode` (`AUGraphSetNodeInputCallback`),
    /// replacing a callback there; taken as connections are. `nodeNotFound`; `invalidConnection`
    /// when the input has a connection.
    public func setNodeInputCallback(destNode: Node, destInput: UInt32, _ callback: @escaping AudioUnitRenderCallback) throws(AudioUnitError) {
        _ = try entry(destNode)
        state.withLock { s in
            s.interactions.removeAll { if case .inputCallback = $0 { $0.destNode == destNode && $0.destInput == destInput } else { false } }
        }
        try addInteraction(.inputCallback(destNode: destNode, destInput: destInput, callback: callback))
    }

    private func addInteraction(_ interaction: Interaction) throws(AudioUnitError) {
        try state.withLock { s throws(AudioUnitError) in
            if s.interactions.contains(where: { $0.destNode == interaction.destNode && $0.destInput == interaction.destInput }) {
                throw AudioUnitError(.invalidConnection, "input \(interaction.destInput) of node \(interaction.destNode) is already fed")
            }
            s.interactions.append(interaction)
        }
    }

    /// Removes the connection or callback of input `destInput` of `destNode`
    /// (`AUGraphDisconnectNodeInput`); taken as connections are. `nodeNotFound`.
    public func disconnectNodeInput(destNode: Node, destInput: UInt32) throws(AudioUnitError) {
        _ = try entry(destNode)
        state.withLock { s in s.interactions.removeAll { $0.destNode == destNode && $0.destInput == destInput } }
    }

    /// Removes every connection and callback (`AUGraphClearConnections`); taken as connections are.
    public func clearConnections() {
        state.withLock { $0.interactions.removeAll() }
    }

    /// Every connection and callback of the graph, in the order they were made
    /// (`AUGraphGetNumberOfInteractions`, `AUGraphGetInteractionInfo`).
    public var interactions: [Interaction] { state.withLock { $0.interactions } }

    /// The connections and callbacks `node` takes part in, as source or destination
    /// (`AUGraphCountNodeInteractions`, `AUGraphGetNodeInteractions`). `nodeNotFound`.
    public func interactions(of node: Node) throws(AudioUnitError) -> [Interaction] {
        _ = try entry(node)
        return state.withLock { $0.interactions.filter { $0.involves(node) } }
    }

    /// Gives the units the connections and callbacks changed since they were last given
    /// (`AUGraphUpdate`); returns true when everything is applied (always, here: the update is
    /// made at once, never left pending). An error of a unit (an input or output it does not
    /// have) stops the update there; the rest is applied by the next call.
    @discardableResult
    public func update() throws(AudioUnitError) -> Bool {
        try apply()
        return true
    }

    /// Gives the units of an open graph the interactions that differ from what they have.
    private func apply() throws(AudioUnitError) {
        let (wanted, applied, nodes, open) = state.withLock { s in
            (s.interactions, s.applied, s.nodes, s.isOpen)
        }
        guard open else { return }
        func unit(_ node: Node) -> AudioUnit? { nodes.first { $0.node == node }?.unit }
        var wantedKeys = Set<NodeInput>()
        for interaction in wanted {
            let key = NodeInput(node: interaction.destNode, input: interaction.destInput)
            wantedKeys.insert(key)
            if let old = applied[key], Self.same(old, interaction) { continue }
            guard let dest = unit(interaction.destNode) else { continue }
            switch interaction {
            case .connection(let sourceNode, let output, _, let input):
                guard let source = unit(sourceNode) else { continue }
                do {
                    try dest.setInputSource(.connection(source, outputBus: output), element: input)
                } catch {
                    throw AudioUnitError(.invalidConnection, "node \(sourceNode) output \(output) to node \(interaction.destNode) input \(input): \(error.reason)")
                }
            case .inputCallback(_, let input, let callback):
                try dest.setInputSource(.callback(callback), element: input)
            }
            state.withLock { $0.applied[key] = interaction }
        }
        for key in applied.keys where !wantedKeys.contains(key) {
            try? unit(key.node)?.setInputSource(.none, element: key.input)
            state.withLock { $0.applied[key] = nil }
        }
    }

    private static func same(_ a: Interaction, _ b: Interaction) -> Bool {
        switch (a, b) {
        case (.connection(let s1, let o1, let d1, let i1), .connection(let s2, let o2, let d2, let i2)):
            return s1 == s2 && o1 == o2 && d1 == d2 && i1 == i2
        default:
            // Callbacks cannot be compared: a callback set again is given again.
            return false
        }
    }

    // MARK: Initialize, start, stop

    /// Whether ``initialize()`` has run (and ``uninitialize()`` not since) (`AUGraphIsInitialized`).
    public var isInitialized: Bool { state.withLock { $0.isInitialized } }

    /// Opens the graph if it is not, gives the units their connections and callbacks, and
    /// initializes every unit, each source before the units it feeds (`AUGraphInitialize`).
    /// A unit's error stops it there (the units initialized stay so).
    public func initialize() throws(AudioUnitError) {
        open()
        try apply()
        let (nodes, interactions) = state.withLock { ($0.nodes, $0.interactions) }
        for entry in Self.sourcesFirst(nodes, interactions) {
            try entry.unit?.initialize()
        }
        state.withLock { $0.isInitialized = true }
    }

    /// The nodes ordered so that every source comes before the nodes it feeds (a cycle, which
    /// no unit could render, keeps the order of addition for what remains).
    static func sourcesFirst(_ nodes: [Entry], _ interactions: [Interaction]) -> [Entry] {
        var remaining = nodes
        var ordered: [Entry] = []
        while !remaining.isEmpty {
            let ready = remaining.firstIndex { entry in
                !interactions.contains { i in
                    if case .connection(let source, _, let dest, _) = i {
                        return dest == entry.node && remaining.contains { $0.node == source }
                    }
                    return false
                }
            } ?? 0
            ordered.append(remaining.remove(at: ready))
        }
        return ordered
    }

    /// Stops the graph and uninitializes every unit (`AUGraphUninitialize`).
    public func uninitialize() {
        stop()
        let units = state.withLock { s -> [AudioUnit] in
            s.isInitialized = false
            return s.nodes.compactMap(\.unit)
        }
        for unit in units { unit.uninitialize() }
    }

    /// Starts the output node's unit (`AUGraphStart`): `uninitialized` before ``initialize()``,
    /// `outputNode` without an output node, the unit's error when its device does not open.
    /// The generic output has nothing to start: the program renders it.
    public func start() throws(AudioUnitError) {
        guard isInitialized else { throw AudioUnitError(.uninitialized, "AUGraphStart before AUGraphInitialize") }
        guard let output = head as? AudioOutputUnit else { throw AudioUnitError(.outputNode, "the graph has no output node") }
        try output.start()
    }

    /// Stops the output node's unit (`AUGraphStop`); stopping a stopped graph does nothing.
    public func stop() {
        (head as? AudioOutputUnit)?.stop()
    }

    /// Whether the output node's unit runs (`AUGraphIsRunning`).
    public var isRunning: Bool { (head as? AudioOutputUnit)?.isRunning ?? false }

    /// The graph's CPU load (`AUGraphGetCPULoad`, `AUGraphGetMaxCPULoad`): not measured, 0.
    public var cpuLoad: Float { 0 }

    // MARK: Render notifications

    /// Calls `callback` before and after every render of the output node's unit
    /// (`AUGraphAddRenderNotify`), also when the output node is added or the graph opened
    /// later; returns a token for ``removeRenderNotify(_:)``.
    @discardableResult
    public func addRenderNotify(_ callback: @escaping AudioUnitRenderCallback) -> Int {
        let token = state.withLock { s in
            s.nextToken += 1
            s.notifications.append(Notification(token: s.nextToken, callback: callback))
            return s.nextToken
        }
        attachNotifications()
        return token
    }

    /// Removes a render notification (`AUGraphRemoveRenderNotify`); false if there is none.
    @discardableResult
    public func removeRenderNotify(_ token: Int) -> Bool {
        let removed = state.withLock { s -> (Notification, AudioUnit?)? in
            guard let i = s.notifications.firstIndex(where: { $0.token == token }) else { return nil }
            return (s.notifications.remove(at: i), s.notifiedUnit)
        }
        guard let (notification, unit) = removed else { return false }
        if let unitToken = notification.unitToken { unit?.removeRenderNotify(unitToken) }
        return true
    }

    /// Puts the notifications not yet on the output node's unit on it.
    private func attachNotifications() {
        guard let unit = head else { return }
        let pending = state.withLock { s -> [(Int, AudioUnitRenderCallback)] in
            if s.notifiedUnit !== unit {
                s.notifiedUnit = unit
                for i in s.notifications.indices { s.notifications[i].unitToken = nil }
            }
            return s.notifications.filter { $0.unitToken == nil }.map { ($0.token, $0.callback) }
        }
        for (token, callback) in pending {
            let unitToken = unit.addRenderNotify(callback)
            state.withLock { s in
                if let i = s.notifications.firstIndex(where: { $0.token == token }) { s.notifications[i].unitToken = unitToken }
            }
        }
    }
}
