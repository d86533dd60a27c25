public import CAudioToolbox
import AudioCore
import AudioUnitServices

// <AudioToolbox/AUComponent.h> and <AudioToolbox/AudioOutputUnit.h>: a unit's life cycle,
// listeners, render notifications, parameters and render, over AudioUnitServices. The
// properties are in AudioUnitProperties.swift.

@_spi(CImplementation) @_cdecl("AudioUnitInitialize")
public func _AudioUnitInitialize(_ inUnit: OpaquePointer?) -> OSStatus {
    unitStatus(inUnit) { box throws(AudioUnitError) in try box.unit.initialize() }
}

@_spi(CImplementation) @_cdecl("AudioUnitUninitialize")
public func _AudioUnitUninitialize(_ inUnit: OpaquePointer?) -> OSStatus {
    unitStatus(inUnit) { box in box.unit.uninitialize() }
}

@_spi(CImplementation) @_cdecl("AudioUnitReset")
public func _AudioUnitReset(_ inUnit: OpaquePointer?, _ inScope: UInt32, _ inElement: UInt32) -> OSStatus {
    unitStatus(inUnit) { box throws(AudioUnitError) in try box.unit.reset(scope: .init(rawValue: inScope), element: inElement) }
}

@_spi(CImplementation) @_cdecl("AudioOutputUnitStart")
public func _AudioOutputUnitStart(_ ci: OpaquePointer?) -> OSStatus {
    unitStatus(ci) { box throws(AudioUnitError) in
        guard let output = box.unit as? AudioOutputUnit else { throw AudioUnitError(.invalidProperty, "not an output unit") }
        try output.start()
    }
}

@_spi(CImplementation) @_cdecl("AudioOutputUnitStop")
public func _AudioOutputUnitStop(_ ci: OpaquePointer?) -> OSStatus {
    unitStatus(ci) { box throws(AudioUnitError) in
        guard let output = box.unit as? AudioOutputUnit else { throw AudioUnitError(.invalidProperty, "not an output unit") }
        output.stop()
    }
}

@_spi(CImplementation) @_cdecl("AudioUnitRender")
public func _AudioUnitRender(
    _ inUnit: OpaquePointer?, _ ioActionFlags: UnsafeMutablePointer<CAudioToolbox.AudioUnitRenderActionFlags>?,
    _ inTimeStamp: UnsafePointer<CAudioToolbox.AudioTimeStamp>?, _ inOutputBusNumber: UInt32, _ inNumberFrames: UInt32,
    _ ioData: UnsafeMutablePointer<CAudioToolbox.AudioBufferList>?
) -> OSStatus {
    guard let box = UnitBox.box(inUnit), let ioActionFlags, let inTimeStamp, let ioData else { return paramError }
    return box.unit.render(
        flags: UnsafeMutableRawPointer(ioActionFlags).assumingMemoryBound(to: SwiftFlags.self),
        time: AudioTimeStampPointer(UnsafeMutableRawPointer(mutating: inTimeStamp)), bus: inOutputBusNumber, frames: inNumberFrames,
        data: AudioBufferListPointer(UnsafeMutableRawPointer(ioData)))
}

@_spi(CImplementation) @_cdecl("AudioUnitProcess")
public func _AudioUnitProcess(
    _ inUnit: OpaquePointer?, _ ioActionFlags: UnsafeMutablePointer<CAudioToolbox.AudioUnitRenderActionFlags>?,
    _ inTimeStamp: UnsafePointer<CAudioToolbox.AudioTimeStamp>?, _ inNumberFrames: UInt32,
    _ ioData: UnsafeMutablePointer<CAudioToolbox.AudioBufferList>?
) -> OSStatus {
    // In-place processing is for effect units; none of the library's units is one.
    UnitBox.box(inUnit) == nil ? paramError : OSStatus(kAudioUnitErr_InvalidProperty)
}

@_spi(CImplementation) @_cdecl("AudioUnitProcessMultiple")
public func _AudioUnitProcessMultiple(
    _ inUnit: OpaquePointer?, _ ioActionFlags: UnsafeMutablePointer<CAudioToolbox.AudioUnitRenderActionFlags>?,
    _ inTimeStamp: UnsafePointer<CAudioToolbox.AudioTimeStamp>?, _ inNumberFrames: UInt32, _ inNumberInputBufferLists: UInt32,
    _ inInputBufferLists: UnsafeMutablePointer<UnsafePointer<CAudioToolbox.AudioBufferList>>?, _ inNumberOutputBufferLists: UInt32,
    _ ioOutputBufferLists: UnsafeMutablePointer<UnsafeMutablePointer<CAudioToolbox.AudioBufferList>>?
) -> OSStatus {
    UnitBox.box(inUnit) == nil ? paramError : OSStatus(kAudioUnitErr_InvalidProperty)
}

// MARK: Parameters

@_spi(CImplementation) @_cdecl("AudioUnitGetParameter")
public func _AudioUnitGetParameter(
    _ inUnit: OpaquePointer?, _ inID: UInt32, _ inScope: UInt32, _ inElement: UInt32,
    _ outValue: UnsafeMutablePointer<AudioUnitParameterValue>?
) -> OSStatus {
    guard let outValue else { return paramError }
    return unitStatus(inUnit) { box throws(AudioUnitError) in
        outValue.pointee = try box.unit.parameter(.init(rawValue: inID), scope: .init(rawValue: inScope), element: inElement)
    }
}

