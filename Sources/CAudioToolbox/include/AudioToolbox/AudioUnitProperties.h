/*
 * AudioUnitProperties.h — the properties of Apple's audio units with Apple's names, values and
 * layouts: the scopes, the general property IDs (kAudioUnitProperty_StreamFormat,
 * SetRenderCallback, MaximumFramesPerSlice, …), the output units' (kAudioOutputUnitProperty_
 * CurrentDevice, EnableIO, SetInputCallback, …), the mixers', the converter's and the scheduled
 * players' IDs; the structures their values take (AURenderCallbackStruct, AudioUnitConnection,
 * AUChannelInfo, AUPreset, AudioUnitParameterInfo, …), the parameter units and flags, render
 * qualities and sample-rate converter complexities.
 *
 * swift-audio-queue. Apache License 2.0.
 */
#ifndef AudioToolbox_AudioUnitProperties_h
#define AudioToolbox_AudioUnitProperties_h

#include <AudioToolbox/AUComponent.h>

AT_EXTERN_C_BEGIN
AT_ASSUME_NONNULL_BEGIN

/* Scopes. */
CF_ENUM(AudioUnitScope) {
    kAudioUnitScope_Global = 0,
    kAudioUnitScope_Input = 1,
    kAudioUnitScope_Output = 2,
    kAudioUnitScope_Group = 3,
    kAudioUnitScope_Part = 4,
    kAudioUnitScope_Note = 5,
    kAudioUnitScope_Layer = 6,
    kAudioUnitScope_LayerItem = 7,
};

/* General properties. */
CF_ENUM(AudioUnitPropertyID) {
    kAudioUnitProperty_ClassInfo = 0,
    kAudioUnitProperty_MakeConnection = 1,
    kAudioUnitProperty_SampleRate = 2,
    kAudioUnitProperty_ParameterList = 3,
    kAudioUnitProperty_ParameterInfo = 4,
    kAudioUnitProperty_FastDispatch = 5,
    kAudioUnitProperty_CPULoad = 6,
    kAudioUnitProperty_StreamFormat = 8,
    kAudioUnitProperty_SRCAlgorithm = 9,
    kAudioUnitProperty_ReverbRoomType = 10,
    kAudioUnitProperty_BusCount = 11,
    kAudioUnitProperty_ElementCount = kAudioUnitProperty_BusCount,
    kAudioUnitProperty_Latency = 12,
    kAudioUnitProperty_SupportedNumChannels = 13,
    kAudioUnitProperty_MaximumFramesPerSlice = 14,
    kAudioUnitProperty_SetExternalBuffer = 15,
    kAudioUnitProperty_ParameterValueStrings = 16,
    kAudioUnitProperty_MIDIControlMapping = 17,
    kAudioUnitProperty_GetUIComponentList = 18,
    kAudioUnitProperty_AudioChannelLayout = 19,
    kAudioUnitProperty_TailTime = 20,
    kAudioUnitProperty_BypassEffect = 21,
    kAudioUnitProperty_LastRenderError = 22,
    kAudioUnitProperty_SetRenderCallback = 23,
    kAudioUnitProperty_FactoryPresets = 24,
    kAudioUnitProperty_ContextName = 25,
    kAudioUnitProperty_RenderQuality = 26,
    kAudioUnitProperty_HostCallbacks = 27,
    kAudioUnitProperty_CurrentPreset = 28,
    kAudioUnitProperty_InPlaceProcessing = 29,
    kAudioUnitProperty_ElementName = 30,
    kAudioUnitProperty_CocoaUI = 31,
    kAudioUnitProperty_SupportedChannelLayoutTags = 32,
    kAudioUnitProperty_ParameterStringFromValue = 33,
    kAudioUnitProperty_ParameterValueName = kAudioUnitProperty_ParameterStringFromValue,
    kAudioUnitProperty_ParameterIDName = 34,
    kAudioUnitProperty_ParameterClumpName = 35,
    kAudioUnitProperty_PresentPreset = 36,
    kAudioUnitProperty_OfflineRender = 37,
    kAudioUnitProperty_ParameterValueFromString = 38,
    kAudioUnitProperty_IconLocation = 39,
    kAudioUnitProperty_PresentationLatency = 40,
    kAudioUnitProperty_AllParameterMIDIMappings = 41,
    kAudioUnitProperty_AddParameterMIDIMapping = 42,
    kAudioUnitProperty_RemoveParameterMIDIMapping = 43,
    kAudioUnitProperty_HotMapParameterMIDIMapping = 44,
    kAudioUnitProperty_DependentParameters = 45,
    kAudioUnitProperty_AUHostIdentifier = 46,
    kAudioUnitProperty_MIDIOutputCallbackInfo = 47,
    kAudioUnitProperty_MIDIOutputCallback = 48,
    kAudioUnitProperty_InputSamplesInOutput = 49,
    kAudioUnitProperty_ClassInfoFromDocument = 50,
    kAudioUnitProperty_ShouldAllocateBuffer = 51,
    kAudioUnitProperty_FrequencyResponse = 52,
    kAudioUnitProperty_ParameterHistoryInfo = 53,
    kAudioUnitProperty_NickName = 54,
    kAudioUnitProperty_RequestViewController = 56,
    kAudioUnitProperty_ParametersForOverview = 57,
    kAudioUnitProperty_SupportsMPE = 58,
    kAudioUnitProperty_RenderContextObserver = 60,
    kAudioUnitProperty_LastRenderSampleTime = 61,
    kAudioUnitProperty_LoadedOutOfProcess = 62,
    kAudioUnitProperty_MIDIOutputEventListCallback = 63,
    kAudioUnitProperty_AudioUnitMIDIProtocol = 64,
    kAudioUnitProperty_HostMIDIProtocol = 65,
    kAudioUnitProperty_MIDIOutputBufferSizeHint = 66,
    kAudioUnitProperty_UsesInternalReverb = 1005,
};

