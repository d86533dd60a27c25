/*
 * AudioServices.h — Audio Hardware Services of AudioToolbox: the HAL's property calls under
 * the names older audio code uses (AudioHardwareServiceGetPropertyData, …), with the virtual
 * main volume of output devices. System Sound Services are not provided.
 *
 * swift-audio-queue. Apache License 2.0.
 */
#ifndef AudioToolbox_AudioServices_h
#define AudioToolbox_AudioServices_h

#include <CoreAudio/AudioHardware.h>

AT_EXTERN_C_BEGIN

/* Result codes of Audio Services. */
CF_ENUM(OSStatus) {
    kAudioServicesNoError = 0,
    kAudioServicesUnsupportedPropertyError = 0x7074793F,         /* 'pty?' */
    kAudioServicesBadPropertySizeError = 0x2173697A,             /* '!siz' */
    kAudioServicesBadSpecifierSizeError = 0x21737063,            /* '!spc' */
};

/* Properties only Audio Hardware Services has. */
CF_ENUM(AudioObjectPropertySelector) {
    kAudioHardwareServiceProperty_ServiceRestarted = 0x73727374,           /* 'srst' */
    kAudioHardwareServiceDeviceProperty_VirtualMainVolume = 0x766D7663,    /* 'vmvc' Float32, 0 to 1 */
    kAudioHardwareServiceDeviceProperty_VirtualMasterVolume = 0x766D7663,  /* 'vmvc' the same, under its older name */
    kAudioHardwareServiceDeviceProperty_VirtualMainBalance = 0x766D6263,   /* 'vmbc' Float32, 0 left to 1 right */
    kAudioHardwareServiceDeviceProperty_VirtualMasterBalance = 0x766D6263, /* 'vmbc' the same, under its older name */
};

AT_ASSUME_NONNULL_BEGIN

/* AudioObjectHasProperty, and the service's own properties. */
AT_EXPORT Boolean AudioHardwareServiceHasProperty(AudioObjectID inObjectID, const AudioObjectPropertyAddress *inAddress);
/* AudioObjectIsPropertySettable, and the service's own properties. */
AT_EXPORT OSStatus AudioHardwareServiceIsPropertySettable(AudioObjectID inObjectID,
                                                          const AudioObjectPropertyAddress *inAddress,
                                                          Boolean *outIsSettable);
/* AudioObjectGetPropertyDataSize, and the service's own properties. */
AT_EXPORT OSStatus AudioHardwareServiceGetPropertyDataSize(AudioObjectID inObjectID,
                                                           const AudioObjectPropertyAddress *inAddress,
                                                           UInt32 inQualifierDataSize,
                                                           const void *_Nullable inQualifierData, UInt32 *outDataSize);
/* AudioObjectGetPropertyData, and the service's own properties. */
AT_EXPORT OSStatus AudioHardwareServiceGetPropertyData(AudioObjectID inObjectID, const AudioObjectPropertyAddress *inAddress,
                                                       UInt32 inQualifierDataSize, const void *_Nullable inQualifierData,
                                                       UInt32 *ioDataSize, void *outData);
/* AudioObjectSetPropertyData, and the service's own properties. */
AT_EXPORT OSStatus AudioHardwareServiceSetPropertyData(AudioObjectID inObjectID, const AudioObjectPropertyAddress *inAddress,
                                                       UInt32 inQualifierDataSize, const void *_Nullable inQualifierData,
                                                       UInt32 inDataSize, const void *inData);
/* AudioObjectAddPropertyListener. */
AT_EXPORT OSStatus AudioHardwareServiceAddPropertyListener(AudioObjectID inObjectID,
                                                           const AudioObjectPropertyAddress *inAddress,
                                                           AudioObjectPropertyListenerProc inListener,
                                                           void *_Nullable inClientData);
/* AudioObjectRemovePropertyListener. */
AT_EXPORT OSStatus AudioHardwareServiceRemovePropertyListener(AudioObjectID inObjectID,
                                                              const AudioObjectPropertyAddress *inAddress,
                                                              AudioObjectPropertyListenerProc inListener,
                                                              void *_Nullable inClientData);

AT_ASSUME_NONNULL_END

AT_EXTERN_C_END

#endif /* AudioToolbox_AudioServices_h */
