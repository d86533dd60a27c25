/*
 * Misuse of the CoreFoundation subset and of the info dictionary and global info calls, part
 * of api_checks (the errors mode). Apple traps on many of these (NULL objects, indices out of
 * range); here each returns 0, NULL or false, or Apple's result code, and never crashes.
 */
#include <AudioToolbox/AudioToolbox.h>

#define EXPECT(cond, ...) do { if (cond) (*passed)++; else { (*failed)++; printf("FAIL %s:%d: ", __FILE__, __LINE__); printf(__VA_ARGS__); printf("\n"); } } while (0)
#define EXPECT_STATUS(call, expected) do { OSStatus s_ = (call); EXPECT(s_ == (OSStatus)(expected), "%s = %d, expected %s = %d", #call, (int)s_, #expected, (int)(expected)); } while (0)

void cfMisuse(const char *fixtures, int *passed, int *failed);

static void applier(const void *value, void *context) { (void)value; (*(int *)context)++; }
static void pairApplier(const void *key, const void *value, void *context) { (void)key; (void)value; (*(int *)context)++; }

static void objects(int *passed, int *failed) {
    SInt32 v = 7;
    CFNumberRef n = CFNumberCreate(NULL, kCFNumberSInt32Type, &v);
    CFStringRef s = CFSTR("text");
    /* NULL and wrong-type objects. */
    EXPECT(CFGetTypeID(NULL) == 0 && !CFEqual(NULL, n) && CFHash(NULL) == 0 && CFCopyDescription(NULL) == NULL, "NULL object");
    EXPECT(CFNumberCreate(NULL, kCFNumberSInt32Type, NULL) == NULL, "NULL value pointer");
    EXPECT(CFNumberCreate(NULL, (CFNumberType)99, &v) == NULL && CFNumberCreate(NULL, (CFNumberType)0, &v) == NULL, "unknown number type");
    EXPECT(!CFNumberGetValue(n, (CFNumberType)17, &v) && !CFNumberGetValue(n, kCFNumberSInt32Type, NULL), "bad GetValue");
    EXPECT(!CFNumberGetValue((CFNumberRef)s, kCFNumberSInt32Type, &v) && CFNumberGetType((CFNumberRef)s) == 0
           && CFNumberGetByteSize(NULL) == 0 && !CFNumberIsFloatType((CFNumberRef)s), "a string is not a number");
    EXPECT(CFNumberCompare(n, (CFNumberRef)s, NULL) == kCFCompareEqualTo, "compare with a non-number");
    EXPECT(!CFBooleanGetValue((CFBooleanRef)n) && !CFBooleanGetValue(NULL), "a number is not a boolean");
    EXPECT(CFArrayCreate(NULL, NULL, 2, &kCFTypeArrayCallBacks) == NULL && CFArrayCreate(NULL, NULL, -1, NULL) == NULL, "bad array");
    EXPECT(CFArrayCreateMutable(NULL, -1, NULL) == NULL, "negative capacity");
    const void *values[] = {n};
    CFArrayRef a = CFArrayCreate(NULL, values, 1, &kCFTypeArrayCallBacks);
    const void *out[2] = {NULL, NULL};
    CFArrayGetValues(a, CFRangeMake(0, 2), out);
    CFArrayGetValues(a, CFRangeMake(-1, 1), out);
    CFArrayGetValues(a, CFRangeMake(0, 1), NULL);
    EXPECT(out[0] == NULL, "a range outside the array copies nothing");
    EXPECT(CFArrayGetValueAtIndex(a, -1) == NULL && CFArrayGetValueAtIndex(a, 1) == NULL, "index out of range");
    EXPECT(CFArrayGetCount(NULL) == 0 && CFArrayGetCount((CFArrayRef)n) == 0, "count of a non-array");
    EXPECT(!CFArrayContainsValue(a, CFRangeMake(0, 5), n) && !CFArrayContainsValue(NULL, CFRangeMake(0, 0), n), "contains, bad range");
    int calls = 0;
    CFArrayApplyFunction(a, CFRangeMake(1, 1), applier, &calls);
    CFArrayApplyFunction(a, CFRangeMake(0, 1), NULL, &calls);
    CFArrayApplyFunction((CFArrayRef)s, CFRangeMake(0, 1), applier, &calls);
    EXPECT(calls == 0, "applier called %d times", calls);
    CFArrayAppendValue((CFMutableArrayRef)a, n);
    CFArrayAppendValue(NULL, n);
    EXPECT(CFArrayGetCount(a) == 1, "an immutable array is left alone");
    CFRelease(a);

    EXPECT(CFDictionaryCreate(NULL, NULL, NULL, 1, NULL, NULL) == NULL, "pairs without arrays");
    EXPECT(CFDictionaryCreateMutable(NULL, -1, NULL, NULL) == NULL && CFDictionaryCreateMutableCopy(NULL, 0, (CFDictionaryRef)n) == NULL,
           "bad dictionary");
    EXPECT(CFDictionaryGetValue(NULL, s) == NULL && CFDictionaryGetValue((CFDictionaryRef)n, s) == NULL, "lookup in a non-dictionary");
    const void *got = n;
    EXPECT(!CFDictionaryGetValueIfPresent(NULL, s, &got) && got == n, "GetValueIfPresent leaves the value");
    EXPECT(CFDictionaryGetCount(NULL) == 0 && !CFDictionaryContainsKey(NULL, s) && !CFDictionaryContainsValue(NULL, n), "NULL dictionary");
    CFDictionarySetValue(NULL, s, n);
    CFDictionaryAddValue((CFMutableDictionaryRef)n, s, n);
    CFDictionaryRemoveValue(NULL, s);
    CFDictionaryRemoveAllValues((CFMutableDictionaryRef)s);
    CFDictionaryReplaceValue(NULL, s, n);
    CFDictionaryGetKeysAndValues(NULL, NULL, NULL);
    CFMutableDictionaryRef d = CFDictionaryCreateMutable(NULL, 0, &kCFTypeDictionaryKeyCallBacks, &kCFTypeDictionaryValueCallBacks);
    CFDictionaryReplaceValue(d, s, n);
    CFDictionaryRemoveValue(d, s);
    CFDictionaryGetKeysAndValues(d, NULL, NULL);
    calls = 0;
    CFDictionaryApplyFunction(d, NULL, &calls);
    CFDictionaryApplyFunction((CFDictionaryRef)s, pairApplier, &calls);
    EXPECT(calls == 0 && CFDictionaryGetCount(d) == 0, "replace or remove of an absent key does nothing");
    CFRelease(d);
    EXPECT(CFGetRetainCount(n) == 1, "nothing kept a reference");

    EXPECT(CFDataCreate(NULL, NULL, 4) == NULL && CFDataCreate(NULL, NULL, -1) == NULL, "bad data");
    EXPECT(CFDataGetLength(NULL) == 0 && CFDataGetBytePtr((CFDataRef)n) == NULL, "a number is not data");
    const UInt8 bytes[] = {1, 2};
    CFDataRef data = CFDataCreate(NULL, bytes, 2);
    UInt8 buffer[4] = {9, 9, 9, 9};
    CFDataGetBytes(data, CFRangeMake(1, 2), buffer);
    CFDataGetBytes(data, CFRangeMake(0, 2), NULL);
    EXPECT(buffer[0] == 9, "a range outside the data copies nothing");
    CFRelease(data);

    EXPECT(CFStringCompare(NULL, s, 0) == kCFCompareEqualTo && CFStringCreateCopy(NULL, (CFStringRef)n) == NULL, "string misuse");
    EXPECT(CFStringGetCharacterAtIndex(s, 4) == 0 && CFStringGetCharacterAtIndex(s, -1) == 0 && CFStringGetCharacterAtIndex(NULL, 0) == 0,
           "character out of range");
    EXPECT(CFStringGetMaximumSizeForEncoding(-1, kCFStringEncodingUTF8) == kCFNotFound
           && CFStringGetMaximumSizeForEncoding(4, 0x12345) == kCFNotFound, "maximum size misuse");
    EXPECT(CFStringCreateWithFormat(NULL, NULL, NULL) == NULL && CFStringCreateWithFormat(NULL, NULL, (CFStringRef)n) == NULL,
           "format that is not a string");
    EXPECT(CFStringCreateWithFormat(NULL, NULL, CFSTR("%")) == NULL && CFStringCreateWithFormat(NULL, NULL, CFSTR("%k")) == NULL
           && CFStringCreateWithFormat(NULL, NULL, CFSTR("%ls"), L"wide") == NULL, "broken or unsupported conversions");
    CFStringRef nullObject = CFStringCreateWithFormat(NULL, NULL, CFSTR("%@"), (CFTypeRef)NULL);
    EXPECT(nullObject && strcmp(CFStringGetCStringPtr(nullObject, kCFStringEncodingUTF8), "(null)") == 0, "%%@ of NULL");
    if (nullObject) CFRelease(nullObject);
    EXPECT(CFURLCopyFileSystemPath(NULL, kCFURLPOSIXPathStyle) == NULL && CFURLGetString((CFURLRef)s) == NULL
           && CFURLCopyLastPathComponent((CFURLRef)n) == NULL, "URL misuse");
    CFURLRef url = CFURLCreateFromFileSystemRepresentation(NULL, (const UInt8 *)"/tmp/x", 6, false);
    EXPECT(CFURLCopyFileSystemPath(url, kCFURLWindowsPathStyle) == NULL, "Windows paths are not supported");
    CFRelease(url);
    CFShow((CFTypeRef)NULL);
    CFRelease(n);
}