/* Keys of a preset's class-info dictionary. */
#define kAUPresetVersionKey "version"
#define kAUPresetTypeKey "type"
#define kAUPresetSubtypeKey "subtype"
#define kAUPresetManufacturerKey "manufacturer"
#define kAUPresetDataKey "data"
#define kAUPresetNameKey "name"
#define kAUPresetNumberKey "preset-number"
#define kAUPresetRenderQualityKey "render-quality"
#define kAUPresetCPULoadKey "cpu-load"
#define kAUPresetElementNameKey "element-name"
#define kAUPresetExternalFileRefs "file-references"
#define kAUPresetVSTDataKey "vstdata"
#define kAUPresetVSTPresetKey "vstpreset"
#define kAUPresetMASDataKey "masdata"
#define kAUPresetPartKey "part"

/* kAudioUnitProperty_MakeConnection: a source unit's output to this unit's input. */
typedef struct AudioUnitConnection {
    AudioUnit _Nullable sourceAudioUnit;
    UInt32 sourceOutputNumber;
    UInt32 destInputNumber;
} AudioUnitConnection;

/* kAudioUnitProperty_SupportedNumChannels: -1 for any count, -2 for matching counts. */
typedef struct AUChannelInfo {
    SInt16 inChannels;
    SInt16 outChannels;
} AUChannelInfo;

typedef struct AudioUnitExternalBuffer {
    Byte *buffer;
    UInt32 size;
} AudioUnitExternalBuffer;

/* kAudioUnitProperty_SetRenderCallback and kAudioOutputUnitProperty_SetInputCallback. */
typedef struct AURenderCallbackStruct {
    AURenderCallback _Nullable inputProc;
    void *_Nullable inputProcRefCon;
} AURenderCallbackStruct;

typedef struct AUPreset {
    SInt32 presetNumber;
    CFStringRef _Nullable presetName;
} AUPreset;

/* kAudioUnitProperty_RenderQuality. */
enum {
    kRenderQuality_Max = 127,
    kRenderQuality_High = 96,
    kRenderQuality_Medium = 64,
    kRenderQuality_Low = 32,
    kRenderQuality_Min = 0,
};

