/*
 * AudioConverterConvertBuffer and AudioConverterConvertComplexBuffer as Mac programs use them,
 * run by ConverterCTests.swift:
 *
 *   convert_buffer IN.s16 OUT.f32 CHANNELS
 *       interleaved 16-bit samples (raw, little-endian) to Float32 with ConvertBuffer, in
 *       blocks; then the Float32 back to 16-bit, which must give IN again; then the same
 *       through ConvertComplexBuffer into non-interleaved Float32 buffers, which must hold
 *       the same samples as the interleaved conversion
 * Prints "frames N"; exits 1 with a message on any error.
 */
#include <AudioToolbox/AudioToolbox.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(call) do { OSStatus e_ = (call); if (e_ != noErr) { fprintf(stderr, "error: %s = %d\n", #call, (int)e_); exit(1); } } while (0)
#define REQUIRE(cond, ...) do { if (!(cond)) { fprintf(stderr, "error: " __VA_ARGS__); fprintf(stderr, "\n"); exit(1); } } while (0)

static AudioStreamBasicDescription describe(UInt32 channels, int isFloat, int interleaved) {
    AudioStreamBasicDescription f;
    memset(&f, 0, sizeof f);
    f.mSampleRate = 44100;
    f.mFormatID = kAudioFormatLinearPCM;
    f.mFormatFlags = (isFloat ? kAudioFormatFlagIsFloat : kAudioFormatFlagIsSignedInteger) | kAudioFormatFlagIsPacked
                   | (interleaved ? 0 : kAudioFormatFlagIsNonInterleaved);
    f.mBitsPerChannel = isFloat ? 32 : 16;
    f.mChannelsPerFrame = channels;
    f.mFramesPerPacket = 1;
    f.mBytesPerFrame = f.mBytesPerPacket = (f.mBitsPerChannel / 8) * (interleaved ? channels : 1);
    return f;
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: convert_buffer IN.s16 OUT.f32 CHANNELS\n");
        return 2;
    }
    UInt32 channels = (UInt32)atoi(argv[3]);
    FILE *in = fopen(argv[1], "rb");
    REQUIRE(in, "cannot read %s", argv[1]);
    fseek(in, 0, SEEK_END);
    long bytes = ftell(in);
    fseek(in, 0, SEEK_SET);
    SInt16 *samples = malloc((size_t)bytes);
    REQUIRE(fread(samples, 1, (size_t)bytes, in) == (size_t)bytes, "short read");
    fclose(in);
    UInt32 frames = (UInt32)(bytes / (2 * (long)channels));

    AudioStreamBasicDescription int16 = describe(channels, 0, 1), float32 = describe(channels, 1, 1);
    AudioConverterRef toFloat, toInt;
    CHECK(AudioConverterNew(&int16, &float32, &toFloat));
    CHECK(AudioConverterNew(&float32, &int16, &toInt));

    /* ConvertBuffer, 1000 frames at a time. */
    Float32 *floats = malloc(sizeof(Float32) * frames * channels);
    SInt16 *back = malloc(sizeof(SInt16) * frames * channels);
    for (UInt32 at = 0; at < frames; at += 1000) {
        UInt32 n = frames - at < 1000 ? frames - at : 1000;
        UInt32 outSize = n * float32.mBytesPerFrame;
        CHECK(AudioConverterConvertBuffer(toFloat, n * int16.mBytesPerFrame, samples + at * channels, &outSize, floats + at * channels));
        REQUIRE(outSize == n * float32.mBytesPerFrame, "%u bytes out for %u frames", (unsigned)outSize, (unsigned)n);
        UInt32 backSize = n * int16.mBytesPerFrame;
        CHECK(AudioConverterConvertBuffer(toInt, n * float32.mBytesPerFrame, floats + at * channels, &backSize, back + at * channels));
        REQUIRE(backSize == n * int16.mBytesPerFrame, "%u bytes back for %u frames", (unsigned)backSize, (unsigned)n);
    }
    REQUIRE(memcmp(back, samples, (size_t)frames * int16.mBytesPerFrame) == 0, "16-bit to Float32 and back changed the samples");

    /* ConvertComplexBuffer into one buffer per channel. */
    AudioStreamBasicDescription planar = describe(channels, 1, 0);
    AudioConverterRef toPlanar;
    CHECK(AudioConverterNew(&int16, &planar, &toPlanar));
    AudioBufferList input;
    input.mNumberBuffers = 1;
    input.mBuffers[0].mNumberChannels = channels;
    input.mBuffers[0].mDataByteSize = frames * int16.mBytesPerFrame;
    input.mBuffers[0].mData = samples;
    AudioBufferList *output = malloc(offsetof(AudioBufferList, mBuffers) + channels * sizeof(AudioBuffer));
    output->mNumberBuffers = channels;
    for (UInt32 c = 0; c < channels; c++) {
        output->mBuffers[c].mNumberChannels = 1;
        output->mBuffers[c].mDataByteSize = frames * 4;
        output->mBuffers[c].mData = malloc(frames * 4);
    }
    CHECK(AudioConverterConvertComplexBuffer(toPlanar, frames, &input, output));
    for (UInt32 c = 0; c < channels; c++) {
        REQUIRE(output->mBuffers[c].mDataByteSize == frames * 4, "channel %u: %u bytes", (unsigned)c, (unsigned)output->mBuffers[c].mDataByteSize);
        const Float32 *plane = output->mBuffers[c].mData;
        for (UInt32 i = 0; i < frames; i++)
            REQUIRE(plane[i] == floats[i * channels + c], "channel %u frame %u: %g, interleaved %g", (unsigned)c, (unsigned)i,
                    plane[i], floats[i * channels + c]);
        free(output->mBuffers[c].mData);
    }
    free(output);

    FILE *out = fopen(argv[2], "wb");
    REQUIRE(out, "cannot write %s", argv[2]);
    fwrite(floats, float32.mBytesPerFrame, frames, out);
    fclose(out);
    CHECK(AudioConverterDispose(toFloat));
    CHECK(AudioConverterDispose(toInt));
    CHECK(AudioConverterDispose(toPlanar));
    free(samples);
    free(floats);
    free(back);
    printf("frames %u\n", (unsigned)frames);
    return 0;
}
