/*
 * AudioFormat.h — Audio Format Services with Apple's names, types, constants and result codes:
 * AudioFormatGetPropertyInfo and AudioFormatGetProperty, which complete and name stream
 * descriptions, list the formats this library decodes and encodes, and expand, count and name
 * channel layouts. Properties the library does not answer give
 * kAudioFormatUnsupportedPropertyError (see the AudioFormatServices article).
 *
 * swift-audio-queue. Apache License 2.0.
 */
#ifndef AudioToolbox_AudioFormat_h
#define AudioToolbox_AudioFormat_h

#include <AudioToolbox/CoreAudioTypes.h>

AT_EXTERN_C_BEGIN
AT_ASSUME_NONNULL_BEGIN

typedef UInt32 AudioFormatPropertyID;

/* kAudioFormatProperty_FormatList's specifier: a description and its magic cookie. */
typedef struct AudioFormatInfo {
    AudioStreamBasicDescription mASBD;
    const void *_Nullable mMagicCookie;
    UInt32 mMagicCookieSize;
} AudioFormatInfo;

/* AudioFormatListItem, one format a stream can be decoded as, is in <CoreAudio/CoreAudioTypes.h>. */

CF_ENUM(AudioFormatPropertyID) {
    kAudioFormatProperty_FormatInfo = 0x666D7469,                  /* 'fmti' */
    kAudioFormatProperty_FormatName = 0x666E616D,                  /* 'fnam' */
    kAudioFormatProperty_EncodeFormatIDs = 0x61636F66,             /* 'acof' */
    kAudioFormatProperty_DecodeFormatIDs = 0x61636966,             /* 'acif' */
    kAudioFormatProperty_FormatList = 0x666C7374,                  /* 'flst' */
    kAudioFormatProperty_ASBDFromESDS = 0x65737364,                /* 'essd' */
    kAudioFormatProperty_ChannelLayoutFromESDS = 0x6573636C,       /* 'escl' */
    kAudioFormatProperty_OutputFormatList = 0x6F666C73,            /* 'ofls' */
    kAudioFormatProperty_FirstPlayableFormatFromList = 0x6670666C, /* 'fpfl' */
    kAudioFormatProperty_FormatIsVBR = 0x66766272,                 /* 'fvbr' */
    kAudioFormatProperty_FormatIsExternallyFramed = 0x66657866,    /* 'fexf' */
    kAudioFormatProperty_FormatEmploysDependentPackets = 0x66646570, /* 'fdep' */
    kAudioFormatProperty_FormatIsEncrypted = 0x63727970,           /* 'cryp' */
    kAudioFormatProperty_Encoders = 0x6176656E,                    /* 'aven' */
    kAudioFormatProperty_Decoders = 0x61766465,                    /* 'avde' */
    kAudioFormatProperty_AvailableEncodeBitRates = 0x61656272,     /* 'aebr' */
    kAudioFormatProperty_AvailableEncodeSampleRates = 0x61657372,  /* 'aesr' */
    kAudioFormatProperty_AvailableEncodeChannelLayoutTags = 0x6165636C, /* 'aecl' */
    kAudioFormatProperty_AvailableEncodeNumberChannels = 0x61766E63, /* 'avnc' */
    kAudioFormatProperty_AvailableDecodeNumberChannels = 0x61646E63, /* 'adnc' */
    kAudioFormatProperty_ASBDFromMPEGPacket = 0x61646D70,          /* 'admp' */
    kAudioFormatProperty_BitmapForLayoutTag = 0x626D7467,          /* 'bmtg' */
    kAudioFormatProperty_MatrixMixMap = 0x6D6D6170,                /* 'mmap' */
    kAudioFormatProperty_ChannelMap = 0x63686D70,                  /* 'chmp' */
    kAudioFormatProperty_NumberOfChannelsForLayout = 0x6E63686D,   /* 'nchm' */
    kAudioFormatProperty_AreChannelLayoutsEquivalent = 0x63686571, /* 'cheq' */
    kAudioFormatProperty_ChannelLayoutHash = 0x63686861,           /* 'chha' */
    kAudioFormatProperty_ValidateChannelLayout = 0x7661636C,       /* 'vacl' */
    kAudioFormatProperty_ChannelLayoutForTag = 0x636D706C,         /* 'cmpl' */
    kAudioFormatProperty_TagForChannelLayout = 0x636D7074,         /* 'cmpt' */
    kAudioFormatProperty_ChannelLayoutName = 0x6C6F6E6D,           /* 'lonm' */
    kAudioFormatProperty_ChannelLayoutSimpleName = 0x6C736E6D,     /* 'lsnm' */
    kAudioFormatProperty_ChannelLayoutForBitmap = 0x636D7062,      /* 'cmpb' */
    kAudioFormatProperty_ChannelName = 0x636E616D,                 /* 'cnam' */
    kAudioFormatProperty_ChannelShortName = 0x63736E6D,            /* 'csnm' */
    kAudioFormatProperty_TagsForNumberOfChannels = 0x74616763,     /* 'tagc' */
    kAudioFormatProperty_PanningMatrix = 0x70616E6D,               /* 'panm' */
    kAudioFormatProperty_BalanceFade = 0x62616C66,                 /* 'balf' */
    kAudioFormatProperty_ID3TagSize = 0x69643373,                  /* 'id3s' */
    kAudioFormatProperty_ID3TagToDictionary = 0x69643364           /* 'id3d' */
};

CF_ENUM(OSStatus) {
    kAudioFormatUnspecifiedError = 0x77686174,                     /* 'what' */
    kAudioFormatUnsupportedPropertyError = 0x70726F70,             /* 'prop' */
    kAudioFormatBadPropertySizeError = 0x2173697A,                 /* '!siz' */
    kAudioFormatBadSpecifierSizeError = 0x21737063,                /* '!spc' */
    kAudioFormatUnsupportedDataFormatError = 0x666D743F,           /* 'fmt?' */
    kAudioFormatUnknownFormatError = 0x21666D74                    /* '!fmt' */
};

/* The size in bytes of a property's value for the given specifier. */
AT_EXPORT OSStatus AudioFormatGetPropertyInfo(AudioFormatPropertyID inPropertyID, UInt32 inSpecifierSize,
                                              const void *_Nullable inSpecifier, UInt32 *outPropertyDataSize);

/* A property's value for the given specifier: *ioPropertyDataSize is the room in outPropertyData
 * and becomes the bytes written; with outPropertyData NULL, the size of the value. */
AT_EXPORT OSStatus AudioFormatGetProperty(AudioFormatPropertyID inPropertyID, UInt32 inSpecifierSize,
                                          const void *_Nullable inSpecifier, UInt32 *_Nullable ioPropertyDataSize,
                                          void *_Nullable outPropertyData);

AT_ASSUME_NONNULL_END
AT_EXTERN_C_END

#endif /* AudioToolbox_AudioFormat_h */
