/*
 * ExtAudioFile writing and wrapping as Mac programs do it, run by ConverterCTests.swift:
 *
 *   ext_writer create OUT wave|caff|ulaw|alaw FRAMES [async]
 *       a 16-bit (or G.711 CAF) stereo file written from interleaved Float32 client frames (a sweep) in
 *       chunks with ExtAudioFileWrite (or ExtAudioFileWriteAsync); the client frames go to
 *       OUT.f32 as the reference
 *   ext_writer ima4 OUT.caf FRAMES
 *       an IMA4 CAF written from non-interleaved Float32; the converter's properties through
 *       kExtAudioFileProperty_AudioConverter, then kExtAudioFileProperty_ConverterConfig NULL
 *   ext_writer aac OUT.m4a FRAMES BITRATE
 *       an M4A of AAC at 44.1 kHz written from 48 kHz interleaved Float32 client frames (so the
 *       converter resamples and encodes), the bit rate set through
 *       kExtAudioFileProperty_AudioConverter, a title and artist set on the AudioFileID of
 *       kExtAudioFileProperty_AudioFile; the client frames go to OUT.f32
 *   ext_writer wrapwrite OUT.wav FRAMES
 *       AudioFileCreateWithURL, ExtAudioFileWrapAudioFileID for writing, AudioFileClose after
 *       the dispose; reference in OUT.f32
 *   ext_writer wrapread IN OUT.raw
 *       AudioFileOpenURL, ExtAudioFileWrapAudioFileID for reading, 16-bit client frames raw
 *   ext_writer resample IN OUT.raw RATE CHANNELS
 *       ExtAudioFileOpenURL with a 16-bit client format of another rate and channel count
 * Prints "frames N" (frames written or read); exits 1 with a message on any error.
 */
#include <AudioToolbox/AudioToolbox.h>
#include <stddef.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(call) do { OSStatus e_ = (call); if (e_ != noErr) { fprintf(stderr, "error: %s = %d\n", #call, (int)e_); exit(1); } } while (0)
#define REQUIRE(cond, ...) do { if (!(cond)) { fprintf(stderr, "error: " __VA_ARGS__); fprintf(stderr, "\n"); exit(1); } } while (0)

static CFURLRef url(const char *path) {
    return CFURLCreateFromFileSystemRepresentation(kCFAllocatorDefault, (const UInt8 *)path, (CFIndex)strlen(path), false);
}

static AudioStreamBasicDescription int16(Float64 rate, UInt32 channels) {
    AudioStreamBasicDescription f = {0};
    f.mSampleRate = rate;
    f.mFormatID = kAudioFormatLinearPCM;
    f.mFormatFlags = kLinearPCMFormatFlagIsSignedInteger | kLinearPCMFormatFlagIsPacked;
    f.mChannelsPerFrame = channels;
    f.mBitsPerChannel = 16;
    f.mFramesPerPacket = 1;
    f.mBytesPerFrame = f.mBytesPerPacket = 2 * channels;
    return f;
}

static AudioStreamBasicDescription float32(Float64 rate, UInt32 channels, int interleaved) {
    AudioStreamBasicDescription f = {0};
    f.mSampleRate = rate;
    f.mFormatID = kAudioFormatLinearPCM;
    f.mFormatFlags = kAudioFormatFlagIsFloat | kAudioFormatFlagIsPacked | (interleaved ? 0 : kAudioFormatFlagIsNonInterleaved);
    f.mChannelsPerFrame = channels;
    f.mBitsPerChannel = 32;
    f.mFramesPerPacket = 1;
    f.mBytesPerFrame = f.mBytesPerPacket = interleaved ? 4 * channels : 4;
    return f;
}

/* Sample i of channel c: a sweep on the left, a quieter tone on the right, kept in [-1, 1). */
static float sample(long i, int c) {
    double t = (double)i / 44100.0;
    return c == 0 ? (float)(0.8 * sin(2 * 3.14159265358979323846 * (200.0 + 2000.0 * t) * t)) : (float)(0.3 * sin(2 * 3.14159265358979323846 * 440.0 * t));
}

