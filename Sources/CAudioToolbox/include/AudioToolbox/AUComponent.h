/*
 * AUComponent.h — Apple's audio units: AudioUnit (an AudioComponentInstance), the unit types and
 * Apple's subtypes and manufacturer, the render action flags, the error codes,
 * property/scope/element/parameter types, parameter events, AURenderCallback and the listener
 * callbacks, and the dispatch selectors; and the functions, with Apple's signatures:
 * AudioUnitInitialize and AudioUnitUninitialize, the properties (AudioUnitGetPropertyInfo,
 * AudioUnitGetProperty, AudioUnitSetProperty) and their listeners
 * (AudioUnitAddPropertyListener, AudioUnitRemovePropertyListenerWithUserData), render
 * notifications, parameters (AudioUnitGetParameter, AudioUnitSetParameter,
 * AudioUnitScheduleParameters), AudioUnitRender, AudioUnitProcess, AudioUnitProcessMultiple and
 * AudioUnitReset. AudioUnitRemovePropertyListener is declared only for 32-bit programs, as on a
 * Mac.
 *
 * swift-audio-queue. Apache License 2.0.
 */
#ifndef AudioToolbox_AUComponent_h
#define AudioToolbox_AUComponent_h

#include <AudioToolbox/AudioComponent.h>
#include <AudioToolbox/CoreAudioTypes.h>

AT_EXTERN_C_BEGIN
AT_ASSUME_NONNULL_BEGIN

/* An audio unit is an instance of an audio component. */
typedef AudioComponentInstance AudioUnit;

/* Unit types. */
CF_ENUM(UInt32) {
    kAudioUnitType_Output = 0x61756F75, /* 'auou' */
    kAudioUnitType_MusicDevice = 0x61756D75, /* 'aumu' */
    kAudioUnitType_MusicEffect = 0x61756D66, /* 'aumf' */
    kAudioUnitType_FormatConverter = 0x61756663, /* 'aufc' */
    kAudioUnitType_Effect = 0x61756678, /* 'aufx' */
    kAudioUnitType_Mixer = 0x61756D78, /* 'aumx' */
    kAudioUnitType_Panner = 0x6175706E, /* 'aupn' */
    kAudioUnitType_Generator = 0x6175676E, /* 'augn' */
    kAudioUnitType_OfflineEffect = 0x61756F6C, /* 'auol' */
    kAudioUnitType_MIDIProcessor = 0x61756D69, /* 'aumi' */
    kAudioUnitType_SpeechSynthesizer = 0x61757370, /* 'ausp' */
};

/* Apple's units. */
CF_ENUM(UInt32) {
    kAudioUnitManufacturer_Apple = 0x6170706C, /* 'appl' */
};

