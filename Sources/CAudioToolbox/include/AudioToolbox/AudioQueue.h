/*
 * AudioQueue.h — Audio Queue Services with Apple's names, types, constants and result codes:
 * output (playback) and input (recording) queues, their buffers, parameters, properties,
 * property listeners, timelines, offline render and processing taps.
 *
 * Callbacks run on the run loop given to AudioQueueNewOutput/AudioQueueNewInput while that
 * thread runs it (CFRunLoopRunInMode), or, for a NULL run loop, on a thread of the queue's own.
 *
 * swift-audio-queue. Apache License 2.0.
 */
#ifndef AudioToolbox_AudioQueue_h
#define AudioToolbox_AudioQueue_h

#include <AudioToolbox/CoreAudioTypes.h>

AT_EXTERN_C_BEGIN
AT_ASSUME_NONNULL_BEGIN

typedef UInt32 AudioQueuePropertyID;
typedef UInt32 AudioQueueParameterID;
typedef Float32 AudioQueueParameterValue;
typedef struct OpaqueAudioQueue *AudioQueueRef;
typedef struct OpaqueAudioQueueTimeline *AudioQueueTimelineRef;

CF_ENUM(OSStatus) {
    kAudioQueueErr_InvalidBuffer = -66687,
    kAudioQueueErr_BufferEmpty = -66686,
    kAudioQueueErr_DisposalPending = -66685,
    kAudioQueueErr_InvalidProperty = -66684,
    kAudioQueueErr_InvalidPropertySize = -66683,
    kAudioQueueErr_InvalidParameter = -66682,
    kAudioQueueErr_CannotStart = -66681,
    kAudioQueueErr_InvalidDevice = -66680,
    kAudioQueueErr_BufferInQueue = -66679,
    kAudioQueueErr_InvalidRunState = -66678,
    kAudioQueueErr_InvalidQueueType = -66677,
    kAudioQueueErr_Permissions = -66676,
    kAudioQueueErr_InvalidPropertyValue = -66675,
    kAudioQueueErr_PrimeTimedOut = -66674,
    kAudioQueueErr_CodecNotFound = -66673,
    kAudioQueueErr_InvalidCodecAccess = -66672,
    kAudioQueueErr_QueueInvalidated = -66671,
    kAudioQueueErr_TooManyTaps = -66670,
    kAudioQueueErr_InvalidTapContext = -66669,
    kAudioQueueErr_RecordUnderrun = -66668,
    kAudioQueueErr_InvalidTapType = -66667,
    kAudioQueueErr_BufferEnqueuedTwice = -66666,
    kAudioQueueErr_CannotStartYet = -66665,
    kAudioQueueErr_EnqueueDuringReset = -66632,
    kAudioQueueErr_InvalidOfflineMode = -66626,
};

CF_ENUM(AudioQueuePropertyID) {
    kAudioQueueProperty_IsRunning = 0x6171726E,              /* 'aqrn' UInt32, read-only */
    kAudioQueueDeviceProperty_SampleRate = 0x61717372,       /* 'aqsr' Float64, read-only */
    kAudioQueueDeviceProperty_NumberChannels = 0x61716463,   /* 'aqdc' UInt32, read-only */
    kAudioQueueProperty_CurrentDevice = 0x61716364,          /* 'aqcd' CFStringRef */
    kAudioQueueProperty_MagicCookie = 0x61716D63,            /* 'aqmc' void* */
    kAudioQueueProperty_MaximumOutputPacketSize = 0x786F7073, /* 'xops' UInt32, read-only */
    kAudioQueueProperty_StreamDescription = 0x61716674,      /* 'aqft' AudioStreamBasicDescription */
    kAudioQueueProperty_ChannelLayout = 0x6171636C,          /* 'aqcl' AudioChannelLayout */
    kAudioQueueProperty_EnableLevelMetering = 0x61716D65,    /* 'aqme' UInt32 */
    kAudioQueueProperty_CurrentLevelMeter = 0x61716D76,      /* 'aqmv' AudioQueueLevelMeterState[] */
    kAudioQueueProperty_CurrentLevelMeterDB = 0x61716D64,    /* 'aqmd' AudioQueueLevelMeterState[] */
    kAudioQueueProperty_DecodeBufferSizeFrames = 0x64636266, /* 'dcbf' UInt32 */
    kAudioQueueProperty_ConverterError = 0x71637665,         /* 'qcve' UInt32, read-only */
    kAudioQueueProperty_EnableTimePitch = 0x715F7470,        /* 'q_tp' UInt32 0/1, set while stopped */
    kAudioQueueProperty_TimePitchAlgorithm = 0x71747061,     /* 'qtpa' UInt32, set while stopped */
    kAudioQueueProperty_TimePitchBypass = 0x71747062,        /* 'qtpb' UInt32, 1 = bypassed */
};

