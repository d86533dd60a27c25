/*
 * ATBase.h — what every header of this AudioToolbox includes: the Mac types (<MacTypes.h>), the
 * CoreFoundation subset (<CoreFoundation/CoreFoundation.h>: CFString, CFURL, CFRunLoop,
 * CFByteOrder, reference counting, CF_ENUM/CF_OPTIONS, and the C library headers a Mac's
 * CoreFoundation includes) and the File Manager permissions (<CoreServices/CoreServices.h>), as
 * <AudioToolbox/AudioToolbox.h> brings them in on a Mac; and the declaration helpers of this
 * library's own headers (AT_…).
 *
 * The CoreFoundation functions are exported as ATCF… symbols, with macros giving C and C++
 * Apple's names (see <CoreFoundation/CFBase.h>); the AudioToolbox Swift module declares Swift
 * functions with Apple's names that call them.
 *
 * swift-audio-queue. Apache License 2.0.
 */
#ifndef AudioToolbox_ATBase_h
#define AudioToolbox_ATBase_h

#include <CoreFoundation/CFAvailability.h>

/* Defined before the headers below are included, so that a header of this library they include
   in turn can use them. */
#define AT_EXTERN_C_BEGIN CF_EXTERN_C_BEGIN
#define AT_EXTERN_C_END CF_EXTERN_C_END
#define AT_ASSUME_NONNULL_BEGIN CF_ASSUME_NONNULL_BEGIN
#define AT_ASSUME_NONNULL_END CF_ASSUME_NONNULL_END
#define AT_EXPORT CF_EXPORT

/* The spellings this library's headers used before they wrote enumerations as Apple does:
   `AT_ENUM(_type)` is `CF_ENUM(_type)`, and `typedef CF_ENUM(_type) { ... } AT_ENUM_NAME(_type,
   _name);` gives `_name` Apple's width where enumerations have no fixed underlying type (the
   integer type itself, as Apple's CF_ENUM(_type, _name) does there). New declarations use
   CF_ENUM(_type, _name) and CF_OPTIONS(_type, _name). */
#define AT_ENUM(_type) __CF_ANON_ENUM(_type)
#if __CF_ENUM_FIXED_IS_AVAILABLE
    #define AT_ENUM_NAME(_type, _name) _name
#else
    #define AT_ENUM_NAME(_type, _name) _name##_Values; typedef _type _name
#endif

#include <MacTypes.h>
#include <CoreFoundation/CoreFoundation.h>
#include <CoreServices/CoreServices.h>

AT_EXTERN_C_BEGIN

/** Whether the caller runs on the process's main thread: the thread CFRunLoopGetMain's run
    loop belongs to. */
AT_EXPORT Boolean __ATIsMainThread(void);

AT_EXTERN_C_END

#endif /* AudioToolbox_ATBase_h */
