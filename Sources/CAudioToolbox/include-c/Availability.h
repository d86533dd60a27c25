/*
 * Availability.h — Apple's availability header: the version numbers (<AvailabilityVersions.h>),
 * the deployment target __MAC_OS_X_VERSION_MIN_REQUIRED and the newest SDK version
 * __MAC_OS_X_VERSION_MAX_ALLOWED, and the markers Apple's declarations carry
 * (__OSX_AVAILABLE_STARTING, __OSX_AVAILABLE_BUT_DEPRECATED, API_AVAILABLE, API_DEPRECATED, …),
 * which accept their arguments and expand to nothing (<AvailabilityInternal.h>): this library
 * implements one version of the API.
 *
 * The deployment target is the program's -DMAC_OS_X_VERSION_MIN_REQUIRED=… or
 * -D__MAC_OS_X_VERSION_MIN_REQUIRED=… when it gives one, otherwise macOS 11 (110000); the
 * newest version is macOS 15 (150000). A Mac's compiler sets the first from -mmacosx-version-min.
 *
 * In a directory of its own with <TargetConditionals.h>, for C and C++ programs only.
 *
 * swift-audio-queue. Apache License 2.0.
 */
#ifndef __AVAILABILITY__
#define __AVAILABILITY__

#include <AvailabilityVersions.h>

#ifndef __MAC_OS_X_VERSION_MIN_REQUIRED
    #if defined(__ENVIRONMENT_MAC_OS_X_VERSION_MIN_REQUIRED__)
        #define __MAC_OS_X_VERSION_MIN_REQUIRED __ENVIRONMENT_MAC_OS_X_VERSION_MIN_REQUIRED__
    #elif defined(MAC_OS_X_VERSION_MIN_REQUIRED)
        #define __MAC_OS_X_VERSION_MIN_REQUIRED MAC_OS_X_VERSION_MIN_REQUIRED
    #else
        #define __MAC_OS_X_VERSION_MIN_REQUIRED __MAC_11_0
    #endif
#endif
#ifndef __MAC_OS_X_VERSION_MAX_ALLOWED
    #define __MAC_OS_X_VERSION_MAX_ALLOWED __MAC_15_0
#endif
#ifndef __MAC_OS_VERSION_MIN_REQUIRED
    #define __MAC_OS_VERSION_MIN_REQUIRED __MAC_OS_X_VERSION_MIN_REQUIRED
#endif
#ifndef __MAC_OS_VERSION_MAX_ALLOWED
    #define __MAC_OS_VERSION_MAX_ALLOWED __MAC_OS_X_VERSION_MAX_ALLOWED
#endif

#include <AvailabilityInternal.h>

#endif /* __AVAILABILITY__ */
