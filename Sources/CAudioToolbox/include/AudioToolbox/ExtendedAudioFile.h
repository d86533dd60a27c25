/*
 * ExtendedAudioFile.h — Extended Audio File Services with Apple's names: read any supported
 * file as linear PCM in a client format, with priming and remainder frames trimmed, and write
 * linear PCM in a client format to a file of any format the package encodes.
 *
 * swift-audio-queue. Apache License 2.0.
 */
#ifndef AudioToolbox_ExtendedAudioFile_h
#define AudioToolbox_ExtendedAudioFile_h

#include <AudioToolbox/AudioFile.h>
#include <AudioToolbox/AudioConverter.h>

AT_EXTERN_C_BEGIN
AT_ASSUME_NONNULL_BEGIN

typedef struct OpaqueExtAudioFile *ExtAudioFileRef;
typedef UInt32 ExtAudioFilePropertyID;

CF_ENUM(ExtAudioFilePropertyID) {
    kExtAudioFileProperty_FileDataFormat = 0x66666D74,     /* 'ffmt' AudioStreamBasicDescription */
    kExtAudioFileProperty_FileChannelLayout = 0x66636C6F,  /* 'fclo' AudioChannelLayout */
    kExtAudioFileProperty_ClientDataFormat = 0x63666D74,   /* 'cfmt' AudioStreamBasicDescription */
    kExtAudioFileProperty_ClientChannelLayout = 0x63636C6F, /* 'cclo' AudioChannelLayout */
    kExtAudioFileProperty_CodecManufacturer = 0x636D616E,  /* 'cman' */
    kExtAudioFileProperty_AudioConverter = 0x61636E76,     /* 'acnv' */
    kExtAudioFileProperty_AudioFile = 0x6166696C,          /* 'afil' AudioFileID */
    kExtAudioFileProperty_FileMaxPacketSize = 0x666D7073,  /* 'fmps' UInt32 */
    kExtAudioFileProperty_ClientMaxPacketSize = 0x636D7073, /* 'cmps' UInt32 */
    kExtAudioFileProperty_FileLengthFrames = 0x2366726D,   /* '#frm' SInt64 */
    kExtAudioFileProperty_ConverterConfig = 0x61636366,    /* 'accf' */
    kExtAudioFileProperty_IOBufferSizeBytes = 0x696F6273,  /* 'iobs' UInt32 */
    kExtAudioFileProperty_IOBuffer = 0x696F6266,           /* 'iobf' */
    kExtAudioFileProperty_PacketTable = 0x78707469,        /* 'xpti' AudioFilePacketTableInfo */
};

CF_ENUM(OSStatus) {
    kExtAudioFileError_InvalidProperty = -66561,
    kExtAudioFileError_InvalidPropertySize = -66562,
    kExtAudioFileError_NonPCMClientFormat = -66563,
    kExtAudioFileError_InvalidChannelMap = -66564,
    kExtAudioFileError_InvalidOperationOrder = -66565,
    kExtAudioFileError_InvalidDataFormat = -66566,
    kExtAudioFileError_MaxPacketSizeUnknown = -66567,
    kExtAudioFileError_InvalidSeek = -66568,
    kExtAudioFileError_AsyncWriteTooLarge = -66569,
    kExtAudioFileError_AsyncWriteBufferOverflow = -66570,
};

/** Opens a file for reading as PCM; the client format starts as the file's decoded format. */
AT_EXPORT OSStatus ExtAudioFileOpenURL(CFURLRef inURL, ExtAudioFileRef _Nullable *_Nonnull outExtAudioFile);
/** Creates a file of `inFileType` holding `inStreamDesc` for writing; set the client format
    before writing to an encoded file. */
AT_EXPORT OSStatus ExtAudioFileCreateWithURL(CFURLRef inURL, AudioFileTypeID inFileType,
                                             const AudioStreamBasicDescription *inStreamDesc,
                                             const AudioChannelLayout *_Nullable inChannelLayout, UInt32 inFlags,
                                             ExtAudioFileRef _Nullable *_Nonnull outExtAudioFile);
/** Reads (`inForWriting` false) or writes through an open AudioFileID, which dispose leaves open. */
AT_EXPORT OSStatus ExtAudioFileWrapAudioFileID(AudioFileID inFileID, Boolean inForWriting,
                                               ExtAudioFileRef _Nullable *_Nonnull outExtAudioFile);
/** Closes the file; a file being written gets what the converter held, its cookie and packet table. */
AT_EXPORT OSStatus ExtAudioFileDispose(ExtAudioFileRef inExtAudioFile);
/** Reads up to `*ioNumberFrames` frames in the client format into `ioData`'s buffers (one for
    interleaved formats, one per channel otherwise); `*ioNumberFrames` is 0 at the end. */
AT_EXPORT OSStatus ExtAudioFileRead(ExtAudioFileRef inExtAudioFile, UInt32 *ioNumberFrames, AudioBufferList *ioData);
/** Seeks to a frame of the trimmed audio, sample-exactly. */
AT_EXPORT OSStatus ExtAudioFileSeek(ExtAudioFileRef inExtAudioFile, SInt64 inFrameOffset);
AT_EXPORT OSStatus ExtAudioFileTell(ExtAudioFileRef inExtAudioFile, SInt64 *outFrameOffset);
/** Writes `inNumberFrames` frames of the client format. */
AT_EXPORT OSStatus ExtAudioFileWrite(ExtAudioFileRef inExtAudioFile, UInt32 inNumberFrames, const AudioBufferList *ioData);
/** Writes a copy of the frames on the file's writing thread; 0 frames and NULL make the thread. */
AT_EXPORT OSStatus ExtAudioFileWriteAsync(ExtAudioFileRef inExtAudioFile, UInt32 inNumberFrames,
                                          const AudioBufferList *_Nullable ioData);
AT_EXPORT OSStatus ExtAudioFileGetPropertyInfo(ExtAudioFileRef inExtAudioFile, ExtAudioFilePropertyID inPropertyID,
                                               UInt32 *_Nullable outSize, Boolean *_Nullable outWritable);
AT_EXPORT OSStatus ExtAudioFileGetProperty(ExtAudioFileRef inExtAudioFile, ExtAudioFilePropertyID inPropertyID,
                                           UInt32 *ioPropertyDataSize, void *outPropertyData);
AT_EXPORT OSStatus ExtAudioFileSetProperty(ExtAudioFileRef inExtAudioFile, ExtAudioFilePropertyID inPropertyID,
                                           UInt32 inPropertyDataSize, const void *inPropertyData);

AT_ASSUME_NONNULL_END
AT_EXTERN_C_END

#endif /* AudioToolbox_ExtendedAudioFile_h */
