/*
 * Misuse codes of Audio Converter Services and of ExtAudioFile writing, part of api_checks.
 *
 * Where a Mac's code is not in Apple's documentation, the one a Mac gives is used: NULL
 * arguments and a disposed (or never made) converter give kAudio_ParamError (-50);
 * AudioConverterConvertBuffer gives -50 for a converter with a codec and
 * kAudioConverterErr_InvalidInputSize for one that changes the sample rate. Properties a
 * converter does not have give kAudioConverterErr_PropertyNotSupported, sizes that do not fit
 * kAudioConverterErr_BadPropertySizeError.
 */
#include "checks.h"
#include <unistd.h>

/* What the input procedures below return when they have nothing ('nodt'). */
#define kNoData ((OSStatus)0x6E6F6474)

static AudioStreamBasicDescription float32(Float64 rate, UInt32 channels) {
    AudioStreamBasicDescription f = pcm(rate, channels);
    f.mFormatFlags = kAudioFormatFlagIsFloat | kAudioFormatFlagIsPacked;
    f.mBitsPerChannel = 32;
    f.mBytesPerFrame = f.mBytesPerPacket = 4 * channels;
    return f;
}

static OSStatus failingInput(AudioConverterRef c, UInt32 *n, AudioBufferList *data, AudioStreamPacketDescription **d, void *ud) {
    (void)c; (void)data; (void)d; (void)ud;
    *n = 0;
    return kNoData;
}

/* Gives 100 frames of stereo 16-bit silence once, then an error; counts the calls, and the
   calls asked for packet descriptions (none should be, for linear PCM) in the thousands. */
static OSStatus onceInput(AudioConverterRef c, UInt32 *n, AudioBufferList *data, AudioStreamPacketDescription **d, void *ud) {
    (void)c;
    static SInt16 silence[200];
    int *calls = ud;
    if (d) *calls += 1000;
    if ((*calls)++ % 1000 > 0) { *n = 0; return kNoData; }
    *n = 100;
    data->mBuffers[0].mData = silence;
    data->mBuffers[0].mDataByteSize = sizeof silence;
    return noErr;
}

