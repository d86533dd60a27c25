public import CAudioToolbox
#if canImport(Glibc)
import Glibc
#endif

// <CoreAudio/AudioHardware.h> and Audio Hardware Services (<AudioToolbox/AudioServices.h>):
// the C functions. A NULL address, size or result pointer is kAudioHardwareIllegalOperationError,
// an unknown object kAudioHardwareBadObjectError, a property the object lacks
// kAudioHardwareUnknownPropertyError, a size too small kAudioHardwareBadPropertySizeError.

private let illegal = kAudioHardwareIllegalOperationError

private func status(_ body: () throws(HALError) -> Void) -> OSStatus { HALError.status(body) }

private func qualifierBytes(_ size: UInt32, _ data: UnsafeRawPointer?) -> UnsafeRawBufferPointer? {
    guard let data, size > 0 else { return nil }
    return UnsafeRawBufferPointer(start: data, count: Int(size))
}

// MARK: The calls both APIs share

private func hasProperty(_ id: AudioObjectID, _ address: UnsafePointer<AudioObjectPropertyAddress>?, service: Bool) -> Bool {
    guard let address else { return false }
    return (try? HALProperties.property(id, address.pointee, service: service)) != nil
}

private func isSettable(
    _ id: AudioObjectID, _ address: UnsafePointer<AudioObjectPropertyAddress>?, _ out: UnsafeMutablePointer<UInt8>?, service: Bool
) -> OSStatus {
    guard let address, let out else { return illegal }
    return status { () throws(HALError) in
        out.pointee = try HALProperties.property(id, address.pointee, service: service).settable ? 1 : 0
    }
}

private func dataSize(
    _ id: AudioObjectID, _ address: UnsafePointer<AudioObjectPropertyAddress>?, _ qualifierSize: UInt32, _ qualifier: UnsafeRawPointer?,
    _ out: UnsafeMutablePointer<UInt32>?, service: Bool
) -> OSStatus {
    guard let address, let out else { return illegal }
    return status { () throws(HALError) in
        let found = try HALProperties.property(id, address.pointee, qualifier: qualifierBytes(qualifierSize, qualifier), service: service)
        out.pointee = UInt32(found.value.size)
    }
}

private func getData(
    _ id: AudioObjectID, _ address: UnsafePointer<AudioObjectPropertyAddress>?, _ qualifierSize: UInt32, _ qualifier: UnsafeRawPointer?,
    _ ioSize: UnsafeMutablePointer<UInt32>?, _ out: UnsafeMutableRawPointer?, service: Bool
) -> OSStatus {
    guard let address, let ioSize, let out else { return illegal }
    return status { () throws(HALError) in
        let found = try HALProperties.property(id, address.pointee, qualifier: qualifierBytes(qualifierSize, qualifier), service: service)
        guard !found.qualifierMissing else { throw .badSize }
        ioSize.pointee = UInt32(try found.value.write(into: out, capacity: Int(ioSize.pointee)))
    }
}

private func setData(
    _ id: AudioObjectID, _ address: UnsafePointer<AudioObjectPropertyAddress>?, _ qualifierSize: UInt32, _ qualifier: UnsafeRawPointer?,
    _ size: UInt32, _ data: UnsafeRawPointer?, service: Bool
) -> OSStatus {
    guard let address, let data else { return illegal }
    return status { () throws(HALError) in
        try HALProperties.set(
            id, address.pointee, qualifier: qualifierBytes(qualifierSize, qualifier),
            data: UnsafeRawBufferPointer(start: data, count: Int(size)), service: service)
    }
}

private func addListener(
    _ id: AudioObjectID, _ address: UnsafePointer<AudioObjectPropertyAddress>?, _ proc: AudioObjectPropertyListenerProc?,
    _ data: UnsafeMutableRawPointer?
) -> OSStatus {
    guard let address, let proc else { return illegal }
    guard HALObjects.object(id) != nil else { return kAudioHardwareBadObjectError }
    HALListeners.add(id, address.pointee, .object(proc), data)
    return kAudioHardwareNoError
}

private func removeListener(
    _ id: AudioObjectID, _ address: UnsafePointer<AudioObjectPropertyAddress>?, _ proc: AudioObjectPropertyListenerProc?,
    _ data: UnsafeMutableRawPointer?
) -> OSStatus {
    guard let address, let proc else { return illegal }
    HALListeners.remove(id, address.pointee, .object(proc), data)
    return kAudioHardwareNoError
}

