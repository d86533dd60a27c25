/*
 * CFNotificationCenter.h — notification centres: observers register a function for a name
 * (and object); a post calls every matching observer's function at once, on the posting
 * thread, as the local centre does on a Mac. The Darwin notify centre delivers only within
 * this process (there is no notifyd). Apple's names, as macros for the ATCF… symbols (see
 * CFBase.h).
 *
 * swift-audio-queue. Apache License 2.0.
 */
#ifndef __COREFOUNDATION_CFNOTIFICATIONCENTER__
#define __COREFOUNDATION_CFNOTIFICATIONCENTER__ 1

#include <CoreFoundation/CFBase.h>
#include <CoreFoundation/CFDictionary.h>

CF_EXTERN_C_BEGIN

typedef CFStringRef CFNotificationName;
typedef struct __CFNotificationCenter *ATNotificationCenterPointer;
typedef ATNotificationCenterPointer CFNotificationCenterRef;

/** An observer's function: the centre, the observer, the notification's name, object and
    user info. */
typedef void (*CFNotificationCallback)(CFNotificationCenterRef _Null_unspecified center,
                                       void *_Null_unspecified observer, CFNotificationName _Null_unspecified name,
                                       const void *_Null_unspecified object, CFDictionaryRef _Null_unspecified userInfo);

/* What a distributed centre does with notifications while the application is suspended;
   kept and otherwise ignored (delivery is always immediate here). */
typedef CF_ENUM(CFIndex, CFNotificationSuspensionBehavior) {
    CFNotificationSuspensionBehaviorDrop = 1,
    CFNotificationSuspensionBehaviorCoalesce = 2,
    CFNotificationSuspensionBehaviorHold = 3,
    CFNotificationSuspensionBehaviorDeliverImmediately = 4,
};

enum {
    kCFNotificationDeliverImmediately = (1UL << 0),
    kCFNotificationPostToAllSessions = (1UL << 1),
};

CF_ASSUME_NONNULL_BEGIN

CF_EXPORT CFTypeID ATCFNotificationCenterGetTypeID(void);
/** The process's local centre. */
CF_EXPORT CFNotificationCenterRef ATCFNotificationCenterGetLocalCenter(void);
/** The Darwin notify centre: its posts reach the observers of this process only; object and
    user info are not passed (NULL), as on a Mac. */
CF_EXPORT CFNotificationCenterRef ATCFNotificationCenterGetDarwinNotifyCenter(void);
/** The distributed centre: like the Darwin one, within this process. */
CF_EXPORT CFNotificationCenterRef ATCFNotificationCenterGetDistributedCenter(void);
/** Registers `callBack` for `observer`, for notifications named `name` (NULL: every name) of
    `object` (NULL: any object). Registering the same observer, name and object again replaces
    the function. */
CF_EXPORT void ATCFNotificationCenterAddObserver(CFNotificationCenterRef center, const void *_Nullable observer,
                                                 CFNotificationCallback callBack, CFStringRef _Nullable name,
                                                 const void *_Nullable object,
                                                 CFNotificationSuspensionBehavior suspensionBehavior);
/** Removes the observer's registrations for `name` (NULL: all names) and `object` (NULL: all). */
CF_EXPORT void ATCFNotificationCenterRemoveObserver(CFNotificationCenterRef center, const void *_Nullable observer,
                                                    CFNotificationName _Nullable name, const void *_Nullable object);
/** Removes every registration of the observer. */
CF_EXPORT void ATCFNotificationCenterRemoveEveryObserver(CFNotificationCenterRef center, const void *_Nullable observer);
/** Calls each matching observer's function now, on this thread, in the order they registered. */
CF_EXPORT void ATCFNotificationCenterPostNotification(CFNotificationCenterRef center, CFNotificationName name,
                                                      const void *_Nullable object, CFDictionaryRef _Nullable userInfo,
                                                      Boolean deliverImmediately);
/** The same, with kCFNotificationDeliverImmediately and kCFNotificationPostToAllSessions
    (both ignored: delivery is immediate). */
CF_EXPORT void ATCFNotificationCenterPostNotificationWithOptions(CFNotificationCenterRef center, CFNotificationName name,
                                                                 const void *_Nullable object,
                                                                 CFDictionaryRef _Nullable userInfo, CFOptionFlags options);

CF_ASSUME_NONNULL_END

#if !defined(__swift__)
    #define CFNotificationCenterGetTypeID ATCFNotificationCenterGetTypeID
    #define CFNotificationCenterGetLocalCenter ATCFNotificationCenterGetLocalCenter
    #define CFNotificationCenterGetDarwinNotifyCenter ATCFNotificationCenterGetDarwinNotifyCenter
    #define CFNotificationCenterGetDistributedCenter ATCFNotificationCenterGetDistributedCenter
    #define CFNotificationCenterAddObserver ATCFNotificationCenterAddObserver
    #define CFNotificationCenterRemoveObserver ATCFNotificationCenterRemoveObserver
    #define CFNotificationCenterRemoveEveryObserver ATCFNotificationCenterRemoveEveryObserver
    #define CFNotificationCenterPostNotification ATCFNotificationCenterPostNotification
    #define CFNotificationCenterPostNotificationWithOptions ATCFNotificationCenterPostNotificationWithOptions
#endif

CF_EXTERN_C_END

#endif /* __COREFOUNDATION_CFNOTIFICATIONCENTER__ */
