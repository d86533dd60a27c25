/*
 * AudioHardwareDeprecated.h — the HAL's names before AudioObject (macOS 10.0 to 10.5) and the
 * selectors Apple has since retired, with Apple's names and values: the AudioHardware…,
 * AudioDevice… and AudioStream… property calls (answered by the AudioObject calls, a device's
 * isInput choosing the scope and its channel the element), their listeners, and the older
 * selectors (kAudioDevicePropertyStreamFormat, …BufferSize, …DeviceName, …). Included by
 * <CoreAudio/AudioHardware.h>, as on a Mac. The DocC article HardwareSubset says what each
 * selector answers.
 *
 * swift-audio-queue. Apache License 2.0.
 */
#ifndef CoreAudio_AudioHardwareDeprecated_h
#define CoreAudio_AudioHardwareDeprecated_h

#include <CoreAudio/AudioHardware.h>

AT_EXTERN_C_BEGIN

/* Scopes, class IDs and wildcards under their older names. */
CF_ENUM(AudioObjectPropertyScope) {
    kAudioDevicePropertyScopeInput = kAudioObjectPropertyScopeInput,
    kAudioDevicePropertyScopeOutput = kAudioObjectPropertyScopeOutput,
    kAudioDevicePropertyScopePlayThrough = kAudioObjectPropertyScopePlayThrough,
};
CF_ENUM(AudioObjectPropertySelector) {
    kAudioPropertyWildcardPropertyID = kAudioObjectPropertySelectorWildcard,
};
CF_ENUM(UInt8) {
    kAudioPropertyWildcardSection = 0xFF,
};
CF_ENUM(AudioObjectPropertyElement) {
    kAudioPropertyWildcardChannel = kAudioObjectPropertyElementWildcard,
};
CF_ENUM(AudioClassID) {
    kAudioISubOwnerControlClassID = 0x61746368,                      /* 'atch' */
    kAudioBootChimeVolumeControlClassID = 0x7072616D,                /* 'pram' */
};
CF_ENUM(AudioObjectPropertySelector) {
    kAudioLevelControlPropertyDecibelsToScalarTransferFunction = 0x6C637466, /* 'lctf' UInt32 */
    kAudioControlPropertyVariant = 0x63766172,                       /* 'cvar' UInt32 */
    kAudioClockSourceControlPropertyItemKind = kAudioSelectorControlPropertyItemKind,
};

/* The curves a level control maps decibels to scalar values with (Apple's spelling). */
typedef CF_ENUM(UInt32, AudioLevelControlTransferFunction) {
    kAudioLevelControlTranferFunctionLinear = 0,
    kAudioLevelControlTranferFunction1Over3 = 1,
    kAudioLevelControlTranferFunction1Over2 = 2,
    kAudioLevelControlTranferFunction3Over4 = 3,
    kAudioLevelControlTranferFunction3Over2 = 4,
    kAudioLevelControlTranferFunction2Over1 = 5,
    kAudioLevelControlTranferFunction3Over1 = 6,
    kAudioLevelControlTranferFunction4Over1 = 7,
    kAudioLevelControlTranferFunction5Over1 = 8,
    kAudioLevelControlTranferFunction6Over1 = 9,
    kAudioLevelControlTranferFunction7Over1 = 10,
    kAudioLevelControlTranferFunction8Over1 = 11,
    kAudioLevelControlTranferFunction9Over1 = 12,
    kAudioLevelControlTranferFunction10Over1 = 13,
    kAudioLevelControlTranferFunction11Over1 = 14,
    kAudioLevelControlTranferFunction12Over1 = 15,
};

/* Called when a property of the system object changes (AudioHardwareAddPropertyListener). */
typedef OSStatus (*AudioHardwarePropertyListenerProc)(AudioHardwarePropertyID inPropertyID, void *_Nullable inClientData);

/* The run loop mode the HAL's notifications once ran in (a C string). */
#define kAudioHardwareRunLoopMode "com.apple.audio.CoreAudio"

