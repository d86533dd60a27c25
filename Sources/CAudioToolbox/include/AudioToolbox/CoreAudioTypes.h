/*
 * CoreAudioTypes.h — Core Audio's shared types with Apple's names, values and 64-bit layouts:
 * everything Apple's CoreAudioTypes.h (CoreAudioBaseTypes.h) declares — the general error codes,
 * AudioValueRange/Translation, AudioBuffer(List), AudioStreamBasicDescription with every format
 * ID and flag, AudioStreamPacketDescription, SMPTETime, AudioTimeStamp, AudioClassDescription,
 * every AudioChannelLabel, AudioChannelBitmap bit, AudioChannelFlags, coordinate index and
 * AudioChannelLayoutTag, AudioChannelLayout, AudioFormatListItem and MPEG4ObjectID — and the
 * inline helpers Apple defines (AudioChannelLayoutTag_GetNumberOfChannels, TestAudioFormatNativeEndian;
 * for C++ IsAudioFormatNativeEndian, CalculateLPCMFlags, FillOutASBDForLPCM and the
 * FillOutAudioTimeStamp… functions). AudioSampleType, AudioUnitSampleType and the "canonical"
 * flags are declared without Apple's deprecation attribute.
 *
 * swift-audio-queue. Apache License 2.0.
 */
#ifndef AudioToolbox_CoreAudioTypes_h
#define AudioToolbox_CoreAudioTypes_h

#include <AudioToolbox/ATBase.h>

#define COREAUDIOTYPES_VERSION 20150414

#if defined(__cplusplus)
    #include <string.h>
#endif

AT_EXTERN_C_BEGIN

/* General error codes. */
CF_ENUM(OSStatus) {
    kAudio_UnimplementedError = -4,
    kAudio_FileNotFoundError = -43,
    kAudio_FilePermissionError = -54,
    kAudio_TooManyFilesOpenError = -42,
    kAudio_BadFilePathError = 0x21707468,   /* '!pth' */
    kAudio_ParamError = -50,
    kAudio_MemFullError = -108,
};

typedef struct AudioValueRange {
    Float64 mMinimum;
    Float64 mMaximum;
} AudioValueRange;

/* The buffers of a translation (a HAL property's value from a name, and back). Declared once
   under AT_AUDIO_VALUE_TRANSLATION_DECLARED, which the HAL's header tests too. */
#ifndef AT_AUDIO_VALUE_TRANSLATION_DECLARED
#define AT_AUDIO_VALUE_TRANSLATION_DECLARED 1
typedef struct AudioValueTranslation {
    void *_Nonnull mInputData;
    UInt32 mInputDataSize;
    void *_Nonnull mOutputData;
    UInt32 mOutputDataSize;
} AudioValueTranslation;
#endif

/* A codec's class: component type, subtype and manufacturer (AudioConverterNewSpecific). */
typedef struct AudioClassDescription {
    OSType mType;
    OSType mSubType;
    OSType mManufacturer;
} AudioClassDescription;

typedef struct AudioBuffer {
    UInt32 mNumberChannels;
    UInt32 mDataByteSize;
    void *_Nullable mData;
} AudioBuffer;

typedef struct AudioBufferList {
    UInt32 mNumberBuffers;
    AudioBuffer mBuffers[1]; /* mNumberBuffers of them */
} AudioBufferList;

typedef Float32 AudioSampleType;
typedef Float32 AudioUnitSampleType;

typedef UInt32 AudioFormatID;
typedef UInt32 AudioFormatFlags;

typedef struct AudioStreamBasicDescription {
    Float64 mSampleRate;
    AudioFormatID mFormatID;
    AudioFormatFlags mFormatFlags;
    UInt32 mBytesPerPacket;
    UInt32 mFramesPerPacket;
    UInt32 mBytesPerFrame;
    UInt32 mChannelsPerFrame;
    UInt32 mBitsPerChannel;
    UInt32 mReserved;
} AudioStreamBasicDescription;

static const Float64 kAudioStreamAnyRate = 0.0;

CF_ENUM(AudioFormatID) {
    kAudioFormatLinearPCM = 0x6C70636D,          /* 'lpcm' */
    kAudioFormatAC3 = 0x61632D33,                /* 'ac-3' */
    kAudioFormat60958AC3 = 0x63616333,           /* 'cac3' */
    kAudioFormatAppleIMA4 = 0x696D6134,          /* 'ima4' */
    kAudioFormatMPEG4AAC = 0x61616320,           /* 'aac ' */
    kAudioFormatMPEG4CELP = 0x63656C70,          /* 'celp' */
    kAudioFormatMPEG4HVXC = 0x68767863,          /* 'hvxc' */
    kAudioFormatMPEG4TwinVQ = 0x74777671,        /* 'twvq' */
    kAudioFormatMACE3 = 0x4D414333,              /* 'MAC3' */
    kAudioFormatMACE6 = 0x4D414336,              /* 'MAC6' */
    kAudioFormatULaw = 0x756C6177,               /* 'ulaw' */
    kAudioFormatALaw = 0x616C6177,               /* 'alaw' */
    kAudioFormatQDesign = 0x51444D43,            /* 'QDMC' */
    kAudioFormatQDesign2 = 0x51444D32,           /* 'QDM2' */
    kAudioFormatQUALCOMM = 0x51636C70,           /* 'Qclp' */
    kAudioFormatMPEGLayer1 = 0x2E6D7031,         /* '.mp1' */
    kAudioFormatMPEGLayer2 = 0x2E6D7032,         /* '.mp2' */
    kAudioFormatMPEGLayer3 = 0x2E6D7033,         /* '.mp3' */
    kAudioFormatTimeCode = 0x74696D65,           /* 'time' */
    kAudioFormatMIDIStream = 0x6D696469,         /* 'midi' */
    kAudioFormatParameterValueStream = 0x61707673, /* 'apvs' */
    kAudioFormatAppleLossless = 0x616C6163,      /* 'alac' */
    kAudioFormatMPEG4AAC_HE = 0x61616368,        /* 'aach' */
    kAudioFormatMPEG4AAC_LD = 0x6161636C,        /* 'aacl' */
    kAudioFormatMPEG4AAC_ELD = 0x61616365,       /* 'aace' */
    kAudioFormatMPEG4AAC_ELD_SBR = 0x61616366,   /* 'aacf' */
    kAudioFormatMPEG4AAC_ELD_V2 = 0x61616367,    /* 'aacg' */
    kAudioFormatMPEG4AAC_HE_V2 = 0x61616370,     /* 'aacp' */
    kAudioFormatMPEG4AAC_Spatial = 0x61616373,   /* 'aacs' */
    kAudioFormatMPEGD_USAC = 0x75736163,         /* 'usac' */
    kAudioFormatAMR = 0x73616D72,                /* 'samr' */
    kAudioFormatAMR_WB = 0x73617762,             /* 'sawb' */
    kAudioFormatAudible = 0x41554442,            /* 'AUDB' */
    kAudioFormatiLBC = 0x696C6263,               /* 'ilbc' */
    kAudioFormatDVIIntelIMA = 0x6D730011,
    kAudioFormatMicrosoftGSM = 0x6D730031,
    kAudioFormatAES3 = 0x61657333,               /* 'aes3' */
    kAudioFormatEnhancedAC3 = 0x65632D33,        /* 'ec-3' */
    kAudioFormatFLAC = 0x666C6163,               /* 'flac' */
    kAudioFormatOpus = 0x6F707573,               /* 'opus' */
};

