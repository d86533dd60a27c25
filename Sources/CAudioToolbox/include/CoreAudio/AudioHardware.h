/*
 * AudioHardware.h — Apple's Hardware Abstraction Layer as programs use it to list output and
 * input devices, read and set their properties and hear of changes: the system object
 * (kAudioObjectSystemObject), its devices and their streams, and listeners. The devices are
 * those of this library's backends (PulseAudio sinks and sources, ALSA PCMs, the file and null
 * devices); a device's UID is the string kAudioQueueProperty_CurrentDevice takes. Every name of
 * Apple's header is declared with Apple's value; the DocC articles HardwareSubset (what each
 * selector answers) and FunctionCatalog (each function) say what is implemented. As on a Mac,
 * this header includes <CoreAudio/AudioHardwareDeprecated.h>, the calls before AudioObject.
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

/* The system object: the process's view of the audio hardware (an int, as in Apple's header:
   Swift writes AudioObjectID(kAudioObjectSystemObject)). */
CF_ENUM(int) {
    kAudioObjectSystemObject = 1,
};

/* Called when properties of an object change: the object, the addresses that changed, and the
   client data given with the listener. On the HAL's notification thread, or on the run loop
   kAudioHardwarePropertyRunLoop names. */
typedef OSStatus (*AudioObjectPropertyListenerProc)(AudioObjectID inObjectID, UInt32 inNumberAddresses,
                                                    const AudioObjectPropertyAddress *_Nonnull inAddresses,
                                                    void *_Nullable inClientData);

#if defined(__BLOCKS__)
struct dispatch_queue_s;
/* The block form of a listener (AudioObjectAddPropertyListenerBlock: declared, answers
   kAudioHardwareUnsupportedOperationError). */
typedef void (^AudioObjectPropertyListenerBlock)(UInt32 inNumberAddresses,
                                                 const AudioObjectPropertyAddress *_Nonnull inAddresses);
#endif

/* Properties every object has for listeners. */
CF_ENUM(AudioObjectPropertySelector) {
    kAudioObjectPropertyCreator = 0x6F706C67,                        /* 'oplg' CFStringRef: the bundle ID of the plug-in that made the object */
    kAudioObjectPropertyListenerAdded = 0x6C697361,                  /* 'lisa' AudioObjectPropertyAddress: notified when a listener is added */
    kAudioObjectPropertyListenerRemoved = 0x6C697372,                /* 'lisr' AudioObjectPropertyAddress */
};

AT_ASSUME_NONNULL_BEGIN

/* Prints a description of the object to standard error. */
AT_EXPORT void AudioObjectShow(AudioObjectID inObjectID);
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
#if defined(__BLOCKS__)
/* The block listeners: kAudioHardwareUnsupportedOperationError (use the function listeners).
   The queue is a dispatch_queue_t. */
AT_EXPORT OSStatus AudioObjectAddPropertyListenerBlock(AudioObjectID inObjectID, const AudioObjectPropertyAddress *inAddress,
                                                       struct dispatch_queue_s *_Nullable inDispatchQueue,
                                                       AudioObjectPropertyListenerBlock inListener);
AT_EXPORT OSStatus AudioObjectRemovePropertyListenerBlock(AudioObjectID inObjectID, const AudioObjectPropertyAddress *inAddress,
                                                          struct dispatch_queue_s *_Nullable inDispatchQueue,
                                                          AudioObjectPropertyListenerBlock inListener);
#endif

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
/* Before 10.5: a read of the device's recent input outside an IOProc. Not provided:
   kAudioHardwareUnsupportedOperationError (an input IOProc gets the input). */
AT_EXPORT OSStatus AudioDeviceRead(AudioDeviceID inDevice, const AudioTimeStamp *inStartTime, AudioBufferList *outData);

AT_ASSUME_NONNULL_END

