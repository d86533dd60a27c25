/*
 * The CoreFoundation subset's objects, run by CFObjectsTests.swift:
 *   cf_objects objects        numbers, booleans, arrays, dictionaries, data, strings, URLs:
 *                             values, conversions, retain counts, equality, descriptions
 *   cf_objects show           CFShow of several objects (stderr); stdout has the text Apple's
 *                             formats give for the same objects
 *   cf_objects info FILE...   each file's kAudioFilePropertyInfoDictionary, one key=value a line
 *   cf_objects written FILE   the info dictionary of a CAF file being written (800 frames at 8 kHz):
 *                             its duration, tags set on it and read back
 *   cf_objects stream FILE    kAudioFileStreamProperty_InfoDictionary of FILE parsed as a stream
 *   cf_objects global         AudioFileGetGlobalInfo's listings, one property a line
 * Every check prints a line when it fails; the last line says how many passed and failed.
 */
#include <AudioToolbox/AudioToolbox.h>

static int passed, failed;

#define EXPECT(cond, ...) do { if (cond) passed++; else { failed++; printf("FAIL %s:%d: ", __FILE__, __LINE__); printf(__VA_ARGS__); printf("\n"); } } while (0)

/* A string's UTF-8 text in a static buffer ("?" when it has none). */
static const char *text(CFTypeRef s) {
    static char buffer[4][2048];
    static int next;
    char *b = buffer[next++ % 4];
    if (!s || !CFStringGetCString((CFStringRef)s, b, sizeof buffer[0], kCFStringEncodingUTF8)) strcpy(b, "?");
    return b;
}

static int descriptionIs(CFTypeRef cf, const char *expected) {
    CFStringRef d = CFCopyDescription(cf);
    int same = d && strcmp(text(d), expected) == 0;
    if (!same) printf("description: %s\n expected:   %s\n", text(d), expected);
    if (d) CFRelease(d);
    return same;
}

