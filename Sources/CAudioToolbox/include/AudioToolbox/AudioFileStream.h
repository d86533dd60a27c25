/*
 * AudioFileStream.h — Audio File Stream Services with Apple's names, types, constants and result
 * codes: a parser fed a stream's bytes a piece at a time, which calls back with its properties as
 * they become known and with whole packets. Streams ADTS, MPEG audio, CAF, WAVE/RF64, AIFF/AIFC
 * and MPEG-4 files whose 'moov' comes before 'mdat'.
 *
 * swift-audio-queue. Apache License 2.0.
 */
#ifndef AudioToolbox_AudioFileStream_h
#define AudioToolbox_AudioFileStream_h

#include <AudioToolbox/CoreAudioTypes.h>
#include <AudioToolbox/AudioFile.h>
#include <AudioToolbox/AudioFormat.h>

AT_EXTERN_C_BEGIN
AT_ASSUME_NONNULL_BEGIN

/** Flags a property listener gets (PropertyIsCached: the value can be read later; this parser
    keeps every value it reports) and may set (CacheProperty: keep it). */
typedef CF_OPTIONS(UInt32, AudioFileStreamPropertyFlags) {
    kAudioFileStreamPropertyFlag_PropertyIsCached = 1,
    kAudioFileStreamPropertyFlag_CacheProperty = 2,
};

/** Discontinuity: the bytes do not follow the previous ones (after AudioFileStreamSeek, or lost
    data); a partial packet held from before is dropped. */
typedef CF_OPTIONS(UInt32, AudioFileStreamParseFlags) {
    kAudioFileStreamParseFlag_Discontinuity = 1,
};

/** Set by AudioFileStreamSeek when the byte offset is an estimate (ADTS, MPEG audio). */
typedef CF_OPTIONS(UInt32, AudioFileStreamSeekFlags) {
    kAudioFileStreamSeekFlag_OffsetIsEstimated = 1,
};

typedef UInt32 AudioFileStreamPropertyID;
typedef struct OpaqueAudioFileStreamID *AudioFileStreamID;

/** Called from inside AudioFileStreamParseBytes when a property becomes known. */
typedef void (*AudioFileStream_PropertyListenerProc)(void *_Nullable inClientData, AudioFileStreamID inAudioFileStream,
                                                     AudioFileStreamPropertyID inPropertyID,
                                                     AudioFileStreamPropertyFlags *ioFlags);

/** Called from inside AudioFileStreamParseBytes with whole packets: `inInputData` holds
    `inNumberBytes` bytes, valid only during the call; the descriptions' offsets are relative to
    it; NULL descriptions for constant-size packets. */
typedef void (*AudioFileStream_PacketsProc)(void *_Nullable inClientData, UInt32 inNumberBytes, UInt32 inNumberPackets,
                                            const void *inInputData,
                                            AudioStreamPacketDescription *_Nullable inPacketDescriptions);

CF_ENUM(OSStatus) {
    kAudioFileStreamError_UnsupportedFileType = 0x7479703F,   /* 'typ?' */
    kAudioFileStreamError_UnsupportedDataFormat = 0x666D743F, /* 'fmt?' */
    kAudioFileStreamError_UnsupportedProperty = 0x7074793F,   /* 'pty?' */
    kAudioFileStreamError_BadPropertySize = 0x2173697A,       /* '!siz' */
    kAudioFileStreamError_NotOptimized = 0x6F70746D,          /* 'optm' */
    kAudioFileStreamError_InvalidPacketOffset = 0x70636B3F,   /* 'pck?' */
    kAudioFileStreamError_InvalidFile = 0x6474613F,           /* 'dta?' */
    kAudioFileStreamError_ValueUnknown = 0x756E6B3F,          /* 'unk?' */
    kAudioFileStreamError_DataUnavailable = 0x6D6F7265,       /* 'more' */
    kAudioFileStreamError_IllegalOperation = 0x6E6F7065,      /* 'nope' */
    kAudioFileStreamError_UnspecifiedError = 0x7768743F,      /* 'wht?' */
    kAudioFileStreamError_DiscontinuityCantRecover = 0x64736321, /* 'dsc!' */
};

