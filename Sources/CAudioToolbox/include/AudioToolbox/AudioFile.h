/*
 * AudioFile.h — Audio File Services with Apple's names, types, constants and result codes:
 * open and create files by URL, read and write packets and bytes, get and set properties.
 * Reads CAF, AIFF/AIFC, WAVE/RF64/BW64 and ADTS; writes CAF, AIFF/AIFC and WAVE.
 *
 * swift-audio-queue. Apache License 2.0.
 */
#ifndef AudioToolbox_AudioFile_h
#define AudioToolbox_AudioFile_h

#include <AudioToolbox/CoreAudioTypes.h>

AT_EXTERN_C_BEGIN
AT_ASSUME_NONNULL_BEGIN

typedef UInt32 AudioFileTypeID;
typedef UInt32 AudioFilePropertyID;
typedef struct OpaqueAudioFileID *AudioFileID;

CF_ENUM(AudioFileTypeID) {
    kAudioFileAIFFType = 0x41494646,         /* 'AIFF' */
    kAudioFileAIFCType = 0x41494643,         /* 'AIFC' */
    kAudioFileWAVEType = 0x57415645,         /* 'WAVE' */
    kAudioFileRF64Type = 0x52463634,         /* 'RF64' */
    kAudioFileBW64Type = 0x42573634,         /* 'BW64' */
    kAudioFileWave64Type = 0x57363466,       /* 'W64f' */
    kAudioFileSoundDesigner2Type = 0x53643266, /* 'Sd2f' */
    kAudioFileNextType = 0x4E655854,         /* 'NeXT' */
    kAudioFileMP3Type = 0x4D504733,          /* 'MPG3' */
    kAudioFileMP2Type = 0x4D504732,          /* 'MPG2' */
    kAudioFileMP1Type = 0x4D504731,          /* 'MPG1' */
    kAudioFileAC3Type = 0x61632D33,          /* 'ac-3' */
    kAudioFileAAC_ADTSType = 0x61647473,     /* 'adts' */
    kAudioFileMPEG4Type = 0x6D703466,        /* 'mp4f' */
    kAudioFileM4AType = 0x6D346166,          /* 'm4af' */
    kAudioFileM4BType = 0x6D346266,          /* 'm4bf' */
    kAudioFileCAFType = 0x63616666,          /* 'caff' */
    kAudioFile3GPType = 0x33677070,          /* '3gpp' */
    kAudioFile3GP2Type = 0x33677032,         /* '3gp2' */
    kAudioFileAMRType = 0x616D7266,          /* 'amrf' */
    kAudioFileFLACType = 0x666C6163,         /* 'flac' */
    kAudioFileLATMInLOASType = 0x6C6F6173,   /* 'loas' */
};

CF_ENUM(OSStatus) {
    kAudioFileUnspecifiedError = 0x7768743F,          /* 'wht?' */
    kAudioFileUnsupportedFileTypeError = 0x7479703F,  /* 'typ?' */
    kAudioFileUnsupportedDataFormatError = 0x666D743F, /* 'fmt?' */
    kAudioFileUnsupportedPropertyError = 0x7074793F,  /* 'pty?' */
    kAudioFileBadPropertySizeError = 0x2173697A,      /* '!siz' */
    kAudioFilePermissionsError = 0x70726D3F,          /* 'prm?' */
    kAudioFileNotOptimizedError = 0x6F70746D,         /* 'optm' */
    kAudioFileInvalidChunkError = 0x63686B3F,         /* 'chk?' */
    kAudioFileDoesNotAllow64BitDataSizeError = 0x6F66663F, /* 'off?' */
    kAudioFileInvalidPacketOffsetError = 0x70636B3F,  /* 'pck?' */
    kAudioFileInvalidPacketDependencyError = 0x6465703F, /* 'dep?' */
    kAudioFileInvalidFileError = 0x6474613F,          /* 'dta?' */
    kAudioFileOperationNotSupportedError = 0x6F703F3F, /* 'op??' */
    kAudioFileNotOpenError = -38,
    kAudioFileEndOfFileError = -39,
    kAudioFilePositionError = -40,
    kAudioFileFileNotFoundError = -43,
};