static void numbers(void) {
    SInt32 i32 = 44100;
    CFNumberRef n = CFNumberCreate(NULL, kCFNumberSInt32Type, &i32);
    EXPECT(CFGetTypeID(n) == CFNumberGetTypeID(), "type ID");
    EXPECT(CFNumberGetType(n) == kCFNumberSInt32Type && CFNumberGetByteSize(n) == 4 && !CFNumberIsFloatType(n), "SInt32 number");
    Float64 d = 0;
    EXPECT(CFNumberGetValue(n, kCFNumberFloat64Type, &d) && d == 44100.0, "SInt32 to Float64 is exact");
    SInt8 i8 = 0;
    EXPECT(!CFNumberGetValue(n, kCFNumberSInt8Type, &i8) && i8 == 127, "44100 to SInt8 saturates and says so (%d)", i8);
    SInt16 i16 = 0;
    EXPECT(!CFNumberGetValue(n, kCFNumberSInt16Type, &i16) && i16 == 32767, "44100 to SInt16 saturates (%d)", i16);
    char buf[256];
    snprintf(buf, sizeof buf, "<CFNumber %p [0x0]>{value = +44100, type = kCFNumberSInt32Type}", (const void *)n);
    EXPECT(descriptionIs(n, buf), "number description");

    int c = -5;
    CFNumberRef ci = CFNumberCreate(NULL, kCFNumberIntType, &c);
    EXPECT(CFNumberGetType(ci) == kCFNumberSInt32Type, "kCFNumberIntType is stored as SInt32 (%ld)", (long)CFNumberGetType(ci));
    snprintf(buf, sizeof buf, "<CFNumber %p [0x0]>{value = -5, type = kCFNumberSInt32Type}", (const void *)ci);
    EXPECT(descriptionIs(ci, buf), "negative number description");
    UInt32 u = 0;
    EXPECT(CFNumberGetValue(ci, kCFNumberIntType, &u) && (int)u == -5, "same type gives the value back");

    double half = 2.5;
    CFNumberRef f = CFNumberCreate(NULL, kCFNumberDoubleType, &half);
    EXPECT(CFNumberGetType(f) == kCFNumberFloat64Type && CFNumberGetByteSize(f) == 8 && CFNumberIsFloatType(f), "double number");
    int truncated = 0;
    EXPECT(!CFNumberGetValue(f, kCFNumberIntType, &truncated) && truncated == 2, "2.5 to int truncates and says so");
    float f32 = 0;
    EXPECT(CFNumberGetValue(f, kCFNumberFloat32Type, &f32) && f32 == 2.5f, "2.5 to Float32 is exact");
    snprintf(buf, sizeof buf, "<CFNumber %p [0x0]>{value = +2.50000000000000000000, type = kCFNumberFloat64Type}", (const void *)f);
    EXPECT(descriptionIs(f, buf), "float description");
    double big = 1e300;
    CFNumberRef b = CFNumberCreate(NULL, kCFNumberFloat64Type, &big);
    SInt64 i64 = 0;
    EXPECT(!CFNumberGetValue(b, kCFNumberSInt64Type, &i64) && i64 == INT64_MAX, "1e300 to SInt64 saturates");
    EXPECT(!CFNumberGetValue(b, kCFNumberFloat32Type, &f32), "1e300 to Float32 is out of range");

    float third = 1.0f / 3.0f;
    CFNumberRef t = CFNumberCreate(NULL, kCFNumberFloatType, &third);
    EXPECT(CFNumberGetType(t) == kCFNumberFloat32Type && CFNumberGetByteSize(t) == 4, "float is Float32");
    snprintf(buf, sizeof buf, "<CFNumber %p [0x0]>{value = %+.10f, type = kCFNumberFloat32Type}", (const void *)t, (double)third);
    EXPECT(descriptionIs(t, buf), "Float32 description (10 digits)");

    long long ll = 1LL << 40;
    CFNumberRef l = CFNumberCreate(NULL, kCFNumberLongLongType, &ll);
    EXPECT(CFNumberGetType(l) == kCFNumberSInt64Type, "long long is SInt64");
    CFIndex idx = 0;
    EXPECT(CFNumberGetValue(l, kCFNumberCFIndexType, &idx) && idx == (CFIndex)ll, "CFIndex value");
    EXPECT(!CFNumberGetValue(l, kCFNumberSInt32Type, &i32) && i32 == INT32_MAX, "2^40 to SInt32 saturates");

    double same = 44100.0;
    CFNumberRef fs = CFNumberCreate(NULL, kCFNumberFloat64Type, &same);
    EXPECT(CFEqual(n, fs) && CFHash(n) == CFHash(fs), "44100 equals 44100.0, with the same hash");
    EXPECT(!CFEqual(n, ci) && CFNumberCompare(ci, n, NULL) == kCFCompareLessThan, "-5 < 44100");
    EXPECT(CFNumberCompare(n, fs, NULL) == kCFCompareEqualTo, "compare equal");

    EXPECT(CFBooleanGetValue(kCFBooleanTrue) && !CFBooleanGetValue(kCFBooleanFalse), "boolean values");
    EXPECT(CFGetTypeID(kCFBooleanTrue) == CFBooleanGetTypeID(), "boolean type ID");
    snprintf(buf, sizeof buf, "<CFBoolean %p [0x0]>{value = false}", (const void *)kCFBooleanFalse);
    EXPECT(descriptionIs(kCFBooleanFalse, buf), "boolean description");
    EXPECT(CFRetain(kCFBooleanTrue) == kCFBooleanTrue, "booleans are immortal");
    CFRelease(kCFBooleanTrue);

    CFRelease(n); CFRelease(ci); CFRelease(f); CFRelease(b); CFRelease(t); CFRelease(l); CFRelease(fs);
}

static void countValue(const void *value, void *context) { (void)value; (*(int *)context)++; }