static void globalInfo(int *passed, int *failed) {
    UInt32 size = 0, io = 0;
    UInt32 types[64];
    AudioFileTypeID wave = kAudioFileWAVEType, unknown = 0x3F3F3F3F, mp3 = kAudioFileMP3Type;
    CFStringRef ext = CFSTR("wav");
    EXPECT_STATUS(AudioFileGetGlobalInfoSize(0x3F3F3F3F, 0, NULL, &size), kAudioFileUnsupportedPropertyError);
    EXPECT_STATUS(AudioFileGetGlobalInfoSize(kAudioFileGlobalInfo_ReadableTypes, 0, NULL, NULL), kAudio_ParamError);
    EXPECT_STATUS(AudioFileGetGlobalInfoSize(kAudioFileGlobalInfo_FileTypeName, 0, NULL, &size), kAudioFileBadPropertySizeError);
    EXPECT_STATUS(AudioFileGetGlobalInfoSize(kAudioFileGlobalInfo_FileTypeName, 2, &wave, &size), kAudioFileBadPropertySizeError);
    EXPECT_STATUS(AudioFileGetGlobalInfoSize(kAudioFileGlobalInfo_FileTypeName, 4, &unknown, &size), kAudioFileUnsupportedFileTypeError);
    EXPECT_STATUS(AudioFileGetGlobalInfoSize(kAudioFileGlobalInfo_AvailableFormatIDs, 4, &mp3, &size), kAudioFileUnsupportedFileTypeError);
    EXPECT_STATUS(AudioFileGetGlobalInfoSize(kAudioFileGlobalInfo_TypesForExtension, 4, &ext, &size), kAudioFileBadPropertySizeError);
    EXPECT_STATUS(AudioFileGetGlobalInfoSize(kAudioFileGlobalInfo_TypesForExtension, sizeof ext, NULL, &size), kAudioFileBadPropertySizeError);
    CFNumberRef notString = kCFBooleanTrue ? (CFNumberRef)kCFBooleanTrue : NULL;
    EXPECT_STATUS(AudioFileGetGlobalInfoSize(kAudioFileGlobalInfo_TypesForExtension, sizeof notString, &notString, &size), kAudio_ParamError);
    AudioFileTypeAndFormatID tf = {kAudioFileWAVEType, kAudioFormatAppleIMA4};
    EXPECT_STATUS(AudioFileGetGlobalInfoSize(kAudioFileGlobalInfo_AvailableStreamDescriptionsForFormat, sizeof tf, &tf, &size),
                  kAudioFileUnsupportedDataFormatError);
    EXPECT_STATUS(AudioFileGetGlobalInfoSize(kAudioFileGlobalInfo_AvailableStreamDescriptionsForFormat, 4, &tf, &size),
                  kAudioFileBadPropertySizeError);
    tf.mFileType = kAudioFileMP3Type;
    EXPECT_STATUS(AudioFileGetGlobalInfoSize(kAudioFileGlobalInfo_AvailableStreamDescriptionsForFormat, sizeof tf, &tf, &size),
                  kAudioFileUnsupportedFileTypeError);
    io = 4;
    EXPECT_STATUS(AudioFileGetGlobalInfo(kAudioFileGlobalInfo_ReadableTypes, 0, NULL, &io, types), kAudioFileBadPropertySizeError);
    EXPECT_STATUS(AudioFileGetGlobalInfo(kAudioFileGlobalInfo_ReadableTypes, 0, NULL, NULL, types), kAudio_ParamError);
    io = sizeof types;
    EXPECT_STATUS(AudioFileGetGlobalInfo(kAudioFileGlobalInfo_ReadableTypes, 0, NULL, &io, NULL), kAudio_ParamError);
    CFArrayRef array = NULL;
    io = 4;
    EXPECT_STATUS(AudioFileGetGlobalInfo(kAudioFileGlobalInfo_AllExtensions, 0, NULL, &io, &array), kAudioFileBadPropertySizeError);
    EXPECT(array == NULL, "nothing made for a small buffer");
    io = sizeof types;
    CFStringRef nothing = CFSTR("nothing");
    EXPECT_STATUS(AudioFileGetGlobalInfo(kAudioFileGlobalInfo_TypesForExtension, sizeof nothing, &nothing, &io, types), noErr);
    EXPECT(io == 0, "no types for an unknown extension (%u bytes)", (unsigned)io);
}

