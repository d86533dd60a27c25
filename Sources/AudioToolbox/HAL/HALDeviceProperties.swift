import CAudioToolbox
import AudioDevices

// Devices' properties (kAudioDeviceClassID): the whole device's (the main element) and each
// channel's (elements 1 to the scope's channel count).

extension HALProperties {
    /// What the device's backend says of its maker (`AudioBackend.manufacturer`).
    private static func manufacturer(_ backend: String) -> String {
        AudioBackends.backend(named: backend)?.manufacturer ?? backend
    }

    static func deviceProperty(
        _ selector: AudioObjectPropertySelector, _ scope: AudioObjectPropertyScope, _ device: HALDevice, _ snapshot: HALSnapshot,
        qualifier: UnsafeRawBufferPointer?, service: Bool
    ) throws(HALError) -> HALProperty? {
        let direction = direction(scope)
        let side = device.side(direction)
        switch selector {
        case kAudioObjectPropertyClass: return HALProperty(value: .uint32(kAudioDeviceClassID))
        case kAudioObjectPropertyBaseClass: return HALProperty(value: .uint32(kAudioObjectClassID))
        case kAudioObjectPropertyOwner: return HALProperty(value: .uint32(systemObjectID))
        case kAudioObjectPropertyName: return HALProperty(value: .string(device.name))
        case kAudioObjectPropertyModelName: return HALProperty(value: .string(device.name))
        case kAudioObjectPropertyManufacturer: return HALProperty(value: .string(manufacturer(device.backend)))
        case kAudioObjectPropertyOwnedObjects:
            let classes = try classes(qualifier)
            let streams = [device.stream(.output), device.stream(.input)].compactMap { $0 }
            return HALProperty(value: .uint32s(passes(kAudioStreamClassID, classes) ? streams : []))
        case kAudioDevicePropertyDeviceName: return HALProperty(value: .cString(device.name))
        case kAudioDevicePropertyDeviceManufacturer: return HALProperty(value: .cString(manufacturer(device.backend)))
        case kAudioDevicePropertyDeviceUID: return HALProperty(value: .string(device.uid))
        case kAudioDevicePropertyModelUID: return HALProperty(value: .string(device.backend))
        case kAudioDevicePropertyTransportType:
            let hardware = AudioBackends.backend(named: device.backend)?.isHardware ?? false
            return HALProperty(value: .uint32(hardware ? kAudioDeviceTransportTypeBuiltIn : kAudioDeviceTransportTypeVirtual))
        case kAudioDevicePropertyRelatedDevices: return HALProperty(value: .uint32s([device.id]))
        case kAudioDevicePropertyClockDomain, kAudioDevicePropertyIsHidden: return HALProperty(value: .uint32(0))
        case kAudioObjectPropertyControlList: return HALProperty(value: .uint32s([]))
        case kAudioDevicePropertyDeviceCanBeDefaultDevice: return HALProperty(value: .uint32(side == nil ? 0 : 1))
        case kAudioDevicePropertyDeviceCanBeDefaultSystemDevice: return HALProperty(value: .uint32(device.output == nil ? 0 : 1))
        case kAudioDevicePropertyDeviceIsAlive: return HALProperty(value: .uint32(1))
        case kAudioDevicePropertyDeviceIsRunning, kAudioDevicePropertyDeviceIsRunningSomewhere:
            return HALProperty(value: .uint32(HALObjects.isRunning(device.uid) ? 1 : 0))
        case kAudioDevicePropertyDeviceHasChanged, kAudioDeviceProcessorOverload, kAudioDevicePropertyIOStoppedAbnormally:
            // Notifications only: the value means nothing (none of them is ever sent here).
            return HALProperty(value: .uint32(0))
        case kAudioDevicePropertyHogMode: return HALProperty(value: .uint32(UInt32(bitPattern: -1)))
        case kAudioDevicePropertySupportsMixing: return HALProperty(value: .uint32(1))
        case kAudioDevicePropertyIOCycleUsage: return HALProperty(value: .float32(1))
        case kAudioDevicePropertyNominalSampleRate:
            return HALProperty(value: .float64(HALDeviceSettings.sampleRate(of: device)), settable: true)
        case kAudioDevicePropertyActualSampleRate:
            return HALProperty(value: .float64(HALDeviceSettings.sampleRate(of: device)))
        case kAudioDevicePropertyAvailableNominalSampleRates:
            return HALProperty(value: .ranges(HALDeviceSettings.availableRates(of: device).map { ($0, $0) }))
        case kAudioDevicePropertyBufferFrameSize:
            return HALProperty(value: .uint32(HALDeviceSettings.bufferFrameSize(of: device.id)), settable: true)
        case kAudioDevicePropertyBufferFrameSizeRange:
            let range = HALDeviceSettings.bufferFrameSizeRange
            return HALProperty(value: .range(Double(range.lowerBound), Double(range.upperBound)))
        case kAudioDevicePropertyLatency, kAudioDevicePropertySafetyOffset: return HALProperty(value: .uint32(0))
        case kAudioDevicePropertyStreamConfiguration: return HALProperty(value: .bufferList(channels: device.channels(direction)))
        case kAudioDevicePropertyStreams:
            if scope == kAudioObjectPropertyScopeGlobal || scope == kAudioObjectPropertyScopeWildcard {
                return HALProperty(value: .uint32s([device.stream(.output), device.stream(.input)].compactMap { $0 }))
            }
            return HALProperty(value: .uint32s(device.stream(direction).map { [$0] } ?? []))
        case kAudioHardwareServiceDeviceProperty_VirtualMainVolume where service:
            return side == nil ? nil : HALProperty(value: .float32(1))
        case kAudioHardwareServiceDeviceProperty_VirtualMainBalance where service:
            return side == nil ? nil : HALProperty(value: .float32(0.5))
        default:
            return sideProperty(selector, device, direction)
        }
    }