static void arrays(void) {
    CFStringRef a = CFStringCreateWithCString(NULL, "alpha", kCFStringEncodingUTF8);
    SInt32 one = 1;
    CFNumberRef n = CFNumberCreate(NULL, kCFNumberSInt32Type, &one);
    const void *values[] = {a, n, kCFBooleanTrue};
    CFArrayRef array = CFArrayCreate(NULL, values, 3, &kCFTypeArrayCallBacks);
    EXPECT(CFGetTypeID(array) == CFArrayGetTypeID() && CFArrayGetCount(array) == 3, "array of 3");
    EXPECT(CFGetRetainCount(a) == 2 && CFGetRetainCount(n) == 2, "kCFTypeArrayCallBacks retain the values");
    EXPECT(CFArrayGetValueAtIndex(array, 1) == n && CFArrayGetValueAtIndex(array, 3) == NULL, "values by index");
    const void *out[2] = {NULL, NULL};
    CFArrayGetValues(array, CFRangeMake(1, 2), out);
    EXPECT(out[0] == n && out[1] == kCFBooleanTrue, "CFArrayGetValues");
    CFStringRef alpha = CFSTR("alpha");
    EXPECT(CFArrayContainsValue(array, CFRangeMake(0, 3), alpha), "contains an equal string");
    EXPECT(!CFArrayContainsValue(array, CFRangeMake(1, 2), alpha), "not in the range");
    int count = 0;
    CFArrayApplyFunction(array, CFRangeMake(0, 3), countValue, &count);
    EXPECT(count == 3, "applier called %d times", count);
    char buf[1024];
    snprintf(buf, sizeof buf,
             "<CFArray %p [0x0]>{type = immutable, count = 3, values = (\n"
             "\t0 : <CFString %p [0x0]>{contents = \"alpha\"}\n"
             "\t1 : <CFNumber %p [0x0]>{value = +1, type = kCFNumberSInt32Type}\n"
             "\t2 : <CFBoolean %p [0x0]>{value = true}\n)}",
             (const void *)array, (const void *)a, (const void *)n, (const void *)kCFBooleanTrue);
    EXPECT(descriptionIs(array, buf), "array description");
    CFArrayRef copy = CFArrayCreate(NULL, values, 3, &kCFTypeArrayCallBacks);
    EXPECT(CFEqual(array, copy), "arrays with equal values are equal");
    CFRelease(copy);
    CFRelease(array);
    EXPECT(CFGetRetainCount(a) == 1 && CFGetRetainCount(n) == 1, "releasing the array releases its values");

    const void *raw[] = {(const void *)1, (const void *)2};
    CFArrayRef plain = CFArrayCreate(NULL, raw, 2, NULL);
    EXPECT(CFArrayGetValueAtIndex(plain, 1) == (const void *)2, "NULL callbacks keep pointers as they are");
    CFRelease(plain);
    CFMutableArrayRef m = CFArrayCreateMutable(NULL, 0, &kCFTypeArrayCallBacks);
    CFArrayAppendValue(m, a);
    EXPECT(CFArrayGetCount(m) == 1 && CFGetRetainCount(a) == 2, "append retains");
    CFRelease(m);
    CFRelease(a);
    CFRelease(n);
}

static void countPair(const void *key, const void *value, void *context) { (void)key; (void)value; (*(int *)context)++; }

