/*
 * CFDictionary.h — CFDictionary as this library's own object: immutable and mutable
 * dictionaries whose key and value callbacks retain, release, compare and hash. CFString keys
 * (with kCFTypeDictionaryKeyCallBacks) compare by value. Exported as ATCF… names, with
 * Apple's names as macros for C and C++.
 *
 * swift-audio-queue. Apache License 2.0.
 */
#ifndef CoreFoundation_CFDictionary_h
#define CoreFoundation_CFDictionary_h

#include <CoreFoundation/CFBase.h>
#include <CoreFoundation/CFObjectsExtra.h>

CF_EXTERN_C_BEGIN

typedef const struct __CFDictionary *ATDictionaryPointer;
typedef struct __CFDictionary *ATMutableDictionaryPointer;
typedef ATDictionaryPointer CFDictionaryRef;
typedef ATMutableDictionaryPointer CFMutableDictionaryRef;

typedef const void *_Nullable (*CFDictionaryRetainCallBack)(CFAllocatorRef _Nullable allocator,
                                                           const void *_Nullable value);
typedef void (*CFDictionaryReleaseCallBack)(CFAllocatorRef _Nullable allocator, const void *_Nullable value);
typedef CFStringRef _Nullable (*CFDictionaryCopyDescriptionCallBack)(const void *_Nullable value);
typedef Boolean (*CFDictionaryEqualCallBack)(const void *_Nullable value1, const void *_Nullable value2);
typedef CFHashCode (*CFDictionaryHashCallBack)(const void *_Nullable value);
typedef struct {
    CFIndex version;
    CFDictionaryRetainCallBack _Nullable retain;
    CFDictionaryReleaseCallBack _Nullable release;
    CFDictionaryCopyDescriptionCallBack _Nullable copyDescription;
    CFDictionaryEqualCallBack _Nullable equal;
    CFDictionaryHashCallBack _Nullable hash;
} CFDictionaryKeyCallBacks;
typedef struct {
    CFIndex version;
    CFDictionaryRetainCallBack _Nullable retain;
    CFDictionaryReleaseCallBack _Nullable release;
    CFDictionaryCopyDescriptionCallBack _Nullable copyDescription;
    CFDictionaryEqualCallBack _Nullable equal;
} CFDictionaryValueCallBacks;
typedef void (*CFDictionaryApplierFunction)(const void *_Nullable key, const void *_Nullable value,
                                            void *_Nullable context);

CF_ASSUME_NONNULL_BEGIN

/** Keys that are CF objects: CFRetain, CFRelease, CFCopyDescription, CFEqual, CFHash. */
CF_EXPORT const CFDictionaryKeyCallBacks ATkCFTypeDictionaryKeyCallBacks;
/** The same, but a key is copied (CFStringCreateCopy) instead of retained. */
CF_EXPORT const CFDictionaryKeyCallBacks ATkCFCopyStringDictionaryKeyCallBacks;
/** Values that are CF objects: CFRetain, CFRelease, CFCopyDescription, CFEqual. */
CF_EXPORT const CFDictionaryValueCallBacks ATkCFTypeDictionaryValueCallBacks;

CF_EXPORT CFTypeID ATCFDictionaryGetTypeID(void);
/** An immutable dictionary of `numValues` pairs (a repeated key keeps its last value). */
CF_EXPORT CFDictionaryRef _Nullable ATCFDictionaryCreate(
    CFAllocatorRef _Nullable allocator, const void *_Nullable *_Nullable keys, const void *_Nullable *_Nullable values,
    CFIndex numValues, const CFDictionaryKeyCallBacks *_Nullable keyCallBacks,
    const CFDictionaryValueCallBacks *_Nullable valueCallBacks);
CF_EXPORT CFMutableDictionaryRef _Nullable ATCFDictionaryCreateMutable(
    CFAllocatorRef _Nullable allocator, CFIndex capacity, const CFDictionaryKeyCallBacks *_Nullable keyCallBacks,
    const CFDictionaryValueCallBacks *_Nullable valueCallBacks);
