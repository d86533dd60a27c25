/*
 * tap_checks.c — the processing tap functions' result codes (part of api_checks, run by
 * APITests.swift): NULL arguments, flags, one tap per queue, only while stopped, the calls
 * that belong inside the callback, and the queue time of an input queue's tap.
 */
#include "checks.h"
#include <stdlib.h>
#include <string.h>

typedef struct {
    int calls;
    OSStatus timeBeforeSource, source, timeAfterSource;
    UInt32 got;
} TapCalls;

/* A pass-through tap that also tries the calls in the wrong order. */
static void checkingTap(void *inClientData, AudioQueueProcessingTapRef inAQTap, UInt32 inNumberFrames,
                        AudioTimeStamp *ioTimeStamp, AudioQueueProcessingTapFlags *ioFlags, UInt32 *outNumberFrames,
                        AudioBufferList *ioData) {
    TapCalls *calls = (TapCalls *)inClientData;
    Float64 sampleTime;
    UInt32 frameCount;
    calls->calls++;
    calls->timeBeforeSource = AudioQueueProcessingTapGetQueueTime(inAQTap, &sampleTime, &frameCount);
    calls->source = AudioQueueProcessingTapGetSourceAudio(inAQTap, inNumberFrames, ioTimeStamp, ioFlags, outNumberFrames, ioData);
    calls->timeAfterSource = AudioQueueProcessingTapGetQueueTime(inAQTap, &sampleTime, &frameCount);
    calls->got = *outNumberFrames;
}

/* A siphon that tries to take source audio. */
static void siphonTap(void *inClientData, AudioQueueProcessingTapRef inAQTap, UInt32 inNumberFrames,
                      AudioTimeStamp *ioTimeStamp, AudioQueueProcessingTapFlags *ioFlags, UInt32 *outNumberFrames,
                      AudioBufferList *ioData) {
    TapCalls *calls = (TapCalls *)inClientData;
    AudioQueueProcessingTapFlags flags = 0;
    UInt32 got = 0;
    calls->calls++;
    calls->got = inNumberFrames;
    calls->source = AudioQueueProcessingTapGetSourceAudio(inAQTap, inNumberFrames, ioTimeStamp, &flags, &got, ioData);
    (void)ioFlags;
    (void)outNumberFrames;
}

/* A gain tap: the source in the queue's buffers (NULL pointers), halved in place; or, with
   `own` set, copied into buffers of the tap's own and halved there. */
typedef struct {
    int own;
    Float32 mine[2][4096];
    int calls, wrongFormat;
} GainTap;

static void gainTap(void *inClientData, AudioQueueProcessingTapRef inAQTap, UInt32 inNumberFrames, AudioTimeStamp *ioTimeStamp,
                    AudioQueueProcessingTapFlags *ioFlags, UInt32 *outNumberFrames, AudioBufferList *ioData) {
    GainTap *g = (GainTap *)inClientData;
    g->calls++;
    if (ioData->mNumberBuffers != 2 || ioData->mBuffers[0].mData != NULL || ioData->mBuffers[0].mDataByteSize != 0) g->wrongFormat++;
    for (UInt32 c = 0; c < 2 && g->own; c++) {
        ioData->mBuffers[c].mData = g->mine[c];
        ioData->mBuffers[c].mDataByteSize = (UInt32)sizeof g->mine[c];
    }
    if (AudioQueueProcessingTapGetSourceAudio(inAQTap, inNumberFrames, ioTimeStamp, ioFlags, outNumberFrames, ioData) != noErr) {
        *outNumberFrames = 0;
        return;
    }
    for (UInt32 c = 0; c < 2; c++) {
        Float32 *samples = (Float32 *)ioData->mBuffers[c].mData;
        if (g->own && samples != g->mine[c]) g->wrongFormat++;
        for (UInt32 i = 0; i < *outNumberFrames; i++) samples[i] *= 0.5f;
    }
}

/* Plays 1000 frames of a 16-bit stereo ramp through `tap` (a gain tap) and checks every sample
   came out halved. */
