public import CAudioToolbox
import AudioCore
import AudioUnitServices

// <CarbonCore/Components.h>: the Component Manager's spellings that audio programs written
// before AudioComponent still use. On a Mac an audio unit's Component and ComponentInstance are
// its AudioComponent and AudioUnit; here they are the same handles, so the two sets of calls mix.

/// `invalidComponentID`: a handle that is no component or instance.
private let invalidComponentID: Int16 = -3000

private func description(_ c: UnsafePointer<ComponentDescription>) -> AudioUnitServices.AudioComponentDescription {
    .init(
        type: FourCharCode(rawValue: c.pointee.componentType), subType: FourCharCode(rawValue: c.pointee.componentSubType),
        manufacturer: FourCharCode(rawValue: c.pointee.componentManufacturer), flags: c.pointee.componentFlags,
        flagsMask: c.pointee.componentFlagsMask)
}

@_spi(CImplementation) @_cdecl("FindNextComponent")
public func _FindNextComponent(_ aComponent: OpaquePointer?, _ looking: UnsafeMutablePointer<ComponentDescription>?) -> OpaquePointer? {
    guard let looking else { return nil }
    var search = description(looking).c
    return _AudioComponentFindNext(aComponent, &search)
}

@_spi(CImplementation) @_cdecl("CountComponents")
public func _CountComponents(_ looking: UnsafeMutablePointer<ComponentDescription>?) -> Int {
    guard let looking else { return AudioComponent.all.count }
    return AudioComponent.count(matching: description(looking))
}

@_spi(CImplementation) @_cdecl("OpenAComponent")
public func _OpenAComponent(_ aComponent: OpaquePointer?, _ ci: UnsafeMutablePointer<OpaquePointer?>?) -> Int16 {
    guard let ci else { return Int16(paramError) }
    guard ComponentHandles.component(aComponent) != nil else { return invalidComponentID }
    return Int16(_AudioComponentInstanceNew(aComponent, ci))
}

@_spi(CImplementation) @_cdecl("OpenComponent")
public func _OpenComponent(_ aComponent: OpaquePointer?) -> OpaquePointer? {
    var instance: OpaquePointer?
    return _OpenAComponent(aComponent, &instance) == 0 ? instance : nil
}

@_spi(CImplementation) @_cdecl("OpenADefaultComponent")
public func _OpenADefaultComponent(_ componentType: UInt32, _ componentSubType: UInt32, _ ci: UnsafeMutablePointer<OpaquePointer?>?) -> Int16 {
    var search = CAudioToolbox.AudioComponentDescription(
        componentType: componentType, componentSubType: componentSubType, componentManufacturer: 0, componentFlags: 0, componentFlagsMask: 0)
    guard let ci else { return Int16(paramError) }
    guard let component = _AudioComponentFindNext(nil, &search) else { return invalidComponentID }
    return _OpenAComponent(component, ci)
}

@_spi(CImplementation) @_cdecl("OpenDefaultComponent")
public func _OpenDefaultComponent(_ componentType: UInt32, _ componentSubType: UInt32) -> OpaquePointer? {
    var instance: OpaquePointer?
    return _OpenADefaultComponent(componentType, componentSubType, &instance) == 0 ? instance : nil
}

@_spi(CImplementation) @_cdecl("CloseComponent")
public func _CloseComponent(_ aComponentInstance: OpaquePointer?) -> Int16 {
    guard UnitBox.box(aComponentInstance) != nil else { return invalidComponentID }
    return Int16(_AudioComponentInstanceDispose(aComponentInstance))
}

@_spi(CImplementation) @_cdecl("GetComponentInfo")
public func _GetComponentInfo(
    _ aComponent: OpaquePointer?, _ cd: UnsafeMutablePointer<ComponentDescription>?, _ componentName: OpaquePointer?,
    _ componentInfo: OpaquePointer?, _ componentIcon: OpaquePointer?
) -> Int16 {
    // The name, information and icon handles are Memory Manager handles, which this library
    // does not have: they are left as they are.
    guard let component = ComponentHandles.component(aComponent) else { return invalidComponentID }
    if let cd {
        let d = component.description
        cd.pointee = ComponentDescription(
            componentType: d.type.rawValue, componentSubType: d.subType.rawValue, componentManufacturer: d.manufacturer.rawValue,
            componentFlags: d.flags, componentFlagsMask: d.flagsMask)
    }
    return 0
}

@_spi(CImplementation) @_cdecl("CallComponentVersion")
public func _CallComponentVersion(_ ci: OpaquePointer?) -> ComponentResult {
    guard let box = UnitBox.box(ci) else { return ComponentResult(invalidComponentID) }
    return ComponentResult(box.unit.component.version)
}
