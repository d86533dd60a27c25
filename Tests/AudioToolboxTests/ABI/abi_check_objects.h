/*
 * abi_check_objects.h — part of abi_check.c (included after its macros): the CoreFoundation
 * objects' types, structs and constants, and AudioFileGetGlobalInfo's, against Apple's
 * headers (CFBase.h, CFNumber.h, CFArray.h, CFDictionary.h, AudioFile.h of MacOSX10.15.sdk).
 *
 * swift-audio-queue. Apache License 2.0.
 */

static void checkCoreFoundationObjects(void) {
    /* CFBase.h: unsigned long CFTypeID; UInt16 UniChar; CF_ENUM(CFIndex, CFComparisonResult). */
    WIDTH(CFTypeID, 8);
    SIGNEDNESS(CFTypeID, 0);
    WIDTH(UniChar, 2);
    WIDTH(CFComparisonResult, 8);
    WIDTH(CFNumberType, 8);          /* CF_ENUM(CFIndex, CFNumberType) */
    WIDTH(CFStringCompareFlags, 8);  /* CF_OPTIONS(CFOptionFlags, CFStringCompareFlags) */
    WIDTH(CFNumberRef, 8);
    WIDTH(CFBooleanRef, 8);
    WIDTH(CFArrayRef, 8);
    WIDTH(CFDictionaryRef, 8);
    WIDTH(CFDataRef, 8);

    /* CFBase.h: CFIndex location, length. */
    STRUCT(CFRange, 16, 8);
    FIELD(CFRange, location, 0, 8);
    FIELD(CFRange, length, 8, 8);

    /* CFArray.h: CFIndex version; retain, release, copyDescription, equal callbacks. */
    STRUCT(CFArrayCallBacks, 40, 8);
    FIELD(CFArrayCallBacks, version, 0, 8);
    FIELD(CFArrayCallBacks, retain, 8, 8);
    FIELD(CFArrayCallBacks, release, 16, 8);
    FIELD(CFArrayCallBacks, copyDescription, 24, 8);
    FIELD(CFArrayCallBacks, equal, 32, 8);

    /* CFDictionary.h: CFIndex version; retain, release, copyDescription, equal, hash. */
    STRUCT(CFDictionaryKeyCallBacks, 48, 8);
    FIELD(CFDictionaryKeyCallBacks, version, 0, 8);
    FIELD(CFDictionaryKeyCallBacks, retain, 8, 8);
    FIELD(CFDictionaryKeyCallBacks, release, 16, 8);
    FIELD(CFDictionaryKeyCallBacks, copyDescription, 24, 8);
    FIELD(CFDictionaryKeyCallBacks, equal, 32, 8);
    FIELD(CFDictionaryKeyCallBacks, hash, 40, 8);
    /* CFDictionary.h: the same without hash. */
    STRUCT(CFDictionaryValueCallBacks, 40, 8);
    FIELD(CFDictionaryValueCallBacks, version, 0, 8);
    FIELD(CFDictionaryValueCallBacks, retain, 8, 8);
    FIELD(CFDictionaryValueCallBacks, release, 16, 8);
    FIELD(CFDictionaryValueCallBacks, copyDescription, 24, 8);
    FIELD(CFDictionaryValueCallBacks, equal, 32, 8);

    /* AudioFile.h: AudioFileTypeID mFileType; UInt32 mFormatID. */
    STRUCT(AudioFileTypeAndFormatID, 8, 4);
    FIELD(AudioFileTypeAndFormatID, mFileType, 0, 4);
    FIELD(AudioFileTypeAndFormatID, mFormatID, 4, 4);

    /* CFNumber.h. */
    CONST_S64(kCFNumberSInt8Type, 1);
    CONST_S64(kCFNumberSInt16Type, 2);
    CONST_S64(kCFNumberSInt32Type, 3);
    CONST_S64(kCFNumberSInt64Type, 4);
    CONST_S64(kCFNumberFloat32Type, 5);
    CONST_S64(kCFNumberFloat64Type, 6);
    CONST_S64(kCFNumberCharType, 7);
    CONST_S64(kCFNumberShortType, 8);
    CONST_S64(kCFNumberIntType, 9);
    CONST_S64(kCFNumberLongType, 10);
    CONST_S64(kCFNumberLongLongType, 11);
    CONST_S64(kCFNumberFloatType, 12);
    CONST_S64(kCFNumberDoubleType, 13);
    CONST_S64(kCFNumberCFIndexType, 14);
    CONST_S64(kCFNumberNSIntegerType, 15);
    CONST_S64(kCFNumberCGFloatType, 16);
    CONST_S64(kCFNumberMaxType, 16);
    /* CFBase.h, CFString.h. */
    CONST_S64(kCFNotFound, -1);
    CONST_S64(kCFCompareLessThan, -1);
    CONST_S64(kCFCompareEqualTo, 0);
    CONST_S64(kCFCompareGreaterThan, 1);
    CONST_S64(kCFCompareCaseInsensitive, 1);
    CONST_S64(kCFCompareBackwards, 4);
    CONST_S64(kCFCompareAnchored, 8);
    CONST_S64(kCFCompareNonliteral, 16);
    CONST_S64(kCFCompareLocalized, 32);
    CONST_S64(kCFCompareNumerically, 64);

    /* AudioFile.h: the info dictionary and global info properties. */
    CONST_U32(kAudioFilePropertyInfoDictionary, 0x696E666F);                     /* 'info' */
    CONST_U32(kAudioFileGlobalInfo_ReadableTypes, 0x61667266);                   /* 'afrf' */
    CONST_U32(kAudioFileGlobalInfo_WritableTypes, 0x61667766);                   /* 'afwf' */
    CONST_U32(kAudioFileGlobalInfo_FileTypeName, 0x66746E6D);                    /* 'ftnm' */
    CONST_U32(kAudioFileGlobalInfo_AvailableStreamDescriptionsForFormat, 0x73646964); /* 'sdid' */
    CONST_U32(kAudioFileGlobalInfo_AvailableFormatIDs, 0x666D6964);              /* 'fmid' */
    CONST_U32(kAudioFileGlobalInfo_AllExtensions, 0x616C7874);                   /* 'alxt' */
    CONST_U32(kAudioFileGlobalInfo_AllHFSTypeCodes, 0x61686673);                 /* 'ahfs' */
    CONST_U32(kAudioFileGlobalInfo_AllUTIs, 0x61757469);                         /* 'auti' */
    CONST_U32(kAudioFileGlobalInfo_AllMIMETypes, 0x616D696D);                    /* 'amim' */
    CONST_U32(kAudioFileGlobalInfo_ExtensionsForType, 0x66657874);               /* 'fext' */
    CONST_U32(kAudioFileGlobalInfo_HFSTypeCodesForType, 0x66686673);             /* 'fhfs' */
    CONST_U32(kAudioFileGlobalInfo_UTIsForType, 0x66757469);                     /* 'futi' */
    CONST_U32(kAudioFileGlobalInfo_MIMETypesForType, 0x666D696D);                /* 'fmim' */
    CONST_U32(kAudioFileGlobalInfo_TypesForMIMEType, 0x746D696D);                /* 'tmim' */
    CONST_U32(kAudioFileGlobalInfo_TypesForUTI, 0x74757469);                     /* 'tuti' */
    CONST_U32(kAudioFileGlobalInfo_TypesForHFSTypeCode, 0x74686673);             /* 'thfs' */
    CONST_U32(kAudioFileGlobalInfo_TypesForExtension, 0x74657874);               /* 'text' */
    /* AudioFile.h's info keys are string literals. */
    check("kAFInfoDictionary_ApproximateDurationInSeconds", (unsigned long long)strcmp(kAFInfoDictionary_ApproximateDurationInSeconds,
          "approximate duration in seconds"), 0);
    check("kAFInfoDictionary_TrackNumber", (unsigned long long)strcmp(kAFInfoDictionary_TrackNumber, "track number"), 0);
    check("kAFInfoDictionary_EncodingApplication", (unsigned long long)strcmp(kAFInfoDictionary_EncodingApplication,
          "encoding application"), 0);
    check("kAFInfoDictionary_Artist", (unsigned long long)strcmp(kAFInfoDictionary_Artist, "artist"), 0);
    check("kAFInfoDictionary_Album", (unsigned long long)strcmp(kAFInfoDictionary_Album, "album"), 0);
    check("kAFInfoDictionary_Tempo", (unsigned long long)strcmp(kAFInfoDictionary_Tempo, "tempo"), 0);
    check("kAFInfoDictionary_KeySignature", (unsigned long long)strcmp(kAFInfoDictionary_KeySignature, "key signature"), 0);
    check("kAFInfoDictionary_TimeSignature", (unsigned long long)strcmp(kAFInfoDictionary_TimeSignature, "time signature"), 0);
    check("kAFInfoDictionary_Year", (unsigned long long)strcmp(kAFInfoDictionary_Year, "year"), 0);
    check("kAFInfoDictionary_Composer", (unsigned long long)strcmp(kAFInfoDictionary_Composer, "composer"), 0);
    check("kAFInfoDictionary_Lyricist", (unsigned long long)strcmp(kAFInfoDictionary_Lyricist, "lyricist"), 0);
    check("kAFInfoDictionary_Genre", (unsigned long long)strcmp(kAFInfoDictionary_Genre, "genre"), 0);
    check("kAFInfoDictionary_Title", (unsigned long long)strcmp(kAFInfoDictionary_Title, "title"), 0);
    check("kAFInfoDictionary_RecordedDate", (unsigned long long)strcmp(kAFInfoDictionary_RecordedDate, "recorded date"), 0);
    check("kAFInfoDictionary_Comments", (unsigned long long)strcmp(kAFInfoDictionary_Comments, "comments"), 0);
    check("kAFInfoDictionary_Copyright", (unsigned long long)strcmp(kAFInfoDictionary_Copyright, "copyright"), 0);
    check("kAFInfoDictionary_SourceEncoder", (unsigned long long)strcmp(kAFInfoDictionary_SourceEncoder, "source encoder"), 0);
    check("kAFInfoDictionary_NominalBitRate", (unsigned long long)strcmp(kAFInfoDictionary_NominalBitRate, "nominal bit rate"), 0);
    check("kAFInfoDictionary_ChannelLayout", (unsigned long long)strcmp(kAFInfoDictionary_ChannelLayout, "channel layout"), 0);
    check("kAFInfoDictionary_SourceBitDepth", (unsigned long long)strcmp(kAFInfoDictionary_SourceBitDepth, "source bit depth"), 0);
    check("kAFInfoDictionary_ISRC", (unsigned long long)strcmp(kAFInfoDictionary_ISRC, "ISRC"), 0);
    check("kAFInfoDictionary_SubTitle", (unsigned long long)strcmp(kAFInfoDictionary_SubTitle, "subtitle"), 0);
    /* The album artwork property: a CFDataRef or NULL. */
    CONST_U32(kAudioFilePropertyAlbumArtwork, 0x61617274);                       /* 'aart' */
}
