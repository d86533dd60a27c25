public import CAudioToolbox

// <CoreAudio/AudioHardwareDeprecated.h>: the calls before AudioObject, each made of the
// AudioObject calls. The system object's calls use the global scope; a device's, the input or
// output scope (isInput) and the channel as the element; a stream's, the global scope and the
// channel. Their listeners are called by the HAL's notification thread as the AudioObject
// listeners are, with their own arguments.

private func address(_ selector: UInt32, _ scope: AudioObjectPropertyScope, _ element: UInt32) -> AudioObjectPropertyAddress {
    AudioObjectPropertyAddress(mSelector: selector, mScope: scope, mElement: element)
}

private func scope(input: UInt8) -> AudioObjectPropertyScope {
    input != 0 ? kAudioObjectPropertyScopeInput : kAudioObjectPropertyScopeOutput
}

/// The size and settability of a property, either pointer NULL when not asked for.
private func propertyInfo(
    _ id: AudioObjectID, _ address: AudioObjectPropertyAddress, _ size: UnsafeMutablePointer<UInt32>?, _ writable: UnsafeMutablePointer<UInt8>?
) -> OSStatus {
    var a = address
    var bytes: UInt32 = 0
    let sized = _AudioObjectGetPropertyDataSize(id, &a, 0, nil, &bytes)
    guard sized == kAudioHardwareNoError else { return sized }
    var settable: UInt8 = 0
    let checked = _AudioObjectIsPropertySettable(id, &a, &settable)
    guard checked == kAudioHardwareNoError else { return checked }
    size?.pointee = bytes
    writable?.pointee = settable
    return kAudioHardwareNoError
}

private func get(_ id: AudioObjectID, _ address: AudioObjectPropertyAddress, _ ioSize: UnsafeMutablePointer<UInt32>?, _ out: UnsafeMutableRawPointer?) -> OSStatus {
    var a = address
    return _AudioObjectGetPropertyData(id, &a, 0, nil, ioSize, out)
}

private func set(_ id: AudioObjectID, _ address: AudioObjectPropertyAddress, _ size: UInt32, _ data: UnsafeRawPointer?) -> OSStatus {
    var a = address
    return _AudioObjectSetPropertyData(id, &a, 0, nil, size, data)
}

private func listen(_ id: AudioObjectID, _ address: AudioObjectPropertyAddress, _ callback: HALListeners.Callback, _ data: UnsafeMutableRawPointer?) -> OSStatus {
    guard HALObjects.object(id) != nil else { return kAudioHardwareBadObjectError }
    HALListeners.add(id, address, callback, data)
    return kAudioHardwareNoError
}

// MARK: The system object

@_spi(CImplementation) @_cdecl("AudioHardwareAddRunLoopSource")
public func _AudioHardwareAddRunLoopSource(_ source: OpaquePointer?) -> OSStatus {
    // Run loop sources are not part of this CoreFoundation: kAudioHardwarePropertyRunLoop
    // names the run loop the notifications go to.
    source == nil ? kAudioHardwareIllegalOperationError : kAudioHardwareUnsupportedOperationError
}

@_spi(CImplementation) @_cdecl("AudioHardwareRemoveRunLoopSource")
public func _AudioHardwareRemoveRunLoopSource(_ source: OpaquePointer?) -> OSStatus {
    source == nil ? kAudioHardwareIllegalOperationError : kAudioHardwareUnsupportedOperationError
}

@_spi(CImplementation) @_cdecl("AudioHardwareGetPropertyInfo")
public func _AudioHardwareGetPropertyInfo(_ selector: UInt32, _ size: UnsafeMutablePointer<UInt32>?, _ writable: UnsafeMutablePointer<UInt8>?) -> OSStatus {
    propertyInfo(systemObjectID, address(selector, kAudioObjectPropertyScopeGlobal, kAudioObjectPropertyElementMain), size, writable)
}

@_spi(CImplementation) @_cdecl("AudioHardwareGetProperty")
public func _AudioHardwareGetProperty(_ selector: UInt32, _ ioSize: UnsafeMutablePointer<UInt32>?, _ out: UnsafeMutableRawPointer?) -> OSStatus {
    get(systemObjectID, address(selector, kAudioObjectPropertyScopeGlobal, kAudioObjectPropertyElementMain), ioSize, out)
}

@_spi(CImplementation) @_cdecl("AudioHardwareSetProperty")
public func _AudioHardwareSetProperty(_ selector: UInt32, _ size: UInt32, _ data: UnsafeRawPointer?) -> OSStatus {
    set(systemObjectID, address(selector, kAudioObjectPropertyScopeGlobal, kAudioObjectPropertyElementMain), size, data)
}

@_spi(CImplementation) @_cdecl("AudioHardwareAddPropertyListener")
public func _AudioHardwareAddPropertyListener(_ selector: UInt32, _ proc: AudioHardwarePropertyListenerProc?, _ data: UnsafeMutableRawPointer?) -> OSStatus {
    guard let proc else { return kAudioHardwareIllegalOperationError }
    return listen(systemObjectID, address(selector, kAudioObjectPropertyScopeGlobal, kAudioObjectPropertyElementMain), .hardware(proc), data)
}

