/*
 * Misuse of Audio Format Services and of the audio converter properties a queue answers, with
 * Apple's result codes; part of api_checks (its "errors" mode calls formatErrors).
 */
#include <AudioToolbox/AudioToolbox.h>

void formatErrors(int *passed, int *failed);

static int *passes, *failures;
/* NULL where the header says nonnull, without clang's warning about a literal NULL. */
static void *volatile nothing = NULL;

#define CHECK(cond, ...) do { if (cond) (*passes)++; else { (*failures)++; printf("FAIL %s:%d: ", __FILE__, __LINE__); printf(__VA_ARGS__); printf("\n"); } } while (0)
#define CHECK_STATUS(call, expected) do { OSStatus s_ = (call); CHECK(s_ == (OSStatus)(expected), "%s = %d, expected %s = %d", #call, (int)s_, #expected, (int)(expected)); } while (0)

static AudioStreamBasicDescription described(AudioFormatID id) {
    AudioStreamBasicDescription f = {0};
    f.mFormatID = id;
    f.mSampleRate = 44100;
    f.mChannelsPerFrame = 2;
    UInt32 size = sizeof(f);
    if (id != kAudioFormatQDesign) AudioFormatGetProperty(kAudioFormatProperty_FormatInfo, 0, NULL, &size, &f);
    return f;
}