typedef CF_OPTIONS(UInt32, AudioFileFlags) {
    kAudioFileFlags_EraseFile = 1,
    kAudioFileFlags_DontPageAlignAudioData = 2,
};

typedef CF_ENUM(SInt8, AudioFilePermissions) {
    kAudioFileReadPermission = 0x01,
    kAudioFileWritePermission = 0x02,
    kAudioFileReadWritePermission = 0x03,
};

CF_ENUM(AudioFilePropertyID) {
    kAudioFilePropertyFileFormat = 0x66666D74,          /* 'ffmt' UInt32 */
    kAudioFilePropertyDataFormat = 0x64666D74,          /* 'dfmt' AudioStreamBasicDescription */
    kAudioFilePropertyIsOptimized = 0x6F70746D,         /* 'optm' UInt32 */
    kAudioFilePropertyMagicCookieData = 0x6D676963,     /* 'mgic' void* */
    kAudioFilePropertyAudioDataByteCount = 0x62636E74,  /* 'bcnt' UInt64 */
    kAudioFilePropertyAudioDataPacketCount = 0x70636E74, /* 'pcnt' UInt64 */
    kAudioFilePropertyMaximumPacketSize = 0x70737A65,   /* 'psze' UInt32 */
    kAudioFilePropertyDataOffset = 0x646F6666,          /* 'doff' SInt64 */
    kAudioFilePropertyChannelLayout = 0x636D6170,       /* 'cmap' AudioChannelLayout */
    kAudioFilePropertyDeferSizeUpdates = 0x64737A75,    /* 'dszu' UInt32 */
    kAudioFilePropertyDataFormatName = 0x666E6D65,      /* 'fnme' */
    kAudioFilePropertyMarkerList = 0x6D6B6C73,          /* 'mkls' */
    kAudioFilePropertyRegionList = 0x72676C73,          /* 'rgls' */
    kAudioFilePropertyPacketToFrame = 0x706B6672,       /* 'pkfr' AudioFramePacketTranslation */
    kAudioFilePropertyFrameToPacket = 0x6672706B,       /* 'frpk' AudioFramePacketTranslation */
    kAudioFilePropertyPacketToByte = 0x706B6279,        /* 'pkby' AudioBytePacketTranslation */
    kAudioFilePropertyByteToPacket = 0x6279706B,        /* 'bypk' AudioBytePacketTranslation */
    kAudioFilePropertyChunkIDs = 0x63686964,            /* 'chid' */
    kAudioFilePropertyInfoDictionary = 0x696E666F,      /* 'info' */
    kAudioFilePropertyPacketTableInfo = 0x706E666F,     /* 'pnfo' AudioFilePacketTableInfo */
    kAudioFilePropertyFormatList = 0x666C7374,          /* 'flst' */
    kAudioFilePropertyPacketSizeUpperBound = 0x706B7562, /* 'pkub' UInt32 */
    kAudioFilePropertyReserveDuration = 0x72737276,     /* 'rsrv' */
    kAudioFilePropertyEstimatedDuration = 0x65647572,   /* 'edur' Float64 */
    kAudioFilePropertyBitRate = 0x62726174,             /* 'brat' UInt32 */
    kAudioFilePropertyID3Tag = 0x69643374,              /* 'id3t' */
    kAudioFilePropertySourceBitDepth = 0x73627464,      /* 'sbtd' SInt32 */
    kAudioFilePropertyAlbumArtwork = 0x61617274,        /* 'aart' */
    kAudioFilePropertyAudioTrackCount = 0x61746374,     /* 'atct' UInt32 */
    kAudioFilePropertyUseAudioTrack = 0x7561746B,       /* 'uatk' UInt32 */
};

