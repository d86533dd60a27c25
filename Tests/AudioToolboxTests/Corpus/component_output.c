/*
 * An output module still written with the Component Manager's spellings, as decoders' and
 * players' CoreAudio outputs were before AudioComponent (and as some keep them): a
 * ComponentDescription, FindNextComponent, OpenAComponent into an AudioUnit, and CloseComponent.
 *
 *   component_output FRAMES RATE REF.raw
 *
 * plays FRAMES frames of deterministic noise, Float32 interleaved stereo at RATE, through the
 * default output unit; writes what the device should play to REF.raw (interleaved Float32) and
 * prints "components N" (the default output units found), "rendered N".
 */
#define _DEFAULT_SOURCE 1
#include <CoreServices/CoreServices.h>
#include <AudioUnit/AudioUnit.h>
#include <AudioToolbox/AudioToolbox.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct {
    AudioUnit outputUnit;
    float *samples;
    unsigned long frames;
    volatile unsigned long position;
    volatile int done;
} Output;

static OSStatus fillBuffer(void *inRefCon, AudioUnitRenderActionFlags *ioActionFlags, const AudioTimeStamp *inTimeStamp,
                           UInt32 inBusNumber, UInt32 inNumberFrames, AudioBufferList *ioData) {
    Output *o = (Output *)inRefCon;
    (void)inTimeStamp; (void)inBusNumber;
    float *out = (float *)ioData->mBuffers[0].mData;
    unsigned long n = o->frames - o->position;
    if (n > inNumberFrames) n = inNumberFrames;
    memcpy(out, o->samples + o->position * 2, n * 2 * sizeof(float));
    memset(out + n * 2, 0, (inNumberFrames - n) * 2 * sizeof(float));
    if (n == 0) *ioActionFlags |= kAudioUnitRenderAction_OutputIsSilence;
    o->position += n;
    if (o->position == o->frames) o->done = 1;
    return noErr;
}

static int openOutput(Output *o, double rate) {
    ComponentDescription desc;
    desc.componentType = kAudioUnitType_Output;
    desc.componentSubType = kAudioUnitSubType_DefaultOutput;
    desc.componentManufacturer = kAudioUnitManufacturer_Apple;
    desc.componentFlags = 0;
    desc.componentFlagsMask = 0;
    printf("components %ld\n", CountComponents(&desc));

    Component comp = FindNextComponent(NULL, &desc);
    if (comp == NULL) {
        fprintf(stderr, "error: FindNextComponent found no default output\n");
        return 0;
    }
    if (OpenAComponent(comp, &o->outputUnit) != noErr) {
        fprintf(stderr, "error: OpenAComponent failed\n");
        return 0;
    }

    AURenderCallbackStruct input;
    input.inputProc = fillBuffer;
    input.inputProcRefCon = o;
    if (AudioUnitSetProperty(o->outputUnit, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0, &input, sizeof(input))) {
        fprintf(stderr, "error: cannot set the render callback\n");
        return 0;
    }

    AudioStreamBasicDescription format;
    format.mSampleRate = rate;
    format.mFormatID = kAudioFormatLinearPCM;
    format.mFormatFlags = kLinearPCMFormatFlagIsFloat | kLinearPCMFormatFlagIsPacked;
    format.mBytesPerPacket = 8;
    format.mFramesPerPacket = 1;
    format.mBytesPerFrame = 8;
    format.mChannelsPerFrame = 2;
    format.mBitsPerChannel = 32;
    format.mReserved = 0;
    if (AudioUnitSetProperty(o->outputUnit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &format, sizeof(format))) {
        fprintf(stderr, "error: cannot set the stream format\n");
        return 0;
    }
    if (AudioUnitInitialize(o->outputUnit)) {
        fprintf(stderr, "error: AudioUnitInitialize failed\n");
        return 0;
    }
    return 1;
}

int main(int argc, char **argv) {
    static Output o;
    if (argc < 4) {
        fprintf(stderr, "usage: %s FRAMES RATE REF.raw\n", argv[0]);
        return 2;
    }
    o.frames = strtoul(argv[1], NULL, 10);
    double rate = atof(argv[2]);

    /* Noise in steps of 1/65536 from a linear congruential generator. */
    o.samples = malloc(o.frames * 2 * sizeof(float));
    unsigned int x = 2024;
    for (unsigned long i = 0; i < o.frames * 2; i++) {
        x = x * 1103515245u + 12345u;
        o.samples[i] = (float)((int)((x >> 12) & 0xFFFF) - 32768) / 65536.0f;
        if (i % 2 == 1 && o.samples[i] == 0 && o.samples[i - 1] == 0) o.samples[i] = 1.0f / 65536.0f;
    }
    FILE *ref = fopen(argv[3], "wb");
    if (!ref || fwrite(o.samples, sizeof(float), o.frames * 2, ref) != o.frames * 2) {
        fprintf(stderr, "error: cannot write %s\n", argv[3]);
        return 1;
    }
    fclose(ref);

    if (!openOutput(&o, rate)) return 1;
    if (AudioOutputUnitStart(o.outputUnit)) {
        fprintf(stderr, "error: AudioOutputUnitStart failed\n");
        return 1;
    }
    for (int i = 0; i < 6000 && !o.done; i++) usleep(10000);
    AudioOutputUnitStop(o.outputUnit);
    AudioUnitUninitialize(o.outputUnit);
    CloseComponent(o.outputUnit);
    printf("rendered %lu\n", o.position);
    free(o.samples);
    return o.done ? 0 : 1;
}
