import CAudioToolbox
import AudioDevices

// The properties each object has, their values, and setting them. The system object's,
// devices' and streams' selectors are answered in HALSystemProperties.swift,
// HALDeviceProperties.swift and HALStreamProperties.swift.

/// A property found at an address: its value, and whether a program may set it.
struct HALProperty {
    var value: HALValue
    var settable: Bool = false
    /// The property needs a qualifier that was not given: it exists (HasProperty, its size),
    /// but reading it is kAudioHardwareBadPropertySizeError.
    var qualifierMissing = false
}

enum HALProperties {
    private static let scopes: Set<AudioObjectPropertyScope> = [
        kAudioObjectPropertyScopeGlobal, kAudioObjectPropertyScopeInput, kAudioObjectPropertyScopeOutput,
        kAudioObjectPropertyScopePlayThrough, kAudioObjectPropertyScopeWildcard,
    ]

    /// The property at `address` of object `id`. `service`: asked through Audio Hardware
    /// Services, which adds the virtual main volume and balance. `qualifier` is the qualifier
    /// data given with the call. An element other than the main one (or the wildcard) is a
    /// channel: only the per-channel properties have it, for channels 1 to the scope's count.
    /// Throws kAudioHardwareBadObjectError for an unknown object and
    /// kAudioHardwareUnknownPropertyError for a property it does not have.
    static func property(
        _ id: AudioObjectID, _ address: AudioObjectPropertyAddress, qualifier: UnsafeRawBufferPointer? = nil, service: Bool = false
    ) throws(HALError) -> HALProperty {
        guard let (object, snapshot) = HALObjects.object(id) else { throw .badObject }
        guard scopes.contains(address.mScope) else { throw .unknownProperty }
        let element = address.mElement
        let channel = element == kAudioObjectPropertyElementMain || element == kAudioObjectPropertyElementWildcard ? nil : element
        let found: HALProperty?
        switch object {
        case .system:
            if channel == nil { found = try system(address.mSelector, qualifier: qualifier) } else { found = nil }
        case .device(let device):
            if let channel {
                found = deviceChannel(address.mSelector, address.mScope, channel, device)
            } else {
                found = try deviceProperty(address.mSelector, address.mScope, device, snapshot, qualifier: qualifier, service: service)
            }
        case .stream(let device, let direction):
            if channel == nil { found = try stream(address.mSelector, device, direction, qualifier: qualifier) } else { found = nil }
        }
        guard let found else { throw .unknownProperty }
        return found
    }

    /// The side of a device a scope asks about: input for the input scope, output for any other.
    static func direction(_ scope: AudioObjectPropertyScope) -> AudioDeviceDirection {
        scope == kAudioObjectPropertyScopeInput ? .input : .output
    }

    // MARK: Qualifiers

    /// The class IDs an OwnedObjects qualifier lists (none: every class); a size that is not a
    /// whole number of AudioClassIDs is kAudioHardwareBadPropertySizeError.
    static func classes(_ qualifier: UnsafeRawBufferPointer?) throws(HALError) -> [AudioClassID] {
        guard let qualifier, let base = qualifier.baseAddress else { return [] }
        guard qualifier.count % 4 == 0 else { throw .badSize }
        return (0..<qualifier.count / 4).map { base.loadUnaligned(fromByteOffset: 4 * $0, as: AudioClassID.self) }
    }

    /// Whether objects of `classID` (whose base class is AudioObject) pass a class qualifier.
    static func passes(_ classID: AudioClassID, _ qualifier: [AudioClassID]) -> Bool {
        qualifier.isEmpty || qualifier.contains(classID) || qualifier.contains(kAudioObjectClassID)
            || qualifier.contains(kAudioObjectClassIDWildcard)
    }

    /// A property whose qualifier is one CFStringRef, translated by `translate`; without a
    /// qualifier it exists but reads as kAudioHardwareBadPropertySizeError, a qualifier of
    /// another size is kAudioHardwareBadPropertySizeError, one that is not a string
    /// kAudioHardwareIllegalOperationError.
    static func stringQualified(
        _ qualifier: UnsafeRawBufferPointer?, _ translate: (String) -> AudioObjectID
    ) throws(HALError) -> HALProperty {
        guard let qualifier else { return HALProperty(value: .uint32(kAudioObjectUnknown), qualifierMissing: true) }
        guard qualifier.count == MemoryLayout<UInt>.size, let base = qualifier.baseAddress else { throw .badSize }
        let ref = UnsafeRawPointer(bitPattern: base.loadUnaligned(as: UInt.self))
        guard let ref, let text = CFObjects.string(ref) else { throw .illegal }
        return HALProperty(value: .uint32(translate(text)))
    }

    // MARK: Setting