/* Values of kAudioQueueProperty_TimePitchAlgorithm. LowQualityZeroLatency is iOS-only on
   Apple's platforms (deprecated); accepted here and played as TimeDomain. */
CF_ENUM(UInt32) {
    kAudioQueueTimePitchAlgorithm_Spectral = 0x73706563,              /* 'spec', the default */
    kAudioQueueTimePitchAlgorithm_TimeDomain = 0x7469646F,            /* 'tido' */
    kAudioQueueTimePitchAlgorithm_Varispeed = 0x76737064,             /* 'vspd' */
    kAudioQueueTimePitchAlgorithm_LowQualityZeroLatency = 0x6C717A6C, /* 'lqzl' */
};

/** 'aqca' AudioQueueChannelAssignment[], write-only: one element per channel of the queue's
    format, every one naming the same device. Set while the queue is stopped; a NULL value of
    size 0 clears the assignments. */
CF_ENUM(AudioQueuePropertyID) {
    kAudioQueueProperty_ChannelAssignments = 0x61716361,
};

CF_ENUM(AudioQueueParameterID) {
    kAudioQueueParam_Volume = 1,
    kAudioQueueParam_PlayRate = 2,
    kAudioQueueParam_Pitch = 3,
    kAudioQueueParam_VolumeRampTime = 4,
    kAudioQueueParam_Pan = 13,
};

/** A buffer of an audio queue. The queue owns it; the program fills mAudioData and sets
    mAudioDataByteSize (and, for variable-size packets, the descriptions) before enqueueing. */
typedef struct AudioQueueBuffer {
    const UInt32 mAudioDataBytesCapacity;
    void *const mAudioData;
    UInt32 mAudioDataByteSize;
    void *_Nullable mUserData;
    const UInt32 mPacketDescriptionCapacity;
    AudioStreamPacketDescription *const _Nullable mPacketDescriptions;
    UInt32 mPacketDescriptionCount;
} AudioQueueBuffer;

typedef AudioQueueBuffer *AudioQueueBufferRef;

typedef struct AudioQueueParameterEvent {
    AudioQueueParameterID mID;
    AudioQueueParameterValue mValue;
} AudioQueueParameterEvent;

typedef struct AudioQueueLevelMeterState {
    Float32 mAveragePower;
    Float32 mPeakPower;
} AudioQueueLevelMeterState;

/** The device channel one queue channel plays to or records from
    (kAudioQueueProperty_ChannelAssignments): the device's UID, as kAudioQueueProperty_CurrentDevice
    holds it, and its channel counting from 1. */
typedef struct AudioQueueChannelAssignment {
    CFStringRef mDeviceUID;
    UInt32 mChannelNumber;
} AudioQueueChannelAssignment;

/** Called with each buffer an output queue has finished playing. */
typedef void (*AudioQueueOutputCallback)(void *_Nullable inUserData, AudioQueueRef inAQ,
                                         AudioQueueBufferRef inBuffer);

/** Called with each buffer an input queue has filled: `inNumberPacketDescriptions` packets
    whose first frame was recorded at `inStartTime` (descriptions for variable-size formats). */
typedef void (*AudioQueueInputCallback)(void *_Nullable inUserData, AudioQueueRef inAQ,
                                        AudioQueueBufferRef inBuffer, const AudioTimeStamp *inStartTime,
                                        UInt32 inNumberPacketDescriptions,
                                        const AudioStreamPacketDescription *_Nullable inPacketDescs);

/** Called when a property a listener was added for changes. */
typedef void (*AudioQueuePropertyListenerProc)(void *_Nullable inUserData, AudioQueueRef inAQ,
                                               AudioQueuePropertyID inID);

/* Creating and disposing of queues. */

/** Creates a playback queue for `inFormat`. Callbacks and listeners run on `inCallbackRunLoop`
    in `inCallbackRunLoopMode` (NULL: kCFRunLoopCommonModes), or, when it is NULL, on a thread
    of the queue's own. `inFlags` must be 0. */
AT_EXPORT OSStatus AudioQueueNewOutput(const AudioStreamBasicDescription *inFormat,
                                       AudioQueueOutputCallback inCallbackProc, void *_Nullable inUserData,
                                       CFRunLoopRef _Nullable inCallbackRunLoop,
                                       CFStringRef _Nullable inCallbackRunLoopMode, UInt32 inFlags,
                                       AudioQueueRef _Nullable *_Nonnull outAQ);