static void dictionaries(void) {
    CFMutableDictionaryRef d = CFDictionaryCreateMutable(NULL, 0, &kCFTypeDictionaryKeyCallBacks, &kCFTypeDictionaryValueCallBacks);
    EXPECT(CFGetTypeID(d) == CFDictionaryGetTypeID(), "dictionary type ID");
    CFStringRef key = CFStringCreateWithCString(NULL, "rate", kCFStringEncodingUTF8);
    Float64 rate = 48000;
    CFNumberRef value = CFNumberCreate(NULL, kCFNumberFloat64Type, &rate);
    CFDictionarySetValue(d, key, value);
    EXPECT(CFGetRetainCount(key) == 2 && CFGetRetainCount(value) == 2, "set retains key and value");
    CFNumberRef found = CFDictionaryGetValue(d, CFSTR("rate"));
    Float64 got = 0;
    EXPECT(found == value && CFNumberGetValue(found, kCFNumberFloat64Type, &got) && got == 48000, "a string key is found by value");
    SInt32 two = 2;
    CFNumberRef other = CFNumberCreate(NULL, kCFNumberSInt32Type, &two);
    CFDictionaryAddValue(d, CFSTR("rate"), other);
    EXPECT(CFDictionaryGetValue(d, key) == value, "add keeps an existing value");
    CFDictionarySetValue(d, CFSTR("channels"), other);
    EXPECT(CFDictionaryGetCount(d) == 2 && CFDictionaryContainsKey(d, CFSTR("channels")), "two keys");
    CFDictionarySetValue(d, CFSTR("rate"), other);
    EXPECT(CFGetRetainCount(value) == 1 && CFGetRetainCount(other) == 3, "replacing releases the old value");
    const void *v = NULL;
    EXPECT(CFDictionaryGetValueIfPresent(d, CFSTR("channels"), &v) && v == other, "GetValueIfPresent");
    EXPECT(!CFDictionaryGetValueIfPresent(d, CFSTR("bits"), &v), "absent key");
    EXPECT(CFDictionaryContainsValue(d, other), "ContainsValue");
    const void *keys[2], *values[2];
    CFDictionaryGetKeysAndValues(d, keys, values);
    EXPECT(CFEqual(keys[0], CFSTR("rate")) && values[1] == other, "GetKeysAndValues in insertion order");
    int count = 0;
    CFDictionaryApplyFunction(d, countPair, &count);
    EXPECT(count == 2, "applier called %d times", count);
    CFDictionaryRemoveValue(d, CFSTR("rate"));
    EXPECT(CFDictionaryGetCount(d) == 1 && CFGetRetainCount(key) == 1, "remove releases the key");
    char buf[1024];
    CFTypeRef k0 = NULL;
    CFDictionaryGetKeysAndValues(d, &k0, NULL);
    snprintf(buf, sizeof buf,
             "<CFBasicHash %p [0x0]>{type = mutable dict, count = 1,\nentries =>\n"
             "\t0 : <CFString %p [0x0]>{contents = \"channels\"} = <CFNumber %p [0x0]>{value = +2, type = kCFNumberSInt32Type}\n}\n",
             (const void *)d, k0, (const void *)other);
    EXPECT(descriptionIs(d, buf), "dictionary description");
    CFMutableDictionaryRef copy = CFDictionaryCreateMutableCopy(NULL, 0, d);
    EXPECT(CFEqual(copy, d), "a copy is equal");
    CFDictionaryRemoveAllValues(copy);
    EXPECT(CFDictionaryGetCount(copy) == 0 && !CFEqual(copy, d), "emptied copy");
    CFRelease(copy);
    CFRelease(d);
    EXPECT(CFGetRetainCount(other) == 1, "freeing the dictionary releases its values");

    /* kCFCopyStringDictionaryKeyCallBacks copies the key. */
    CFMutableDictionaryRef c = CFDictionaryCreateMutable(NULL, 0, &kCFCopyStringDictionaryKeyCallBacks, &kCFTypeDictionaryValueCallBacks);
    CFDictionarySetValue(c, key, other);
    const void *stored = NULL;
    CFDictionaryGetKeysAndValues(c, &stored, NULL);
    EXPECT(stored != key && CFEqual(stored, key) && CFGetRetainCount(key) == 1, "the key is a copy");
    CFRelease(c);

    /* An immutable dictionary of numbers, and NULL callbacks (pointer identity). */
    const void *ks[] = {CFSTR("a"), CFSTR("b")};
    const void *vs[] = {value, other};
    CFDictionaryRef fixed = CFDictionaryCreate(NULL, ks, vs, 2, &kCFTypeDictionaryKeyCallBacks, &kCFTypeDictionaryValueCallBacks);
    CFDictionarySetValue((CFMutableDictionaryRef)fixed, CFSTR("c"), value);
    EXPECT(CFDictionaryGetCount(fixed) == 2, "an immutable dictionary is left alone");
    CFRelease(fixed);
    CFStringRef a2 = CFStringCreateWithCString(NULL, "a", kCFStringEncodingUTF8);
    CFDictionaryRef byPointer = CFDictionaryCreate(NULL, ks, vs, 2, NULL, NULL);
    EXPECT(CFDictionaryGetValue(byPointer, ks[0]) == value && CFDictionaryGetValue(byPointer, a2) == NULL,
           "NULL key callbacks compare pointers");
    CFRelease(byPointer);
    CFRelease(a2);
    CFRelease(key); CFRelease(value); CFRelease(other);
}

