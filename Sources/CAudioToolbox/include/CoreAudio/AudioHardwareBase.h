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

/* Properties of every object. */
CF_ENUM(AudioObjectPropertySelector) {
    kAudioObjectPropertyBaseClass = 0x62636C73,                  /* 'bcls' AudioClassID */
    kAudioObjectPropertyClass = 0x636C6173,                      /* 'clas' AudioClassID */
    kAudioObjectPropertyOwner = 0x73746476,                      /* 'stdv' AudioObjectID */
    kAudioObjectPropertyName = 0x6C6E616D,                       /* 'lnam' CFStringRef, released by the caller */
    kAudioObjectPropertyModelName = 0x6C6D6F64,                  /* 'lmod' CFStringRef */
    kAudioObjectPropertyManufacturer = 0x6C6D616B,               /* 'lmak' CFStringRef, released by the caller */
    kAudioObjectPropertyOwnedObjects = 0x6F776E64,               /* 'ownd' AudioObjectID[] */
};

/* Properties of devices (kAudioDeviceClassID). */
CF_ENUM(AudioObjectPropertySelector) {
    kAudioDevicePropertyConfigurationApplication = 0x63617070,   /* 'capp' CFStringRef */
    kAudioDevicePropertyDeviceUID = 0x75696420,                  /* 'uid ' CFStringRef: what kAudioQueueProperty_CurrentDevice takes */
    kAudioDevicePropertyModelUID = 0x6D756964,                   /* 'muid' CFStringRef */
    kAudioDevicePropertyTransportType = 0x7472616E,              /* 'tran' UInt32 */
    kAudioDevicePropertyDeviceIsAlive = 0x6C69766E,              /* 'livn' UInt32 */
    kAudioDevicePropertyDeviceIsRunning = 0x676F696E,            /* 'goin' UInt32 */
    kAudioDevicePropertyDeviceIsRunningSomewhere = 0x676F6E65,   /* 'gone' UInt32 */
    kAudioDevicePropertyLatency = 0x6C746E63,                    /* 'ltnc' UInt32 frames, per scope */
    kAudioDevicePropertyStreams = 0x73746D23,                    /* 'stm#' AudioObjectID[], per scope */
    kAudioDevicePropertySafetyOffset = 0x73616674,               /* 'saft' UInt32 frames, per scope */
    kAudioDevicePropertyNominalSampleRate = 0x6E737274,          /* 'nsrt' Float64 */
    kAudioDevicePropertyAvailableNominalSampleRates = 0x6E737223, /* 'nsr#' AudioValueRange[] */
    kAudioDevicePropertyPreferredChannelsForStereo = 0x64636832, /* 'dch2' UInt32[2] */
};

/* Transport types (kAudioDevicePropertyTransportType). */
CF_ENUM(UInt32) {
    kAudioDeviceTransportTypeUnknown = 0,
    kAudioDeviceTransportTypeBuiltIn = 0x626C746E,               /* 'bltn' */
    kAudioDeviceTransportTypeAggregate = 0x67727570,             /* 'grup' */
    kAudioDeviceTransportTypeVirtual = 0x76697274,               /* 'virt' */
    kAudioDeviceTransportTypePCI = 0x70636920,                   /* 'pci ' */
    kAudioDeviceTransportTypeUSB = 0x75736220,                   /* 'usb ' */
    kAudioDeviceTransportTypeBluetooth = 0x626C7565,             /* 'blue' */
    kAudioDeviceTransportTypeHDMI = 0x68646D69,                  /* 'hdmi' */
};

/* Properties of streams (kAudioStreamClassID). */
CF_ENUM(AudioObjectPropertySelector) {
    kAudioStreamPropertyDirection = 0x73646972,                  /* 'sdir' UInt32: 0 output, 1 input */
    kAudioStreamPropertyStartingChannel = 0x7363686E,            /* 'schn' UInt32 */
    kAudioStreamPropertyLatency = 0x6C746E63,                    /* 'ltnc' UInt32 */
    kAudioStreamPropertyVirtualFormat = 0x73666D74,              /* 'sfmt' AudioStreamBasicDescription */
    kAudioStreamPropertyPhysicalFormat = 0x70667420,             /* 'pft ' AudioStreamBasicDescription */
};

AT_EXTERN_C_END

#endif /* CoreAudio_AudioHardwareBase_h */
