/*
 * AudioHardwareBase.h — the types, constants and result codes of Apple's Hardware Abstraction
 * Layer (HAL) that <CoreAudio/AudioHardware.h> builds on: audio objects, property addresses,
 * scopes, elements and the HAL's OSStatus codes, with Apple's names and values.
 *
 * swift-audio-queue. Apache License 2.0.
 */
#ifndef CoreAudio_AudioHardwareBase_h
#define CoreAudio_AudioHardwareBase_h

#include <AudioToolbox/ATBase.h>
#include <AudioToolbox/CoreAudioTypes.h>

AT_EXTERN_C_BEGIN

/* An audio object (the system object, a device, a stream), named by a process-wide number. */
typedef UInt32 AudioObjectID;
/* The class of an audio object (kAudioDeviceClassID, …). */
typedef UInt32 AudioClassID;
/* What a property is (kAudioDevicePropertyDeviceUID, …). */
typedef UInt32 AudioObjectPropertySelector;
/* Which part of an object a property belongs to: global, input or output. */
typedef UInt32 AudioObjectPropertyScope;
/* Which element (channel) of the scope: kAudioObjectPropertyElementMain for the whole. */
typedef UInt32 AudioObjectPropertyElement;

/* A property of an object: its selector, scope and element. 12 bytes, aligned to 4. */
typedef struct AudioObjectPropertyAddress {
    AudioObjectPropertySelector mSelector;
    AudioObjectPropertyScope mScope;
    AudioObjectPropertyElement mElement;
} AudioObjectPropertyAddress;

/* A translation from one value to another (kAudioHardwarePropertyDeviceForUID, the name of a
   selector item): the input and output buffers and their sizes in bytes. Apple declares it in
   CoreAudioTypes.h; it is declared here once, under a guard that CoreAudioTypes.h may define
   when it declares it first. 32 bytes on 64-bit systems. */
#ifndef AT_AUDIO_VALUE_TRANSLATION_DECLARED
#define AT_AUDIO_VALUE_TRANSLATION_DECLARED 1
typedef struct AudioValueTranslation {
    void *_Nonnull mInputData;
    UInt32 mInputDataSize;
    void *_Nonnull mOutputData;
    UInt32 mOutputDataSize;
} AudioValueTranslation;
#endif

/* Result codes (OSStatus) of the HAL's functions. */
CF_ENUM(OSStatus) {
    kAudioHardwareNoError = 0,
    kAudioHardwareNotReadyError = 0x6E726479,                    /* 'nrdy' */
    kAudioHardwareNotRunningError = 0x73746F70,                  /* 'stop' */
    kAudioHardwareUnspecifiedError = 0x77686174,                 /* 'what' */
    kAudioHardwareUnknownPropertyError = 0x77686F3F,             /* 'who?' the object has no such property */
    kAudioHardwareBadPropertySizeError = 0x2173697A,             /* '!siz' a size too small, or wrong for the property */
    kAudioHardwareIllegalOperationError = 0x6E6F7065,            /* 'nope' a NULL argument, a read-only property set */
    kAudioHardwareBadObjectError = 0x216F626A,                   /* '!obj' no object has that ID */
    kAudioHardwareBadDeviceError = 0x21646576,                   /* '!dev' */
    kAudioHardwareBadStreamError = 0x21737472,                   /* '!str' */
    kAudioHardwareUnsupportedOperationError = 0x756E6F70,        /* 'unop' */
    kAudioDeviceUnsupportedFormatError = 0x21646174,             /* '!dat' */
    kAudioDevicePermissionsError = 0x21686F67,                   /* '!hog' */
};

/* Object IDs. */
CF_ENUM(AudioObjectID) {
    kAudioObjectUnknown = 0,                                     /* no object */
};

/* Scopes. */
CF_ENUM(AudioObjectPropertyScope) {
    kAudioObjectPropertyScopeGlobal = 0x676C6F62,                /* 'glob' */
    kAudioObjectPropertyScopeInput = 0x696E7074,                 /* 'inpt' */
    kAudioObjectPropertyScopeOutput = 0x6F757470,                /* 'outp' */
    kAudioObjectPropertyScopePlayThrough = 0x70747275,           /* 'ptru' */
    kAudioObjectPropertyScopeWildcard = 0x2A2A2A2A,              /* '****' */
};