CF_ENUM(AudioFormatFlags) {
    kAudioFormatFlagIsFloat = (1U << 0),
    kAudioFormatFlagIsBigEndian = (1U << 1),
    kAudioFormatFlagIsSignedInteger = (1U << 2),
    kAudioFormatFlagIsPacked = (1U << 3),
    kAudioFormatFlagIsAlignedHigh = (1U << 4),
    kAudioFormatFlagIsNonInterleaved = (1U << 5),
    kAudioFormatFlagIsNonMixable = (1U << 6),
    kAudioFormatFlagsAreAllClear = 0x80000000U,

    kLinearPCMFormatFlagIsFloat = kAudioFormatFlagIsFloat,
    kLinearPCMFormatFlagIsBigEndian = kAudioFormatFlagIsBigEndian,
    kLinearPCMFormatFlagIsSignedInteger = kAudioFormatFlagIsSignedInteger,
    kLinearPCMFormatFlagIsPacked = kAudioFormatFlagIsPacked,
    kLinearPCMFormatFlagIsAlignedHigh = kAudioFormatFlagIsAlignedHigh,
    kLinearPCMFormatFlagIsNonInterleaved = kAudioFormatFlagIsNonInterleaved,
    kLinearPCMFormatFlagIsNonMixable = kAudioFormatFlagIsNonMixable,
    kLinearPCMFormatFlagsSampleFractionShift = 7,
    kLinearPCMFormatFlagsSampleFractionMask = (0x3FU << kLinearPCMFormatFlagsSampleFractionShift),
    kLinearPCMFormatFlagsAreAllClear = kAudioFormatFlagsAreAllClear,

    kAppleLosslessFormatFlag_16BitSourceData = 1,
    kAppleLosslessFormatFlag_20BitSourceData = 2,
    kAppleLosslessFormatFlag_24BitSourceData = 3,
    kAppleLosslessFormatFlag_32BitSourceData = 4,
};

/* Linux runs little-endian on every machine this builds for. */
CF_ENUM(AudioFormatFlags) {
    kAudioFormatFlagsNativeEndian = 0,
    kAudioFormatFlagsCanonical = kAudioFormatFlagIsFloat | kAudioFormatFlagsNativeEndian | kAudioFormatFlagIsPacked,
    kAudioFormatFlagsAudioUnitCanonical = kAudioFormatFlagIsFloat | kAudioFormatFlagsNativeEndian | kAudioFormatFlagIsPacked | kAudioFormatFlagIsNonInterleaved,
    kAudioFormatFlagsNativeFloatPacked = kAudioFormatFlagIsFloat | kAudioFormatFlagsNativeEndian | kAudioFormatFlagIsPacked,
};

/** Whether an ASBD describes native-endian linear PCM. */
#define TestAudioFormatNativeEndian(f) ((f.mFormatID == kAudioFormatLinearPCM) && ((f.mFormatFlags & kAudioFormatFlagIsBigEndian) == kAudioFormatFlagsNativeEndian))

#if defined(__cplusplus)
/** Whether an ASBD describes native-endian linear PCM. */
static inline bool IsAudioFormatNativeEndian(const AudioStreamBasicDescription &f) {
    return (f.mFormatID == kAudioFormatLinearPCM) && ((f.mFormatFlags & kAudioFormatFlagIsBigEndian) == kAudioFormatFlagsNativeEndian);
}

/** The linear PCM flags of signed integer or float samples, packed or aligned high. */
static inline AudioFormatFlags CalculateLPCMFlags(UInt32 inValidBitsPerChannel, UInt32 inTotalBitsPerChannel, bool inIsFloat, bool inIsBigEndian, bool inIsNonInterleaved = false) {
    return (inIsFloat ? kAudioFormatFlagIsFloat : kAudioFormatFlagIsSignedInteger) | (inIsBigEndian ? ((UInt32)kAudioFormatFlagIsBigEndian) : 0)
        | ((inValidBitsPerChannel == inTotalBitsPerChannel) ? kAudioFormatFlagIsPacked : kAudioFormatFlagIsAlignedHigh)
        | (inIsNonInterleaved ? ((UInt32)kAudioFormatFlagIsNonInterleaved) : 0);
}

/** Fills an ASBD with a linear PCM format. */
static inline void FillOutASBDForLPCM(AudioStreamBasicDescription &outASBD, Float64 inSampleRate, UInt32 inChannelsPerFrame, UInt32 inValidBitsPerChannel, UInt32 inTotalBitsPerChannel, bool inIsFloat, bool inIsBigEndian, bool inIsNonInterleaved = false) {
    outASBD.mSampleRate = inSampleRate;
    outASBD.mFormatID = kAudioFormatLinearPCM;
    outASBD.mFormatFlags = CalculateLPCMFlags(inValidBitsPerChannel, inTotalBitsPerChannel, inIsFloat, inIsBigEndian, inIsNonInterleaved);
    outASBD.mBytesPerPacket = (inIsNonInterleaved ? 1 : inChannelsPerFrame) * (inTotalBitsPerChannel / 8);
    outASBD.mFramesPerPacket = 1;
    outASBD.mBytesPerFrame = (inIsNonInterleaved ? 1 : inChannelsPerFrame) * (inTotalBitsPerChannel / 8);
    outASBD.mChannelsPerFrame = inChannelsPerFrame;
    outASBD.mBitsPerChannel = inValidBitsPerChannel;
}
#endif

typedef struct AudioStreamPacketDescription {
    SInt64 mStartOffset;
    UInt32 mVariableFramesInPacket;
    UInt32 mDataByteSize;
} AudioStreamPacketDescription;

/* Time stamps. SMPTETime is also declared by CoreVideo, under the same guard. */
#if !defined(__SMPTETime__)
#define __SMPTETime__
typedef CF_ENUM(UInt32, SMPTETimeType) {
    kSMPTETimeType24 = 0,
    kSMPTETimeType25 = 1,
    kSMPTETimeType30Drop = 2,
    kSMPTETimeType30 = 3,
    kSMPTETimeType2997 = 4,
    kSMPTETimeType2997Drop = 5,
    kSMPTETimeType60 = 6,
    kSMPTETimeType5994 = 7,
    kSMPTETimeType60Drop = 8,
    kSMPTETimeType5994Drop = 9,
    kSMPTETimeType50 = 10,
    kSMPTETimeType2398 = 11,
};

typedef CF_OPTIONS(UInt32, SMPTETimeFlags) {
    kSMPTETimeUnknown = 0,
    kSMPTETimeValid = (1U << 0),
    kSMPTETimeRunning = (1U << 1),
};

typedef struct SMPTETime {
    SInt16 mSubframes;
    SInt16 mSubframeDivisor;
    UInt32 mCounter;
    SMPTETimeType mType;
    SMPTETimeFlags mFlags;
    SInt16 mHours;
    SInt16 mMinutes;
    SInt16 mSeconds;
    SInt16 mFrames;
} SMPTETime;
#endif

