/*
 * <os/workgroup.h> — Apple's workgroups (the real-time thread groups an audio device or output
 * unit hands its clients): the types os_workgroup_t, os_workgroup_interval_t,
 * os_workgroup_parallel_t, os_workgroup_join_token_s and the attribute and interval data
 * structures, with Apple's layouts; and the functions as static inline functions that answer as
 * a system without workgroups does. This library hands out no workgroup (nothing answers
 * kAudioOutputUnitProperty_OSWorkgroup or kAudioDevicePropertyIOThreadOSWorkgroup), so a program
 * only reaches these with a workgroup it could not have obtained: os_workgroup_join answers EINVAL
 * for NULL and ENOTSUP otherwise (and leaves the token empty), os_workgroup_leave does nothing,
 * the interval functions answer ENOTSUP, os_workgroup_max_parallel_threads answers 0 and
 * os_workgroup_testcancel answers true (as for a cancelled group). Real-time threads here ask for
 * real-time scheduling on their own; see the Headers article.
 *
 * swift-audio-queue. Apache License 2.0.
 */
#ifndef __OS_WORKGROUP__
#define __OS_WORKGROUP__

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#if !defined(__cplusplus)
    #include <stdbool.h>
#endif

/* The groups: an interval group is a workgroup (in C++ a subclass, as Apple declares it). */
#if defined(__cplusplus)
struct os_workgroup_s {};
struct os_workgroup_interval_s : public os_workgroup_s {};
struct os_workgroup_parallel_s : public os_workgroup_s {};
typedef os_workgroup_s *os_workgroup_t;
typedef os_workgroup_interval_s *os_workgroup_interval_t;
typedef os_workgroup_parallel_s *os_workgroup_parallel_t;
#else
typedef struct os_workgroup_s *os_workgroup_t;
typedef struct os_workgroup_s *os_workgroup_interval_t;
typedef struct os_workgroup_s *os_workgroup_parallel_t;
#endif

#if defined(__cplusplus)
extern "C" {
#endif

#define OS_WORKGROUP_ATTR_SIZE 60
#define OS_WORKGROUP_JOIN_TOKEN_SIZE 36
#define OS_WORKGROUP_INTERVAL_DATA_SIZE 56

typedef struct os_workgroup_attr_opaque_s {
    uint32_t sig;
    char opaque[OS_WORKGROUP_ATTR_SIZE];
} os_workgroup_attr_s;
typedef os_workgroup_attr_s *os_workgroup_attr_t;

typedef struct os_workgroup_join_token_opaque_s {
    uint32_t sig;
    char opaque[OS_WORKGROUP_JOIN_TOKEN_SIZE];
} os_workgroup_join_token_s;
typedef os_workgroup_join_token_s *os_workgroup_join_token_t;

typedef struct os_workgroup_interval_data_opaque_s {
    uint32_t sig;
    char opaque[OS_WORKGROUP_INTERVAL_DATA_SIZE];
} os_workgroup_interval_data_s;
typedef os_workgroup_interval_data_s *os_workgroup_interval_data_t;

typedef struct os_workgroup_max_parallel_threads_attr_s os_workgroup_mpt_attr_s;
typedef os_workgroup_mpt_attr_s *os_workgroup_mpt_attr_t;

typedef uint32_t os_workgroup_index;
typedef void (*os_workgroup_working_arena_destructor_t)(void *);

/* Joins the calling thread to the group: EINVAL for NULL, ENOTSUP otherwise. */
static __inline__ int os_workgroup_join(os_workgroup_t wg, os_workgroup_join_token_t token_out) {
    if (token_out != NULL) memset(token_out, 0, sizeof(*token_out));
    return wg == NULL ? EINVAL : ENOTSUP;
}

/* Leaves a group joined with os_workgroup_join: nothing to undo here. */
static __inline__ void os_workgroup_leave(os_workgroup_t wg, os_workgroup_join_token_t token) {
    (void)wg;
    (void)token;
}

static __inline__ int os_workgroup_set_working_arena(os_workgroup_t wg, void *arena, uint32_t max_workers,
                                                     os_workgroup_working_arena_destructor_t destructor) {
    (void)arena;
    (void)max_workers;
    (void)destructor;
    return wg == NULL ? EINVAL : ENOTSUP;
}

static __inline__ void *os_workgroup_get_working_arena(os_workgroup_t wg, os_workgroup_index *index_out) {
    (void)wg;
    if (index_out != NULL) *index_out = 0;
    return NULL;
}

static __inline__ void os_workgroup_cancel(os_workgroup_t wg) { (void)wg; }

static __inline__ bool os_workgroup_testcancel(os_workgroup_t wg) {
    (void)wg;
    return true;
}

static __inline__ int os_workgroup_max_parallel_threads(os_workgroup_t wg, os_workgroup_mpt_attr_t attr) {
    (void)wg;
    (void)attr;
    return 0;
}

/* Interval groups: a deadline-driven group (an audio device's I/O cycle). */
static __inline__ int os_workgroup_interval_start(os_workgroup_interval_t wg, uint64_t start, uint64_t deadline,
                                                  os_workgroup_interval_data_t data) {
    (void)start;
    (void)deadline;
    (void)data;
    return wg == NULL ? EINVAL : ENOTSUP;
}

static __inline__ int os_workgroup_interval_update(os_workgroup_interval_t wg, uint64_t deadline,
                                                   os_workgroup_interval_data_t data) {
    (void)deadline;
    (void)data;
    return wg == NULL ? EINVAL : ENOTSUP;
}

static __inline__ int os_workgroup_interval_finish(os_workgroup_interval_t wg, os_workgroup_interval_data_t data) {
    (void)data;
    return wg == NULL ? EINVAL : ENOTSUP;
}

#if defined(__cplusplus)
}
#endif

#endif /* __OS_WORKGROUP__ */
