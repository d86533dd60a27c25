/*
 * <CoreAudioTypes/CoreAudioBaseTypes.h> — the CoreAudioTypes framework's name (macOS 11 and later) for Core
 * Audio's shared types: <AudioToolbox/CoreAudioTypes.h>.
 *
 * swift-audio-queue. Apache License 2.0.
 */
#include <AudioToolbox/CoreAudioTypes.h>