/* The keys of kAudioFilePropertyInfoDictionary (and kAudioFileStreamProperty_InfoDictionary). */
#define kAFInfoDictionary_Artist "artist"
#define kAFInfoDictionary_Album "album"
#define kAFInfoDictionary_Tempo "tempo"
#define kAFInfoDictionary_KeySignature "key signature"
#define kAFInfoDictionary_TimeSignature "time signature"
#define kAFInfoDictionary_TrackNumber "track number"
#define kAFInfoDictionary_Year "year"
#define kAFInfoDictionary_Composer "composer"
#define kAFInfoDictionary_Lyricist "lyricist"
#define kAFInfoDictionary_Genre "genre"
#define kAFInfoDictionary_Title "title"
#define kAFInfoDictionary_RecordedDate "recorded date"
#define kAFInfoDictionary_Comments "comments"
#define kAFInfoDictionary_Copyright "copyright"
#define kAFInfoDictionary_SourceEncoder "source encoder"
#define kAFInfoDictionary_EncodingApplication "encoding application"
#define kAFInfoDictionary_NominalBitRate "nominal bit rate"
#define kAFInfoDictionary_ChannelLayout "channel layout"
#define kAFInfoDictionary_ApproximateDurationInSeconds "approximate duration in seconds"
#define kAFInfoDictionary_SourceBitDepth "source bit depth"
#define kAFInfoDictionary_ISRC "ISRC"
#define kAFInfoDictionary_SubTitle "subtitle"

/* AudioFileGetGlobalInfo's properties. */
CF_ENUM(AudioFilePropertyID) {
    kAudioFileGlobalInfo_ReadableTypes = 0x61667266,           /* 'afrf' UInt32[] */
    kAudioFileGlobalInfo_WritableTypes = 0x61667766,           /* 'afwf' UInt32[] */
    kAudioFileGlobalInfo_FileTypeName = 0x66746E6D,            /* 'ftnm' CFStringRef; specifier AudioFileTypeID */
    kAudioFileGlobalInfo_AvailableStreamDescriptionsForFormat = 0x73646964, /* 'sdid' ASBD[]; AudioFileTypeAndFormatID */
    kAudioFileGlobalInfo_AvailableFormatIDs = 0x666D6964,      /* 'fmid' UInt32[]; specifier AudioFileTypeID */
    kAudioFileGlobalInfo_AllExtensions = 0x616C7874,           /* 'alxt' CFArrayRef */
    kAudioFileGlobalInfo_AllHFSTypeCodes = 0x61686673,         /* 'ahfs' UInt32[] */
    kAudioFileGlobalInfo_AllUTIs = 0x61757469,                 /* 'auti' CFArrayRef */
    kAudioFileGlobalInfo_AllMIMETypes = 0x616D696D,            /* 'amim' CFArrayRef */
    kAudioFileGlobalInfo_ExtensionsForType = 0x66657874,       /* 'fext' CFArrayRef; specifier AudioFileTypeID */
    kAudioFileGlobalInfo_HFSTypeCodesForType = 0x66686673,     /* 'fhfs' UInt32[]; specifier AudioFileTypeID */
    kAudioFileGlobalInfo_UTIsForType = 0x66757469,             /* 'futi' CFArrayRef; specifier AudioFileTypeID */
    kAudioFileGlobalInfo_MIMETypesForType = 0x666D696D,        /* 'fmim' CFArrayRef; specifier AudioFileTypeID */
    kAudioFileGlobalInfo_TypesForMIMEType = 0x746D696D,        /* 'tmim' UInt32[]; specifier CFStringRef */
    kAudioFileGlobalInfo_TypesForUTI = 0x74757469,             /* 'tuti' UInt32[]; specifier CFStringRef */
    kAudioFileGlobalInfo_TypesForHFSTypeCode = 0x74686673,     /* 'thfs' UInt32[]; specifier HFSTypeCode */
    kAudioFileGlobalInfo_TypesForExtension = 0x74657874,       /* 'text' UInt32[]; specifier CFStringRef */
};

/** The specifier of kAudioFileGlobalInfo_AvailableStreamDescriptionsForFormat. */
typedef struct AudioFileTypeAndFormatID {
    AudioFileTypeID mFileType;
    UInt32 mFormatID;
} AudioFileTypeAndFormatID;

