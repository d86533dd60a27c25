/*
 * audio_unit_checks.c: Audio Component and Audio Unit Services without a device — the
 * components a program finds, each function's result code for misuse, and the generic output
 * unit rendered offline from a callback, with its format conversion, render notifications and
 * property listeners. Prints "N passed, M failed".
 */
#define _DEFAULT_SOURCE
#include <AudioToolbox/AudioToolbox.h>
#include <CoreServices/CoreServices.h>
#include <stdio.h>
#include <string.h>
#include <stdatomic.h>
#include <unistd.h>

int passed, failed;

#define EXPECT(cond, ...) do { if (cond) passed++; else { failed++; printf("FAIL %s:%d: ", __FILE__, __LINE__); printf(__VA_ARGS__); printf("\n"); } } while (0)
#define EXPECT_STATUS(call, expected) do { OSStatus s_ = (call); EXPECT(s_ == (OSStatus)(expected), "%s = %d, expected %s = %d", #call, (int)s_, #expected, (int)(expected)); } while (0)

static AudioUnit make(OSType type, OSType subType) {
    AudioComponentDescription d = { type, subType, kAudioUnitManufacturer_Apple, 0, 0 };
    AudioComponent c = AudioComponentFindNext(NULL, &d);
    AudioUnit unit = NULL;
    if (c == NULL || AudioComponentInstanceNew(c, &unit) != noErr) { printf("FAIL: no component %4.4s\n", (char *)&subType); failed++; }
    return unit;
}

static AudioStreamBasicDescription int16(Float64 rate, UInt32 channels) {
    AudioStreamBasicDescription f = { rate, kAudioFormatLinearPCM, kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked,
                                      2 * channels, 1, 2 * channels, channels, 16, 0 };
    return f;
}

static AudioStreamBasicDescription float32Planar(Float64 rate, UInt32 channels) {
    AudioStreamBasicDescription f = { rate, kAudioFormatLinearPCM,
                                      kAudioFormatFlagIsFloat | kAudioFormatFlagIsPacked | kAudioFormatFlagIsNonInterleaved, 4, 1, 4,
                                      channels, 32, 0 };
    return f;
}

static void components(void) {
    AudioComponentDescription outputs = { kAudioUnitType_Output, 0, kAudioUnitManufacturer_Apple, 0, 0 };
    EXPECT(AudioComponentCount(&outputs) == 4, "output units: %u", (unsigned)AudioComponentCount(&outputs));
    const OSType subtypes[] = { kAudioUnitSubType_HALOutput, kAudioUnitSubType_DefaultOutput, kAudioUnitSubType_SystemOutput,
                                kAudioUnitSubType_GenericOutput };
    const char *names[] = { "Apple: AUHAL", "Apple: DefaultOutputUnit", "Apple: SystemOutputUnit", "Apple: GenericOutput" };
    for (int i = 0; i < 4; i++) {
        AudioComponentDescription d = { kAudioUnitType_Output, subtypes[i], kAudioUnitManufacturer_Apple, 0, 0 };
        AudioComponent c = AudioComponentFindNext(NULL, &d);
        EXPECT(c != NULL, "no component %d", i);
        if (c == NULL) continue;
        CFStringRef name = NULL;
        EXPECT_STATUS(AudioComponentCopyName(c, &name), noErr);
        char text[64] = "";
        if (name) { CFStringGetCString(name, text, sizeof text, kCFStringEncodingUTF8); CFRelease(name); }
        EXPECT(strcmp(text, names[i]) == 0, "name %s, expected %s", text, names[i]);
        AudioComponentDescription got;
        EXPECT_STATUS(AudioComponentGetDescription(c, &got), noErr);
        EXPECT(got.componentType == kAudioUnitType_Output && got.componentSubType == subtypes[i], "description");
        UInt32 version = 0;
        EXPECT_STATUS(AudioComponentGetVersion(c, &version), noErr);
        EXPECT(version != 0, "version 0");
        /* Searching on from the last match finds the next, then nothing. */
        AudioComponent next = AudioComponentFindNext(c, &d);
        EXPECT(next == NULL, "a second %4.4s", (char *)&subtypes[i]);
    }
    /* Walking every component with an empty description visits each once. */
    AudioComponentDescription any = { 0, 0, 0, 0, 0 };
    UInt32 walked = 0;
    for (AudioComponent c = AudioComponentFindNext(NULL, &any); c != NULL && walked < 100; c = AudioComponentFindNext(c, &any)) walked++;
    EXPECT(walked == AudioComponentCount(&any) && walked >= 4, "walked %u of %u", (unsigned)walked, (unsigned)AudioComponentCount(&any));
    EXPECT(AudioComponentFindNext(NULL, NULL) == NULL, "NULL description");

    /* The Component Manager's spellings find and open the same units. */
    ComponentDescription old = { kAudioUnitType_Output, kAudioUnitSubType_DefaultOutput, kAudioUnitManufacturer_Apple, 0, 0 };
    Component component = FindNextComponent(NULL, &old);
    EXPECT(component != NULL, "FindNextComponent");
    EXPECT(CountComponents(&old) == 1, "CountComponents");
    ComponentInstance instance = NULL;
    EXPECT(OpenAComponent(component, &instance) == noErr && instance != NULL, "OpenAComponent");
    EXPECT(CallComponentVersion(instance) > 0, "CallComponentVersion");
    EXPECT(AudioComponentInstanceGetComponent((AudioUnit)instance) == (AudioComponent)component, "same component");
    EXPECT(CloseComponent(instance) == noErr, "CloseComponent");
    EXPECT(CloseComponent(instance) == invalidComponentID, "CloseComponent twice");
}

