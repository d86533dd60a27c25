/*
 * CFNumber.h — CFNumber and CFBoolean as this library's own objects, with Apple's types,
 * values and conversion rules. Exported as ATCF… names, with Apple's names as macros for C
 * and C++ (see ATBase.h for why).
 *
 * swift-audio-queue. Apache License 2.0.
 */
#ifndef CoreFoundation_CFNumber_h
#define CoreFoundation_CFNumber_h

#include <CoreFoundation/CFBase.h>
#include <CoreFoundation/CFObjectsExtra.h>

CF_EXTERN_C_BEGIN

typedef const struct __CFBoolean *ATBooleanPointer;
typedef const struct __CFNumber *ATNumberPointer;
typedef ATBooleanPointer CFBooleanRef;
typedef ATNumberPointer CFNumberRef;

typedef CF_ENUM(CFIndex, CFNumberType) {
    kCFNumberSInt8Type = 1,
    kCFNumberSInt16Type = 2,
    kCFNumberSInt32Type = 3,
    kCFNumberSInt64Type = 4,
    kCFNumberFloat32Type = 5,
    kCFNumberFloat64Type = 6,
    kCFNumberCharType = 7,
    kCFNumberShortType = 8,
    kCFNumberIntType = 9,
    kCFNumberLongType = 10,
    kCFNumberLongLongType = 11,
    kCFNumberFloatType = 12,
    kCFNumberDoubleType = 13,
    kCFNumberCFIndexType = 14,
    kCFNumberNSIntegerType = 15,
    kCFNumberCGFloatType = 16,
    kCFNumberMaxType = 16,
};

CF_ASSUME_NONNULL_BEGIN

/** The two immortal booleans. */
CF_EXPORT const CFBooleanRef ATkCFBooleanTrue;
CF_EXPORT const CFBooleanRef ATkCFBooleanFalse;
CF_EXPORT CFTypeID ATCFBooleanGetTypeID(void);
/** The boolean's value (false for anything that is not a boolean). */
CF_EXPORT Boolean ATCFBooleanGetValue(CFBooleanRef boolean);

CF_EXPORT CFTypeID ATCFNumberGetTypeID(void);
/** A number holding `*valuePtr` of `theType`; NULL for an unknown type or a NULL pointer. */
CF_EXPORT CFNumberRef _Nullable ATCFNumberCreate(CFAllocatorRef _Nullable allocator, CFNumberType theType,
                                                 const void *valuePtr);
/** The fixed-width type the number holds (kCFNumberIntType is stored as kCFNumberSInt32Type). */
CF_EXPORT CFNumberType ATCFNumberGetType(CFNumberRef number);
CF_EXPORT CFIndex ATCFNumberGetByteSize(CFNumberRef number);
CF_EXPORT Boolean ATCFNumberIsFloatType(CFNumberRef number);
/** Converts the value to `theType`; false when the conversion lost precision or range
    (the nearest value is stored all the same). */
CF_EXPORT Boolean ATCFNumberGetValue(CFNumberRef number, CFNumberType theType, void *valuePtr);
CF_EXPORT CFComparisonResult ATCFNumberCompare(CFNumberRef number, CFNumberRef otherNumber,
                                               void *_Nullable context);

CF_ASSUME_NONNULL_END

#if !defined(__swift__)
    #define kCFBooleanTrue ATkCFBooleanTrue
    #define kCFBooleanFalse ATkCFBooleanFalse
    #define CFBooleanGetTypeID ATCFBooleanGetTypeID
    #define CFBooleanGetValue ATCFBooleanGetValue
    #define CFNumberGetTypeID ATCFNumberGetTypeID
    #define CFNumberCreate ATCFNumberCreate
    #define CFNumberGetType ATCFNumberGetType
    #define CFNumberGetByteSize ATCFNumberGetByteSize
    #define CFNumberIsFloatType ATCFNumberIsFloatType
    #define CFNumberGetValue ATCFNumberGetValue
    #define CFNumberCompare ATCFNumberCompare
#endif

CF_EXTERN_C_END

#endif /* CoreFoundation_CFNumber_h */