/* Elements: kAudioObjectPropertyElementMaster is the name before macOS 12. */
CF_ENUM(AudioObjectPropertyElement) {
    kAudioObjectPropertyElementMain = 0,
    kAudioObjectPropertyElementMaster = 0,                       /* the same, under its older name */
    kAudioObjectPropertyElementWildcard = 0xFFFFFFFF,
};

/* Wildcards for selectors and classes. */
CF_ENUM(AudioObjectPropertySelector) {
    kAudioObjectPropertySelectorWildcard = 0x2A2A2A2A,           /* '****' */
};
CF_ENUM(AudioClassID) {
    kAudioObjectClassIDWildcard = 0x2A2A2A2A,                    /* '****' */
    kAudioObjectClassID = 0x616F626A,                            /* 'aobj' */
    kAudioSystemObjectClassID = 0x61737973,                      /* 'asys' */
    kAudioDeviceClassID = 0x61646576,                            /* 'adev' */
    kAudioStreamClassID = 0x61737472,                            /* 'astr' */
};

/* Properties of every object (kAudioObjectClassID). */
CF_ENUM(AudioObjectPropertySelector) {
    kAudioObjectPropertyBaseClass = 0x62636C73,                      /* 'bcls' AudioClassID */
    kAudioObjectPropertyClass = 0x636C6173,                          /* 'clas' AudioClassID */
    kAudioObjectPropertyOwner = 0x73746476,                          /* 'stdv' AudioObjectID */
    kAudioObjectPropertyName = 0x6C6E616D,                           /* 'lnam' CFStringRef, released by the caller */
    kAudioObjectPropertyModelName = 0x6C6D6F64,                      /* 'lmod' CFStringRef */
    kAudioObjectPropertyManufacturer = 0x6C6D616B,                   /* 'lmak' CFStringRef, released by the caller */
    kAudioObjectPropertyElementName = 0x6C63686E,                    /* 'lchn' CFStringRef of an element (channel) */
    kAudioObjectPropertyElementCategoryName = 0x6C63636E,            /* 'lccn' CFStringRef */
    kAudioObjectPropertyElementNumberName = 0x6C636E6E,              /* 'lcnn' CFStringRef */
    kAudioObjectPropertyOwnedObjects = 0x6F776E64,                   /* 'ownd' AudioObjectID[]; qualifier: AudioClassID[] */
    kAudioObjectPropertyIdentify = 0x6964656E,                       /* 'iden' UInt32 */
    kAudioObjectPropertySerialNumber = 0x736E756D,                   /* 'snum' CFStringRef */
    kAudioObjectPropertyFirmwareVersion = 0x6677766E,                /* 'fwvn' CFStringRef */
};

/* Plug-ins (kAudioPlugInClassID). */
CF_ENUM(AudioClassID) {
    kAudioPlugInClassID = 0x61706C67,                                /* 'aplg' */
};

/* Properties of plug-ins. */
CF_ENUM(AudioObjectPropertySelector) {
    kAudioPlugInPropertyBundleID = 0x70696964,                       /* 'piid' CFStringRef */
    kAudioPlugInPropertyDeviceList = 0x64657623,                     /* 'dev#' AudioObjectID[] */
    kAudioPlugInPropertyTranslateUIDToDevice = 0x75696464,           /* 'uidd' AudioObjectID; qualifier: CFStringRef */
    kAudioPlugInPropertyBoxList = 0x626F7823,                        /* 'box#' AudioObjectID[] */
    kAudioPlugInPropertyTranslateUIDToBox = 0x75696462,              /* 'uidb' AudioObjectID; qualifier: CFStringRef */
    kAudioPlugInPropertyClockDeviceList = 0x636C6B23,                /* 'clk#' AudioObjectID[] */
    kAudioPlugInPropertyTranslateUIDToClockDevice = 0x75696463,      /* 'uidc' AudioObjectID; qualifier: CFStringRef */
};

