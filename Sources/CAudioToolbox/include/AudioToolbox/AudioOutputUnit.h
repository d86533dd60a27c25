/*
 * AudioOutputUnit.h — the selectors of an output unit's start and stop methods. The functions
 * (AudioOutputUnitStart, AudioOutputUnitStop) are not declared: a program that calls them fails
 * to compile rather than to link.
 *
 * swift-audio-queue. Apache License 2.0.
 */
#ifndef AudioToolbox_AudioOutputUnit_h
#define AudioToolbox_AudioOutputUnit_h

#include <AudioToolbox/AUComponent.h>

AT_EXTERN_C_BEGIN

enum {
    kAudioOutputUnitRange = 0x0200,
    kAudioOutputUnitStartSelect = 0x0201,
    kAudioOutputUnitStopSelect = 0x0202,
};

typedef OSStatus (*AudioOutputUnitStartProc)(void *self);
typedef OSStatus (*AudioOutputUnitStopProc)(void *self);

AT_EXTERN_C_END

#endif /* AudioToolbox_AudioOutputUnit_h */