static void misuse(void) {
    AudioUnit unit = make(kAudioUnitType_Output, kAudioUnitSubType_GenericOutput);
    AudioStreamBasicDescription format = int16(44100, 2);
    UInt32 size = sizeof format;
    EXPECT_STATUS(AudioUnitInitialize(NULL), kAudio_ParamError);
    EXPECT_STATUS(AudioUnitGetProperty(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &format, NULL), kAudio_ParamError);
    EXPECT_STATUS(AudioUnitGetProperty(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Global, 0, &format, &size), kAudioUnitErr_InvalidScope);
    EXPECT_STATUS(AudioUnitGetProperty(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 3, &format, &size), kAudioUnitErr_InvalidElement);
    EXPECT_STATUS(AudioUnitGetProperty(unit, 0x7A7A7A7A, kAudioUnitScope_Global, 0, &format, &size), kAudioUnitErr_InvalidProperty);
    size = 8;
    EXPECT_STATUS(AudioUnitGetProperty(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &format, &size), kAudioUnitErr_InvalidPropertyValue);
    EXPECT_STATUS(AudioUnitSetProperty(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &format, 8), kAudioUnitErr_InvalidPropertyValue);
    AudioStreamBasicDescription aac = { 44100, kAudioFormatMPEG4AAC, 0, 0, 1024, 0, 2, 0, 0 };
    EXPECT_STATUS(AudioUnitSetProperty(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &aac, sizeof aac), kAudioUnitErr_FormatNotSupported);
    Float64 latency = 1;
    EXPECT_STATUS(AudioUnitSetProperty(unit, kAudioUnitProperty_Latency, kAudioUnitScope_Global, 0, &latency, sizeof latency), kAudioUnitErr_PropertyNotWritable);
    UInt32 frames = 0;
    EXPECT_STATUS(AudioUnitSetProperty(unit, kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global, 0, &frames, sizeof frames), kAudioUnitErr_InvalidPropertyValue);
    EXPECT_STATUS(AudioUnitSetParameter(unit, 12345, kAudioUnitScope_Global, 0, 1, 0), kAudioUnitErr_InvalidParameter);
    AudioUnitRenderActionFlags flags = 0;
    AudioTimeStamp time;
    memset(&time, 0, sizeof time);
    struct { UInt32 n; AudioBuffer b[2]; } list;
    EXPECT_STATUS(AudioUnitRender(unit, &flags, &time, 0, 64, (AudioBufferList *)&list), kAudioUnitErr_Uninitialized);
    EXPECT_STATUS(AudioOutputUnitStart(unit), noErr); /* a generic output has no device: starting does nothing */
    UInt32 writable = 0;
    EXPECT_STATUS(AudioUnitGetPropertyInfo(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, &size, (Boolean *)&writable), noErr);
    EXPECT(size == sizeof(AudioStreamBasicDescription) && writable, "StreamFormat info %u %u", (unsigned)size, (unsigned)writable);
    EXPECT_STATUS(AudioComponentInstanceDispose(unit), noErr);
    EXPECT_STATUS(AudioComponentInstanceDispose(unit), kAudio_ParamError);
    EXPECT_STATUS(AudioUnitInitialize(unit), kAudio_ParamError);

    AudioUnit hal = make(kAudioUnitType_Output, kAudioUnitSubType_DefaultOutput);
    UInt32 on = 1;
    /* Only AUHAL records. */
    EXPECT_STATUS(AudioUnitSetProperty(hal, kAudioOutputUnitProperty_EnableIO, kAudioUnitScope_Input, 1, &on, sizeof on), kAudioUnitErr_InvalidPropertyValue);
    EXPECT_STATUS(AudioUnitSetProperty(hal, kAudioOutputUnitProperty_EnableIO, kAudioUnitScope_Input, 5, &on, sizeof on), kAudioUnitErr_InvalidElement);
    EXPECT_STATUS(AudioOutputUnitStart(hal), kAudioUnitErr_Uninitialized);
    UInt32 elements = 0;
    size = sizeof elements;
    EXPECT_STATUS(AudioUnitGetProperty(hal, kAudioUnitProperty_ElementCount, kAudioUnitScope_Output, 0, &elements, &size), noErr);
    EXPECT(elements == 2, "output elements %u", (unsigned)elements);
    elements = 4;
    EXPECT_STATUS(AudioUnitSetProperty(hal, kAudioUnitProperty_ElementCount, kAudioUnitScope_Input, 0, &elements, sizeof elements), kAudioUnitErr_PropertyNotWritable);
    AudioComponentInstanceDispose(hal);
}