typedef struct AudioFilePacketTableInfo {
    SInt64 mNumberValidFrames;
    SInt32 mPrimingFrames;
    SInt32 mRemainderFrames;
} AudioFilePacketTableInfo;

typedef struct AudioFramePacketTranslation {
    SInt64 mFrame;
    SInt64 mPacket;
    UInt32 mFrameOffsetInPacket;
} AudioFramePacketTranslation;

typedef CF_OPTIONS(UInt32, AudioBytePacketTranslationFlags) {
    kBytePacketTranslationFlag_IsEstimate = 1,
};

typedef struct AudioBytePacketTranslation {
    SInt64 mByte;
    SInt64 mPacket;
    UInt32 mByteOffsetInPacket;
    AudioBytePacketTranslationFlags mFlags;
} AudioBytePacketTranslation;

/** Opens an existing file. Files open for reading (kAudioFileReadPermission); write
    permission on an existing file gives kAudioFileOperationNotSupportedError. `inFileTypeHint`
    (0 for none) helps with files that have no signature of their own (ADTS). */
AT_EXPORT OSStatus AudioFileOpenURL(CFURLRef inFileRef, AudioFilePermissions inPermissions,
                                    AudioFileTypeID inFileTypeHint, AudioFileID _Nullable *_Nonnull outAudioFile);

/** Creates a file of `inFileType` (CAF, AIFF, AIFC, WAVE) for data in `inFormat`.
    Without kAudioFileFlags_EraseFile an existing file is not replaced (-48). */
AT_EXPORT OSStatus AudioFileCreateWithURL(CFURLRef inFileRef, AudioFileTypeID inFileType,
                                          const AudioStreamBasicDescription *inFormat, AudioFileFlags inFlags,
                                          AudioFileID _Nullable *_Nonnull outAudioFile);

/** Reads `requestCount` bytes at `inPosition` of the program's data into `buffer`; sets
    `actualCount` (fewer only at the end of the data). */
typedef OSStatus (*AudioFile_ReadProc)(void *inClientData, SInt64 inPosition, UInt32 requestCount, void *buffer,
                                       UInt32 *actualCount);
/** Writes `requestCount` bytes at `inPosition` of the program's data; sets `actualCount`. */
typedef OSStatus (*AudioFile_WriteProc)(void *inClientData, SInt64 inPosition, UInt32 requestCount, const void *buffer,
                                        UInt32 *actualCount);
/** The size of the program's data in bytes. */
typedef SInt64 (*AudioFile_GetSizeProc)(void *inClientData);
/** Sets the size of the program's data. */
typedef OSStatus (*AudioFile_SetSizeProc)(void *inClientData, SInt64 inSize);

/** Opens audio data the program supplies through callbacks (memory, an archive, a network
    cache) for reading. The size is asked for once, when the file opens; reads come from the
    thread that calls Audio File Services, one at a time. A read callback's error ends the call
    that needed the bytes with that code. `inWriteFunc` and `inSetSizeFunc` may be NULL; when
    given they are never called: the data opens for reading (changing it in place is not
    supported), and writing calls give kAudioFilePermissionsError. */
AT_EXPORT OSStatus AudioFileOpenWithCallbacks(void *inClientData, AudioFile_ReadProc inReadFunc,
                                              AudioFile_WriteProc _Nullable inWriteFunc, AudioFile_GetSizeProc inGetSizeFunc,
                                              AudioFile_SetSizeProc _Nullable inSetSizeFunc, AudioFileTypeID inFileTypeHint,
                                              AudioFileID _Nullable *_Nonnull outAudioFile);

/** Creating a file through callbacks: not supported here (files are written to paths, with
    AudioFileCreateWithURL); gives kAudioFileOperationNotSupportedError, or kAudio_ParamError
    for a missing callback, format or result pointer. */