    /// Sets the property at `address` of `id` from `data`.
    static func set(
        _ id: AudioObjectID, _ address: AudioObjectPropertyAddress, qualifier: UnsafeRawBufferPointer?, data: UnsafeRawBufferPointer,
        service: Bool
    ) throws(HALError) {
        let found = try property(id, address, qualifier: qualifier, service: service)
        guard found.settable else { throw .illegal }
        guard data.count == found.value.size, let base = data.baseAddress else { throw .badSize }
        guard let (object, _) = HALObjects.object(id) else { throw .badObject }
        switch object {
        case .system:
            try setSystem(address.mSelector, base)
        case .device(let device):
            try setDevice(address.mSelector, direction(address.mScope), device, base)
        case .stream(let device, let direction):
            try HALDeviceSettings.setStreamFormat(base.loadUnaligned(as: AudioStreamBasicDescription.self), of: device, direction: direction)
            formatChanged(device)
        }
    }

    private static func setSystem(_ selector: AudioObjectPropertySelector, _ base: UnsafeRawPointer) throws(HALError) {
        switch selector {
        case kAudioHardwarePropertyRunLoop:
            let bits = base.loadUnaligned(as: UInt.self)
            guard bits == 0 || RunLoop.from(CFRunLoopRef(bitPattern: bits)) != nil else { throw .illegal }
            HALListeners.setRunLoop(bits)
        case kAudioHardwarePropertyDefaultInputDevice:
            try setDefault(base.loadUnaligned(as: UInt32.self), .input)
        default:
            try setDefault(base.loadUnaligned(as: UInt32.self), .output)
        }
    }

    private static func setDevice(
        _ selector: AudioObjectPropertySelector, _ direction: AudioDeviceDirection, _ device: HALDevice, _ base: UnsafeRawPointer
    ) throws(HALError) {
        switch selector {
        case kAudioDevicePropertyNominalSampleRate:
            try HALDeviceSettings.setSampleRate(base.loadUnaligned(as: Double.self), of: device)
            formatChanged(device)
        case kAudioDevicePropertyBufferFrameSize:
            try HALDeviceSettings.setBufferFrameSize(base.loadUnaligned(as: UInt32.self), of: device.id)
            HALListeners.announce([(device.id, kAudioDevicePropertyBufferFrameSize), (device.id, kAudioDevicePropertyBufferSize)])
        case kAudioDevicePropertyBufferSize:
            // Bytes of the scope's stream: a whole number of its frames.
            guard let format = HALDeviceSettings.streamFormat(of: device, direction: direction) else { throw .unknownProperty }
            let bytes = base.loadUnaligned(as: UInt32.self)
            guard format.mBytesPerFrame > 0, bytes % format.mBytesPerFrame == 0 else { throw .illegal }
            try HALDeviceSettings.setBufferFrameSize(bytes / format.mBytesPerFrame, of: device.id)
            HALListeners.announce([(device.id, kAudioDevicePropertyBufferFrameSize), (device.id, kAudioDevicePropertyBufferSize)])
        case kAudioDevicePropertyStreamFormat:
            try HALDeviceSettings.setStreamFormat(base.loadUnaligned(as: AudioStreamBasicDescription.self), of: device, direction: direction)
            formatChanged(device)
        default:
            throw .illegal
        }
    }

    /// Tells the listeners that `device`'s rate, and so its streams' formats, may have changed.
    private static func formatChanged(_ device: HALDevice) {
        var changes: [(AudioObjectID, AudioObjectPropertySelector)] = [
            (device.id, kAudioDevicePropertyNominalSampleRate), (device.id, kAudioDevicePropertyStreamFormat),
        ]
        for direction in [AudioDeviceDirection.output, .input] {
            guard let stream = device.stream(direction) else { continue }
            changes.append((stream, kAudioStreamPropertyVirtualFormat))
            changes.append((stream, kAudioStreamPropertyPhysicalFormat))
        }
        HALListeners.announce(changes)
    }

    /// Makes device `id` the default for `direction`: a no-op for the default already, the
    /// backend's own default (the PulseAudio server's, for every program) when the backend can
    /// change it, kAudioHardwareIllegalOperationError otherwise.
    private static func setDefault(_ id: AudioObjectID, _ direction: AudioDeviceDirection) throws(HALError) {
        let snapshot = HALObjects.refresh()
        guard let device = snapshot.device(id) else { throw HALError(status: kAudioHardwareBadDeviceError) }
        guard let info = device.side(direction) else { throw .illegal }
        if (direction == .output ? snapshot.defaultOutput : snapshot.defaultInput) == id { return }
        guard let backend = AudioBackends.backend(named: device.backend) as? any AudioDefaultDeviceSetting else { throw .illegal }
        do throws(AudioDeviceError) {
            try backend.setDefaultDevice(info.name, direction: direction)
        } catch {
            throw .unspecified
        }
        HALObjects.refresh()
    }
}