/* Properties of the system object under older names. */
CF_ENUM(AudioObjectPropertySelector) {
    kAudioHardwarePropertyRunLoop = 0x726E6C70,                      /* 'rnlp' CFRunLoopRef for notifications, settable */
    kAudioHardwarePropertyDeviceForUID = 0x64756964,                 /* 'duid' AudioValueTranslation: CFStringRef UID to AudioDeviceID */
    kAudioHardwarePropertyPlugInForBundleID = 0x70696269,            /* 'pibi' AudioValueTranslation: CFStringRef to AudioObjectID */
    kAudioHardwarePropertyProcessIsMaster = 0x6D617374,              /* 'mast' UInt32; kAudioHardwarePropertyProcessIsMain */
    kAudioHardwarePropertyBootChimeVolumeScalar = 0x62627673,        /* 'bbvs' Float32 */
    kAudioHardwarePropertyBootChimeVolumeDecibels = 0x62627664,      /* 'bbvd' Float32 */
    kAudioHardwarePropertyBootChimeVolumeRangeDecibels = 0x62626423, /* 'bbd#' AudioValueRange */
    kAudioHardwarePropertyBootChimeVolumeScalarToDecibels = 0x62763264, /* 'bv2d' Float32 */
    kAudioHardwarePropertyBootChimeVolumeDecibelsToScalar = 0x62643276, /* 'bd2v' Float32 */
    kAudioHardwarePropertyBootChimeVolumeDecibelsToScalarTransferFunction = 0x62767466, /* 'bvtf' UInt32 */
};

/* A run loop source (CoreFoundation's CFRunLoopSourceRef, declared here under a guard when
   <CoreFoundation/CFRunLoop.h> has not declared it). */
#ifndef AT_CFRUNLOOPSOURCE_DECLARED
#define AT_CFRUNLOOPSOURCE_DECLARED 1
typedef struct __CFRunLoopSource *CFRunLoopSourceRef;
#endif

AT_ASSUME_NONNULL_BEGIN

/* A run loop source for the HAL's notifications: kAudioHardwareUnsupportedOperationError (set
   kAudioHardwarePropertyRunLoop instead). */
AT_EXPORT OSStatus AudioHardwareAddRunLoopSource(CFRunLoopSourceRef inRunLoopSource);
AT_EXPORT OSStatus AudioHardwareRemoveRunLoopSource(CFRunLoopSourceRef inRunLoopSource);
/* The system object's properties: AudioObjectGetPropertyDataSize / …IsPropertySettable,
   …GetPropertyData and …SetPropertyData on kAudioObjectSystemObject, global scope. */
AT_EXPORT OSStatus AudioHardwareGetPropertyInfo(AudioHardwarePropertyID inPropertyID, UInt32 *_Nullable outSize,
                                                Boolean *_Nullable outWritable);
AT_EXPORT OSStatus AudioHardwareGetProperty(AudioHardwarePropertyID inPropertyID, UInt32 *ioPropertyDataSize,
                                            void *outPropertyData);
AT_EXPORT OSStatus AudioHardwareSetProperty(AudioHardwarePropertyID inPropertyID, UInt32 inPropertyDataSize,
                                            const void *inPropertyData);
/* Calls inProc with the selector when the system object's property changes (kAudioPropertyWildcardPropertyID:
   any); removing takes away every registration of inProc for the selector. */
AT_EXPORT OSStatus AudioHardwareAddPropertyListener(AudioHardwarePropertyID inPropertyID, AudioHardwarePropertyListenerProc inProc,
                                                    void *_Nullable inClientData);
AT_EXPORT OSStatus AudioHardwareRemovePropertyListener(AudioHardwarePropertyID inPropertyID,
                                                       AudioHardwarePropertyListenerProc inProc);

AT_ASSUME_NONNULL_END

/* Called when a property of a device changes (AudioDeviceAddPropertyListener). */
typedef OSStatus (*AudioDevicePropertyListenerProc)(AudioDeviceID inDevice, UInt32 inChannel, Boolean isInput,
                                                    AudioDevicePropertyID inPropertyID, void *_Nullable inClientData);

CF_ENUM(AudioObjectID) {
    kAudioDeviceUnknown = kAudioObjectUnknown,
};
CF_ENUM(UInt32) {
    kAudioDeviceTransportTypeAutoAggregate = 0x66677270,             /* 'fgrp' */
};