/* The source: a ramp of 16-bit stereo frames, left k, right -k, counting on across renders. */
static SInt16 next = 0;
static UInt32 lastBus = 99;
static OSStatus source(void *ref, AudioUnitRenderActionFlags *flags, const AudioTimeStamp *time, UInt32 bus, UInt32 frames, AudioBufferList *io) {
    (void)ref; (void)flags; (void)time;
    lastBus = bus;
    SInt16 *out = (SInt16 *)io->mBuffers[0].mData;
    for (UInt32 i = 0; i < frames; i++) { out[2 * i] = next; out[2 * i + 1] = (SInt16)-next; next++; }
    return noErr;
}

static int preCalls, postCalls, badFlags;
static OSStatus notify(void *ref, AudioUnitRenderActionFlags *flags, const AudioTimeStamp *time, UInt32 bus, UInt32 frames, AudioBufferList *io) {
    (void)ref; (void)time; (void)bus; (void)frames; (void)io;
    if (*flags & kAudioUnitRenderAction_PreRender) preCalls++;
    else if (*flags & kAudioUnitRenderAction_PostRender) postCalls++;
    else badFlags++;
    return noErr;
}

static int heard;
static AudioUnitScope heardScope;
static void listener(void *ref, AudioUnit unit, AudioUnitPropertyID id, AudioUnitScope scope, AudioUnitElement element) {
    (void)unit; (void)element;
    if (id == kAudioUnitProperty_StreamFormat) { heard++; heardScope = scope; }
    (*(int *)ref)++;
}