@_spi(CImplementation) @_cdecl("AudioHardwareRemovePropertyListener")
public func _AudioHardwareRemovePropertyListener(_ selector: UInt32, _ proc: AudioHardwarePropertyListenerProc?) -> OSStatus {
    guard let proc else { return kAudioHardwareIllegalOperationError }
    HALListeners.removeAll(systemObjectID, address(selector, kAudioObjectPropertyScopeGlobal, kAudioObjectPropertyElementMain), .hardware(proc))
    return kAudioHardwareNoError
}

// MARK: Devices

@_spi(CImplementation) @_cdecl("AudioDeviceGetPropertyInfo")
public func _AudioDeviceGetPropertyInfo(
    _ device: AudioObjectID, _ channel: UInt32, _ isInput: UInt8, _ selector: UInt32, _ size: UnsafeMutablePointer<UInt32>?,
    _ writable: UnsafeMutablePointer<UInt8>?
) -> OSStatus {
    propertyInfo(device, address(selector, scope(input: isInput), channel), size, writable)
}

@_spi(CImplementation) @_cdecl("AudioDeviceGetProperty")
public func _AudioDeviceGetProperty(
    _ device: AudioObjectID, _ channel: UInt32, _ isInput: UInt8, _ selector: UInt32, _ ioSize: UnsafeMutablePointer<UInt32>?,
    _ out: UnsafeMutableRawPointer?
) -> OSStatus {
    get(device, address(selector, scope(input: isInput), channel), ioSize, out)
}

@_spi(CImplementation) @_cdecl("AudioDeviceSetProperty")
public func _AudioDeviceSetProperty(
    _ device: AudioObjectID, _ when: UnsafePointer<AudioTimeStamp>?, _ channel: UInt32, _ isInput: UInt8, _ selector: UInt32,
    _ size: UInt32, _ data: UnsafeRawPointer?
) -> OSStatus {
    set(device, address(selector, scope(input: isInput), channel), size, data)
}

@_spi(CImplementation) @_cdecl("AudioDeviceAddPropertyListener")
public func _AudioDeviceAddPropertyListener(
    _ device: AudioObjectID, _ channel: UInt32, _ isInput: UInt8, _ selector: UInt32, _ proc: AudioDevicePropertyListenerProc?,
    _ data: UnsafeMutableRawPointer?
) -> OSStatus {
    guard let proc else { return kAudioHardwareIllegalOperationError }
    return listen(device, address(selector, scope(input: isInput), channel), .device(proc), data)
}

@_spi(CImplementation) @_cdecl("AudioDeviceRemovePropertyListener")
public func _AudioDeviceRemovePropertyListener(
    _ device: AudioObjectID, _ channel: UInt32, _ isInput: UInt8, _ selector: UInt32, _ proc: AudioDevicePropertyListenerProc?
) -> OSStatus {
    guard let proc else { return kAudioHardwareIllegalOperationError }
    HALListeners.removeAll(device, address(selector, scope(input: isInput), channel), .device(proc))
    return kAudioHardwareNoError
}

// MARK: Streams

@_spi(CImplementation) @_cdecl("AudioStreamGetPropertyInfo")
public func _AudioStreamGetPropertyInfo(
    _ stream: AudioObjectID, _ channel: UInt32, _ selector: UInt32, _ size: UnsafeMutablePointer<UInt32>?, _ writable: UnsafeMutablePointer<UInt8>?
) -> OSStatus {
    propertyInfo(stream, address(selector, kAudioObjectPropertyScopeGlobal, channel), size, writable)
}

@_spi(CImplementation) @_cdecl("AudioStreamGetProperty")
public func _AudioStreamGetProperty(
    _ stream: AudioObjectID, _ channel: UInt32, _ selector: UInt32, _ ioSize: UnsafeMutablePointer<UInt32>?, _ out: UnsafeMutableRawPointer?
) -> OSStatus {
    get(stream, address(selector, kAudioObjectPropertyScopeGlobal, channel), ioSize, out)
}

@_spi(CImplementation) @_cdecl("AudioStreamSetProperty")
public func _AudioStreamSetProperty(
    _ stream: AudioObjectID, _ when: UnsafePointer<AudioTimeStamp>?, _ channel: UInt32, _ selector: UInt32, _ size: UInt32,
    _ data: UnsafeRawPointer?
) -> OSStatus {
    set(stream, address(selector, kAudioObjectPropertyScopeGlobal, channel), size, data)
}

@_spi(CImplementation) @_cdecl("AudioStreamAddPropertyListener")
public func _AudioStreamAddPropertyListener(
    _ stream: AudioObjectID, _ channel: UInt32, _ selector: UInt32, _ proc: AudioStreamPropertyListenerProc?, _ data: UnsafeMutableRawPointer?
) -> OSStatus {
    guard let proc else { return kAudioHardwareIllegalOperationError }
    return listen(stream, address(selector, kAudioObjectPropertyScopeGlobal, channel), .stream(proc), data)
}

@_spi(CImplementation) @_cdecl("AudioStreamRemovePropertyListener")
public func _AudioStreamRemovePropertyListener(
    _ stream: AudioObjectID, _ channel: UInt32, _ selector: UInt32, _ proc: AudioStreamPropertyListenerProc?
) -> OSStatus {
    guard let proc else { return kAudioHardwareIllegalOperationError }
    HALListeners.removeAll(stream, address(selector, kAudioObjectPropertyScopeGlobal, channel), .stream(proc))
    return kAudioHardwareNoError
}
