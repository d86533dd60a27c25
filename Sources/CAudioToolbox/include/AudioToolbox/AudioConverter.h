/*
 * AudioConverter.h — the part of Audio Converter Services an audio queue answers: the
 * converter property IDs that AudioQueueGetPropertySize/AudioQueueGetProperty take (an output
 * queue's decoder, an input queue's encoder), AudioConverterPrimeInfo and the converter result
 * codes, with Apple's names and values. The converter functions themselves
 * (AudioConverterNew, AudioConverterFillComplexBuffer, …) are not declared here.
 *
 * swift-audio-queue. Apache License 2.0.
 */
#ifndef AudioToolbox_AudioConverter_h
#define AudioToolbox_AudioConverter_h

#include <AudioToolbox/CoreAudioTypes.h>

AT_EXTERN_C_BEGIN

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

CF_ENUM(UInt32) {
    kConverterPrimeMethod_Pre = 0,
    kConverterPrimeMethod_Normal = 1,
    kConverterPrimeMethod_None = 2
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

AT_EXTERN_C_END

#endif /* AudioToolbox_AudioConverter_h */