static void checkGain(int own) {
    AudioStreamBasicDescription f = pcm(44100, 2), floats = f;
    floats.mFormatFlags = kAudioFormatFlagIsFloat | kAudioFormatFlagIsPacked;
    floats.mBitsPerChannel = 32;
    floats.mBytesPerFrame = floats.mBytesPerPacket = 8;
    AudioQueueRef q = NULL;
    GainTap *g = (GainTap *)calloc(1, sizeof *g);
    g->own = own;
    EXPECT_STATUS(AudioQueueNewOutput(&f, ignoreOutput, NULL, NULL, NULL, 0, &q), noErr);
    UInt32 maxFrames;
    AudioStreamBasicDescription format;
    AudioQueueProcessingTapRef tap;
    EXPECT_STATUS(AudioQueueProcessingTapNew(q, gainTap, g, kAudioQueueProcessingTap_PreEffects, &maxFrames, &format, &tap), noErr);
    AudioQueueBufferRef in = NULL, out = NULL;
    AudioQueueAllocateBuffer(q, 4000, &in);
    AudioQueueAllocateBuffer(q, 8000, &out);
    SInt16 *ramp = (SInt16 *)in->mAudioData;
    for (int i = 0; i < 2000; i++) ramp[i] = (SInt16)(i * 16 - 16000);
    in->mAudioDataByteSize = 4000;
    EXPECT_STATUS(AudioQueueSetOfflineRenderFormat(q, &floats, NULL), noErr);
    EXPECT_STATUS(AudioQueueEnqueueBuffer(q, in, 0, NULL), noErr);
    EXPECT_STATUS(AudioQueueStart(q, NULL), noErr);
    AudioTimeStamp ts = {0};
    ts.mFlags = kAudioTimeStampSampleTimeValid;
    EXPECT_STATUS(AudioQueueOfflineRender(q, &ts, out, 1000), noErr);
    const Float32 *rendered = (const Float32 *)out->mAudioData;
    int wrong = 0;
    for (int i = 0; i < 2000; i++) wrong += rendered[i] != (Float32)ramp[i] / 32768.0f * 0.5f;
    EXPECT(out->mAudioDataByteSize == 8000 && wrong == 0 && g->calls > 0 && g->wrongFormat == 0,
           "a gain tap (%s buffers) halves every sample: %u bytes, %d wrong, %d calls, %d bad buffer lists",
           own ? "its own" : "the queue's", (unsigned)out->mAudioDataByteSize, wrong, g->calls, g->wrongFormat);
    EXPECT_STATUS(AudioQueueDispose(q, true), noErr);
    free(g);
}

static void ignoreRecorded(void *ud, AudioQueueRef q, AudioQueueBufferRef b, const AudioTimeStamp *t, UInt32 n,
                           const AudioStreamPacketDescription *d) { (void)ud; (void)q; (void)b; (void)t; (void)n; (void)d; }

/* Renders 1024 frames of silence offline through `q` (16-bit stereo at 44.1 kHz). */
static void renderSilence(AudioQueueRef q) {
    AudioStreamBasicDescription f = pcm(44100, 2);
    AudioQueueBufferRef in = NULL, out = NULL;
    AudioQueueAllocateBuffer(q, 4096, &in);
    AudioQueueAllocateBuffer(q, 4096, &out);
    memset(in->mAudioData, 0, 4096);
    in->mAudioDataByteSize = 4096;
    EXPECT_STATUS(AudioQueueSetOfflineRenderFormat(q, &f, NULL), noErr);
    EXPECT_STATUS(AudioQueueEnqueueBuffer(q, in, 0, NULL), noErr);
    EXPECT_STATUS(AudioQueueStart(q, NULL), noErr);
    AudioTimeStamp ts = {0};
    ts.mFlags = kAudioTimeStampSampleTimeValid;
    EXPECT_STATUS(AudioQueueOfflineRender(q, &ts, out, 1024), noErr);
    EXPECT_STATUS(AudioQueueStop(q, true), noErr);
}

