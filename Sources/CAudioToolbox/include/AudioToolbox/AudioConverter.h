/*
 * AudioConverter.h — Audio Converter Services with Apple's names and values: converters from
 * any decodable format to linear PCM, linear PCM to any encodable format, and linear PCM to
 * linear PCM of another sample format, rate or channel count (AudioConverterNew,
 * AudioConverterFillComplexBuffer, AudioConverterConvertBuffer, …), their property IDs, the
 * quality and sample-rate converter constants, AudioConverterPrimeInfo and the result codes.
 *
 * swift-audio-queue. Apache License 2.0.
 */
#ifndef AudioToolbox_AudioConverter_h
#define AudioToolbox_AudioConverter_h

#include <AudioToolbox/CoreAudioTypes.h>

AT_EXTERN_C_BEGIN
AT_ASSUME_NONNULL_BEGIN

typedef struct OpaqueAudioConverter *AudioConverterRef;
typedef UInt32 AudioConverterPropertyID;

CF_ENUM(AudioConverterPropertyID) {
    kAudioConverterPropertyMinimumInputBufferSize = 0x6D696273,    /* 'mibs' */
    kAudioConverterPropertyMinimumOutputBufferSize = 0x6D6F6273,   /* 'mobs' */
    kAudioConverterPropertyMaximumInputPacketSize = 0x78697073,    /* 'xips' UInt32 */
    kAudioConverterPropertyMaximumOutputPacketSize = 0x786F7073,   /* 'xops' UInt32 */
    kAudioConverterPropertyCalculateInputBufferSize = 0x63696273,  /* 'cibs' */
    kAudioConverterPropertyCalculateOutputBufferSize = 0x636F6273, /* 'cobs' */
    kAudioConverterPropertyInputCodecParameters = 0x69636470,      /* 'icdp' */
    kAudioConverterPropertyOutputCodecParameters = 0x6F636470,     /* 'ocdp' */
    kAudioConverterSampleRateConverterComplexity = 0x73726361,     /* 'srca' */
    kAudioConverterSampleRateConverterQuality = 0x73726371,        /* 'srcq' */
    kAudioConverterSampleRateConverterInitialPhase = 0x73726370,   /* 'srcp' */
    kAudioConverterCodecQuality = 0x63647175,                      /* 'cdqu' */
    kAudioConverterPrimeMethod = 0x70726D6D,                       /* 'prmm' */
    kAudioConverterPrimeInfo = 0x7072696D,                         /* 'prim' AudioConverterPrimeInfo */
    kAudioConverterChannelMap = 0x63686D70,                        /* 'chmp' */
    kAudioConverterDecompressionMagicCookie = 0x646D6763,          /* 'dmgc' bytes */
    kAudioConverterCompressionMagicCookie = 0x636D6763,            /* 'cmgc' bytes */
    kAudioConverterEncodeBitRate = 0x62726174,                     /* 'brat' */
    kAudioConverterEncodeAdjustableSampleRate = 0x616A7372,        /* 'ajsr' */
    kAudioConverterInputChannelLayout = 0x69636C20,                /* 'icl ' */
    kAudioConverterOutputChannelLayout = 0x6F636C20,               /* 'ocl ' */
    kAudioConverterApplicableEncodeBitRates = 0x61656272,          /* 'aebr' */
    kAudioConverterAvailableEncodeBitRates = 0x76656272,           /* 'vebr' */
    kAudioConverterApplicableEncodeSampleRates = 0x61657372,       /* 'aesr' */
    kAudioConverterAvailableEncodeSampleRates = 0x76657372,        /* 'vesr' */
    kAudioConverterAvailableEncodeChannelLayoutTags = 0x6165636C,  /* 'aecl' */
    kAudioConverterCurrentOutputStreamDescription = 0x61636F64,    /* 'acod' AudioStreamBasicDescription */
    kAudioConverterCurrentInputStreamDescription = 0x61636964,     /* 'acid' AudioStreamBasicDescription */
    kAudioConverterPropertySettings = 0x61637073,                  /* 'acps' */
    kAudioConverterPropertyBitDepthHint = 0x61636264,              /* 'acbd' */
    kAudioConverterPropertyFormatList = 0x666C7374                 /* 'flst' */
};

/* Not Apple's: Apple's Opus encoder has no setting for what it is tuned for. This package's
   converter property for it, a UInt32 of kAudioConverterOpusApplication_* (libopus's
   OPUS_APPLICATION_* values), set before the first frame is converted (it changes the
   encoder's priming); kAudioConverterErr_PropertyNotSupported for a converter that does not
   encode Opus. */
CF_ENUM(AudioConverterPropertyID) {
    kAudioConverterOpusApplication = 0x6F706170                    /* 'opap' UInt32 */
};

CF_ENUM(UInt32) {
    kAudioConverterOpusApplication_VoIP = 2048,
    kAudioConverterOpusApplication_Audio = 2049,
    kAudioConverterOpusApplication_RestrictedLowDelay = 2051
};

CF_ENUM(UInt32) {
    kConverterPrimeMethod_Pre = 0,
    kConverterPrimeMethod_Normal = 1,
    kConverterPrimeMethod_None = 2
};

/* kAudioConverterCodecQuality and kAudioConverterSampleRateConverterQuality values. */
CF_ENUM(UInt32) {
    kAudioConverterQuality_Max = 0x7F,
    kAudioConverterQuality_High = 0x60,
    kAudioConverterQuality_Medium = 0x40,
    kAudioConverterQuality_Low = 0x20,
    kAudioConverterQuality_Min = 0
};