enum {
    kNumberOfResponseFrequencies = 1024,
};

typedef struct AudioUnitFrequencyResponseBin {
    Float64 mFrequency;
    Float64 mMagnitude;
} AudioUnitFrequencyResponseBin;

/* kAudioUnitProperty_HostCallbacks: what a host tells its units of its transport. */
typedef OSStatus (*HostCallback_GetBeatAndTempo)(void *_Nullable inHostUserData, Float64 *_Nullable outCurrentBeat,
                                                 Float64 *_Nullable outCurrentTempo);
typedef OSStatus (*HostCallback_GetMusicalTimeLocation)(void *_Nullable inHostUserData, UInt32 *_Nullable outDeltaSampleOffsetToNextBeat,
                                                        Float32 *_Nullable outTimeSig_Numerator, UInt32 *_Nullable outTimeSig_Denominator,
                                                        Float64 *_Nullable outCurrentMeasureDownBeat);
typedef OSStatus (*HostCallback_GetTransportState)(void *_Nullable inHostUserData, Boolean *_Nullable outIsPlaying,
                                                   Boolean *_Nullable outTransportStateChanged, Float64 *_Nullable outCurrentSampleInTimeLine,
                                                   Boolean *_Nullable outIsCycling, Float64 *_Nullable outCycleStartBeat,
                                                   Float64 *_Nullable outCycleEndBeat);
typedef OSStatus (*HostCallback_GetTransportState2)(void *_Nullable inHostUserData, Boolean *_Nullable outIsPlaying,
                                                    Boolean *_Nullable outIsRecording, Boolean *_Nullable outTransportStateChanged,
                                                    Float64 *_Nullable outCurrentSampleInTimeLine, Boolean *_Nullable outIsCycling,
                                                    Float64 *_Nullable outCycleStartBeat, Float64 *_Nullable outCycleEndBeat);

typedef struct HostCallbackInfo {
    void *_Nullable hostUserData;
    HostCallback_GetBeatAndTempo _Nullable beatAndTempoProc;
    HostCallback_GetMusicalTimeLocation _Nullable musicalTimeLocationProc;
    HostCallback_GetTransportState _Nullable transportStateProc;
    HostCallback_GetTransportState2 _Nullable transportStateProc2;
} HostCallbackInfo;

typedef struct AUDependentParameter {
    AudioUnitScope mScope;
    AudioUnitParameterID mParameterID;
} AUDependentParameter;

typedef struct AudioUnitCocoaViewInfo {
    CFURLRef mCocoaAUViewBundleLocation;
    CFStringRef _Nonnull mCocoaAUViewClass[1];
} AudioUnitCocoaViewInfo;

typedef struct AUHostVersionIdentifier {
    CFStringRef hostName;
    UInt32 hostVersion;
} AUHostVersionIdentifier;

/* kAudioUnitProperty_InputSamplesInOutput. */
typedef struct AUInputSamplesInOutputCallbackStruct {
    AUInputSamplesInOutputCallback inputToOutputCallback;
    void *_Nullable userData;
} AUInputSamplesInOutputCallbackStruct;

typedef struct AudioUnitParameterHistoryInfo {
    Float32 updatesPerSecond;
    Float32 historyDurationInSeconds;
} AudioUnitParameterHistoryInfo;