typedef CF_OPTIONS(UInt32, AudioTimeStampFlags) {
    kAudioTimeStampNothingValid = 0,
    kAudioTimeStampSampleTimeValid = (1U << 0),
    kAudioTimeStampHostTimeValid = (1U << 1),
    kAudioTimeStampRateScalarValid = (1U << 2),
    kAudioTimeStampWordClockTimeValid = (1U << 3),
    kAudioTimeStampSMPTETimeValid = (1U << 4),
    kAudioTimeStampSampleHostTimeValid = (kAudioTimeStampSampleTimeValid | kAudioTimeStampHostTimeValid),
};

typedef struct AudioTimeStamp {
    Float64 mSampleTime;
    UInt64 mHostTime;
    Float64 mRateScalar;
    UInt64 mWordClockTime;
    SMPTETime mSMPTETime;
    AudioTimeStampFlags mFlags;
    UInt32 mReserved;
} AudioTimeStamp;

#if defined(__cplusplus)
/** Fills a time stamp with a sample time only. */
static inline void FillOutAudioTimeStampWithSampleTime(AudioTimeStamp &outATS, Float64 inSampleTime) {
    outATS.mSampleTime = inSampleTime; outATS.mHostTime = 0; outATS.mRateScalar = 0; outATS.mWordClockTime = 0;
    memset(&outATS.mSMPTETime, 0, sizeof(SMPTETime)); outATS.mFlags = kAudioTimeStampSampleTimeValid;
}
/** Fills a time stamp with a host time only. */
static inline void FillOutAudioTimeStampWithHostTime(AudioTimeStamp &outATS, UInt64 inHostTime) {
    outATS.mSampleTime = 0; outATS.mHostTime = inHostTime; outATS.mRateScalar = 0; outATS.mWordClockTime = 0;
    memset(&outATS.mSMPTETime, 0, sizeof(SMPTETime)); outATS.mFlags = kAudioTimeStampHostTimeValid;
}
/** Fills a time stamp with a sample time and a host time. */
static inline void FillOutAudioTimeStampWithSampleAndHostTime(AudioTimeStamp &outATS, Float64 inSampleTime, UInt64 inHostTime) {
    outATS.mSampleTime = inSampleTime; outATS.mHostTime = inHostTime; outATS.mRateScalar = 0; outATS.mWordClockTime = 0;
    memset(&outATS.mSMPTETime, 0, sizeof(SMPTETime)); outATS.mFlags = kAudioTimeStampSampleTimeValid | kAudioTimeStampHostTimeValid;
}
#endif

/* Channel layouts. */
typedef UInt32 AudioChannelLabel;
typedef UInt32 AudioChannelLayoutTag;

CF_ENUM(AudioChannelLabel) {
    kAudioChannelLabel_Unknown = 0xFFFFFFFFU,
    kAudioChannelLabel_Unused = 0,
    kAudioChannelLabel_UseCoordinates = 100,

    kAudioChannelLabel_Left = 1,
    kAudioChannelLabel_Right = 2,
    kAudioChannelLabel_Center = 3,
    kAudioChannelLabel_LFEScreen = 4,
    kAudioChannelLabel_LeftSurround = 5,
    kAudioChannelLabel_RightSurround = 6,
    kAudioChannelLabel_LeftCenter = 7,
    kAudioChannelLabel_RightCenter = 8,
    kAudioChannelLabel_CenterSurround = 9,
    kAudioChannelLabel_LeftSurroundDirect = 10,
    kAudioChannelLabel_RightSurroundDirect = 11,
    kAudioChannelLabel_TopCenterSurround = 12,
    kAudioChannelLabel_VerticalHeightLeft = 13,
    kAudioChannelLabel_VerticalHeightCenter = 14,
    kAudioChannelLabel_VerticalHeightRight = 15,
    kAudioChannelLabel_TopBackLeft = 16,
    kAudioChannelLabel_TopBackCenter = 17,
    kAudioChannelLabel_TopBackRight = 18,
    kAudioChannelLabel_RearSurroundLeft = 33,
    kAudioChannelLabel_RearSurroundRight = 34,
    kAudioChannelLabel_LeftWide = 35,
    kAudioChannelLabel_RightWide = 36,
    kAudioChannelLabel_LFE2 = 37,
    kAudioChannelLabel_LeftTotal = 38,
    kAudioChannelLabel_RightTotal = 39,
    kAudioChannelLabel_HearingImpaired = 40,
    kAudioChannelLabel_Narration = 41,
    kAudioChannelLabel_Mono = 42,
    kAudioChannelLabel_DialogCentricMix = 43,
    kAudioChannelLabel_CenterSurroundDirect = 44,
    kAudioChannelLabel_Haptic = 45,
    kAudioChannelLabel_LeftTopFront = kAudioChannelLabel_VerticalHeightLeft,
    kAudioChannelLabel_CenterTopFront = kAudioChannelLabel_VerticalHeightCenter,
    kAudioChannelLabel_RightTopFront = kAudioChannelLabel_VerticalHeightRight,
    kAudioChannelLabel_LeftTopMiddle = 49,
    kAudioChannelLabel_CenterTopMiddle = kAudioChannelLabel_TopCenterSurround,
    kAudioChannelLabel_RightTopMiddle = 51,
    kAudioChannelLabel_LeftTopRear = 52,
    kAudioChannelLabel_CenterTopRear = 53,
    kAudioChannelLabel_RightTopRear = 54,
    kAudioChannelLabel_LeftSideSurround = 55,
    kAudioChannelLabel_RightSideSurround = 56,
    kAudioChannelLabel_LeftBottom = 57,
    kAudioChannelLabel_RightBottom = 58,
    kAudioChannelLabel_CenterBottom = 59,
    kAudioChannelLabel_LeftTopSurround = 60,
    kAudioChannelLabel_RightTopSurround = 61,
    kAudioChannelLabel_LFE3 = 62,
    kAudioChannelLabel_LeftBackSurround = 63,
    kAudioChannelLabel_RightBackSurround = 64,
    kAudioChannelLabel_LeftEdgeOfScreen = 65,
    kAudioChannelLabel_RightEdgeOfScreen = 66,
    kAudioChannelLabel_Ambisonic_W = 200,
    kAudioChannelLabel_Ambisonic_X = 201,
    kAudioChannelLabel_Ambisonic_Y = 202,
    kAudioChannelLabel_Ambisonic_Z = 203,
    kAudioChannelLabel_MS_Mid = 204,
    kAudioChannelLabel_MS_Side = 205,
    kAudioChannelLabel_XY_X = 206,
    kAudioChannelLabel_XY_Y = 207,
    kAudioChannelLabel_BinauralLeft = 208,
    kAudioChannelLabel_BinauralRight = 209,
    kAudioChannelLabel_HeadphonesLeft = 301,
    kAudioChannelLabel_HeadphonesRight = 302,
    kAudioChannelLabel_ClickTrack = 304,
    kAudioChannelLabel_ForeignLanguage = 305,
    kAudioChannelLabel_Discrete = 400,

    kAudioChannelLabel_Discrete_0 = (1U << 16) | 0,
    kAudioChannelLabel_Discrete_1 = (1U << 16) | 1,
    kAudioChannelLabel_Discrete_2 = (1U << 16) | 2,
    kAudioChannelLabel_Discrete_3 = (1U << 16) | 3,
    kAudioChannelLabel_Discrete_4 = (1U << 16) | 4,
    kAudioChannelLabel_Discrete_5 = (1U << 16) | 5,
    kAudioChannelLabel_Discrete_6 = (1U << 16) | 6,
    kAudioChannelLabel_Discrete_7 = (1U << 16) | 7,
    kAudioChannelLabel_Discrete_8 = (1U << 16) | 8,
    kAudioChannelLabel_Discrete_9 = (1U << 16) | 9,
    kAudioChannelLabel_Discrete_10 = (1U << 16) | 10,
    kAudioChannelLabel_Discrete_11 = (1U << 16) | 11,
    kAudioChannelLabel_Discrete_12 = (1U << 16) | 12,
    kAudioChannelLabel_Discrete_13 = (1U << 16) | 13,
    kAudioChannelLabel_Discrete_14 = (1U << 16) | 14,
    kAudioChannelLabel_Discrete_15 = (1U << 16) | 15,
    kAudioChannelLabel_Discrete_65535 = (1U << 16) | 65535,
    kAudioChannelLabel_HOA_ACN = 500,
    kAudioChannelLabel_HOA_ACN_0 = (2U << 16) | 0,
    kAudioChannelLabel_HOA_ACN_1 = (2U << 16) | 1,
    kAudioChannelLabel_HOA_ACN_2 = (2U << 16) | 2,
    kAudioChannelLabel_HOA_ACN_3 = (2U << 16) | 3,
    kAudioChannelLabel_HOA_ACN_4 = (2U << 16) | 4,
    kAudioChannelLabel_HOA_ACN_5 = (2U << 16) | 5,
    kAudioChannelLabel_HOA_ACN_6 = (2U << 16) | 6,
    kAudioChannelLabel_HOA_ACN_7 = (2U << 16) | 7,
    kAudioChannelLabel_HOA_ACN_8 = (2U << 16) | 8,
    kAudioChannelLabel_HOA_ACN_9 = (2U << 16) | 9,
    kAudioChannelLabel_HOA_ACN_10 = (2U << 16) | 10,
    kAudioChannelLabel_HOA_ACN_11 = (2U << 16) | 11,
    kAudioChannelLabel_HOA_ACN_12 = (2U << 16) | 12,
    kAudioChannelLabel_HOA_ACN_13 = (2U << 16) | 13,
    kAudioChannelLabel_HOA_ACN_14 = (2U << 16) | 14,
    kAudioChannelLabel_HOA_ACN_15 = (2U << 16) | 15,
    kAudioChannelLabel_HOA_ACN_65024 = (2U << 16) | 65024,
    kAudioChannelLabel_HOA_SN3D = kAudioChannelLabel_HOA_ACN_0, /* | the channel index */
    kAudioChannelLabel_HOA_N3D = (3U << 16), /* | the channel index */
    kAudioChannelLabel_Object = (4U << 16), /* | the channel index */
    kAudioChannelLabel_BeginReserved = 0xF0000000U,
    kAudioChannelLabel_EndReserved = 0xFFFFFFFEU,
};