/** Creates a recording queue for `inFormat` (linear PCM, 'ima4', 'ulaw', 'alaw'). */
AT_EXPORT OSStatus AudioQueueNewInput(const AudioStreamBasicDescription *inFormat,
                                      AudioQueueInputCallback inCallbackProc, void *_Nullable inUserData,
                                      CFRunLoopRef _Nullable inCallbackRunLoop,
                                      CFStringRef _Nullable inCallbackRunLoopMode, UInt32 inFlags,
                                      AudioQueueRef _Nullable *_Nonnull outAQ);

/** Disposes of the queue and its buffers: at once, or after what is enqueued has played. */
AT_EXPORT OSStatus AudioQueueDispose(AudioQueueRef inAQ, Boolean inImmediate);

/* Buffers. */

AT_EXPORT OSStatus AudioQueueAllocateBuffer(AudioQueueRef inAQ, UInt32 inBufferByteSize,
                                            AudioQueueBufferRef _Nullable *_Nonnull outBuffer);
AT_EXPORT OSStatus AudioQueueAllocateBufferWithPacketDescriptions(AudioQueueRef inAQ, UInt32 inBufferByteSize,
                                                                  UInt32 inNumberPacketDescriptions,
                                                                  AudioQueueBufferRef _Nullable *_Nonnull outBuffer);
AT_EXPORT OSStatus AudioQueueFreeBuffer(AudioQueueRef inAQ, AudioQueueBufferRef inBuffer);

/** Adds a buffer to the queue. For an output queue with variable-size packets, either pass
    the descriptions here or set the buffer's mPacketDescriptionCount (and pass 0, NULL). */
AT_EXPORT OSStatus AudioQueueEnqueueBuffer(AudioQueueRef inAQ, AudioQueueBufferRef inBuffer,
                                           UInt32 inNumPacketDescs,
                                           const AudioStreamPacketDescription *_Nullable inPacketDescs);

/** Adds a buffer to an output queue with frames to trim at its start and end, parameter
    events to apply from its first frame, and a start time; `outActualStartTime` (may be
    NULL) gets when it will play. */
AT_EXPORT OSStatus AudioQueueEnqueueBufferWithParameters(
    AudioQueueRef inAQ, AudioQueueBufferRef inBuffer, UInt32 inNumPacketDescs,
    const AudioStreamPacketDescription *_Nullable inPacketDescs, UInt32 inTrimFramesAtStart,
    UInt32 inTrimFramesAtEnd, UInt32 inNumParamValues, const AudioQueueParameterEvent *_Nullable inParamValues,
    const AudioTimeStamp *_Nullable inStartTime, AudioTimeStamp *_Nullable outActualStartTime);

/* Control. */

AT_EXPORT OSStatus AudioQueueStart(AudioQueueRef inAQ, const AudioTimeStamp *_Nullable inStartTime);
AT_EXPORT OSStatus AudioQueuePrime(AudioQueueRef inAQ, UInt32 inNumberOfFramesToPrepare,
                                   UInt32 *_Nullable outNumberOfFramesPrepared);
AT_EXPORT OSStatus AudioQueueStop(AudioQueueRef inAQ, Boolean inImmediate);
AT_EXPORT OSStatus AudioQueuePause(AudioQueueRef inAQ);
AT_EXPORT OSStatus AudioQueueFlush(AudioQueueRef inAQ);
AT_EXPORT OSStatus AudioQueueReset(AudioQueueRef inAQ);

/* Parameters and properties. */

AT_EXPORT OSStatus AudioQueueGetParameter(AudioQueueRef inAQ, AudioQueueParameterID inParamID,
                                          AudioQueueParameterValue *outValue);
AT_EXPORT OSStatus AudioQueueSetParameter(AudioQueueRef inAQ, AudioQueueParameterID inParamID,
                                          AudioQueueParameterValue inValue);
AT_EXPORT OSStatus AudioQueueGetProperty(AudioQueueRef inAQ, AudioQueuePropertyID inID, void *outData,
                                         UInt32 *ioDataSize);
AT_EXPORT OSStatus AudioQueueSetProperty(AudioQueueRef inAQ, AudioQueuePropertyID inID, const void *inData,
                                         UInt32 inDataSize);
AT_EXPORT OSStatus AudioQueueGetPropertySize(AudioQueueRef inAQ, AudioQueuePropertyID inID, UInt32 *outDataSize);
AT_EXPORT OSStatus AudioQueueAddPropertyListener(AudioQueueRef inAQ, AudioQueuePropertyID inID,
                                                 AudioQueuePropertyListenerProc inProc, void *_Nullable inUserData);
AT_EXPORT OSStatus AudioQueueRemovePropertyListener(AudioQueueRef inAQ, AudioQueuePropertyID inID,
                                                    AudioQueuePropertyListenerProc inProc, void *_Nullable inUserData);

/* Time. */