/* kAudioHardwarePropertyPowerHint's values. */
typedef CF_ENUM(UInt32, AudioHardwarePowerHint) {
    kAudioHardwarePowerHintNone = 0,
    kAudioHardwarePowerHintFavorSavingPower = 1,
};

/* Properties of the system object. */
CF_ENUM(AudioObjectPropertySelector) {
    kAudioHardwarePropertyDevices = 0x64657623,                      /* 'dev#' AudioObjectID[] */
    kAudioHardwarePropertyDefaultInputDevice = 0x64496E20,           /* 'dIn ' AudioObjectID, settable */
    kAudioHardwarePropertyDefaultOutputDevice = 0x644F7574,          /* 'dOut' AudioObjectID, settable */
    kAudioHardwarePropertyDefaultSystemOutputDevice = 0x734F7574,    /* 'sOut' AudioObjectID, settable */
    kAudioHardwarePropertyTranslateUIDToDevice = 0x75696464,         /* 'uidd' AudioObjectID; qualifier: CFStringRef UID */
    kAudioHardwarePropertyMixStereoToMono = 0x73746D6F,              /* 'stmo' UInt32 */
    kAudioHardwarePropertyPlugInList = 0x706C6723,                   /* 'plg#' AudioObjectID[] */
    kAudioHardwarePropertyTranslateBundleIDToPlugIn = 0x62696470,    /* 'bidp' AudioObjectID; qualifier: CFStringRef */
    kAudioHardwarePropertyTransportManagerList = 0x746D6723,         /* 'tmg#' AudioObjectID[] */
    kAudioHardwarePropertyTranslateBundleIDToTransportManager = 0x746D6269, /* 'tmbi' AudioObjectID; qualifier: CFStringRef */
    kAudioHardwarePropertyBoxList = 0x626F7823,                      /* 'box#' AudioObjectID[] */
    kAudioHardwarePropertyTranslateUIDToBox = 0x75696462,            /* 'uidb' AudioObjectID; qualifier: CFStringRef */
    kAudioHardwarePropertyClockDeviceList = 0x636C6B23,              /* 'clk#' AudioObjectID[] */
    kAudioHardwarePropertyTranslateUIDToClockDevice = 0x75696463,    /* 'uidc' AudioObjectID; qualifier: CFStringRef */
    kAudioHardwarePropertyProcessIsMain = 0x6D61696E,                /* 'main' UInt32 */
    kAudioHardwarePropertyIsInitingOrExiting = 0x696E6F74,           /* 'inot' UInt32 */
    kAudioHardwarePropertyUserIDChanged = 0x65756964,                /* 'euid' UInt32, notification only */
    kAudioHardwarePropertyProcessInputMute = 0x706D696E,             /* 'pmin' UInt32 */
    kAudioHardwarePropertyProcessIsAudible = 0x706D7574,             /* 'pmut' UInt32 */
    kAudioHardwarePropertySleepingIsAllowed = 0x736C6570,            /* 'slep' UInt32 */
    kAudioHardwarePropertyUnloadingIsAllowed = 0x756E6C64,           /* 'unld' UInt32 */
    kAudioHardwarePropertyHogModeIsAllowed = 0x686F6772,             /* 'hogr' UInt32 */
    kAudioHardwarePropertyUserSessionIsActiveOrHeadless = 0x75736572, /* 'user' UInt32 */
    kAudioHardwarePropertyServiceRestarted = 0x73727374,             /* 'srst' UInt32, notification only */
    kAudioHardwarePropertyPowerHint = 0x706F7768,                    /* 'powh' AudioHardwarePowerHint */
    kAudioHardwarePropertyProcessObjectList = 0x70727323,            /* 'prs#' AudioObjectID[] */
    kAudioHardwarePropertyTranslatePIDToProcessObject = 0x69643270,  /* 'id2p' AudioObjectID; qualifier: pid_t */
    kAudioHardwarePropertyTapList = 0x74707323,                      /* 'tps#' AudioObjectID[] */
    kAudioHardwarePropertyTranslateUIDToTap = 0x75696474,            /* 'uidt' AudioObjectID; qualifier: CFStringRef */
};