static void infoDictionary(const char *fixtures, int *passed, int *failed) {
    char path[4096];
    snprintf(path, sizeof path, "%s/wav-pcm_s16le-1ch-8000-info.wav", fixtures);
    CFURLRef url = CFURLCreateFromFileSystemRepresentation(NULL, (const UInt8 *)path, (CFIndex)strlen(path), false);
    AudioFileID file = NULL;
    EXPECT_STATUS(AudioFileOpenURL(url, kAudioFileReadPermission, 0, &file), noErr);
    CFRelease(url);
    CFDictionaryRef d = NULL;
    UInt32 size = 4;
    EXPECT_STATUS(AudioFileGetProperty(file, kAudioFilePropertyInfoDictionary, &size, &d), kAudioFileBadPropertySizeError);
    EXPECT(d == NULL, "nothing made for a small buffer");
    size = sizeof d;
    EXPECT_STATUS(AudioFileGetProperty(file, kAudioFilePropertyInfoDictionary, &size, NULL), kAudio_ParamError);
    EXPECT_STATUS(AudioFileGetProperty(file, kAudioFilePropertyInfoDictionary, NULL, &d), kAudio_ParamError);
    EXPECT_STATUS(AudioFileSetProperty(file, kAudioFilePropertyInfoDictionary, sizeof d, &d), kAudioFilePermissionsError);
    EXPECT_STATUS(AudioFileGetProperty(NULL, kAudioFilePropertyInfoDictionary, &size, &d), kAudioFileNotOpenError);
    AudioFileClose(file);
}