/* Properties of devices under older names, and retired ones. */
CF_ENUM(AudioObjectPropertySelector) {
    kAudioDevicePropertyVolumeDecibelsToScalarTransferFunction = 0x76637466, /* 'vctf' UInt32 */
    kAudioDevicePropertyPlayThruVolumeDecibelsToScalarTransferFunction = 0x6D767466, /* 'mvtf' UInt32 */
    kAudioDevicePropertyDriverShouldOwniSub = 0x69737562,                    /* 'isub' UInt32 */
    kAudioDevicePropertySubVolumeDecibelsToScalarTransferFunction = 0x73767466, /* 'svtf' UInt32 */
    kAudioDevicePropertyDeviceName = 0x6E616D65,                             /* 'name' C string */
    kAudioDevicePropertyDeviceNameCFString = kAudioObjectPropertyName,       /* CFStringRef */
    kAudioDevicePropertyDeviceManufacturer = 0x6D616B72,                     /* 'makr' C string */
    kAudioDevicePropertyDeviceManufacturerCFString = kAudioObjectPropertyManufacturer, /* CFStringRef */
    kAudioDevicePropertyRegisterBufferList = 0x72627566,                     /* 'rbuf' AudioBufferList */
    kAudioDevicePropertyBufferSize = 0x6273697A,                             /* 'bsiz' UInt32 bytes, per scope, settable */
    kAudioDevicePropertyBufferSizeRange = 0x62737A23,                        /* 'bsz#' AudioValueRange bytes */
    kAudioDevicePropertyChannelName = 0x63686E6D,                            /* 'chnm' C string, per channel */
    kAudioDevicePropertyChannelNameCFString = kAudioObjectPropertyElementName, /* CFStringRef */
    kAudioDevicePropertyChannelCategoryName = 0x63636E6D,                    /* 'ccnm' C string */
    kAudioDevicePropertyChannelCategoryNameCFString = kAudioObjectPropertyElementCategoryName, /* CFStringRef */
    kAudioDevicePropertyChannelNumberName = 0x636E6E6D,                      /* 'cnnm' C string */
    kAudioDevicePropertyChannelNumberNameCFString = kAudioObjectPropertyElementNumberName, /* CFStringRef */
    kAudioDevicePropertySupportsMixing = 0x6D69783F,                         /* 'mix?' UInt32 */
    kAudioDevicePropertyStreamFormat = 0x73666D74,                           /* 'sfmt' AudioStreamBasicDescription, per scope, settable */
    kAudioDevicePropertyStreamFormats = 0x73666D23,                          /* 'sfm#' AudioStreamBasicDescription[] */
    kAudioDevicePropertyStreamFormatSupported = 0x73666D3F,                  /* 'sfm?' AudioStreamBasicDescription in */
    kAudioDevicePropertyStreamFormatMatch = 0x73666D6D,                      /* 'sfmm' AudioStreamBasicDescription in and out */
    kAudioDevicePropertyDataSourceNameForID = 0x7373636E,                    /* 'sscn' AudioValueTranslation: UInt32 to C string */
    kAudioDevicePropertyClockSourceNameForID = 0x6373636E,                   /* 'cscn' AudioValueTranslation */
    kAudioDevicePropertyPlayThruDestinationNameForID = 0x6D64646E,           /* 'mddn' AudioValueTranslation */
    kAudioDevicePropertyChannelNominalLineLevelNameForID = 0x636E6C76,       /* 'cnlv' AudioValueTranslation */
    kAudioDevicePropertyHighPassFilterSettingNameForID = 0x63686970,         /* 'chip' AudioValueTranslation */
};

AT_ASSUME_NONNULL_BEGIN

/* A device's properties: the AudioObject calls at (inPropertyID, isInput ? input : output scope,
   inChannel as the element). inWhen is ignored (changes take effect at once). */
AT_EXPORT OSStatus AudioDeviceGetPropertyInfo(AudioDeviceID inDevice, UInt32 inChannel, Boolean isInput,
                                              AudioDevicePropertyID inPropertyID, UInt32 *_Nullable outSize,
                                              Boolean *_Nullable outWritable);