typedef CF_OPTIONS(UInt32, AudioChannelBitmap) {
    kAudioChannelBit_Left = (1U << 0),
    kAudioChannelBit_Right = (1U << 1),
    kAudioChannelBit_Center = (1U << 2),
    kAudioChannelBit_LFEScreen = (1U << 3),
    kAudioChannelBit_LeftSurround = (1U << 4),
    kAudioChannelBit_RightSurround = (1U << 5),
    kAudioChannelBit_LeftCenter = (1U << 6),
    kAudioChannelBit_RightCenter = (1U << 7),
    kAudioChannelBit_CenterSurround = (1U << 8),
    kAudioChannelBit_LeftSurroundDirect = (1U << 9),
    kAudioChannelBit_RightSurroundDirect = (1U << 10),
    kAudioChannelBit_TopCenterSurround = (1U << 11),
    kAudioChannelBit_VerticalHeightLeft = (1U << 12),
    kAudioChannelBit_VerticalHeightCenter = (1U << 13),
    kAudioChannelBit_VerticalHeightRight = (1U << 14),
    kAudioChannelBit_TopBackLeft = (1U << 15),
    kAudioChannelBit_TopBackCenter = (1U << 16),
    kAudioChannelBit_TopBackRight = (1U << 17),
    kAudioChannelBit_LeftTopFront = kAudioChannelBit_VerticalHeightLeft,
    kAudioChannelBit_CenterTopFront = kAudioChannelBit_VerticalHeightCenter,
    kAudioChannelBit_RightTopFront = kAudioChannelBit_VerticalHeightRight,
    kAudioChannelBit_LeftTopMiddle = (1U << 21),
    kAudioChannelBit_CenterTopMiddle = kAudioChannelBit_TopCenterSurround,
    kAudioChannelBit_RightTopMiddle = (1U << 23),
    kAudioChannelBit_LeftTopRear = (1U << 24),
    kAudioChannelBit_CenterTopRear = (1U << 25),
    kAudioChannelBit_RightTopRear = (1U << 26),
};

typedef CF_OPTIONS(UInt32, AudioChannelFlags) {
    kAudioChannelFlags_AllOff = 0,
    kAudioChannelFlags_RectangularCoordinates = (1U << 0),
    kAudioChannelFlags_SphericalCoordinates = (1U << 1),
    kAudioChannelFlags_Meters = (1U << 2),
};

/* Indices of AudioChannelDescription.mCoordinates. */
typedef CF_ENUM(UInt32, AudioChannelCoordinateIndex) {
    kAudioChannelCoordinates_LeftRight = 0,
    kAudioChannelCoordinates_BackFront = 1,
    kAudioChannelCoordinates_DownUp = 2,
    kAudioChannelCoordinates_Azimuth = 0,
    kAudioChannelCoordinates_Elevation = 1,
    kAudioChannelCoordinates_Distance = 2,
};

typedef struct AudioChannelDescription {
    AudioChannelLabel mChannelLabel;
    AudioChannelFlags mChannelFlags;
    Float32 mCoordinates[3];
} AudioChannelDescription;

/* The predefined layouts: the channel count in the low 16 bits; the channels in order as each
   comment says (kAudioFormatProperty_ChannelLayoutForTag gives them). HOA_ACN_SN3D, HOA_ACN_N3D,
   DiscreteInOrder and Unknown are ORed with the number of channels. */