/* Transport managers (kAudioTransportManagerClassID). */
CF_ENUM(AudioClassID) {
    kAudioTransportManagerClassID = 0x7472706D,                      /* 'trpm' */
};

/* Properties of transport managers. */
CF_ENUM(AudioObjectPropertySelector) {
    kAudioTransportManagerPropertyEndPointList = 0x656E6423,         /* 'end#' AudioObjectID[] */
    kAudioTransportManagerPropertyTranslateUIDToEndPoint = 0x75696465, /* 'uide' AudioObjectID; qualifier: CFStringRef */
    kAudioTransportManagerPropertyTransportType = 0x7472616E,        /* 'tran' UInt32 */
};

/* Boxes (kAudioBoxClassID). */
CF_ENUM(AudioClassID) {
    kAudioBoxClassID = 0x61626F78,                                   /* 'abox' */
};

/* Properties of boxes. */
CF_ENUM(AudioObjectPropertySelector) {
    kAudioBoxPropertyBoxUID = 0x62756964,                            /* 'buid' CFStringRef */
    kAudioBoxPropertyTransportType = 0x7472616E,                     /* 'tran' UInt32 */
    kAudioBoxPropertyHasAudio = 0x62686175,                          /* 'bhau' UInt32 */
    kAudioBoxPropertyHasVideo = 0x62687669,                          /* 'bhvi' UInt32 */
    kAudioBoxPropertyHasMIDI = 0x62686D69,                           /* 'bhmi' UInt32 */
    kAudioBoxPropertyIsProtected = 0x6270726F,                       /* 'bpro' UInt32 */
    kAudioBoxPropertyAcquired = 0x62786F6E,                          /* 'bxon' UInt32 */
    kAudioBoxPropertyAcquisitionFailed = 0x62786F66,                 /* 'bxof' OSStatus */
    kAudioBoxPropertyDeviceList = 0x62647623,                        /* 'bdv#' AudioObjectID[] */
    kAudioBoxPropertyClockDeviceList = 0x62636C23,                   /* 'bcl#' AudioObjectID[] */
};

/* Transport types (kAudioDevicePropertyTransportType). */
CF_ENUM(UInt32) {
    kAudioDeviceTransportTypeUnknown = 0,
    kAudioDeviceTransportTypeBuiltIn = 0x626C746E,                   /* 'bltn' */
    kAudioDeviceTransportTypeAggregate = 0x67727570,                 /* 'grup' */
    kAudioDeviceTransportTypeVirtual = 0x76697274,                   /* 'virt' */
    kAudioDeviceTransportTypePCI = 0x70636920,                       /* 'pci ' */
    kAudioDeviceTransportTypeUSB = 0x75736220,                       /* 'usb ' */
    kAudioDeviceTransportTypeFireWire = 0x31333934,                  /* '1394' */
    kAudioDeviceTransportTypeBluetooth = 0x626C7565,                 /* 'blue' */
    kAudioDeviceTransportTypeBluetoothLE = 0x626C6561,               /* 'blea' */
    kAudioDeviceTransportTypeHDMI = 0x68646D69,                      /* 'hdmi' */
    kAudioDeviceTransportTypeDisplayPort = 0x64707274,               /* 'dprt' */
    kAudioDeviceTransportTypeAirPlay = 0x61697270,                   /* 'airp' */
    kAudioDeviceTransportTypeAVB = 0x65617662,                       /* 'eavb' */
    kAudioDeviceTransportTypeThunderbolt = 0x7468756E,               /* 'thun' */
    kAudioDeviceTransportTypeContinuityCaptureWired = 0x63637764,    /* 'ccwd' */
    kAudioDeviceTransportTypeContinuityCaptureWireless = 0x6363776C, /* 'ccwl' */
    kAudioDeviceTransportTypeContinuityCapture = 0x63636170,         /* 'ccap' (macOS 13 only; the two above replace it) */
};