static void audioFormatMisuse(void) {
    AudioStreamBasicDescription aac = described(kAudioFormatMPEG4AAC), qdesign = described(kAudioFormatQDesign);
    UInt32 size = 0;
    CHECK_STATUS(AudioFormatGetPropertyInfo(kAudioFormatProperty_FormatInfo, 0, NULL, nothing), kAudio_ParamError);
    CHECK_STATUS(AudioFormatGetPropertyInfo(0x7A7A7A7A, 0, NULL, &size), kAudioFormatUnsupportedPropertyError);
    CHECK_STATUS(AudioFormatGetPropertyInfo(kAudioFormatProperty_Encoders, 0, NULL, &size), kAudioFormatUnsupportedPropertyError);
    CHECK_STATUS(AudioFormatGetProperty(0x7A7A7A7A, 0, NULL, &size, &aac), kAudioFormatUnsupportedPropertyError);

    /* FormatInfo: the value is the description; too little room, no size, unknown format, bad cookie. */
    AudioStreamBasicDescription f = aac;
    size = 10;
    CHECK_STATUS(AudioFormatGetProperty(kAudioFormatProperty_FormatInfo, 0, NULL, &size, &f), kAudioFormatBadPropertySizeError);
    CHECK_STATUS(AudioFormatGetProperty(kAudioFormatProperty_FormatInfo, 0, NULL, NULL, &f), kAudio_ParamError);
    size = 0;
    CHECK_STATUS(AudioFormatGetProperty(kAudioFormatProperty_FormatInfo, 0, NULL, &size, NULL), noErr);
    CHECK(size == sizeof(AudioStreamBasicDescription), "FormatInfo's size is %u", (unsigned)size);
    f = qdesign;
    size = sizeof(f);
    CHECK_STATUS(AudioFormatGetProperty(kAudioFormatProperty_FormatInfo, 0, NULL, &size, &f), kAudioFormatUnsupportedDataFormatError);
    /* Fields whose products overflow (a description read from a hostile file) are refused, not trapped on. */
    AudioStreamBasicDescription huge = {44100, kAudioFormatLinearPCM, 0, 0, 0, 0, 0xFFFFFFFFu, 0xFFFFFFFFu, 0};
    size = sizeof(huge);
    CHECK_STATUS(AudioFormatGetProperty(kAudioFormatProperty_FormatInfo, 0, NULL, &size, &huge), kAudioFormatUnsupportedDataFormatError);
    huge.mFormatID = kAudioFormatAppleIMA4;
    CHECK_STATUS(AudioFormatGetProperty(kAudioFormatProperty_FormatInfo, 0, NULL, &size, &huge), kAudioFormatUnsupportedDataFormatError);
    const UInt8 badCookie[] = {0x03, 0x7F, 0x00};
    f = aac;
    CHECK_STATUS(AudioFormatGetProperty(kAudioFormatProperty_FormatInfo, sizeof(badCookie), badCookie, &size, &f),
                 kAudioFormatUnsupportedDataFormatError);

    /* Specifiers of the wrong size or missing. */
    UInt32 value = 0;
    size = sizeof(value);
    CHECK_STATUS(AudioFormatGetProperty(kAudioFormatProperty_FormatIsVBR, sizeof(aac), NULL, &size, &value), kAudioFormatBadSpecifierSizeError);
    CHECK_STATUS(AudioFormatGetProperty(kAudioFormatProperty_FormatIsVBR, sizeof(aac) - 1, &aac, &size, &value), kAudioFormatBadSpecifierSizeError);
    CHECK_STATUS(AudioFormatGetPropertyInfo(kAudioFormatProperty_ChannelLayoutForTag, 2, &value, &size), kAudioFormatBadSpecifierSizeError);
    AudioChannelLayout layout = {0};
    layout.mChannelLayoutTag = kAudioChannelLayoutTag_UseChannelDescriptions;
    layout.mNumberChannelDescriptions = 5; /* more than its 32 bytes hold */
    CHECK_STATUS(AudioFormatGetProperty(kAudioFormatProperty_NumberOfChannelsForLayout, sizeof(layout), &layout, &size, &value),
                 kAudioFormatBadSpecifierSizeError);
    CHECK_STATUS(AudioFormatGetProperty(kAudioFormatProperty_NumberOfChannelsForLayout, 4, &layout, &size, &value),
                 kAudioFormatBadSpecifierSizeError);
    AudioFormatInfo info = {aac, NULL, 4};
    CHECK_STATUS(AudioFormatGetPropertyInfo(kAudioFormatProperty_FormatList, sizeof(info), &info, &size), kAudioFormatBadSpecifierSizeError);
    /* The same specifier with no cookie is right: one item for AAC without one. */
    AudioFormatInfo plain = {aac, NULL, 0};
    size = 0;
    CHECK_STATUS(AudioFormatGetPropertyInfo(kAudioFormatProperty_FormatList, sizeof(plain), &plain, &size), noErr);
    CHECK(size == sizeof(AudioFormatListItem), "FormatList of AAC without a cookie is %u bytes", (unsigned)size);
    CHECK_STATUS(AudioFormatGetPropertyInfo(kAudioFormatProperty_FormatList, sizeof(aac), &aac, &size), kAudioFormatBadSpecifierSizeError);
    AudioFormatListItem items[2] = {{qdesign, 0}, {qdesign, 0}};
    CHECK_STATUS(AudioFormatGetPropertyInfo(kAudioFormatProperty_FirstPlayableFormatFromList, sizeof(items) - 1, items, &size),
                 kAudioFormatBadSpecifierSizeError);
    CHECK_STATUS(AudioFormatGetPropertyInfo(kAudioFormatProperty_FirstPlayableFormatFromList, sizeof(items), items, &size),
                 kAudioFormatUnsupportedDataFormatError);
    items[1].mASBD = aac;
    size = sizeof(value);
    CHECK_STATUS(AudioFormatGetProperty(kAudioFormatProperty_FirstPlayableFormatFromList, sizeof(items), items, &size, &value), noErr);
    CHECK(value == 1, "the first playable format is item %u", (unsigned)value);

    /* Values this library cannot give. */
    CFStringRef name = NULL;
    size = sizeof(name) - 1;
    CHECK_STATUS(AudioFormatGetProperty(kAudioFormatProperty_FormatName, sizeof(aac), &aac, &size, &name), kAudioFormatBadPropertySizeError);
    size = sizeof(name);
    CHECK_STATUS(AudioFormatGetProperty(kAudioFormatProperty_FormatName, sizeof(qdesign), &qdesign, &size, &name), kAudioFormatUnsupportedDataFormatError);
    AudioChannelLayoutTag tag = kAudioChannelLayoutTag_UseChannelBitmap;
    CHECK_STATUS(AudioFormatGetPropertyInfo(kAudioFormatProperty_ChannelLayoutForTag, sizeof(tag), &tag, &size), kAudioFormatUnsupportedDataFormatError);
    UInt32 bitmap = 0;
    CHECK_STATUS(AudioFormatGetPropertyInfo(kAudioFormatProperty_ChannelLayoutForBitmap, sizeof(bitmap), &bitmap, &size), kAudioFormatUnsupportedDataFormatError);
    AudioChannelDescription channel = {0xFFFF, 0, {0, 0, 0}};
    CHECK_STATUS(AudioFormatGetPropertyInfo(kAudioFormatProperty_ChannelName, sizeof(channel), &channel, &size), kAudioFormatUnsupportedDataFormatError);
    UInt32 none = 0;
    CHECK_STATUS(AudioFormatGetPropertyInfo(kAudioFormatProperty_TagsForNumberOfChannels, sizeof(none), &none, &size), noErr);
    CHECK(size == 0, "no tags have 0 channels, got %u bytes", (unsigned)size);

    /* Arrays: as many whole elements as fit. */
    UInt32 ids[2] = {0, 0};
    size = 6;
    CHECK_STATUS(AudioFormatGetProperty(kAudioFormatProperty_EncodeFormatIDs, 0, NULL, &size, ids), noErr);
    CHECK(size == 4 && ids[1] == 0, "6 bytes of room hold one format ID; wrote %u", (unsigned)size);
}

static void ignoreOutput(void *ud, AudioQueueRef q, AudioQueueBufferRef b) { (void)ud; (void)q; (void)b; }
static void ignoreInput(void *ud, AudioQueueRef q, AudioQueueBufferRef b, const AudioTimeStamp *t, UInt32 n,
                        const AudioStreamPacketDescription *d) { (void)ud; (void)q; (void)b; (void)t; (void)n; (void)d; }

