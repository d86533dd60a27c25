/*
 * <AudioUnit/AUGraph.h> — <AudioToolbox/AUGraph.h> under the AudioUnit framework's path, beside
 * the framework's other names. (A Mac has AUGraph.h in AudioToolbox only.)
 *
 * swift-audio-queue. Apache License 2.0.
 */
#include <AudioToolbox/AUGraph.h>