CF_EXPORT CFMutableDictionaryRef _Nullable ATCFDictionaryCreateMutableCopy(CFAllocatorRef _Nullable allocator,
                                                                           CFIndex capacity, CFDictionaryRef theDict);
CF_EXPORT CFIndex ATCFDictionaryGetCount(CFDictionaryRef theDict);
CF_EXPORT const void *_Nullable ATCFDictionaryGetValue(CFDictionaryRef theDict, const void *_Nullable key);
CF_EXPORT Boolean ATCFDictionaryGetValueIfPresent(CFDictionaryRef theDict, const void *_Nullable key,
                                                  const void *_Nullable *_Nullable value);
CF_EXPORT Boolean ATCFDictionaryContainsKey(CFDictionaryRef theDict, const void *_Nullable key);
CF_EXPORT Boolean ATCFDictionaryContainsValue(CFDictionaryRef theDict, const void *_Nullable value);
/** Copies the keys and values (either array may be NULL), in the order they were added. */
CF_EXPORT void ATCFDictionaryGetKeysAndValues(CFDictionaryRef theDict, const void *_Nullable *_Nullable keys,
                                              const void *_Nullable *_Nullable values);
CF_EXPORT void ATCFDictionaryApplyFunction(CFDictionaryRef theDict, CFDictionaryApplierFunction applier,
                                           void *_Nullable context);
/** Adds the pair when the key is absent. Immutable dictionaries are left alone. */
CF_EXPORT void ATCFDictionaryAddValue(CFMutableDictionaryRef theDict, const void *_Nullable key,
                                      const void *_Nullable value);
/** Adds the pair, or replaces the key's value. */
CF_EXPORT void ATCFDictionarySetValue(CFMutableDictionaryRef theDict, const void *_Nullable key,
                                      const void *_Nullable value);
/** Replaces the key's value when the key is present. */
CF_EXPORT void ATCFDictionaryReplaceValue(CFMutableDictionaryRef theDict, const void *_Nullable key,
                                          const void *_Nullable value);
CF_EXPORT void ATCFDictionaryRemoveValue(CFMutableDictionaryRef theDict, const void *_Nullable key);
CF_EXPORT void ATCFDictionaryRemoveAllValues(CFMutableDictionaryRef theDict);

CF_ASSUME_NONNULL_END

#if !defined(__swift__)
    #define kCFTypeDictionaryKeyCallBacks ATkCFTypeDictionaryKeyCallBacks
    #define kCFCopyStringDictionaryKeyCallBacks ATkCFCopyStringDictionaryKeyCallBacks
    #define kCFTypeDictionaryValueCallBacks ATkCFTypeDictionaryValueCallBacks
    #define CFDictionaryGetTypeID ATCFDictionaryGetTypeID
    #define CFDictionaryCreate ATCFDictionaryCreate
    #define CFDictionaryCreateMutable ATCFDictionaryCreateMutable
    #define CFDictionaryCreateMutableCopy ATCFDictionaryCreateMutableCopy
    #define CFDictionaryGetCount ATCFDictionaryGetCount
    #define CFDictionaryGetValue ATCFDictionaryGetValue
    #define CFDictionaryGetValueIfPresent ATCFDictionaryGetValueIfPresent
    #define CFDictionaryContainsKey ATCFDictionaryContainsKey
    #define CFDictionaryContainsValue ATCFDictionaryContainsValue
    #define CFDictionaryGetKeysAndValues ATCFDictionaryGetKeysAndValues
    #define CFDictionaryApplyFunction ATCFDictionaryApplyFunction
    #define CFDictionaryAddValue ATCFDictionaryAddValue
    #define CFDictionarySetValue ATCFDictionarySetValue
    #define CFDictionaryReplaceValue ATCFDictionaryReplaceValue
    #define CFDictionaryRemoveValue ATCFDictionaryRemoveValue
    #define CFDictionaryRemoveAllValues ATCFDictionaryRemoveAllValues
#endif

CF_EXTERN_C_END

#endif /* CoreFoundation_CFDictionary_h */
