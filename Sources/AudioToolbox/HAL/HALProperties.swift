import CAudioToolbox
import AudioDevices

// The properties each object has, their values, and setting them.

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
    /// data given with the call. Throws kAudioHardwareBadObjectError for an unknown object and
    /// kAudioHardwareUnknownPropertyError for a property it does not have.
    static func property(
        _ id: AudioObjectID, _ address: AudioObjectPropertyAddress, qualifier: UnsafeRawBufferPointer? = nil, service: Bool = false
    ) throws(HALError) -> HALProperty {
        guard let (object, snapshot) = HALObjects.object(id) else { throw .badObject }
        guard scopes.contains(address.mScope),
              address.mElement == kAudioObjectPropertyElementMain || address.mElement == kAudioObjectPropertyElementWildcard
        else { throw .unknownProperty }
        let found: HALProperty?
        switch object {
        case .system: found = try system(address.mSelector, qualifier: qualifier)
        case .device(let device): found = deviceProperty(address.mSelector, address.mScope, device, snapshot, service: service)
        case .stream(let device, let direction): found = stream(address.mSelector, device, direction)
        }
        guard let found else { throw .unknownProperty }
        return found
    }

    // MARK: The system object

    private static func system(_ selector: AudioObjectPropertySelector, qualifier: UnsafeRawBufferPointer?) throws(HALError) -> HALProperty? {
        switch selector {
        case kAudioObjectPropertyClass: return HALProperty(value: .uint32(kAudioSystemObjectClassID))
        case kAudioObjectPropertyBaseClass: return HALProperty(value: .uint32(kAudioObjectClassID))
        case kAudioObjectPropertyOwner: return HALProperty(value: .uint32(kAudioObjectUnknown))
        case kAudioObjectPropertyName: return HALProperty(value: .string("The Audio System"))
        case kAudioObjectPropertyManufacturer: return HALProperty(value: .string("swift-audio-queue"))
        case kAudioHardwarePropertyDevices, kAudioObjectPropertyOwnedObjects:
            return HALProperty(value: .uint32s(HALObjects.refresh().devices.map(\.id)))
        case kAudioHardwarePropertyDefaultOutputDevice, kAudioHardwarePropertyDefaultSystemOutputDevice:
            return HALProperty(value: .uint32(HALObjects.refresh().defaultOutput), settable: true)
        case kAudioHardwarePropertyDefaultInputDevice:
            return HALProperty(value: .uint32(HALObjects.refresh().defaultInput), settable: true)
        case kAudioHardwarePropertyRunLoop:
            return HALProperty(value: .pointer(HALListeners.runLoopBits), settable: true)
        case kAudioHardwarePropertyTranslateUIDToDevice:
            // The UID comes as the qualifier: a CFStringRef.
            guard let qualifier else { return HALProperty(value: .uint32(kAudioObjectUnknown), qualifierMissing: true) }
            guard qualifier.count == MemoryLayout<UInt>.size, let base = qualifier.baseAddress else { throw .badSize }
            let ref = UnsafeRawPointer(bitPattern: base.loadUnaligned(as: UInt.self))
            guard let ref, let uid = CFObjects.string(ref) else { throw .illegal }
            return HALProperty(value: .uint32(HALObjects.refresh().device(uid: uid)?.id ?? kAudioObjectUnknown))
        default:
            return nil
        }
    }

    // MARK: Devices

    /// What the device's backend says of its maker (`AudioBackend.manufacturer`).
    private static func manufacturer(_ backend: String) -> String {
        AudioBackends.backend(named: backend)?.manufacturer ?? backend
    }

    private static func deviceProperty(
        _ selector: AudioObjectPropertySelector, _ scope: AudioObjectPropertyScope, _ device: HALDevice, _ snapshot: HALSnapshot,
        service: Bool
    ) -> HALProperty? {
        let direction: AudioDeviceDirection = scope == kAudioObjectPropertyScopeInput ? .input : .output
        switch selector {
        case kAudioObjectPropertyClass: return HALProperty(value: .uint32(kAudioDeviceClassID))
        case kAudioObjectPropertyBaseClass: return HALProperty(value: .uint32(kAudioObjectClassID))
        case kAudioObjectPropertyOwner: return HALProperty(value: .uint32(systemObjectID))
        case kAudioObjectPropertyName: return HALProperty(value: .string(device.name))
        case kAudioObjectPropertyModelName: return HALProperty(value: .string(device.name))
        case kAudioObjectPropertyManufacturer: return HALProperty(value: .string(manufacturer(device.backend)))
        case kAudioDevicePropertyDeviceName: return HALProperty(value: .cString(device.name))
        case kAudioDevicePropertyDeviceManufacturer: return HALProperty(value: .cString(manufacturer(device.backend)))
        case kAudioDevicePropertyDeviceUID: return HALProperty(value: .string(device.uid))
        case kAudioDevicePropertyModelUID: return HALProperty(value: .string(device.backend))
        case kAudioDevicePropertyTransportType:
            let hardware = AudioBackends.backend(named: device.backend)?.isHardware ?? false
            return HALProperty(value: .uint32(hardware ? kAudioDeviceTransportTypeBuiltIn : kAudioDeviceTransportTypeVirtual))
        case kAudioDevicePropertyDeviceIsAlive: return HALProperty(value: .uint32(1))
        case kAudioDevicePropertyDeviceIsRunning, kAudioDevicePropertyDeviceIsRunningSomewhere:
            return HALProperty(value: .uint32(HALObjects.isRunning(device.uid) ? 1 : 0))
        case kAudioDevicePropertyNominalSampleRate:
            return HALProperty(value: .float64(device.sampleRate), settable: true)
        case kAudioDevicePropertyAvailableNominalSampleRates:
            return HALProperty(value: .ranges([(device.sampleRate, device.sampleRate)]))
        case kAudioDevicePropertyBufferFrameSize: return HALProperty(value: .uint32(512))
        case kAudioDevicePropertyBufferFrameSizeRange: return HALProperty(value: .ranges([(512, 512)]))
        case kAudioDevicePropertyLatency, kAudioDevicePropertySafetyOffset: return HALProperty(value: .uint32(0))
        case kAudioDevicePropertyStreamConfiguration: return HALProperty(value: .bufferList(channels: device.channels(direction)))
        case kAudioDevicePropertyStreams:
            if scope == kAudioObjectPropertyScopeGlobal || scope == kAudioObjectPropertyScopeWildcard {
                return HALProperty(value: .uint32s([device.stream(.output), device.stream(.input)].compactMap { $0 }))
            }
            return HALProperty(value: .uint32s(device.stream(direction).map { [$0] } ?? []))
        case kAudioDevicePropertyPreferredChannelsForStereo:
            return device.side(direction) == nil ? nil : HALProperty(value: .uint32s([1, 2]))
        case kAudioHardwareServiceDeviceProperty_VirtualMainVolume where service:
            return device.side(direction) == nil ? nil : HALProperty(value: .float32(1))
        case kAudioHardwareServiceDeviceProperty_VirtualMainBalance where service:
            return device.side(direction) == nil ? nil : HALProperty(value: .float32(0.5))
        default:
            return nil
        }
    }

    // MARK: Streams

    private static func stream(_ selector: AudioObjectPropertySelector, _ device: HALDevice, _ direction: AudioDeviceDirection) -> HALProperty? {
        switch selector {
        case kAudioObjectPropertyClass: return HALProperty(value: .uint32(kAudioStreamClassID))
        case kAudioObjectPropertyBaseClass: return HALProperty(value: .uint32(kAudioObjectClassID))
        case kAudioObjectPropertyOwner: return HALProperty(value: .uint32(device.id))
        case kAudioObjectPropertyName: return HALProperty(value: .string(device.name))
        case kAudioStreamPropertyDirection: return HALProperty(value: .uint32(direction == .input ? 1 : 0))
        case kAudioStreamPropertyStartingChannel: return HALProperty(value: .uint32(1))
        case kAudioStreamPropertyLatency: return HALProperty(value: .uint32(0))
        case kAudioStreamPropertyVirtualFormat, kAudioStreamPropertyPhysicalFormat:
            return HALProperty(value: .floatFormat(sampleRate: device.sampleRate, channels: device.channels(direction) ?? 2))
        default:
            return nil
        }
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
        switch (id, address.mSelector) {
        case (systemObjectID, kAudioHardwarePropertyRunLoop):
            let bits = base.loadUnaligned(as: UInt.self)
            guard bits == 0 || RunLoop.from(CFRunLoopRef(bitPattern: bits)) != nil else { throw .illegal }
            HALListeners.setRunLoop(bits)
        case (systemObjectID, kAudioHardwarePropertyDefaultInputDevice):
            try setDefault(base.loadUnaligned(as: UInt32.self), .input)
        case (systemObjectID, _):
            try setDefault(base.loadUnaligned(as: UInt32.self), .output)
        case (_, kAudioDevicePropertyNominalSampleRate):
            // The rate a device runs at is its server's or card's choice; a queue's stream is
            // converted to it. Only the rate it has already is accepted.
            guard case .float64(let rate) = found.value, base.loadUnaligned(as: Double.self) == rate else {
                throw HALError(status: kAudioDeviceUnsupportedFormatError)
            }
        default:
            throw .illegal
        }
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