static void stringsURLsData(void) {
    CFStringRef s = CFStringCreateWithCString(NULL, "Caf\xc3\xa9", kCFStringEncodingUTF8);
    EXPECT(CFGetTypeID(s) == CFStringGetTypeID() && CFStringGetLength(s) == 4, "string");
    EXPECT(CFStringGetCharacterAtIndex(s, 3) == 0xE9, "character at index");
    EXPECT(CFStringGetMaximumSizeForEncoding(4, kCFStringEncodingUTF8) == 12, "maximum UTF-8 size");
    CFStringRef copy = CFStringCreateCopy(NULL, s);
    EXPECT(copy != s && CFEqual(copy, s) && CFHash(copy) == CFHash(s), "copy");
    EXPECT(CFStringCompare(CFSTR("abc"), CFSTR("abd"), 0) == kCFCompareLessThan, "compare");
    EXPECT(CFStringCompare(CFSTR("ABC"), CFSTR("abc"), kCFCompareCaseInsensitive) == kCFCompareEqualTo, "case-insensitive");
    EXPECT(CFStringCompare(CFSTR("track 10"), CFSTR("track 9"), kCFCompareNumerically) == kCFCompareGreaterThan, "numerically");
    char buf[512];
    snprintf(buf, sizeof buf, "<CFString %p [0x0]>{contents = \"Caf\xc3\xa9\"}", (const void *)s);
    EXPECT(descriptionIs(s, buf), "string description");
    CFStringRef f = CFStringCreateWithFormat(NULL, NULL, CFSTR("%d Hz, %.1f s, %s, %@, %05x, %%"), 44100, 2.25, "wav", s, 255);
    EXPECT(strcmp(text(f), "44100 Hz, 2.2 s, wav, Caf\xc3\xa9, 000ff, %") == 0, "format: %s", text(f));
    CFRelease(f);
    SInt32 one = 1;
    CFNumberRef n = CFNumberCreate(NULL, kCFNumberSInt32Type, &one);
    f = CFStringCreateWithFormat(NULL, NULL, CFSTR("[%@]"), n);
    snprintf(buf, sizeof buf, "[<CFNumber %p [0x0]>{value = +1, type = kCFNumberSInt32Type}]", (const void *)n);
    EXPECT(strcmp(text(f), buf) == 0, "%%@ of a number: %s", text(f));
    CFRelease(f);
    CFRelease(n);
    CFRelease(copy);
    CFRelease(s);

    const char *path = "/tmp/a dir/Song.caf";
    CFURLRef url = CFURLCreateFromFileSystemRepresentation(NULL, (const UInt8 *)path, (CFIndex)strlen(path), false);
    EXPECT(CFGetTypeID(url) == CFURLGetTypeID(), "URL type ID");
    CFStringRef p = CFURLCopyFileSystemPath(url, kCFURLPOSIXPathStyle);
    EXPECT(strcmp(text(p), path) == 0, "path %s", text(p));
    EXPECT(strcmp(text(CFURLGetString(url)), "file:///tmp/a%20dir/Song.caf") == 0, "URL string %s", text(CFURLGetString(url)));
    CFStringRef last = CFURLCopyLastPathComponent(url);
    EXPECT(strcmp(text(last), "Song.caf") == 0, "last component %s", text(last));
    CFURLRef same = CFURLCreateWithFileSystemPath(NULL, p, kCFURLPOSIXPathStyle, false);
    EXPECT(CFEqual(url, same), "URLs with one path are equal");
    snprintf(buf, sizeof buf, "<CFURL %p [0x0]>{string = file:///tmp/a%%20dir/Song.caf, encoding = 134217984, base = (null)}",
             (const void *)url);
    EXPECT(descriptionIs(url, buf), "URL description");
    CFRelease(same); CFRelease(last); CFRelease(p); CFRelease(url);

    const UInt8 bytes[] = {1, 2, 3, 0xff};
    CFDataRef data = CFDataCreate(NULL, bytes, 4);
    UInt8 two[2] = {0, 0};
    CFDataGetBytes(data, CFRangeMake(2, 2), two);
    EXPECT(CFGetTypeID(data) == CFDataGetTypeID() && CFDataGetLength(data) == 4 && CFDataGetBytePtr(data)[3] == 0xff
           && two[0] == 3 && two[1] == 0xff, "data");
    snprintf(buf, sizeof buf, "<CFData %p [0x0]>{length = 4, capacity = 4, bytes = 0x010203ff}", (const void *)data);
    EXPECT(descriptionIs(data, buf), "data description");
    CFRelease(data);
}

static void show(void) {
    SInt32 rate = 44100;
    CFNumberRef n = CFNumberCreate(NULL, kCFNumberSInt32Type, &rate);
    CFStringRef s = CFStringCreateWithCString(NULL, "Caf\xc3\xa9 au lait", kCFStringEncodingUTF8);
    CFShow(s);
    printf("Caf\\u00e9 au lait\n");
    CFShow(n);
    printf("<CFNumber %p [0x0]>{value = +44100, type = kCFNumberSInt32Type}\n", (const void *)n);
    CFShow(kCFBooleanTrue);
    printf("<CFBoolean %p [0x0]>{value = true}\n", (const void *)kCFBooleanTrue);
    CFShow(NULL);
    printf("(null)\n");
    fflush(stdout);
    CFRelease(n);
    CFRelease(s);
}

static void printPair(const void *key, const void *value, void *context) {
    CFDictionaryRef d = context;
    EXPECT(CFGetTypeID(key) == CFStringGetTypeID() && CFGetTypeID(value) == CFStringGetTypeID(), "keys and values are strings");
    EXPECT(CFDictionaryGetValue(d, key) == value && CFDictionaryContainsKey(d, key), "lookup of %s", text(key));
    printf("%s=%s\n", text(key), text(value));
}

