/*
 * AudioServices.h — Audio Hardware Services of AudioToolbox: the HAL's property calls under
 * the names older audio code uses (AudioHardwareServiceGetPropertyData, …), with the virtual
 * main volume of output devices; and System Sound Services: short sounds decoded once from a
 * file and played through the default output, several at once, with a completion.
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
    kAudioServicesSystemSoundUnspecifiedError = -1500,
    kAudioServicesSystemSoundClientTimedOutError = -1501,
    kAudioServicesSystemSoundExceededMaximumDurationError = -1502,
};

/* A system sound: a number AudioServicesCreateSystemSoundID hands out. */
typedef UInt32 SystemSoundID;
typedef UInt32 AudioServicesPropertyID;

/* Called once a play of the sound has ended. */
typedef void (*AudioServicesSystemSoundCompletionProc)(SystemSoundID ssID, void *_Nullable clientData);

/* Sounds every system has. */
CF_ENUM(SystemSoundID) {
    kSystemSoundID_UserPreferredAlert = 0x00001000,
    kSystemSoundID_FlashScreen = 0x00000FFE,
    kSystemSoundID_Vibrate = 0x00000FFF,
    kUserPreferredAlert = kSystemSoundID_UserPreferredAlert,
};

/* Properties of a system sound (the specifier is its SystemSoundID; the value a UInt32). */
CF_ENUM(AudioServicesPropertyID) {
    kAudioServicesPropertyIsUISound = 0x69737569,                 /* 'isui' */
    kAudioServicesPropertyCompletePlaybackIfAppDies = 0x69666469, /* 'ifdi' */
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

/* Decodes the file (any this library reads, at most 30 seconds) and hands out its sound.
   kAudio_ParamError for NULL arguments, kAudioServicesSystemSoundUnspecifiedError for a file
   that cannot be read, kAudioServicesSystemSoundExceededMaximumDurationError for a longer one. */
AT_EXPORT OSStatus AudioServicesCreateSystemSoundID(CFURLRef inFileURL, SystemSoundID *outSystemSoundID);
/* Forgets the sound and its completion; a play under way ends as it would have. */
AT_EXPORT OSStatus AudioServicesDisposeSystemSoundID(SystemSoundID inSystemSoundID);
/* Plays the sound through the default output, beside any other playing; returns at once. */
AT_EXPORT void AudioServicesPlaySystemSound(SystemSoundID inSystemSoundID);
/* The same (there is no alert behaviour beyond the sound). kSystemSoundID_UserPreferredAlert,
   kSystemSoundID_FlashScreen and kSystemSoundID_Vibrate play nothing and complete at once. */
AT_EXPORT void AudioServicesPlayAlertSound(SystemSoundID inSystemSoundID);
/* Calls inCompletionRoutine after each play of the sound has ended, on inRunLoop (NULL: the main
   run loop) when it runs in inRunLoopMode (NULL: kCFRunLoopDefaultMode). One per sound. */
AT_EXPORT OSStatus AudioServicesAddSystemSoundCompletion(SystemSoundID inSystemSoundID, CFRunLoopRef _Nullable inRunLoop,
                                                         CFStringRef _Nullable inRunLoopMode,
                                                         AudioServicesSystemSoundCompletionProc inCompletionRoutine,
                                                         void *_Nullable inClientData);
/* Removes the sound's completion. */
AT_EXPORT void AudioServicesRemoveSystemSoundCompletion(SystemSoundID inSystemSoundID);
/* The size of a property's value (4) and whether it can be set (yes). */
AT_EXPORT OSStatus AudioServicesGetPropertyInfo(AudioServicesPropertyID inPropertyID, UInt32 inSpecifierSize,
                                                const void *_Nullable inSpecifier, UInt32 *_Nullable outPropertyDataSize,
                                                Boolean *_Nullable outWritable);
/* A property's value; with outPropertyData NULL, only its size. */
AT_EXPORT OSStatus AudioServicesGetProperty(AudioServicesPropertyID inPropertyID, UInt32 inSpecifierSize,
                                            const void *_Nullable inSpecifier, UInt32 *ioPropertyDataSize,
                                            void *_Nullable outPropertyData);
/* Sets a property (kept; sounds play whatever its value). */
AT_EXPORT OSStatus AudioServicesSetProperty(AudioServicesPropertyID inPropertyID, UInt32 inSpecifierSize,
                                            const void *_Nullable inSpecifier, UInt32 inPropertyDataSize,
                                            const void *inPropertyData);

#if defined(__BLOCKS__)
/* Plays the sound and calls the block once it has ended (or at once when it cannot play), on a
   serial queue of the library's. Declared for compilers with blocks (clang -fblocks). */
AT_EXPORT void AudioServicesPlaySystemSoundWithCompletion(SystemSoundID inSystemSoundID,
                                                          void (^_Nullable inCompletionBlock)(void));
AT_EXPORT void AudioServicesPlayAlertSoundWithCompletion(SystemSoundID inSystemSoundID,
                                                         void (^_Nullable inCompletionBlock)(void));
#endif

AT_ASSUME_NONNULL_END

AT_EXTERN_C_END

#endif /* AudioToolbox_AudioServices_h */
