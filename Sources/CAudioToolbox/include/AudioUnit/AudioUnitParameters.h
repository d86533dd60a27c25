/*
 * <AudioUnit/AudioUnitParameters.h> — the AudioUnit framework's name for <AudioToolbox/AudioUnitParameters.h>.
 *
 * swift-audio-queue. Apache License 2.0.
 */
#include <AudioToolbox/AudioUnitParameters.h>
