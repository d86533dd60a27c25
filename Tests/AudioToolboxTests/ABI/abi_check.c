/*
 * abi_check.c — checks that <AudioToolbox/AudioToolbox.h> has Apple's 64-bit (x86_64 and arm64
 * macOS, LP64) ABI: the size, alignment and field offsets of every public struct, the widths of
 * the scalar and enumeration types, and the values of constants that are easy to get wrong.
 *
 * The expected numbers were worked out by hand from the field lists of Apple's SDK headers
 * (MacOSX10.15.sdk; the header each struct comes from is named with it). None of those headers
 * puts a struct of this API under a #pragma pack (MacTypes.h's pack(push, 2) covers only its own
 * structs), so every field has its natural LP64 alignment: 1, 2, 4 and 8 for the 8-, 16-, 32- and
 * 64-bit integers, 4 for Float32, 8 for Float64 and pointers.
 *
 * Built as C (c99, c11) and, through abi_check.cpp, as C++ (c++03, c++11, c++17), with GCC and
 * Clang. Prints one line per mismatch and a summary; exits 1 on any mismatch. The checks of
 * MacTypes.h and the CoreFoundation headers are in abi_check_cf.h, the CF objects (numbers, collections, data) and global info in abi_check_objects.h,
 * the audio unit and Component Manager structs in abi_check_units.h, AUGraph.h's structs and the
 * audio unit calls' constants in abi_check_unit_api.h.
 *
 * swift-audio-queue. Apache License 2.0.
 */
#include <AudioToolbox/AudioToolbox.h>

#include <stddef.h>
#include <stdio.h>

#if defined(__cplusplus) && __cplusplus >= 201103L
    #define ABI_ALIGNOF(type) alignof(type)
#elif defined(__cplusplus) || !defined(__STDC_VERSION__) || __STDC_VERSION__ < 201112L
    #define ABI_ALIGNOF(type) __alignof__(type) /* C++03, C99 */
#else
    #define ABI_ALIGNOF(type) _Alignof(type)
#endif
#if defined(__cplusplus)
    #define ABI_LANGUAGE "C++"
#else
    #define ABI_LANGUAGE "C"
#endif

static int passed = 0;
static int failed = 0;

static void check(const char *what, unsigned long long actual, unsigned long long expected) {
    if (actual == expected) {
        passed += 1;
    } else {
        failed += 1;
        printf("MISMATCH %s: %llu, Apple's is %llu\n", what, actual, expected);
    }
}

static void checkSigned(const char *what, long long actual, long long expected) {
    if (actual == expected) {
        passed += 1;
    } else {
        failed += 1;
        printf("MISMATCH %s: %lld, Apple's is %lld\n", what, actual, expected);
    }
}

#define FIELD_SIZE(type, field) sizeof(((type *)0)->field)