/* Writes FRAMES interleaved stereo sweep frames through `file`, in uneven chunks. */
static void writeSweep(ExtAudioFileRef file, long frames, int async, FILE *reference) {
    float buffer[2 * 1500];
    long done = 0;
    int chunk = 0;
    while (done < frames) {
        UInt32 n = (UInt32)(500 + (chunk++ % 3) * 500);
        if (n > frames - done) n = (UInt32)(frames - done);
        for (UInt32 i = 0; i < n; i++) {
            buffer[2 * i] = sample(done + i, 0);
            buffer[2 * i + 1] = sample(done + i, 1);
        }
        AudioBufferList list;
        list.mNumberBuffers = 1;
        list.mBuffers[0].mNumberChannels = 2;
        list.mBuffers[0].mDataByteSize = n * 8;
        list.mBuffers[0].mData = buffer;
        if (async) CHECK(ExtAudioFileWriteAsync(file, n, &list));
        else CHECK(ExtAudioFileWrite(file, n, &list));
        if (reference) fwrite(buffer, 8, n, reference);
        done += n;
    }
}

static FILE *referenceFile(const char *out) {
    char path[4096];
    snprintf(path, sizeof path, "%s.f32", out);
    FILE *f = fopen(path, "wb");
    REQUIRE(f, "cannot write %s", path);
    return f;
}

static void create(const char *out, const char *type, long frames, int async) {
    AudioFileTypeID fileType = strcmp(type, "wave") == 0 ? kAudioFileWAVEType : kAudioFileCAFType;
    AudioStreamBasicDescription fileFormat = int16(44100, 2);
    UInt32 bits = 16;
    if (strcmp(type, "ulaw") == 0 || strcmp(type, "alaw") == 0) {
        /* As programs give it: the rest is for the encoder to fill in. */
        memset(&fileFormat, 0, sizeof fileFormat);
        fileFormat.mSampleRate = 44100;
        fileFormat.mFormatID = type[0] == 'u' ? kAudioFormatULaw : kAudioFormatALaw;
        fileFormat.mChannelsPerFrame = 2;
        bits = 8;
    }
    CFURLRef u = url(out);
    ExtAudioFileRef file = NULL;
    CHECK(ExtAudioFileCreateWithURL(u, fileType, &fileFormat, NULL, kAudioFileFlags_EraseFile, &file));
    CFRelease(u);
    AudioStreamBasicDescription client = float32(44100, 2, 1);
    CHECK(ExtAudioFileSetProperty(file, kExtAudioFileProperty_ClientDataFormat, sizeof client, &client));
    if (async) CHECK(ExtAudioFileWriteAsync(file, 0, NULL)); /* makes the writing thread, as programs do */
    FILE *reference = referenceFile(out);
    writeSweep(file, frames, async, reference);
    fclose(reference);
    SInt64 length = 0;
    UInt32 size = sizeof length;
    CHECK(ExtAudioFileGetProperty(file, kExtAudioFileProperty_FileLengthFrames, &size, &length));
    REQUIRE(length == frames, "FileLengthFrames %lld after %ld frames", (long long)length, frames);
    AudioStreamBasicDescription got;
    size = sizeof got;
    CHECK(ExtAudioFileGetProperty(file, kExtAudioFileProperty_FileDataFormat, &size, &got));
    REQUIRE(got.mBitsPerChannel == bits && got.mChannelsPerFrame == 2, "file format %u bits, %u channels",
            (unsigned)got.mBitsPerChannel, (unsigned)got.mChannelsPerFrame);
    AudioFileID audioFile = NULL;
    size = sizeof audioFile;
    CHECK(ExtAudioFileGetProperty(file, kExtAudioFileProperty_AudioFile, &size, &audioFile));
    REQUIRE(audioFile != NULL, "no AudioFileID");
    CHECK(ExtAudioFileDispose(file));
    printf("frames %ld\n", frames);
}