/* Properties of devices. */
CF_ENUM(AudioObjectPropertySelector) {
    kAudioDevicePropertyConfigurationApplication = 0x63617070,       /* 'capp' CFStringRef */
    kAudioDevicePropertyDeviceUID = 0x75696420,                      /* 'uid ' CFStringRef: what kAudioQueueProperty_CurrentDevice takes */
    kAudioDevicePropertyModelUID = 0x6D756964,                       /* 'muid' CFStringRef */
    kAudioDevicePropertyTransportType = 0x7472616E,                  /* 'tran' UInt32 */
    kAudioDevicePropertyRelatedDevices = 0x616B696E,                 /* 'akin' AudioObjectID[] */
    kAudioDevicePropertyClockDomain = 0x636C6B64,                    /* 'clkd' UInt32 */
    kAudioDevicePropertyDeviceIsAlive = 0x6C69766E,                  /* 'livn' UInt32 */
    kAudioDevicePropertyDeviceIsRunning = 0x676F696E,                /* 'goin' UInt32 */
    kAudioDevicePropertyDeviceCanBeDefaultDevice = 0x64666C74,       /* 'dflt' UInt32, per scope */
    kAudioDevicePropertyDeviceCanBeDefaultSystemDevice = 0x73666C74, /* 'sflt' UInt32 */
    kAudioDevicePropertyLatency = 0x6C746E63,                        /* 'ltnc' UInt32 frames, per scope */
    kAudioDevicePropertyStreams = 0x73746D23,                        /* 'stm#' AudioObjectID[], per scope */
    kAudioObjectPropertyControlList = 0x6374726C,                    /* 'ctrl' AudioObjectID[] */
    kAudioDevicePropertySafetyOffset = 0x73616674,                   /* 'saft' UInt32 frames, per scope */
    kAudioDevicePropertyNominalSampleRate = 0x6E737274,              /* 'nsrt' Float64 */
    kAudioDevicePropertyAvailableNominalSampleRates = 0x6E737223,    /* 'nsr#' AudioValueRange[] */
    kAudioDevicePropertyIcon = 0x69636F6E,                           /* 'icon' CFURLRef */
    kAudioDevicePropertyIsHidden = 0x6869646E,                       /* 'hidn' UInt32 */
    kAudioDevicePropertyPreferredChannelsForStereo = 0x64636832,     /* 'dch2' UInt32[2] */
    kAudioDevicePropertyPreferredChannelLayout = 0x73726E64,         /* 'srnd' AudioChannelLayout */
};

/* Clock devices (kAudioClockDeviceClassID). */
CF_ENUM(AudioClassID) {
    kAudioClockDeviceClassID = 0x61636C6B,                           /* 'aclk' */
};

/* Properties of clock devices. */
CF_ENUM(AudioObjectPropertySelector) {
    kAudioClockDevicePropertyDeviceUID = 0x63756964,                 /* 'cuid' */
    kAudioClockDevicePropertyTransportType = 0x7472616E,             /* 'tran' */
    kAudioClockDevicePropertyClockDomain = 0x636C6B64,               /* 'clkd' */
    kAudioClockDevicePropertyDeviceIsAlive = 0x6C69766E,             /* 'livn' */
    kAudioClockDevicePropertyDeviceIsRunning = 0x676F696E,           /* 'goin' */
    kAudioClockDevicePropertyLatency = 0x6C746E63,                   /* 'ltnc' */
    kAudioClockDevicePropertyControlList = 0x6374726C,               /* 'ctrl' */
    kAudioClockDevicePropertyNominalSampleRate = 0x6E737274,         /* 'nsrt' */
    kAudioClockDevicePropertyAvailableNominalSampleRates = 0x6E737223, /* 'nsr#' */
};

/* End point devices (kAudioEndPointDeviceClassID) and end points (kAudioEndPointClassID). */
CF_ENUM(AudioClassID) {
    kAudioEndPointDeviceClassID = 0x65646576,                        /* 'edev' */
    kAudioEndPointClassID = 0x656E6470,                              /* 'endp' */
};

/* Properties of end point devices. */
CF_ENUM(AudioObjectPropertySelector) {
    kAudioEndPointDevicePropertyComposition = 0x61636F6D,            /* 'acom' CFDictionaryRef */
    kAudioEndPointDevicePropertyEndPointList = 0x61677270,           /* 'agrp' AudioObjectID[] */
    kAudioEndPointDevicePropertyIsPrivate = 0x70726976,              /* 'priv' pid_t */
};