/* Parameters: their units, flags and description (kAudioUnitProperty_ParameterInfo). */
typedef CF_ENUM(UInt32, AudioUnitParameterUnit) {
    kAudioUnitParameterUnit_Generic = 0,
    kAudioUnitParameterUnit_Indexed = 1,
    kAudioUnitParameterUnit_Boolean = 2,
    kAudioUnitParameterUnit_Percent = 3,
    kAudioUnitParameterUnit_Seconds = 4,
    kAudioUnitParameterUnit_SampleFrames = 5,
    kAudioUnitParameterUnit_Phase = 6,
    kAudioUnitParameterUnit_Rate = 7,
    kAudioUnitParameterUnit_Hertz = 8,
    kAudioUnitParameterUnit_Cents = 9,
    kAudioUnitParameterUnit_RelativeSemiTones = 10,
    kAudioUnitParameterUnit_MIDINoteNumber = 11,
    kAudioUnitParameterUnit_MIDIController = 12,
    kAudioUnitParameterUnit_Decibels = 13,
    kAudioUnitParameterUnit_LinearGain = 14,
    kAudioUnitParameterUnit_Degrees = 15,
    kAudioUnitParameterUnit_EqualPowerCrossfade = 16,
    kAudioUnitParameterUnit_MixerFaderCurve1 = 17,
    kAudioUnitParameterUnit_Pan = 18,
    kAudioUnitParameterUnit_Meters = 19,
    kAudioUnitParameterUnit_AbsoluteCents = 20,
    kAudioUnitParameterUnit_Octaves = 21,
    kAudioUnitParameterUnit_BPM = 22,
    kAudioUnitParameterUnit_Beats = 23,
    kAudioUnitParameterUnit_Milliseconds = 24,
    kAudioUnitParameterUnit_Ratio = 25,
    kAudioUnitParameterUnit_CustomUnit = 26,
    kAudioUnitParameterUnit_MIDI2Controller = 27,
};

typedef CF_OPTIONS(UInt32, AudioUnitParameterOptions) {
    kAudioUnitParameterFlag_CFNameRelease = (1U << 4),
    kAudioUnitParameterFlag_OmitFromPresets = (1U << 13),
    kAudioUnitParameterFlag_PlotHistory = (1U << 14),
    kAudioUnitParameterFlag_MeterReadOnly = (1U << 15),
    kAudioUnitParameterFlag_DisplayMask = (7U << 16) | (1U << 22),
    kAudioUnitParameterFlag_DisplaySquareRoot = (1U << 16),
    kAudioUnitParameterFlag_DisplaySquared = (2U << 16),
    kAudioUnitParameterFlag_DisplayCubed = (3U << 16),
    kAudioUnitParameterFlag_DisplayCubeRoot = (4U << 16),
    kAudioUnitParameterFlag_DisplayExponential = (5U << 16),
    kAudioUnitParameterFlag_HasClump = (1U << 20),
    kAudioUnitParameterFlag_ValuesHaveStrings = (1U << 21),
    kAudioUnitParameterFlag_DisplayLogarithmic = (1U << 22),
    kAudioUnitParameterFlag_IsHighResolution = (1U << 23),
    kAudioUnitParameterFlag_NonRealTime = (1U << 24),
    kAudioUnitParameterFlag_CanRamp = (1U << 25),
    kAudioUnitParameterFlag_ExpertMode = (1U << 26),
    kAudioUnitParameterFlag_HasCFNameString = (1U << 27),
    kAudioUnitParameterFlag_IsGlobalMeta = (1U << 28),
    kAudioUnitParameterFlag_IsElementMeta = (1U << 29),
    kAudioUnitParameterFlag_IsReadable = (1U << 30),
    kAudioUnitParameterFlag_IsWritable = (1U << 31),
};

typedef struct AudioUnitParameterInfo {
    char name[52];
    CFStringRef _Nullable unitName;
    UInt32 clumpID;
    CFStringRef _Nullable cfNameString;
    AudioUnitParameterUnit unit;
    AudioUnitParameterValue minValue;
    AudioUnitParameterValue maxValue;
    AudioUnitParameterValue defaultValue;
    AudioUnitParameterOptions flags;
} AudioUnitParameterInfo;

enum {
    kAudioUnitClumpID_System = 0,
};

