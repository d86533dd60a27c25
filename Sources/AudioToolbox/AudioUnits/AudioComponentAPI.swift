public import CAudioToolbox
import AudioCore
import AudioUnitServices

// <AudioToolbox/AudioComponent.h>: finding the library's components and making instances of
// them. The components are Apple's output units (AUHAL, default, system, generic), AUConverter
// and AUMultiChannelMixer; a program's own components cannot be registered
// (AudioComponentRegister returns NULL).

extension AudioUnitServices.AudioComponentDescription {
    init(_ c: CAudioToolbox.AudioComponentDescription) {
        self.init(
            type: FourCharCode(rawValue: c.componentType), subType: FourCharCode(rawValue: c.componentSubType),
            manufacturer: FourCharCode(rawValue: c.componentManufacturer), flags: c.componentFlags, flagsMask: c.componentFlagsMask)
    }

    var c: CAudioToolbox.AudioComponentDescription {
        CAudioToolbox.AudioComponentDescription(
            componentType: type.rawValue, componentSubType: subType.rawValue, componentManufacturer: manufacturer.rawValue,
            componentFlags: flags, componentFlagsMask: flagsMask)
    }
}

@_spi(CImplementation) @_cdecl("AudioComponentFindNext")
public func _AudioComponentFindNext(
    _ inComponent: OpaquePointer?, _ inDesc: UnsafePointer<CAudioToolbox.AudioComponentDescription>?
) -> OpaquePointer? {
    guard let inDesc else { return nil }
    AudioToolboxSetUp.once()
    var previous: SwiftComponent?
    if let inComponent {
        guard let known = ComponentHandles.component(inComponent) else { return nil }
        previous = known
    }
    guard let found = SwiftComponent.findNext(after: previous, matching: .init(inDesc.pointee)) else { return nil }
    return ComponentHandles.handle(found)
}

@_spi(CImplementation) @_cdecl("AudioComponentCount")
public func _AudioComponentCount(_ inDesc: UnsafePointer<CAudioToolbox.AudioComponentDescription>?) -> UInt32 {
    guard let inDesc else { return 0 }
    return UInt32(SwiftComponent.count(matching: .init(inDesc.pointee)))
}

@_spi(CImplementation) @_cdecl("AudioComponentCopyName")
public func _AudioComponentCopyName(_ inComponent: OpaquePointer?, _ outName: UnsafeMutablePointer<CFStringRef?>?) -> OSStatus {
    guard let component = ComponentHandles.component(inComponent), let outName else { return paramError }
    outName.pointee = CFStringRef(CFObjects.makeString(component.name))
    return noErrStatus
}

@_spi(CImplementation) @_cdecl("AudioComponentGetDescription")
public func _AudioComponentGetDescription(
    _ inComponent: OpaquePointer?, _ outDesc: UnsafeMutablePointer<CAudioToolbox.AudioComponentDescription>?
) -> OSStatus {
    guard let component = ComponentHandles.component(inComponent), let outDesc else { return paramError }
    outDesc.pointee = component.description.c
    return noErrStatus
}

@_spi(CImplementation) @_cdecl("AudioComponentGetVersion")
public func _AudioComponentGetVersion(_ inComponent: OpaquePointer?, _ outVersion: UnsafeMutablePointer<UInt32>?) -> OSStatus {
    guard let component = ComponentHandles.component(inComponent), let outVersion else { return paramError }
    outVersion.pointee = component.version
    return noErrStatus
}

@_spi(CImplementation) @_cdecl("AudioComponentInstanceNew")
public func _AudioComponentInstanceNew(_ inComponent: OpaquePointer?, _ outInstance: UnsafeMutablePointer<OpaquePointer?>?) -> OSStatus {
    guard let component = ComponentHandles.component(inComponent), let outInstance else { return paramError }
    AudioToolboxSetUp.audioInUse()
    outInstance.pointee = UnitBox.insert(component.instantiate()).opaque
    return noErrStatus
}

@_spi(CImplementation) @_cdecl("AudioComponentInstanceDispose")
public func _AudioComponentInstanceDispose(_ inInstance: OpaquePointer?) -> OSStatus {
    guard let box = UnitBox.box(inInstance) else { return paramError }
    box.unit.uninitialize()  // an output unit stops first
    UnitBox.table.remove(box.handle)
    return noErrStatus
}

@_spi(CImplementation) @_cdecl("AudioComponentInstanceGetComponent")
public func _AudioComponentInstanceGetComponent(_ inInstance: OpaquePointer?) -> OpaquePointer? {
    guard let box = UnitBox.box(inInstance) else { return nil }
    return ComponentHandles.handle(box.unit.component)
}

@_spi(CImplementation) @_cdecl("AudioComponentInstanceCanDo")
public func _AudioComponentInstanceCanDo(_ inInstance: OpaquePointer?, _ inSelectorID: Int16) -> Bool {
    guard let box = UnitBox.box(inInstance) else { return false }
    switch Int(inSelectorID) {
    case Int(kAudioUnitInitializeSelect)...Int(kAudioUnitResetSelect), Int(kAudioUnitRemovePropertyListenerWithUserDataSelect),
        Int(kAudioUnitAddRenderNotifySelect), Int(kAudioUnitRemoveRenderNotifySelect):
        return true
    case Int(kAudioOutputUnitStartSelect), Int(kAudioOutputUnitStopSelect):
        return box.unit is AudioOutputUnit
    default:
        return false
    }
}

@_spi(CImplementation) @_cdecl("AudioComponentRegister")
public func _AudioComponentRegister(
    _ inDesc: UnsafePointer<CAudioToolbox.AudioComponentDescription>?, _ inName: CFStringRef?, _ inVersion: UInt32,
    _ inFactory: AudioComponentFactoryFunction?
) -> OpaquePointer? {
    nil
}

@_spi(CImplementation) @_cdecl("AudioComponentCopyConfigurationInfo")
public func _AudioComponentCopyConfigurationInfo(_ inComponent: OpaquePointer?, _ outConfigurationInfo: UnsafeMutablePointer<CFDictionaryRef?>?) -> OSStatus {
    // Apple's units report no configuration of note (validation applies to third-party ones).
    guard ComponentHandles.component(inComponent) != nil, let outConfigurationInfo else { return paramError }
    outConfigurationInfo.pointee = _CFDictionaryCreate(nil, nil, nil, 0, nil, nil)
    return noErrStatus
}