static int info(int count, char **paths) {
    for (int i = 0; i < count; i++) {
        CFURLRef url = CFURLCreateFromFileSystemRepresentation(NULL, (const UInt8 *)paths[i], (CFIndex)strlen(paths[i]), false);
        AudioFileID file = NULL;
        OSStatus status = AudioFileOpenURL(url, kAudioFileReadPermission, 0, &file);
        CFRelease(url);
        if (status != noErr) { printf("cannot open %s: %d\n", paths[i], (int)status); return 2; }
        UInt32 size = 0, writable = 1;
        EXPECT(AudioFileGetPropertyInfo(file, kAudioFilePropertyInfoDictionary, &size, &writable) == noErr
               && size == sizeof(CFDictionaryRef) && writable == 0, "property info");
        CFDictionaryRef d = NULL;
        size = sizeof d;
        EXPECT(AudioFileGetProperty(file, kAudioFilePropertyInfoDictionary, &size, &d) == noErr && d, "info dictionary");
        EXPECT(CFGetRetainCount(d) == 1, "a new dictionary the caller owns");
        printf("file %s\n", paths[i]);
        CFStringRef duration = CFDictionaryGetValue(d, CFSTR(kAFInfoDictionary_ApproximateDurationInSeconds));
        EXPECT(duration && CFGetTypeID(duration) == CFStringGetTypeID(), "the duration is a string");
        printf("count=%ld\n", (long)CFDictionaryGetCount(d));
        CFDictionaryApplyFunction(d, printPair, (void *)d);
        CFRelease(d);
        AudioFileClose(file);
    }
    return 0;
}

static int written(const char *path) {
    CFURLRef url = CFURLCreateFromFileSystemRepresentation(NULL, (const UInt8 *)path, (CFIndex)strlen(path), false);
    AudioStreamBasicDescription f = {8000, kAudioFormatLinearPCM, kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked, 2, 1, 2, 1, 16, 0};
    AudioFileID file = NULL;
    OSStatus status = AudioFileCreateWithURL(url, kAudioFileCAFType, &f, kAudioFileFlags_EraseFile, &file);
    CFRelease(url);
    if (status != noErr) { printf("cannot create %s: %d\n", path, (int)status); return 2; }
    static SInt16 samples[800];
    UInt32 packets = 800;
    EXPECT(AudioFileWritePackets(file, false, sizeof samples, NULL, 0, &packets, samples) == noErr && packets == 800, "write");
    CFDictionaryRef d = NULL;
    UInt32 size = sizeof d;
    EXPECT(AudioFileGetProperty(file, kAudioFilePropertyInfoDictionary, &size, &d) == noErr && d, "info dictionary");
    CFStringRef seconds = d ? CFDictionaryGetValue(d, CFSTR(kAFInfoDictionary_ApproximateDurationInSeconds)) : NULL;
    EXPECT(d && CFDictionaryGetCount(d) == 1 && strcmp(text(seconds), "0.1") == 0, "duration %s", text(seconds));
    if (d) CFRelease(d);

    /* Tags set on the file being written: a CFString and a CFNumber value. */
    UInt32 writable = 0;
    EXPECT(AudioFileGetPropertyInfo(file, kAudioFilePropertyInfoDictionary, &size, &writable) == noErr && writable == 1, "writable");
    CFMutableDictionaryRef tags = CFDictionaryCreateMutable(NULL, 0, &kCFTypeDictionaryKeyCallBacks, &kCFTypeDictionaryValueCallBacks);
    SInt32 track = 7;
    CFNumberRef number = CFNumberCreate(NULL, kCFNumberSInt32Type, &track);
    CFDictionarySetValue(tags, CFSTR(kAFInfoDictionary_Title), CFSTR("Written title"));
    CFDictionarySetValue(tags, CFSTR(kAFInfoDictionary_TrackNumber), number);
    CFRelease(number);
    EXPECT(AudioFileSetProperty(file, kAudioFilePropertyInfoDictionary, 2, &tags) == kAudioFileBadPropertySizeError, "a short value");
    CFStringRef notDictionary = CFSTR("title");
    EXPECT(AudioFileSetProperty(file, kAudioFilePropertyInfoDictionary, sizeof notDictionary, &notDictionary) == kAudio_ParamError, "not a dictionary");
    EXPECT(AudioFileSetProperty(file, kAudioFilePropertyInfoDictionary, sizeof tags, &tags) == noErr, "set the info dictionary");
    CFRelease(tags);
    d = NULL;
    size = sizeof d;
    EXPECT(AudioFileGetProperty(file, kAudioFilePropertyInfoDictionary, &size, &d) == noErr && d, "info dictionary after setting");
    EXPECT(d && CFDictionaryGetCount(d) == 3, "title, track number and duration (%ld)", d ? (long)CFDictionaryGetCount(d) : -1L);
    EXPECT(d && strcmp(text(CFDictionaryGetValue(d, CFSTR(kAFInfoDictionary_TrackNumber))), "7") == 0, "the number as text");
    if (d) CFRelease(d);
    AudioFileClose(file);

    /* Read back; a file opened for reading takes no info dictionary. */
    url = CFURLCreateFromFileSystemRepresentation(NULL, (const UInt8 *)path, (CFIndex)strlen(path), false);
    status = AudioFileOpenURL(url, kAudioFileReadPermission, 0, &file);
    CFRelease(url);
    EXPECT(status == noErr, "reopen %d", (int)status);
    if (status != noErr) return 0;
    d = NULL;
    size = sizeof d;
    EXPECT(AudioFileGetProperty(file, kAudioFilePropertyInfoDictionary, &size, &d) == noErr && d, "info dictionary read back");
    EXPECT(d && strcmp(text(CFDictionaryGetValue(d, CFSTR(kAFInfoDictionary_Title))), "Written title") == 0, "title read back");
    EXPECT(d && strcmp(text(CFDictionaryGetValue(d, CFSTR(kAFInfoDictionary_TrackNumber))), "7") == 0, "track read back");
    EXPECT(AudioFileSetProperty(file, kAudioFilePropertyInfoDictionary, sizeof d, &d) == kAudioFilePermissionsError, "read-only");
    if (d) CFRelease(d);
    AudioFileClose(file);
    return 0;
}

