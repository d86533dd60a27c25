/*
 * <AudioUnit/AudioUnitProperties.h> — the AudioUnit framework's name for <AudioToolbox/AudioUnitProperties.h>.
 *
 * swift-audio-queue. Apache License 2.0.
 */
#include <AudioToolbox/AudioUnitProperties.h>
