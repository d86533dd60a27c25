/*
 * CoreAudio.h — Core Audio's umbrella: the shared types of <CoreAudio/CoreAudioTypes.h>, the HAL subset of
 * <CoreAudio/AudioHardware.h> and the host clock of <CoreAudio/HostTime.h>.
 *
 * swift-audio-queue. Apache License 2.0.
 */
#ifndef CoreAudio_CoreAudio_h
#define CoreAudio_CoreAudio_h

#include <CoreAudio/CoreAudioTypes.h>

/* The audio hardware API (the HAL subset) and the host clock. */
#include <CoreAudio/AudioHardware.h>
#include <CoreAudio/HostTime.h>

#endif /* CoreAudio_CoreAudio_h */