CF_ENUM(AudioChannelLayoutTag) {
    kAudioChannelLayoutTag_UseChannelDescriptions = (0U << 16) | 0,
    kAudioChannelLayoutTag_UseChannelBitmap = (1U << 16) | 0,
    kAudioChannelLayoutTag_Mono = (100U << 16) | 1, /* C */
    kAudioChannelLayoutTag_Stereo = (101U << 16) | 2, /* L R */
    kAudioChannelLayoutTag_StereoHeadphones = (102U << 16) | 2, /* L R */
    kAudioChannelLayoutTag_MatrixStereo = (103U << 16) | 2, /* Lt Rt */
    kAudioChannelLayoutTag_MidSide = (104U << 16) | 2, /* Mid Side */
    kAudioChannelLayoutTag_XY = (105U << 16) | 2, /* X Y */
    kAudioChannelLayoutTag_Binaural = (106U << 16) | 2, /* L R */
    kAudioChannelLayoutTag_Ambisonic_B_Format = (107U << 16) | 4, /* W X Y Z */
    kAudioChannelLayoutTag_Quadraphonic = (108U << 16) | 4, /* L R Ls Rs */
    kAudioChannelLayoutTag_Pentagonal = (109U << 16) | 5, /* L R Rls Rrs C */
    kAudioChannelLayoutTag_Hexagonal = (110U << 16) | 6, /* L R Rls Rrs C Cs */
    kAudioChannelLayoutTag_Octagonal = (111U << 16) | 8, /* L R Rls Rrs C Cs Ls Rs */
    kAudioChannelLayoutTag_Cube = (112U << 16) | 8, /* L R Ls Rs Vhl Vhr Ltr Rtr */
    kAudioChannelLayoutTag_MPEG_1_0 = kAudioChannelLayoutTag_Mono,
    kAudioChannelLayoutTag_MPEG_2_0 = kAudioChannelLayoutTag_Stereo,
    kAudioChannelLayoutTag_MPEG_3_0_A = (113U << 16) | 3, /* L R C */
    kAudioChannelLayoutTag_MPEG_3_0_B = (114U << 16) | 3, /* C L R */
    kAudioChannelLayoutTag_MPEG_4_0_A = (115U << 16) | 4, /* L R C Cs */
    kAudioChannelLayoutTag_MPEG_4_0_B = (116U << 16) | 4, /* C L R Cs */
    kAudioChannelLayoutTag_MPEG_5_0_A = (117U << 16) | 5, /* L R C Ls Rs */
    kAudioChannelLayoutTag_MPEG_5_0_B = (118U << 16) | 5, /* L R Ls Rs C */
    kAudioChannelLayoutTag_MPEG_5_0_C = (119U << 16) | 5, /* L C R Ls Rs */
    kAudioChannelLayoutTag_MPEG_5_0_D = (120U << 16) | 5, /* C L R Ls Rs */
    kAudioChannelLayoutTag_MPEG_5_1_A = (121U << 16) | 6, /* L R C LFE Ls Rs */
    kAudioChannelLayoutTag_MPEG_5_1_B = (122U << 16) | 6, /* L R Ls Rs C LFE */
    kAudioChannelLayoutTag_MPEG_5_1_C = (123U << 16) | 6, /* L C R Ls Rs LFE */
    kAudioChannelLayoutTag_MPEG_5_1_D = (124U << 16) | 6, /* C L R Ls Rs LFE */
    kAudioChannelLayoutTag_MPEG_6_1_A = (125U << 16) | 7, /* L R C LFE Ls Rs Cs */
    kAudioChannelLayoutTag_MPEG_7_1_A = (126U << 16) | 8, /* L R C LFE Ls Rs Lc Rc */
    kAudioChannelLayoutTag_MPEG_7_1_B = (127U << 16) | 8, /* C Lc Rc L R Ls Rs LFE */
    kAudioChannelLayoutTag_MPEG_7_1_C = (128U << 16) | 8, /* L R C LFE Ls Rs Rls Rrs */
    kAudioChannelLayoutTag_Emagic_Default_7_1 = (129U << 16) | 8, /* L R Ls Rs C LFE Lc Rc */
    kAudioChannelLayoutTag_SMPTE_DTV = (130U << 16) | 8, /* L R C LFE Ls Rs Lt Rt */
    kAudioChannelLayoutTag_ITU_1_0 = kAudioChannelLayoutTag_Mono,
    kAudioChannelLayoutTag_ITU_2_0 = kAudioChannelLayoutTag_Stereo,
    kAudioChannelLayoutTag_ITU_2_1 = (131U << 16) | 3, /* L R Cs */
    kAudioChannelLayoutTag_ITU_2_2 = (132U << 16) | 4, /* L R Ls Rs */
    kAudioChannelLayoutTag_ITU_3_0 = kAudioChannelLayoutTag_MPEG_3_0_A,
    kAudioChannelLayoutTag_ITU_3_1 = kAudioChannelLayoutTag_MPEG_4_0_A,
    kAudioChannelLayoutTag_ITU_3_2 = kAudioChannelLayoutTag_MPEG_5_0_A,
    kAudioChannelLayoutTag_ITU_3_2_1 = kAudioChannelLayoutTag_MPEG_5_1_A,
    kAudioChannelLayoutTag_ITU_3_4_1 = kAudioChannelLayoutTag_MPEG_7_1_C,
    kAudioChannelLayoutTag_DVD_0 = kAudioChannelLayoutTag_Mono,
    kAudioChannelLayoutTag_DVD_1 = kAudioChannelLayoutTag_Stereo,
    kAudioChannelLayoutTag_DVD_2 = kAudioChannelLayoutTag_ITU_2_1,
    kAudioChannelLayoutTag_DVD_3 = kAudioChannelLayoutTag_ITU_2_2,
    kAudioChannelLayoutTag_DVD_4 = (133U << 16) | 3, /* L R LFE */
    kAudioChannelLayoutTag_DVD_5 = (134U << 16) | 4, /* L R LFE Cs */
    kAudioChannelLayoutTag_DVD_6 = (135U << 16) | 5, /* L R LFE Ls Rs */
    kAudioChannelLayoutTag_DVD_7 = kAudioChannelLayoutTag_MPEG_3_0_A,
    kAudioChannelLayoutTag_DVD_8 = kAudioChannelLayoutTag_MPEG_4_0_A,
    kAudioChannelLayoutTag_DVD_9 = kAudioChannelLayoutTag_MPEG_5_0_A,
    kAudioChannelLayoutTag_DVD_10 = (136U << 16) | 4, /* L R C LFE */
    kAudioChannelLayoutTag_DVD_11 = (137U << 16) | 5, /* L R C LFE Cs */
    kAudioChannelLayoutTag_DVD_12 = kAudioChannelLayoutTag_MPEG_5_1_A,
    kAudioChannelLayoutTag_DVD_13 = kAudioChannelLayoutTag_DVD_8,
    kAudioChannelLayoutTag_DVD_14 = kAudioChannelLayoutTag_DVD_9,
    kAudioChannelLayoutTag_DVD_15 = kAudioChannelLayoutTag_DVD_10,
    kAudioChannelLayoutTag_DVD_16 = kAudioChannelLayoutTag_DVD_11,
    kAudioChannelLayoutTag_DVD_17 = kAudioChannelLayoutTag_DVD_12,
    kAudioChannelLayoutTag_DVD_18 = (138U << 16) | 5, /* L R Ls Rs LFE */
    kAudioChannelLayoutTag_DVD_19 = kAudioChannelLayoutTag_MPEG_5_0_B,
    kAudioChannelLayoutTag_DVD_20 = kAudioChannelLayoutTag_MPEG_5_1_B,
    kAudioChannelLayoutTag_AudioUnit_4 = kAudioChannelLayoutTag_Quadraphonic,
    kAudioChannelLayoutTag_AudioUnit_5 = kAudioChannelLayoutTag_Pentagonal,
    kAudioChannelLayoutTag_AudioUnit_6 = kAudioChannelLayoutTag_Hexagonal,
    kAudioChannelLayoutTag_AudioUnit_8 = kAudioChannelLayoutTag_Octagonal,
    kAudioChannelLayoutTag_AudioUnit_5_0 = kAudioChannelLayoutTag_MPEG_5_0_B,
    kAudioChannelLayoutTag_AudioUnit_6_0 = (139U << 16) | 6, /* L R Ls Rs C Cs */
    kAudioChannelLayoutTag_AudioUnit_7_0 = (140U << 16) | 7, /* L R Ls Rs C Rls Rrs */
    kAudioChannelLayoutTag_AudioUnit_7_0_Front = (148U << 16) | 7, /* L R Ls Rs C Lc Rc */
    kAudioChannelLayoutTag_AudioUnit_5_1 = kAudioChannelLayoutTag_MPEG_5_1_A,
    kAudioChannelLayoutTag_AudioUnit_6_1 = kAudioChannelLayoutTag_MPEG_6_1_A,
    kAudioChannelLayoutTag_AudioUnit_7_1 = kAudioChannelLayoutTag_MPEG_7_1_C,
    kAudioChannelLayoutTag_AudioUnit_7_1_Front = kAudioChannelLayoutTag_MPEG_7_1_A,
    kAudioChannelLayoutTag_AAC_3_0 = kAudioChannelLayoutTag_MPEG_3_0_B,
    kAudioChannelLayoutTag_AAC_Quadraphonic = kAudioChannelLayoutTag_Quadraphonic,
    kAudioChannelLayoutTag_AAC_4_0 = kAudioChannelLayoutTag_MPEG_4_0_B,
    kAudioChannelLayoutTag_AAC_5_0 = kAudioChannelLayoutTag_MPEG_5_0_D,
    kAudioChannelLayoutTag_AAC_5_1 = kAudioChannelLayoutTag_MPEG_5_1_D,
    kAudioChannelLayoutTag_AAC_6_0 = (141U << 16) | 6, /* C L R Ls Rs Cs */
    kAudioChannelLayoutTag_AAC_6_1 = (142U << 16) | 7, /* C L R Ls Rs Cs LFE */
    kAudioChannelLayoutTag_AAC_7_0 = (143U << 16) | 7, /* C L R Ls Rs Rls Rrs */
    kAudioChannelLayoutTag_AAC_7_1 = kAudioChannelLayoutTag_MPEG_7_1_B,
    kAudioChannelLayoutTag_AAC_7_1_B = (183U << 16) | 8, /* C L R Ls Rs Rls Rrs LFE */
    kAudioChannelLayoutTag_AAC_7_1_C = (184U << 16) | 8, /* C L R Ls Rs LFE Vhl Vhr */
    kAudioChannelLayoutTag_AAC_Octagonal = (144U << 16) | 8, /* C L R Ls Rs Rls Rrs Cs */
    kAudioChannelLayoutTag_TMH_10_2_std = (145U << 16) | 16, /* L R C Vhc Lsd Rsd Ls Rs Vhl Vhr Lw Rw Csd Cs LFE LFE2 */
    kAudioChannelLayoutTag_TMH_10_2_full = (146U << 16) | 21, /* L R C Vhc Lsd Rsd Ls Rs Vhl Vhr Lw Rw Csd Cs LFE LFE2 Lc Rc HI VI Haptic */
    kAudioChannelLayoutTag_AC3_1_0_1 = (149U << 16) | 2, /* C LFE */
    kAudioChannelLayoutTag_AC3_3_0 = (150U << 16) | 3, /* L C R */
    kAudioChannelLayoutTag_AC3_3_1 = (151U << 16) | 4, /* L C R Cs */
    kAudioChannelLayoutTag_AC3_3_0_1 = (152U << 16) | 4, /* L C R LFE */
    kAudioChannelLayoutTag_AC3_2_1_1 = (153U << 16) | 4, /* L R Cs LFE */
    kAudioChannelLayoutTag_AC3_3_1_1 = (154U << 16) | 5, /* L C R Cs LFE */
    kAudioChannelLayoutTag_EAC_6_0_A = (155U << 16) | 6, /* L C R Ls Rs Cs */
    kAudioChannelLayoutTag_EAC_7_0_A = (156U << 16) | 7, /* L C R Ls Rs Rls Rrs */
    kAudioChannelLayoutTag_EAC3_6_1_A = (157U << 16) | 7, /* L C R Ls Rs LFE Cs */
    kAudioChannelLayoutTag_EAC3_6_1_B = (158U << 16) | 7, /* L C R Ls Rs LFE Ts */
    kAudioChannelLayoutTag_EAC3_6_1_C = (159U << 16) | 7, /* L C R Ls Rs LFE Vhc */
    kAudioChannelLayoutTag_EAC3_7_1_A = (160U << 16) | 8, /* L C R Ls Rs LFE Rls Rrs */
    kAudioChannelLayoutTag_EAC3_7_1_B = (161U << 16) | 8, /* L C R Ls Rs LFE Lc Rc */
    kAudioChannelLayoutTag_EAC3_7_1_C = (162U << 16) | 8, /* L C R Ls Rs LFE Lsd Rsd */
    kAudioChannelLayoutTag_EAC3_7_1_D = (163U << 16) | 8, /* L C R Ls Rs LFE Lw Rw */
    kAudioChannelLayoutTag_EAC3_7_1_E = (164U << 16) | 8, /* L C R Ls Rs LFE Vhl Vhr */
    kAudioChannelLayoutTag_EAC3_7_1_F = (165U << 16) | 8, /* L C R Ls Rs LFE Cs Ts */
    kAudioChannelLayoutTag_EAC3_7_1_G = (166U << 16) | 8, /* L C R Ls Rs LFE Cs Vhc */
    kAudioChannelLayoutTag_EAC3_7_1_H = (167U << 16) | 8, /* L C R Ls Rs LFE Ts Vhc */
    kAudioChannelLayoutTag_DTS_3_1 = (168U << 16) | 4, /* C L R LFE */
    kAudioChannelLayoutTag_DTS_4_1 = (169U << 16) | 5, /* C L R Cs LFE */
    kAudioChannelLayoutTag_DTS_6_0_A = (170U << 16) | 6, /* Lc Rc L R Ls Rs */
    kAudioChannelLayoutTag_DTS_6_0_B = (171U << 16) | 6, /* C L R Rls Rrs Ts */
    kAudioChannelLayoutTag_DTS_6_0_C = (172U << 16) | 6, /* C Cs L R Rls Rrs */
    kAudioChannelLayoutTag_DTS_6_1_A = (173U << 16) | 7, /* Lc Rc L R Ls Rs LFE */
    kAudioChannelLayoutTag_DTS_6_1_B = (174U << 16) | 7, /* C L R Rls Rrs Ts LFE */
    kAudioChannelLayoutTag_DTS_6_1_C = (175U << 16) | 7, /* C Cs L R Rls Rrs LFE */
    kAudioChannelLayoutTag_DTS_7_0 = (176U << 16) | 7, /* Lc C Rc L R Ls Rs */
    kAudioChannelLayoutTag_DTS_7_1 = (177U << 16) | 8, /* Lc C Rc L R Ls Rs LFE */
    kAudioChannelLayoutTag_DTS_8_0_A = (178U << 16) | 8, /* Lc Rc L R Ls Rs Rls Rrs */
    kAudioChannelLayoutTag_DTS_8_0_B = (179U << 16) | 8, /* Lc C Rc L R Ls Cs Rs */
    kAudioChannelLayoutTag_DTS_8_1_A = (180U << 16) | 9, /* Lc Rc L R Ls Rs Rls Rrs LFE */
    kAudioChannelLayoutTag_DTS_8_1_B = (181U << 16) | 9, /* Lc C Rc L R Ls Cs Rs LFE */
    kAudioChannelLayoutTag_DTS_6_1_D = (182U << 16) | 7, /* C L R Ls Rs LFE Cs */
    kAudioChannelLayoutTag_WAVE_2_1 = kAudioChannelLayoutTag_DVD_4,
    kAudioChannelLayoutTag_WAVE_3_0 = kAudioChannelLayoutTag_MPEG_3_0_A,
    kAudioChannelLayoutTag_WAVE_4_0_A = kAudioChannelLayoutTag_ITU_2_2,
    kAudioChannelLayoutTag_WAVE_4_0_B = (185U << 16) | 4, /* L R Rls Rrs */
    kAudioChannelLayoutTag_WAVE_5_0_A = kAudioChannelLayoutTag_MPEG_5_0_A,
    kAudioChannelLayoutTag_WAVE_5_0_B = (186U << 16) | 5, /* L R C Rls Rrs */
    kAudioChannelLayoutTag_WAVE_5_1_A = kAudioChannelLayoutTag_MPEG_5_1_A,
    kAudioChannelLayoutTag_WAVE_5_1_B = (187U << 16) | 6, /* L R C LFE Rls Rrs */
    kAudioChannelLayoutTag_WAVE_6_1 = (188U << 16) | 7, /* L R C LFE Cs Ls Rs */
    kAudioChannelLayoutTag_WAVE_7_1 = (189U << 16) | 8, /* L R C LFE Rls Rrs Ls Rs */
    kAudioChannelLayoutTag_HOA_ACN_SN3D = (190U << 16) | 0,
    kAudioChannelLayoutTag_HOA_ACN_N3D = (191U << 16) | 0,
    kAudioChannelLayoutTag_Atmos_5_1_2 = (194U << 16) | 8, /* L R C LFE Ls Rs Ltm Rtm */
    kAudioChannelLayoutTag_Atmos_5_1_4 = (195U << 16) | 10, /* L R C LFE Ls Rs Vhl Vhr Ltr Rtr */
    kAudioChannelLayoutTag_Atmos_7_1_2 = (196U << 16) | 10, /* L R C LFE Ls Rs Rls Rrs Ltm Rtm */
    kAudioChannelLayoutTag_Atmos_7_1_4 = (192U << 16) | 12, /* L R C LFE Ls Rs Rls Rrs Vhl Vhr Ltr Rtr */
    kAudioChannelLayoutTag_Atmos_9_1_6 = (193U << 16) | 16, /* L R C LFE Ls Rs Rls Rrs Lw Rw Vhl Vhr Ltm Rtm Ltr Rtr */
    kAudioChannelLayoutTag_Logic_Mono = kAudioChannelLayoutTag_Mono,
    kAudioChannelLayoutTag_Logic_Stereo = kAudioChannelLayoutTag_Stereo,
    kAudioChannelLayoutTag_Logic_Quadraphonic = kAudioChannelLayoutTag_Quadraphonic,
    kAudioChannelLayoutTag_Logic_4_0_A = kAudioChannelLayoutTag_MPEG_4_0_A,
    kAudioChannelLayoutTag_Logic_4_0_B = kAudioChannelLayoutTag_MPEG_4_0_B,
    kAudioChannelLayoutTag_Logic_4_0_C = (197U << 16) | 4, /* L R Cs C */
    kAudioChannelLayoutTag_Logic_5_0_A = kAudioChannelLayoutTag_MPEG_5_0_A,
    kAudioChannelLayoutTag_Logic_5_0_B = kAudioChannelLayoutTag_MPEG_5_0_B,
    kAudioChannelLayoutTag_Logic_5_0_C = kAudioChannelLayoutTag_MPEG_5_0_C,
    kAudioChannelLayoutTag_Logic_5_0_D = kAudioChannelLayoutTag_MPEG_5_0_D,
    kAudioChannelLayoutTag_Logic_5_1_A = kAudioChannelLayoutTag_MPEG_5_1_A,
    kAudioChannelLayoutTag_Logic_5_1_B = kAudioChannelLayoutTag_MPEG_5_1_B,
    kAudioChannelLayoutTag_Logic_5_1_C = kAudioChannelLayoutTag_MPEG_5_1_C,
    kAudioChannelLayoutTag_Logic_5_1_D = kAudioChannelLayoutTag_MPEG_5_1_D,
    kAudioChannelLayoutTag_Logic_6_0_A = kAudioChannelLayoutTag_AAC_6_0,
    kAudioChannelLayoutTag_Logic_6_0_B = (198U << 16) | 6, /* L R Ls Rs Cs C */
    kAudioChannelLayoutTag_Logic_6_0_C = kAudioChannelLayoutTag_AudioUnit_6_0,
    kAudioChannelLayoutTag_Logic_6_1_A = kAudioChannelLayoutTag_AAC_6_1,
    kAudioChannelLayoutTag_Logic_6_1_B = (199U << 16) | 7, /* L R Ls Rs Cs C LFE */
    kAudioChannelLayoutTag_Logic_6_1_C = kAudioChannelLayoutTag_MPEG_6_1_A,
    kAudioChannelLayoutTag_Logic_6_1_D = (200U << 16) | 7, /* L C R Ls Cs Rs LFE */
    kAudioChannelLayoutTag_Logic_7_1_A = kAudioChannelLayoutTag_AudioUnit_7_1,
    kAudioChannelLayoutTag_Logic_7_1_B = (201U << 16) | 8, /* L R Ls Rs Rls Rrs C LFE */
    kAudioChannelLayoutTag_Logic_7_1_C = kAudioChannelLayoutTag_MPEG_7_1_C,
    kAudioChannelLayoutTag_Logic_7_1_SDDS_A = kAudioChannelLayoutTag_MPEG_7_1_A,
    kAudioChannelLayoutTag_Logic_7_1_SDDS_B = kAudioChannelLayoutTag_MPEG_7_1_B,
    kAudioChannelLayoutTag_Logic_7_1_SDDS_C = kAudioChannelLayoutTag_Emagic_Default_7_1,
    kAudioChannelLayoutTag_Logic_Atmos_5_1_2 = kAudioChannelLayoutTag_Atmos_5_1_2,
    kAudioChannelLayoutTag_Logic_Atmos_5_1_4 = kAudioChannelLayoutTag_Atmos_5_1_4,
    kAudioChannelLayoutTag_Logic_Atmos_7_1_2 = kAudioChannelLayoutTag_Atmos_7_1_2,
    kAudioChannelLayoutTag_Logic_Atmos_7_1_4_A = kAudioChannelLayoutTag_Atmos_7_1_4,
    kAudioChannelLayoutTag_Logic_Atmos_7_1_4_B = (202U << 16) | 12, /* L R Rls Rrs Ls Rs C LFE Vhl Vhr Ltr Rtr */
    kAudioChannelLayoutTag_Logic_Atmos_7_1_6 = (203U << 16) | 14, /* L R Rls Rrs Ls Rs C LFE Vhl Vhr Ltm Rtm Ltr Rtr */
    kAudioChannelLayoutTag_DiscreteInOrder = (147U << 16) | 0,
    kAudioChannelLayoutTag_CICP_1 = kAudioChannelLayoutTag_MPEG_1_0,
    kAudioChannelLayoutTag_CICP_2 = kAudioChannelLayoutTag_MPEG_2_0,
    kAudioChannelLayoutTag_CICP_3 = kAudioChannelLayoutTag_MPEG_3_0_A,
    kAudioChannelLayoutTag_CICP_4 = kAudioChannelLayoutTag_MPEG_4_0_A,
    kAudioChannelLayoutTag_CICP_5 = kAudioChannelLayoutTag_MPEG_5_0_A,
    kAudioChannelLayoutTag_CICP_6 = kAudioChannelLayoutTag_MPEG_5_1_A,
    kAudioChannelLayoutTag_CICP_7 = kAudioChannelLayoutTag_MPEG_7_1_B,
    kAudioChannelLayoutTag_CICP_9 = kAudioChannelLayoutTag_ITU_2_1,
    kAudioChannelLayoutTag_CICP_10 = kAudioChannelLayoutTag_ITU_2_2,
    kAudioChannelLayoutTag_CICP_11 = kAudioChannelLayoutTag_MPEG_6_1_A,
    kAudioChannelLayoutTag_CICP_12 = kAudioChannelLayoutTag_MPEG_7_1_C,
    kAudioChannelLayoutTag_CICP_13 = (204U << 16) | 24, /* Lc Rc C LFE2 Rls Rrs L R Cs LFE3 Lss Rss Vhl Vhr Vhc Ts Ltr Rtr Ltm Rtm Ctr Cb Lb Rb */
    kAudioChannelLayoutTag_CICP_14 = (205U << 16) | 8, /* L R C LFE Ls Rs Vhl Vhr */
    kAudioChannelLayoutTag_CICP_15 = (206U << 16) | 12, /* L R C LFE2 Rls Rrs LFE3 Lss Rss Vhl Vhr Ctr */
    kAudioChannelLayoutTag_CICP_16 = (207U << 16) | 10, /* L R C LFE Ls Rs Vhl Vhr Lts Rts */
    kAudioChannelLayoutTag_CICP_17 = (208U << 16) | 12, /* L R C LFE Ls Rs Vhl Vhr Vhc Lts Rts Ts */
    kAudioChannelLayoutTag_CICP_18 = (209U << 16) | 14, /* L R C LFE Ls Rs Lbs Rbs Vhl Vhr Vhc Lts Rts Ts */
    kAudioChannelLayoutTag_CICP_19 = (210U << 16) | 12, /* L R C LFE Rls Rrs Lss Rss Vhl Vhr Ltr Rtr */
    kAudioChannelLayoutTag_CICP_20 = (211U << 16) | 14, /* L R C LFE Rls Rrs Lss Rss Vhl Vhr Ltr Rtr Leos Reos */
    kAudioChannelLayoutTag_Ogg_3_0 = kAudioChannelLayoutTag_AC3_3_0,
    kAudioChannelLayoutTag_Ogg_4_0 = kAudioChannelLayoutTag_WAVE_4_0_B,
    kAudioChannelLayoutTag_Ogg_5_0 = (212U << 16) | 5, /* L C R Rls Rrs */
    kAudioChannelLayoutTag_Ogg_5_1 = (213U << 16) | 6, /* L C R Rls Rrs LFE */
    kAudioChannelLayoutTag_Ogg_6_1 = (214U << 16) | 7, /* L C R Ls Rs Cs LFE */
    kAudioChannelLayoutTag_Ogg_7_1 = (215U << 16) | 8, /* L C R Ls Rs Rls Rrs LFE */
    kAudioChannelLayoutTag_MPEG_5_0_E = (216U << 16) | 5, /* L R Rls Rrs C */
    kAudioChannelLayoutTag_MPEG_5_1_E = (217U << 16) | 6, /* L R Rls Rrs C LFE */
    kAudioChannelLayoutTag_MPEG_6_1_B = (218U << 16) | 7, /* L R Ls Rs C Cs LFE */
    kAudioChannelLayoutTag_MPEG_7_1_D = (219U << 16) | 8, /* L R Rls Rrs Ls Rs C LFE */
    kAudioChannelLayoutTag_BeginReserved = 0xF0000000U,
    kAudioChannelLayoutTag_EndReserved = 0xFFFEFFFFU,
    kAudioChannelLayoutTag_Unknown = 0xFFFF0000U,
};