/* Ends the process's use of the HAL: kAudioHardwareNoError (nothing is held between calls). */
AT_EXPORT OSStatus AudioHardwareUnload(void);
/* Aggregate devices: kAudioHardwareUnsupportedOperationError (a sound server combines devices). */
AT_EXPORT OSStatus AudioHardwareCreateAggregateDevice(CFDictionaryRef _Nonnull inDescription, AudioObjectID *_Nonnull outDeviceID);
AT_EXPORT OSStatus AudioHardwareDestroyAggregateDevice(AudioObjectID inDeviceID);

/* Properties of plug-ins that make devices. */
CF_ENUM(AudioObjectPropertySelector) {
    kAudioPlugInCreateAggregateDevice = 0x63616767,                  /* 'cagg' AudioObjectID; qualifier: CFDictionaryRef */
    kAudioPlugInDestroyAggregateDevice = 0x64616767,                 /* 'dagg' AudioObjectID */
    kAudioTransportManagerCreateEndPointDevice = 0x63646576,         /* 'cdev' AudioObjectID; qualifier: CFDictionaryRef */
    kAudioTransportManagerDestroyEndPointDevice = 0x64646576,        /* 'ddev' AudioObjectID */
};

/* Properties of devices (beside AudioHardwareBase.h's). */
CF_ENUM(AudioObjectPropertySelector) {
    kAudioDevicePropertyPlugIn = 0x706C7567,                         /* 'plug' OSStatus */
    kAudioDevicePropertyDeviceHasChanged = 0x64696666,               /* 'diff' UInt32, notification only */
    kAudioDevicePropertyDeviceIsRunningSomewhere = 0x676F6E65,       /* 'gone' UInt32 */
    kAudioDeviceProcessorOverload = 0x6F766572,                      /* 'over' UInt32, notification only */
    kAudioDevicePropertyIOStoppedAbnormally = 0x73747064,            /* 'stpd' UInt32, notification only */
    kAudioDevicePropertyHogMode = 0x6F696E6B,                        /* 'oink' pid_t: -1 when no process has the device */
    kAudioDevicePropertyBufferFrameSize = 0x6673697A,                /* 'fsiz' UInt32 frames, settable */
    kAudioDevicePropertyBufferFrameSizeRange = 0x66737A23,           /* 'fsz#' AudioValueRange */
    kAudioDevicePropertyUsesVariableBufferFrameSizes = 0x7666737A,   /* 'vfsz' UInt32 */
    kAudioDevicePropertyIOCycleUsage = 0x6E637963,                   /* 'ncyc' Float32 */
    kAudioDevicePropertyStreamConfiguration = 0x736C6179,            /* 'slay' AudioBufferList, per scope */
    kAudioDevicePropertyIOProcStreamUsage = 0x73757365,              /* 'suse' AudioHardwareIOProcStreamUsage */
    kAudioDevicePropertyActualSampleRate = 0x61737274,               /* 'asrt' Float64 */
    kAudioDevicePropertyClockDevice = 0x61706364,                    /* 'apcd' CFStringRef */
    kAudioDevicePropertyIOThreadOSWorkgroup = 0x6F737767,            /* 'oswg' os_workgroup_t */
    kAudioDevicePropertyProcessMute = 0x6170706D,                    /* 'appm' UInt32 */
};

