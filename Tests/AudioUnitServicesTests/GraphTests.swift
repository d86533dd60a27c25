import AudioCore
import AudioUnitServices
import Foundation
import AudioDevices
import ProcessSupport
import Synchronization
import Testing

/// AudioUnitGraph: nodes, connections, update semantics and errors, with a generic output at
/// the head so that the test renders it.
@Suite struct GraphTests {
    static let float = Formats.float(44_100, 2, interleaved: false)
    static let int16 = Formats.int16(44_100, 2)

    /// generic output ← converter ← callback; returns the graph and its two nodes, opened.
    func converterGraph() throws -> (AudioUnitGraph, output: AudioUnitGraph.Node, converter: AudioUnitGraph.Node) {
        let graph = AudioUnitGraph()
        let output = try graph.addNode(.genericOutput)
        let converter = try graph.addNode(.converter)
        #expect(output == 1 && converter == 2)
        #expect(try graph.nodeInfo(output).unit == nil, "no unit before the graph is open")
        graph.open()
        #expect(graph.isOpen)
        let converterUnit = try #require(try graph.nodeInfo(converter).unit)
        try converterUnit.setStreamFormat(Self.int16, scope: .input)
        try converterUnit.setStreamFormat(Self.float, scope: .output)
        try graph.connect(sourceNode: converter, sourceOutput: 0, destNode: output, destInput: 0)
        return (graph, output, converter)
    }

    func renderHead(_ graph: AudioUnitGraph, _ node: AudioUnitGraph.Node, frames: Int = 16) throws -> [[Float]] {
        let head = try #require(try graph.nodeInfo(node).unit)
        return try renderAll(head, format: Self.float, total: frames, slice: frames)
    }

    @Test func chainRenders() throws {
        let (graph, output, converter) = try converterGraph()
        let values: [Float] = (0..<16).map { Float($0 * 1000 - 8000) / 32768 }
        let feeder = Feeder([values, values.reversed()], format: Self.int16)
        try graph.setNodeInputCallback(destNode: converter, destInput: 0, feeder.callback)
        #expect(graph.interactions.count == 2)
        #expect(try graph.interactions(of: converter).count == 2)
        #expect(try graph.interactions(of: output).count == 1)
        let converterUnit = try #require(try graph.nodeInfo(converter).unit)
        if case .none = try converterUnit.inputSource() {} else { Issue.record("connections reach the units at initialization") }
        try graph.initialize()
        #expect(graph.isInitialized)
        #expect(converterUnit.isInitialized)
        let got = try renderHead(graph, output)
        #expect(got[0] == values)
        #expect(got[1] == values.reversed())
        try graph.start()  // the generic output: nothing to start
        #expect(!graph.isRunning)
        #expect(graph.cpuLoad == 0)
        graph.uninitialize()
        #expect(!converterUnit.isInitialized)
        graph.close()
        #expect(!graph.isOpen)
        #expect(try graph.nodeInfo(converter).unit == nil)
        #expect(graph.nodeCount == 2)
    }

    /// Once initialized, a change of callback reaches the unit at update().
    @Test func changesWaitForUpdate() throws {
        let (graph, output, converter) = try converterGraph()
        let a = Feeder([Array(repeating: 0.25, count: 64), Array(repeating: 0.25, count: 64)], format: Self.int16)
        let b = Feeder([Array(repeating: -0.5, count: 64), Array(repeating: -0.5, count: 64)], format: Self.int16)
        try graph.setNodeInputCallback(destNode: converter, destInput: 0, a.callback)
        try graph.initialize()
        #expect(try renderHead(graph, output)[0].allSatisfy { $0 == 0.25 })
        try graph.disconnectNodeInput(destNode: converter, destInput: 0)
        try graph.setNodeInputCallback(destNode: converter, destInput: 0, b.callback)
        #expect(try renderHead(graph, output)[0].allSatisfy { $0 == 0.25 }, "not before update()")
        #expect(try graph.update())
        #expect(try renderHead(graph, output)[0].allSatisfy { $0 == -0.5 })

        // A disconnection waits too; after update() the converter's input has no source.
        try graph.disconnectNodeInput(destNode: converter, destInput: 0)
        #expect(try renderHead(graph, output)[0].allSatisfy { $0 == -0.5 })
        try graph.update()
        let head = try #require(try graph.nodeInfo(output).unit)
        #expect(render(head, TestBufferList(format: Self.float, frames: 16)) == AudioUnitError.Code.noConnection.rawValue)
    }