CF_ENUM(UInt32) {
    kAudioUnitSubType_GenericOutput = 0x67656E72, /* 'genr' */
    kAudioUnitSubType_VoiceProcessingIO = 0x7670696F, /* 'vpio' */
    kAudioUnitSubType_HALOutput = 0x6168616C, /* 'ahal' */
    kAudioUnitSubType_DefaultOutput = 0x64656620, /* 'def ' */
    kAudioUnitSubType_SystemOutput = 0x73797320, /* 'sys ' */
    kAudioUnitSubType_DLSSynth = 0x646C7320, /* 'dls ' */
    kAudioUnitSubType_Sampler = 0x73616D70, /* 'samp' */
    kAudioUnitSubType_MIDISynth = 0x6D73796E, /* 'msyn' */
    kAudioUnitSubType_AUConverter = 0x636F6E76, /* 'conv' */
    kAudioUnitSubType_Varispeed = 0x76617269, /* 'vari' */
    kAudioUnitSubType_DeferredRenderer = 0x64656672, /* 'defr' */
    kAudioUnitSubType_Splitter = 0x73706C74, /* 'splt' */
    kAudioUnitSubType_MultiSplitter = 0x6D73706C, /* 'mspl' */
    kAudioUnitSubType_Merger = 0x6D657267, /* 'merg' */
    kAudioUnitSubType_NewTimePitch = 0x6E757470, /* 'nutp' */
    kAudioUnitSubType_AUiPodTimeOther = 0x6970746F, /* 'ipto' */
    kAudioUnitSubType_RoundTripAAC = 0x72616163, /* 'raac' */
    kAudioUnitSubType_TimePitch = 0x746D7074, /* 'tmpt' */
    kAudioUnitSubType_PeakLimiter = 0x6C6D7472, /* 'lmtr' */
    kAudioUnitSubType_DynamicsProcessor = 0x64636D70, /* 'dcmp' */
    kAudioUnitSubType_LowPassFilter = 0x6C706173, /* 'lpas' */
    kAudioUnitSubType_HighPassFilter = 0x68706173, /* 'hpas' */
    kAudioUnitSubType_BandPassFilter = 0x62706173, /* 'bpas' */
    kAudioUnitSubType_HighShelfFilter = 0x68736866, /* 'hshf' */
    kAudioUnitSubType_LowShelfFilter = 0x6C736866, /* 'lshf' */
    kAudioUnitSubType_ParametricEQ = 0x706D6571, /* 'pmeq' */
    kAudioUnitSubType_Distortion = 0x64697374, /* 'dist' */
    kAudioUnitSubType_Delay = 0x64656C79, /* 'dely' */
    kAudioUnitSubType_SampleDelay = 0x73646C79, /* 'sdly' */
    kAudioUnitSubType_NBandEQ = 0x6E626571, /* 'nbeq' */
    kAudioUnitSubType_Reverb2 = 0x72766232, /* 'rvb2' */
    kAudioUnitSubType_GraphicEQ = 0x67726571, /* 'greq' */
    kAudioUnitSubType_MultiBandCompressor = 0x6D636D70, /* 'mcmp' */
    kAudioUnitSubType_MatrixReverb = 0x6D726576, /* 'mrev' */
    kAudioUnitSubType_Pitch = 0x746D7074, /* 'tmpt' */
    kAudioUnitSubType_AUFilter = 0x66696C74, /* 'filt' */
    kAudioUnitSubType_NetSend = 0x6E736E64, /* 'nsnd' */
    kAudioUnitSubType_RogerBeep = 0x726F6772, /* 'rogr' */
    kAudioUnitSubType_MultiChannelMixer = 0x6D636D78, /* 'mcmx' */
    kAudioUnitSubType_MatrixMixer = 0x6D786D78, /* 'mxmx' */
    kAudioUnitSubType_SpatialMixer = 0x3364656D, /* '3dem' */
    kAudioUnitSubType_StereoMixer = 0x736D7872, /* 'smxr' */
    kAudioUnitSubType_3DMixer = 0x33646D78, /* '3dmx' */
    kAudioUnitSubType_SphericalHeadPanner = 0x73706872, /* 'sphr' */
    kAudioUnitSubType_VectorPanner = 0x76626173, /* 'vbas' */
    kAudioUnitSubType_SoundFieldPanner = 0x616D6269, /* 'ambi' */
    kAudioUnitSubType_HRTFPanner = 0x68727466, /* 'hrtf' */
    kAudioUnitSubType_NetReceive = 0x6E726376, /* 'nrcv' */
    kAudioUnitSubType_ScheduledSoundPlayer = 0x7373706C, /* 'sspl' */
    kAudioUnitSubType_AudioFilePlayer = 0x6166706C, /* 'afpl' */
};

typedef CF_OPTIONS(UInt32, AudioUnitRenderActionFlags) {
    kAudioUnitRenderAction_PreRender = (1U << 2),
    kAudioUnitRenderAction_PostRender = (1U << 3),
    kAudioUnitRenderAction_OutputIsSilence = (1U << 4),
    kAudioOfflineUnitRenderAction_Preflight = (1U << 5),
    kAudioOfflineUnitRenderAction_Render = (1U << 6),
    kAudioOfflineUnitRenderAction_Complete = (1U << 7),
    kAudioUnitRenderAction_PostRenderError = (1U << 8),
    kAudioUnitRenderAction_DoNotCheckRenderArgs = (1U << 9),
};

