/*
 * AudioHardware.h — the subset of Apple's Hardware Abstraction Layer that programs use to list
 * output and input devices and pick one: the system object (kAudioObjectSystemObject) and its
 * devices, their properties, and listeners. The devices are those of this library's backends
 * (PulseAudio sinks and sources, ALSA PCMs, the file and null devices); a device's UID is the
 * string kAudioQueueProperty_CurrentDevice takes. See HardwareSubset in the DocC for how each
 * selector and function differs from a Mac.
 *
 * swift-audio-queue. Apache License 2.0.
 */
#ifndef CoreAudio_AudioHardware_h
#define CoreAudio_AudioHardware_h

#include <CoreAudio/AudioHardwareBase.h>

AT_EXTERN_C_BEGIN

typedef AudioObjectID AudioDeviceID;
typedef AudioObjectID AudioStreamID;
typedef AudioObjectPropertySelector AudioHardwarePropertyID;
typedef AudioObjectPropertySelector AudioDevicePropertyID;

/* Called when properties of an object change: the object, the addresses that changed, and the
   client data given with the listener. On the HAL's notification thread, or on the run loop
   kAudioHardwarePropertyRunLoop names. */
typedef OSStatus (*AudioObjectPropertyListenerProc)(AudioObjectID inObjectID, UInt32 inNumberAddresses,
                                                    const AudioObjectPropertyAddress *_Nonnull inAddresses,
                                                    void *_Nullable inClientData);

/* The system object: the process's view of the audio hardware (an int, as in Apple's header:
   Swift writes AudioObjectID(kAudioObjectSystemObject)). */
CF_ENUM(int) {
    kAudioObjectSystemObject = 1,
};

/* Properties of the system object. */
CF_ENUM(AudioObjectPropertySelector) {
    kAudioHardwarePropertyDevices = 0x64657623,                  /* 'dev#' AudioObjectID[] */
    kAudioHardwarePropertyDefaultInputDevice = 0x64496E20,       /* 'dIn ' AudioObjectID, settable */
    kAudioHardwarePropertyDefaultOutputDevice = 0x644F7574,      /* 'dOut' AudioObjectID, settable */
    kAudioHardwarePropertyDefaultSystemOutputDevice = 0x734F7574, /* 'sOut' AudioObjectID, settable */
    kAudioHardwarePropertyTranslateUIDToDevice = 0x75696464,     /* 'uidd' AudioObjectID; qualifier: CFStringRef UID */
    kAudioHardwarePropertyRunLoop = 0x726E6C70,                  /* 'rnlp' CFRunLoopRef for notifications, settable */
};

/* Properties of devices. */
CF_ENUM(AudioObjectPropertySelector) {
    kAudioDevicePropertyBufferFrameSize = 0x6673697A,            /* 'fsiz' UInt32 */
    kAudioDevicePropertyBufferFrameSizeRange = 0x66737A23,       /* 'fsz#' AudioValueRange */
    kAudioDevicePropertyStreamConfiguration = 0x736C6179,        /* 'slay' AudioBufferList, per scope */
    kAudioDevicePropertyDeviceName = 0x6E616D65,                 /* 'name' C string (older) */
    kAudioDevicePropertyDeviceNameCFString = 0x6C6E616D,         /* 'lnam' kAudioObjectPropertyName */
    kAudioDevicePropertyDeviceManufacturer = 0x6D616B72,         /* 'makr' C string (older) */
    kAudioDevicePropertyDeviceManufacturerCFString = 0x6C6D616B, /* 'lmak' kAudioObjectPropertyManufacturer */
};

AT_ASSUME_NONNULL_BEGIN

/* Whether object inObjectID has the property at inAddress. */
AT_EXPORT Boolean AudioObjectHasProperty(AudioObjectID inObjectID, const AudioObjectPropertyAddress *inAddress);
/* Whether the property can be set. */
AT_EXPORT OSStatus AudioObjectIsPropertySettable(AudioObjectID inObjectID, const AudioObjectPropertyAddress *inAddress,
                                                 Boolean *outIsSettable);
/* The size in bytes of the property's value. */
AT_EXPORT OSStatus AudioObjectGetPropertyDataSize(AudioObjectID inObjectID, const AudioObjectPropertyAddress *inAddress,
                                                  UInt32 inQualifierDataSize, const void *_Nullable inQualifierData,
                                                  UInt32 *outDataSize);
/* Copies the property's value into outData (*ioDataSize bytes at most); *ioDataSize is set to
   what was written. */
AT_EXPORT OSStatus AudioObjectGetPropertyData(AudioObjectID inObjectID, const AudioObjectPropertyAddress *inAddress,
                                              UInt32 inQualifierDataSize, const void *_Nullable inQualifierData,
                                              UInt32 *ioDataSize, void *outData);
/* Sets the property's value. */
AT_EXPORT OSStatus AudioObjectSetPropertyData(AudioObjectID inObjectID, const AudioObjectPropertyAddress *inAddress,
                                              UInt32 inQualifierDataSize, const void *_Nullable inQualifierData,
                                              UInt32 inDataSize, const void *inData);
/* Calls inListener with inClientData when the property at inAddress changes. */
AT_EXPORT OSStatus AudioObjectAddPropertyListener(AudioObjectID inObjectID, const AudioObjectPropertyAddress *inAddress,
                                                  AudioObjectPropertyListenerProc inListener, void *_Nullable inClientData);