static void offline(void) {
    AudioUnit unit = make(kAudioUnitType_Output, kAudioUnitSubType_GenericOutput);
    int calls = 0;
    EXPECT_STATUS(AudioUnitAddPropertyListener(unit, kAudioUnitProperty_StreamFormat, listener, &calls), noErr);
    /* At 22.05 kHz: the output format differs from the unit's default (44.1 kHz), so setting it is a change. */
    AudioStreamBasicDescription in = int16(22050, 2), out = float32Planar(22050, 2);
    EXPECT_STATUS(AudioUnitSetProperty(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &in, sizeof in), noErr);
    EXPECT(heard == 1 && heardScope == kAudioUnitScope_Input, "listener heard %d (scope %u)", heard, (unsigned)heardScope);
    EXPECT_STATUS(AudioUnitSetProperty(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, &out, sizeof out), noErr);
    EXPECT_STATUS(AudioUnitRemovePropertyListenerWithUserData(unit, kAudioUnitProperty_StreamFormat, listener, &calls), noErr);
    EXPECT_STATUS(AudioUnitSetProperty(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &in, sizeof in), noErr);
    EXPECT(heard == 2, "listener heard %d after its removal", heard);

    AudioStreamBasicDescription back;
    UInt32 size = sizeof back;
    EXPECT_STATUS(AudioUnitGetProperty(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, &back, &size), noErr);
    EXPECT(memcmp(&back, &out, sizeof out) == 0, "the output format read back differs");

    AURenderCallbackStruct callback = { source, NULL };
    EXPECT_STATUS(AudioUnitSetProperty(unit, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0, &callback, sizeof callback), noErr);
    EXPECT_STATUS(AudioUnitAddRenderNotify(unit, notify, NULL), noErr);
    EXPECT_STATUS(AudioUnitInitialize(unit), noErr);

    static Float32 left[512], right[512];
    struct { UInt32 n; AudioBuffer b[2]; } list = { 2, { { 1, sizeof left, left }, { 1, sizeof right, right } } };
    AudioUnitRenderActionFlags flags = 0;
    AudioTimeStamp time;
    memset(&time, 0, sizeof time);
    time.mFlags = kAudioTimeStampSampleTimeValid;
    int exact = 1;
    for (int round = 0; round < 3; round++) {
        time.mSampleTime = round * 512;
        list.b[0].mDataByteSize = list.b[1].mDataByteSize = sizeof left;
        EXPECT_STATUS(AudioUnitRender(unit, &flags, &time, 0, 512, (AudioBufferList *)&list), noErr);
        for (int i = 0; i < 512; i++) {
            SInt16 k = (SInt16)(round * 512 + i);
            if (left[i] != k / 32768.0f || right[i] != -k / 32768.0f) exact = 0;
        }
    }
    EXPECT(exact, "16-bit samples did not convert to k / 32768");
    EXPECT(lastBus == 0, "the callback was asked for bus %u", (unsigned)lastBus);
    EXPECT(preCalls == 3 && postCalls == 3 && badFlags == 0, "notifications: %d pre, %d post, %d other", preCalls, postCalls, badFlags);
    EXPECT(flags == 0, "the caller's flags changed to %u", (unsigned)flags);
    EXPECT_STATUS(AudioUnitRemoveRenderNotify(unit, notify, NULL), noErr);
    EXPECT_STATUS(AudioUnitRender(unit, &flags, &time, 0, 512, (AudioBufferList *)&list), noErr);
    EXPECT(preCalls == 3, "a removed notification was called");
    EXPECT_STATUS(AudioUnitRender(unit, &flags, &time, 0, 5000, (AudioBufferList *)&list), kAudioUnitErr_TooManyFramesToProcess);
    EXPECT_STATUS(AudioUnitRender(unit, &flags, &time, 1, 512, (AudioBufferList *)&list), kAudioUnitErr_InvalidElement);
    /* A render with no source fails with NoConnection, and the unit remembers the error. */
    AURenderCallbackStruct none = { NULL, NULL };
    EXPECT_STATUS(AudioUnitSetProperty(unit, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0, &none, sizeof none), noErr);
    EXPECT_STATUS(AudioUnitRender(unit, &flags, &time, 0, 512, (AudioBufferList *)&list), kAudioUnitErr_NoConnection);
    OSStatus last = 0;
    size = sizeof last;
    EXPECT_STATUS(AudioUnitGetProperty(unit, kAudioUnitProperty_LastRenderError, kAudioUnitScope_Global, 0, &last, &size), noErr);
    EXPECT(last == kAudioUnitErr_NoConnection, "last render error %d", (int)last);
    UInt32 maxFrames = 1024;
    EXPECT_STATUS(AudioUnitSetProperty(unit, kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global, 0, &maxFrames, sizeof maxFrames), kAudioUnitErr_Initialized);
    EXPECT_STATUS(AudioUnitUninitialize(unit), noErr);
    EXPECT_STATUS(AudioUnitSetProperty(unit, kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global, 0, &maxFrames, sizeof maxFrames), noErr);
    EXPECT_STATUS(AudioComponentInstanceDispose(unit), noErr);
}