CF_ENUM(OSStatus) {
    kAudioUnitErr_InvalidProperty = -10879,
    kAudioUnitErr_InvalidParameter = -10878,
    kAudioUnitErr_InvalidElement = -10877,
    kAudioUnitErr_NoConnection = -10876,
    kAudioUnitErr_FailedInitialization = -10875,
    kAudioUnitErr_TooManyFramesToProcess = -10874,
    kAudioUnitErr_InvalidFile = -10871,
    kAudioUnitErr_UnknownFileType = -10870,
    kAudioUnitErr_FileNotSpecified = -10869,
    kAudioUnitErr_FormatNotSupported = -10868,
    kAudioUnitErr_Uninitialized = -10867,
    kAudioUnitErr_InvalidScope = -10866,
    kAudioUnitErr_PropertyNotWritable = -10865,
    kAudioUnitErr_CannotDoInCurrentContext = -10863,
    kAudioUnitErr_InvalidPropertyValue = -10851,
    kAudioUnitErr_PropertyNotInUse = -10850,
    kAudioUnitErr_Initialized = -10849,
    kAudioUnitErr_InvalidOfflineRender = -10848,
    kAudioUnitErr_Unauthorized = -10847,
    kAudioUnitErr_MIDIOutputBufferFull = -66753,
    kAudioComponentErr_InstanceTimedOut = -66754,
    kAudioComponentErr_InstanceInvalidated = -66749,
    kAudioUnitErr_RenderTimeout = -66745,
    kAudioUnitErr_ExtensionNotFound = -66744,
    kAudioUnitErr_InvalidParameterValue = -66743,
    kAudioUnitErr_InvalidFilePath = -66742,
    kAudioUnitErr_MissingKey = -66741,
    kAudioUnitErr_ComponentManagerNotSupported = -66740,
    kAudioUnitErr_MultipleVoiceProcessors = -66635,
};

typedef UInt32 AudioUnitPropertyID;
typedef UInt32 AudioUnitScope;
typedef UInt32 AudioUnitElement;
typedef UInt32 AudioUnitParameterID;
typedef Float32 AudioUnitParameterValue;

typedef CF_ENUM(UInt32, AUParameterEventType) {
    kParameterEvent_Immediate = 1,
    kParameterEvent_Ramped = 2,
};

/* A change to a parameter, now or ramped over a number of frames (AudioUnitScheduleParameters). */
typedef struct AudioUnitParameterEvent {
    AudioUnitScope scope;
    AudioUnitElement element;
    AudioUnitParameterID parameter;
    AUParameterEventType eventType;
    union {
        struct {
            SInt32 startBufferOffset;
            UInt32 durationInFrames;
            AudioUnitParameterValue startValue;
            AudioUnitParameterValue endValue;
        } ramp;
        struct {
            UInt32 bufferOffset;
            AudioUnitParameterValue value;
        } immediate;
    } eventValues;
} AudioUnitParameterEvent;

typedef struct AudioUnitParameter {
    AudioUnit mAudioUnit;
    AudioUnitParameterID mParameterID;
    AudioUnitScope mScope;
    AudioUnitElement mElement;
} AudioUnitParameter;

typedef struct AudioUnitProperty {
    AudioUnit mAudioUnit;
    AudioUnitPropertyID mPropertyID;
    AudioUnitScope mScope;
    AudioUnitElement mElement;
} AudioUnitProperty;

/* A render callback: a unit's input, or a render notification. */
typedef OSStatus (*AURenderCallback)(void *inRefCon, AudioUnitRenderActionFlags *ioActionFlags,
                                     const AudioTimeStamp *inTimeStamp, UInt32 inBusNumber, UInt32 inNumberFrames,
                                     AudioBufferList *_Nullable ioData);