AT_EXPORT OSStatus AudioQueueCreateTimeline(AudioQueueRef inAQ, AudioQueueTimelineRef _Nullable *_Nonnull outTimeline);
AT_EXPORT OSStatus AudioQueueDisposeTimeline(AudioQueueRef inAQ, AudioQueueTimelineRef inTimeline);
AT_EXPORT OSStatus AudioQueueGetCurrentTime(AudioQueueRef inAQ, AudioQueueTimelineRef _Nullable inTimeline,
                                            AudioTimeStamp *_Nullable outTimeStamp,
                                            Boolean *_Nullable outTimelineDiscontinuity);
AT_EXPORT OSStatus AudioQueueDeviceGetCurrentTime(AudioQueueRef inAQ, AudioTimeStamp *outTimeStamp);

/* Offline render. */

AT_EXPORT OSStatus AudioQueueSetOfflineRenderFormat(AudioQueueRef inAQ,
                                                    const AudioStreamBasicDescription *_Nullable inFormat,
                                                    const AudioChannelLayout *_Nullable inLayout);
AT_EXPORT OSStatus AudioQueueOfflineRender(AudioQueueRef inAQ, const AudioTimeStamp *inTimestamp,
                                           AudioQueueBufferRef ioBuffer, UInt32 inNumberFrames);

/* Processing taps: the program's code on a queue's audio (see AudioToolbox.docc, ProcessingTapsC). */

/** A processing tap on an audio queue. */
typedef struct OpaqueAudioQueueProcessingTap *AudioQueueProcessingTapRef;

/** Where a tap sits and whether it only watches (given to AudioQueueProcessingTapNew: PreEffects
    or PostEffects, not both, perhaps Siphon), and what the audio is (passed to the callback and
    returned by AudioQueueProcessingTapGetSourceAudio). */
typedef CF_OPTIONS(UInt32, AudioQueueProcessingTapFlags) {
    kAudioQueueProcessingTap_PreEffects = (1 << 0),
    kAudioQueueProcessingTap_PostEffects = (1 << 1),
    kAudioQueueProcessingTap_Siphon = (1 << 2),
    kAudioQueueProcessingTap_StartOfStream = (1 << 8),
    kAudioQueueProcessingTap_EndOfStream = (1 << 9),
};

/** Called on the queue's render (or capture) thread for each chunk of audio: at most the
    maximum frames AudioQueueProcessingTapNew gave, one buffer per channel in ioData (NULL and 0
    bytes on entry for a non-siphon tap, which fetches its source with
    AudioQueueProcessingTapGetSourceAudio and returns its own pointers and outNumberFrames; a
    siphon's buffers hold the audio, to be read only). */
typedef void (*AudioQueueProcessingTapCallback)(void *_Nullable inClientData, AudioQueueProcessingTapRef inAQTap,
                                                UInt32 inNumberFrames, AudioTimeStamp *ioTimeStamp,
                                                AudioQueueProcessingTapFlags *ioFlags, UInt32 *outNumberFrames,
                                                AudioBufferList *ioData);

/** Makes a tap on a stopped queue (one per queue); gives its maximum frames per call and its
    processing format (the queue's rate and channels, Float32 non-interleaved). */
AT_EXPORT OSStatus AudioQueueProcessingTapNew(AudioQueueRef inAQ, AudioQueueProcessingTapCallback inCallback,
                                              void *_Nullable inClientData, AudioQueueProcessingTapFlags inFlags,
                                              UInt32 *outMaxFrames, AudioStreamBasicDescription *outProcessingFormat,
                                              AudioQueueProcessingTapRef _Nullable *_Nonnull outAQTap);

/** Removes a tap from its queue, which must be stopped. */
AT_EXPORT OSStatus AudioQueueProcessingTapDispose(AudioQueueProcessingTapRef inAQTap);

/** From inside the tap's callback: up to inNumberFrames frames of source audio, into the
    queue's buffers (NULL pointers in ioData) or copied into the caller's. */
AT_EXPORT OSStatus AudioQueueProcessingTapGetSourceAudio(AudioQueueProcessingTapRef inAQTap, UInt32 inNumberFrames,
                                                         AudioTimeStamp *ioTimeStamp,
                                                         AudioQueueProcessingTapFlags *outFlags,
                                                         UInt32 *outNumberFrames, AudioBufferList *ioData);

/** From inside an output queue's tap callback, after AudioQueueProcessingTapGetSourceAudio:
    the queue's sample time and the queue frames the chunk covers. */
AT_EXPORT OSStatus AudioQueueProcessingTapGetQueueTime(AudioQueueProcessingTapRef inAQTap,
                                                       Float64 *outQueueSampleTime, UInt32 *outQueueFrameCount);

AT_ASSUME_NONNULL_END
AT_EXTERN_C_END

#endif /* AudioToolbox_AudioQueue_h */