static void converterMisuse(void) {
    AudioStreamBasicDescription s16 = pcm(44100, 2), f32 = float32(44100, 2), f48 = float32(48000, 2);
    AudioConverterRef c = NULL;
    EXPECT_STATUS(AudioConverterNew(NULL, &f32, &c), kAudio_ParamError);
    EXPECT_STATUS(AudioConverterNew(&s16, NULL, &c), kAudio_ParamError);
    EXPECT_STATUS(AudioConverterNew(&s16, &f32, NULL), kAudio_ParamError);
    AudioStreamBasicDescription aac = {0};
    aac.mSampleRate = 44100;
    aac.mFormatID = kAudioFormatMPEG4AAC;
    aac.mChannelsPerFrame = 2;
    EXPECT_STATUS(AudioConverterNew(&aac, &aac, &c), kAudioConverterErr_FormatNotSupported);
    AudioStreamBasicDescription zeroRate = s16;
    zeroRate.mSampleRate = 0;
    EXPECT_STATUS(AudioConverterNew(&zeroRate, &f32, &c), kAudioConverterErr_InputSampleRateOutOfRange);
    EXPECT_STATUS(AudioConverterNewSpecific(&s16, &f32, 1, NULL, &c), kAudio_ParamError);
    AudioClassDescription any = {0x61646563, 0x6C70636D, 0x6170706C} /* 'adec' 'lpcm' 'appl' */;
    EXPECT_STATUS(AudioConverterNewSpecific(&s16, &f32, 1, &any, &c), noErr);
    EXPECT_STATUS(AudioConverterDispose(c), noErr);
    EXPECT_STATUS(AudioConverterDispose(c), kAudio_ParamError);
    EXPECT_STATUS(AudioConverterReset(c), kAudio_ParamError);
    EXPECT_STATUS(AudioConverterDispose(NULL), kAudio_ParamError);
    EXPECT_STATUS(AudioConverterReset(NULL), kAudio_ParamError);
    UInt32 size = 4, value = 0;
    EXPECT_STATUS(AudioConverterGetProperty(c, kAudioConverterCodecQuality, &size, &value), kAudio_ParamError);
    EXPECT_STATUS(AudioConverterGetPropertyInfo(c, kAudioConverterCodecQuality, &size, NULL), kAudio_ParamError);
    EXPECT_STATUS(AudioConverterSetProperty(c, kAudioConverterCodecQuality, 4, &value), kAudio_ParamError);

    EXPECT_STATUS(AudioConverterNew(&s16, &f32, &c), noErr);
    EXPECT_STATUS(AudioConverterReset(c), noErr);
    /* Properties. */
    EXPECT_STATUS(AudioConverterGetPropertyInfo(c, 0x7a7a7a7a, &size, NULL), kAudioConverterErr_PropertyNotSupported);
    size = 4;
    EXPECT_STATUS(AudioConverterGetProperty(c, 0x7a7a7a7a, &size, &value), kAudioConverterErr_PropertyNotSupported);
    EXPECT_STATUS(AudioConverterGetProperty(c, kAudioConverterCodecQuality, NULL, &value), kAudio_ParamError);
    EXPECT_STATUS(AudioConverterGetProperty(c, kAudioConverterCodecQuality, &size, NULL), kAudio_ParamError);
    AudioStreamBasicDescription got;
    size = 8;
    EXPECT_STATUS(AudioConverterGetProperty(c, kAudioConverterCurrentInputStreamDescription, &size, &got), kAudioConverterErr_BadPropertySizeError);
    size = sizeof got;
    EXPECT_STATUS(AudioConverterGetProperty(c, kAudioConverterCurrentOutputStreamDescription, &size, &got), noErr);
    EXPECT(size == sizeof got && got.mBitsPerChannel == 32, "output description: %u bytes, %u bits", (unsigned)size, (unsigned)got.mBitsPerChannel);
    Boolean writable = 1;
    EXPECT_STATUS(AudioConverterGetPropertyInfo(c, kAudioConverterCurrentOutputStreamDescription, &size, &writable), noErr);
    EXPECT(!writable, "the output description is not settable");
    EXPECT_STATUS(AudioConverterGetPropertyInfo(c, kAudioConverterChannelMap, &size, &writable), noErr);
    EXPECT(size == 8 && writable, "channel map: %u bytes, writable %d", (unsigned)size, writable);
    SInt32 map[2] = {1, 0};
    EXPECT_STATUS(AudioConverterSetProperty(c, kAudioConverterChannelMap, 4, map), kAudioConverterErr_BadPropertySizeError);
    SInt32 badMap[2] = {0, 2};
    EXPECT_STATUS(AudioConverterSetProperty(c, kAudioConverterChannelMap, sizeof badMap, badMap), kAudio_ParamError);
    EXPECT_STATUS(AudioConverterSetProperty(c, kAudioConverterChannelMap, sizeof map, map), noErr);
    SInt32 mapOut[2] = {0, 0};
    size = sizeof mapOut;
    EXPECT_STATUS(AudioConverterGetProperty(c, kAudioConverterChannelMap, &size, mapOut), noErr);
    EXPECT(mapOut[0] == 1 && mapOut[1] == 0, "channel map %d %d", (int)mapOut[0], (int)mapOut[1]);
    UInt16 shortValue = 0;
    EXPECT_STATUS(AudioConverterSetProperty(c, kAudioConverterSampleRateConverterQuality, 2, &shortValue), kAudioConverterErr_BadPropertySizeError);
    value = kAudioConverterQuality_Max;
    EXPECT_STATUS(AudioConverterSetProperty(c, kAudioConverterSampleRateConverterQuality, 4, &value), noErr);
    value = kAudioConverterSampleRateConverterComplexity_Mastering;
    EXPECT_STATUS(AudioConverterSetProperty(c, kAudioConverterSampleRateConverterComplexity, 4, &value), noErr);
    value = 0;
    size = 4;
    EXPECT_STATUS(AudioConverterGetProperty(c, kAudioConverterSampleRateConverterComplexity, &size, &value), noErr);
    EXPECT(value == kAudioConverterSampleRateConverterComplexity_Mastering, "complexity '%x'", (unsigned)value);
    EXPECT_STATUS(AudioConverterSetProperty(c, kAudioConverterSampleRateConverterQuality, 4, NULL), kAudio_ParamError);
    EXPECT_STATUS(AudioConverterSetProperty(c, 0x7a7a7a7a, 4, &value), kAudioConverterErr_PropertyNotSupported);
    value = 128000;
    EXPECT_STATUS(AudioConverterSetProperty(c, kAudioConverterEncodeBitRate, 4, &value), kAudioConverterErr_PropertyNotSupported);
    size = 4;
    EXPECT_STATUS(AudioConverterGetProperty(c, kAudioConverterEncodeBitRate, &size, &value), kAudioConverterErr_PropertyNotSupported);
    EXPECT_STATUS(AudioConverterGetProperty(c, kAudioConverterCompressionMagicCookie, &size, &value), kAudioConverterErr_PropertyNotSupported);
    EXPECT_STATUS(AudioConverterSetProperty(c, kAudioConverterDecompressionMagicCookie, 4, &value), kAudioConverterErr_PropertyNotSupported);
    value = 4096; /* 1024 frames of 16-bit stereo in → 1024 of Float32 stereo out */
    size = 4;
    EXPECT_STATUS(AudioConverterGetProperty(c, kAudioConverterPropertyCalculateOutputBufferSize, &size, &value), noErr);
    EXPECT(value == 8192, "CalculateOutputBufferSize 4096 → %u", (unsigned)value);
    size = 2;
    EXPECT_STATUS(AudioConverterGetProperty(c, kAudioConverterPropertyCalculateInputBufferSize, &size, &value), kAudioConverterErr_BadPropertySizeError);
    AudioConverterPrimeInfo prime = {0, 0};
    size = sizeof prime;
    EXPECT_STATUS(AudioConverterGetProperty(c, kAudioConverterPrimeInfo, &size, &prime), noErr);
    EXPECT_STATUS(AudioConverterSetProperty(c, kAudioConverterPrimeInfo, 4, &prime), kAudioConverterErr_BadPropertySizeError);

    /* ConvertBuffer. */
    SInt16 in[8] = {0};
    Float32 out[8];
    size = sizeof out;
    EXPECT_STATUS(AudioConverterConvertBuffer(c, sizeof in, NULL, &size, out), kAudio_ParamError);
    EXPECT_STATUS(AudioConverterConvertBuffer(c, sizeof in, in, NULL, out), kAudio_ParamError);
    EXPECT_STATUS(AudioConverterConvertBuffer(c, sizeof in, in, &size, NULL), kAudio_ParamError);
    EXPECT_STATUS(AudioConverterConvertBuffer(c, 3, in, &size, out), kAudioConverterErr_InvalidInputSize);
    size = 4;
    EXPECT_STATUS(AudioConverterConvertBuffer(c, sizeof in, in, &size, out), kAudioConverterErr_InvalidOutputSize);
    size = sizeof out;
    EXPECT_STATUS(AudioConverterConvertBuffer(c, sizeof in, in, &size, out), noErr);
    EXPECT(size == sizeof out, "ConvertBuffer wrote %u bytes", (unsigned)size);

    /* FillComplexBuffer. */
    AudioBufferList list;
    list.mNumberBuffers = 1;
    list.mBuffers[0].mNumberChannels = 2;
    list.mBuffers[0].mDataByteSize = sizeof out;
    list.mBuffers[0].mData = out;
    UInt32 packets = 4;
    EXPECT_STATUS(AudioConverterFillComplexBuffer(c, NULL, NULL, &packets, &list, NULL), kAudio_ParamError);
    EXPECT_STATUS(AudioConverterFillComplexBuffer(c, failingInput, NULL, NULL, &list, NULL), kAudio_ParamError);
    EXPECT_STATUS(AudioConverterFillComplexBuffer(c, failingInput, NULL, &packets, NULL, NULL), kAudio_ParamError);
    list.mBuffers[0].mData = NULL;
    EXPECT_STATUS(AudioConverterFillComplexBuffer(c, failingInput, NULL, &packets, &list, NULL), kAudio_ParamError);
    list.mBuffers[0].mData = out;
    EXPECT_STATUS(AudioConverterFillComplexBuffer(c, failingInput, NULL, &packets, &list, NULL), kNoData);
    EXPECT(packets == 0, "%u packets after the input's error", (unsigned)packets);
    /* An input error after some frames: the frames written, then the error. */
    Float32 big[2 * 300];
    list.mBuffers[0].mDataByteSize = sizeof big;
    list.mBuffers[0].mData = big;
    packets = 300;
    int calls = 0;
    EXPECT_STATUS(AudioConverterReset(c), noErr);
    EXPECT_STATUS(AudioConverterFillComplexBuffer(c, onceInput, &calls, &packets, &list, NULL), kNoData);
    EXPECT(packets == 100 && list.mBuffers[0].mDataByteSize == 800, "%u packets, %u bytes before the input's error",
           (unsigned)packets, (unsigned)list.mBuffers[0].mDataByteSize);
    EXPECT(calls == 2, "%d calls of the input procedure (thousands: asked for descriptions of linear PCM)", calls);

    /* ConvertComplexBuffer. */
    EXPECT_STATUS(AudioConverterConvertComplexBuffer(c, 4, NULL, &list), kAudio_ParamError);
    EXPECT_STATUS(AudioConverterConvertComplexBuffer(c, 4, &list, NULL), kAudio_ParamError);
    EXPECT_STATUS(AudioConverterDispose(c), noErr);

    /* A rate change: ConvertBuffer cannot. A codec: ConvertBuffer cannot. */
    EXPECT_STATUS(AudioConverterNew(&f32, &f48, &c) == noErr ? AudioConverterConvertBuffer(c, 8, out, &size, out) : kAudioConverterErr_InvalidInputSize,
                  kAudioConverterErr_InvalidInputSize);
    if (c) AudioConverterDispose(c);
    AudioStreamBasicDescription ima4 = {0};
    ima4.mSampleRate = 44100;
    ima4.mFormatID = kAudioFormatAppleIMA4;
    ima4.mChannelsPerFrame = 2;
    ima4.mFramesPerPacket = 64;
    ima4.mBytesPerPacket = 68;
    EXPECT_STATUS(AudioConverterNew(&s16, &ima4, &c), noErr);
    size = sizeof out;
    EXPECT_STATUS(AudioConverterConvertBuffer(c, sizeof in, in, &size, out), kAudio_ParamError);
    EXPECT_STATUS(AudioConverterDispose(c), noErr);
}

