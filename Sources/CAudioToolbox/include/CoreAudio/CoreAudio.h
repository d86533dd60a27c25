/*
 * CoreAudio.h — Core Audio's umbrella: the shared types of <CoreAudio/CoreAudioTypes.h>.
 *
 * swift-audio-queue. Apache License 2.0.
 */
#ifndef CoreAudio_CoreAudio_h
#define CoreAudio_CoreAudio_h

#include <CoreAudio/CoreAudioTypes.h>

/* The audio hardware API: <CoreAudio/AudioHardware.h> is included here when it is added. */

#endif /* CoreAudio_CoreAudio_h */
