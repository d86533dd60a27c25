/*
 * CFString.h — immutable strings made from C strings (UTF-8, ASCII, ISO Latin-1, Mac Roman),
 * read back as C strings; CFSTR for constant strings. Apple's names, as macros for the
 * ATCF… symbols (see CFBase.h).
 *
 * swift-audio-queue. Apache License 2.0.
 */
#ifndef __COREFOUNDATION_CFSTRING__
#define __COREFOUNDATION_CFSTRING__ 1

#include <CoreFoundation/CFBase.h>

CF_EXTERN_C_BEGIN

typedef UInt32 CFStringEncoding;

/* The encodings Apple's CFString supports everywhere. This library makes strings in UTF-8,
   ASCII, ISO Latin-1 and Mac Roman; the others give NULL. */
typedef CF_ENUM(CFStringEncoding, CFStringBuiltInEncodings) {
    kCFStringEncodingMacRoman = 0,
    kCFStringEncodingWindowsLatin1 = 0x0500,
    kCFStringEncodingISOLatin1 = 0x0201,
    kCFStringEncodingNextStepLatin = 0x0B01,
    kCFStringEncodingASCII = 0x0600,
    kCFStringEncodingUnicode = 0x0100,
    kCFStringEncodingUTF8 = 0x08000100,
    kCFStringEncodingNonLossyASCII = 0x0BFF,
    kCFStringEncodingUTF16 = 0x0100,
    kCFStringEncodingUTF16BE = 0x10000100,
    kCFStringEncodingUTF16LE = 0x14000100,
    kCFStringEncodingUTF32 = 0x0c000100,
    kCFStringEncodingUTF32BE = 0x18000100,
    kCFStringEncodingUTF32LE = 0x1c000100,
};

CF_ASSUME_NONNULL_BEGIN

/** A string from a NUL-terminated C string in `encoding` (UTF-8, ASCII, Latin-1 or Mac Roman);
    NULL when the bytes are not valid in it. */
CF_EXPORT CFStringRef _Nullable ATCFStringCreateWithCString(CFAllocatorRef _Nullable alloc, const char *cStr,
                                                          CFStringEncoding encoding);
/** Copies the string into `buffer` as a NUL-terminated C string; false when it does not fit. */
CF_EXPORT Boolean ATCFStringGetCString(CFStringRef theString, char *buffer, CFIndex bufferSize,
                                     CFStringEncoding encoding);
/** The string's C string when it is stored as one in `encoding`, else NULL. */
CF_EXPORT const char *_Nullable ATCFStringGetCStringPtr(CFStringRef theString, CFStringEncoding encoding);
/** The number of UTF-16 code units in the string. */
CF_EXPORT CFIndex ATCFStringGetLength(CFStringRef theString);
/** What CFSTR("...") expands to: an immortal string, the same object for equal text. */
CF_EXPORT CFStringRef ATCFStringMakeConstantString(const char *cStr);
#ifndef CFSTR
    #define CFSTR(cStr) ATCFStringMakeConstantString("" cStr "")
#endif

CF_ASSUME_NONNULL_END

#if !defined(__swift__)
    #define CFStringCreateWithCString ATCFStringCreateWithCString
    #define CFStringGetCString ATCFStringGetCString
    #define CFStringGetCStringPtr ATCFStringGetCStringPtr
    #define CFStringGetLength ATCFStringGetLength
#endif

CF_EXTERN_C_END

#endif /* __COREFOUNDATION_CFSTRING__ */
