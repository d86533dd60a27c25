import CAudioToolbox
import AudioDevices

// Streams' properties (kAudioStreamClassID): a device's output or input side. Their virtual
// and physical formats are the same (the sound server or alsa-lib converts to the hardware),
// interleaved Float32 at the device's rate for this process with the side's channels.

extension HALProperties {
    static func stream(
        _ selector: AudioObjectPropertySelector, _ device: HALDevice, _ direction: AudioDeviceDirection, qualifier: UnsafeRawBufferPointer?
    ) throws(HALError) -> HALProperty? {
        guard let channels = device.channels(direction), let format = HALDeviceSettings.streamFormat(of: device, direction: direction) else {
            return nil
        }
        switch selector {
        case kAudioObjectPropertyClass: return HALProperty(value: .uint32(kAudioStreamClassID))
        case kAudioObjectPropertyBaseClass: return HALProperty(value: .uint32(kAudioObjectClassID))
        case kAudioObjectPropertyOwner: return HALProperty(value: .uint32(device.id))
        case kAudioObjectPropertyName: return HALProperty(value: .string(device.name))
        case kAudioObjectPropertyOwnedObjects:
            _ = try classes(qualifier)
            return HALProperty(value: .uint32s([]))
        case kAudioStreamPropertyIsActive: return HALProperty(value: .uint32(1))
        case kAudioStreamPropertyDirection: return HALProperty(value: .uint32(direction == .input ? 1 : 0))
        case kAudioStreamPropertyTerminalType:
            return HALProperty(value: .uint32(direction == .input ? kAudioStreamTerminalTypeMicrophone : kAudioStreamTerminalTypeSpeaker))
        case kAudioStreamPropertyStartingChannel: return HALProperty(value: .uint32(1))
        case kAudioStreamPropertyLatency: return HALProperty(value: .uint32(0))
        case kAudioStreamPropertyVirtualFormat, kAudioStreamPropertyPhysicalFormat:
            return HALProperty(value: .format(format), settable: true)
        case kAudioStreamPropertyAvailableVirtualFormats, kAudioStreamPropertyAvailablePhysicalFormats:
            let ranged = HALDeviceSettings.availableRates(of: device).map {
                AudioStreamRangedDescription(
                    mFormat: HALDeviceSettings.floatFormat(rate: $0, channels: channels),
                    mSampleRateRange: AudioValueRange(mMinimum: $0, mMaximum: $0))
            }
            return HALProperty(value: .rangedFormats(ranged))
        case kAudioStreamPropertyPhysicalFormats:
            return HALProperty(value: .formats(formats(device, channels)))
        default:
            return nil
        }
    }
}
