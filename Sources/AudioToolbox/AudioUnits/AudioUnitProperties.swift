public import CAudioToolbox
import AudioCore
import AudioUnitServices

// AudioUnitGetPropertyInfo / GetProperty / SetProperty: each property's C value over the
// Swift unit's typed API. A property the unit does not have is kAudioUnitErr_InvalidProperty;
// a size that is not the property's, kAudioUnitErr_InvalidPropertyValue (as a Mac answers a
// short StreamFormat); a value the unit refuses, the unit's error.

private let invalidProperty = AudioUnitError(.invalidProperty, "no such property")
private func badSize(_ what: String) -> AudioUnitError { AudioUnitError(.invalidPropertyValue, "the size is not that of \(what)") }

/// A property's current value as bytes, and whether it can be set.
private func value(_ box: UnitBox, _ id: UInt32, _ scope: UInt32, _ element: UInt32) throws(AudioUnitError) -> (bytes: [UInt8], writable: Bool) {
    let unit = box.unit
    let output = unit as? AudioOutputUnit
    let s = AudioUnitServices.AudioUnitScope(rawValue: scope)
    func global() throws(AudioUnitError) {
        guard s == .global else { throw AudioUnitError(.invalidScope, "property \(id) is in the global scope") }
    }
    func u32(_ v: UInt32) -> [UInt8] { bytes(of: v) }
    switch id {
    case kAudioUnitProperty_StreamFormat:
        return (bytes(of: try unit.streamFormat(scope: s, element: element).c), true)
    case kAudioUnitProperty_SampleRate:
        return (bytes(of: try unit.streamFormat(scope: s, element: element).sampleRate), true)
    case kAudioUnitProperty_SetRenderCallback:
        _ = try unit.inputSource(element: element)
        var callback = box.registrations.withLock { $0.renderCallbacks[element] } ?? AURenderCallbackStruct()
        if callback.inputProc == nil { callback = AURenderCallbackStruct(inputProc: nil, inputProcRefCon: nil) }
        return (bytes(of: callback), true)
    case kAudioUnitProperty_MakeConnection:
        _ = try unit.inputSource(element: element)
        let connection = box.registrations.withLock { $0.connections[element] }
            ?? AudioUnitConnection(sourceAudioUnit: nil, sourceOutputNumber: 0, destInputNumber: element)
        return (bytes(of: connection), true)
    case kAudioUnitProperty_MaximumFramesPerSlice:
        return (u32(UInt32(unit.maximumFramesPerSlice)), true)
    case kAudioUnitProperty_ElementCount:
        return (u32(UInt32(try unit.elementCount(s))), unit.canSetElementCount(s))
    case kAudioUnitProperty_Latency:
        return (bytes(of: unit.latency), false)
    case kAudioUnitProperty_TailTime:
        return (bytes(of: Double(0)), false)
    case kAudioUnitProperty_RenderQuality:
        return (u32(unit.renderQuality), true)
    case kAudioUnitProperty_LastRenderError:
        return (bytes(of: unit.takeLastRenderError()), false)
    case kAudioUnitProperty_ShouldAllocateBuffer:
        return (u32(try unit.shouldAllocateBuffer(scope: s, element: element) ? 1 : 0), true)
    case kAudioUnitProperty_AudioChannelLayout:
        return (LayoutBytes.encode(try unit.channelLayout(scope: s, element: element)), true)
    case kAudioUnitProperty_ElementName:
        let name = try unit.elementName(scope: s, element: element)
        let string: CFStringRef? = name.map { CFStringRef(CFObjects.makeString($0)) }
        return (bytes(of: string), true)
    case kAudioUnitProperty_ParameterList:
        return (unit.parameterList(scope: s).flatMap { bytes(of: $0.rawValue) }, false)
    case kAudioUnitProperty_ParameterInfo:
        return (bytes(of: try parameterInfo(unit, s, element)), false)
    case kAudioUnitProperty_MeteringMode:
        guard let mixer = unit as? MultiChannelMixer else { throw invalidProperty }
        return (u32(try mixer.meteringMode(scope: s, element: element) ? 1 : 0), true)
    case kAudioOutputUnitProperty_CurrentDevice:
        guard let output else { throw invalidProperty }
        try global()
        let uid = output.currentDevice ?? defaultDeviceUID(output)
        let id = uid.flatMap { HALObjects.current.device(uid: $0)?.id } ?? kAudioObjectUnknown
        return (u32(id), output.kind != .generic)
    case kAudioOutputUnitProperty_IsRunning:
        guard let output else { throw invalidProperty }
        return (u32(output.isRunning ? 1 : 0), false)
    case kAudioOutputUnitProperty_ChannelMap where unit is AUConverter:
        let converter = unit as! AUConverter
        let channels = try converter.streamFormat(scope: .output, element: 0).channelsPerFrame
        return ((converter.channelMap ?? Array(0..<Int32(channels))).flatMap { bytes(of: $0) }, true)
    case kAudioOutputUnitProperty_ChannelMap:
        guard let output else { throw invalidProperty }
        let channels = try output.streamFormat(scope: .output, element: element).channelsPerFrame
        let map = try output.channelMap(element: element) ?? Array(0..<Int32(channels))
        return (map.flatMap { bytes(of: $0) }, true)
    case kAudioOutputUnitProperty_EnableIO:
        guard let output else { throw invalidProperty }
        return (u32(try output.isIOEnabled(scope: s, element: element) ? 1 : 0), true)
    case kAudioOutputUnitProperty_HasIO:
        guard let output else { throw invalidProperty }
        return (u32(try output.hasIO(scope: s, element: element) ? 1 : 0), false)
    case kAudioOutputUnitProperty_SetInputCallback:
        guard let output, output.kind == .hal else { throw invalidProperty }
        let callback = box.registrations.withLock { $0.inputCallback } ?? AURenderCallbackStruct(inputProc: nil, inputProcRefCon: nil)
        return (bytes(of: callback), true)
    case kAudioOutputUnitProperty_StartTimestampsAtZero:
        guard let output else { throw invalidProperty }
        return (u32(output.startTimestampsAtZero ? 1 : 0), true)
    case kAudioDevicePropertyBufferFrameSize:
        guard let output, output.kind != .generic else { throw invalidProperty }
        return (u32(UInt32(output.bufferFrameSize)), true)
    case kAudioDevicePropertyBufferFrameSizeRange:
        guard let output, output.kind != .generic else { throw invalidProperty }
        return (bytes(of: AudioValueRange(mMinimum: 16, mMaximum: 8192)), false)
    default:
        throw AudioUnitError(.invalidProperty, "the \(unit.component.name) unit has no property \(id)")
    }
}

