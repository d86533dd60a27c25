/*
 * CFBase.h — CoreFoundation's base types (CFIndex, CFTypeRef, CFAllocatorRef, …), its
 * declaration macros (CF_EXPORT, CF_INLINE, CF_EXTERN_C_BEGIN, nullability) and reference
 * counting, with Apple's names.
 *
 * The functions and constants are exported under names of their own (ATCFRetain,
 * ATkCFRunLoopDefaultMode, …) so that they never stand in for the CoreFoundation inside
 * swift-corelibs-foundation when both are in one process; macros give C and C++ Apple's names
 * (`CFRetain` is `ATCFRetain`), and the AudioToolbox Swift module gives Swift the same names
 * as functions of its own.
 *
 * swift-audio-queue. Apache License 2.0.
 */
#ifndef __COREFOUNDATION_CFBASE__
#define __COREFOUNDATION_CFBASE__ 1

#include <CoreFoundation/CFAvailability.h>
#include <MacTypes.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#if defined(__cplusplus)
    #define CF_EXTERN_C_BEGIN extern "C" {
    #define CF_EXTERN_C_END }
    #define CF_EXPORT extern "C" __attribute__((visibility("default")))
#else
    #define CF_EXTERN_C_BEGIN
    #define CF_EXTERN_C_END
    #define CF_EXPORT extern __attribute__((visibility("default")))
#endif
#define CF_INLINE static __inline__ __attribute__((always_inline))

/* Nullability, as Apple's headers write it; empty for compilers without it (GCC). */
#if defined(__clang__)
    #define CF_ASSUME_NONNULL_BEGIN _Pragma("clang assume_nonnull begin")
    #define CF_ASSUME_NONNULL_END _Pragma("clang assume_nonnull end")
#else
    #define CF_ASSUME_NONNULL_BEGIN
    #define CF_ASSUME_NONNULL_END
    #ifndef _Nullable
        #define _Nullable
    #endif
    #ifndef _Nonnull
        #define _Nonnull
    #endif
    #ifndef _Null_unspecified
        #define _Null_unspecified
    #endif
    #ifndef __nullable
        #define __nullable
    #endif
    #ifndef __nonnull
        #define __nonnull
    #endif
#endif

/* Memory-management annotations: only documentation here. */
#define CF_RETURNS_RETAINED
#define CF_RETURNS_NOT_RETAINED
#define CF_RELEASES_ARGUMENT
#define CF_CONSUMED
#define CF_IMPLICIT_BRIDGING_ENABLED
#define CF_IMPLICIT_BRIDGING_DISABLED
#define CF_BRIDGED_TYPE(T)
#define CF_BRIDGED_MUTABLE_TYPE(T)
#define CF_SWIFT_NAME(_name)
#define CF_REFINED_FOR_SWIFT
#define CF_NOESCAPE

#if !defined(TRUE)
    #define TRUE 1
#endif
#if !defined(FALSE)
    #define FALSE 0
#endif

CF_EXTERN_C_BEGIN

typedef signed long CFIndex;
typedef unsigned long CFOptionFlags;
typedef unsigned long CFHashCode;
typedef unsigned long CFTypeID;

/* Each CF reference type is declared through a typedef of its own (ATStringPointer, …) so that
   Swift imports it as a plain pointer: this library's CF objects are not Swift objects, and
   Swift would otherwise manage them as CoreFoundation classes. To C and C++ they are Apple's
   types. */
typedef const void *ATTypePointer;
typedef const struct __CFAllocator *ATAllocatorPointer;
typedef const struct __CFString *ATStringPointer;
typedef struct __CFString *ATMutableStringPointer;
typedef ATTypePointer CFTypeRef;
typedef ATAllocatorPointer CFAllocatorRef;
typedef ATStringPointer CFStringRef;
typedef ATMutableStringPointer CFMutableStringRef;
/* A property list value (a string, number, boolean, data, array or dictionary). */
typedef CFTypeRef CFPropertyListRef;

/* A range of items: its first index and its count. */
typedef struct {
    CFIndex location;
    CFIndex length;
} CFRange;

/** A CFRange from a location and a length. */
CF_INLINE CFRange CFRangeMake(CFIndex loc, CFIndex len) {
    CFRange range;
    range.location = loc;
    range.length = len;
    return range;
}

typedef CF_ENUM(CFIndex, CFComparisonResult) {
    kCFCompareLessThan = -1L,
    kCFCompareEqualTo = 0,
    kCFCompareGreaterThan = 1,
};

CF_ASSUME_NONNULL_BEGIN

/** The default allocator: NULL, as on Apple's systems. */
CF_EXPORT const CFAllocatorRef _Nullable ATkCFAllocatorDefault;

/** Adds a reference to a CF object; returns it. */
CF_EXPORT CFTypeRef ATCFRetain(CFTypeRef cf);
/** Drops a reference; the object is freed with its last one. Passing NULL is an error Apple
    traps on; here it is ignored. */
CF_EXPORT void ATCFRelease(CFTypeRef cf);
/** The object's reference count. */
CF_EXPORT CFIndex ATCFGetRetainCount(CFTypeRef cf);

/* CFGetTypeID, CFEqual, CFHash, CFCopyDescription and CFShow are declared in CFObjectsExtra.h,
   with the object types' other functions. */

CF_ASSUME_NONNULL_END

/* Apple's names for C and C++ (Swift gets them from the AudioToolbox module). */
#if !defined(__swift__)
    #define CFRetain ATCFRetain
    #define CFRelease ATCFRelease
    #define CFGetRetainCount ATCFGetRetainCount
    #define kCFAllocatorDefault ((CFAllocatorRef)NULL)
#endif

CF_EXTERN_C_END

#endif /* __COREFOUNDATION_CFBASE__ */