    /// The head's render notifications, added before the graph is open.
    @Test func renderNotifications() throws {
        let graph = AudioUnitGraph()
        let log = FlagLog()
        let token = graph.addRenderNotify { flags, _, _, _, _ in
            log.append(flags.pointee)
            return 0
        }
        let (g, output, converter) = (graph, try graph.addNode(.genericOutput), try graph.addNode(.converter))
        g.open()
        try (try g.nodeInfo(converter).unit!).setStreamFormat(Self.float, scope: .input)
        try g.connect(sourceNode: converter, sourceOutput: 0, destNode: output, destInput: 0)
        let feeder = Feeder([[0.5], [0.5]], format: Self.float)
        try g.setNodeInputCallback(destNode: converter, destInput: 0, feeder.callback)
        try g.initialize()
        _ = try renderHead(g, output)
        #expect(log.flags == [.preRender, .postRender])
        #expect(g.removeRenderNotify(token))
        #expect(!g.removeRenderNotify(token))
        _ = try renderHead(g, output)
        #expect(log.flags.count == 2)
    }

    @Test func errors() throws {
        let graph = AudioUnitGraph()
        let output = try graph.addNode(.genericOutput)
        let second = #expect(throws: AudioUnitError.self) { try graph.addNode(.defaultOutput) }
        #expect(second?.code == .outputNode)
        let unknown = #expect(throws: AudioUnitError.self) {
            try graph.addNode(AudioComponentDescription(type: "aufx", subType: "zzzz", manufacturer: "appl"))
        }
        #expect(unknown?.code == .invalidAudioUnit)
        let mixer = try graph.addNode(.multiChannelMixer)
        let missing = #expect(throws: AudioUnitError.self) { try graph.connect(sourceNode: 99, sourceOutput: 0, destNode: output, destInput: 0) }
        #expect(missing?.code == .nodeNotFound)
        #expect((#expect(throws: AudioUnitError.self) { try graph.nodeInfo(0) })?.code == .nodeNotFound)
        #expect((#expect(throws: AudioUnitError.self) { try graph.removeNode(42) })?.code == .nodeNotFound)
        #expect((#expect(throws: AudioUnitError.self) { try graph.node(at: 2) })?.code == .parameter)
        #expect(try graph.node(at: 1) == mixer)
        try graph.connect(sourceNode: mixer, sourceOutput: 0, destNode: output, destInput: 0)
        let twice = #expect(throws: AudioUnitError.self) { try graph.connect(sourceNode: mixer, sourceOutput: 0, destNode: output, destInput: 0) }
        #expect(twice?.code == .invalidConnection)
        let itself = #expect(throws: AudioUnitError.self) { try graph.connect(sourceNode: mixer, sourceOutput: 0, destNode: mixer, destInput: 1) }
        #expect(itself?.code == .invalidConnection)
        let early = #expect(throws: AudioUnitError.self) { try graph.start() }
        #expect(early?.code == .uninitialized)

