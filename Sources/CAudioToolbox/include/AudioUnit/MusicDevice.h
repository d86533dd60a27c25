/*
 * <AudioUnit/MusicDevice.h> — the AudioUnit framework's name for <AudioToolbox/MusicDevice.h>.
 *
 * swift-audio-queue. Apache License 2.0.
 */
#include <AudioToolbox/MusicDevice.h>