/// `kAudioUnitProperty_ParameterInfo` of parameter `id` (the property's element) in `scope`.
private func parameterInfo(_ unit: SwiftUnit, _ scope: AudioUnitServices.AudioUnitScope, _ id: UInt32) throws(AudioUnitError) -> AudioUnitParameterInfo {
    let parameter = AudioUnitParameterID(rawValue: id)
    let range: AudioUnitParameterRange
    if let mixer = unit as? MultiChannelMixer, let found = mixer.parameterRange(parameter, scope: scope) {
        range = found
    } else if unit is AudioOutputUnit, parameter == .outputVolume, unit.parameterList(scope: .global).contains(parameter) {
        range = AudioUnitParameterRange(name: "Volume", minimum: 0, maximum: 1, defaultValue: 1, unit: .linearGain, isReadOnly: false)
    } else {
        throw AudioUnitError(.invalidParameter, "no parameter \(id) in the \(scope) scope")
    }
    var info = AudioUnitParameterInfo()
    withUnsafeMutableBytes(of: &info.name) { name in
        let utf8 = Array(range.name.utf8.prefix(name.count - 1))
        name.copyBytes(from: utf8)
    }
    info.cfNameString = CFStringRef(CFObjects.makeString(range.name, immortal: true))
    info.unit = AudioUnitParameterUnit(rawValue: range.unit.rawValue) ?? AudioUnitParameterUnit(rawValue: 0)!
    info.minValue = range.minimum
    info.maxValue = range.maximum
    info.defaultValue = range.defaultValue
    // kAudioUnitParameterFlag_IsReadable, _HasCFNameString, and _MeterReadOnly or _IsWritable.
    var flags: UInt32 = 1 << 30 | 1 << 27
    flags |= range.isReadOnly ? 1 << 15 : 1 << 31
    info.flags = AudioUnitParameterOptions(rawValue: flags)
    return info
}