AT_EXPORT OSStatus AudioFileInitializeWithCallbacks(void *inClientData, AudioFile_ReadProc inReadFunc,
                                                    AudioFile_WriteProc inWriteFunc, AudioFile_GetSizeProc inGetSizeFunc,
                                                    AudioFile_SetSizeProc inSetSizeFunc, AudioFileTypeID inFileType,
                                                    const AudioStreamBasicDescription *inFormat, AudioFileFlags inFlags,
                                                    AudioFileID _Nullable *_Nonnull outAudioFile);

/** Closes the file; a file being written gets its final sizes and tables. */
AT_EXPORT OSStatus AudioFileClose(AudioFileID inAudioFile);

/** Writes any pending header updates of a file being written. */
AT_EXPORT OSStatus AudioFileOptimize(AudioFileID inAudioFile);

AT_EXPORT OSStatus AudioFileReadBytes(AudioFileID inAudioFile, Boolean inUseCache, SInt64 inStartingByte,
                                      UInt32 *ioNumBytes, void *outBuffer);
AT_EXPORT OSStatus AudioFileWriteBytes(AudioFileID inAudioFile, Boolean inUseCache, SInt64 inStartingByte,
                                       UInt32 *ioNumBytes, const void *inBuffer);

/** Reads whole packets into `outBuffer` (`*ioNumBytes` long): as many of `*ioNumPackets` as
    fit. At the end of the file, 0 packets and noErr. */
AT_EXPORT OSStatus AudioFileReadPacketData(AudioFileID inAudioFile, Boolean inUseCache, UInt32 *ioNumBytes,
                                           AudioStreamPacketDescription *_Nullable outPacketDescriptions,
                                           SInt64 inStartingPacket, UInt32 *ioNumPackets, void *_Nullable outBuffer);

/** The older form the guide uses: reads `*ioNumPackets` packets into a buffer the caller
    sized for them (by the maximum packet size). */
AT_EXPORT OSStatus AudioFileReadPackets(AudioFileID inAudioFile, Boolean inUseCache, UInt32 *_Nullable outNumBytes,
                                        AudioStreamPacketDescription *_Nullable outPacketDescriptions,
                                        SInt64 inStartingPacket, UInt32 *ioNumPackets, void *_Nullable outBuffer)
    __attribute__((deprecated("use AudioFileReadPacketData")));

/** Writes packets at `inStartingPacket`: constant-size packets anywhere up to the end,
    variable-size ones (with descriptions) at the end. */
AT_EXPORT OSStatus AudioFileWritePackets(AudioFileID inAudioFile, Boolean inUseCache, UInt32 inNumBytes,
                                         const AudioStreamPacketDescription *_Nullable inPacketDescriptions,
                                         SInt64 inStartingPacket, UInt32 *ioNumPackets, const void *inBuffer);

AT_EXPORT OSStatus AudioFileGetPropertyInfo(AudioFileID inAudioFile, AudioFilePropertyID inPropertyID,
                                            UInt32 *_Nullable outDataSize, UInt32 *_Nullable isWritable);
AT_EXPORT OSStatus AudioFileGetProperty(AudioFileID inAudioFile, AudioFilePropertyID inPropertyID,
                                        UInt32 *ioDataSize, void *outPropertyData);
AT_EXPORT OSStatus AudioFileSetProperty(AudioFileID inAudioFile, AudioFilePropertyID inPropertyID,
                                        UInt32 inDataSize, const void *inPropertyData);

/** The size of a global property's value for `inSpecifier`. */
AT_EXPORT OSStatus AudioFileGetGlobalInfoSize(AudioFilePropertyID inPropertyID, UInt32 inSpecifierSize,
                                              void *_Nullable inSpecifier, UInt32 *outDataSize);
/** A global property's value: the types this library reads and writes, their names,
    extensions, UTIs, MIME types and formats. CF values are new objects the caller releases. */
AT_EXPORT OSStatus AudioFileGetGlobalInfo(AudioFilePropertyID inPropertyID, UInt32 inSpecifierSize,
                                          void *_Nullable inSpecifier, UInt32 *ioDataSize, void *outPropertyData);

AT_ASSUME_NONNULL_END
AT_EXTERN_C_END

#endif /* AudioToolbox_AudioFile_h */