@_spi(CImplementation) @_cdecl("AudioUnitSetParameter")
public func _AudioUnitSetParameter(
    _ inUnit: OpaquePointer?, _ inID: UInt32, _ inScope: UInt32, _ inElement: UInt32,
    _ inValue: AudioUnitParameterValue, _ inBufferOffsetInFrames: UInt32
) -> OSStatus {
    unitStatus(inUnit) { box throws(AudioUnitError) in
        try box.unit.setParameter(.init(rawValue: inID), scope: .init(rawValue: inScope), element: inElement, to: inValue)
    }
}

@_spi(CImplementation) @_cdecl("AudioUnitScheduleParameters")
public func _AudioUnitScheduleParameters(
    _ inUnit: OpaquePointer?, _ inParameterEvent: UnsafePointer<AudioUnitParameterEvent>?, _ inNumParamEvents: UInt32
) -> OSStatus {
    guard inNumParamEvents == 0 || inParameterEvent != nil else { return paramError }
    return unitStatus(inUnit) { box throws(AudioUnitError) in
        // Each event takes effect at the next render: an immediate one's value, a ramp's end.
        for i in 0..<Int(inNumParamEvents) {
            guard let event = inParameterEvent?[i] else { continue }
            let value = event.eventType.rawValue == 2 ? event.eventValues.ramp.endValue : event.eventValues.immediate.value
            try box.unit.setParameter(.init(rawValue: event.parameter), scope: .init(rawValue: event.scope), element: event.element, to: value)
        }
    }
}

// MARK: Listeners and render notifications

/// `AudioUnitPropertyListenerProc` with the user data a program may leave NULL.
private typealias NullableListener = @convention(c) (UnsafeMutableRawPointer?, OpaquePointer, UInt32, UInt32, UInt32) -> Void

@_spi(CImplementation) @_cdecl("AudioUnitAddPropertyListener")
public func _AudioUnitAddPropertyListener(
    _ inUnit: OpaquePointer?, _ inID: UInt32, _ inProc: AudioUnitPropertyListenerProc?, _ inProcUserData: UnsafeMutableRawPointer?
) -> OSStatus {
    guard let inProc else { return paramError }
    return unitStatus(inUnit) { box in
        let data = UserData(inProcUserData)
        let handle = box.handle
        // The user data may be NULL: called through a type that says so.
        let proc = unsafeBitCast(inProc, to: NullableListener.self)
        let token = box.unit.addPropertyListener(.init(rawValue: inID)) { _, property, scope, element in
            proc(data.pointer, handle.opaque, property.rawValue, scope.rawValue, element)
        }
        box.registrations.withLock { $0.listeners.append((inProc, inProcUserData, inID, token)) }
    }
}

private func removeListeners(_ box: UnitBox, _ id: UInt32, _ proc: AudioUnitPropertyListenerProc, userData: UnsafeMutableRawPointer??) {
    let tokens = box.registrations.withLock { r -> [Int] in
        let matching = r.listeners.filter { l in
            l.id == id && unsafeBitCast(l.proc, to: UnsafeRawPointer.self) == unsafeBitCast(proc, to: UnsafeRawPointer.self)
                && (userData == nil || l.refCon == userData!)
        }
        r.listeners.removeAll { l in matching.contains { $0.token == l.token } }
        return matching.map(\.token)
    }
    for token in tokens { box.unit.removePropertyListener(token) }
}

@_spi(CImplementation) @_cdecl("AudioUnitRemovePropertyListenerWithUserData")
public func _AudioUnitRemovePropertyListenerWithUserData(
    _ inUnit: OpaquePointer?, _ inID: UInt32, _ inProc: AudioUnitPropertyListenerProc?, _ inProcUserData: UnsafeMutableRawPointer?
) -> OSStatus {
    guard let inProc else { return paramError }
    return unitStatus(inUnit) { box in removeListeners(box, inID, inProc, userData: .some(inProcUserData)) }
}

@_spi(CImplementation) @_cdecl("AudioUnitRemovePropertyListener")
public func _AudioUnitRemovePropertyListener(_ inUnit: OpaquePointer?, _ inID: UInt32, _ inProc: AudioUnitPropertyListenerProc?) -> OSStatus {
    guard let inProc else { return paramError }
    return unitStatus(inUnit) { box in removeListeners(box, inID, inProc, userData: nil) }
}

@_spi(CImplementation) @_cdecl("AudioUnitAddRenderNotify")
public func _AudioUnitAddRenderNotify(_ inUnit: OpaquePointer?, _ inProc: AURenderCallback?, _ inProcUserData: UnsafeMutableRawPointer?) -> OSStatus {
    guard let inProc else { return paramError }
    return unitStatus(inUnit) { box in
        let token = box.unit.addRenderNotify(renderCallback(inProc, inProcUserData))
        box.registrations.withLock { $0.notifications.append((inProc, inProcUserData, token)) }
    }
}

@_spi(CImplementation) @_cdecl("AudioUnitRemoveRenderNotify")
public func _AudioUnitRemoveRenderNotify(_ inUnit: OpaquePointer?, _ inProc: AURenderCallback?, _ inProcUserData: UnsafeMutableRawPointer?) -> OSStatus {
    guard let inProc else { return paramError }
    return unitStatus(inUnit) { box in
        let tokens = box.registrations.withLock { removeNotifications(&$0.notifications, inProc, inProcUserData) }
        for token in tokens { box.unit.removeRenderNotify(token) }
    }
}
