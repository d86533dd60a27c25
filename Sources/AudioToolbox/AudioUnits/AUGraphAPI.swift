public import CAudioToolbox
import AudioCore
import AudioUnitServices
import Locking

// <AudioToolbox/AUGraph.h> over AudioUnitGraph. A graph's handle is a number from a HandleTable
// (a disposed graph answers kAudio_ParamError); its nodes' units get unit handles when the C
// program first asks for them (AUGraphNodeInfo), removed with the graph. The C render callbacks
// given for node inputs are kept beside the graph to answer the interaction calls.

final class GraphBox: @unchecked Sendable {
    static let table = HandleTable<GraphBox>(kind: 13)
    let graph = AudioUnitGraph()
    var handle: UInt = 0
    struct Registrations {
        var callbacks: [AudioUnitGraph.Node: [UInt32: AURenderCallbackStruct]] = [:]
        var notifications: [NotifyRegistration] = []
        var unitHandles: [UInt] = []
    }
    let registrations = Guarded(Registrations())
}

private func graphStatus(_ handle: OpaquePointer?, _ body: (GraphBox) throws(AudioUnitError) -> Void) -> OSStatus {
    guard let box = GraphBox.table.object(handle) else { return paramError }
    return resultStatus { () throws(AudioUnitError) in try body(box) }
}

@_spi(CImplementation) @_cdecl("NewAUGraph")
public func _NewAUGraph(_ outGraph: UnsafeMutablePointer<OpaquePointer?>?) -> OSStatus {
    guard let outGraph else { return paramError }
    AudioToolboxSetUp.audioInUse()
    let box = GraphBox()
    box.handle = GraphBox.table.insert(box)
    outGraph.pointee = box.handle.opaque
    return noErrStatus
}

@_spi(CImplementation) @_cdecl("DisposeAUGraph")
public func _DisposeAUGraph(_ inGraph: OpaquePointer?) -> OSStatus {
    graphStatus(inGraph) { box in
        box.graph.stop()
        box.graph.uninitialize()
        box.graph.close()
        for handle in box.registrations.withLock({ $0.unitHandles }) { UnitBox.table.remove(handle) }
        GraphBox.table.remove(box.handle)
    }
}

@_spi(CImplementation) @_cdecl("AUGraphAddNode")
public func _AUGraphAddNode(
    _ inGraph: OpaquePointer?, _ inDescription: UnsafePointer<CAudioToolbox.AudioComponentDescription>?, _ outNode: UnsafeMutablePointer<AUNode>?
) -> OSStatus {
    guard let inDescription, let outNode else { return paramError }
    return graphStatus(inGraph) { box throws(AudioUnitError) in outNode.pointee = try box.graph.addNode(.init(inDescription.pointee)) }
}

@_spi(CImplementation) @_cdecl("AUGraphRemoveNode")
public func _AUGraphRemoveNode(_ inGraph: OpaquePointer?, _ inNode: AUNode) -> OSStatus {
    graphStatus(inGraph) { box throws(AudioUnitError) in
        let unit = try box.graph.nodeInfo(inNode).unit
        try box.graph.removeNode(inNode)
        box.registrations.withLock { $0.callbacks[inNode] = nil }
        if let unit, let unitBox = UnitBox.box(of: unit) { UnitBox.table.remove(unitBox.handle) }
    }
}

@_spi(CImplementation) @_cdecl("AUGraphGetNodeCount")
public func _AUGraphGetNodeCount(_ inGraph: OpaquePointer?, _ outNumberOfNodes: UnsafeMutablePointer<UInt32>?) -> OSStatus {
    guard let outNumberOfNodes else { return paramError }
    return graphStatus(inGraph) { box in outNumberOfNodes.pointee = UInt32(box.graph.nodeCount) }
}

@_spi(CImplementation) @_cdecl("AUGraphGetIndNode")
public func _AUGraphGetIndNode(_ inGraph: OpaquePointer?, _ inIndex: UInt32, _ outNode: UnsafeMutablePointer<AUNode>?) -> OSStatus {
    guard let outNode else { return paramError }
    return graphStatus(inGraph) { box throws(AudioUnitError) in outNode.pointee = try box.graph.node(at: Int(inIndex)) }
}