/* Properties of devices that Apple implements with control objects. */
CF_ENUM(AudioObjectPropertySelector) {
    kAudioDevicePropertyJackIsConnected = 0x6A61636B,                /* 'jack' UInt32 */
    kAudioDevicePropertyVolumeScalar = 0x766F6C6D,                   /* 'volm' Float32, 0 to 1 */
    kAudioDevicePropertyVolumeDecibels = 0x766F6C64,                 /* 'vold' Float32 */
    kAudioDevicePropertyVolumeRangeDecibels = 0x76646223,            /* 'vdb#' AudioValueRange */
    kAudioDevicePropertyVolumeScalarToDecibels = 0x76326462,         /* 'v2db' Float32 in and out */
    kAudioDevicePropertyVolumeDecibelsToScalar = 0x64623276,         /* 'db2v' Float32 in and out */
    kAudioDevicePropertyStereoPan = 0x7370616E,                      /* 'span' Float32 */
    kAudioDevicePropertyStereoPanChannels = 0x73706E23,              /* 'spn#' UInt32[2] */
    kAudioDevicePropertyMute = 0x6D757465,                           /* 'mute' UInt32 */
    kAudioDevicePropertySolo = 0x736F6C6F,                           /* 'solo' UInt32 */
    kAudioDevicePropertyPhantomPower = 0x7068616E,                   /* 'phan' UInt32 */
    kAudioDevicePropertyPhaseInvert = 0x70687369,                    /* 'phsi' UInt32 */
    kAudioDevicePropertyClipLight = 0x636C6970,                      /* 'clip' UInt32 */
    kAudioDevicePropertyTalkback = 0x74616C62,                       /* 'talb' UInt32 */
    kAudioDevicePropertyListenback = 0x6C736E62,                     /* 'lsnb' UInt32 */
    kAudioDevicePropertyDataSource = 0x73737263,                     /* 'ssrc' UInt32 item ID */
    kAudioDevicePropertyDataSources = 0x73736323,                    /* 'ssc#' UInt32[] item IDs */
    kAudioDevicePropertyDataSourceNameForIDCFString = 0x6C73636E,    /* 'lscn' AudioValueTranslation: UInt32 to CFStringRef */
    kAudioDevicePropertyDataSourceKindForID = 0x7373636B,            /* 'ssck' AudioValueTranslation: UInt32 to UInt32 */
    kAudioDevicePropertyClockSource = 0x63737263,                    /* 'csrc' UInt32 item ID */
    kAudioDevicePropertyClockSources = 0x63736323,                   /* 'csc#' UInt32[] */
    kAudioDevicePropertyClockSourceNameForIDCFString = 0x6C63736E,   /* 'lcsn' AudioValueTranslation */
    kAudioDevicePropertyClockSourceKindForID = 0x6373636B,           /* 'csck' AudioValueTranslation */
    kAudioDevicePropertyPlayThru = 0x74687275,                       /* 'thru' UInt32 */
    kAudioDevicePropertyPlayThruSolo = 0x74687273,                   /* 'thrs' UInt32 */
    kAudioDevicePropertyPlayThruVolumeScalar = 0x6D767363,           /* 'mvsc' Float32 */
    kAudioDevicePropertyPlayThruVolumeDecibels = 0x6D766462,         /* 'mvdb' Float32 */
    kAudioDevicePropertyPlayThruVolumeRangeDecibels = 0x6D766423,    /* 'mvd#' AudioValueRange */
    kAudioDevicePropertyPlayThruVolumeScalarToDecibels = 0x6D763264, /* 'mv2d' Float32 */
    kAudioDevicePropertyPlayThruVolumeDecibelsToScalar = 0x6D763273, /* 'mv2s' Float32 */
    kAudioDevicePropertyPlayThruStereoPan = 0x6D73706E,              /* 'mspn' Float32 */
    kAudioDevicePropertyPlayThruStereoPanChannels = 0x6D737023,      /* 'msp#' UInt32[2] */
    kAudioDevicePropertyPlayThruDestination = 0x6D646473,            /* 'mdds' UInt32 */
    kAudioDevicePropertyPlayThruDestinations = 0x6D646423,           /* 'mdd#' UInt32[] */
    kAudioDevicePropertyPlayThruDestinationNameForIDCFString = 0x6D646463, /* 'mddc' AudioValueTranslation */
    kAudioDevicePropertyChannelNominalLineLevel = 0x6E6C766C,        /* 'nlvl' UInt32 */
    kAudioDevicePropertyChannelNominalLineLevels = 0x6E6C7623,       /* 'nlv#' UInt32[] */
    kAudioDevicePropertyChannelNominalLineLevelNameForIDCFString = 0x6C636E6C, /* 'lcnl' AudioValueTranslation */
    kAudioDevicePropertyHighPassFilterSetting = 0x68697066,          /* 'hipf' UInt32 */
    kAudioDevicePropertyHighPassFilterSettings = 0x68697023,         /* 'hip#' UInt32[] */
    kAudioDevicePropertyHighPassFilterSettingNameForIDCFString = 0x6869706C, /* 'hipl' AudioValueTranslation */
    kAudioDevicePropertySubVolumeScalar = 0x73766C6D,                /* 'svlm' Float32 */
    kAudioDevicePropertySubVolumeDecibels = 0x73766C64,              /* 'svld' Float32 */
    kAudioDevicePropertySubVolumeRangeDecibels = 0x73766423,         /* 'svd#' AudioValueRange */
    kAudioDevicePropertySubVolumeScalarToDecibels = 0x73763264,      /* 'sv2d' Float32 */
    kAudioDevicePropertySubVolumeDecibelsToScalar = 0x73643276,      /* 'sd2v' Float32 */
    kAudioDevicePropertySubMute = 0x736D7574,                        /* 'smut' UInt32 */
    kAudioDevicePropertyVoiceActivityDetectionEnable = 0x7641642B,   /* 'vAd+' UInt32 */
    kAudioDevicePropertyVoiceActivityDetectionState = 0x76416453,    /* 'vAdS' UInt32 */
};

