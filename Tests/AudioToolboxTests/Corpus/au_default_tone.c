/*
 * A tone player on the default output unit, written the way the CoreAudio back ends of portable
 * audio libraries open their output: find kAudioUnitSubType_DefaultOutput, set the client's
 * stream format on the input scope of element 0, a render callback and the largest slice,
 * initialize, start, let the callback count the frames it renders, stop, uninitialize, dispose.
 *
 *   au_default_tone FRAMES RATE REF.raw [int16|float]
 *
 * plays FRAMES frames of a stereo signal (a 440 Hz tone on the left, 660 Hz on the right, each
 * with a little deterministic noise) at RATE, as 16-bit interleaved integers (the default, as
 * many players set it) or 32-bit interleaved floats. Writes what the device should play to
 * REF.raw, interleaved Float32. Prints what it learned: the device's format from the output
 * scope ("device rate R channels C"), the unit's latency, the IsRunning changes its listener
 * heard ("listener running N"), the frames rendered, and one line per render callback
 * ("cycle SAMPLETIME HOSTNANOS FRAMES FLAGS").
 */
#define _DEFAULT_SOURCE 1
#include <AudioToolbox/AudioToolbox.h>
#include <CoreAudio/HostTime.h>
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_CYCLES 8192

typedef struct {
    int isFloat;
    UInt32 channels;
    UInt32 totalFrames;
    SInt16 *int16Signal;
    Float32 *floatSignal;
    atomic_uint rendered;
    atomic_int finished;
    /* What each render callback was given. */
    UInt32 cycles;
    Float64 sampleTime[MAX_CYCLES];
    UInt64 hostTime[MAX_CYCLES];
    UInt32 frames[MAX_CYCLES];
    UInt32 timeFlags[MAX_CYCLES];
    UInt32 badBuffers;
    /* What the IsRunning listener heard. */
    int runningChanges[16];
    atomic_int runningCount;
} Player;

static void check(OSStatus status, const char *what) {
    if (status == noErr) return;
    fprintf(stderr, "error: %s failed (%d)\n", what, (int)status);
    exit(1);
}

/* A tone per channel plus a little noise from a linear congruential generator: deterministic,
   and no frame is silent in both channels. */
static void makeSignal(Player *p, Float64 rate) {
    UInt32 count = p->totalFrames * p->channels;
    p->int16Signal = malloc(count * sizeof(SInt16));
    p->floatSignal = malloc(count * sizeof(Float32));
    UInt32 seed = 12345;
    for (UInt32 i = 0; i < p->totalFrames; i++) {
        for (UInt32 c = 0; c < p->channels; c++) {
            seed = seed * 1664525u + 1013904223u;
            double tone = 0.4 * sin(2.0 * M_PI * (c == 0 ? 440.0 : 660.0) * i / rate);
            long value = lrint(tone * 32767.0) + (long)(seed >> 24) - 128;
            if (value > 32767) value = 32767;
            if (value < -32768) value = -32768;
            p->int16Signal[i * p->channels + c] = (SInt16)value;
        }
        if (p->int16Signal[i * p->channels] == 0 && p->int16Signal[i * p->channels + 1] == 0) p->int16Signal[i * p->channels] = 1;
    }
    for (UInt32 i = 0; i < count; i++) p->floatSignal[i] = p->int16Signal[i] / 32768.0f;
}

static OSStatus renderTone(void *inRefCon, AudioUnitRenderActionFlags *ioActionFlags, const AudioTimeStamp *inTimeStamp,
                           UInt32 inBusNumber, UInt32 inNumberFrames, AudioBufferList *ioData) {
    Player *p = (Player *)inRefCon;
    (void)inBusNumber;
    if (p->cycles < MAX_CYCLES) {
        UInt32 c = p->cycles++;
        p->sampleTime[c] = inTimeStamp->mSampleTime;
        p->hostTime[c] = inTimeStamp->mHostTime;
        p->frames[c] = inNumberFrames;
        p->timeFlags[c] = inTimeStamp->mFlags;
    }
    UInt32 frameBytes = p->channels * (p->isFloat ? sizeof(Float32) : sizeof(SInt16));
    if (ioData->mNumberBuffers != 1 || ioData->mBuffers[0].mNumberChannels != p->channels
        || ioData->mBuffers[0].mDataByteSize < inNumberFrames * frameBytes) {
        p->badBuffers++;
        return noErr;
    }
    UInt32 done = atomic_load(&p->rendered);
    UInt32 n = p->totalFrames - done;
    if (n > inNumberFrames) n = inNumberFrames;
    char *out = (char *)ioData->mBuffers[0].mData;
    const char *source = p->isFloat ? (const char *)p->floatSignal : (const char *)p->int16Signal;
    memcpy(out, source + (size_t)done * frameBytes, (size_t)n * frameBytes);
    memset(out + (size_t)n * frameBytes, 0, (size_t)(inNumberFrames - n) * frameBytes);
    if (n == 0) *ioActionFlags |= kAudioUnitRenderAction_OutputIsSilence;
    atomic_store(&p->rendered, done + n);
    if (done + n == p->totalFrames) atomic_store(&p->finished, 1);
    return noErr;
}

