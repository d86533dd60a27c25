/*
 * <AudioToolbox/AudioUnit.h> — the former AudioUnit framework's umbrella, now part of AudioToolbox:
 * AudioComponent.h, AUComponent.h, AudioOutputUnit.h, AudioUnitProperties.h,
 * AudioUnitParameters.h and MusicDevice.h: the types, constants and functions of audio components
 * and audio units.
 *
 * swift-audio-queue. Apache License 2.0.
 */
#ifndef AudioToolbox_AudioUnit_h
#define AudioToolbox_AudioUnit_h

#ifndef AUDIO_UNIT_VERSION
    #define AUDIO_UNIT_VERSION 1070
#endif

#include <AudioToolbox/AudioComponent.h>
#include <AudioToolbox/AUComponent.h>
#include <AudioToolbox/AudioOutputUnit.h>
#include <AudioToolbox/AudioUnitProperties.h>
#include <AudioToolbox/AudioUnitParameters.h>
#include <AudioToolbox/MusicDevice.h>

#endif /* AudioToolbox_AudioUnit_h */