/* A library that makes a private aggregate device for duplex finds no plug-in and falls back. */
static void aggregate(void) {
    CFStringRef bundle = CFSTR("com.apple.audio.CoreAudio");
    AudioObjectID plugIn = 12345;
    AudioValueTranslation translation = { &bundle, sizeof bundle, &plugIn, sizeof plugIn };
    UInt32 size = sizeof translation;
    AudioObjectPropertyAddress address = { kAudioHardwarePropertyPlugInForBundleID, kAudioObjectPropertyScopeGlobal, kAudioObjectPropertyElementMain };
    OSStatus s = AudioObjectGetPropertyData(kAudioObjectSystemObject, &address, 0, NULL, &size, &translation);
    EXPECT(s == noErr && plugIn == kAudioObjectUnknown, "plug-in lookup: %d, %u", (int)s, (unsigned)plugIn);
    CFMutableDictionaryRef description = CFDictionaryCreateMutable(NULL, 0, &kCFTypeDictionaryKeyCallBacks, &kCFTypeDictionaryValueCallBacks);
    AudioObjectPropertyAddress create = { kAudioPlugInCreateAggregateDevice, kAudioObjectPropertyScopeGlobal, kAudioObjectPropertyElementMain };
    AudioObjectID device = kAudioObjectUnknown;
    size = sizeof device;
    s = AudioObjectGetPropertyData(plugIn, &create, sizeof description, &description, &size, &device);
    EXPECT(s != noErr && device == kAudioObjectUnknown, "an aggregate device was made: %d, %u", (int)s, (unsigned)device);
    CFRelease(description);
}

/* A source of one stereo Float32 value pair (left v, right -v), v from the user data. */
static OSStatus constant(void *ref, AudioUnitRenderActionFlags *flags, const AudioTimeStamp *time, UInt32 bus, UInt32 frames, AudioBufferList *io) {
    (void)flags; (void)time; (void)bus;
    Float32 v = *(Float32 *)ref;
    Float32 *left = (Float32 *)io->mBuffers[0].mData, *right = (Float32 *)io->mBuffers[1].mData;
    for (UInt32 i = 0; i < frames; i++) { left[i] = v; right[i] = -v; }
    return noErr;
}

/* A 16-bit mono ramp. */
static SInt16 monoNext;
static OSStatus monoRamp(void *ref, AudioUnitRenderActionFlags *flags, const AudioTimeStamp *time, UInt32 bus, UInt32 frames, AudioBufferList *io) {
    (void)ref; (void)flags; (void)time; (void)bus;
    SInt16 *out = (SInt16 *)io->mBuffers[0].mData;
    for (UInt32 i = 0; i < frames; i++) out[i] = monoNext++;
    return noErr;
}

/* Graphs rendered offline through the generic output: a converter fed by a callback, and a
   mixer of two callbacks. */
