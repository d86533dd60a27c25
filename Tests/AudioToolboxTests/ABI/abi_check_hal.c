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

    /* The rest of AudioHardwareBase.h, AudioHardware.h and AudioHardwareDeprecated.h (values as
       Apple's headers give them, in decimal). */
    STRUCT(AudioValueTranslation, 32, 8);
    FIELD(AudioValueTranslation, mInputData, 0, 8);
    FIELD(AudioValueTranslation, mInputDataSize, 8, 4);
    FIELD(AudioValueTranslation, mOutputData, 16, 8);
    FIELD(AudioValueTranslation, mOutputDataSize, 24, 4);
    STRUCT(AudioStreamRangedDescription, 56, 8);
    FIELD(AudioStreamRangedDescription, mFormat, 0, 40);
    FIELD(AudioStreamRangedDescription, mSampleRateRange, 40, 16);
    WIDTH(AudioHardwarePropertyListenerProc, 8);
    WIDTH(AudioDevicePropertyListenerProc, 8);
    WIDTH(AudioStreamPropertyListenerProc, 8);
    WIDTH(AudioLevelControlTransferFunction, 4);
    WIDTH(AudioHardwarePowerHint, 4);
    CONST_U32(kAudioDeviceUnknown, 0);
    CONST_U32(kAudioStreamUnknown, 0);
    CONST_U32(kAudioPropertyWildcardSection, 255);
    CONST_U32(kAudioPropertyWildcardChannel, 0xFFFFFFFFu);
    CONST_U32(kAudioDevicePropertyChannelNameCFString, 1818454126u);
    CONST_U32(kAudioStreamPropertyOwningDevice, 1937007734u);
    CONST_U32(kAudioObjectPropertyElementName, 1818454126u);
    CONST_U32(kAudioObjectPropertyElementCategoryName, 1818452846u);
    CONST_U32(kAudioObjectPropertyElementNumberName, 1818455662u);
    CONST_U32(kAudioObjectPropertyIdentify, 1768187246u);
    CONST_U32(kAudioObjectPropertySerialNumber, 1936618861u);
    CONST_U32(kAudioObjectPropertyFirmwareVersion, 1719105134u);
    CONST_U32(kAudioPlugInClassID, 1634757735u);
    CONST_U32(kAudioBoxClassID, 1633841016u);
    CONST_U32(kAudioDeviceTransportTypeFireWire, 825440564u);
    CONST_U32(kAudioDeviceTransportTypeBluetoothLE, 1651271009u);
    CONST_U32(kAudioDeviceTransportTypeDisplayPort, 1685090932u);
    CONST_U32(kAudioDeviceTransportTypeAirPlay, 1634300528u);
    CONST_U32(kAudioDeviceTransportTypeAVB, 1700886114u);
    CONST_U32(kAudioDeviceTransportTypeThunderbolt, 1953002862u);
    CONST_U32(kAudioDevicePropertyRelatedDevices, 1634429294u);
    CONST_U32(kAudioDevicePropertyClockDomain, 1668049764u);
    CONST_U32(kAudioDevicePropertyDeviceCanBeDefaultDevice, 1684434036u);
    CONST_U32(kAudioDevicePropertyDeviceCanBeDefaultSystemDevice, 1936092276u);
    CONST_U32(kAudioObjectPropertyControlList, 1668575852u);
    CONST_U32(kAudioDevicePropertyIcon, 1768124270u);
    CONST_U32(kAudioDevicePropertyIsHidden, 1751737454u);
    CONST_U32(kAudioDevicePropertyPreferredChannelLayout, 1936879204u);
    CONST_U32(kAudioClockDeviceClassID, 1633905771u);
    CONST_U32(kAudioEndPointDeviceClassID, 1701078390u);
    CONST_U32(kAudioEndPointClassID, 1701733488u);
    CONST_U32(kAudioStreamTerminalTypeLine, 1818848869u);
    CONST_U32(kAudioStreamTerminalTypeSpeaker, 1936747378u);
    CONST_U32(kAudioStreamTerminalTypeHeadphones, 1751412840u);
    CONST_U32(kAudioStreamTerminalTypeMicrophone, 1835623282u);
    CONST_U32(kAudioStreamTerminalTypeHDMI, 1751412073u);
    CONST_U32(kAudioStreamPropertyIsActive, 1935762292u);
    CONST_U32(kAudioStreamPropertyTerminalType, 1952805485u);
    CONST_U32(kAudioStreamPropertyAvailableVirtualFormats, 1936092513u);
    CONST_U32(kAudioStreamPropertyAvailablePhysicalFormats, 1885762657u);
    CONST_U32(kAudioControlClassID, 1633907820u);
    CONST_U32(kAudioVolumeControlClassID, 1986817381u);
    CONST_U32(kAudioMuteControlClassID, 1836414053u);
    CONST_U32(kAudioDataSourceControlClassID, 1685287523u);
    CONST_U32(kAudioLevelControlPropertyScalarValue, 1818456950u);
    CONST_U32(kAudioSelectorControlPropertyItemKind, 1668049771u);
    CONST_U32(kAudioClockSourceItemKindInternal, 1768846368u);
    CONST_U32(kAudioStereoPanControlPropertyPanningChannels, 1936745315u);
    CONST_U32(kAudioObjectPropertyCreator, 1869638759u);
    CONST_U32(kAudioObjectPropertyListenerAdded, 1818850145u);
    CONST_U32(kAudioObjectPropertyListenerRemoved, 1818850162u);
    CONST_U32(kAudioHardwarePropertyMixStereoToMono, 1937010031u);
    CONST_U32(kAudioHardwarePropertyPlugInList, 1886152483u);
    CONST_U32(kAudioHardwarePropertyTranslateBundleIDToPlugIn, 1651074160u);
    CONST_U32(kAudioHardwarePropertyBoxList, 1651472419u);
    CONST_U32(kAudioHardwarePropertyClockDeviceList, 1668049699u);
    CONST_U32(kAudioHardwarePropertyIsInitingOrExiting, 1768845172u);
    CONST_U32(kAudioHardwarePropertyUserIDChanged, 1702193508u);
    CONST_U32(kAudioHardwarePropertyProcessIsAudible, 1886221684u);
    CONST_U32(kAudioHardwarePropertySleepingIsAllowed, 1936483696u);
    CONST_U32(kAudioHardwarePropertyUnloadingIsAllowed, 1970170980u);
    CONST_U32(kAudioHardwarePropertyHogModeIsAllowed, 1752131442u);
    CONST_U32(kAudioHardwarePropertyUserSessionIsActiveOrHeadless, 1970496882u);
    CONST_U32(kAudioHardwarePropertyServiceRestarted, 1936880500u);
    CONST_U32(kAudioHardwarePropertyPowerHint, 1886353256u);
    CONST_U32(kAudioPlugInCreateAggregateDevice, 1667327847u);
    CONST_U32(kAudioDevicePropertyPlugIn, 1886156135u);
    CONST_U32(kAudioDevicePropertyDeviceHasChanged, 1684629094u);
    CONST_U32(kAudioDeviceProcessorOverload, 1870030194u);
    CONST_U32(kAudioDevicePropertyIOStoppedAbnormally, 1937010788u);
    CONST_U32(kAudioDevicePropertyHogMode, 1869180523u);
    CONST_U32(kAudioDevicePropertyUsesVariableBufferFrameSizes, 1986425722u);
    CONST_U32(kAudioDevicePropertyIOCycleUsage, 1852012899u);
    CONST_U32(kAudioDevicePropertyIOProcStreamUsage, 1937077093u);
    CONST_U32(kAudioDevicePropertyActualSampleRate, 1634955892u);
    CONST_U32(kAudioDevicePropertyClockDevice, 1634755428u);
    CONST_U32(kAudioDevicePropertyVolumeScalar, 1987013741u);
    CONST_U32(kAudioDevicePropertyVolumeDecibels, 1987013732u);
    CONST_U32(kAudioDevicePropertyMute, 1836414053u);
    CONST_U32(kAudioDevicePropertyDataSource, 1936945763u);
    CONST_U32(kAudioDevicePropertyDataSources, 1936941859u);
    CONST_U32(kAudioDevicePropertyDataSourceNameForIDCFString, 1819501422u);
    CONST_U32(kAudioDevicePropertyClockSourceKindForID, 1668506475u);
    CONST_U32(kAudioDevicePropertyPlayThruDestinationNameForIDCFString, 1835295843u);
    CONST_U32(kAudioDevicePropertyHighPassFilterSettingNameForIDCFString, 1751740524u);
    CONST_U32(kAudioDevicePropertySubMute, 1936553332u);
    CONST_U32(kAudioAggregateDeviceClassID, 1633773415u);
    CONST_U32(kAudioAggregateDevicePropertyFullSubDeviceList, 1735554416u);
    CONST_U32(kAudioAggregateDevicePropertyMasterSubDevice, 1634562932u);
    CONST_U32(kAudioSubDeviceClassID, 1634956642u);
    CONST_U32(kAudioSubDeviceDriftCompensationMaxQuality, 127u);
    CONST_U32(kAudioSubDevicePropertyExtraLatency, 2020373603u);
    CONST_U32(kAudioSubDevicePropertyDriftCompensationQuality, 1685218929u);
    CONST_U32(kAudioDevicePropertyScopeInput, 1768845428u);
    CONST_U32(kAudioDevicePropertyScopeOutput, 1869968496u);
    CONST_U32(kAudioDevicePropertyScopePlayThrough, 1886679669u);
    CONST_U32(kAudioISubOwnerControlClassID, 1635017576u);
    CONST_U32(kAudioLevelControlPropertyDecibelsToScalarTransferFunction, 1818457190u);
    CONST_U32(kAudioLevelControlTranferFunction12Over1, 15u);
    CONST_U32(kAudioHardwarePropertyRunLoop, 1919839344u);
    CONST_U32(kAudioHardwarePropertyDeviceForUID, 1685416292u);
    CONST_U32(kAudioHardwarePropertyPlugInForBundleID, 1885954665u);
    CONST_U32(kAudioHardwarePropertyBootChimeVolumeScalar, 1650620019u);
    CONST_U32(kAudioHardwarePropertyBootChimeVolumeDecibelsToScalarTransferFunction, 1651930214u);
    CONST_U32(kAudioDeviceTransportTypeAutoAggregate, 1718055536u);
    CONST_U32(kAudioDevicePropertyVolumeDecibelsToScalarTransferFunction, 1986229350u);
    CONST_U32(kAudioDevicePropertyPlayThruVolumeDecibelsToScalarTransferFunction, 1836479590u);
    CONST_U32(kAudioDevicePropertyDriverShouldOwniSub, 1769174370u);
    CONST_U32(kAudioDevicePropertySubVolumeDecibelsToScalarTransferFunction, 1937142886u);
    CONST_U32(kAudioDevicePropertyRegisterBufferList, 1919055206u);
    CONST_U32(kAudioDevicePropertyBufferSize, 1651730810u);
    CONST_U32(kAudioDevicePropertyBufferSizeRange, 1651735075u);
    CONST_U32(kAudioDevicePropertyChannelName, 1667788397u);
    CONST_U32(kAudioDevicePropertyChannelCategoryName, 1667460717u);
    CONST_U32(kAudioDevicePropertyChannelNumberName, 1668181613u);
    CONST_U32(kAudioDevicePropertySupportsMixing, 1835628607u);
    CONST_U32(kAudioDevicePropertyStreamFormat, 1936092532u);
    CONST_U32(kAudioDevicePropertyStreamFormats, 1936092451u);
    CONST_U32(kAudioDevicePropertyStreamFormatSupported, 1936092479u);
    CONST_U32(kAudioDevicePropertyStreamFormatMatch, 1936092525u);
    CONST_U32(kAudioDevicePropertyDataSourceNameForID, 1936941934u);
    CONST_U32(kAudioDevicePropertyClockSourceNameForID, 1668506478u);
    CONST_U32(kAudioDevicePropertyPlayThruDestinationNameForID, 1835295854u);
    CONST_U32(kAudioDevicePropertyChannelNominalLineLevelNameForID, 1668181110u);
    CONST_U32(kAudioDevicePropertyHighPassFilterSettingNameForID, 1667787120u);
    CONST_U32(kAudioStreamPropertyPhysicalFormats, 1885762595u);
    CONST_U32(kAudioStreamPropertyPhysicalFormatSupported, 1885762623u);
    CONST_U32(kAudioStreamPropertyPhysicalFormatMatch, 1885762669u);
    CONST_U32(kAudioBootChimeVolumeControlClassID, 1886544237u);
    CONST_U32(kAudioControlPropertyVariant, 1668702578u);
}