/* The display transforms of AudioUnitParameterOptions. */
#define GetAudioUnitParameterDisplayType(flags) ((flags) & kAudioUnitParameterFlag_DisplayMask)
#define SetAudioUnitParameterDisplayType(flags, displayType) (((flags) & ~kAudioUnitParameterFlag_DisplayMask) | (displayType))
#define AudioUnitDisplayTypeIsLogarithmic(flags) (GetAudioUnitParameterDisplayType(flags) == kAudioUnitParameterFlag_DisplayLogarithmic)
#define AudioUnitDisplayTypeIsSquareRoot(flags) (GetAudioUnitParameterDisplayType(flags) == kAudioUnitParameterFlag_DisplaySquareRoot)
#define AudioUnitDisplayTypeIsSquared(flags) (GetAudioUnitParameterDisplayType(flags) == kAudioUnitParameterFlag_DisplaySquared)
#define AudioUnitDisplayTypeIsCubed(flags) (GetAudioUnitParameterDisplayType(flags) == kAudioUnitParameterFlag_DisplayCubed)
#define AudioUnitDisplayTypeIsCubeRoot(flags) (GetAudioUnitParameterDisplayType(flags) == kAudioUnitParameterFlag_DisplayCubeRoot)
#define AudioUnitDisplayTypeIsExponential(flags) (GetAudioUnitParameterDisplayType(flags) == kAudioUnitParameterFlag_DisplayExponential)

enum {
    kAudioUnitParameterName_Full = -1,
};

typedef struct AudioUnitParameterNameInfo {
    AudioUnitParameterID inID;
    SInt32 inDesiredLength;
    CFStringRef _Nullable outName;
} AudioUnitParameterIDName;

typedef struct AudioUnitParameterStringFromValue {
    AudioUnitParameterID inParamID;
    const AudioUnitParameterValue *inValue;
    CFStringRef _Nullable outString;
} AudioUnitParameterStringFromValue;

typedef struct AudioUnitParameterValueFromString {
    AudioUnitParameterID inParamID;
    CFStringRef inString;
    AudioUnitParameterValue outValue;
} AudioUnitParameterValueFromString;

/* Output units (AUHAL, the default and system outputs, the generic output). */
CF_ENUM(AudioUnitPropertyID) {
    kAudioOutputUnitProperty_CurrentDevice = 2000,
    kAudioOutputUnitProperty_IsRunning = 2001,
    kAudioOutputUnitProperty_ChannelMap = 2002,
    kAudioOutputUnitProperty_EnableIO = 2003,
    kAudioOutputUnitProperty_StartTime = 2004,
    kAudioOutputUnitProperty_SetInputCallback = 2005,
    kAudioOutputUnitProperty_HasIO = 2006,
    kAudioOutputUnitProperty_StartTimestampsAtZero = 2007,
    kAudioOutputUnitProperty_MIDICallbacks = 2010,
    kAudioOutputUnitProperty_HostReceivesRemoteControlEvents = 2011,
    kAudioOutputUnitProperty_RemoteControlToHost = 2012,
    kAudioOutputUnitProperty_HostTransportState = 2013,
    kAudioOutputUnitProperty_NodeComponentDescription = 2014,
    kAudioOutputUnitProperty_OSWorkgroup = 2015,
};

/* kAudioOutputUnitProperty_StartTime. */
typedef struct AudioOutputUnitStartAtTimeParams {
    AudioTimeStamp mTimestamp;
    UInt32 mFlags;
} AudioOutputUnitStartAtTimeParams;

