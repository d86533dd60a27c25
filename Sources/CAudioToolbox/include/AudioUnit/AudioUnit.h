/*
 * <AudioUnit/AudioUnit.h> — the AudioUnit framework's umbrella: <AudioToolbox/AudioUnit.h>, with
 * Core Audio's types. Types and constants only: the functions (AudioComponentFindNext,
 * AudioUnitInitialize, AudioUnitRender, AudioOutputUnitStart, …) are not declared, so a program
 * that calls them fails to compile rather than to link.
 *
 * swift-audio-queue. Apache License 2.0.
 */
#ifndef AudioUnit_AudioUnit_h
#define AudioUnit_AudioUnit_h

#include <CoreAudio/CoreAudioTypes.h>
#include <AudioToolbox/AudioUnit.h>

#endif /* AudioUnit_AudioUnit_h */
