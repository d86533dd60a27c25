#ifndef CRTKIT_H
#define CRTKIT_H

#include <stddef.h>
#include <stdint.h>

/* A client of rtkit (org.freedesktop.RealtimeKit1), the D-Bus service desktops run to grant
 * real-time scheduling and raised priorities to threads of unprivileged processes.
 * libdbus-1.so.3 is opened with dlopen on first use, so nothing is linked or loaded by a
 * program that never asks (its ABI has been stable since 1.0; the few types and functions
 * used are declared in crtkit.c).
 *
 * `bus` is the address of the bus to ask (NULL: the system bus, as DBUS_SYSTEM_BUS_ADDRESS or
 * the default socket gives it). Each call opens a private connection and closes it again.
 * Every function returns 0 on success, or -1 with a message in `error` (at most `size` bytes,
 * terminated). */

/* rtkit's limits, read from its properties. */
typedef struct {
    int32_t max_realtime_priority;
    int32_t min_nice_level;
    int64_t rttime_usec_max;
} crtkit_limits;

/* The calling thread's kernel thread id (gettid). */
uint64_t crtkit_thread_id(void);

/* Names the calling thread (its first 15 bytes), as /proc/self/task/<tid>/comm shows it. */
void crtkit_name_thread(const char *name);

/* Whether libdbus-1.so.3 could be opened (and has every function used); loads it once. */
int crtkit_load(void);

/* Makes thread `tid` (a kernel thread id of this process) SCHED_RR at `priority`, lowered to
 * rtkit's MaxRealtimePriority. rtkit refuses a process whose RLIMIT_RTTIME hard limit is
 * unlimited or above its RTTimeUSecMax: the limit is lowered to that first, for the whole
 * process, as PulseAudio and PipeWire do. `granted` gets the priority asked for. */
int crtkit_make_realtime(const char *bus, uint64_t tid, int32_t priority, int32_t *granted, crtkit_limits *limits,
                         char *error, size_t size);

/* Sets thread `tid`'s nice level to `nice`, raised to rtkit's MinNiceLevel; `granted` gets the
 * level asked for. */
int crtkit_make_high_priority(const char *bus, uint64_t tid, int32_t nice, int32_t *granted, char *error, size_t size);

#endif