AT_EXPORT OSStatus AudioDeviceGetProperty(AudioDeviceID inDevice, UInt32 inChannel, Boolean isInput,
                                          AudioDevicePropertyID inPropertyID, UInt32 *ioPropertyDataSize,
                                          void *outPropertyData);
AT_EXPORT OSStatus AudioDeviceSetProperty(AudioDeviceID inDevice, const AudioTimeStamp *_Nullable inWhen, UInt32 inChannel,
                                          Boolean isInput, AudioDevicePropertyID inPropertyID, UInt32 inPropertyDataSize,
                                          const void *inPropertyData);
AT_EXPORT OSStatus AudioDeviceAddPropertyListener(AudioDeviceID inDevice, UInt32 inChannel, Boolean isInput,
                                                  AudioDevicePropertyID inPropertyID, AudioDevicePropertyListenerProc inProc,
                                                  void *_Nullable inClientData);
AT_EXPORT OSStatus AudioDeviceRemovePropertyListener(AudioDeviceID inDevice, UInt32 inChannel, Boolean isInput,
                                                     AudioDevicePropertyID inPropertyID,
                                                     AudioDevicePropertyListenerProc inProc);

AT_ASSUME_NONNULL_END

CF_ENUM(AudioObjectPropertySelector) {
    kAudioAggregateDevicePropertyMasterSubDevice = kAudioAggregateDevicePropertyMainSubDevice,
};

/* Called when a property of a stream changes (AudioStreamAddPropertyListener). */
typedef OSStatus (*AudioStreamPropertyListenerProc)(AudioStreamID inStream, UInt32 inChannel,
                                                    AudioDevicePropertyID inPropertyID, void *_Nullable inClientData);

CF_ENUM(AudioObjectID) {
    kAudioStreamUnknown = kAudioObjectUnknown,
};

/* Properties of streams under older names, and retired ones. */
CF_ENUM(AudioObjectPropertySelector) {
    kAudioStreamPropertyOwningDevice = kAudioObjectPropertyOwner,    /* AudioObjectID */
    kAudioStreamPropertyPhysicalFormats = 0x70667423,                /* 'pft#' AudioStreamBasicDescription[] */
    kAudioStreamPropertyPhysicalFormatSupported = 0x7066743F,        /* 'pft?' AudioStreamBasicDescription in */
    kAudioStreamPropertyPhysicalFormatMatch = 0x7066746D,            /* 'pftm' AudioStreamBasicDescription in and out */
};

AT_ASSUME_NONNULL_BEGIN

/* A stream's properties: the AudioObject calls at (inPropertyID, global scope, inChannel). */
AT_EXPORT OSStatus AudioStreamGetPropertyInfo(AudioStreamID inStream, UInt32 inChannel, AudioDevicePropertyID inPropertyID,
                                              UInt32 *_Nullable outSize, Boolean *_Nullable outWritable);
AT_EXPORT OSStatus AudioStreamGetProperty(AudioStreamID inStream, UInt32 inChannel, AudioDevicePropertyID inPropertyID,
                                          UInt32 *ioPropertyDataSize, void *outPropertyData);
AT_EXPORT OSStatus AudioStreamSetProperty(AudioStreamID inStream, const AudioTimeStamp *_Nullable inWhen, UInt32 inChannel,
                                          AudioDevicePropertyID inPropertyID, UInt32 inPropertyDataSize,
                                          const void *inPropertyData);
AT_EXPORT OSStatus AudioStreamAddPropertyListener(AudioStreamID inStream, UInt32 inChannel, AudioDevicePropertyID inPropertyID,
                                                  AudioStreamPropertyListenerProc inProc, void *_Nullable inClientData);
AT_EXPORT OSStatus AudioStreamRemovePropertyListener(AudioStreamID inStream, UInt32 inChannel, AudioDevicePropertyID inPropertyID,
                                                     AudioStreamPropertyListenerProc inProc);

AT_ASSUME_NONNULL_END

AT_EXTERN_C_END

#endif /* CoreAudio_AudioHardwareDeprecated_h */
