/*
 * <AudioUnit/AUComponent.h> — the AudioUnit framework's name for <AudioToolbox/AUComponent.h>.
 *
 * swift-audio-queue. Apache License 2.0.
 */
#include <AudioToolbox/AUComponent.h>
