/*
 * CFObjectsExtra.h — the CFBase-level part of the CoreFoundation subset beyond reference
 * counting: CFTypeID, CFRange, CFGetTypeID, CFEqual, CFHash, CFCopyDescription, CFShow, and
 * the CFString, CFURL and CFData functions audio programs use. Exported as ATCF… names, with
 * Apple's names as macros for C and C++ (see ATBase.h for why).
 *
 * swift-audio-queue. Apache License 2.0.
 */
#ifndef CoreFoundation_CFObjectsExtra_h
#define CoreFoundation_CFObjectsExtra_h

#include <CoreFoundation/CFBase.h>
#include <CoreFoundation/CFString.h>
#include <CoreFoundation/CFURL.h>

CF_EXTERN_C_BEGIN

/* CFBase.h (CFTypeID, CFRange and CFComparisonResult are in CFBase.h) */
enum { kCFNotFound = -1 };

typedef const struct __CFData *ATDataPointer;
typedef ATDataPointer CFDataRef;

CF_ASSUME_NONNULL_BEGIN

/** The type of a CF object of this library (0 for NULL). */
CF_EXPORT CFTypeID ATCFGetTypeID(CFTypeRef _Nullable cf);
/** Whether two objects are equal: strings, numbers, data and URLs by value, arrays and
    dictionaries by their contents, others by identity. */
CF_EXPORT Boolean ATCFEqual(CFTypeRef _Nullable cf1, CFTypeRef _Nullable cf2);
/** A hash code: equal objects have equal hashes. */
CF_EXPORT CFHashCode ATCFHash(CFTypeRef _Nullable cf);
/** A new string describing the object, in Apple's `<CFNumber 0x… [0x…]>{value = …}` form. */
CF_EXPORT CFStringRef _Nullable ATCFCopyDescription(CFTypeRef _Nullable cf);
/** Writes a string's text, or another object's description, and a newline to stderr. */
CF_EXPORT void ATCFShow(CFTypeRef _Nullable obj);

/* CFString.h */
typedef CF_OPTIONS(CFOptionFlags, CFStringCompareFlags) {
    kCFCompareCaseInsensitive = 1,
    kCFCompareBackwards = 4,
    kCFCompareAnchored = 8,
    kCFCompareNonliteral = 16,
    kCFCompareLocalized = 32,
    kCFCompareNumerically = 64,
};

CF_EXPORT CFTypeID ATCFStringGetTypeID(void);
/** Compares by Unicode scalars; kCFCompareCaseInsensitive and kCFCompareNumerically apply. */
CF_EXPORT CFComparisonResult ATCFStringCompare(CFStringRef theString1, CFStringRef theString2,
                                               CFStringCompareFlags compareOptions);
CF_EXPORT CFStringRef _Nullable ATCFStringCreateCopy(CFAllocatorRef _Nullable alloc, CFStringRef theString);
/** The most bytes `length` UTF-16 units take in `encoding` (kCFNotFound for others). */
CF_EXPORT CFIndex ATCFStringGetMaximumSizeForEncoding(CFIndex length, CFStringEncoding encoding);
/** The UTF-16 unit at `idx` (0 when out of range). */
CF_EXPORT UniChar ATCFStringGetCharacterAtIndex(CFStringRef theString, CFIndex idx);
/** printf-style formatting; `%@` inserts an object's description (a string's text). */
CF_EXPORT CFStringRef _Nullable ATCFStringCreateWithFormat(CFAllocatorRef _Nullable alloc,
                                                           CFTypeRef _Nullable formatOptions,
                                                           CFStringRef format, ...);

/* CFURL.h */
CF_EXPORT CFTypeID ATCFURLGetTypeID(void);
/** A new string with the URL's path (kCFURLPOSIXPathStyle only). */
CF_EXPORT CFStringRef _Nullable ATCFURLCopyFileSystemPath(CFURLRef anURL, CFURLPathStyle pathStyle);
/** The URL as a `file://` string, owned by the URL. */
CF_EXPORT CFStringRef _Nullable ATCFURLGetString(CFURLRef anURL);
/** A new string with the path's last component. */
CF_EXPORT CFStringRef _Nullable ATCFURLCopyLastPathComponent(CFURLRef url);

/* CFData.h */
CF_EXPORT CFTypeID ATCFDataGetTypeID(void);
CF_EXPORT CFDataRef _Nullable ATCFDataCreate(CFAllocatorRef _Nullable allocator, const UInt8 *_Nullable bytes,
                                             CFIndex length);
CF_EXPORT CFIndex ATCFDataGetLength(CFDataRef theData);
CF_EXPORT const UInt8 *_Nullable ATCFDataGetBytePtr(CFDataRef theData);
/** Copies the bytes in `range`; nothing when the range is outside the data. */
CF_EXPORT void ATCFDataGetBytes(CFDataRef theData, CFRange range, UInt8 *buffer);

CF_ASSUME_NONNULL_END

#if !defined(__swift__)
    #define CFGetTypeID ATCFGetTypeID
    #define CFEqual ATCFEqual
    #define CFHash ATCFHash
    #define CFCopyDescription ATCFCopyDescription
    #define CFShow ATCFShow
    #define CFStringGetTypeID ATCFStringGetTypeID
    #define CFStringCompare ATCFStringCompare
    #define CFStringCreateCopy ATCFStringCreateCopy
    #define CFStringGetMaximumSizeForEncoding ATCFStringGetMaximumSizeForEncoding
    #define CFStringGetCharacterAtIndex ATCFStringGetCharacterAtIndex
    #define CFStringCreateWithFormat ATCFStringCreateWithFormat
    #define CFURLGetTypeID ATCFURLGetTypeID
    #define CFURLCopyFileSystemPath ATCFURLCopyFileSystemPath
    #define CFURLGetString ATCFURLGetString
    #define CFURLCopyLastPathComponent ATCFURLCopyLastPathComponent
    #define CFDataGetTypeID ATCFDataGetTypeID
    #define CFDataCreate ATCFDataCreate
    #define CFDataGetLength ATCFDataGetLength
    #define CFDataGetBytePtr ATCFDataGetBytePtr
    #define CFDataGetBytes ATCFDataGetBytes
#endif

CF_EXTERN_C_END

#endif /* CoreFoundation_CFObjectsExtra_h */