static void graphs(void) {
    AUGraph graph = NULL;
    EXPECT_STATUS(NewAUGraph(&graph), noErr);
    AudioComponentDescription generic = { kAudioUnitType_Output, kAudioUnitSubType_GenericOutput, kAudioUnitManufacturer_Apple, 0, 0 };
    AudioComponentDescription converter = { kAudioUnitType_FormatConverter, kAudioUnitSubType_AUConverter, kAudioUnitManufacturer_Apple, 0, 0 };
    AudioComponentDescription mixer = { kAudioUnitType_Mixer, kAudioUnitSubType_MultiChannelMixer, kAudioUnitManufacturer_Apple, 0, 0 };
    AudioComponentDescription defaultOutput = { kAudioUnitType_Output, kAudioUnitSubType_DefaultOutput, kAudioUnitManufacturer_Apple, 0, 0 };
    AUNode outNode = 0, convNode = 0, extra = 0;
    EXPECT_STATUS(AUGraphAddNode(graph, &generic, &outNode), noErr);
    EXPECT_STATUS(AUGraphAddNode(graph, &converter, &convNode), noErr);
    EXPECT_STATUS(AUGraphAddNode(graph, &defaultOutput, &extra), kAUGraphErr_OutputNodeErr);
    AudioUnit unit = (AudioUnit)1;
    EXPECT_STATUS(AUGraphNodeInfo(graph, convNode, NULL, &unit), noErr);
    EXPECT(unit == NULL, "a unit before AUGraphOpen");
    EXPECT_STATUS(AUGraphOpen(graph), noErr);
    AudioUnit outUnit = NULL, convUnit = NULL;
    AudioComponentDescription got;
    EXPECT_STATUS(AUGraphNodeInfo(graph, outNode, &got, &outUnit), noErr);
    EXPECT(got.componentSubType == kAudioUnitSubType_GenericOutput && outUnit != NULL, "node info");
    EXPECT_STATUS(AUGraphNodeInfo(graph, convNode, NULL, &convUnit), noErr);
    EXPECT_STATUS(AUGraphNodeInfo(graph, 999, NULL, &unit), kAUGraphErr_NodeNotFound);

    AudioStreamBasicDescription in = int16(44100, 1), out = float32Planar(44100, 2);
    EXPECT_STATUS(AudioUnitSetProperty(convUnit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &in, sizeof in), noErr);
    EXPECT_STATUS(AudioUnitSetProperty(convUnit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, &out, sizeof out), noErr);
    EXPECT_STATUS(AudioUnitSetProperty(outUnit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &out, sizeof out), noErr);
    EXPECT_STATUS(AudioUnitSetProperty(outUnit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, &out, sizeof out), noErr);
    EXPECT_STATUS(AUGraphConnectNodeInput(graph, convNode, 0, outNode, 0), noErr);
    AURenderCallbackStruct ramp = { monoRamp, NULL };
    EXPECT_STATUS(AUGraphSetNodeInputCallback(graph, convNode, 0, &ramp), noErr);
    UInt32 count = 0;
    EXPECT_STATUS(AUGraphGetNumberOfInteractions(graph, &count), noErr);
    EXPECT(count == 2, "%u interactions", (unsigned)count);
    AUNodeInteraction interaction;
    int connections = 0, callbacks = 0;
    for (UInt32 i = 0; i < count; i++) {
        EXPECT_STATUS(AUGraphGetInteractionInfo(graph, i, &interaction), noErr);
        if (interaction.nodeInteractionType == kAUNodeInteraction_Connection && interaction.nodeInteraction.connection.sourceNode == convNode) connections++;
        if (interaction.nodeInteractionType == kAUNodeInteraction_InputCallback && interaction.nodeInteraction.inputCallback.cback.inputProc == monoRamp) callbacks++;
    }
    EXPECT(connections == 1 && callbacks == 1, "interactions: %d connections, %d callbacks", connections, callbacks);
    EXPECT_STATUS(AUGraphInitialize(graph), noErr);
    Boolean initialized = false;
    EXPECT_STATUS(AUGraphIsInitialized(graph, &initialized), noErr);
    EXPECT(initialized, "not initialized");

    static Float32 left[256], right[256];
    struct { UInt32 n; AudioBuffer b[2]; } list = { 2, { { 1, sizeof left, left }, { 1, sizeof right, right } } };
    AudioUnitRenderActionFlags flags = 0;
    AudioTimeStamp time;
    memset(&time, 0, sizeof time);
    time.mFlags = kAudioTimeStampSampleTimeValid;
    EXPECT_STATUS(AudioUnitRender(outUnit, &flags, &time, 0, 256, (AudioBufferList *)&list), noErr);
    int exact = 1;
    for (int i = 0; i < 256; i++) if (left[i] != i / 32768.0f || right[i] != i / 32768.0f) exact = 0;
    EXPECT(exact, "the converter's mono 16-bit ramp did not arrive as k / 32768 on both channels (%g %g)", left[5], right[5]);
    EXPECT_STATUS(AUGraphUninitialize(graph), noErr);
    EXPECT_STATUS(AUGraphClose(graph), noErr);
    EXPECT_STATUS(DisposeAUGraph(graph), noErr);
    EXPECT_STATUS(DisposeAUGraph(graph), kAudio_ParamError);

    /* The mixer: stereo 0.25 at volume 0.5 and stereo 0.5 at volume 1 sum to 0.625. */
    EXPECT_STATUS(NewAUGraph(&graph), noErr);
    AUNode mixNode = 0;
    EXPECT_STATUS(AUGraphAddNode(graph, &generic, &outNode), noErr);
    EXPECT_STATUS(AUGraphAddNode(graph, &mixer, &mixNode), noErr);
    EXPECT_STATUS(AUGraphOpen(graph), noErr);
    AudioUnit mixUnit = NULL;
    AUGraphNodeInfo(graph, outNode, NULL, &outUnit);
    AUGraphNodeInfo(graph, mixNode, NULL, &mixUnit);
    UInt32 buses = 2;
    EXPECT_STATUS(AudioUnitSetProperty(mixUnit, kAudioUnitProperty_ElementCount, kAudioUnitScope_Input, 0, &buses, sizeof buses), noErr);
    for (UInt32 bus = 0; bus < 2; bus++)
        EXPECT_STATUS(AudioUnitSetProperty(mixUnit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, bus, &out, sizeof out), noErr);
    EXPECT_STATUS(AudioUnitSetProperty(mixUnit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, &out, sizeof out), noErr);
    AudioUnitSetProperty(outUnit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &out, sizeof out);
    AudioUnitSetProperty(outUnit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, &out, sizeof out);
    static Float32 quarter = 0.25f, half = 0.5f;
    AURenderCallbackStruct a = { constant, &quarter }, b = { constant, &half };
    EXPECT_STATUS(AUGraphSetNodeInputCallback(graph, mixNode, 0, &a), noErr);
    EXPECT_STATUS(AUGraphSetNodeInputCallback(graph, mixNode, 1, &b), noErr);
    EXPECT_STATUS(AUGraphConnectNodeInput(graph, mixNode, 0, outNode, 0), noErr);
    EXPECT_STATUS(AudioUnitSetParameter(mixUnit, kMultiChannelMixerParam_Volume, kAudioUnitScope_Input, 0, 0.5f, 0), noErr);
    EXPECT_STATUS(AudioUnitSetParameter(mixUnit, kMultiChannelMixerParam_Volume, kAudioUnitScope_Input, 7, 0.5f, 0), kAudioUnitErr_InvalidElement);
    Float32 volume = 0;
    EXPECT_STATUS(AudioUnitGetParameter(mixUnit, kMultiChannelMixerParam_Volume, kAudioUnitScope_Input, 0, &volume), noErr);
    EXPECT(volume == 0.5f, "volume %g", volume);
    AudioUnitParameterInfo info;
    UInt32 size = sizeof info;
    EXPECT_STATUS(AudioUnitGetProperty(mixUnit, kAudioUnitProperty_ParameterInfo, kAudioUnitScope_Input, kMultiChannelMixerParam_Volume, &info, &size), noErr);
    EXPECT(info.minValue == 0 && info.maxValue == 1 && (info.flags & kAudioUnitParameterFlag_IsWritable), "volume info %g…%g", info.minValue, info.maxValue);
    EXPECT_STATUS(AUGraphInitialize(graph), noErr);
    list.b[0].mDataByteSize = list.b[1].mDataByteSize = sizeof left;
    EXPECT_STATUS(AudioUnitRender(outUnit, &flags, &time, 0, 256, (AudioBufferList *)&list), noErr);
    exact = 1;
    for (int i = 0; i < 256; i++) if (left[i] != 0.625f || right[i] != -0.625f) exact = 0;
    EXPECT(exact, "mix %g %g, expected 0.625 -0.625", left[0], right[0]);
    EXPECT_STATUS(DisposeAUGraph(graph), noErr);
}