CF_ENUM(AudioFileStreamPropertyID) {
    kAudioFileStreamProperty_ReadyToProducePackets = 0x72656479, /* 'redy' UInt32 */
    kAudioFileStreamProperty_FileFormat = 0x66666D74,            /* 'ffmt' UInt32 */
    kAudioFileStreamProperty_DataFormat = 0x64666D74,            /* 'dfmt' AudioStreamBasicDescription */
    kAudioFileStreamProperty_FormatList = 0x666C7374,            /* 'flst' AudioFormatListItem[] */
    kAudioFileStreamProperty_MagicCookieData = 0x6D676963,       /* 'mgic' bytes */
    kAudioFileStreamProperty_AudioDataByteCount = 0x62636E74,    /* 'bcnt' UInt64 */
    kAudioFileStreamProperty_AudioDataPacketCount = 0x70636E74,  /* 'pcnt' UInt64 */
    kAudioFileStreamProperty_MaximumPacketSize = 0x70737A65,     /* 'psze' UInt32 */
    kAudioFileStreamProperty_DataOffset = 0x646F6666,            /* 'doff' SInt64 */
    kAudioFileStreamProperty_ChannelLayout = 0x636D6170,         /* 'cmap' AudioChannelLayout */
    kAudioFileStreamProperty_PacketToFrame = 0x706B6672,         /* 'pkfr' AudioFramePacketTranslation */
    kAudioFileStreamProperty_FrameToPacket = 0x6672706B,         /* 'frpk' AudioFramePacketTranslation */
    kAudioFileStreamProperty_RestrictsRandomAccess = 0x72726170, /* 'rrap' UInt32 */
    kAudioFileStreamProperty_PacketToRollDistance = 0x706B726C,  /* 'pkrl' */
    kAudioFileStreamProperty_PreviousIndependentPacket = 0x70696E64, /* 'pind' */
    kAudioFileStreamProperty_NextIndependentPacket = 0x6E696E64, /* 'nind' */
    kAudioFileStreamProperty_PacketToDependencyInfo = 0x706B6470, /* 'pkdp' */
    kAudioFileStreamProperty_PacketToByte = 0x706B6279,          /* 'pkby' AudioBytePacketTranslation */
    kAudioFileStreamProperty_ByteToPacket = 0x6279706B,          /* 'bypk' AudioBytePacketTranslation */
    kAudioFileStreamProperty_PacketTableInfo = 0x706E666F,       /* 'pnfo' AudioFilePacketTableInfo */
    kAudioFileStreamProperty_PacketSizeUpperBound = 0x706B7562,  /* 'pkub' UInt32 */
    kAudioFileStreamProperty_AverageBytesPerPacket = 0x61627070, /* 'abpp' Float64 */
    kAudioFileStreamProperty_BitRate = 0x62726174,               /* 'brat' UInt32 */
    kAudioFileStreamProperty_InfoDictionary = 0x696E666F,        /* 'info' CFDictionaryRef */
};

/** Opens a parser. `inFileTypeHint` (0 for none) names the container where the bytes cannot. */
AT_EXPORT OSStatus AudioFileStreamOpen(void *_Nullable inClientData,
                                       AudioFileStream_PropertyListenerProc inPropertyListenerProc,
                                       AudioFileStream_PacketsProc inPacketsProc, AudioFileTypeID inFileTypeHint,
                                       AudioFileStreamID _Nullable *_Nonnull outAudioFileStream);

/** Parses the next bytes, calling the callbacks from inside. At the end of the stream, call it
    once with 0 bytes and NULL data. */
AT_EXPORT OSStatus AudioFileStreamParseBytes(AudioFileStreamID inAudioFileStream, UInt32 inDataByteSize,
                                             const void *_Nullable inData, AudioFileStreamParseFlags inFlags);

/** The byte offset of packet `inPacketOffset` from the data offset (add
    kAudioFileStreamProperty_DataOffset for the stream offset); the next bytes parsed are taken
    as starting there. */
AT_EXPORT OSStatus AudioFileStreamSeek(AudioFileStreamID inAudioFileStream, SInt64 inPacketOffset,
                                       SInt64 *outDataByteOffset, AudioFileStreamSeekFlags *ioFlags);

AT_EXPORT OSStatus AudioFileStreamGetPropertyInfo(AudioFileStreamID inAudioFileStream,
                                                  AudioFileStreamPropertyID inPropertyID,
                                                  UInt32 *_Nullable outPropertyDataSize, Boolean *_Nullable outWritable);

AT_EXPORT OSStatus AudioFileStreamGetProperty(AudioFileStreamID inAudioFileStream,
                                              AudioFileStreamPropertyID inPropertyID, UInt32 *ioPropertyDataSize,
                                              void *outPropertyData);

/** There are no settable properties: a known one gives kAudioFileStreamError_IllegalOperation,
    any other kAudioFileStreamError_UnsupportedProperty. */
AT_EXPORT OSStatus AudioFileStreamSetProperty(AudioFileStreamID inAudioFileStream,
                                              AudioFileStreamPropertyID inPropertyID, UInt32 inPropertyDataSize,
                                              const void *inPropertyData);

AT_EXPORT OSStatus AudioFileStreamClose(AudioFileStreamID inAudioFileStream);

AT_ASSUME_NONNULL_END
AT_EXTERN_C_END

#endif /* AudioToolbox_AudioFileStream_h */