        // Removing the output node takes its connection; then start has no output node.
        try graph.removeNode(output)
        #expect(graph.interactions.isEmpty)
        #expect(graph.nodeCount == 1)
        try graph.initialize()
        let headless = #expect(throws: AudioUnitError.self) { try graph.start() }
        #expect(headless?.code == .outputNode)
        // A node added to an open graph gets its unit at once; numbers keep counting up.
        let again = try graph.addNode(.genericOutput)
        #expect(again == 3)
        #expect(try graph.nodeInfo(again).unit != nil)
        // A connection to an input the unit lacks fails at the update.
        try graph.connect(sourceNode: mixer, sourceOutput: 5, destNode: again, destInput: 0)
        let bad = #expect(throws: AudioUnitError.self) { try graph.update() }
        #expect(bad?.code == .invalidConnection)
    }

    /// A mixer feeding a converter feeding the head.
    @Test func mixerConverterChain() throws {
        let graph = AudioUnitGraph()
        let output = try graph.addNode(.genericOutput)
        let converter = try graph.addNode(.converter)
        let mixer = try graph.addNode(.multiChannelMixer)
        graph.open()
        try graph.connect(sourceNode: mixer, sourceOutput: 0, destNode: converter, destInput: 0)
        try graph.connect(sourceNode: converter, sourceOutput: 0, destNode: output, destInput: 0)
        let mixerUnit = try #require(try graph.nodeInfo(mixer).unit)
        try mixerUnit.setElementCount(1, scope: .input)
        let feeder = Feeder([Array(repeating: 0.125, count: 64), Array(repeating: 0.125, count: 64)], format: Self.float)
        try graph.setNodeInputCallback(destNode: mixer, destInput: 0, feeder.callback)
        try graph.initialize()
        let got = try renderHead(graph, output)
        #expect(got[0].allSatisfy { $0 == 0.125 })
        #expect(got[1].allSatisfy { $0 == 0.125 })
    }
}

/// A graph whose head is AUHAL on the null device (which takes audio as its source renders it),
/// running on the device's thread.
@Suite struct RunningGraphTests {
    /// While running, a changed callback reaches the converter at update(), not before; the
    /// output node cannot be removed.
    @Test func changesWaitForUpdateWhileRunning() throws {
        let graph = AudioUnitGraph()
        let output = try graph.addNode(.halOutput)
        let converter = try graph.addNode(.converter)
        graph.open()
        let head = try #require(try graph.nodeInfo(output).unit as? AudioOutputUnit)
        let null = try #require(try AudioBackends.backend(named: "null")?.devices().first { $0.direction == .output })
        try head.setCurrentDevice(null.uid)
        let converterUnit = try #require(try graph.nodeInfo(converter).unit)
        let format = try head.streamFormat(scope: .input)
        try converterUnit.setStreamFormat(format, scope: .input)
        try converterUnit.setStreamFormat(format, scope: .output)
        try graph.connect(sourceNode: converter, sourceOutput: 0, destNode: output, destInput: 0)
        let a = CallCounter(), b = CallCounter()
        try graph.setNodeInputCallback(destNode: converter, destInput: 0, a.callback)
        try graph.initialize()
        try graph.start()
        defer { graph.uninitialize() }
        #expect(graph.isRunning)
        #expect(eventually { a.count > 0 }, "the device renders the graph")

        try graph.disconnectNodeInput(destNode: converter, destInput: 0)
        try graph.setNodeInputCallback(destNode: converter, destInput: 0, b.callback)
        let seen = a.count
        #expect(eventually { a.count > seen + 2 }, "the old callback still renders")
        #expect(b.count == 0, "not before update()")
        #expect(try graph.update())
        #expect(eventually { b.count > 0 })
        let removal = #expect(throws: AudioUnitError.self) { try graph.removeNode(output) }
        #expect(removal?.code == .outputNode)
        graph.stop()
        #expect(!graph.isRunning)
    }
}

/// A callback that renders silence and counts its calls, from any thread.
final class CallCounter: Sendable {
    private let calls = Atomic<Int>(0)
    var count: Int { calls.load(ordering: .acquiring) }

    var callback: AudioUnitRenderCallback {
        { [self] _, _, _, frames, data in
            if let data {
                for i in 0..<data.count where data[i].data != nil {
                    data[i].data!.initializeMemory(as: UInt8.self, repeating: 0, count: Int(data[i].dataByteSize))
                }
            }
            _ = frames
            calls.add(1, ordering: .releasing)
            return 0
        }
    }
}