typedef void (*AudioUnitPropertyListenerProc)(void *inRefCon, AudioUnit inUnit, AudioUnitPropertyID inID,
                                              AudioUnitScope inScope, AudioUnitElement inElement);

typedef void (*AUInputSamplesInOutputCallback)(void *inRefCon, const AudioTimeStamp *inOutputTimeStamp,
                                               Float64 inInputSample, Float64 inNumberInputSamples);

/* Initializes the unit: its formats are checked and its buffers allocated, so that it can render. */
AT_EXPORT OSStatus AudioUnitInitialize(AudioUnit inUnit);
/* Returns the unit to the state before AudioUnitInitialize, so that its formats can change. */
AT_EXPORT OSStatus AudioUnitUninitialize(AudioUnit inUnit);

/* The size of a property's value and whether it can be set (either may be NULL). */
AT_EXPORT OSStatus AudioUnitGetPropertyInfo(AudioUnit inUnit, AudioUnitPropertyID inID, AudioUnitScope inScope,
                                            AudioUnitElement inElement, UInt32 *_Nullable outDataSize,
                                            Boolean *_Nullable outWritable);
/* Copies a property's value into outData (*ioDataSize bytes at most); *ioDataSize is set to what
   was written. */
AT_EXPORT OSStatus AudioUnitGetProperty(AudioUnit inUnit, AudioUnitPropertyID inID, AudioUnitScope inScope,
                                        AudioUnitElement inElement, void *outData, UInt32 *ioDataSize);
/* Sets a property's value (NULL and 0: clears it, where the property allows). */
AT_EXPORT OSStatus AudioUnitSetProperty(AudioUnit inUnit, AudioUnitPropertyID inID, AudioUnitScope inScope,
                                        AudioUnitElement inElement, const void *_Nullable inData, UInt32 inDataSize);
/* Calls inProc with inProcUserData when the property changes, on any scope or element. */
AT_EXPORT OSStatus AudioUnitAddPropertyListener(AudioUnit inUnit, AudioUnitPropertyID inID,
                                                AudioUnitPropertyListenerProc inProc, void *_Nullable inProcUserData);
/* Removes the listener added with the same procedure and user data. */
AT_EXPORT OSStatus AudioUnitRemovePropertyListenerWithUserData(AudioUnit inUnit, AudioUnitPropertyID inID,
                                                               AudioUnitPropertyListenerProc inProc,
                                                               void *_Nullable inProcUserData);

/* Calls inProc before (kAudioUnitRenderAction_PreRender) and after
   (kAudioUnitRenderAction_PostRender, with the rendered audio) each render of the unit. */
AT_EXPORT OSStatus AudioUnitAddRenderNotify(AudioUnit inUnit, AURenderCallback inProc, void *_Nullable inProcUserData);
/* Removes the notification added with the same procedure and user data. */
AT_EXPORT OSStatus AudioUnitRemoveRenderNotify(AudioUnit inUnit, AURenderCallback inProc, void *_Nullable inProcUserData);

/* A parameter's value. */
AT_EXPORT OSStatus AudioUnitGetParameter(AudioUnit inUnit, AudioUnitParameterID inID, AudioUnitScope inScope,
                                         AudioUnitElement inElement, AudioUnitParameterValue *outValue);
/* Sets a parameter's value, from inBufferOffsetInFrames into the next render (usually 0). */
AT_EXPORT OSStatus AudioUnitSetParameter(AudioUnit inUnit, AudioUnitParameterID inID, AudioUnitScope inScope,
                                         AudioUnitElement inElement, AudioUnitParameterValue inValue,
                                         UInt32 inBufferOffsetInFrames);
/* Schedules immediate and ramped parameter changes within the next render. */
AT_EXPORT OSStatus AudioUnitScheduleParameters(AudioUnit inUnit, const AudioUnitParameterEvent *inParameterEvent,
                                               UInt32 inNumParamEvents);