/* The stream's dictionary, printed when the parser is ready to produce packets. */
static void streamListener(void *ud, AudioFileStreamID stream, AudioFileStreamPropertyID id, AudioFileStreamPropertyFlags *flags) {
    (void)flags;
    if (id != kAudioFileStreamProperty_ReadyToProducePackets || *(int *)ud) return;
    *(int *)ud = 1;
    CFDictionaryRef d = NULL;
    UInt32 size = sizeof d;
    EXPECT(AudioFileStreamGetProperty(stream, kAudioFileStreamProperty_InfoDictionary, &size, &d) == noErr && d, "stream dictionary");
    if (!d) return;
    printf("count=%ld\n", (long)CFDictionaryGetCount(d));
    CFDictionaryApplyFunction(d, printPair, (void *)d);
    CFRelease(d);
}

static void streamPackets(void *ud, UInt32 bytes, UInt32 packets, const void *data, AudioStreamPacketDescription *descriptions) {
    (void)ud; (void)bytes; (void)packets; (void)data; (void)descriptions;
}

static int stream(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) { printf("cannot open %s\n", path); return 2; }
    int done = 0;
    AudioFileStreamID s = NULL;
    EXPECT(AudioFileStreamOpen(&done, streamListener, streamPackets, 0, &s) == noErr, "open stream");
    CFDictionaryRef early = NULL;
    UInt32 size = sizeof early;
    EXPECT(AudioFileStreamGetProperty(s, kAudioFileStreamProperty_InfoDictionary, &size, &early) == kAudioFileStreamError_ValueUnknown,
           "no dictionary before the header");
    unsigned char buffer[4096];
    size_t n;
    while (!done && (n = fread(buffer, 1, sizeof buffer, f)) > 0) AudioFileStreamParseBytes(s, (UInt32)n, buffer, 0);
    fclose(f);
    AudioFileStreamClose(s);
    EXPECT(done, "ready to produce packets");
    return 0;
}

static void printTypes(const char *name, AudioFilePropertyID id, UInt32 specifierSize, void *specifier) {
    UInt32 size = 0;
    OSStatus s = AudioFileGetGlobalInfoSize(id, specifierSize, specifier, &size);
    UInt32 types[64];
    UInt32 io = sizeof types;
    if (s == noErr) s = AudioFileGetGlobalInfo(id, specifierSize, specifier, &io, types);
    EXPECT(s == noErr && io == size, "%s: %d, %u of %u bytes", name, (int)s, (unsigned)io, (unsigned)size);
    printf("%s=", name);
    for (UInt32 i = 0; s == noErr && i < io / 4; i++)
        printf("%s%c%c%c%c", i ? "," : "", (int)(types[i] >> 24), (int)(types[i] >> 16 & 255), (int)(types[i] >> 8 & 255), (int)(types[i] & 255));
    printf("\n");
}

static void printStrings(const char *name, AudioFilePropertyID id, UInt32 specifierSize, void *specifier) {
    CFArrayRef array = NULL;
    UInt32 size = sizeof array;
    OSStatus s = AudioFileGetGlobalInfo(id, specifierSize, specifier, &size, &array);
    EXPECT(s == noErr && array && CFGetTypeID(array) == CFArrayGetTypeID(), "%s: %d", name, (int)s);
    printf("%s=", name);
    for (CFIndex i = 0; array && i < CFArrayGetCount(array); i++) printf("%s%s", i ? "," : "", text(CFArrayGetValueAtIndex(array, i)));
    printf("\n");
    if (array) CFRelease(array);
}