/* The keys of an end point device's and an end point's description (C strings; CFSTR() them). */
#define kAudioEndPointDeviceUIDKey "uid"
#define kAudioEndPointDeviceNameKey "name"
#define kAudioEndPointDeviceEndPointListKey "endpoints"
#define kAudioEndPointDeviceMainEndPointKey "master"
#define kAudioEndPointDeviceMasterEndPointKey kAudioEndPointDeviceMainEndPointKey
#define kAudioEndPointDeviceIsPrivateKey "private"
#define kAudioEndPointUIDKey "uid"
#define kAudioEndPointNameKey "name"
#define kAudioEndPointInputChannelsKey "channels-in"
#define kAudioEndPointOutputChannelsKey "channels-out"

/* A format a stream can take and the range of rates it takes it at
   (kAudioStreamPropertyAvailableVirtualFormats, …AvailablePhysicalFormats). 56 bytes. */
typedef struct AudioStreamRangedDescription {
    AudioStreamBasicDescription mFormat;
    AudioValueRange mSampleRateRange;
} AudioStreamRangedDescription;

/* Terminal types (kAudioStreamPropertyTerminalType). */
CF_ENUM(UInt32) {
    kAudioStreamTerminalTypeUnknown = 0,
    kAudioStreamTerminalTypeLine = 0x6C696E65,                       /* 'line' */
    kAudioStreamTerminalTypeDigitalAudioInterface = 0x73706466,      /* 'spdf' */
    kAudioStreamTerminalTypeSpeaker = 0x73706B72,                    /* 'spkr' */
    kAudioStreamTerminalTypeHeadphones = 0x68647068,                 /* 'hdph' */
    kAudioStreamTerminalTypeLFESpeaker = 0x6C666573,                 /* 'lfes' */
    kAudioStreamTerminalTypeReceiverSpeaker = 0x7273706B,            /* 'rspk' */
    kAudioStreamTerminalTypeMicrophone = 0x6D696372,                 /* 'micr' */
    kAudioStreamTerminalTypeHeadsetMicrophone = 0x686D6963,          /* 'hmic' */
    kAudioStreamTerminalTypeReceiverMicrophone = 0x726D6963,         /* 'rmic' */
    kAudioStreamTerminalTypeTTY = 0x7474795F,                        /* 'tty_' */
    kAudioStreamTerminalTypeHDMI = 0x68646D69,                       /* 'hdmi' */
    kAudioStreamTerminalTypeDisplayPort = 0x64707274,                /* 'dprt' */
};

/* Properties of streams. */
CF_ENUM(AudioObjectPropertySelector) {
    kAudioStreamPropertyIsActive = 0x73616374,                       /* 'sact' UInt32 */
    kAudioStreamPropertyDirection = 0x73646972,                      /* 'sdir' UInt32: 0 output, 1 input */
    kAudioStreamPropertyTerminalType = 0x7465726D,                   /* 'term' UInt32 */
    kAudioStreamPropertyStartingChannel = 0x7363686E,                /* 'schn' UInt32 */
    kAudioStreamPropertyLatency = 0x6C746E63,                        /* 'ltnc' UInt32 frames */
    kAudioStreamPropertyVirtualFormat = 0x73666D74,                  /* 'sfmt' AudioStreamBasicDescription */
    kAudioStreamPropertyAvailableVirtualFormats = 0x73666D61,        /* 'sfma' AudioStreamRangedDescription[] */
    kAudioStreamPropertyPhysicalFormat = 0x70667420,                 /* 'pft ' AudioStreamBasicDescription */
    kAudioStreamPropertyAvailablePhysicalFormats = 0x70667461,       /* 'pfta' AudioStreamRangedDescription[] */
};

