/*
 * <os/availability.h> — API_AVAILABLE, API_DEPRECATED, API_DEPRECATED_WITH_REPLACEMENT,
 * API_UNAVAILABLE and their _BEGIN/_END forms, each accepting any arguments and expanding to
 * nothing (see <Availability.h>).
 *
 * swift-audio-queue. Apache License 2.0.
 */
#ifndef __OS_AVAILABILITY__
#define __OS_AVAILABILITY__

#include <Availability.h>

#endif /* __OS_AVAILABILITY__ */