/* Renders inNumberFrames frames of output bus inOutputBusNumber into ioData (into the unit's own
   buffers where ioData's mData pointers are NULL). */
AT_EXPORT OSStatus AudioUnitRender(AudioUnit inUnit, AudioUnitRenderActionFlags *_Nullable ioActionFlags,
                                   const AudioTimeStamp *inTimeStamp, UInt32 inOutputBusNumber, UInt32 inNumberFrames,
                                   AudioBufferList *ioData);
/* Processes ioData in place (an effect with one input and one output, and no render callback). */
AT_EXPORT OSStatus AudioUnitProcess(AudioUnit inUnit, AudioUnitRenderActionFlags *_Nullable ioActionFlags,
                                    const AudioTimeStamp *inTimeStamp, UInt32 inNumberFrames, AudioBufferList *ioData);
/* Processes several input buffer lists into several output buffer lists. */
AT_EXPORT OSStatus AudioUnitProcessMultiple(AudioUnit inUnit, AudioUnitRenderActionFlags *_Nullable ioActionFlags,
                                            const AudioTimeStamp *inTimeStamp, UInt32 inNumberFrames,
                                            UInt32 inNumberInputBufferLists,
                                            const AudioBufferList *_Nonnull *_Nonnull inInputBufferLists,
                                            UInt32 inNumberOutputBufferLists,
                                            AudioBufferList *_Nonnull *_Nonnull ioOutputBufferLists);
/* Clears the unit's render state (delay lines, filter history), keeping its allocations. */
AT_EXPORT OSStatus AudioUnitReset(AudioUnit inUnit, AudioUnitScope inScope, AudioUnitElement inElement);

/* The selectors of the unit's methods (AudioComponentPlugInInterface.Lookup). */
enum {
    kAudioUnitRange = 0x0000,
    kAudioUnitInitializeSelect = 0x0001,
    kAudioUnitUninitializeSelect = 0x0002,
    kAudioUnitGetPropertyInfoSelect = 0x0003,
    kAudioUnitGetPropertySelect = 0x0004,
    kAudioUnitSetPropertySelect = 0x0005,
    kAudioUnitAddPropertyListenerSelect = 0x000A,
    kAudioUnitRemovePropertyListenerSelect = 0x000B,
    kAudioUnitRemovePropertyListenerWithUserDataSelect = 0x0012,
    kAudioUnitAddRenderNotifySelect = 0x000F,
    kAudioUnitRemoveRenderNotifySelect = 0x0010,
    kAudioUnitGetParameterSelect = 0x0006,
    kAudioUnitSetParameterSelect = 0x0007,
    kAudioUnitScheduleParametersSelect = 0x0011,
    kAudioUnitRenderSelect = 0x000E,
    kAudioUnitResetSelect = 0x0009,
    kAudioUnitComplexRenderSelect = 0x0013,
    kAudioUnitProcessSelect = 0x0014,
    kAudioUnitProcessMultipleSelect = 0x0015,
};

/* The methods' signatures. */
typedef OSStatus (*AudioUnitInitializeProc)(void *self);
typedef OSStatus (*AudioUnitUninitializeProc)(void *self);
typedef OSStatus (*AudioUnitGetPropertyInfoProc)(void *self, AudioUnitPropertyID prop, AudioUnitScope scope, AudioUnitElement elem,
                                                 UInt32 *_Nullable outDataSize, Boolean *_Nullable outWritable);
typedef OSStatus (*AudioUnitGetPropertyProc)(void *self, AudioUnitPropertyID inID, AudioUnitScope inScope, AudioUnitElement inElement,
                                             void *outData, UInt32 *ioDataSize);
typedef OSStatus (*AudioUnitSetPropertyProc)(void *self, AudioUnitPropertyID inID, AudioUnitScope inScope, AudioUnitElement inElement,
                                             const void *inData, UInt32 inDataSize);
