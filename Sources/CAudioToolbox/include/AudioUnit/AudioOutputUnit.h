/*
 * <AudioUnit/AudioOutputUnit.h> — the AudioUnit framework's name for <AudioToolbox/AudioOutputUnit.h>.
 *
 * swift-audio-queue. Apache License 2.0.
 */
#include <AudioToolbox/AudioOutputUnit.h>