    /// The properties a device has only in a scope it has a side in.
    private static func sideProperty(_ selector: AudioObjectPropertySelector, _ device: HALDevice, _ direction: AudioDeviceDirection) -> HALProperty? {
        guard let channels = device.channels(direction), let format = HALDeviceSettings.streamFormat(of: device, direction: direction) else {
            return nil
        }
        switch selector {
        case kAudioDevicePropertyPreferredChannelsForStereo:
            return HALProperty(value: channels == 1 ? .uint32Pair(1, 1) : .uint32Pair(1, 2))
        case kAudioDevicePropertyPreferredChannelLayout:
            return HALProperty(value: .channelLayout(labels(channels)))
        case kAudioDevicePropertyStreamFormat:
            return HALProperty(value: .format(format), settable: true)
        case kAudioDevicePropertyStreamFormats:
            return HALProperty(value: .formats(formats(device, channels)))
        case kAudioDevicePropertyBufferSize:
            return HALProperty(value: .uint32(HALDeviceSettings.bufferFrameSize(of: device.id) * format.mBytesPerFrame), settable: true)
        case kAudioDevicePropertyBufferSizeRange:
            let range = HALDeviceSettings.bufferFrameSizeRange
            let bytes = Double(format.mBytesPerFrame)
            return HALProperty(value: .range(Double(range.lowerBound) * bytes, Double(range.upperBound) * bytes))
        default:
            return nil
        }
    }

    /// A channel's properties: its names and (as the calls before 10.5 asked it) the format of
    /// the stream that has it.
    static func deviceChannel(
        _ selector: AudioObjectPropertySelector, _ scope: AudioObjectPropertyScope, _ channel: UInt32, _ device: HALDevice
    ) -> HALProperty? {
        let direction = direction(scope)
        guard let channels = device.channels(direction), channel >= 1, channel <= channels,
              let format = HALDeviceSettings.streamFormat(of: device, direction: direction)
        else { return nil }
        let name = channelName(labels(channels)[Int(channel) - 1], channel)
        switch selector {
        case kAudioObjectPropertyElementName: return HALProperty(value: .string(name))
        case kAudioObjectPropertyElementNumberName: return HALProperty(value: .string(String(channel)))
        case kAudioDevicePropertyChannelName: return HALProperty(value: .cString(name))
        case kAudioDevicePropertyChannelNumberName: return HALProperty(value: .cString(String(channel)))
        case kAudioDevicePropertyStreamFormat: return HALProperty(value: .format(format), settable: true)
        case kAudioDevicePropertyStreamFormats: return HALProperty(value: .formats(formats(device, channels)))
        default: return nil
        }
    }

    /// The stream formats a side can take: its format at every available rate.
    static func formats(_ device: HALDevice, _ channels: Int) -> [AudioStreamBasicDescription] {
        HALDeviceSettings.availableRates(of: device).map { HALDeviceSettings.floatFormat(rate: $0, channels: channels) }
    }

    /// The channel labels of `count` channels: mono for one, left and right for two, the
    /// WAVE order (left, right, center, LFE, left and right surround, …) for more, and
    /// discrete channels past the eleventh.
    static func labels(_ count: Int) -> [AudioChannelLabel] {
        if count == 1 { return [kAudioChannelLabel_Mono] }
        let wave: [AudioChannelLabel] = [
            kAudioChannelLabel_Left, kAudioChannelLabel_Right, kAudioChannelLabel_Center, kAudioChannelLabel_LFEScreen,
            kAudioChannelLabel_LeftSurround, kAudioChannelLabel_RightSurround, kAudioChannelLabel_LeftCenter,
            kAudioChannelLabel_RightCenter, kAudioChannelLabel_CenterSurround, kAudioChannelLabel_LeftSurroundDirect,
            kAudioChannelLabel_RightSurroundDirect,
        ]
        return (0..<count).map { $0 < wave.count ? wave[$0] : (1 << 16) | AudioChannelLabel($0) }
    }

    /// A channel's name for people.
    private static func channelName(_ label: AudioChannelLabel, _ channel: UInt32) -> String {
        switch label {
        case kAudioChannelLabel_Mono: "Mono"
        case kAudioChannelLabel_Left: "Left"
        case kAudioChannelLabel_Right: "Right"
        case kAudioChannelLabel_Center: "Center"
        case kAudioChannelLabel_LFEScreen: "LFE"
        case kAudioChannelLabel_LeftSurround: "Left Surround"
        case kAudioChannelLabel_RightSurround: "Right Surround"
        case kAudioChannelLabel_LeftCenter: "Left Center"
        case kAudioChannelLabel_RightCenter: "Right Center"
        case kAudioChannelLabel_CenterSurround: "Center Surround"
        case kAudioChannelLabel_LeftSurroundDirect: "Left Surround Direct"
        case kAudioChannelLabel_RightSurroundDirect: "Right Surround Direct"
        default: "Channel \(channel)"
        }
    }
}