/* Aggregate devices (kAudioAggregateDeviceClassID): declared; none exist here. */
CF_ENUM(AudioClassID) {
    kAudioAggregateDeviceClassID = 0x61616767,                       /* 'aagg' */
};

/* The keys of an aggregate device's description (C strings; CFSTR() them). */
#define kAudioAggregateDeviceUIDKey "uid"
#define kAudioAggregateDeviceNameKey "name"
#define kAudioAggregateDeviceSubDeviceListKey "subdevices"
#define kAudioAggregateDeviceMainSubDeviceKey "master"
#define kAudioAggregateDeviceMasterSubDeviceKey kAudioAggregateDeviceMainSubDeviceKey
#define kAudioAggregateDeviceClockDeviceKey "clock"
#define kAudioAggregateDeviceIsPrivateKey "private"
#define kAudioAggregateDeviceIsStackedKey "stacked"
#define kAudioAggregateDeviceTapListKey "taps"
#define kAudioAggregateDeviceTapAutoStartKey "tapautostart"

/* Properties of aggregate devices. */
CF_ENUM(AudioObjectPropertySelector) {
    kAudioAggregateDevicePropertyFullSubDeviceList = 0x67727570,     /* 'grup' CFArrayRef of UIDs */
    kAudioAggregateDevicePropertyActiveSubDeviceList = 0x61677270,   /* 'agrp' AudioObjectID[] */
    kAudioAggregateDevicePropertyComposition = 0x61636F6D,           /* 'acom' CFDictionaryRef */
    kAudioAggregateDevicePropertyMainSubDevice = 0x616D7374,         /* 'amst' CFStringRef */
    kAudioAggregateDevicePropertyClockDevice = 0x61706364,           /* 'apcd' CFStringRef */
    kAudioAggregateDevicePropertyTapList = 0x74617023,               /* 'tap#' CFArrayRef */
    kAudioAggregateDevicePropertySubTapList = 0x61746170,            /* 'atap' AudioObjectID[] */
};

