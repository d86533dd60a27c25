/*
 * abi_check_hal.c — the HAL subset's part of abi_check.c (included by it): the structs and types
 * of <CoreAudio/AudioHardwareBase.h> and <CoreAudio/AudioHardware.h>, and the values of their
 * constants and of <AudioToolbox/AudioHardwareService.h>'s, as Apple's SDK headers
 * (MacOSX12.3.sdk) give them (four-character codes written out as their big-endian numbers).
 *
 * swift-audio-queue. Apache License 2.0.
 */

static void checkHardware(void) {
    /* AudioHardwareBase.h: three UInt32s. */
    STRUCT(AudioObjectPropertyAddress, 12, 4);
    FIELD(AudioObjectPropertyAddress, mSelector, 0, 4);
    FIELD(AudioObjectPropertyAddress, mScope, 4, 4);
    FIELD(AudioObjectPropertyAddress, mElement, 8, 4);
    WIDTH(AudioObjectID, 4);
    WIDTH(AudioClassID, 4);
    WIDTH(AudioObjectPropertySelector, 4);
    WIDTH(AudioObjectPropertyScope, 4);
    WIDTH(AudioObjectPropertyElement, 4);
    WIDTH(AudioDeviceID, 4);
    WIDTH(AudioStreamID, 4);
    WIDTH(AudioHardwarePropertyID, 4);
    WIDTH(AudioDevicePropertyID, 4);
    WIDTH(AudioObjectPropertyListenerProc, 8);
    SIGNEDNESS(AudioObjectID, 0);
    /* AudioValueRange and AudioBufferList (the values of kAudioDevicePropertyAvailableNominalSampleRates
       and kAudioDevicePropertyStreamConfiguration) are checked with CoreAudioBaseTypes.h's structs. */

    CONST_S32(kAudioObjectSystemObject, 1);
    WIDTH(kAudioObjectSystemObject, 4); /* CF_ENUM(int) */
    CONST_U32(kAudioObjectUnknown, 0);
    CONST_U32(kAudioObjectPropertyScopeGlobal, 0x676C6F62); /* 'glob' */
    CONST_U32(kAudioObjectPropertyScopeInput, 0x696E7074); /* 'inpt' */
    CONST_U32(kAudioObjectPropertyScopeOutput, 0x6F757470); /* 'outp' */
    CONST_U32(kAudioObjectPropertyScopePlayThrough, 0x70747275); /* 'ptru' */
    CONST_U32(kAudioObjectPropertyScopeWildcard, 0x2A2A2A2A); /* '****' */
    CONST_U32(kAudioObjectPropertyElementMain, 0);
    CONST_U32(kAudioObjectPropertyElementMaster, 0);
    CONST_U32(kAudioObjectPropertyElementWildcard, 0xFFFFFFFF);
    CONST_U32(kAudioObjectPropertySelectorWildcard, 0x2A2A2A2A); /* '****' */
    CONST_U32(kAudioObjectClassIDWildcard, 0x2A2A2A2A); /* '****' */
    CONST_U32(kAudioObjectClassID, 0x616F626A); /* 'aobj' */
    CONST_U32(kAudioSystemObjectClassID, 0x61737973); /* 'asys' */
    CONST_U32(kAudioDeviceClassID, 0x61646576); /* 'adev' */
    CONST_U32(kAudioStreamClassID, 0x61737472); /* 'astr' */
    CONST_U32(kAudioObjectPropertyBaseClass, 0x62636C73); /* 'bcls' */
    CONST_U32(kAudioObjectPropertyClass, 0x636C6173); /* 'clas' */
    CONST_U32(kAudioObjectPropertyOwner, 0x73746476); /* 'stdv' */
    CONST_U32(kAudioObjectPropertyName, 0x6C6E616D); /* 'lnam' */
    CONST_U32(kAudioObjectPropertyModelName, 0x6C6D6F64); /* 'lmod' */
    CONST_U32(kAudioObjectPropertyManufacturer, 0x6C6D616B); /* 'lmak' */
    CONST_U32(kAudioObjectPropertyOwnedObjects, 0x6F776E64); /* 'ownd' */
    CONST_U32(kAudioHardwarePropertyDevices, 0x64657623); /* 'dev#' */
    CONST_U32(kAudioHardwarePropertyDefaultInputDevice, 0x64496E20); /* 'dIn ' */
    CONST_U32(kAudioHardwarePropertyDefaultOutputDevice, 0x644F7574); /* 'dOut' */
    CONST_U32(kAudioHardwarePropertyDefaultSystemOutputDevice, 0x734F7574); /* 'sOut' */
    CONST_U32(kAudioHardwarePropertyTranslateUIDToDevice, 0x75696464); /* 'uidd' */
    CONST_U32(kAudioHardwarePropertyRunLoop, 0x726E6C70); /* 'rnlp' */
    CONST_U32(kAudioDevicePropertyConfigurationApplication, 0x63617070); /* 'capp' */
    CONST_U32(kAudioDevicePropertyDeviceUID, 0x75696420); /* 'uid ' */
    CONST_U32(kAudioDevicePropertyModelUID, 0x6D756964); /* 'muid' */
    CONST_U32(kAudioDevicePropertyTransportType, 0x7472616E); /* 'tran' */
    CONST_U32(kAudioDevicePropertyDeviceIsAlive, 0x6C69766E); /* 'livn' */
    CONST_U32(kAudioDevicePropertyDeviceIsRunning, 0x676F696E); /* 'goin' */
    CONST_U32(kAudioDevicePropertyDeviceIsRunningSomewhere, 0x676F6E65); /* 'gone' */
    CONST_U32(kAudioDevicePropertyLatency, 0x6C746E63); /* 'ltnc' */
    CONST_U32(kAudioDevicePropertyStreams, 0x73746D23); /* 'stm#' */
    CONST_U32(kAudioDevicePropertySafetyOffset, 0x73616674); /* 'saft' */
    CONST_U32(kAudioDevicePropertyNominalSampleRate, 0x6E737274); /* 'nsrt' */
    CONST_U32(kAudioDevicePropertyAvailableNominalSampleRates, 0x6E737223); /* 'nsr#' */
    CONST_U32(kAudioDevicePropertyPreferredChannelsForStereo, 0x64636832); /* 'dch2' */
    CONST_U32(kAudioDevicePropertyBufferFrameSize, 0x6673697A); /* 'fsiz' */
    CONST_U32(kAudioDevicePropertyBufferFrameSizeRange, 0x66737A23); /* 'fsz#' */
    CONST_U32(kAudioDevicePropertyStreamConfiguration, 0x736C6179); /* 'slay' */
    CONST_U32(kAudioDevicePropertyDeviceName, 0x6E616D65); /* 'name' */
    CONST_U32(kAudioDevicePropertyDeviceNameCFString, 0x6C6E616D); /* 'lnam' */
    CONST_U32(kAudioDevicePropertyDeviceManufacturer, 0x6D616B72); /* 'makr' */
    CONST_U32(kAudioDevicePropertyDeviceManufacturerCFString, 0x6C6D616B); /* 'lmak' */
    CONST_U32(kAudioDeviceTransportTypeUnknown, 0);
    CONST_U32(kAudioDeviceTransportTypeBuiltIn, 0x626C746E); /* 'bltn' */
    CONST_U32(kAudioDeviceTransportTypeAggregate, 0x67727570); /* 'grup' */
    CONST_U32(kAudioDeviceTransportTypeVirtual, 0x76697274); /* 'virt' */
    CONST_U32(kAudioDeviceTransportTypePCI, 0x70636920); /* 'pci ' */
    CONST_U32(kAudioDeviceTransportTypeUSB, 0x75736220); /* 'usb ' */
    CONST_U32(kAudioDeviceTransportTypeBluetooth, 0x626C7565); /* 'blue' */
    CONST_U32(kAudioDeviceTransportTypeHDMI, 0x68646D69); /* 'hdmi' */
    CONST_U32(kAudioStreamPropertyDirection, 0x73646972); /* 'sdir' */
    CONST_U32(kAudioStreamPropertyStartingChannel, 0x7363686E); /* 'schn' */
    CONST_U32(kAudioStreamPropertyLatency, 0x6C746E63); /* 'ltnc' */
    CONST_U32(kAudioStreamPropertyVirtualFormat, 0x73666D74); /* 'sfmt' */
    CONST_U32(kAudioStreamPropertyPhysicalFormat, 0x70667420); /* 'pft ' */
    CONST_U32(kAudioHardwareServiceProperty_ServiceRestarted, 0x73727374); /* 'srst' */
    CONST_U32(kAudioHardwareServiceDeviceProperty_VirtualMainVolume, 0x766D7663); /* 'vmvc' */
    CONST_U32(kAudioHardwareServiceDeviceProperty_VirtualMasterVolume, 0x766D7663); /* 'vmvc' */
    CONST_U32(kAudioHardwareServiceDeviceProperty_VirtualMainBalance, 0x766D6263); /* 'vmbc' */
    CONST_U32(kAudioHardwareServiceDeviceProperty_VirtualMasterBalance, 0x766D6263); /* 'vmbc' */

    CONST_S32(kAudioHardwareNoError, 0);
    CONST_S32(kAudioHardwareNotReadyError, 0x6E726479); /* 'nrdy' */
    CONST_S32(kAudioHardwareNotRunningError, 0x73746F70); /* 'stop' */
    CONST_S32(kAudioHardwareUnspecifiedError, 0x77686174); /* 'what' */
    CONST_S32(kAudioHardwareUnknownPropertyError, 0x77686F3F); /* 'who?' */
    CONST_S32(kAudioHardwareBadPropertySizeError, 0x2173697A); /* '!siz' */
    CONST_S32(kAudioHardwareIllegalOperationError, 0x6E6F7065); /* 'nope' */
    CONST_S32(kAudioHardwareBadObjectError, 0x216F626A); /* '!obj' */
    CONST_S32(kAudioHardwareBadDeviceError, 0x21646576); /* '!dev' */
    CONST_S32(kAudioHardwareBadStreamError, 0x21737472); /* '!str' */
    CONST_S32(kAudioHardwareUnsupportedOperationError, 0x756E6F70); /* 'unop' */
    CONST_S32(kAudioDeviceUnsupportedFormatError, 0x21646174); /* '!dat' */
    CONST_S32(kAudioDevicePermissionsError, 0x21686F67); /* '!hog' */
    CONST_S32(kAudioServicesNoError, 0);
    CONST_S32(kAudioServicesUnsupportedPropertyError, 0x7074793F); /* 'pty?' */
    CONST_S32(kAudioServicesBadPropertySizeError, 0x2173697A); /* '!siz' */
    CONST_S32(kAudioServicesBadSpecifierSizeError, 0x21737063); /* '!spc' */
}