/* kAudioConverterSampleRateConverterComplexity values. */
CF_ENUM(UInt32) {
    kAudioConverterSampleRateConverterComplexity_Linear = 0x6C696E65,       /* 'line' */
    kAudioConverterSampleRateConverterComplexity_Normal = 0x6E6F726D,       /* 'norm' */
    kAudioConverterSampleRateConverterComplexity_Mastering = 0x62617473,    /* 'bats' */
    kAudioConverterSampleRateConverterComplexity_MinimumPhase = 0x6D696E70  /* 'minp' */
};

/* kAudioConverterPrimeInfo: the frames a converter adds before and after the audio. */
typedef struct AudioConverterPrimeInfo {
    UInt32 leadingFrames;
    UInt32 trailingFrames;
} AudioConverterPrimeInfo;

CF_ENUM(OSStatus) {
    kAudioConverterErr_FormatNotSupported = 0x666D743F,            /* 'fmt?' */
    kAudioConverterErr_OperationNotSupported = 0x6F703F3F,         /* 'op??' */
    kAudioConverterErr_PropertyNotSupported = 0x70726F70,          /* 'prop' */
    kAudioConverterErr_InvalidInputSize = 0x696E737A,              /* 'insz' */
    kAudioConverterErr_InvalidOutputSize = 0x6F74737A,             /* 'otsz' */
    kAudioConverterErr_UnspecifiedError = 0x77686174,              /* 'what' */
    kAudioConverterErr_BadPropertySizeError = 0x2173697A,          /* '!siz' */
    kAudioConverterErr_RequiresPacketDescriptionsError = 0x21706B64, /* '!pkd' */
    kAudioConverterErr_InputSampleRateOutOfRange = 0x21697372,     /* '!isr' */
    kAudioConverterErr_OutputSampleRateOutOfRange = 0x216F7372     /* '!osr' */
};

/** Supplies input to AudioConverterFillComplexBuffer: set `*ioNumberDataPackets` to the packets
    given (0 at the end of the stream), point `ioData`'s buffers at them, and, for formats whose
    packets vary in size, `*outDataPacketDescription` at their descriptions. The memory must
    stay valid until the next call. An error returned stops the fill with that error. */
typedef OSStatus (*AudioConverterComplexInputDataProc)(AudioConverterRef inAudioConverter, UInt32 *ioNumberDataPackets,
                                                       AudioBufferList *ioData,
                                                       AudioStreamPacketDescription *_Nullable *_Nullable outDataPacketDescription,
                                                       void *_Nullable inUserData);

/** Makes a converter from `inSourceFormat` to `inDestinationFormat`. */
AT_EXPORT OSStatus AudioConverterNew(const AudioStreamBasicDescription *inSourceFormat,
                                     const AudioStreamBasicDescription *inDestinationFormat,
                                     AudioConverterRef _Nullable *_Nonnull outAudioConverter);
/** AudioConverterNew; the class descriptions are not used (there is one codec per format). */
AT_EXPORT OSStatus AudioConverterNewSpecific(const AudioStreamBasicDescription *inSourceFormat,
                                             const AudioStreamBasicDescription *inDestinationFormat,
                                             UInt32 inNumberClassDescriptions,
                                             const AudioClassDescription *inClassDescriptions,
                                             AudioConverterRef _Nullable *_Nonnull outAudioConverter);
AT_EXPORT OSStatus AudioConverterDispose(AudioConverterRef inAudioConverter);
/** Forgets the input and state in flight: the next fill starts a new stream. */
AT_EXPORT OSStatus AudioConverterReset(AudioConverterRef inAudioConverter);
AT_EXPORT OSStatus AudioConverterGetPropertyInfo(AudioConverterRef inAudioConverter, AudioConverterPropertyID inPropertyID,
                                                 UInt32 *_Nullable outSize, Boolean *_Nullable outWritable);
AT_EXPORT OSStatus AudioConverterGetProperty(AudioConverterRef inAudioConverter, AudioConverterPropertyID inPropertyID,
                                             UInt32 *ioPropertyDataSize, void *outPropertyData);
AT_EXPORT OSStatus AudioConverterSetProperty(AudioConverterRef inAudioConverter, AudioConverterPropertyID inPropertyID,
                                             UInt32 inPropertyDataSize, const void *inPropertyData);
/** Converts interleaved linear PCM to linear PCM of the same rate, sized in bytes. */
AT_EXPORT OSStatus AudioConverterConvertBuffer(AudioConverterRef inAudioConverter, UInt32 inInputDataSize,
                                               const void *inInputData, UInt32 *ioOutputDataSize, void *outOutputData);
/** Fills `outOutputData` with up to `*ioOutputDataPacketSize` packets, pulling input from
    `inInputDataProc`; `*ioOutputDataPacketSize` is the packets written. */
AT_EXPORT OSStatus AudioConverterFillComplexBuffer(AudioConverterRef inAudioConverter,
                                                   AudioConverterComplexInputDataProc inInputDataProc,
                                                   void *_Nullable inInputDataProcUserData, UInt32 *ioOutputDataPacketSize,
                                                   AudioBufferList *outOutputData,
                                                   AudioStreamPacketDescription *_Nullable outPacketDescription);
/** Converts `inNumberPCMFrames` frames of linear PCM to linear PCM of the same rate. */
AT_EXPORT OSStatus AudioConverterConvertComplexBuffer(AudioConverterRef inAudioConverter, UInt32 inNumberPCMFrames,
                                                      const AudioBufferList *inInputData, AudioBufferList *outOutputData);

AT_ASSUME_NONNULL_END
AT_EXTERN_C_END

#endif /* AudioToolbox_AudioConverter_h */