/// The UID of the device a unit on the default device plays to.
private func defaultDeviceUID(_ unit: AudioOutputUnit) -> String? {
    let snapshot = HALObjects.current
    return snapshot.device(((try? unit.isIOEnabled(scope: .input, element: 1)) ?? false) ? snapshot.defaultInput : snapshot.defaultOutput)?.uid
}

private func set(_ box: UnitBox, _ id: UInt32, _ scope: UInt32, _ element: UInt32, _ data: UnsafeRawPointer?, _ size: Int) throws(AudioUnitError) {
    let unit = box.unit
    let output = unit as? AudioOutputUnit
    let s = AudioUnitServices.AudioUnitScope(rawValue: scope)
    func load<T>(_ type: T.Type, _ what: String) throws(AudioUnitError) -> T {
        guard let data, size >= MemoryLayout<T>.size else { throw badSize(what) }
        return data.loadUnaligned(as: T.self)
    }
    func flag(_ what: String) throws(AudioUnitError) -> Bool { try load(UInt32.self, what) != 0 }
    switch id {
    case kAudioUnitProperty_StreamFormat:
        try unit.setStreamFormat(SwiftASBD(try load(CASBD.self, "an AudioStreamBasicDescription")), scope: s, element: element)
    case kAudioUnitProperty_SampleRate:
        var format = try unit.streamFormat(scope: s, element: element)
        format.sampleRate = try load(Double.self, "a Float64")
        try unit.setStreamFormat(format, scope: s, element: element)
    case kAudioUnitProperty_SetRenderCallback:
        let callback = try load(AURenderCallbackStruct.self, "an AURenderCallbackStruct")
        try unit.setInputSource(callback.inputProc.map { .callback(renderCallback($0, callback.inputProcRefCon)) } ?? .none, element: element)
        box.registrations.withLock { r in
            r.renderCallbacks[element] = callback
            r.connections[element] = nil
        }
    case kAudioUnitProperty_MakeConnection:
        let connection = try load(AudioUnitConnection.self, "an AudioUnitConnection")
        if let source = connection.sourceAudioUnit {
            guard let sourceBox = UnitBox.box(source) else { throw AudioUnitError(.invalidPropertyValue, "the source unit is not a unit") }
            try unit.setInputSource(.connection(sourceBox.unit, outputBus: connection.sourceOutputNumber), element: element)
        } else {
            try unit.setInputSource(.none, element: element)
        }
        box.registrations.withLock { r in
            r.connections[element] = connection.sourceAudioUnit == nil ? nil : connection
            r.renderCallbacks[element] = nil
        }
    case kAudioUnitProperty_MaximumFramesPerSlice:
        try unit.setMaximumFramesPerSlice(Int(try load(UInt32.self, "a UInt32")))
    case kAudioUnitProperty_ElementCount:
        try unit.setElementCount(Int(try load(UInt32.self, "a UInt32")), scope: s)
    case kAudioUnitProperty_RenderQuality:
        unit.renderQuality = try load(UInt32.self, "a UInt32")
    case kAudioUnitProperty_ShouldAllocateBuffer:
        try unit.setShouldAllocateBuffer(try flag("a UInt32"), scope: s, element: element)
    case kAudioUnitProperty_AudioChannelLayout:
        guard let data, let layout = LayoutBytes.decode(data, size: size) else { throw badSize("an AudioChannelLayout") }
        try unit.setChannelLayout(layout, scope: s, element: element)
    case kAudioUnitProperty_ElementName:
        let string = try load(CFStringRef?.self, "a CFStringRef")
        try unit.setElementName(string.flatMap { CFObjects.string(UnsafeRawPointer($0)) }, scope: s, element: element)
    case kAudioOutputUnitProperty_CurrentDevice:
        guard let output else { throw invalidProperty }
        let id = try load(AudioObjectID.self, "an AudioObjectID")
        guard let device = HALObjects.current.device(id) else { throw AudioUnitError(.invalidPropertyValue, "no device has ID \(id)") }
        try output.setCurrentDevice(device.uid)
    case kAudioOutputUnitProperty_ChannelMap:
        guard let data, size >= 4, size % 4 == 0 else { throw badSize("an array of SInt32") }
        let map = (0..<(size / 4)).map { data.loadUnaligned(fromByteOffset: $0 * 4, as: Int32.self) }
        if let converter = unit as? AUConverter {
            try converter.setChannelMap(map)
        } else {
            guard let output else { throw invalidProperty }
            try output.setChannelMap(map, element: element)
        }
    case kAudioOutputUnitProperty_EnableIO:
        guard let output else { throw invalidProperty }
        try output.setIOEnabled(try flag("a UInt32"), scope: s, element: element)
    case kAudioOutputUnitProperty_SetInputCallback:
        guard let output else { throw invalidProperty }
        let callback = try load(AURenderCallbackStruct.self, "an AURenderCallbackStruct")
        try output.setInputCallback(callback.inputProc.map { renderCallback($0, callback.inputProcRefCon) })
        box.registrations.withLock { $0.inputCallback = callback }
    case kAudioOutputUnitProperty_StartTimestampsAtZero:
        guard let output else { throw invalidProperty }
        output.startTimestampsAtZero = try flag("a UInt32")
    case kAudioUnitProperty_MeteringMode:
        guard let mixer = unit as? MultiChannelMixer else { throw invalidProperty }
        try mixer.setMeteringMode(try flag("a UInt32"), scope: s, element: element)
    case kAudioDevicePropertyBufferFrameSize:
        guard let output, output.kind != .generic else { throw invalidProperty }
        try output.setBufferFrameSize(Int(try load(UInt32.self, "a UInt32")))
    default:
        _ = try value(box, id, scope, element)
        throw AudioUnitError(.propertyNotWritable, "property \(id) is read-only")
    }
}

