/*
 * <AudioUnit/AudioUnit.h> — the AudioUnit framework's umbrella: <AudioToolbox/AudioUnit.h>, with
 * Core Audio's types: the types, constants and functions of audio components and audio units
 * (AudioComponentFindNext, AudioUnitInitialize, AudioUnitRender, AudioOutputUnitStart, …).
 *
 * swift-audio-queue. Apache License 2.0.
 */
#ifndef AudioUnit_AudioUnit_h
#define AudioUnit_AudioUnit_h

#include <CoreAudio/CoreAudioTypes.h>
#include <AudioToolbox/AudioUnit.h>

#endif /* AudioUnit_AudioUnit_h */
