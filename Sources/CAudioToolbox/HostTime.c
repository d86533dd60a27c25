/*
 * The host clock of <CoreAudio/HostTime.h> and <mach/mach_time.h>: CLOCK_MONOTONIC in
 * nanoseconds, the clock the library's AudioTimeStamp.mHostTime values count (HostTime.swift in
 * AudioDevices reads the same clock).
 */
#include <AudioToolbox/ATBase.h>
#include <CoreAudio/HostTime.h>
#include <mach/mach_time.h>
#include <time.h>

static UInt64 monotonicNanos(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (UInt64)ts.tv_sec * 1000000000ULL + (UInt64)ts.tv_nsec;
}

UInt64 AudioGetCurrentHostTime(void) { return monotonicNanos(); }
Float64 AudioGetHostClockFrequency(void) { return 1e9; }
UInt32 AudioGetHostClockMinimumTimeDelta(void) { return 1; }
UInt64 AudioConvertHostTimeToNanos(UInt64 inHostTime) { return inHostTime; }
UInt64 AudioConvertNanosToHostTime(UInt64 inNanos) { return inNanos; }

kern_return_t mach_timebase_info(mach_timebase_info_t info) {
    if (info) {
        info->numer = 1;
        info->denom = 1;
    }
    return KERN_SUCCESS;
}
uint64_t mach_absolute_time(void) { return monotonicNanos(); }
uint64_t mach_continuous_time(void) { return monotonicNanos(); }