// MARK: AudioObject

@_spi(CImplementation) @_cdecl("AudioObjectHasProperty")
public func _AudioObjectHasProperty(_ id: AudioObjectID, _ address: UnsafePointer<AudioObjectPropertyAddress>?) -> Bool {
    hasProperty(id, address, service: false)
}

@_spi(CImplementation) @_cdecl("AudioObjectIsPropertySettable")
public func _AudioObjectIsPropertySettable(
    _ id: AudioObjectID, _ address: UnsafePointer<AudioObjectPropertyAddress>?, _ out: UnsafeMutablePointer<UInt8>?
) -> OSStatus {
    isSettable(id, address, out, service: false)
}

@_spi(CImplementation) @_cdecl("AudioObjectGetPropertyDataSize")
public func _AudioObjectGetPropertyDataSize(
    _ id: AudioObjectID, _ address: UnsafePointer<AudioObjectPropertyAddress>?, _ qualifierSize: UInt32, _ qualifier: UnsafeRawPointer?,
    _ out: UnsafeMutablePointer<UInt32>?
) -> OSStatus {
    dataSize(id, address, qualifierSize, qualifier, out, service: false)
}

@_spi(CImplementation) @_cdecl("AudioObjectGetPropertyData")
public func _AudioObjectGetPropertyData(
    _ id: AudioObjectID, _ address: UnsafePointer<AudioObjectPropertyAddress>?, _ qualifierSize: UInt32, _ qualifier: UnsafeRawPointer?,
    _ ioSize: UnsafeMutablePointer<UInt32>?, _ out: UnsafeMutableRawPointer?
) -> OSStatus {
    getData(id, address, qualifierSize, qualifier, ioSize, out, service: false)
}

@_spi(CImplementation) @_cdecl("AudioObjectSetPropertyData")
public func _AudioObjectSetPropertyData(
    _ id: AudioObjectID, _ address: UnsafePointer<AudioObjectPropertyAddress>?, _ qualifierSize: UInt32, _ qualifier: UnsafeRawPointer?,
    _ size: UInt32, _ data: UnsafeRawPointer?
) -> OSStatus {
    setData(id, address, qualifierSize, qualifier, size, data, service: false)
}

@_spi(CImplementation) @_cdecl("AudioObjectAddPropertyListener")
public func _AudioObjectAddPropertyListener(
    _ id: AudioObjectID, _ address: UnsafePointer<AudioObjectPropertyAddress>?, _ proc: AudioObjectPropertyListenerProc?,
    _ data: UnsafeMutableRawPointer?
) -> OSStatus {
    addListener(id, address, proc, data)
}

@_spi(CImplementation) @_cdecl("AudioObjectRemovePropertyListener")
public func _AudioObjectRemovePropertyListener(
    _ id: AudioObjectID, _ address: UnsafePointer<AudioObjectPropertyAddress>?, _ proc: AudioObjectPropertyListenerProc?,
    _ data: UnsafeMutableRawPointer?
) -> OSStatus {
    removeListener(id, address, proc, data)
}

@_spi(CImplementation) @_cdecl("AudioObjectShow")
public func _AudioObjectShow(_ id: AudioObjectID) {
    guard let (object, _) = HALObjects.object(id) else {
        writeLineToStandardError("AudioObject \(id): no such object")
        return
    }
    let text: String
    switch object {
    case .system: text = "AudioObject \(id): the system object"
    case .device(let device): text = "AudioObject \(id): device \"\(device.name)\" (\(device.uid))"
    case .stream(let device, let direction): text = "AudioObject \(id): \(direction) stream of \(device.uid)"
    }
    writeLineToStandardError(text)
}

@_spi(CImplementation) @_cdecl("AudioObjectAddPropertyListenerBlock")
public func _AudioObjectAddPropertyListenerBlock(
    _ id: AudioObjectID, _ address: UnsafePointer<AudioObjectPropertyAddress>?, _ queue: OpaquePointer?, _ block: UnsafeRawPointer?
) -> OSStatus {
    // Blocks need a blocks runtime and a dispatch queue, which C programs here rarely have.
    kAudioHardwareUnsupportedOperationError
}

@_spi(CImplementation) @_cdecl("AudioObjectRemovePropertyListenerBlock")
public func _AudioObjectRemovePropertyListenerBlock(
    _ id: AudioObjectID, _ address: UnsafePointer<AudioObjectPropertyAddress>?, _ queue: OpaquePointer?, _ block: UnsafeRawPointer?
) -> OSStatus {
    kAudioHardwareUnsupportedOperationError
}