static void ima4(const char *out, long frames) {
    AudioStreamBasicDescription fileFormat = {0};
    fileFormat.mSampleRate = 44100;
    fileFormat.mFormatID = kAudioFormatAppleIMA4;
    fileFormat.mChannelsPerFrame = 2;
    CFURLRef u = url(out);
    ExtAudioFileRef file = NULL;
    CHECK(ExtAudioFileCreateWithURL(u, kAudioFileCAFType, &fileFormat, NULL, kAudioFileFlags_EraseFile, &file));
    CFRelease(u);
    UInt32 size = sizeof fileFormat;
    CHECK(ExtAudioFileGetProperty(file, kExtAudioFileProperty_FileDataFormat, &size, &fileFormat));
    REQUIRE(fileFormat.mFramesPerPacket == 64 && fileFormat.mBytesPerPacket == 68, "IMA4 file format %u frames, %u bytes per packet",
            (unsigned)fileFormat.mFramesPerPacket, (unsigned)fileFormat.mBytesPerPacket);

    AudioStreamBasicDescription client = float32(44100, 2, 0);
    CHECK(ExtAudioFileSetProperty(file, kExtAudioFileProperty_ClientDataFormat, sizeof client, &client));
    AudioConverterRef converter = NULL;
    size = sizeof converter;
    CHECK(ExtAudioFileGetProperty(file, kExtAudioFileProperty_AudioConverter, &size, &converter));
    REQUIRE(converter != NULL, "no converter");
    AudioStreamBasicDescription out_ = {0};
    size = sizeof out_;
    CHECK(AudioConverterGetProperty(converter, kAudioConverterCurrentOutputStreamDescription, &size, &out_));
    REQUIRE(out_.mFormatID == kAudioFormatAppleIMA4, "converter output '%x'", (unsigned)out_.mFormatID);
    AudioStreamBasicDescription in_ = {0};
    size = sizeof in_;
    CHECK(AudioConverterGetProperty(converter, kAudioConverterCurrentInputStreamDescription, &size, &in_));
    REQUIRE(in_.mFormatFlags & kAudioFormatFlagIsNonInterleaved, "converter input is not the client format");
    UInt32 quality = kAudioConverterQuality_Max;
    CHECK(AudioConverterSetProperty(converter, kAudioConverterCodecQuality, sizeof quality, &quality));
    CHECK(ExtAudioFileSetProperty(file, kExtAudioFileProperty_ConverterConfig, sizeof(CFArrayRef), NULL));

    float *left = malloc(sizeof(float) * (size_t)frames), *right = malloc(sizeof(float) * (size_t)frames);
    for (long i = 0; i < frames; i++) { left[i] = sample(i, 0); right[i] = sample(i, 1); }
    FILE *reference = referenceFile(out);
    for (long i = 0; i < frames; i++) { fwrite(&left[i], 4, 1, reference); fwrite(&right[i], 4, 1, reference); }
    fclose(reference);
    long done = 0;
    while (done < frames) {
        UInt32 n = frames - done < 1000 ? (UInt32)(frames - done) : 1000;
        AudioBufferList *list = malloc(offsetof(AudioBufferList, mBuffers) + 2 * sizeof(AudioBuffer));
        list->mNumberBuffers = 2;
        list->mBuffers[0] = (AudioBuffer){1, n * 4, left + done};
        list->mBuffers[1] = (AudioBuffer){1, n * 4, right + done};
        CHECK(ExtAudioFileWrite(file, n, list));
        free(list);
        done += n;
    }
    CHECK(ExtAudioFileDispose(file));
    free(left);
    free(right);
    printf("frames %ld\n", frames);
}

static void wrapWrite(const char *out, long frames) {
    AudioStreamBasicDescription fileFormat = int16(44100, 2);
    CFURLRef u = url(out);
    AudioFileID audioFile = NULL;
    CHECK(AudioFileCreateWithURL(u, kAudioFileWAVEType, &fileFormat, kAudioFileFlags_EraseFile, &audioFile));
    CFRelease(u);
    ExtAudioFileRef file = NULL;
    CHECK(ExtAudioFileWrapAudioFileID(audioFile, true, &file));
    AudioStreamBasicDescription client = float32(44100, 2, 1);
    CHECK(ExtAudioFileSetProperty(file, kExtAudioFileProperty_ClientDataFormat, sizeof client, &client));
    AudioFileID wrapped = NULL;
    UInt32 size = sizeof wrapped;
    CHECK(ExtAudioFileGetProperty(file, kExtAudioFileProperty_AudioFile, &size, &wrapped));
    REQUIRE(wrapped == audioFile, "kExtAudioFileProperty_AudioFile is not the wrapped file");
    FILE *reference = referenceFile(out);
    writeSweep(file, frames, 0, reference);
    fclose(reference);
    CHECK(ExtAudioFileDispose(file));
    /* The AudioFileID is still open: the program closes it. */
    UInt64 packets = 0;
    size = sizeof packets;
    CHECK(AudioFileGetProperty(audioFile, kAudioFilePropertyAudioDataPacketCount, &size, &packets));
    REQUIRE((long)packets == frames, "%llu packets after %ld frames", (unsigned long long)packets, frames);
    CHECK(AudioFileClose(audioFile));
    printf("frames %ld\n", frames);
}

