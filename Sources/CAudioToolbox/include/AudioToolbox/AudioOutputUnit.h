/*
 * AudioOutputUnit.h — the functions of Apple's output units, with Apple's signatures:
 * AudioOutputUnitStart (the unit starts pulling audio through its render callback or its
 * connection and playing it, or recording) and AudioOutputUnitStop; and the selectors of the two
 * methods. (AudioOutputUnitPublish and the other inter-app audio calls are iOS's.)
 *
 * swift-audio-queue. Apache License 2.0.
 */
#ifndef AudioToolbox_AudioOutputUnit_h
#define AudioToolbox_AudioOutputUnit_h

#include <AudioToolbox/AUComponent.h>

AT_EXTERN_C_BEGIN
AT_ASSUME_NONNULL_BEGIN

/* Starts the output unit's I/O. */
AT_EXPORT OSStatus AudioOutputUnitStart(AudioUnit ci);
/* Stops the output unit's I/O. */
AT_EXPORT OSStatus AudioOutputUnitStop(AudioUnit ci);

enum {
    kAudioOutputUnitRange = 0x0200,
    kAudioOutputUnitStartSelect = 0x0201,
    kAudioOutputUnitStopSelect = 0x0202,
};

typedef OSStatus (*AudioOutputUnitStartProc)(void *self);
typedef OSStatus (*AudioOutputUnitStopProc)(void *self);

AT_ASSUME_NONNULL_END
AT_EXTERN_C_END

#endif /* AudioToolbox_AudioOutputUnit_h */