/* A render callback that stops its own unit once it has run `stopAt` times. */
static atomic_int cycles, stopAt;
static AudioUnit selfStopping;
static OSStatus stopper(void *ref, AudioUnitRenderActionFlags *flags, const AudioTimeStamp *time, UInt32 bus, UInt32 frames, AudioBufferList *io) {
    (void)ref; (void)time; (void)bus;
    for (UInt32 b = 0; b < io->mNumberBuffers; b++) memset(io->mBuffers[b].mData, 0, io->mBuffers[b].mDataByteSize);
    *flags |= kAudioUnitRenderAction_OutputIsSilence;
    (void)frames;
    if (atomic_fetch_add(&cycles, 1) + 1 >= atomic_load(&stopAt)) AudioOutputUnitStop(selfStopping);
    return noErr;
}

static void waitFor(int (*done)(void)) { for (int i = 0; i < 500 && !done(); i++) usleep(10000); }
static int tenCycles(void) { return atomic_load(&cycles) >= 10; }

/* Stopping from inside the render callback, starting again, and a stop from the main thread
   racing one from the callback (on the real-time null device). */
static void stopInCallback(void) {
    selfStopping = make(kAudioUnitType_Output, kAudioUnitSubType_DefaultOutput);
    AURenderCallbackStruct callback = { stopper, NULL };
    EXPECT_STATUS(AudioUnitSetProperty(selfStopping, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0, &callback, sizeof callback), noErr);
    EXPECT_STATUS(AudioUnitInitialize(selfStopping), noErr);
    atomic_store(&stopAt, 10);
    EXPECT_STATUS(AudioOutputUnitStart(selfStopping), noErr);
    waitFor(tenCycles);
    usleep(100000);
    int after = atomic_load(&cycles);
    usleep(100000);
    EXPECT(after == 10 && atomic_load(&cycles) == 10, "the callback ran %d times after stopping itself at 10", atomic_load(&cycles));
    UInt32 running = 1, size = sizeof running;
    EXPECT_STATUS(AudioUnitGetProperty(selfStopping, kAudioOutputUnitProperty_IsRunning, kAudioUnitScope_Global, 0, &running, &size), noErr);
    EXPECT(running == 0, "IsRunning %u after the callback stopped the unit", (unsigned)running);
    /* Started again at once: it runs. */
    atomic_store(&cycles, 0);
    atomic_store(&stopAt, 1000000);
    EXPECT_STATUS(AudioOutputUnitStart(selfStopping), noErr);
    waitFor(tenCycles);
    EXPECT(atomic_load(&cycles) >= 10, "started again, the callback ran %d times", atomic_load(&cycles));
    /* Both at once: the callback stops the unit on every cycle from now on while the main
       thread stops it too; neither waits for the other for ever, and nothing runs after. */
    atomic_store(&stopAt, 0);
    EXPECT_STATUS(AudioOutputUnitStop(selfStopping), noErr);
    int stoppedAt = atomic_load(&cycles);
    usleep(100000);
    EXPECT(atomic_load(&cycles) == stoppedAt, "%d callbacks after AudioOutputUnitStop returned", atomic_load(&cycles) - stoppedAt);
    EXPECT_STATUS(AudioComponentInstanceDispose(selfStopping), noErr);
}

int main(void) {
    components();
    aggregate();
    misuse();
    offline();
    graphs();
    stopInCallback();
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