typedef OSStatus (*AudioUnitAddPropertyListenerProc)(void *self, AudioUnitPropertyID prop, AudioUnitPropertyListenerProc proc,
                                                     void *userData);
typedef OSStatus (*AudioUnitRemovePropertyListenerProc)(void *self, AudioUnitPropertyID prop, AudioUnitPropertyListenerProc proc);
typedef OSStatus (*AudioUnitRemovePropertyListenerWithUserDataProc)(void *self, AudioUnitPropertyID prop,
                                                                    AudioUnitPropertyListenerProc proc, void *_Nullable userData);
typedef OSStatus (*AudioUnitAddRenderNotifyProc)(void *self, AURenderCallback proc, void *_Nullable userData);
typedef OSStatus (*AudioUnitRemoveRenderNotifyProc)(void *self, AURenderCallback proc, void *_Nullable userData);
typedef OSStatus (*AudioUnitScheduleParametersProc)(void *self, const AudioUnitParameterEvent *events, UInt32 numEvents);
typedef OSStatus (*AudioUnitResetProc)(void *self, AudioUnitScope inScope, AudioUnitElement inElement);
typedef OSStatus (*AudioUnitComplexRenderProc)(void *self, AudioUnitRenderActionFlags *_Nullable ioActionFlags,
                                               const AudioTimeStamp *inTimeStamp, UInt32 inOutputBusNumber,
                                               UInt32 inNumberOfPackets, UInt32 *outNumberOfPackets,
                                               AudioStreamPacketDescription *outPacketDescriptions, AudioBufferList *ioData,
                                               void *outMetadata, UInt32 *outMetadataByteSize);
typedef OSStatus (*AudioUnitProcessProc)(void *self, AudioUnitRenderActionFlags *_Nullable ioActionFlags,
                                         const AudioTimeStamp *inTimeStamp, UInt32 inNumberFrames, AudioBufferList *ioData);
typedef OSStatus (*AudioUnitProcessMultipleProc)(void *self, AudioUnitRenderActionFlags *_Nullable ioActionFlags,
                                                 const AudioTimeStamp *inTimeStamp, UInt32 inNumberFrames,
                                                 UInt32 inNumberInputBufferLists,
                                                 const AudioBufferList *_Nonnull *_Nonnull inInputBufferLists,
                                                 UInt32 inNumberOutputBufferLists,
                                                 AudioBufferList *_Nonnull *_Nonnull ioOutputBufferLists);
typedef OSStatus (*AudioUnitGetParameterProc)(void *inComponentStorage, AudioUnitParameterID inID, AudioUnitScope inScope,
                                              AudioUnitElement inElement, AudioUnitParameterValue *outValue);
typedef OSStatus (*AudioUnitSetParameterProc)(void *inComponentStorage, AudioUnitParameterID inID, AudioUnitScope inScope,
                                              AudioUnitElement inElement, AudioUnitParameterValue inValue, UInt32 inBufferOffsetInFrames);
typedef OSStatus (*AudioUnitRenderProc)(void *inComponentStorage, AudioUnitRenderActionFlags *_Nullable ioActionFlags,
                                        const AudioTimeStamp *inTimeStamp, UInt32 inOutputBusNumber, UInt32 inNumberFrames,
                                        AudioBufferList *ioData);

/* Errors of instrument units (music devices). */
CF_ENUM(OSStatus) {
    kAudioUnitErr_IllegalInstrument = -10873,
    kAudioUnitErr_InstrumentTypeNotFound = -10872,
};

#if !defined(__LP64__)
/* Removes a listener by its procedure alone (replaced by
   AudioUnitRemovePropertyListenerWithUserData): a Mac declares it for 32-bit programs only. */
AT_EXPORT OSStatus AudioUnitRemovePropertyListener(AudioUnit inUnit, AudioUnitPropertyID inID,
                                                   AudioUnitPropertyListenerProc inProc);
#endif

AT_ASSUME_NONNULL_END
AT_EXTERN_C_END

#endif /* AudioToolbox_AUComponent_h */