/* Reads `file` to the end in its client format (16-bit, `channels`) into `out`. */
static long readAll(ExtAudioFileRef file, UInt32 channels, const char *out) {
    FILE *raw = fopen(out, "wb");
    REQUIRE(raw, "cannot write %s", out);
    SInt16 buffer[4096 * 8];
    long total = 0;
    while (1) {
        AudioBufferList list;
        list.mNumberBuffers = 1;
        list.mBuffers[0].mNumberChannels = channels;
        list.mBuffers[0].mDataByteSize = sizeof buffer;
        list.mBuffers[0].mData = buffer;
        UInt32 frames = (UInt32)(sizeof buffer / (2 * channels));
        CHECK(ExtAudioFileRead(file, &frames, &list));
        if (frames == 0) break;
        fwrite(buffer, 2 * channels, frames, raw);
        total += frames;
    }
    fclose(raw);
    return total;
}

static void wrapRead(const char *in, const char *out) {
    CFURLRef u = url(in);
    AudioFileID audioFile = NULL;
    CHECK(AudioFileOpenURL(u, kAudioFileReadPermission, 0, &audioFile));
    CFRelease(u);
    ExtAudioFileRef file = NULL;
    CHECK(ExtAudioFileWrapAudioFileID(audioFile, false, &file));
    AudioStreamBasicDescription fileFormat;
    UInt32 size = sizeof fileFormat;
    CHECK(ExtAudioFileGetProperty(file, kExtAudioFileProperty_FileDataFormat, &size, &fileFormat));
    AudioStreamBasicDescription client = int16(fileFormat.mSampleRate, fileFormat.mChannelsPerFrame);
    CHECK(ExtAudioFileSetProperty(file, kExtAudioFileProperty_ClientDataFormat, sizeof client, &client));
    long frames = readAll(file, client.mChannelsPerFrame, out);
    CHECK(ExtAudioFileDispose(file));
    UInt64 packets = 0;
    size = sizeof packets;
    CHECK(AudioFileGetProperty(audioFile, kAudioFilePropertyAudioDataPacketCount, &size, &packets));
    CHECK(AudioFileClose(audioFile));
    printf("frames %ld\n", frames);
}

static void resample(const char *in, const char *out, Float64 rate, UInt32 channels) {
    CFURLRef u = url(in);
    ExtAudioFileRef file = NULL;
    CHECK(ExtAudioFileOpenURL(u, &file));
    CFRelease(u);
    SInt64 fileFrames = 0;
    UInt32 size = sizeof fileFrames;
    CHECK(ExtAudioFileGetProperty(file, kExtAudioFileProperty_FileLengthFrames, &size, &fileFrames));
    AudioStreamBasicDescription client = int16(rate, channels);
    CHECK(ExtAudioFileSetProperty(file, kExtAudioFileProperty_ClientDataFormat, sizeof client, &client));
    SInt64 after = 0;
    size = sizeof after;
    CHECK(ExtAudioFileGetProperty(file, kExtAudioFileProperty_FileLengthFrames, &size, &after));
    REQUIRE(after == fileFrames, "FileLengthFrames changed with the client format: %lld, %lld", (long long)fileFrames, (long long)after);
    long frames = readAll(file, channels, out);
    SInt64 position = -1;
    CHECK(ExtAudioFileTell(file, &position));
    REQUIRE(position == frames, "Tell %lld after reading %ld client frames", (long long)position, frames);
    CHECK(ExtAudioFileSeek(file, frames / 2));
    CHECK(ExtAudioFileTell(file, &position));
    REQUIRE(position == frames / 2, "Tell %lld after seeking to %ld", (long long)position, frames / 2);
    CHECK(ExtAudioFileDispose(file));
    printf("frames %ld file %lld\n", frames, (long long)fileFrames);
}