/* Controls (kAudioControlClassID) and their kinds. */
CF_ENUM(AudioClassID) {
    kAudioControlClassID = 0x6163746C,                               /* 'actl' */
    kAudioSliderControlClassID = 0x736C6472,                         /* 'sldr' */
    kAudioLevelControlClassID = 0x6C65766C,                          /* 'levl' */
    kAudioVolumeControlClassID = 0x766C6D65,                         /* 'vlme' */
    kAudioLFEVolumeControlClassID = 0x73756276,                      /* 'subv' */
    kAudioBooleanControlClassID = 0x746F676C,                        /* 'togl' */
    kAudioMuteControlClassID = 0x6D757465,                           /* 'mute' */
    kAudioSoloControlClassID = 0x736F6C6F,                           /* 'solo' */
    kAudioJackControlClassID = 0x6A61636B,                           /* 'jack' */
    kAudioLFEMuteControlClassID = 0x7375626D,                        /* 'subm' */
    kAudioPhantomPowerControlClassID = 0x7068616E,                   /* 'phan' */
    kAudioPhaseInvertControlClassID = 0x70687369,                    /* 'phsi' */
    kAudioClipLightControlClassID = 0x636C6970,                      /* 'clip' */
    kAudioTalkbackControlClassID = 0x74616C62,                       /* 'talb' */
    kAudioListenbackControlClassID = 0x6C736E62,                     /* 'lsnb' */
    kAudioSelectorControlClassID = 0x736C6374,                       /* 'slct' */
    kAudioDataSourceControlClassID = 0x64737263,                     /* 'dsrc' */
    kAudioDataDestinationControlClassID = 0x64657374,                /* 'dest' */
    kAudioClockSourceControlClassID = 0x636C636B,                    /* 'clck' */
    kAudioLineLevelControlClassID = 0x6E6C766C,                      /* 'nlvl' */
    kAudioHighPassFilterControlClassID = 0x68697066,                 /* 'hipf' */
    kAudioStereoPanControlClassID = 0x7370616E,                      /* 'span' */
};

/* Properties of controls. */
CF_ENUM(AudioObjectPropertySelector) {
    kAudioControlPropertyScope = 0x63736370,                         /* 'cscp' AudioObjectPropertyScope */
    kAudioControlPropertyElement = 0x63656C6D,                       /* 'celm' AudioObjectPropertyElement */
    kAudioSliderControlPropertyValue = 0x73647276,                   /* 'sdrv' UInt32 */
    kAudioSliderControlPropertyRange = 0x73647272,                   /* 'sdrr' UInt32[2] */
    kAudioLevelControlPropertyScalarValue = 0x6C637376,              /* 'lcsv' Float32 */
    kAudioLevelControlPropertyDecibelValue = 0x6C636476,             /* 'lcdv' Float32 */
    kAudioLevelControlPropertyDecibelRange = 0x6C636472,             /* 'lcdr' AudioValueRange */
    kAudioLevelControlPropertyConvertScalarToDecibels = 0x6C637364,  /* 'lcsd' Float32 */
    kAudioLevelControlPropertyConvertDecibelsToScalar = 0x6C636473,  /* 'lcds' Float32 */
    kAudioBooleanControlPropertyValue = 0x6263766C,                  /* 'bcvl' UInt32 */
    kAudioSelectorControlPropertyCurrentItem = 0x73636369,           /* 'scci' UInt32[] */
    kAudioSelectorControlPropertyAvailableItems = 0x73636169,        /* 'scai' UInt32[] */
    kAudioSelectorControlPropertyItemName = 0x7363696E,              /* 'scin' CFStringRef; AudioValueTranslation */
    kAudioSelectorControlPropertyItemKind = 0x636C6B6B,              /* 'clkk' UInt32; AudioValueTranslation */
    kAudioStereoPanControlPropertyValue = 0x73706376,                /* 'spcv' Float32 */
    kAudioStereoPanControlPropertyPanningChannels = 0x73706363,      /* 'spcc' UInt32[2] */
};

/* Kinds of selector items. */
CF_ENUM(UInt32) {
    kAudioSelectorControlItemKindSpacer = 0x73706372,                /* 'spcr' */
    kAudioClockSourceItemKindInternal = 0x696E7420,                  /* 'int ' */
};

AT_EXTERN_C_END

#endif /* CoreAudio_AudioHardwareBase_h */
