/*
 * A player built on an AUGraph, the way synthesizer and game-audio libraries wire theirs on
 * macOS: a default output node fed by an AUConverter node, the application's samples given to
 * the converter through a node input callback. The source is 16-bit mono at 22.05 kHz; the
 * converter turns it into the output unit's canonical format (Float32, non-interleaved, stereo
 * at the device's rate), converting the rate and the channels.
 *
 *   augraph_player SOURCE.raw [RATE]
 *
 * plays SOURCE.raw (headerless 16-bit little-endian mono at 22,050 Hz) to the default output,
 * then stops. Without RATE the program gives both units the canonical format at the device's
 * rate; with RATE it sets only the converter's output, at RATE, and the connection gives the
 * output unit that format (as AUBase's MakeConnection does on a Mac), whose device side then
 * converts to the device's rate. Prints "output rate R channels C" (the output unit's input
 * format after AUGraphInitialize), "nodes N", "interactions N", "played N".
 */
#define _DEFAULT_SOURCE 1
#include <AudioToolbox/AudioToolbox.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SOURCE_RATE 22050.0

typedef struct {
    SInt16 *samples;
    UInt32 frames;
    atomic_uint position;
} Source;

#define CHECK(call)                                                                   \
    do {                                                                              \
        OSStatus status_ = (call);                                                    \
        if (status_ != noErr) {                                                       \
            fprintf(stderr, "error: %s returned %d\n", #call, (int)status_);          \
            exit(1);                                                                  \
        }                                                                             \
    } while (0)

static OSStatus feedConverter(void *inRefCon, AudioUnitRenderActionFlags *ioActionFlags, const AudioTimeStamp *inTimeStamp,
                              UInt32 inBusNumber, UInt32 inNumberFrames, AudioBufferList *ioData) {
    Source *source = (Source *)inRefCon;
    (void)inTimeStamp; (void)inBusNumber;
    SInt16 *out = (SInt16 *)ioData->mBuffers[0].mData;
    UInt32 position = atomic_load(&source->position);
    UInt32 n = source->frames - position;
    if (n > inNumberFrames) n = inNumberFrames;
    memcpy(out, source->samples + position, n * sizeof(SInt16));
    memset(out + n, 0, (inNumberFrames - n) * sizeof(SInt16));
    if (n == 0) *ioActionFlags |= kAudioUnitRenderAction_OutputIsSilence;
    atomic_store(&source->position, position + n);
    return noErr;
}

static int readSource(const char *path, Source *source) {
    FILE *file = fopen(path, "rb");
    if (!file) return 0;
    fseek(file, 0, SEEK_END);
    long bytes = ftell(file);
    fseek(file, 0, SEEK_SET);
    source->frames = (UInt32)(bytes / (long)sizeof(SInt16));
    source->samples = malloc(source->frames * sizeof(SInt16) + 1);
    size_t read = fread(source->samples, sizeof(SInt16), source->frames, file);
    fclose(file);
    atomic_init(&source->position, 0);
    return read == source->frames;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s SOURCE.raw [RATE]\n", argv[0]);
        return 2;
    }
    static Source source;
    if (!readSource(argv[1], &source)) {
        fprintf(stderr, "error: cannot read %s\n", argv[1]);
        return 1;
    }

    AUGraph graph;
    CHECK(NewAUGraph(&graph));

    AudioComponentDescription outputDesc = { kAudioUnitType_Output, kAudioUnitSubType_DefaultOutput, kAudioUnitManufacturer_Apple, 0, 0 };
    AudioComponentDescription converterDesc = { kAudioUnitType_FormatConverter, kAudioUnitSubType_AUConverter, kAudioUnitManufacturer_Apple, 0, 0 };
    AUNode outputNode, converterNode;
    CHECK(AUGraphAddNode(graph, &outputDesc, &outputNode));
    CHECK(AUGraphAddNode(graph, &converterDesc, &converterNode));
    CHECK(AUGraphOpen(graph));

    AudioUnit outputUnit, converterUnit;
    CHECK(AUGraphNodeInfo(graph, outputNode, NULL, &outputUnit));
    CHECK(AUGraphNodeInfo(graph, converterNode, NULL, &converterUnit));

    /* The canonical format in stereo between the two units, at the device's rate unless the
       command line gives one. */
    AudioStreamBasicDescription deviceFormat;
    UInt32 size = sizeof(deviceFormat);
    CHECK(AudioUnitGetProperty(outputUnit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, &deviceFormat, &size));
    AudioStreamBasicDescription canonical;
    memset(&canonical, 0, sizeof(canonical));
    canonical.mSampleRate = argc > 2 ? atof(argv[2]) : deviceFormat.mSampleRate;
    canonical.mFormatID = kAudioFormatLinearPCM;
    canonical.mFormatFlags = kAudioFormatFlagsNativeFloatPacked | kAudioFormatFlagIsNonInterleaved;
    canonical.mBytesPerPacket = 4;
    canonical.mFramesPerPacket = 1;
    canonical.mBytesPerFrame = 4;
    canonical.mChannelsPerFrame = 2;
    canonical.mBitsPerChannel = 32;
    CHECK(AudioUnitSetProperty(converterUnit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, &canonical, sizeof(canonical)));
    if (argc <= 2) {
        CHECK(AudioUnitSetProperty(outputUnit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &canonical, sizeof(canonical)));
    }

    AudioStreamBasicDescription sourceFormat;
    memset(&sourceFormat, 0, sizeof(sourceFormat));
    sourceFormat.mSampleRate = SOURCE_RATE;
    sourceFormat.mFormatID = kAudioFormatLinearPCM;
    sourceFormat.mFormatFlags = kLinearPCMFormatFlagIsSignedInteger | kLinearPCMFormatFlagIsPacked;
    sourceFormat.mBytesPerPacket = 2;
    sourceFormat.mFramesPerPacket = 1;
    sourceFormat.mBytesPerFrame = 2;
    sourceFormat.mChannelsPerFrame = 1;
    sourceFormat.mBitsPerChannel = 16;
    CHECK(AudioUnitSetProperty(converterUnit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &sourceFormat, sizeof(sourceFormat)));

    UInt32 quality = kRenderQuality_Max;
    CHECK(AudioUnitSetProperty(converterUnit, kAudioUnitProperty_RenderQuality, kAudioUnitScope_Global, 0, &quality, sizeof(quality)));

    CHECK(AUGraphConnectNodeInput(graph, converterNode, 0, outputNode, 0));
    AURenderCallbackStruct callback = { feedConverter, &source };
    CHECK(AUGraphSetNodeInputCallback(graph, converterNode, 0, &callback));

    UInt32 nodes = 0, interactions = 0;
    CHECK(AUGraphGetNodeCount(graph, &nodes));
    CHECK(AUGraphGetNumberOfInteractions(graph, &interactions));
    printf("nodes %u\ninteractions %u\n", (unsigned)nodes, (unsigned)interactions);

    CHECK(AUGraphInitialize(graph));
    AudioStreamBasicDescription outputInput;
    size = sizeof(outputInput);
    CHECK(AudioUnitGetProperty(outputUnit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &outputInput, &size));
    printf("output rate %.0f channels %u\n", outputInput.mSampleRate, (unsigned)outputInput.mChannelsPerFrame);
    CHECK(AUGraphStart(graph));

    /* Until the converter has taken every frame (at most a minute), then a little longer for
       what it still holds to come out. */
    for (int i = 0; i < 6000 && atomic_load(&source.position) < source.frames; i++) usleep(10000);
    usleep(300000);

    Boolean running = false;
    CHECK(AUGraphIsRunning(graph, &running));
    CHECK(AUGraphStop(graph));
    printf("played %u of %u running %d\n", (unsigned)atomic_load(&source.position), (unsigned)source.frames, running ? 1 : 0);
    CHECK(AUGraphUninitialize(graph));
    CHECK(AUGraphClose(graph));
    CHECK(DisposeAUGraph(graph));
    free(source.samples);
    return atomic_load(&source.position) == source.frames ? 0 : 1;
}