/* kAudioFilePropertyAlbumArtwork: a CFDataRef-sized value, read-only; NULL for a file without
 * pictures; a small size, NULL pointers and a closed file as for the info dictionary. */
static void albumArtwork(const char *fixtures, int *passed, int *failed) {
    char path[4096];
    snprintf(path, sizeof path, "%s/wav-pcm_s16le-1ch-8000-info.wav", fixtures);
    CFURLRef url = CFURLCreateFromFileSystemRepresentation(NULL, (const UInt8 *)path, (CFIndex)strlen(path), false);
    AudioFileID file = NULL;
    EXPECT_STATUS(AudioFileOpenURL(url, kAudioFileReadPermission, 0, &file), noErr);
    CFRelease(url);
    UInt32 size = 0, writable = 1;
    EXPECT_STATUS(AudioFileGetPropertyInfo(file, kAudioFilePropertyAlbumArtwork, &size, &writable), noErr);
    EXPECT(size == sizeof(CFDataRef) && writable == 0, "artwork property info: %u bytes, writable %u", (unsigned)size, (unsigned)writable);
    CFDataRef art = (CFDataRef)(uintptr_t)1;
    size = sizeof art;
    EXPECT_STATUS(AudioFileGetProperty(file, kAudioFilePropertyAlbumArtwork, &size, &art), noErr);
    EXPECT(art == NULL && size == sizeof art, "NULL for a file without pictures");
    size = sizeof art - 1;
    EXPECT_STATUS(AudioFileGetProperty(file, kAudioFilePropertyAlbumArtwork, &size, &art), kAudioFileBadPropertySizeError);
    size = sizeof art;
    EXPECT_STATUS(AudioFileGetProperty(file, kAudioFilePropertyAlbumArtwork, &size, NULL), kAudio_ParamError);
    EXPECT_STATUS(AudioFileGetProperty(file, kAudioFilePropertyAlbumArtwork, NULL, &art), kAudio_ParamError);
    EXPECT_STATUS(AudioFileSetProperty(file, kAudioFilePropertyAlbumArtwork, sizeof art, &art), kAudioFilePermissionsError);
    AudioFileClose(file);
    EXPECT_STATUS(AudioFileGetProperty(file, kAudioFilePropertyAlbumArtwork, &size, &art), kAudioFileNotOpenError);
    EXPECT_STATUS(AudioFileGetPropertyInfo(NULL, kAudioFilePropertyAlbumArtwork, &size, NULL), kAudioFileNotOpenError);
}

void cfMisuse(const char *fixtures, int *passed, int *failed) {
    objects(passed, failed);
    globalInfo(passed, failed);
    infoDictionary(fixtures, passed, failed);
    albumArtwork(fixtures, passed, failed);
}
