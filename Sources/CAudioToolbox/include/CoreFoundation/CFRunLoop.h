/*
 * CFRunLoop.h — the run loops the audio queues deliver their callbacks on: get the current or
 * main thread's, run it (for a time, in a mode), stop and wake it. Apple's names, as macros for
 * the ATCF… symbols (see CFBase.h).
 *
 * swift-audio-queue. Apache License 2.0.
 */
#ifndef __COREFOUNDATION_CFRUNLOOP__
#define __COREFOUNDATION_CFRUNLOOP__ 1

#include <CoreFoundation/CFBase.h>
#include <CoreFoundation/CFString.h>

CF_EXTERN_C_BEGIN

typedef struct __CFRunLoop *ATRunLoopPointer;
typedef ATRunLoopPointer CFRunLoopRef;
typedef double CFTimeInterval;
typedef CFTimeInterval CFAbsoluteTime;
typedef CFStringRef CFRunLoopMode;

typedef CF_ENUM(SInt32, CFRunLoopRunResult) {
    kCFRunLoopRunFinished = 1,
    kCFRunLoopRunStopped = 2,
    kCFRunLoopRunTimedOut = 3,
    kCFRunLoopRunHandledSource = 4,
};

CF_ASSUME_NONNULL_BEGIN

/** The run loop mode most code runs in. */
CF_EXPORT const CFRunLoopMode ATkCFRunLoopDefaultMode;
/** The set of common modes (the default mode among them). */
CF_EXPORT const CFStringRef ATkCFRunLoopCommonModes;

/** The calling thread's run loop, made on first use (not retained for the caller). */
CF_EXPORT CFRunLoopRef ATCFRunLoopGetCurrent(void);
/** The main thread's run loop. */
CF_EXPORT CFRunLoopRef ATCFRunLoopGetMain(void);
/** Runs the current thread's run loop until CFRunLoopStop (or until it has no sources). */
CF_EXPORT void ATCFRunLoopRun(void);
/** Runs the current thread's run loop in `mode` for at most `seconds`, delivering the
    callbacks of the audio queues created on it; returns after one if
    `returnAfterSourceHandled`. kCFRunLoopRunFinished at once when nothing is attached. */
CF_EXPORT CFRunLoopRunResult ATCFRunLoopRunInMode(CFRunLoopMode mode, CFTimeInterval seconds,
                                                Boolean returnAfterSourceHandled);
/** Makes the run loop's current (or next) run return kCFRunLoopRunStopped. */
CF_EXPORT void ATCFRunLoopStop(CFRunLoopRef rl);
/** Wakes a waiting run loop. */
CF_EXPORT void ATCFRunLoopWakeUp(CFRunLoopRef rl);
/** Whether the run loop is waiting for something to deliver. */
CF_EXPORT Boolean ATCFRunLoopIsWaiting(CFRunLoopRef rl);

CF_ASSUME_NONNULL_END

#if !defined(__swift__)
    #define CFRunLoopGetCurrent ATCFRunLoopGetCurrent
    #define CFRunLoopGetMain ATCFRunLoopGetMain
    #define CFRunLoopRun ATCFRunLoopRun
    #define CFRunLoopRunInMode ATCFRunLoopRunInMode
    #define CFRunLoopStop ATCFRunLoopStop
    #define CFRunLoopWakeUp ATCFRunLoopWakeUp
    #define CFRunLoopIsWaiting ATCFRunLoopIsWaiting
    #define kCFRunLoopDefaultMode ATkCFRunLoopDefaultMode
    #define kCFRunLoopCommonModes ATkCFRunLoopCommonModes
#endif

CF_EXTERN_C_END

#endif /* __COREFOUNDATION_CFRUNLOOP__ */