static void runningChanged(void *inRefCon, AudioUnit inUnit, AudioUnitPropertyID inID, AudioUnitScope inScope,
                           AudioUnitElement inElement) {
    Player *p = (Player *)inRefCon;
    (void)inScope; (void)inElement;
    if (inID != kAudioOutputUnitProperty_IsRunning) return;
    UInt32 running = 0, size = sizeof(running);
    if (AudioUnitGetProperty(inUnit, kAudioOutputUnitProperty_IsRunning, kAudioUnitScope_Global, 0, &running, &size) != noErr) return;
    int n = atomic_fetch_add(&p->runningCount, 1);
    if (n < 16) p->runningChanges[n] = (int)running;
}

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: %s FRAMES RATE REF.raw [int16|float]\n", argv[0]);
        return 2;
    }
    static Player player;
    Player *p = &player;
    p->totalFrames = (UInt32)strtoul(argv[1], NULL, 10);
    Float64 rate = atof(argv[2]);
    p->isFloat = argc > 4 && strcmp(argv[4], "float") == 0;
    p->channels = 2;
    makeSignal(p, rate);

    FILE *ref = fopen(argv[3], "wb");
    if (!ref || fwrite(p->floatSignal, sizeof(Float32), p->totalFrames * p->channels, ref) != p->totalFrames * p->channels) {
        fprintf(stderr, "error: cannot write %s\n", argv[3]);
        return 1;
    }
    fclose(ref);

    AudioComponentDescription desc;
    memset(&desc, 0, sizeof(desc));
    desc.componentType = kAudioUnitType_Output;
    desc.componentSubType = kAudioUnitSubType_DefaultOutput;
    desc.componentManufacturer = kAudioUnitManufacturer_Apple;
    AudioComponent component = AudioComponentFindNext(NULL, &desc);
    if (component == NULL) {
        fprintf(stderr, "error: no default output unit\n");
        return 1;
    }
    AudioUnit unit;
    check(AudioComponentInstanceNew(component, &unit), "AudioComponentInstanceNew");

    AudioStreamBasicDescription device;
    UInt32 size = sizeof(device);
    check(AudioUnitGetProperty(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, &device, &size),
          "getting the device's format");
    printf("device rate %.0f channels %u\n", device.mSampleRate, (unsigned)device.mChannelsPerFrame);

    AudioStreamBasicDescription format;
    memset(&format, 0, sizeof(format));
    format.mSampleRate = rate;
    format.mFormatID = kAudioFormatLinearPCM;
    if (p->isFloat) {
        format.mFormatFlags = kLinearPCMFormatFlagIsFloat | kLinearPCMFormatFlagIsPacked;
        format.mBitsPerChannel = 32;
    } else {
        format.mFormatFlags = kLinearPCMFormatFlagIsSignedInteger | kLinearPCMFormatFlagIsPacked;
        format.mBitsPerChannel = 16;
    }
    format.mChannelsPerFrame = p->channels;
    format.mFramesPerPacket = 1;
    format.mBytesPerFrame = format.mBitsPerChannel / 8 * format.mChannelsPerFrame;
    format.mBytesPerPacket = format.mBytesPerFrame;
    check(AudioUnitSetProperty(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &format, sizeof(format)),
          "setting the stream format");

    AURenderCallbackStruct callback = { renderTone, p };
    check(AudioUnitSetProperty(unit, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0, &callback, sizeof(callback)),
          "setting the render callback");
    UInt32 maxFrames = 4096;
    check(AudioUnitSetProperty(unit, kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global, 0, &maxFrames, sizeof(maxFrames)),
          "setting the maximum frames per slice");
    check(AudioUnitAddPropertyListener(unit, kAudioOutputUnitProperty_IsRunning, runningChanged, p), "adding the IsRunning listener");

    check(AudioUnitInitialize(unit), "AudioUnitInitialize");
    check(AudioOutputUnitStart(unit), "AudioOutputUnitStart");

    Float64 latency = -1;
    size = sizeof(latency);
    check(AudioUnitGetProperty(unit, kAudioUnitProperty_Latency, kAudioUnitScope_Global, 0, &latency, &size), "getting the latency");
    printf("latency %s\n", latency >= 0 ? "ok" : "negative");

    /* Wait for the callback to render every frame (at most a minute). */
    for (int i = 0; i < 6000 && !atomic_load(&p->finished); i++) usleep(10000);

    check(AudioOutputUnitStop(unit), "AudioOutputUnitStop");
    UInt32 running = 1;
    size = sizeof(running);
    check(AudioUnitGetProperty(unit, kAudioOutputUnitProperty_IsRunning, kAudioUnitScope_Global, 0, &running, &size), "IsRunning");
    printf("running after stop %u\n", (unsigned)running);
    check(AudioUnitRemovePropertyListenerWithUserData(unit, kAudioOutputUnitProperty_IsRunning, runningChanged, p), "removing the listener");
    check(AudioUnitUninitialize(unit), "AudioUnitUninitialize");
    check(AudioComponentInstanceDispose(unit), "AudioComponentInstanceDispose");

    int changes = atomic_load(&p->runningCount);
    for (int i = 0; i < changes && i < 16; i++) printf("listener running %d\n", p->runningChanges[i]);
    printf("rate %.0f frames %u rendered %u\n", rate, (unsigned)p->totalFrames, (unsigned)atomic_load(&p->rendered));
    if (p->badBuffers) printf("%u callbacks with unexpected buffers\n", (unsigned)p->badBuffers);
    for (UInt32 c = 0; c < p->cycles; c++) {
        printf("cycle %.0f %llu %u %u\n", p->sampleTime[c], (unsigned long long)AudioConvertHostTimeToNanos(p->hostTime[c]),
               (unsigned)p->frames[c], (unsigned)p->timeFlags[c]);
    }
    free(p->int16Signal);
    free(p->floatSignal);
    return atomic_load(&p->finished) ? 0 : 1;
}