/* The struct's size and alignment. */
#define STRUCT(type, size, align)                                               \
    check(#type " size", (unsigned long long)sizeof(type), (size));             \
    check(#type " alignment", (unsigned long long)ABI_ALIGNOF(type), (align))

/* One field's offset and size. */
#define FIELD(type, field, offset, size)                                                      \
    check(#type "." #field " offset", (unsigned long long)offsetof(type, field), (offset));  \
    check(#type "." #field " size", (unsigned long long)FIELD_SIZE(type, field), (size))

/* A type's width. */
#define WIDTH(type, size) check("sizeof(" #type ")", (unsigned long long)sizeof(type), (size))

/* Whether a type is signed (1) or unsigned (0): whether -1 converted to it stays negative (compared
   as a double, which no compiler flags as a comparison that is always true or false). */
#define SIGNEDNESS(type, isSigned) check(#type " signedness", (unsigned long long)((double)(type)-1 < 0.0), (isSigned))

/* A constant's value: as the 32 bits Apple's UInt32 or SInt32 enumerations give it. */
#define CONST_U32(name, value) check(#name, (unsigned long long)(UInt32)(name), (unsigned long long)(UInt32)(value))
#define CONST_S32(name, value) checkSigned(#name, (long long)(SInt32)(name), (long long)(SInt32)(value))
#define CONST_S64(name, value) checkSigned(#name, (long long)(name), (long long)(value))

static void checkScalarTypes(void) {
    /* MacTypes.h (LP64: UInt32 and SInt32 are int, SInt64 and UInt64 are long long). */
    WIDTH(UInt8, 1);
    WIDTH(SInt8, 1);
    WIDTH(UInt16, 2);
    WIDTH(SInt16, 2);
    WIDTH(UInt32, 4);
    WIDTH(SInt32, 4);
    WIDTH(UInt64, 8);
    WIDTH(SInt64, 8);
    WIDTH(Float32, 4);
    WIDTH(Float64, 8);
    WIDTH(Boolean, 1);
    WIDTH(OSStatus, 4);
    WIDTH(OSErr, 2);
    WIDTH(FourCharCode, 4);
    WIDTH(OSType, 4);
    SIGNEDNESS(UInt8, 0);
    SIGNEDNESS(SInt8, 1);
    SIGNEDNESS(UInt16, 0);
    SIGNEDNESS(SInt16, 1);
    SIGNEDNESS(UInt32, 0);
    SIGNEDNESS(SInt32, 1);
    SIGNEDNESS(UInt64, 0);
    SIGNEDNESS(SInt64, 1);
    SIGNEDNESS(Boolean, 0);
    SIGNEDNESS(OSStatus, 1);
    /* CFBase.h, CFString.h, CFDate.h, CFRunLoop.h, CFURL.h. */
    WIDTH(CFIndex, 8);
    SIGNEDNESS(CFIndex, 1);
    WIDTH(CFOptionFlags, 8);
    WIDTH(CFHashCode, 8);
    WIDTH(CFTimeInterval, 8);
    WIDTH(CFAbsoluteTime, 8);
    WIDTH(CFStringEncoding, 4);
    WIDTH(CFTypeRef, 8);
    WIDTH(CFAllocatorRef, 8);
    WIDTH(CFStringRef, 8);
    WIDTH(CFURLRef, 8);
    WIDTH(CFRunLoopRef, 8);
    WIDTH(CFRunLoopMode, 8);
    WIDTH(CFURLPathStyle, 8);     /* CF_ENUM(CFIndex, CFURLPathStyle) */
    WIDTH(CFRunLoopRunResult, 4); /* CF_ENUM(SInt32, CFRunLoopRunResult) */
    /* CoreAudioBaseTypes.h. */
    WIDTH(AudioFormatID, 4);
    WIDTH(AudioFormatFlags, 4);
    WIDTH(AudioSampleType, 4);
    WIDTH(AudioChannelLabel, 4);
    WIDTH(AudioChannelLayoutTag, 4);
    WIDTH(SMPTETimeType, 4);       /* CF_ENUM(UInt32, SMPTETimeType) */
    WIDTH(SMPTETimeFlags, 4);      /* CF_OPTIONS(UInt32, SMPTETimeFlags) */
    WIDTH(AudioTimeStampFlags, 4); /* CF_OPTIONS(UInt32, AudioTimeStampFlags) */
    WIDTH(AudioChannelBitmap, 4);  /* CF_OPTIONS(UInt32, AudioChannelBitmap) */
    WIDTH(AudioChannelFlags, 4);   /* CF_OPTIONS(UInt32, AudioChannelFlags) */
    /* AudioQueue.h. */
    WIDTH(AudioQueuePropertyID, 4);
    WIDTH(AudioQueueParameterID, 4);
    WIDTH(AudioQueueParameterValue, 4);
    WIDTH(AudioQueueRef, 8);
    WIDTH(AudioQueueTimelineRef, 8);
    WIDTH(AudioQueueBufferRef, 8);
    WIDTH(AudioQueueOutputCallback, 8);
    WIDTH(AudioQueueInputCallback, 8);
    WIDTH(AudioQueuePropertyListenerProc, 8);
    /* AudioFile.h. */
    WIDTH(AudioFileTypeID, 4);
    WIDTH(AudioFilePropertyID, 4);
    WIDTH(AudioFileID, 8);
    WIDTH(AudioFileFlags, 4);                  /* CF_OPTIONS(UInt32, AudioFileFlags) */
    WIDTH(AudioFilePermissions, 1);            /* CF_ENUM(SInt8, AudioFilePermissions) */
    WIDTH(AudioBytePacketTranslationFlags, 4); /* CF_OPTIONS(UInt32, AudioBytePacketTranslationFlags) */
    /* AudioFileStream.h. */
    WIDTH(AudioFileStreamPropertyID, 4);
    WIDTH(AudioFileStreamID, 8);
    WIDTH(AudioFileStreamPropertyFlags, 4);    /* CF_OPTIONS(UInt32, AudioFileStreamPropertyFlags) */
    WIDTH(AudioFileStreamParseFlags, 4);       /* CF_OPTIONS(UInt32, AudioFileStreamParseFlags) */
    WIDTH(AudioFileStreamSeekFlags, 4);        /* CF_OPTIONS(UInt32, AudioFileStreamSeekFlags) */
    WIDTH(AudioFileStream_PropertyListenerProc, 8);
    WIDTH(AudioFileStream_PacketsProc, 8);
    /* ExtendedAudioFile.h. */
    WIDTH(ExtAudioFilePropertyID, 4);
    WIDTH(ExtAudioFileRef, 8);
}

static void checkStructs(void) {
    /* CoreAudioBaseTypes.h: Float64 mMinimum, mMaximum. */
    STRUCT(AudioValueRange, 16, 8);
    FIELD(AudioValueRange, mMinimum, 0, 8);
    FIELD(AudioValueRange, mMaximum, 8, 8);

    /* CoreAudioBaseTypes.h: UInt32 mNumberChannels, mDataByteSize; void *mData. */
    STRUCT(AudioBuffer, 16, 8);
    FIELD(AudioBuffer, mNumberChannels, 0, 4);
    FIELD(AudioBuffer, mDataByteSize, 4, 4);
    FIELD(AudioBuffer, mData, 8, 8);

    /* CoreAudioBaseTypes.h: UInt32 mNumberBuffers; AudioBuffer mBuffers[1]. */
    STRUCT(AudioBufferList, 24, 8);
    FIELD(AudioBufferList, mNumberBuffers, 0, 4);
    FIELD(AudioBufferList, mBuffers, 8, 16);

    /* CoreAudioBaseTypes.h: Float64 mSampleRate; AudioFormatID mFormatID; AudioFormatFlags
       mFormatFlags; UInt32 mBytesPerPacket, mFramesPerPacket, mBytesPerFrame,
       mChannelsPerFrame, mBitsPerChannel, mReserved. */
    STRUCT(AudioStreamBasicDescription, 40, 8);
    FIELD(AudioStreamBasicDescription, mSampleRate, 0, 8);
    FIELD(AudioStreamBasicDescription, mFormatID, 8, 4);
    FIELD(AudioStreamBasicDescription, mFormatFlags, 12, 4);
    FIELD(AudioStreamBasicDescription, mBytesPerPacket, 16, 4);
    FIELD(AudioStreamBasicDescription, mFramesPerPacket, 20, 4);
    FIELD(AudioStreamBasicDescription, mBytesPerFrame, 24, 4);
    FIELD(AudioStreamBasicDescription, mChannelsPerFrame, 28, 4);
    FIELD(AudioStreamBasicDescription, mBitsPerChannel, 32, 4);
    FIELD(AudioStreamBasicDescription, mReserved, 36, 4);

    /* CoreAudioBaseTypes.h: SInt64 mStartOffset; UInt32 mVariableFramesInPacket, mDataByteSize. */
    STRUCT(AudioStreamPacketDescription, 16, 8);
    FIELD(AudioStreamPacketDescription, mStartOffset, 0, 8);
    FIELD(AudioStreamPacketDescription, mVariableFramesInPacket, 8, 4);
    FIELD(AudioStreamPacketDescription, mDataByteSize, 12, 4);

    /* CoreAudioBaseTypes.h: SInt16 mSubframes, mSubframeDivisor; UInt32 mCounter; SMPTETimeType
       mType; SMPTETimeFlags mFlags; SInt16 mHours, mMinutes, mSeconds, mFrames. */
    STRUCT(SMPTETime, 24, 4);
    FIELD(SMPTETime, mSubframes, 0, 2);
    FIELD(SMPTETime, mSubframeDivisor, 2, 2);
    FIELD(SMPTETime, mCounter, 4, 4);
    FIELD(SMPTETime, mType, 8, 4);
    FIELD(SMPTETime, mFlags, 12, 4);
    FIELD(SMPTETime, mHours, 16, 2);
    FIELD(SMPTETime, mMinutes, 18, 2);
    FIELD(SMPTETime, mSeconds, 20, 2);
    FIELD(SMPTETime, mFrames, 22, 2);

    /* CoreAudioBaseTypes.h: Float64 mSampleTime; UInt64 mHostTime; Float64 mRateScalar; UInt64
       mWordClockTime; SMPTETime mSMPTETime; AudioTimeStampFlags mFlags; UInt32 mReserved. */
    STRUCT(AudioTimeStamp, 64, 8);
    FIELD(AudioTimeStamp, mSampleTime, 0, 8);
    FIELD(AudioTimeStamp, mHostTime, 8, 8);
    FIELD(AudioTimeStamp, mRateScalar, 16, 8);
    FIELD(AudioTimeStamp, mWordClockTime, 24, 8);
    FIELD(AudioTimeStamp, mSMPTETime, 32, 24);
    FIELD(AudioTimeStamp, mFlags, 56, 4);
    FIELD(AudioTimeStamp, mReserved, 60, 4);

    /* CoreAudioBaseTypes.h: AudioChannelLabel mChannelLabel; AudioChannelFlags mChannelFlags;
       Float32 mCoordinates[3]. */
    STRUCT(AudioChannelDescription, 20, 4);
    FIELD(AudioChannelDescription, mChannelLabel, 0, 4);
    FIELD(AudioChannelDescription, mChannelFlags, 4, 4);
    FIELD(AudioChannelDescription, mCoordinates, 8, 12);

    /* CoreAudioBaseTypes.h: AudioChannelLayoutTag mChannelLayoutTag; AudioChannelBitmap
       mChannelBitmap; UInt32 mNumberChannelDescriptions; AudioChannelDescription
       mChannelDescriptions[1]. */
    STRUCT(AudioChannelLayout, 32, 4);
    FIELD(AudioChannelLayout, mChannelLayoutTag, 0, 4);
    FIELD(AudioChannelLayout, mChannelBitmap, 4, 4);
    FIELD(AudioChannelLayout, mNumberChannelDescriptions, 8, 4);
    FIELD(AudioChannelLayout, mChannelDescriptions, 12, 20);

    /* AudioQueue.h: const UInt32 mAudioDataBytesCapacity; void *const mAudioData; UInt32
       mAudioDataByteSize; void *mUserData; const UInt32 mPacketDescriptionCapacity;
       AudioStreamPacketDescription *const mPacketDescriptions; UInt32 mPacketDescriptionCount. */
    STRUCT(AudioQueueBuffer, 56, 8);
    FIELD(AudioQueueBuffer, mAudioDataBytesCapacity, 0, 4);
    FIELD(AudioQueueBuffer, mAudioData, 8, 8);
    FIELD(AudioQueueBuffer, mAudioDataByteSize, 16, 4);
    FIELD(AudioQueueBuffer, mUserData, 24, 8);
    FIELD(AudioQueueBuffer, mPacketDescriptionCapacity, 32, 4);
    FIELD(AudioQueueBuffer, mPacketDescriptions, 40, 8);
    FIELD(AudioQueueBuffer, mPacketDescriptionCount, 48, 4);

    /* AudioQueue.h: AudioQueueParameterID mID; AudioQueueParameterValue mValue. */
    STRUCT(AudioQueueParameterEvent, 8, 4);
    FIELD(AudioQueueParameterEvent, mID, 0, 4);
    FIELD(AudioQueueParameterEvent, mValue, 4, 4);

    /* AudioQueue.h: Float32 mAveragePower, mPeakPower. */
    STRUCT(AudioQueueLevelMeterState, 8, 4);
    FIELD(AudioQueueLevelMeterState, mAveragePower, 0, 4);
    FIELD(AudioQueueLevelMeterState, mPeakPower, 4, 4);

    /* AudioQueue.h: CFStringRef mDeviceUID; UInt32 mChannelNumber (16 bytes on LP64). */
    STRUCT(AudioQueueChannelAssignment, 16, 8);
    FIELD(AudioQueueChannelAssignment, mDeviceUID, 0, 8);
    FIELD(AudioQueueChannelAssignment, mChannelNumber, 8, 4);

    /* AudioFile.h: SInt64 mNumberValidFrames; SInt32 mPrimingFrames, mRemainderFrames. */
    STRUCT(AudioFilePacketTableInfo, 16, 8);
    FIELD(AudioFilePacketTableInfo, mNumberValidFrames, 0, 8);
    FIELD(AudioFilePacketTableInfo, mPrimingFrames, 8, 4);
    FIELD(AudioFilePacketTableInfo, mRemainderFrames, 12, 4);

    /* AudioFile.h: SInt64 mFrame, mPacket; UInt32 mFrameOffsetInPacket (4 bytes of tail padding). */
    STRUCT(AudioFramePacketTranslation, 24, 8);
    FIELD(AudioFramePacketTranslation, mFrame, 0, 8);
    FIELD(AudioFramePacketTranslation, mPacket, 8, 8);
    FIELD(AudioFramePacketTranslation, mFrameOffsetInPacket, 16, 4);

    /* AudioFile.h: SInt64 mByte, mPacket; UInt32 mByteOffsetInPacket;
       AudioBytePacketTranslationFlags mFlags. */
    STRUCT(AudioBytePacketTranslation, 24, 8);
    FIELD(AudioBytePacketTranslation, mByte, 0, 8);
    FIELD(AudioBytePacketTranslation, mPacket, 8, 8);
    FIELD(AudioBytePacketTranslation, mByteOffsetInPacket, 16, 4);
    FIELD(AudioBytePacketTranslation, mFlags, 20, 4);

    /* AudioFormat.h: AudioStreamBasicDescription mASBD; AudioChannelLayoutTag mChannelLayoutTag. */
    STRUCT(AudioFormatListItem, 48, 8);
    FIELD(AudioFormatListItem, mASBD, 0, 40);
    FIELD(AudioFormatListItem, mChannelLayoutTag, 40, 4);

    /* AudioFormat.h: AudioStreamBasicDescription mASBD; const void *mMagicCookie;
       UInt32 mMagicCookieSize. */
    STRUCT(AudioFormatInfo, 56, 8);
    FIELD(AudioFormatInfo, mASBD, 0, 40);
    FIELD(AudioFormatInfo, mMagicCookie, 40, 8);
    FIELD(AudioFormatInfo, mMagicCookieSize, 48, 4);

    /* AudioConverter.h: UInt32 leadingFrames, trailingFrames. */
    STRUCT(AudioConverterPrimeInfo, 8, 4);
    FIELD(AudioConverterPrimeInfo, leadingFrames, 0, 4);
    FIELD(AudioConverterPrimeInfo, trailingFrames, 4, 4);
    WIDTH(AudioConverterRef, 8);
    WIDTH(AudioConverterPropertyID, 4);
    WIDTH(AudioConverterComplexInputDataProc, 8);

    /* CoreAudioTypes.h (CoreAudioBaseTypes.h): OSType mType, mSubType, mManufacturer. */
    STRUCT(AudioClassDescription, 12, 4);
    FIELD(AudioClassDescription, mType, 0, 4);
    FIELD(AudioClassDescription, mSubType, 4, 4);
    FIELD(AudioClassDescription, mManufacturer, 8, 4);
    WIDTH(AudioFormatPropertyID, 4);
    WIDTH(AudioConverterPropertyID, 4);
}

static void checkConstants(void) {
    /* MacTypes.h. */
    CONST_S32(noErr, 0);

    /* CoreAudioBaseTypes.h: general error codes. */
    CONST_S32(kAudio_UnimplementedError, -4);
    CONST_S32(kAudio_FileNotFoundError, -43);
    CONST_S32(kAudio_FilePermissionError, -54);
    CONST_S32(kAudio_TooManyFilesOpenError, -42);
    CONST_S32(kAudio_BadFilePathError, 0x21707468); /* '!pth' */
    CONST_S32(kAudio_ParamError, -50);
    CONST_S32(kAudio_MemFullError, -108);

    /* CoreAudioBaseTypes.h: format IDs. */
    CONST_U32(kAudioFormatLinearPCM, 0x6C70636D);     /* 'lpcm' */
    CONST_U32(kAudioFormatAC3, 0x61632D33);           /* 'ac-3' */
    CONST_U32(kAudioFormatAppleIMA4, 0x696D6134);     /* 'ima4' */
    CONST_U32(kAudioFormatMPEG4AAC, 0x61616320);      /* 'aac ' */
    CONST_U32(kAudioFormatULaw, 0x756C6177);          /* 'ulaw' */
    CONST_U32(kAudioFormatALaw, 0x616C6177);          /* 'alaw' */
    CONST_U32(kAudioFormatMPEGLayer3, 0x2E6D7033);    /* '.mp3' */
    CONST_U32(kAudioFormatAppleLossless, 0x616C6163); /* 'alac' */
    CONST_U32(kAudioFormatMPEG4AAC_HE, 0x61616368);   /* 'aach' */
    CONST_U32(kAudioFormatMPEG4AAC_HE_V2, 0x61616370); /* 'aacp' */
    CONST_U32(kAudioFormatDVIIntelIMA, 0x6D730011);
    CONST_U32(kAudioFormatMicrosoftGSM, 0x6D730031);
    CONST_U32(kAudioFormatFLAC, 0x666C6163);          /* 'flac' */
    CONST_U32(kAudioFormatOpus, 0x6F707573);          /* 'opus' */

    /* CoreAudioBaseTypes.h: format flags. */
    CONST_U32(kAudioFormatFlagIsFloat, 0x1);
    CONST_U32(kAudioFormatFlagIsBigEndian, 0x2);
    CONST_U32(kAudioFormatFlagIsSignedInteger, 0x4);
    CONST_U32(kAudioFormatFlagIsPacked, 0x8);
    CONST_U32(kAudioFormatFlagIsAlignedHigh, 0x10);
    CONST_U32(kAudioFormatFlagIsNonInterleaved, 0x20);
    CONST_U32(kAudioFormatFlagIsNonMixable, 0x40);
    CONST_U32(kAudioFormatFlagsAreAllClear, 0x80000000U);
    CONST_U32(kLinearPCMFormatFlagIsSignedInteger, 0x4);
    CONST_U32(kLinearPCMFormatFlagIsNonInterleaved, 0x20);
    CONST_U32(kLinearPCMFormatFlagsSampleFractionShift, 7);
    CONST_U32(kLinearPCMFormatFlagsSampleFractionMask, 0x1F80); /* 0x3F << 7 */
    CONST_U32(kLinearPCMFormatFlagsAreAllClear, 0x80000000U);
    CONST_U32(kAppleLosslessFormatFlag_16BitSourceData, 1); /* FLAC uses these flags too */
    CONST_U32(kAppleLosslessFormatFlag_20BitSourceData, 2);
    CONST_U32(kAppleLosslessFormatFlag_24BitSourceData, 3);
    CONST_U32(kAppleLosslessFormatFlag_32BitSourceData, 4);
    CONST_U32(kAudioFormatFlagsNativeEndian, 0);                /* little-endian machines */
    CONST_U32(kAudioFormatFlagsNativeFloatPacked, 0x9);         /* IsFloat | IsPacked */

    /* CoreAudioBaseTypes.h: time stamps. */
    CONST_U32(kSMPTETimeType2398, 11);
    CONST_U32(kSMPTETimeRunning, 0x2);
    CONST_U32(kAudioTimeStampSampleTimeValid, 0x1);
    CONST_U32(kAudioTimeStampHostTimeValid, 0x2);
    CONST_U32(kAudioTimeStampRateScalarValid, 0x4);
    CONST_U32(kAudioTimeStampWordClockTimeValid, 0x8);
    CONST_U32(kAudioTimeStampSMPTETimeValid, 0x10);
    CONST_U32(kAudioTimeStampSampleHostTimeValid, 0x3);

    /* CoreAudioBaseTypes.h: channel labels, bits and layout tags ((n << 16) | channels). */
    CONST_U32(kAudioChannelLabel_Unknown, 0xFFFFFFFFU);
    CONST_U32(kAudioChannelLabel_UseCoordinates, 100);
    CONST_U32(kAudioChannelLabel_LFEScreen, 4);
    CONST_U32(kAudioChannelLabel_RearSurroundLeft, 33);
    CONST_U32(kAudioChannelLabel_Mono, 42);
    CONST_U32(kAudioChannelBit_TopCenterSurround, 0x800);
    CONST_U32(kAudioChannelFlags_Meters, 0x4);
    CONST_U32(kAudioChannelLayoutTag_UseChannelDescriptions, 0x00000000);
    CONST_U32(kAudioChannelLayoutTag_UseChannelBitmap, 0x00010000);
    CONST_U32(kAudioChannelLayoutTag_Mono, 0x00640001);          /* (100 << 16) | 1 */
    CONST_U32(kAudioChannelLayoutTag_Stereo, 0x00650002);        /* (101 << 16) | 2 */
    CONST_U32(kAudioChannelLayoutTag_Quadraphonic, 0x006C0004);  /* (108 << 16) | 4 */
    CONST_U32(kAudioChannelLayoutTag_MPEG_5_1_A, 0x00790006);    /* (121 << 16) | 6 */
    CONST_U32(kAudioChannelLayoutTag_MPEG_7_1_C, 0x00800008);    /* (128 << 16) | 8 */
    CONST_U32(kAudioChannelLayoutTag_AAC_5_1, 0x007C0006);       /* MPEG_5_1_D: (124 << 16) | 6 */
    CONST_U32(kAudioChannelLayoutTag_DiscreteInOrder, 0x00930000); /* (147 << 16) | 0 */
    CONST_U32(kAudioChannelLayoutTag_Unknown, 0xFFFF0000U);
    CONST_U32(AudioChannelLayoutTag_GetNumberOfChannels(kAudioChannelLayoutTag_MPEG_7_1_C), 8);

    /* AudioQueue.h: result codes. */
    CONST_S32(kAudioQueueErr_InvalidBuffer, -66687);
    CONST_S32(kAudioQueueErr_BufferEmpty, -66686);
    CONST_S32(kAudioQueueErr_InvalidPropertySize, -66683);
    CONST_S32(kAudioQueueErr_InvalidRunState, -66678);
    CONST_S32(kAudioQueueErr_BufferEnqueuedTwice, -66666);
    CONST_S32(kAudioQueueErr_CannotStartYet, -66665);
    CONST_S32(kAudioQueueErr_EnqueueDuringReset, -66632);
    CONST_S32(kAudioQueueErr_InvalidOfflineMode, -66626);

    /* AudioQueue.h: properties and parameters. */
    CONST_U32(kAudioQueueProperty_IsRunning, 0x6171726E);               /* 'aqrn' */
    CONST_U32(kAudioQueueDeviceProperty_SampleRate, 0x61717372);        /* 'aqsr' */
    CONST_U32(kAudioQueueDeviceProperty_NumberChannels, 0x61716463);    /* 'aqdc' */
    CONST_U32(kAudioQueueProperty_CurrentDevice, 0x61716364);           /* 'aqcd' */
    CONST_U32(kAudioQueueProperty_MagicCookie, 0x61716D63);             /* 'aqmc' */
    CONST_U32(kAudioQueueProperty_MaximumOutputPacketSize, 0x786F7073); /* 'xops' */
    CONST_U32(kAudioQueueProperty_StreamDescription, 0x61716674);       /* 'aqft' */
    CONST_U32(kAudioQueueProperty_ChannelLayout, 0x6171636C);           /* 'aqcl' */
    CONST_U32(kAudioQueueProperty_EnableLevelMetering, 0x61716D65);     /* 'aqme' */
    CONST_U32(kAudioQueueProperty_CurrentLevelMeter, 0x61716D76);       /* 'aqmv' */
    CONST_U32(kAudioQueueProperty_CurrentLevelMeterDB, 0x61716D64);     /* 'aqmd' */
    CONST_U32(kAudioQueueProperty_DecodeBufferSizeFrames, 0x64636266);  /* 'dcbf' */
    CONST_U32(kAudioQueueProperty_ConverterError, 0x71637665);          /* 'qcve' */
    CONST_U32(kAudioQueueProperty_ChannelAssignments, 0x61716361);      /* 'aqca' */
    CONST_U32(kAudioQueueProperty_EnableTimePitch, 0x715F7470);         /* 'q_tp' */
    CONST_U32(kAudioQueueProperty_TimePitchAlgorithm, 0x71747061);      /* 'qtpa' */
    CONST_U32(kAudioQueueProperty_TimePitchBypass, 0x71747062);         /* 'qtpb' */
    CONST_U32(kAudioQueueTimePitchAlgorithm_Spectral, 0x73706563);      /* 'spec' */
    CONST_U32(kAudioQueueTimePitchAlgorithm_TimeDomain, 0x7469646F);    /* 'tido' */
    CONST_U32(kAudioQueueTimePitchAlgorithm_Varispeed, 0x76737064);     /* 'vspd' */
    CONST_U32(kAudioQueueTimePitchAlgorithm_LowQualityZeroLatency, 0x6C717A6C); /* 'lqzl' */
    CONST_U32(kAudioQueueParam_Volume, 1);
    CONST_U32(kAudioQueueParam_PlayRate, 2);
    CONST_U32(kAudioQueueParam_Pitch, 3);
    CONST_U32(kAudioQueueParam_VolumeRampTime, 4);
    CONST_U32(kAudioQueueParam_Pan, 13);

    /* AudioFile.h: file types. */
    CONST_U32(kAudioFileAIFFType, 0x41494646);     /* 'AIFF' */
    CONST_U32(kAudioFileAIFCType, 0x41494643);     /* 'AIFC' */
    CONST_U32(kAudioFileWAVEType, 0x57415645);     /* 'WAVE' */
    CONST_U32(kAudioFileRF64Type, 0x52463634);     /* 'RF64' */
    CONST_U32(kAudioFileMP3Type, 0x4D504733);      /* 'MPG3' */
    CONST_U32(kAudioFileAAC_ADTSType, 0x61647473); /* 'adts' */
    CONST_U32(kAudioFileM4AType, 0x6D346166);      /* 'm4af' */
    CONST_U32(kAudioFileCAFType, 0x63616666);      /* 'caff' */
    CONST_U32(kAudioFileFLACType, 0x666C6163);     /* 'flac' */
    CONST_U32(kAudioFileLATMInLOASType, 0x6C6F6173); /* 'loas' */

    /* AudioFile.h: result codes. */
    CONST_S32(kAudioFileUnspecifiedError, 0x7768743F);           /* 'wht?' */
    CONST_S32(kAudioFileUnsupportedFileTypeError, 0x7479703F);   /* 'typ?' */
    CONST_S32(kAudioFileUnsupportedDataFormatError, 0x666D743F); /* 'fmt?' */
    CONST_S32(kAudioFileUnsupportedPropertyError, 0x7074793F);   /* 'pty?' */
    CONST_S32(kAudioFileBadPropertySizeError, 0x2173697A);       /* '!siz' */
    CONST_S32(kAudioFilePermissionsError, 0x70726D3F);           /* 'prm?' */
    CONST_S32(kAudioFileNotOptimizedError, 0x6F70746D);          /* 'optm' */
    CONST_S32(kAudioFileInvalidChunkError, 0x63686B3F);          /* 'chk?' */
    CONST_S32(kAudioFileDoesNotAllow64BitDataSizeError, 0x6F66663F); /* 'off?' */
    CONST_S32(kAudioFileInvalidPacketOffsetError, 0x70636B3F);   /* 'pck?' */
    CONST_S32(kAudioFileInvalidPacketDependencyError, 0x6465703F); /* 'dep?' */
    CONST_S32(kAudioFileInvalidFileError, 0x6474613F);           /* 'dta?' */
    CONST_S32(kAudioFileOperationNotSupportedError, 0x6F703F3F); /* 'op??' */
    CONST_S32(kAudioFileNotOpenError, -38);
    CONST_S32(kAudioFileEndOfFileError, -39);
    CONST_S32(kAudioFilePositionError, -40);
    CONST_S32(kAudioFileFileNotFoundError, -43);

    /* AudioFile.h: flags, permissions and properties. */
    CONST_U32(kAudioFileFlags_EraseFile, 1);
    CONST_U32(kAudioFileFlags_DontPageAlignAudioData, 2);
    CONST_S32(kAudioFileReadPermission, 1);
    CONST_S32(kAudioFileWritePermission, 2);
    CONST_S32(kAudioFileReadWritePermission, 3);
    CONST_U32(kBytePacketTranslationFlag_IsEstimate, 1);
    CONST_U32(kAudioFilePropertyFileFormat, 0x66666D74);           /* 'ffmt' */
    CONST_U32(kAudioFilePropertyDataFormat, 0x64666D74);           /* 'dfmt' */
    CONST_U32(kAudioFilePropertyFormatList, 0x666C7374);           /* 'flst' */
    CONST_U32(kAudioFilePropertyIsOptimized, 0x6F70746D);          /* 'optm' */
    CONST_U32(kAudioFilePropertyMagicCookieData, 0x6D676963);      /* 'mgic' */
    CONST_U32(kAudioFilePropertyAudioDataByteCount, 0x62636E74);   /* 'bcnt' */
    CONST_U32(kAudioFilePropertyAudioDataPacketCount, 0x70636E74); /* 'pcnt' */
    CONST_U32(kAudioFilePropertyMaximumPacketSize, 0x70737A65);    /* 'psze' */
    CONST_U32(kAudioFilePropertyDataOffset, 0x646F6666);           /* 'doff' */
    CONST_U32(kAudioFilePropertyChannelLayout, 0x636D6170);        /* 'cmap' */
    CONST_U32(kAudioFilePropertyPacketToFrame, 0x706B6672);        /* 'pkfr' */
    CONST_U32(kAudioFilePropertyFrameToPacket, 0x6672706B);        /* 'frpk' */
    CONST_U32(kAudioFilePropertyPacketToByte, 0x706B6279);         /* 'pkby' */
    CONST_U32(kAudioFilePropertyByteToPacket, 0x6279706B);         /* 'bypk' */
    CONST_U32(kAudioFilePropertyPacketTableInfo, 0x706E666F);      /* 'pnfo' */
    CONST_U32(kAudioFilePropertyPacketSizeUpperBound, 0x706B7562); /* 'pkub' */
    CONST_U32(kAudioFilePropertyEstimatedDuration, 0x65647572);    /* 'edur' */
    CONST_U32(kAudioFilePropertyBitRate, 0x62726174);              /* 'brat' */
    CONST_U32(kAudioFilePropertySourceBitDepth, 0x73627464);       /* 'sbtd' */

    /* AudioFileStream.h: flags, result codes and properties. */
    CONST_U32(kAudioFileStreamPropertyFlag_PropertyIsCached, 1);
    CONST_U32(kAudioFileStreamPropertyFlag_CacheProperty, 2);
    CONST_U32(kAudioFileStreamParseFlag_Discontinuity, 1);
    CONST_U32(kAudioFileStreamSeekFlag_OffsetIsEstimated, 1);
    CONST_S32(kAudioFileStreamError_UnsupportedFileType, 0x7479703F);   /* 'typ?' */
    CONST_S32(kAudioFileStreamError_UnsupportedDataFormat, 0x666D743F); /* 'fmt?' */
    CONST_S32(kAudioFileStreamError_UnsupportedProperty, 0x7074793F);   /* 'pty?' */
    CONST_S32(kAudioFileStreamError_BadPropertySize, 0x2173697A);       /* '!siz' */
    CONST_S32(kAudioFileStreamError_NotOptimized, 0x6F70746D);          /* 'optm' */
    CONST_S32(kAudioFileStreamError_InvalidPacketOffset, 0x70636B3F);   /* 'pck?' */
    CONST_S32(kAudioFileStreamError_InvalidFile, 0x6474613F);           /* 'dta?' */
    CONST_S32(kAudioFileStreamError_ValueUnknown, 0x756E6B3F);          /* 'unk?' */
    CONST_S32(kAudioFileStreamError_DataUnavailable, 0x6D6F7265);       /* 'more' */
    CONST_S32(kAudioFileStreamError_IllegalOperation, 0x6E6F7065);      /* 'nope' */
    CONST_S32(kAudioFileStreamError_UnspecifiedError, 0x7768743F);      /* 'wht?' */
    CONST_S32(kAudioFileStreamError_DiscontinuityCantRecover, 0x64736321); /* 'dsc!' */
    CONST_U32(kAudioFileStreamProperty_ReadyToProducePackets, 0x72656479); /* 'redy' */
    CONST_U32(kAudioFileStreamProperty_FileFormat, 0x66666D74);         /* 'ffmt' */
    CONST_U32(kAudioFileStreamProperty_DataFormat, 0x64666D74);         /* 'dfmt' */
    CONST_U32(kAudioFileStreamProperty_FormatList, 0x666C7374);         /* 'flst' */
    CONST_U32(kAudioFileStreamProperty_MagicCookieData, 0x6D676963);    /* 'mgic' */
    CONST_U32(kAudioFileStreamProperty_AudioDataByteCount, 0x62636E74); /* 'bcnt' */
    CONST_U32(kAudioFileStreamProperty_AudioDataPacketCount, 0x70636E74); /* 'pcnt' */
    CONST_U32(kAudioFileStreamProperty_MaximumPacketSize, 0x70737A65);  /* 'psze' */
    CONST_U32(kAudioFileStreamProperty_DataOffset, 0x646F6666);         /* 'doff' */
    CONST_U32(kAudioFileStreamProperty_ChannelLayout, 0x636D6170);      /* 'cmap' */
    CONST_U32(kAudioFileStreamProperty_PacketToFrame, 0x706B6672);      /* 'pkfr' */
    CONST_U32(kAudioFileStreamProperty_FrameToPacket, 0x6672706B);      /* 'frpk' */
    CONST_U32(kAudioFileStreamProperty_PacketToByte, 0x706B6279);       /* 'pkby' */
    CONST_U32(kAudioFileStreamProperty_ByteToPacket, 0x6279706B);       /* 'bypk' */
    CONST_U32(kAudioFileStreamProperty_PacketTableInfo, 0x706E666F);    /* 'pnfo' */
    CONST_U32(kAudioFileStreamProperty_PacketSizeUpperBound, 0x706B7562); /* 'pkub' */
    CONST_U32(kAudioFileStreamProperty_AverageBytesPerPacket, 0x61627070); /* 'abpp' */
    CONST_U32(kAudioFileStreamProperty_BitRate, 0x62726174);            /* 'brat' */
    CONST_U32(kAudioFileStreamProperty_InfoDictionary, 0x696E666F);     /* 'info' */

    /* ExtendedAudioFile.h: properties and result codes. */
    CONST_U32(kExtAudioFileProperty_FileDataFormat, 0x66666D74);     /* 'ffmt' */
    CONST_U32(kExtAudioFileProperty_FileChannelLayout, 0x66636C6F);  /* 'fclo' */
    CONST_U32(kExtAudioFileProperty_ClientDataFormat, 0x63666D74);   /* 'cfmt' */
    CONST_U32(kExtAudioFileProperty_ClientChannelLayout, 0x63636C6F); /* 'cclo' */
    CONST_U32(kExtAudioFileProperty_AudioFile, 0x6166696C);          /* 'afil' */
    CONST_U32(kExtAudioFileProperty_FileMaxPacketSize, 0x666D7073);  /* 'fmps' */
    CONST_U32(kExtAudioFileProperty_ClientMaxPacketSize, 0x636D7073); /* 'cmps' */
    CONST_U32(kExtAudioFileProperty_FileLengthFrames, 0x2366726D);   /* '#frm' */
    CONST_U32(kExtAudioFileProperty_IOBufferSizeBytes, 0x696F6273);  /* 'iobs' */
    CONST_U32(kExtAudioFileProperty_PacketTable, 0x78707469);        /* 'xpti' */
    CONST_S32(kExtAudioFileError_InvalidProperty, -66561);
    CONST_S32(kExtAudioFileError_InvalidPropertySize, -66562);
    CONST_S32(kExtAudioFileError_NonPCMClientFormat, -66563);
    CONST_S32(kExtAudioFileError_InvalidChannelMap, -66564);
    CONST_S32(kExtAudioFileError_InvalidOperationOrder, -66565);
    CONST_S32(kExtAudioFileError_InvalidDataFormat, -66566);
    CONST_S32(kExtAudioFileError_MaxPacketSizeUnknown, -66567);
    CONST_S32(kExtAudioFileError_InvalidSeek, -66568);

    /* AudioFormat.h: properties and result codes. */
    CONST_U32(kAudioFormatProperty_FormatInfo, 0x666D7469);          /* 'fmti' */
    CONST_U32(kAudioFormatProperty_FormatName, 0x666E616D);          /* 'fnam' */
    CONST_U32(kAudioFormatProperty_EncodeFormatIDs, 0x61636F66);     /* 'acof' */
    CONST_U32(kAudioFormatProperty_DecodeFormatIDs, 0x61636966);     /* 'acif' */
    CONST_U32(kAudioFormatProperty_FormatList, 0x666C7374);          /* 'flst' */
    CONST_U32(kAudioFormatProperty_ASBDFromESDS, 0x65737364);        /* 'essd' */
    CONST_U32(kAudioFormatProperty_ChannelLayoutFromESDS, 0x6573636C); /* 'escl' */
    CONST_U32(kAudioFormatProperty_FirstPlayableFormatFromList, 0x6670666C); /* 'fpfl' */
    CONST_U32(kAudioFormatProperty_FormatIsVBR, 0x66766272);         /* 'fvbr' */
    CONST_U32(kAudioFormatProperty_FormatIsExternallyFramed, 0x66657866); /* 'fexf' */
    CONST_U32(kAudioFormatProperty_AvailableEncodeNumberChannels, 0x61766E63); /* 'avnc' */
    CONST_U32(kAudioFormatProperty_BitmapForLayoutTag, 0x626D7467);  /* 'bmtg' */
    CONST_U32(kAudioFormatProperty_NumberOfChannelsForLayout, 0x6E63686D); /* 'nchm' */
    CONST_U32(kAudioFormatProperty_ChannelLayoutForTag, 0x636D706C); /* 'cmpl' */
    CONST_U32(kAudioFormatProperty_ChannelLayoutName, 0x6C6F6E6D);   /* 'lonm' */
    CONST_U32(kAudioFormatProperty_ChannelLayoutSimpleName, 0x6C736E6D); /* 'lsnm' */
    CONST_U32(kAudioFormatProperty_ChannelLayoutForBitmap, 0x636D7062); /* 'cmpb' */
    CONST_U32(kAudioFormatProperty_ChannelName, 0x636E616D);         /* 'cnam' */
    CONST_U32(kAudioFormatProperty_ChannelShortName, 0x63736E6D);    /* 'csnm' */
    CONST_U32(kAudioFormatProperty_TagsForNumberOfChannels, 0x74616763); /* 'tagc' */
    CONST_S32(kAudioFormatUnspecifiedError, 0x77686174);             /* 'what' */
    CONST_S32(kAudioFormatUnsupportedPropertyError, 0x70726F70);     /* 'prop' */
    CONST_S32(kAudioFormatBadPropertySizeError, 0x2173697A);         /* '!siz' */
    CONST_S32(kAudioFormatBadSpecifierSizeError, 0x21737063);        /* '!spc' */
    CONST_S32(kAudioFormatUnsupportedDataFormatError, 0x666D743F);   /* 'fmt?' */
    CONST_S32(kAudioFormatUnknownFormatError, 0x21666D74);           /* '!fmt' */

    /* AudioConverter.h: the properties a queue answers, and result codes. */
    CONST_U32(kAudioConverterPropertyMaximumInputPacketSize, 0x78697073);  /* 'xips' */
    CONST_U32(kAudioConverterPropertyMaximumOutputPacketSize, 0x786F7073); /* 'xops' */
    CONST_U32(kAudioConverterPrimeInfo, 0x7072696D);                       /* 'prim' */
    CONST_U32(kAudioConverterDecompressionMagicCookie, 0x646D6763);        /* 'dmgc' */
    CONST_U32(kAudioConverterCompressionMagicCookie, 0x636D6763);          /* 'cmgc' */
    CONST_U32(kAudioConverterCurrentOutputStreamDescription, 0x61636F64);  /* 'acod' */
    CONST_U32(kAudioConverterCurrentInputStreamDescription, 0x61636964);   /* 'acid' */
    CONST_U32(kConverterPrimeMethod_None, 2);
    CONST_S32(kAudioConverterErr_FormatNotSupported, 0x666D743F);          /* 'fmt?' */
    CONST_S32(kAudioConverterErr_OperationNotSupported, 0x6F703F3F);       /* 'op??' */
    CONST_S32(kAudioConverterErr_PropertyNotSupported, 0x70726F70);        /* 'prop' */
    CONST_S32(kAudioConverterErr_BadPropertySizeError, 0x2173697A);        /* '!siz' */
    CONST_S32(kAudioConverterErr_RequiresPacketDescriptionsError, 0x21706B64); /* '!pkd' */
    CONST_S32(kAudioConverterErr_InvalidInputSize, 0x696E737A);            /* 'insz' */
    CONST_S32(kAudioConverterErr_InvalidOutputSize, 0x6F74737A);           /* 'otsz' */
    CONST_S32(kAudioConverterErr_UnspecifiedError, 0x77686174);            /* 'what' */
    CONST_S32(kAudioConverterErr_InputSampleRateOutOfRange, 0x21697372);   /* '!isr' */
    CONST_S32(kAudioConverterErr_OutputSampleRateOutOfRange, 0x216F7372);  /* '!osr' */

    /* AudioConverter.h: the converter's own properties, qualities and complexities. */
    CONST_U32(kAudioConverterPropertyMinimumInputBufferSize, 0x6D696273);   /* 'mibs' */
    CONST_U32(kAudioConverterPropertyMinimumOutputBufferSize, 0x6D6F6273);  /* 'mobs' */
    CONST_U32(kAudioConverterPropertyCalculateInputBufferSize, 0x63696273); /* 'cibs' */
    CONST_U32(kAudioConverterPropertyCalculateOutputBufferSize, 0x636F6273); /* 'cobs' */
    CONST_U32(kAudioConverterSampleRateConverterComplexity, 0x73726361);    /* 'srca' */
    CONST_U32(kAudioConverterSampleRateConverterQuality, 0x73726371);       /* 'srcq' */
    CONST_U32(kAudioConverterCodecQuality, 0x63647175);                     /* 'cdqu' */
    CONST_U32(kAudioConverterPrimeMethod, 0x70726D6D);                      /* 'prmm' */
    CONST_U32(kAudioConverterChannelMap, 0x63686D70);                       /* 'chmp' */
    CONST_U32(kAudioConverterEncodeBitRate, 0x62726174);                    /* 'brat' */
    CONST_U32(kAudioConverterInputChannelLayout, 0x69636C20);               /* 'icl ' */
    CONST_U32(kAudioConverterOutputChannelLayout, 0x6F636C20);              /* 'ocl ' */
    CONST_U32(kAudioConverterApplicableEncodeBitRates, 0x61656272);         /* 'aebr' */
    CONST_U32(kAudioConverterAvailableEncodeBitRates, 0x76656272);          /* 'vebr' */
    CONST_U32(kConverterPrimeMethod_Pre, 0);
    CONST_U32(kConverterPrimeMethod_Normal, 1);
    CONST_U32(kAudioConverterQuality_Max, 0x7F);
    CONST_U32(kAudioConverterQuality_High, 0x60);
    CONST_U32(kAudioConverterQuality_Medium, 0x40);
    CONST_U32(kAudioConverterQuality_Low, 0x20);
    CONST_U32(kAudioConverterQuality_Min, 0);
    CONST_U32(kAudioConverterSampleRateConverterComplexity_Linear, 0x6C696E65);       /* 'line' */
    CONST_U32(kAudioConverterSampleRateConverterComplexity_Normal, 0x6E6F726D);       /* 'norm' */
    CONST_U32(kAudioConverterSampleRateConverterComplexity_Mastering, 0x62617473);    /* 'bats' */
    CONST_U32(kAudioConverterSampleRateConverterComplexity_MinimumPhase, 0x6D696E70); /* 'minp' */

    /* CFURL.h, CFRunLoop.h, CFString.h. */
    CONST_S64(kCFURLPOSIXPathStyle, 0);
    CONST_S64(kCFURLWindowsPathStyle, 2);
    CONST_S32(kCFRunLoopRunFinished, 1);
    CONST_S32(kCFRunLoopRunHandledSource, 4);
    CONST_U32(kCFStringEncodingUTF8, 0x08000100);
}

#include "abi_check_cf.h"
#include "abi_check_objects.h"
#include "abi_check_hal.c"
#include "abi_check_taps.h"
#include "abi_check_units.h"
#include "abi_check_unit_api.h"
#include "abi_check_ioproc.h"

int main(void) {
    checkScalarTypes();
    checkHardware();
    checkIOProcs();
    checkStructs();
    checkConstants();
    checkMacTypesAndCoreFoundation();
    checkCoreFoundationObjects();
    checkProcessingTaps();
    checkAudioUnits();
    checkAudioUnitAPI();
    printf("%s ABI: %d passed, %d failed\n", ABI_LANGUAGE, passed, failed);
    return failed == 0 ? 0 : 1;
}