@_spi(CImplementation) @_cdecl("AUGraphNodeInfo")
public func _AUGraphNodeInfo(
    _ inGraph: OpaquePointer?, _ inNode: AUNode, _ outDescription: UnsafeMutablePointer<CAudioToolbox.AudioComponentDescription>?,
    _ outAudioUnit: UnsafeMutablePointer<OpaquePointer?>?
) -> OSStatus {
    graphStatus(inGraph) { box throws(AudioUnitError) in
        let info = try box.graph.nodeInfo(inNode)
        outDescription?.pointee = info.description.c
        guard let outAudioUnit else { return }
        guard let unit = info.unit else {
            outAudioUnit.pointee = nil
            return
        }
        if let existing = UnitBox.box(of: unit) {
            outAudioUnit.pointee = existing.handle.opaque
        } else {
            let handle = UnitBox.insert(unit)
            box.registrations.withLock { $0.unitHandles.append(handle) }
            outAudioUnit.pointee = handle.opaque
        }
    }
}

@_spi(CImplementation) @_cdecl("AUGraphConnectNodeInput")
public func _AUGraphConnectNodeInput(
    _ inGraph: OpaquePointer?, _ inSourceNode: AUNode, _ inSourceOutputNumber: UInt32, _ inDestNode: AUNode, _ inDestInputNumber: UInt32
) -> OSStatus {
    graphStatus(inGraph) { box throws(AudioUnitError) in
        try box.graph.connect(sourceNode: inSourceNode, sourceOutput: inSourceOutputNumber, destNode: inDestNode, destInput: inDestInputNumber)
        box.registrations.withLock { $0.callbacks[inDestNode]?[inDestInputNumber] = nil }
    }
}

@_spi(CImplementation) @_cdecl("AUGraphSetNodeInputCallback")
public func _AUGraphSetNodeInputCallback(
    _ inGraph: OpaquePointer?, _ inDestNode: AUNode, _ inDestInputNumber: UInt32, _ inInputCallback: UnsafePointer<AURenderCallbackStruct>?
) -> OSStatus {
    guard let inInputCallback else { return paramError }
    let callback = inInputCallback.pointee
    return graphStatus(inGraph) { box throws(AudioUnitError) in
        guard let proc = callback.inputProc else {
            try box.graph.disconnectNodeInput(destNode: inDestNode, destInput: inDestInputNumber)
            box.registrations.withLock { $0.callbacks[inDestNode]?[inDestInputNumber] = nil }
            return
        }
        try box.graph.setNodeInputCallback(destNode: inDestNode, destInput: inDestInputNumber, renderCallback(proc, callback.inputProcRefCon))
        box.registrations.withLock { $0.callbacks[inDestNode, default: [:]][inDestInputNumber] = callback }
    }
}

@_spi(CImplementation) @_cdecl("AUGraphDisconnectNodeInput")
public func _AUGraphDisconnectNodeInput(_ inGraph: OpaquePointer?, _ inDestNode: AUNode, _ inDestInputNumber: UInt32) -> OSStatus {
    graphStatus(inGraph) { box throws(AudioUnitError) in
        try box.graph.disconnectNodeInput(destNode: inDestNode, destInput: inDestInputNumber)
        box.registrations.withLock { $0.callbacks[inDestNode]?[inDestInputNumber] = nil }
    }
}

@_spi(CImplementation) @_cdecl("AUGraphClearConnections")
public func _AUGraphClearConnections(_ inGraph: OpaquePointer?) -> OSStatus {
    graphStatus(inGraph) { box in
        box.graph.clearConnections()
        box.registrations.withLock { $0.callbacks = [:] }
    }
}