// MARK: The system object

@_spi(CImplementation) @_cdecl("AudioHardwareUnload")
public func _AudioHardwareUnload() -> OSStatus {
    // Nothing is held between calls: the listing and the listeners stay as they are.
    kAudioHardwareNoError
}

@_spi(CImplementation) @_cdecl("AudioHardwareCreateAggregateDevice")
public func _AudioHardwareCreateAggregateDevice(_ description: UnsafeRawPointer?, _ out: UnsafeMutablePointer<AudioObjectID>?) -> OSStatus {
    guard description != nil, let out else { return illegal }
    out.pointee = kAudioObjectUnknown
    return kAudioHardwareUnsupportedOperationError
}

@_spi(CImplementation) @_cdecl("AudioHardwareDestroyAggregateDevice")
public func _AudioHardwareDestroyAggregateDevice(_ id: AudioObjectID) -> OSStatus {
    HALObjects.object(id) == nil ? kAudioHardwareBadObjectError : kAudioHardwareUnsupportedOperationError
}

// MARK: Audio Hardware Services

@_spi(CImplementation) @_cdecl("AudioHardwareServiceHasProperty")
public func _AudioHardwareServiceHasProperty(_ id: AudioObjectID, _ address: UnsafePointer<AudioObjectPropertyAddress>?) -> Bool {
    hasProperty(id, address, service: true)
}

@_spi(CImplementation) @_cdecl("AudioHardwareServiceIsPropertySettable")
public func _AudioHardwareServiceIsPropertySettable(
    _ id: AudioObjectID, _ address: UnsafePointer<AudioObjectPropertyAddress>?, _ out: UnsafeMutablePointer<UInt8>?
) -> OSStatus {
    isSettable(id, address, out, service: true)
}

@_spi(CImplementation) @_cdecl("AudioHardwareServiceGetPropertyDataSize")
public func _AudioHardwareServiceGetPropertyDataSize(
    _ id: AudioObjectID, _ address: UnsafePointer<AudioObjectPropertyAddress>?, _ qualifierSize: UInt32, _ qualifier: UnsafeRawPointer?,
    _ out: UnsafeMutablePointer<UInt32>?
) -> OSStatus {
    dataSize(id, address, qualifierSize, qualifier, out, service: true)
}

@_spi(CImplementation) @_cdecl("AudioHardwareServiceGetPropertyData")
public func _AudioHardwareServiceGetPropertyData(
    _ id: AudioObjectID, _ address: UnsafePointer<AudioObjectPropertyAddress>?, _ qualifierSize: UInt32, _ qualifier: UnsafeRawPointer?,
    _ ioSize: UnsafeMutablePointer<UInt32>?, _ out: UnsafeMutableRawPointer?
) -> OSStatus {
    getData(id, address, qualifierSize, qualifier, ioSize, out, service: true)
}

@_spi(CImplementation) @_cdecl("AudioHardwareServiceSetPropertyData")
public func _AudioHardwareServiceSetPropertyData(
    _ id: AudioObjectID, _ address: UnsafePointer<AudioObjectPropertyAddress>?, _ qualifierSize: UInt32, _ qualifier: UnsafeRawPointer?,
    _ size: UInt32, _ data: UnsafeRawPointer?
) -> OSStatus {
    setData(id, address, qualifierSize, qualifier, size, data, service: true)
}

@_spi(CImplementation) @_cdecl("AudioHardwareServiceAddPropertyListener")
public func _AudioHardwareServiceAddPropertyListener(
    _ id: AudioObjectID, _ address: UnsafePointer<AudioObjectPropertyAddress>?, _ proc: AudioObjectPropertyListenerProc?,
    _ data: UnsafeMutableRawPointer?
) -> OSStatus {
    addListener(id, address, proc, data)
}

@_spi(CImplementation) @_cdecl("AudioHardwareServiceRemovePropertyListener")
public func _AudioHardwareServiceRemovePropertyListener(
    _ id: AudioObjectID, _ address: UnsafePointer<AudioObjectPropertyAddress>?, _ proc: AudioObjectPropertyListenerProc?,
    _ data: UnsafeMutableRawPointer?
) -> OSStatus {
    removeListener(id, address, proc, data)
}
