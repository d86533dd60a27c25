/*
 * <mach/mach_time.h> — the Mach absolute clock that Mac audio code reads for host times
 * (`mach_absolute_time()` is what AudioTimeStamp.mHostTime counts on a Mac). Here it is the
 * host clock of <CoreAudio/HostTime.h>: CLOCK_MONOTONIC in nanoseconds, with a timebase of 1/1.
 *
 * swift-audio-queue. Apache License 2.0.
 */
#ifndef AT_mach_mach_time_h
#define AT_mach_mach_time_h

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef int kern_return_t;
#ifndef KERN_SUCCESS
#define KERN_SUCCESS 0
#endif

/** The ratio that turns absolute-time units into nanoseconds: numer / denom (1 / 1 here). */
struct mach_timebase_info {
    uint32_t numer;
    uint32_t denom;
};
typedef struct mach_timebase_info *mach_timebase_info_t;
typedef struct mach_timebase_info mach_timebase_info_data_t;

/** Fills `info` with the timebase (1 / 1); KERN_SUCCESS. */
extern __attribute__((visibility("default"))) kern_return_t mach_timebase_info(mach_timebase_info_t info);
/** The host clock now, in nanoseconds of CLOCK_MONOTONIC. */
extern __attribute__((visibility("default"))) uint64_t mach_absolute_time(void);
/** The same clock as mach_absolute_time (Linux's monotonic clock does not stop in sleep). */
extern __attribute__((visibility("default"))) uint64_t mach_continuous_time(void);

#ifdef __cplusplus
}
#endif

#endif /* AT_mach_mach_time_h */
