import CAudioToolbox
import AudioDevices

// The system object's properties (kAudioObjectSystemObject).

extension HALProperties {
    static func system(_ selector: AudioObjectPropertySelector, qualifier: UnsafeRawBufferPointer?) throws(HALError) -> HALProperty? {
        switch selector {
        case kAudioObjectPropertyClass: return HALProperty(value: .uint32(kAudioSystemObjectClassID))
        case kAudioObjectPropertyBaseClass: return HALProperty(value: .uint32(kAudioObjectClassID))
        case kAudioObjectPropertyOwner: return HALProperty(value: .uint32(kAudioObjectUnknown))
        case kAudioObjectPropertyName: return HALProperty(value: .string("The Audio System"))
        case kAudioObjectPropertyManufacturer: return HALProperty(value: .string("swift-audio-queue"))
        case kAudioHardwarePropertyDevices:
            return HALProperty(value: .uint32s(HALObjects.refresh().devices.map(\.id)))
        case kAudioObjectPropertyOwnedObjects:
            // The devices are the system object's only objects (no plug-ins, boxes or clocks).
            let classes = try classes(qualifier)
            return HALProperty(value: .uint32s(passes(kAudioDeviceClassID, classes) ? HALObjects.refresh().devices.map(\.id) : []))
        case kAudioHardwarePropertyDefaultOutputDevice, kAudioHardwarePropertyDefaultSystemOutputDevice:
            return HALProperty(value: .uint32(HALObjects.refresh().defaultOutput), settable: true)
        case kAudioHardwarePropertyDefaultInputDevice:
            return HALProperty(value: .uint32(HALObjects.refresh().defaultInput), settable: true)
        case kAudioHardwarePropertyRunLoop:
            return HALProperty(value: .pointer(HALListeners.runLoopBits), settable: true)
        case kAudioHardwarePropertyTranslateUIDToDevice:
            return try stringQualified(qualifier) { HALObjects.refresh().device(uid: $0)?.id ?? kAudioObjectUnknown }
        case kAudioHardwarePropertyTranslateBundleIDToPlugIn, kAudioHardwarePropertyTranslateBundleIDToTransportManager,
             kAudioHardwarePropertyTranslateUIDToBox, kAudioHardwarePropertyTranslateUIDToClockDevice,
             kAudioHardwarePropertyTranslateUIDToTap:
            return try stringQualified(qualifier) { _ in kAudioObjectUnknown }
        case kAudioHardwarePropertyTranslatePIDToProcessObject:
            // The qualifier is a pid_t; process objects are not listed.
            guard let qualifier else { return HALProperty(value: .uint32(kAudioObjectUnknown), qualifierMissing: true) }
            guard qualifier.count == 4 else { throw .badSize }
            return HALProperty(value: .uint32(kAudioObjectUnknown))
        case kAudioHardwarePropertyDeviceForUID: return HALProperty(value: .translation(.deviceForUID))
        case kAudioHardwarePropertyPlugInForBundleID: return HALProperty(value: .translation(.plugInForBundleID))
        case kAudioHardwarePropertyPlugInList, kAudioHardwarePropertyTransportManagerList, kAudioHardwarePropertyBoxList,
             kAudioHardwarePropertyClockDeviceList, kAudioHardwarePropertyProcessObjectList, kAudioHardwarePropertyTapList:
            return HALProperty(value: .uint32s([]))
        case kAudioHardwarePropertyMixStereoToMono, kAudioHardwarePropertyIsInitingOrExiting, kAudioHardwarePropertyUserIDChanged,
             kAudioHardwarePropertyProcessInputMute, kAudioHardwarePropertyServiceRestarted, kAudioHardwarePropertyPowerHint:
            return HALProperty(value: .uint32(0))
        case kAudioHardwarePropertyProcessIsMain, kAudioHardwarePropertyProcessIsMaster, kAudioHardwarePropertyProcessIsAudible,
             kAudioHardwarePropertySleepingIsAllowed, kAudioHardwarePropertyUnloadingIsAllowed, kAudioHardwarePropertyHogModeIsAllowed,
             kAudioHardwarePropertyUserSessionIsActiveOrHeadless:
            return HALProperty(value: .uint32(1))
        default:
            return nil
        }
    }
}
