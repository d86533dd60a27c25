/*
 * CFArray.h — CFArray as this library's own object: immutable and mutable arrays whose
 * callbacks (kCFTypeArrayCallBacks, NULL or the caller's) retain, release and compare the
 * values. Exported as ATCF… names, with Apple's names as macros for C and C++.
 *
 * swift-audio-queue. Apache License 2.0.
 */
#ifndef CoreFoundation_CFArray_h
#define CoreFoundation_CFArray_h

#include <CoreFoundation/CFBase.h>
#include <CoreFoundation/CFObjectsExtra.h>

CF_EXTERN_C_BEGIN

typedef const struct __CFArray *ATArrayPointer;
typedef struct __CFArray *ATMutableArrayPointer;
typedef ATArrayPointer CFArrayRef;
typedef ATMutableArrayPointer CFMutableArrayRef;

typedef const void *_Nullable (*CFArrayRetainCallBack)(CFAllocatorRef _Nullable allocator, const void *_Nullable value);
typedef void (*CFArrayReleaseCallBack)(CFAllocatorRef _Nullable allocator, const void *_Nullable value);
typedef CFStringRef _Nullable (*CFArrayCopyDescriptionCallBack)(const void *_Nullable value);
typedef Boolean (*CFArrayEqualCallBack)(const void *_Nullable value1, const void *_Nullable value2);
typedef struct {
    CFIndex version;
    CFArrayRetainCallBack _Nullable retain;
    CFArrayReleaseCallBack _Nullable release;
    CFArrayCopyDescriptionCallBack _Nullable copyDescription;
    CFArrayEqualCallBack _Nullable equal;
} CFArrayCallBacks;
typedef void (*CFArrayApplierFunction)(const void *_Nullable value, void *_Nullable context);

CF_ASSUME_NONNULL_BEGIN

/** Callbacks for arrays of CF objects: CFRetain, CFRelease, CFCopyDescription, CFEqual. */
CF_EXPORT const CFArrayCallBacks ATkCFTypeArrayCallBacks;

CF_EXPORT CFTypeID ATCFArrayGetTypeID(void);
/** An immutable array of `numValues` values (each retained through `callBacks`; with NULL
    callbacks the pointers are stored as they are and compared by identity). */
CF_EXPORT CFArrayRef _Nullable ATCFArrayCreate(CFAllocatorRef _Nullable allocator,
                                               const void *_Nullable *_Nullable values, CFIndex numValues,
                                               const CFArrayCallBacks *_Nullable callBacks);
CF_EXPORT CFMutableArrayRef _Nullable ATCFArrayCreateMutable(CFAllocatorRef _Nullable allocator, CFIndex capacity,
                                                             const CFArrayCallBacks *_Nullable callBacks);
CF_EXPORT void ATCFArrayAppendValue(CFMutableArrayRef theArray, const void *_Nullable value);
CF_EXPORT CFIndex ATCFArrayGetCount(CFArrayRef theArray);
/** The value at `idx`; NULL when out of range (Apple traps). */
CF_EXPORT const void *_Nullable ATCFArrayGetValueAtIndex(CFArrayRef theArray, CFIndex idx);
/** Copies the values in `range`; nothing when the range is outside the array. */
CF_EXPORT void ATCFArrayGetValues(CFArrayRef theArray, CFRange range, const void *_Nullable *_Nonnull values);
CF_EXPORT Boolean ATCFArrayContainsValue(CFArrayRef theArray, CFRange range, const void *_Nullable value);
CF_EXPORT void ATCFArrayApplyFunction(CFArrayRef theArray, CFRange range, CFArrayApplierFunction applier,
                                      void *_Nullable context);

CF_ASSUME_NONNULL_END

#if !defined(__swift__)
    #define kCFTypeArrayCallBacks ATkCFTypeArrayCallBacks
    #define CFArrayGetTypeID ATCFArrayGetTypeID
    #define CFArrayCreate ATCFArrayCreate
    #define CFArrayCreateMutable ATCFArrayCreateMutable
    #define CFArrayAppendValue ATCFArrayAppendValue
    #define CFArrayGetCount ATCFArrayGetCount
    #define CFArrayGetValueAtIndex ATCFArrayGetValueAtIndex
    #define CFArrayGetValues ATCFArrayGetValues
    #define CFArrayContainsValue ATCFArrayContainsValue
    #define CFArrayApplyFunction ATCFArrayApplyFunction
#endif

CF_EXTERN_C_END

#endif /* CoreFoundation_CFArray_h */