/* Drift compensation qualities of a sub-device or sub-tap. */
CF_ENUM(UInt32) {
    kAudioAggregateDriftCompensationMinQuality = 0,
    kAudioAggregateDriftCompensationLowQuality = 0x20,
    kAudioAggregateDriftCompensationMediumQuality = 0x40,
    kAudioAggregateDriftCompensationHighQuality = 0x60,
    kAudioAggregateDriftCompensationMaxQuality = 0x7F,
    kAudioSubDeviceDriftCompensationMinQuality = 0,
    kAudioSubDeviceDriftCompensationLowQuality = 0x20,
    kAudioSubDeviceDriftCompensationMediumQuality = 0x40,
    kAudioSubDeviceDriftCompensationHighQuality = 0x60,
    kAudioSubDeviceDriftCompensationMaxQuality = 0x7F,
};

/* Sub-devices, sub-taps, processes and taps: declared; none exist here. */
CF_ENUM(AudioClassID) {
    kAudioSubDeviceClassID = 0x61737562,                             /* 'asub' */
    kAudioSubTapClassID = 0x73746170,                                /* 'stap' */
    kAudioProcessClassID = 0x636C6E74,                               /* 'clnt' */
    kAudioTapClassID = 0x74636C73,                                   /* 'tcls' */
};

/* The keys of a sub-device's and a sub-tap's description (C strings). */
#define kAudioSubDeviceUIDKey "uid"
#define kAudioSubDeviceNameKey "name"
#define kAudioSubDeviceInputChannelsKey "channels-in"
#define kAudioSubDeviceOutputChannelsKey "channels-out"
#define kAudioSubDeviceExtraInputLatencyKey "latency-in"
#define kAudioSubDeviceExtraOutputLatencyKey "latency-out"
#define kAudioSubDeviceDriftCompensationKey "drift"
#define kAudioSubDeviceDriftCompensationQualityKey "drift quality"
#define kAudioSubTapUIDKey "uid"
#define kAudioSubTapExtraInputLatencyKey "latency-in"
#define kAudioSubTapExtraOutputLatencyKey "latency-out"
#define kAudioSubTapDriftCompensationKey "drift"
#define kAudioSubTapDriftCompensationQualityKey "drift quality"

/* Properties of sub-devices, sub-taps, processes and taps. */
CF_ENUM(AudioObjectPropertySelector) {
    kAudioSubDevicePropertyExtraLatency = 0x786C7463,                /* 'xltc' Float64 seconds */
    kAudioSubDevicePropertyDriftCompensation = 0x64726674,           /* 'drft' UInt32 */
    kAudioSubDevicePropertyDriftCompensationQuality = 0x64726671,    /* 'drfq' UInt32 */
    kAudioSubTapPropertyExtraLatency = 0x786C7463,                   /* 'xltc' Float64 seconds */
    kAudioSubTapPropertyDriftCompensation = 0x64726674,              /* 'drft' UInt32 */
    kAudioSubTapPropertyDriftCompensationQuality = 0x64726671,       /* 'drfq' UInt32 */
    kAudioProcessPropertyPID = 0x70706964,                           /* 'ppid' pid_t */
    kAudioProcessPropertyBundleID = 0x70626964,                      /* 'pbid' CFStringRef */
    kAudioProcessPropertyDevices = 0x70647623,                       /* 'pdv#' AudioObjectID[] */
    kAudioProcessPropertyIsRunning = 0x7069723F,                     /* 'pir?' UInt32 */
    kAudioProcessPropertyIsRunningInput = 0x70697269,                /* 'piri' UInt32 */
    kAudioProcessPropertyIsRunningOutput = 0x7069726F,               /* 'piro' UInt32 */
    kAudioTapPropertyUID = 0x74756964,                               /* 'tuid' CFStringRef */
    kAudioTapPropertyDescription = 0x74647363,                       /* 'tdsc' CATapDescription */
    kAudioTapPropertyFormat = 0x74666D74,                            /* 'tfmt' AudioStreamBasicDescription */
};

AT_EXTERN_C_END

#include <CoreAudio/AudioHardwareDeprecated.h>

#endif /* CoreAudio_AudioHardware_h */