/// An interaction as Apple's struct, with the C callback it was given.
private func interaction(_ i: AudioUnitGraph.Interaction, _ box: GraphBox) -> AUNodeInteraction {
    var out = AUNodeInteraction()
    switch i {
    case .connection(let source, let output, let dest, let input):
        out.nodeInteractionType = UInt32(kAUNodeInteraction_Connection)
        out.nodeInteraction.connection = AUNodeConnection(sourceNode: source, sourceOutputNumber: output, destNode: dest, destInputNumber: input)
    case .inputCallback(let dest, let input, _):
        out.nodeInteractionType = UInt32(kAUNodeInteraction_InputCallback)
        let callback = box.registrations.withLock { $0.callbacks[dest]?[input] } ?? AURenderCallbackStruct()
        out.nodeInteraction.inputCallback = AUNodeRenderCallback(destNode: dest, destInputNumber: input, cback: callback)
    }
    return out
}

@_spi(CImplementation) @_cdecl("AUGraphGetNumberOfInteractions")
public func _AUGraphGetNumberOfInteractions(_ inGraph: OpaquePointer?, _ outNumInteractions: UnsafeMutablePointer<UInt32>?) -> OSStatus {
    guard let outNumInteractions else { return paramError }
    return graphStatus(inGraph) { box in outNumInteractions.pointee = UInt32(box.graph.interactions.count) }
}

@_spi(CImplementation) @_cdecl("AUGraphGetInteractionInfo")
public func _AUGraphGetInteractionInfo(
    _ inGraph: OpaquePointer?, _ inInteractionIndex: UInt32, _ outInteraction: UnsafeMutablePointer<AUNodeInteraction>?
) -> OSStatus {
    guard let outInteraction else { return paramError }
    return graphStatus(inGraph) { box throws(AudioUnitError) in
        let all = box.graph.interactions
        guard Int(inInteractionIndex) < all.count else { throw AudioUnitError(.parameter, "no interaction \(inInteractionIndex)") }
        outInteraction.pointee = interaction(all[Int(inInteractionIndex)], box)
    }
}

@_spi(CImplementation) @_cdecl("AUGraphCountNodeInteractions")
public func _AUGraphCountNodeInteractions(_ inGraph: OpaquePointer?, _ inNode: AUNode, _ outNumInteractions: UnsafeMutablePointer<UInt32>?) -> OSStatus {
    guard let outNumInteractions else { return paramError }
    return graphStatus(inGraph) { box throws(AudioUnitError) in outNumInteractions.pointee = UInt32(try box.graph.interactions(of: inNode).count) }
}

@_spi(CImplementation) @_cdecl("AUGraphGetNodeInteractions")
public func _AUGraphGetNodeInteractions(
    _ inGraph: OpaquePointer?, _ inNode: AUNode, _ ioNumInteractions: UnsafeMutablePointer<UInt32>?,
    _ outInteractions: UnsafeMutablePointer<AUNodeInteraction>?
) -> OSStatus {
    guard let ioNumInteractions, let outInteractions else { return paramError }
    return graphStatus(inGraph) { box throws(AudioUnitError) in
        let all = try box.graph.interactions(of: inNode)
        let n = min(Int(ioNumInteractions.pointee), all.count)
        for i in 0..<n { outInteractions[i] = interaction(all[i], box) }
        ioNumInteractions.pointee = UInt32(n)
    }
}

@_spi(CImplementation) @_cdecl("AUGraphUpdate")
public func _AUGraphUpdate(_ inGraph: OpaquePointer?, _ outIsUpdated: UnsafeMutablePointer<Bool>?) -> OSStatus {
    graphStatus(inGraph) { box throws(AudioUnitError) in
        let updated = try box.graph.update()
        outIsUpdated?.pointee = updated
    }
}

@_spi(CImplementation) @_cdecl("AUGraphOpen")
public func _AUGraphOpen(_ inGraph: OpaquePointer?) -> OSStatus { graphStatus(inGraph) { $0.graph.open() } }

@_spi(CImplementation) @_cdecl("AUGraphClose")
public func _AUGraphClose(_ inGraph: OpaquePointer?) -> OSStatus {
    graphStatus(inGraph) { box in
        box.graph.close()
        for handle in box.registrations.withLock({ r -> [UInt] in
            defer { r.unitHandles = [] }
            return r.unitHandles
        }) { UnitBox.table.remove(handle) }
    }
}