/* Removes a listener added with the same arguments. */
AT_EXPORT OSStatus AudioObjectRemovePropertyListener(AudioObjectID inObjectID, const AudioObjectPropertyAddress *inAddress,
                                                     AudioObjectPropertyListenerProc inListener,
                                                     void *_Nullable inClientData);
/* Prints a description of the object to standard error. */
AT_EXPORT void AudioObjectShow(AudioObjectID inObjectID);

/* The calls before AudioObject (deprecated on macOS since 10.6): the system object's and a
   device's properties, isInput choosing the scope. */
AT_EXPORT OSStatus AudioHardwareGetPropertyInfo(AudioHardwarePropertyID inPropertyID, UInt32 *_Nullable outSize,
                                                Boolean *_Nullable outWritable);
AT_EXPORT OSStatus AudioHardwareGetProperty(AudioHardwarePropertyID inPropertyID, UInt32 *ioPropertyDataSize,
                                            void *outPropertyData);
AT_EXPORT OSStatus AudioDeviceGetPropertyInfo(AudioDeviceID inDevice, UInt32 inChannel, Boolean isInput,
                                              AudioDevicePropertyID inPropertyID, UInt32 *_Nullable outSize,
                                              Boolean *_Nullable outWritable);
AT_EXPORT OSStatus AudioDeviceGetProperty(AudioDeviceID inDevice, UInt32 inChannel, Boolean isInput,
                                          AudioDevicePropertyID inPropertyID, UInt32 *ioPropertyDataSize,
                                          void *outPropertyData);

AT_ASSUME_NONNULL_END

/* IOProcs: a device driven directly. Each IOProc of a running device is called once per I/O
   cycle, on the device's I/O thread, with the cycle's input (one buffer per input stream,
   interleaved Float32) and the output to fill (likewise, zeroed before the call; the outputs of
   several IOProcs are summed), each with its time on the device's clock: sample times count
   frames, host times are AudioGetCurrentHostTime's clock. An IOProc ID made by
   AudioDeviceCreateIOProcID names one registration; AudioDeviceAddIOProc (before 10.5) uses the
   IOProc itself as its ID. A NULL ID for AudioDeviceStart and AudioDeviceStop means the device
   itself, with no IOProc. */
AT_ASSUME_NONNULL_BEGIN

typedef OSStatus (*AudioDeviceIOProc)(AudioObjectID inDevice, const AudioTimeStamp *inNow,
                                      const AudioBufferList *inInputData, const AudioTimeStamp *inInputTime,
                                      AudioBufferList *outOutputData, const AudioTimeStamp *inOutputTime,
                                      void *_Nullable inClientData);
typedef AudioDeviceIOProc AudioDeviceIOProcID;

/* Flags of AudioDeviceStartAtTime and AudioDeviceGetNearestStartTime. */
CF_ENUM(UInt32) {
    kAudioDeviceStartTimeIsInputFlag = (1U << 0),           /* the time is an input time */
    kAudioDeviceStartTimeDontConsultDeviceFlag = (1U << 1),
    kAudioDeviceStartTimeDontConsultHALFlag = (1U << 2),
};

AT_EXPORT OSStatus AudioDeviceCreateIOProcID(AudioObjectID inDevice, AudioDeviceIOProc inProc, void *_Nullable inClientData,
                                             AudioDeviceIOProcID _Nullable *_Nonnull outIOProcID);
AT_EXPORT OSStatus AudioDeviceDestroyIOProcID(AudioObjectID inDevice, AudioDeviceIOProcID inIOProcID);
AT_EXPORT OSStatus AudioDeviceStart(AudioObjectID inDevice, AudioDeviceIOProcID _Nullable inProcID);
AT_EXPORT OSStatus AudioDeviceStartAtTime(AudioObjectID inDevice, AudioDeviceIOProcID _Nullable inProcID,
                                          AudioTimeStamp *ioRequestedStartTime, UInt32 inFlags);
AT_EXPORT OSStatus AudioDeviceStop(AudioObjectID inDevice, AudioDeviceIOProcID _Nullable inProcID);
/* The device's time now; kAudioHardwareNotRunningError when it is not running. */
AT_EXPORT OSStatus AudioDeviceGetCurrentTime(AudioObjectID inDevice, AudioTimeStamp *outTime);
/* A time of the running device in the other representations outTime's flags ask for. */
AT_EXPORT OSStatus AudioDeviceTranslateTime(AudioObjectID inDevice, const AudioTimeStamp *inTime, AudioTimeStamp *outTime);
/* The first cycle boundary at or after the requested time of the running device. */
AT_EXPORT OSStatus AudioDeviceGetNearestStartTime(AudioObjectID inDevice, AudioTimeStamp *ioRequestedStartTime, UInt32 inFlags);
/* Before 10.5: the IOProc is its own ID. */
AT_EXPORT OSStatus AudioDeviceAddIOProc(AudioDeviceID inDevice, AudioDeviceIOProc inProc, void *_Nullable inClientData);
AT_EXPORT OSStatus AudioDeviceRemoveIOProc(AudioDeviceID inDevice, AudioDeviceIOProc inProc);

AT_ASSUME_NONNULL_END

AT_EXTERN_C_END

#endif /* CoreAudio_AudioHardware_h */
