/*
 * <CoreAudio/HostTime.h> — Core Audio's host clock: the clock of AudioTimeStamp.mHostTime.
 * Here the host clock is CLOCK_MONOTONIC in nanoseconds, so a host time is a number of
 * nanoseconds and the conversions are the identity (on a Mac they scale by the Mach timebase).
 *
 * swift-audio-queue. Apache License 2.0.
 */
#ifndef CoreAudio_HostTime_h
#define CoreAudio_HostTime_h

#include <AudioToolbox/ATBase.h>

AT_EXTERN_C_BEGIN

/** The host clock now: nanoseconds of CLOCK_MONOTONIC. */
AT_EXPORT UInt64 AudioGetCurrentHostTime(void);
/** Host clock ticks per second: 1e9. */
AT_EXPORT Float64 AudioGetHostClockFrequency(void);
/** The smallest number of ticks between two distinct readings: 1. */
AT_EXPORT UInt32 AudioGetHostClockMinimumTimeDelta(void);
/** A host time in nanoseconds (the same number here). */
AT_EXPORT UInt64 AudioConvertHostTimeToNanos(UInt64 inHostTime);
/** Nanoseconds as a host time (the same number here). */
AT_EXPORT UInt64 AudioConvertNanosToHostTime(UInt64 inNanos);

AT_EXTERN_C_END

#endif /* CoreAudio_HostTime_h */