static void converterMisuse(void) {
    AudioStreamBasicDescription pcm = {44100, kAudioFormatLinearPCM, kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked, 4, 1, 4, 2, 16, 0};
    AudioStreamBasicDescription ima4 = described(kAudioFormatAppleIMA4), f;
    AudioQueueRef out = NULL, in = NULL;
    CHECK_STATUS(AudioQueueNewOutput(&pcm, ignoreOutput, NULL, NULL, NULL, 0, &out), noErr);
    CHECK_STATUS(AudioQueueNewInput(&ima4, ignoreInput, NULL, NULL, NULL, 0, &in), noErr);
    UInt32 size = sizeof(f), value = 0;
    CHECK_STATUS(AudioQueueGetProperty(nothing, kAudioConverterCurrentOutputStreamDescription, &f, &size), kAudio_ParamError);
    CHECK_STATUS(AudioQueueGetProperty(out, kAudioConverterCurrentOutputStreamDescription, nothing, &size), kAudio_ParamError);
    CHECK_STATUS(AudioQueueGetPropertySize(out, kAudioConverterCurrentOutputStreamDescription, nothing), kAudio_ParamError);
    size = 8;
    CHECK_STATUS(AudioQueueGetProperty(out, kAudioConverterCurrentOutputStreamDescription, &f, &size), kAudioQueueErr_InvalidPropertySize);
    size = sizeof(f);
    CHECK_STATUS(AudioQueueGetProperty(out, kAudioConverterCurrentOutputStreamDescription, &f, &size), noErr);
    CHECK(f.mFormatID == kAudioFormatLinearPCM && (f.mFormatFlags & kAudioFormatFlagIsFloat) && f.mBitsPerChannel == 32,
          "an output queue's decoder writes Float32");
    CHECK_STATUS(AudioQueueGetPropertySize(out, kAudioConverterSampleRateConverterQuality, &size), kAudioQueueErr_InvalidProperty);
    /* The wrong direction's cookie, and linear PCM's converter, which has none. */
    CHECK_STATUS(AudioQueueGetPropertySize(out, kAudioConverterCompressionMagicCookie, &size), kAudioConverterErr_PropertyNotSupported);
    CHECK_STATUS(AudioQueueGetPropertySize(out, kAudioConverterDecompressionMagicCookie, &size), kAudioConverterErr_PropertyNotSupported);
    CHECK_STATUS(AudioQueueGetPropertySize(in, kAudioConverterDecompressionMagicCookie, &size), kAudioConverterErr_PropertyNotSupported);
    CHECK_STATUS(AudioQueueGetPropertySize(in, kAudioConverterCompressionMagicCookie, &size), noErr);
    CHECK(size == 0, "IMA4's encoder has no cookie, got %u bytes", (unsigned)size);
    size = sizeof(value);
    CHECK_STATUS(AudioQueueGetProperty(in, kAudioConverterPropertyMaximumOutputPacketSize, &value, &size), noErr);
    CHECK(value == 68, "IMA4 stereo packets are 68 bytes, got %u", (unsigned)value);
    CHECK_STATUS(AudioQueueGetProperty(out, kAudioConverterPropertyMaximumInputPacketSize, &value, &size), noErr);
    CHECK(value == 4, "16-bit stereo packets are 4 bytes, got %u", (unsigned)value);
    AudioConverterPrimeInfo prime = {1, 1};
    size = sizeof(prime);
    CHECK_STATUS(AudioQueueGetProperty(in, kAudioConverterPrimeInfo, &prime, &size), noErr);
    CHECK(prime.leadingFrames == 0 && prime.trailingFrames == 0, "IMA4 has no priming");
    CHECK_STATUS(AudioQueueDispose(out, true), noErr);
    CHECK_STATUS(AudioQueueDispose(in, true), noErr);
    size = sizeof(f);
    CHECK_STATUS(AudioQueueGetProperty(in, kAudioConverterCurrentInputStreamDescription, &f, &size), kAudio_ParamError);
}

/* The channel counts the AAC encoder takes are Apple's: 1 to 8. */
static void encodeChannels(void) {
    AudioStreamBasicDescription aac = {44100, kAudioFormatMPEG4AAC, 0, 0, 0, 0, 2, 0, 0};
    UInt32 size = 0;
    CHECK_STATUS(AudioFormatGetPropertyInfo(kAudioFormatProperty_AvailableEncodeNumberChannels, sizeof(aac), &aac, &size), noErr);
    CHECK(size == 8 * sizeof(UInt32), "AAC encodes 8 channel counts; the size is %u", (unsigned)size);
    UInt32 counts[8] = {0};
    size = sizeof(counts);
    CHECK_STATUS(AudioFormatGetProperty(kAudioFormatProperty_AvailableEncodeNumberChannels, sizeof(aac), &aac, &size, counts), noErr);
    CHECK(counts[0] == 1 && counts[7] == 8, "AAC encodes 1 to 8 channels; got %u to %u", (unsigned)counts[0], (unsigned)counts[7]);
}

void formatErrors(int *passed, int *failed) {
    passes = passed;
    failures = failed;
    audioFormatMisuse();
    converterMisuse();
    encodeChannels();
}
