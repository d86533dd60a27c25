/*
 * CFRunLoop.h — the run loops the audio queues deliver their callbacks on: get the current or
 * main thread's, run it (for a time, in a mode), stop and wake it; and run loop timers, which
 * call a function on the run loop's thread at a time and, if they repeat, every interval after.
 * Apple's names, as macros for the ATCF… symbols (see CFBase.h).
 *
 * swift-audio-queue. Apache License 2.0.
 */
#ifndef __COREFOUNDATION_CFRUNLOOP__
#define __COREFOUNDATION_CFRUNLOOP__ 1

#include <CoreFoundation/CFBase.h>
#include <CoreFoundation/CFString.h>
#include <CoreFoundation/CFDate.h>

CF_EXTERN_C_BEGIN

typedef struct __CFRunLoop *ATRunLoopPointer;
typedef ATRunLoopPointer CFRunLoopRef;
typedef struct __CFRunLoopTimer *ATRunLoopTimerPointer;
typedef ATRunLoopTimerPointer CFRunLoopTimerRef;
typedef CFStringRef CFRunLoopMode;

typedef CF_ENUM(SInt32, CFRunLoopRunResult) {
    kCFRunLoopRunFinished = 1,
    kCFRunLoopRunStopped = 2,
    kCFRunLoopRunTimedOut = 3,
    kCFRunLoopRunHandledSource = 4,
};

/** A timer's function, called on the run loop's thread with the context's `info`. */
typedef void (*CFRunLoopTimerCallBack)(CFRunLoopTimerRef _Null_unspecified timer, void *_Null_unspecified info);

/** What a timer passes its function, with the functions that retain, release and describe it. */
typedef struct {
    CFIndex version;
    void *_Null_unspecified info;
    const void *_Null_unspecified (*_Nullable retain)(const void *_Null_unspecified info);
    void (*_Nullable release)(const void *_Null_unspecified info);
    CFStringRef _Null_unspecified (*_Nullable copyDescription)(const void *_Null_unspecified info);
} CFRunLoopTimerContext;

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

/** The type ID of run loop timers. */
CF_EXPORT CFTypeID ATCFRunLoopTimerGetTypeID(void);
/** A new timer (the caller releases it) that first fires at `fireDate` and then every
    `interval` seconds (once, when `interval` is 0 or less). `flags` and `order` are kept and
    otherwise ignored, as on a Mac. The context's `retain` is called on `info`, its `release`
    when the timer is invalidated. NULL without a callout. */
CF_EXPORT CFRunLoopTimerRef _Nullable ATCFRunLoopTimerCreate(CFAllocatorRef _Nullable allocator, CFAbsoluteTime fireDate,
                                                             CFTimeInterval interval, CFOptionFlags flags, CFIndex order,
                                                             CFRunLoopTimerCallBack _Nullable callout,
                                                             CFRunLoopTimerContext *_Nullable context);
/** Adds a timer to a run loop in `mode` (kCFRunLoopCommonModes: the common modes); the run
    loop retains it until it is removed from every mode or invalidated. A timer belongs to one
    run loop: adding it to another does nothing. */
CF_EXPORT void ATCFRunLoopAddTimer(CFRunLoopRef rl, CFRunLoopTimerRef timer, CFRunLoopMode mode);
/** Removes a timer from a run loop's `mode`. */
CF_EXPORT void ATCFRunLoopRemoveTimer(CFRunLoopRef rl, CFRunLoopTimerRef timer, CFRunLoopMode mode);
/** Whether the run loop has the timer in `mode`. */
CF_EXPORT Boolean ATCFRunLoopContainsTimer(CFRunLoopRef rl, CFRunLoopTimerRef timer, CFRunLoopMode mode);
/** When the run loop's next timer in `mode` fires (0 when none is scheduled). */
CF_EXPORT CFAbsoluteTime ATCFRunLoopGetNextTimerFireDate(CFRunLoopRef rl, CFRunLoopMode mode);
/** Stops a timer for good: it leaves its run loop and never fires again. */
CF_EXPORT void ATCFRunLoopTimerInvalidate(CFRunLoopTimerRef timer);
/** False once the timer is invalidated (a one-shot timer is, once it has fired). */
CF_EXPORT Boolean ATCFRunLoopTimerIsValid(CFRunLoopTimerRef timer);
/** When the timer fires next. */
CF_EXPORT CFAbsoluteTime ATCFRunLoopTimerGetNextFireDate(CFRunLoopTimerRef timer);
/** Moves the timer's next firing (its interval is kept); wakes its run loop. */
CF_EXPORT void ATCFRunLoopTimerSetNextFireDate(CFRunLoopTimerRef timer, CFAbsoluteTime fireDate);
/** The timer's interval (0 for a one-shot timer). */
CF_EXPORT CFTimeInterval ATCFRunLoopTimerGetInterval(CFRunLoopTimerRef timer);
/** Whether the timer repeats. */
CF_EXPORT Boolean ATCFRunLoopTimerDoesRepeat(CFRunLoopTimerRef timer);
/** The order given at creation. */
CF_EXPORT CFIndex ATCFRunLoopTimerGetOrder(CFRunLoopTimerRef timer);
/** Copies the timer's context into `context`. */
CF_EXPORT void ATCFRunLoopTimerGetContext(CFRunLoopTimerRef timer, CFRunLoopTimerContext *context);
/** The tolerance, kept and otherwise unused (timers fire as near their time as they can). */
CF_EXPORT CFTimeInterval ATCFRunLoopTimerGetTolerance(CFRunLoopTimerRef timer);
CF_EXPORT void ATCFRunLoopTimerSetTolerance(CFRunLoopTimerRef timer, CFTimeInterval tolerance);

CF_ASSUME_NONNULL_END

#if !defined(__swift__)
    #define CFRunLoopTimerGetTypeID ATCFRunLoopTimerGetTypeID
    #define CFRunLoopTimerCreate ATCFRunLoopTimerCreate
    #define CFRunLoopAddTimer ATCFRunLoopAddTimer
    #define CFRunLoopRemoveTimer ATCFRunLoopRemoveTimer
    #define CFRunLoopContainsTimer ATCFRunLoopContainsTimer
    #define CFRunLoopGetNextTimerFireDate ATCFRunLoopGetNextTimerFireDate
    #define CFRunLoopTimerInvalidate ATCFRunLoopTimerInvalidate
    #define CFRunLoopTimerIsValid ATCFRunLoopTimerIsValid
    #define CFRunLoopTimerGetNextFireDate ATCFRunLoopTimerGetNextFireDate
    #define CFRunLoopTimerSetNextFireDate ATCFRunLoopTimerSetNextFireDate
    #define CFRunLoopTimerGetInterval ATCFRunLoopTimerGetInterval
    #define CFRunLoopTimerDoesRepeat ATCFRunLoopTimerDoesRepeat
    #define CFRunLoopTimerGetOrder ATCFRunLoopTimerGetOrder
    #define CFRunLoopTimerGetContext ATCFRunLoopTimerGetContext
    #define CFRunLoopTimerGetTolerance ATCFRunLoopTimerGetTolerance
    #define CFRunLoopTimerSetTolerance ATCFRunLoopTimerSetTolerance
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
