/*
 * CFDate.h — CoreFoundation's time types and the current absolute time (seconds since
 * 1 January 2001, 00:00:00 UTC), what run loop timers are scheduled in. Apple's names, as
 * macros for the ATCF… symbols (see CFBase.h).
 *
 * swift-audio-queue. Apache License 2.0.
 */
#ifndef __COREFOUNDATION_CFDATE__
#define __COREFOUNDATION_CFDATE__ 1

#include <CoreFoundation/CFBase.h>

CF_EXTERN_C_BEGIN

typedef double CFTimeInterval;
typedef CFTimeInterval CFAbsoluteTime;

/** Seconds from 1 January 1970 to 1 January 2001 (UTC). */
CF_EXPORT const CFTimeInterval ATkCFAbsoluteTimeIntervalSince1970;
/** Seconds from 1 January 1904 to 1 January 2001 (UTC). */
CF_EXPORT const CFTimeInterval ATkCFAbsoluteTimeIntervalSince1904;

/** The current time, in seconds since 1 January 2001 00:00:00 UTC (the system clock). */
CF_EXPORT CFAbsoluteTime ATCFAbsoluteTimeGetCurrent(void);

#if !defined(__swift__)
    #define CFAbsoluteTimeGetCurrent ATCFAbsoluteTimeGetCurrent
    #define kCFAbsoluteTimeIntervalSince1970 ATkCFAbsoluteTimeIntervalSince1970
    #define kCFAbsoluteTimeIntervalSince1904 ATkCFAbsoluteTimeIntervalSince1904
#endif

CF_EXTERN_C_END

#endif /* __COREFOUNDATION_CFDATE__ */