static void writerMisuse(const char *scratch) {
    char path[4096];
    snprintf(path, sizeof path, "%s/converter_checks.caf", scratch);
    CFURLRef url = CFURLCreateFromFileSystemRepresentation(NULL, (const UInt8 *)path, (CFIndex)strlen(path), false);
    AudioStreamBasicDescription s16 = pcm(44100, 2);
    ExtAudioFileRef file = NULL;
    EXPECT_STATUS(ExtAudioFileCreateWithURL(NULL, kAudioFileCAFType, &s16, NULL, kAudioFileFlags_EraseFile, &file), kAudio_ParamError);
    EXPECT_STATUS(ExtAudioFileCreateWithURL(url, kAudioFileCAFType, NULL, NULL, kAudioFileFlags_EraseFile, &file), kAudio_ParamError);
    EXPECT_STATUS(ExtAudioFileCreateWithURL(url, kAudioFileCAFType, &s16, NULL, kAudioFileFlags_EraseFile, NULL), kAudio_ParamError);
    EXPECT_STATUS(ExtAudioFileCreateWithURL(url, kAudioFileCAFType, &s16, NULL, kAudioFileFlags_EraseFile, &file), noErr);
    EXPECT_STATUS(ExtAudioFileWrite(file, 4, NULL), kAudio_ParamError);
    EXPECT_STATUS(ExtAudioFileWriteAsync(file, 0, NULL), noErr);
    AudioStreamBasicDescription aac = {0};
    aac.mSampleRate = 44100;
    aac.mFormatID = kAudioFormatMPEG4AAC;
    aac.mChannelsPerFrame = 2;
    EXPECT_STATUS(ExtAudioFileSetProperty(file, kExtAudioFileProperty_ClientDataFormat, sizeof aac, &aac), kExtAudioFileError_NonPCMClientFormat);
    EXPECT_STATUS(ExtAudioFileSetProperty(file, kExtAudioFileProperty_ClientDataFormat, 8, &s16), kExtAudioFileError_InvalidPropertySize);
    EXPECT_STATUS(ExtAudioFileSetProperty(file, kExtAudioFileProperty_ConverterConfig, sizeof(void *), NULL), noErr);
    EXPECT_STATUS(ExtAudioFileSetProperty(file, 0x7a7a7a7a, 4, &s16), kExtAudioFileError_InvalidProperty);
    UInt32 size = 4;
    UInt32 value;
    EXPECT_STATUS(ExtAudioFileGetProperty(file, 0x7a7a7a7a, &size, &value), kExtAudioFileError_InvalidProperty);
    SInt64 length = -1;
    size = sizeof length;
    EXPECT_STATUS(ExtAudioFileGetProperty(file, kExtAudioFileProperty_FileLengthFrames, &size, &length), noErr);
    EXPECT(length == 0, "a new file's FileLengthFrames is %lld", (long long)length);
    UInt32 frames = 16;
    EXPECT_STATUS(ExtAudioFileRead(file, &frames, NULL), kAudio_ParamError);
    SInt16 samples[8] = {0};
    AudioBufferList list;
    list.mNumberBuffers = 1;
    list.mBuffers[0].mNumberChannels = 2;
    list.mBuffers[0].mDataByteSize = sizeof samples;
    list.mBuffers[0].mData = samples;
    EXPECT_STATUS(ExtAudioFileWrite(file, 4, &list), noErr);
    frames = 4;
    EXPECT_STATUS(ExtAudioFileRead(file, &frames, &list), kExtAudioFileError_InvalidOperationOrder);
    EXPECT_STATUS(ExtAudioFileSeek(file, 0), kExtAudioFileError_InvalidOperationOrder);
    SInt64 position = -1;
    EXPECT_STATUS(ExtAudioFileTell(file, &position), noErr);
    EXPECT(position == 4, "Tell %lld after writing 4 frames", (long long)position);
    Boolean writable = 0;
    EXPECT_STATUS(ExtAudioFileGetPropertyInfo(file, kExtAudioFileProperty_ConverterConfig, &size, &writable), noErr);
    EXPECT(size == sizeof(void *) && writable, "ConverterConfig: %u bytes, writable %d", (unsigned)size, writable);
    EXPECT_STATUS(ExtAudioFileDispose(file), noErr);
    EXPECT_STATUS(ExtAudioFileWrite(file, 4, &list), kAudio_ParamError);
    EXPECT_STATUS(ExtAudioFileWriteAsync(file, 4, &list), kAudio_ParamError);
    EXPECT_STATUS(ExtAudioFileCreateWithURL(url, kAudioFileCAFType, &s16, NULL, 0, &file), -48);

    /* An encoded file needs a client format before its first write. */
    AudioStreamBasicDescription ima4 = {0};
    ima4.mSampleRate = 44100;
    ima4.mFormatID = kAudioFormatAppleIMA4;
    ima4.mChannelsPerFrame = 2;
    EXPECT_STATUS(ExtAudioFileCreateWithURL(url, kAudioFileCAFType, &ima4, NULL, kAudioFileFlags_EraseFile, &file), noErr);
    EXPECT_STATUS(ExtAudioFileWrite(file, 4, &list), kExtAudioFileError_InvalidOperationOrder);
    EXPECT_STATUS(ExtAudioFileDispose(file), noErr);

    /* Wrapping. */
    EXPECT_STATUS(ExtAudioFileWrapAudioFileID(NULL, false, &file), kAudio_ParamError);
    AudioFileID audioFile = NULL;
    EXPECT_STATUS(AudioFileOpenURL(url, kAudioFileReadPermission, 0, &audioFile), noErr);
    EXPECT_STATUS(ExtAudioFileWrapAudioFileID(audioFile, false, NULL), kAudio_ParamError);
    EXPECT_STATUS(ExtAudioFileWrapAudioFileID(audioFile, true, &file), kAudioFilePermissionsError);
    EXPECT_STATUS(ExtAudioFileWrapAudioFileID(audioFile, false, &file), noErr);
    EXPECT_STATUS(ExtAudioFileWrite(file, 4, &list), kAudioFilePermissionsError);
    EXPECT_STATUS(ExtAudioFileDispose(file), noErr);
    EXPECT_STATUS(AudioFileClose(audioFile), noErr);
    CFRelease(url);
    unlink(path);
}

void converterErrors(const char *scratch) {
    converterMisuse();
    writerMisuse(scratch);
}
