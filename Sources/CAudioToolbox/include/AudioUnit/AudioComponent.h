/*
 * <AudioUnit/AudioComponent.h> — the AudioUnit framework's name for <AudioToolbox/AudioComponent.h>.
 *
 * swift-audio-queue. Apache License 2.0.
 */
#include <AudioToolbox/AudioComponent.h>