static void aac(const char *out, long frames, UInt32 bitRate) {
    AudioStreamBasicDescription fileFormat = {0};
    fileFormat.mSampleRate = 44100;
    fileFormat.mFormatID = kAudioFormatMPEG4AAC;
    fileFormat.mChannelsPerFrame = 2;
    CFURLRef u = url(out);
    ExtAudioFileRef file = NULL;
    CHECK(ExtAudioFileCreateWithURL(u, kAudioFileM4AType, &fileFormat, NULL, kAudioFileFlags_EraseFile, &file));
    CFRelease(u);
    AudioStreamBasicDescription client = float32(48000, 2, 1);
    CHECK(ExtAudioFileSetProperty(file, kExtAudioFileProperty_ClientDataFormat, sizeof client, &client));
    AudioConverterRef converter = NULL;
    UInt32 size = sizeof converter;
    CHECK(ExtAudioFileGetProperty(file, kExtAudioFileProperty_AudioConverter, &size, &converter));
    CHECK(AudioConverterSetProperty(converter, kAudioConverterEncodeBitRate, sizeof bitRate, &bitRate));
    CHECK(ExtAudioFileSetProperty(file, kExtAudioFileProperty_ConverterConfig, sizeof(CFArrayRef), NULL));
    UInt32 got = 0;
    size = sizeof got;
    CHECK(AudioConverterGetProperty(converter, kAudioConverterEncodeBitRate, &size, &got));
    REQUIRE(got == bitRate, "bit rate %u after setting %u", (unsigned)got, (unsigned)bitRate);
    /* Tags on the underlying file, as Mac programs set them. */
    AudioFileID audioFile = NULL;
    size = sizeof audioFile;
    CHECK(ExtAudioFileGetProperty(file, kExtAudioFileProperty_AudioFile, &size, &audioFile));
    const void *keys[] = {CFSTR(kAFInfoDictionary_Title), CFSTR(kAFInfoDictionary_Artist)};
    const void *values[] = {CFSTR("ExtAudioFile title"), CFSTR("ExtAudioFile artist")};
    CFDictionaryRef info = CFDictionaryCreate(NULL, keys, values, 2, &kCFTypeDictionaryKeyCallBacks, &kCFTypeDictionaryValueCallBacks);
    CHECK(AudioFileSetProperty(audioFile, kAudioFilePropertyInfoDictionary, sizeof info, &info));
    CFRelease(info);

    float *samples = malloc(sizeof(float) * 2 * (size_t)frames);
    for (long i = 0; i < frames; i++) { samples[2 * i] = sample(i, 0); samples[2 * i + 1] = sample(i, 1); }
    FILE *reference = referenceFile(out);
    fwrite(samples, 8, (size_t)frames, reference);
    fclose(reference);
    long done = 0;
    while (done < frames) {
        UInt32 n = frames - done < 4096 ? (UInt32)(frames - done) : 4096;
        AudioBufferList list = {1, {{2, n * 8, samples + 2 * done}}};
        CHECK(ExtAudioFileWrite(file, n, &list));
        done += n;
    }
    CHECK(ExtAudioFileDispose(file));
    free(samples);
    printf("frames %ld\n", frames);
}

int main(int argc, char **argv) {
    setvbuf(stdout, NULL, _IONBF, 0);
    if (argc >= 5 && strcmp(argv[1], "create") == 0) create(argv[2], argv[3], atol(argv[4]), argc > 5 && strcmp(argv[5], "async") == 0);
    else if (argc == 4 && strcmp(argv[1], "ima4") == 0) ima4(argv[2], atol(argv[3]));
    else if (argc == 5 && strcmp(argv[1], "aac") == 0) aac(argv[2], atol(argv[3]), (UInt32)atol(argv[4]));
    else if (argc == 4 && strcmp(argv[1], "wrapwrite") == 0) wrapWrite(argv[2], atol(argv[3]));
    else if (argc == 4 && strcmp(argv[1], "wrapread") == 0) wrapRead(argv[2], argv[3]);
    else if (argc == 6 && strcmp(argv[1], "resample") == 0) resample(argv[2], argv[3], atof(argv[4]), (UInt32)atoi(argv[5]));
    else {
        fprintf(stderr, "usage: see the comment at the top of ext_writer.c\n");
        return 2;
    }
    return 0;
}