@_spi(CImplementation) @_cdecl("AUGraphInitialize")
public func _AUGraphInitialize(_ inGraph: OpaquePointer?) -> OSStatus {
    graphStatus(inGraph) { box throws(AudioUnitError) in try box.graph.initialize() }
}

@_spi(CImplementation) @_cdecl("AUGraphUninitialize")
public func _AUGraphUninitialize(_ inGraph: OpaquePointer?) -> OSStatus { graphStatus(inGraph) { $0.graph.uninitialize() } }

@_spi(CImplementation) @_cdecl("AUGraphStart")
public func _AUGraphStart(_ inGraph: OpaquePointer?) -> OSStatus {
    graphStatus(inGraph) { box throws(AudioUnitError) in try box.graph.start() }
}

@_spi(CImplementation) @_cdecl("AUGraphStop")
public func _AUGraphStop(_ inGraph: OpaquePointer?) -> OSStatus { graphStatus(inGraph) { $0.graph.stop() } }

@_spi(CImplementation) @_cdecl("AUGraphIsOpen")
public func _AUGraphIsOpen(_ inGraph: OpaquePointer?, _ outIsOpen: UnsafeMutablePointer<Bool>?) -> OSStatus {
    guard let outIsOpen else { return paramError }
    return graphStatus(inGraph) { outIsOpen.pointee = $0.graph.isOpen }
}

@_spi(CImplementation) @_cdecl("AUGraphIsInitialized")
public func _AUGraphIsInitialized(_ inGraph: OpaquePointer?, _ outIsInitialized: UnsafeMutablePointer<Bool>?) -> OSStatus {
    guard let outIsInitialized else { return paramError }
    return graphStatus(inGraph) { outIsInitialized.pointee = $0.graph.isInitialized }
}

@_spi(CImplementation) @_cdecl("AUGraphIsRunning")
public func _AUGraphIsRunning(_ inGraph: OpaquePointer?, _ outIsRunning: UnsafeMutablePointer<Bool>?) -> OSStatus {
    guard let outIsRunning else { return paramError }
    return graphStatus(inGraph) { outIsRunning.pointee = $0.graph.isRunning }
}

@_spi(CImplementation) @_cdecl("AUGraphGetCPULoad")
public func _AUGraphGetCPULoad(_ inGraph: OpaquePointer?, _ outAverageCPULoad: UnsafeMutablePointer<Float32>?) -> OSStatus {
    guard let outAverageCPULoad else { return paramError }
    return graphStatus(inGraph) { outAverageCPULoad.pointee = $0.graph.cpuLoad }
}

@_spi(CImplementation) @_cdecl("AUGraphGetMaxCPULoad")
public func _AUGraphGetMaxCPULoad(_ inGraph: OpaquePointer?, _ outMaxLoad: UnsafeMutablePointer<Float32>?) -> OSStatus {
    guard let outMaxLoad else { return paramError }
    return graphStatus(inGraph) { outMaxLoad.pointee = $0.graph.cpuLoad }
}

@_spi(CImplementation) @_cdecl("AUGraphAddRenderNotify")
public func _AUGraphAddRenderNotify(_ inGraph: OpaquePointer?, _ inCallback: AURenderCallback?, _ inRefCon: UnsafeMutableRawPointer?) -> OSStatus {
    guard let inCallback else { return paramError }
    return graphStatus(inGraph) { box in
        let token = box.graph.addRenderNotify(renderCallback(inCallback, inRefCon))
        box.registrations.withLock { $0.notifications.append((inCallback, inRefCon, token)) }
    }
}

@_spi(CImplementation) @_cdecl("AUGraphRemoveRenderNotify")
public func _AUGraphRemoveRenderNotify(_ inGraph: OpaquePointer?, _ inCallback: AURenderCallback?, _ inRefCon: UnsafeMutableRawPointer?) -> OSStatus {
    guard let inCallback else { return paramError }
    return graphStatus(inGraph) { box in
        let tokens = box.registrations.withLock { removeNotifications(&$0.notifications, inCallback, inRefCon) }
        for token in tokens { _ = box.graph.removeRenderNotify(token) }
    }
}