static void global(void) {
    printTypes("readable", kAudioFileGlobalInfo_ReadableTypes, 0, NULL);
    printTypes("writable", kAudioFileGlobalInfo_WritableTypes, 0, NULL);
    printStrings("extensions", kAudioFileGlobalInfo_AllExtensions, 0, NULL);
    printStrings("utis", kAudioFileGlobalInfo_AllUTIs, 0, NULL);
    printStrings("mimetypes", kAudioFileGlobalInfo_AllMIMETypes, 0, NULL);
    printTypes("hfscodes", kAudioFileGlobalInfo_AllHFSTypeCodes, 0, NULL);
    AudioFileTypeID types[] = {kAudioFileAIFFType, kAudioFileAIFCType, kAudioFileWAVEType, kAudioFileCAFType,
                               kAudioFileAAC_ADTSType, kAudioFileMP3Type, kAudioFileM4AType, kAudioFileMPEG4Type, kAudioFileFLACType};
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
        AudioFileTypeID t = types[i];
        char label[64];
        CFStringRef name = NULL;
        UInt32 size = sizeof name;
        OSStatus s = AudioFileGetGlobalInfo(kAudioFileGlobalInfo_FileTypeName, sizeof t, &t, &size, &name);
        EXPECT(s == noErr && name, "name: %d", (int)s);
        snprintf(label, sizeof label, "name.%c%c%c%c", (int)(t >> 24), (int)(t >> 16 & 255), (int)(t >> 8 & 255), (int)(t & 255));
        printf("%s=%s\n", label, text(name));
        if (name) CFRelease(name);
        memcpy(label, "exts", 4);
        printStrings(label, kAudioFileGlobalInfo_ExtensionsForType, sizeof t, &t);
    }
    CFStringRef ext = CFSTR("aif");
    printTypes("types.aif", kAudioFileGlobalInfo_TypesForExtension, sizeof ext, &ext);
    CFStringRef mime = CFSTR("audio/x-caf");
    printTypes("types.audio/x-caf", kAudioFileGlobalInfo_TypesForMIMEType, sizeof mime, &mime);
    CFStringRef uti = CFSTR("public.mp3");
    printTypes("types.public.mp3", kAudioFileGlobalInfo_TypesForUTI, sizeof uti, &uti);
    AudioFileTypeID wave = kAudioFileWAVEType;
    printTypes("formats.WAVE", kAudioFileGlobalInfo_AvailableFormatIDs, sizeof wave, &wave);
    AudioFileTypeAndFormatID tf = {kAudioFileWAVEType, kAudioFormatLinearPCM};
    UInt32 size = 0;
    EXPECT(AudioFileGetGlobalInfoSize(kAudioFileGlobalInfo_AvailableStreamDescriptionsForFormat, sizeof tf, &tf, &size) == noErr,
           "stream descriptions size");
    AudioStreamBasicDescription asbd[32];
    UInt32 io = sizeof asbd;
    EXPECT(AudioFileGetGlobalInfo(kAudioFileGlobalInfo_AvailableStreamDescriptionsForFormat, sizeof tf, &tf, &io, asbd) == noErr
           && io == size, "stream descriptions");
    printf("asbds.WAVE.lpcm=");
    for (UInt32 i = 0; i < io / sizeof asbd[0]; i++)
        printf("%s%s%s%u", i ? "," : "", asbd[i].mFormatFlags & kAudioFormatFlagIsFloat ? "F" : asbd[i].mFormatFlags & kAudioFormatFlagIsSignedInteger ? "I" : "UI",
               asbd[i].mFormatFlags & kAudioFormatFlagIsBigEndian ? "BE" : "", (unsigned)asbd[i].mBitsPerChannel);
    printf("\n");
}

int main(int argc, char **argv) {
    if (argc >= 2 && !strcmp(argv[1], "objects")) { numbers(); arrays(); dictionaries(); stringsURLsData(); }
    else if (argc >= 2 && !strcmp(argv[1], "show")) show();
    else if (argc >= 3 && !strcmp(argv[1], "info")) { int r = info(argc - 2, argv + 2); if (r) return r; }
    else if (argc == 3 && !strcmp(argv[1], "written")) { int r = written(argv[2]); if (r) return r; }
    else if (argc == 3 && !strcmp(argv[1], "stream")) { int r = stream(argv[2]); if (r) return r; }
    else if (argc >= 2 && !strcmp(argv[1], "global")) global();
    else { fprintf(stderr, "usage: cf_objects objects | show | info FILE... | written FILE | stream FILE | global\n"); return 2; }
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