typedef struct AudioChannelLayout {
    AudioChannelLayoutTag mChannelLayoutTag;
    AudioChannelBitmap mChannelBitmap;
    UInt32 mNumberChannelDescriptions;
    AudioChannelDescription mChannelDescriptions[1]; /* mNumberChannelDescriptions of them */
} AudioChannelLayout;

/** The channel count a layout tag carries in its low 16 bits (0 for UseChannelDescriptions and
    UseChannelBitmap). */
CF_INLINE UInt32 AudioChannelLayoutTag_GetNumberOfChannels(AudioChannelLayoutTag inLayoutTag) {
    return (UInt32)(inLayoutTag & 0x0000FFFF);
}

/* An item of kAudioFormatProperty_FormatList. */
typedef struct AudioFormatListItem {
    AudioStreamBasicDescription mASBD;
    AudioChannelLayoutTag mChannelLayoutTag;
} AudioFormatListItem;

/* The MPEG-4 audio object types (the flags of an MPEG-4 ASBD). */
typedef CF_ENUM(long, MPEG4ObjectID) {
    kMPEG4Object_AAC_Main = 1,
    kMPEG4Object_AAC_LC = 2,
    kMPEG4Object_AAC_SSR = 3,
    kMPEG4Object_AAC_LTP = 4,
    kMPEG4Object_AAC_SBR = 5,
    kMPEG4Object_AAC_Scalable = 6,
    kMPEG4Object_TwinVQ = 7,
    kMPEG4Object_CELP = 8,
    kMPEG4Object_HVXC = 9,
};

AT_EXTERN_C_END

#endif /* AudioToolbox_CoreAudioTypes_h */