@_spi(CImplementation) @_cdecl("AudioUnitGetPropertyInfo")
public func _AudioUnitGetPropertyInfo(
    _ inUnit: OpaquePointer?, _ inID: UInt32, _ inScope: UInt32, _ inElement: UInt32,
    _ outDataSize: UnsafeMutablePointer<UInt32>?, _ outWritable: UnsafeMutablePointer<Bool>?
) -> OSStatus {
    unitStatus(inUnit) { box throws(AudioUnitError) in
        let (bytes, writable) = try value(box, inID, inScope, inElement)
        outDataSize?.pointee = UInt32(bytes.count)
        outWritable?.pointee = writable
    }
}

@_spi(CImplementation) @_cdecl("AudioUnitGetProperty")
public func _AudioUnitGetProperty(
    _ inUnit: OpaquePointer?, _ inID: UInt32, _ inScope: UInt32, _ inElement: UInt32,
    _ outData: UnsafeMutableRawPointer?, _ ioDataSize: UnsafeMutablePointer<UInt32>?
) -> OSStatus {
    guard let outData, let ioDataSize else { return paramError }
    var result: [UInt8] = []
    let status = unitStatus(inUnit) { box throws(AudioUnitError) in result = try value(box, inID, inScope, inElement).bytes }
    guard status == noErrStatus else { return status }
    // A Mac copies what fits of a variable-size value and says how much; a fixed-size value
    // asked for with the wrong size is an invalid value.
    let variable = inID == kAudioUnitProperty_AudioChannelLayout || inID == kAudioUnitProperty_ParameterList
        || inID == kAudioOutputUnitProperty_ChannelMap
    if !variable && Int(ioDataSize.pointee) < result.count { return OSStatus(kAudioUnitErr_InvalidPropertyValue) }
    let n = min(Int(ioDataSize.pointee), result.count)
    result.withUnsafeBytes { if let base = $0.baseAddress { outData.copyMemory(from: base, byteCount: n) } }
    ioDataSize.pointee = UInt32(n)
    return noErrStatus
}

@_spi(CImplementation) @_cdecl("AudioUnitSetProperty")
public func _AudioUnitSetProperty(
    _ inUnit: OpaquePointer?, _ inID: UInt32, _ inScope: UInt32, _ inElement: UInt32,
    _ inData: UnsafeRawPointer?, _ inDataSize: UInt32
) -> OSStatus {
    unitStatus(inUnit) { box throws(AudioUnitError) in try set(box, inID, inScope, inElement, inData, Int(inDataSize)) }
}