/* Mixers, the converter, the scheduled players and the deferred renderer. */
CF_ENUM(AudioUnitPropertyID) {
    kAudioUnitProperty_SpatializationAlgorithm = 3000,
    kAudioUnitProperty_DopplerShift = 3002,
    kAudioUnitProperty_3DMixerRenderingFlags = 3003,
    kAudioUnitProperty_SpatialMixerRenderingFlags = 3003,
    kAudioUnitProperty_3DMixerDistanceAtten = 3004,
    kAudioUnitProperty_SpatialMixerSourceMode = 3005,
    kAudioUnitProperty_MatrixLevels = 3006,
    kAudioUnitProperty_MeteringMode = 3007,
    kAudioUnitProperty_MatrixDimensions = 3009,
    kAudioUnitProperty_3DMixerDistanceParams = 3010,
    kAudioUnitProperty_SpatialMixerDistanceParams = 3010,
    kAudioUnitProperty_MeterClipping = 3011,
    kAudioUnitProperty_ReverbPreset = 3012,
    kAudioUnitProperty_3DMixerAttenuationCurve = 3013,
    kAudioUnitProperty_SpatialMixerAttenuationCurve = 3013,
    kAudioUnitProperty_SampleRateConverterComplexity = 3014,
    kAudioUnitProperty_InputAnchorTimeStamp = 3016,
    kAudioUnitProperty_ScheduleAudioSlice = 3300,
    kAudioUnitProperty_ScheduleStartTimeStamp = 3301,
    kAudioUnitProperty_CurrentPlayTime = 3302,
    kAudioUnitProperty_ScheduledFileIDs = 3310,
    kAudioUnitProperty_ScheduledFileRegion = 3311,
    kAudioUnitProperty_ScheduledFilePrime = 3312,
    kAudioUnitProperty_ScheduledFileBufferSizeFrames = 3313,
    kAudioUnitProperty_ScheduledFileNumberBuffers = 3314,
    kAudioUnitProperty_DeferredRendererPullSize = 3320,
    kAudioUnitProperty_DeferredRendererExtraLatency = 3321,
    kAudioUnitProperty_DeferredRendererWaitFrames = 3322,
};

/* kAudioUnitProperty_SampleRateConverterComplexity (AUConverter). */
CF_ENUM(UInt32) {
    kAudioUnitSampleRateConverterComplexity_Linear = 0x6C696E65, /* 'line' */
    kAudioUnitSampleRateConverterComplexity_Normal = 0x6E6F726D, /* 'norm' */
    kAudioUnitSampleRateConverterComplexity_Mastering = 0x62617473, /* 'bats' */
};

/* kAudioUnitProperty_MeteringMode and the mixers' metering. */
typedef struct AudioUnitMeterClipping {
    Float32 peakValueSinceLastCall;
    Boolean sawInfinity;
    Boolean sawNotANumber;
} AudioUnitMeterClipping;

/* kAudioUnitProperty_SpatializationAlgorithm. */
typedef CF_ENUM(UInt32, AUSpatializationAlgorithm) {
    kSpatializationAlgorithm_EqualPowerPanning = 0,
    kSpatializationAlgorithm_SphericalHead = 1,
    kSpatializationAlgorithm_HRTF = 2,
    kSpatializationAlgorithm_SoundField = 3,
    kSpatializationAlgorithm_VectorBasedPanning = 4,
    kSpatializationAlgorithm_StereoPassThrough = 5,
    kSpatializationAlgorithm_HRTFHQ = 6,
    kSpatializationAlgorithm_UseOutputType = 7,
};

/* The scheduled sound player's slices (kAudioUnitProperty_ScheduleAudioSlice). */
typedef CF_OPTIONS(UInt32, AUScheduledAudioSliceFlags) {
    kScheduledAudioSliceFlag_Complete = 0x01,
    kScheduledAudioSliceFlag_BeganToRender = 0x02,
    kScheduledAudioSliceFlag_BeganToRenderLate = 0x04,
    kScheduledAudioSliceFlag_Loop = 0x08,
    kScheduledAudioSliceFlag_Interrupt = 0x10,
    kScheduledAudioSliceFlag_InterruptAtLoop = 0x20,
};

struct ScheduledAudioSlice;
typedef void (*ScheduledAudioSliceCompletionProc)(void *_Nullable userData, struct ScheduledAudioSlice *bufferList);

typedef struct ScheduledAudioSlice {
    AudioTimeStamp mTimeStamp;
    ScheduledAudioSliceCompletionProc _Nullable mCompletionProc;
    void *mCompletionProcUserData;
    AUScheduledAudioSliceFlags mFlags;
    UInt32 mReserved;
    void *_Nullable mReserved2;
    UInt32 mNumberFrames;
    AudioBufferList *mBufferList;
} ScheduledAudioSlice;

AT_ASSUME_NONNULL_END
AT_EXTERN_C_END

#endif /* AudioToolbox_AudioUnitProperties_h */