void tapErrors(void) {
    AudioStreamBasicDescription f = pcm(44100, 2);
    AudioQueueRef q = NULL, in = NULL;
    EXPECT_STATUS(AudioQueueNewOutput(&f, ignoreOutput, NULL, NULL, NULL, 0, &q), noErr);
    EXPECT_STATUS(AudioQueueNewInput(&f, ignoreRecorded, NULL, NULL, NULL, 0, &in), noErr);
    UInt32 maxFrames = 0;
    AudioStreamBasicDescription format;
    AudioQueueProcessingTapRef tap = NULL, second = NULL, inTap = NULL;
    TapCalls calls = {0, 0, 0, 0, 0};
    const AudioQueueProcessingTapFlags pre = kAudioQueueProcessingTap_PreEffects;

    /* NULL arguments and flags. */
    EXPECT_STATUS(AudioQueueProcessingTapNew(NULL, checkingTap, &calls, pre, &maxFrames, &format, &tap), kAudio_ParamError);
    EXPECT_STATUS(AudioQueueProcessingTapNew(q, NULL, &calls, pre, &maxFrames, &format, &tap), kAudio_ParamError);
    EXPECT_STATUS(AudioQueueProcessingTapNew(q, checkingTap, &calls, pre, NULL, &format, &tap), kAudio_ParamError);
    EXPECT_STATUS(AudioQueueProcessingTapNew(q, checkingTap, &calls, pre, &maxFrames, NULL, &tap), kAudio_ParamError);
    EXPECT_STATUS(AudioQueueProcessingTapNew(q, checkingTap, &calls, pre, &maxFrames, &format, NULL), kAudio_ParamError);
    EXPECT_STATUS(AudioQueueProcessingTapNew(q, checkingTap, &calls, 0, &maxFrames, &format, &tap), kAudio_ParamError);
    EXPECT_STATUS(AudioQueueProcessingTapNew(q, checkingTap, &calls, kAudioQueueProcessingTap_Siphon, &maxFrames, &format, &tap),
                  kAudio_ParamError);
    EXPECT_STATUS(AudioQueueProcessingTapNew(q, checkingTap, &calls, pre | kAudioQueueProcessingTap_PostEffects, &maxFrames,
                                             &format, &tap), kAudio_ParamError);
    EXPECT_STATUS(AudioQueueProcessingTapNew(q, checkingTap, &calls, pre | kAudioQueueProcessingTap_EndOfStream, &maxFrames,
                                             &format, &tap), kAudio_ParamError);

    /* One tap, in Float32 non-interleaved at the queue's rate and channels. */
    EXPECT_STATUS(AudioQueueProcessingTapNew(q, checkingTap, &calls, pre, &maxFrames, &format, &tap), noErr);
    EXPECT(maxFrames == 2048, "a tap at 44.1 kHz takes 2048 frames at most, not %u", maxFrames);
    EXPECT(format.mFormatID == kAudioFormatLinearPCM && format.mFormatFlags == 0x29 && format.mSampleRate == 44100 &&
               format.mChannelsPerFrame == 2 && format.mBytesPerFrame == 4 && format.mBytesPerPacket == 4 &&
               format.mFramesPerPacket == 1 && format.mBitsPerChannel == 32,
           "the processing format is Float32 non-interleaved (flags %#x, %u channels)", format.mFormatFlags, format.mChannelsPerFrame);
    EXPECT_STATUS(AudioQueueProcessingTapNew(q, checkingTap, &calls, kAudioQueueProcessingTap_PostEffects, &maxFrames, &format,
                                             &second), kAudioQueueErr_TooManyTaps);

    /* Calls that belong inside the callback. */
    AudioTimeStamp ts = {0};
    AudioQueueProcessingTapFlags flags = 0;
    UInt32 got = 0, frameCount = 0;
    Float64 sampleTime = 0;
    struct { AudioBufferList list; AudioBuffer second; } io;
    memset(&io, 0, sizeof io);
    io.list.mNumberBuffers = 2;
    EXPECT_STATUS(AudioQueueProcessingTapGetSourceAudio(tap, 64, &ts, &flags, &got, &io.list), kAudioQueueErr_InvalidTapContext);
    EXPECT_STATUS(AudioQueueProcessingTapGetSourceAudio(NULL, 64, &ts, &flags, &got, &io.list), kAudio_ParamError);
    EXPECT_STATUS(AudioQueueProcessingTapGetSourceAudio(tap, 64, NULL, &flags, &got, &io.list), kAudio_ParamError);
    EXPECT_STATUS(AudioQueueProcessingTapGetSourceAudio(tap, 64, &ts, NULL, &got, &io.list), kAudio_ParamError);
    EXPECT_STATUS(AudioQueueProcessingTapGetSourceAudio(tap, 64, &ts, &flags, NULL, &io.list), kAudio_ParamError);
    EXPECT_STATUS(AudioQueueProcessingTapGetSourceAudio(tap, 64, &ts, &flags, &got, NULL), kAudio_ParamError);
    EXPECT_STATUS(AudioQueueProcessingTapGetQueueTime(tap, &sampleTime, &frameCount), kAudioQueueErr_InvalidTapContext);
    EXPECT_STATUS(AudioQueueProcessingTapGetQueueTime(NULL, &sampleTime, &frameCount), kAudio_ParamError);
    EXPECT_STATUS(AudioQueueProcessingTapGetQueueTime(tap, NULL, &frameCount), kAudio_ParamError);
    EXPECT_STATUS(AudioQueueProcessingTapGetQueueTime(tap, &sampleTime, NULL), kAudio_ParamError);

    /* Inside it: the queue time only after the source audio. */
    renderSilence(q);
    EXPECT(calls.calls > 0, "the tap was called");
    EXPECT_STATUS(calls.timeBeforeSource, kAudioQueueErr_InvalidTapContext);
    EXPECT_STATUS(calls.source, noErr);
    EXPECT_STATUS(calls.timeAfterSource, noErr);

    /* Only while stopped: paused is not enough. */
    EXPECT_STATUS(AudioQueueStart(q, NULL), noErr);
    EXPECT_STATUS(AudioQueueProcessingTapDispose(tap), kAudioQueueErr_InvalidRunState);
    EXPECT_STATUS(AudioQueuePause(q), noErr);
    EXPECT_STATUS(AudioQueueProcessingTapDispose(tap), kAudioQueueErr_InvalidRunState);
    EXPECT_STATUS(AudioQueueStop(q, true), noErr);
    EXPECT_STATUS(AudioQueueProcessingTapDispose(tap), noErr);
    EXPECT_STATUS(AudioQueueProcessingTapDispose(tap), kAudio_ParamError);
    EXPECT_STATUS(AudioQueueProcessingTapDispose(NULL), kAudio_ParamError);
    EXPECT_STATUS(AudioQueueStart(q, NULL), noErr);
    EXPECT_STATUS(AudioQueueProcessingTapNew(q, checkingTap, &calls, pre, &maxFrames, &format, &tap), kAudioQueueErr_InvalidRunState);
    EXPECT_STATUS(AudioQueueStop(q, true), noErr);

    /* A siphon is given its audio and may not take any. */
    TapCalls siphon = {0, 0, 0, 0, 0};
    EXPECT_STATUS(AudioQueueProcessingTapNew(q, siphonTap, &siphon, kAudioQueueProcessingTap_PostEffects | kAudioQueueProcessingTap_Siphon,
                                             &maxFrames, &format, &tap), noErr);
    renderSilence(q);
    EXPECT(siphon.calls > 0 && siphon.got > 0, "the siphon was called with audio");
    EXPECT_STATUS(siphon.source, kAudioQueueErr_InvalidTapContext);

    /* A gain tap halves what plays, in the queue's buffers or its own. */
    checkGain(0);
    checkGain(1);

    /* Disposing of the queue disposes of its tap. */
    EXPECT_STATUS(AudioQueueDispose(q, true), noErr);
    EXPECT_STATUS(AudioQueueProcessingTapDispose(tap), kAudio_ParamError);

    /* An input queue's tap has no queue time. */
    EXPECT_STATUS(AudioQueueProcessingTapNew(in, checkingTap, &calls, pre, &maxFrames, &format, &inTap), noErr);
    EXPECT_STATUS(AudioQueueProcessingTapGetQueueTime(inTap, &sampleTime, &frameCount), kAudioQueueErr_InvalidTapType);
    EXPECT_STATUS(AudioQueueProcessingTapDispose(inTap), noErr);
    EXPECT_STATUS(AudioQueueDispose(in, true), noErr);
}
