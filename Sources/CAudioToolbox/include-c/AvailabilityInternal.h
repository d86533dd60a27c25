/*
 * AvailabilityInternal.h — the availability markers of Apple's headers, each accepting the
 * arguments Apple's take and expanding to nothing: __OSX_AVAILABLE_STARTING(mac, ios),
 * __OSX_AVAILABLE_BUT_DEPRECATED(macIntro, macDep, iosIntro, iosDep) (and _MSG),
 * __OSX_AVAILABLE(v), __IOS_AVAILABLE(v), the *_DEPRECATED, *_UNAVAILABLE and *_PROHIBITED
 * markers of each OS, __API_AVAILABLE(…), __API_DEPRECATED(…),
 * __API_DEPRECATED_WITH_REPLACEMENT(…), __API_UNAVAILABLE(…), the API_… spellings of
 * <os/availability.h>, and __SWIFT_UNAVAILABLE. Included by <Availability.h>.
 *
 * swift-audio-queue. Apache License 2.0.
 */
#ifndef __AVAILABILITY_INTERNAL__
#define __AVAILABILITY_INTERNAL__

#include <Availability.h>

/* The classic markers: fixed arguments. */
#define __OSX_AVAILABLE_STARTING(_osx, _ios)
#define __OSX_AVAILABLE_BUT_DEPRECATED(_osxIntro, _osxDep, _iosIntro, _iosDep)
#define __OSX_AVAILABLE_BUT_DEPRECATED_MSG(_osxIntro, _osxDep, _iosIntro, _iosDep, _msg)
#define __OSX_EXTENSION_UNAVAILABLE(_msg)
#define __IOS_EXTENSION_UNAVAILABLE(_msg)
#define __OSX_AND_IOS_EXTENSION_UNAVAILABLE(_msg)
#define __OSX_AVAILABLE(_vers)
#define __IOS_AVAILABLE(_vers)
#define __TVOS_AVAILABLE(_vers)
#define __WATCHOS_AVAILABLE(_vers)
#define __OSX_DEPRECATED(_start, _dep, _msg)
#define __IOS_DEPRECATED(_start, _dep, _msg)
#define __TVOS_DEPRECATED(_start, _dep, _msg)
#define __WATCHOS_DEPRECATED(_start, _dep, _msg)
#define __OSX_UNAVAILABLE
#define __IOS_UNAVAILABLE
#define __TVOS_UNAVAILABLE
#define __WATCHOS_UNAVAILABLE
#define __IOS_PROHIBITED
#define __TVOS_PROHIBITED
#define __WATCHOS_PROHIBITED
#define __MAC_AVAILABLE(_vers)
#define __TVOS_AVAILABLE_BUT_DEPRECATED(_intro, _dep)
#define __WATCHOS_AVAILABLE_BUT_DEPRECATED(_intro, _dep)

/* The markers with a platform list: any arguments. */
#ifndef __API_AVAILABLE
    #define __API_AVAILABLE(...)
    #define __API_AVAILABLE_BEGIN(...)
    #define __API_AVAILABLE_END
    #define __API_DEPRECATED(...)
    #define __API_DEPRECATED_WITH_REPLACEMENT(...)
    #define __API_DEPRECATED_BEGIN(...)
    #define __API_DEPRECATED_END
    #define __API_DEPRECATED_WITH_REPLACEMENT_BEGIN(...)
    #define __API_DEPRECATED_WITH_REPLACEMENT_END
    #define __API_UNAVAILABLE(...)
    #define __API_UNAVAILABLE_BEGIN(...)
    #define __API_UNAVAILABLE_END
    #define __API_OBSOLETED(...)
    #define __SPI_AVAILABLE(...)
    #define __SPI_DEPRECATED(...)
    #define __SPI_DEPRECATED_WITH_REPLACEMENT(...)
#endif

/* <os/availability.h>'s spellings (<CoreFoundation/CFAvailability.h> defines the same, empty). */
#ifndef API_AVAILABLE
    #define API_AVAILABLE(...)
    #define API_DEPRECATED(...)
    #define API_DEPRECATED_WITH_REPLACEMENT(...)
    #define API_UNAVAILABLE(...)
#endif
#ifndef API_AVAILABLE_BEGIN
    #define API_AVAILABLE_BEGIN(...)
    #define API_AVAILABLE_END
    #define API_DEPRECATED_BEGIN(...)
    #define API_DEPRECATED_END
    #define API_DEPRECATED_WITH_REPLACEMENT_BEGIN(...)
    #define API_DEPRECATED_WITH_REPLACEMENT_END
    #define API_UNAVAILABLE_BEGIN(...)
    #define API_UNAVAILABLE_END
    #define API_OBSOLETED(...)
    #define SPI_AVAILABLE(...)
    #define SPI_DEPRECATED(...)
    #define SPI_DEPRECATED_WITH_REPLACEMENT(...)
#endif

#ifndef __SWIFT_UNAVAILABLE
    #define __SWIFT_UNAVAILABLE
    #define __SWIFT_UNAVAILABLE_MSG(_msg)
#endif

#endif /* __AVAILABILITY_INTERNAL__ */
