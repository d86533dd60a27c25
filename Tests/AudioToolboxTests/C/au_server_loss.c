/*
 * au_server_loss.c: a tone through the default output unit until its sound server goes away.
 * Prints "playing" once a tenth of a second has been rendered, then "stopped" when the unit's
 * IsRunning listener hears it stop, and exits 0; exits 2 when it has not stopped after 30 s.
 */
#define _DEFAULT_SOURCE
#include <AudioToolbox/AudioToolbox.h>
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <unistd.h>

static atomic_long rendered;
static atomic_int stopped;

static OSStatus render(void *ref, AudioUnitRenderActionFlags *flags, const AudioTimeStamp *time, UInt32 bus, UInt32 frames, AudioBufferList *io) {
    (void)ref; (void)flags; (void)bus;
    Float32 *out = (Float32 *)io->mBuffers[0].mData;
    for (UInt32 i = 0; i < frames; i++) {
        Float32 v = (Float32)(0.2 * sin(2 * M_PI * 440 * (time->mSampleTime + i) / 48000.0));
        out[2 * i] = v;
        out[2 * i + 1] = v;
    }
    atomic_fetch_add(&rendered, (long)frames);
    return noErr;
}

static void runningChanged(void *ref, AudioUnit unit, AudioUnitPropertyID id, AudioUnitScope scope, AudioUnitElement element) {
    (void)ref; (void)id; (void)scope; (void)element;
    UInt32 running = 1, size = sizeof running;
    if (AudioUnitGetProperty(unit, kAudioOutputUnitProperty_IsRunning, kAudioUnitScope_Global, 0, &running, &size) == noErr && !running)
        atomic_store(&stopped, 1);
}

int main(void) {
    AudioComponentDescription d = { kAudioUnitType_Output, kAudioUnitSubType_DefaultOutput, kAudioUnitManufacturer_Apple, 0, 0 };
    AudioUnit unit;
    if (AudioComponentInstanceNew(AudioComponentFindNext(NULL, &d), &unit) != noErr) return 1;
    AudioStreamBasicDescription f = { 48000, kAudioFormatLinearPCM, kAudioFormatFlagIsFloat | kAudioFormatFlagIsPacked, 8, 1, 8, 2, 32, 0 };
    AURenderCallbackStruct callback = { render, NULL };
    if (AudioUnitSetProperty(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &f, sizeof f) != noErr
        || AudioUnitSetProperty(unit, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0, &callback, sizeof callback) != noErr
        || AudioUnitAddPropertyListener(unit, kAudioOutputUnitProperty_IsRunning, runningChanged, NULL) != noErr
        || AudioUnitInitialize(unit) != noErr || AudioOutputUnitStart(unit) != noErr) {
        printf("did not start\n");
        return 1;
    }
    while (atomic_load(&rendered) < 4800) usleep(5000);
    printf("playing\n");
    fflush(stdout);
    for (int i = 0; i < 3000 && !atomic_load(&stopped); i++) usleep(10000);
    if (!atomic_load(&stopped)) return 2;
    printf("stopped\n");
    AudioUnitUninitialize(unit);
    AudioComponentInstanceDispose(unit);
    return 0;
}
