/*
 * ATBase.h — the Mac types and the CoreFoundation subset that Apple's audio code expects
 * <AudioToolbox/AudioToolbox.h> to bring in: fixed-width integer names, OSStatus, Boolean,
 * CFURL, CFString, CFRunLoop and reference counting.
 *
 * swift-audio-queue. Apache License 2.0.
 */
#ifndef AudioToolbox_ATBase_h
#define AudioToolbox_ATBase_h

/* What <CoreFoundation/CoreFoundation.h> includes on Apple's systems, so code written there
   (malloc, memset, printf, true/false) compiles as it is. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <limits.h>

#if defined(__cplusplus)
    #define AT_EXTERN_C_BEGIN extern "C" {
    #define AT_EXTERN_C_END }
#else
    #define AT_EXTERN_C_BEGIN
    #define AT_EXTERN_C_END
#endif

/* Nullability, as Apple's headers write it; empty for compilers without it (GCC). */
#if defined(__clang__)
    #define AT_ASSUME_NONNULL_BEGIN _Pragma("clang assume_nonnull begin")
    #define AT_ASSUME_NONNULL_END _Pragma("clang assume_nonnull end")
#else
    #define AT_ASSUME_NONNULL_BEGIN
    #define AT_ASSUME_NONNULL_END
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
#ifndef CF_ASSUME_NONNULL_BEGIN
    #define CF_ASSUME_NONNULL_BEGIN AT_ASSUME_NONNULL_BEGIN
    #define CF_ASSUME_NONNULL_END AT_ASSUME_NONNULL_END
#endif

/* Enumerations with a fixed underlying type (Apple's CF_ENUM), so that Swift sees
   kAudioFormatLinearPCM as an AudioFormatID and C++ sees the width Apple gives. */
#if defined(__clang__) || (defined(__cplusplus) && __cplusplus >= 201103L)
    #define AT_ENUM(_type) enum : _type
#else
    #define AT_ENUM(_type) enum
#endif
/* The name of a typedef'd enumeration whose type is wider or narrower than int:
   `typedef CF_ENUM(CFIndex) { ... } AT_ENUM_NAME(CFIndex, CFURLPathStyle);`. Without fixed
   underlying types (GCC's C) an enumeration is int-sized; there, as with Apple's
   CF_ENUM(_type, _name) on such compilers, the type is the integer type itself, so that it has
   Apple's width (and the enumeration gets a name of its own). */
#if defined(__clang__) || (defined(__cplusplus) && __cplusplus >= 201103L)
    #define AT_ENUM_NAME(_type, _name) _name
#else
    #define AT_ENUM_NAME(_type, _name) _name##_Values; typedef _type _name
#endif
#ifndef CF_ENUM
    #define CF_ENUM(_type) AT_ENUM(_type)
#endif

#define AT_EXPORT extern __attribute__((visibility("default")))

AT_EXTERN_C_BEGIN

/* MacTypes.h */
typedef unsigned char UInt8;
typedef signed char SInt8;
typedef unsigned short UInt16;
typedef signed short SInt16;
typedef unsigned int UInt32;
typedef signed int SInt32;
typedef unsigned long long UInt64;
typedef signed long long SInt64;
typedef float Float32;
typedef double Float64;
/* One byte, 0 or 1, as on Apple's systems; Swift sees it as Bool, as it does there. */
#if defined(__swift__)
typedef bool ATBooleanByte;
#else
typedef unsigned char ATBooleanByte;
#endif
typedef ATBooleanByte Boolean;
typedef UInt8 Byte;
typedef SInt32 OSStatus;
typedef SInt16 OSErr;
typedef UInt32 FourCharCode;
typedef FourCharCode OSType;

CF_ENUM(OSStatus) {
    noErr = 0,
    paramErr = -50,
};

/* Permissions of the Carbon File Manager, which the guide passes to AudioFileOpenURL. */
CF_ENUM(SInt8) {
    fsCurPerm = 0x00,
    fsRdPerm = 0x01,
    fsWrPerm = 0x02,
    fsRdWrPerm = 0x03,
};

/* CFBase.h
   The CoreFoundation functions and constants are exported under names of their own (ATCFRelease,
   ATkCFRunLoopDefaultMode, …) so that they never stand in for the CoreFoundation inside
   swift-corelibs-foundation when both are in one process; the macros at the end of this file
   give C and C++ Apple's names, and the AudioToolbox Swift module gives Swift the same. */
typedef signed long CFIndex;
typedef unsigned long CFOptionFlags;
typedef unsigned long CFHashCode;
/* Each CF reference type is declared through a typedef of its own (ATStringPointer, …) so that
   Swift imports it as a plain pointer: this library's CF objects are not Swift objects, and
   Swift would otherwise manage them as CoreFoundation classes. To C and C++ they are Apple's
   types. */
typedef const void *ATTypePointer;
typedef const struct __CFAllocator *ATAllocatorPointer;
typedef const struct __CFString *ATStringPointer;
typedef struct __CFString *ATMutableStringPointer;
typedef const struct __CFURL *ATURLPointer;
typedef struct __CFRunLoop *ATRunLoopPointer;
typedef ATTypePointer CFTypeRef;
typedef ATAllocatorPointer CFAllocatorRef;
typedef ATStringPointer CFStringRef;
typedef ATMutableStringPointer CFMutableStringRef;
typedef ATURLPointer CFURLRef;
typedef ATRunLoopPointer CFRunLoopRef;
typedef double CFTimeInterval;
typedef CFTimeInterval CFAbsoluteTime;
typedef UInt32 CFStringEncoding;
typedef CFStringRef CFRunLoopMode;

AT_ASSUME_NONNULL_BEGIN

/** The default allocator: NULL, as on Apple's systems. */
AT_EXPORT const CFAllocatorRef _Nullable ATkCFAllocatorDefault;

/** Adds a reference to a CF object; returns it. */
AT_EXPORT CFTypeRef ATCFRetain(CFTypeRef cf);
/** Drops a reference; the object is freed with its last one. Passing NULL is an error Apple
    traps on; here it is ignored. */
AT_EXPORT void ATCFRelease(CFTypeRef cf);
/** The object's reference count. */
AT_EXPORT CFIndex ATCFGetRetainCount(CFTypeRef cf);

/* CFString.h */
CF_ENUM(CFStringEncoding) {
    kCFStringEncodingMacRoman = 0,
    kCFStringEncodingASCII = 0x0600,
    kCFStringEncodingISOLatin1 = 0x0201,
    kCFStringEncodingUTF8 = 0x08000100,
};

/** A string from a NUL-terminated C string in `encoding` (UTF-8, ASCII or Latin-1);
    NULL when the bytes are not valid in it. */
AT_EXPORT CFStringRef _Nullable ATCFStringCreateWithCString(CFAllocatorRef _Nullable alloc, const char *cStr,
                                                          CFStringEncoding encoding);
/** Copies the string into `buffer` as a NUL-terminated C string; false when it does not fit. */
AT_EXPORT Boolean ATCFStringGetCString(CFStringRef theString, char *buffer, CFIndex bufferSize,
                                     CFStringEncoding encoding);
/** The string's C string when it is stored as one in `encoding`, else NULL. */
AT_EXPORT const char *_Nullable ATCFStringGetCStringPtr(CFStringRef theString, CFStringEncoding encoding);
/** The number of UTF-16 code units in the string. */
AT_EXPORT CFIndex ATCFStringGetLength(CFStringRef theString);
/** What CFSTR("...") expands to: an immortal string, the same object for equal text. */
AT_EXPORT CFStringRef ATCFStringMakeConstantString(const char *cStr);
#ifndef CFSTR
    #define CFSTR(cStr) ATCFStringMakeConstantString("" cStr "")
#endif

/* CFURL.h */
typedef CF_ENUM(CFIndex) {
    kCFURLPOSIXPathStyle = 0,
    kCFURLWindowsPathStyle = 2,
} AT_ENUM_NAME(CFIndex, CFURLPathStyle);

/** A file URL for a path given as bytes (`bufLen` of them, no NUL needed). */
AT_EXPORT CFURLRef _Nullable ATCFURLCreateFromFileSystemRepresentation(CFAllocatorRef _Nullable allocator,
                                                                      const UInt8 *buffer, CFIndex bufLen,
                                                                      Boolean isDirectory);
/** A file URL for a path given as a string (POSIX style). */
AT_EXPORT CFURLRef _Nullable ATCFURLCreateWithFileSystemPath(CFAllocatorRef _Nullable allocator, CFStringRef filePath,
                                                            CFURLPathStyle pathStyle, Boolean isDirectory);
/** Copies the URL's path into `buffer`, NUL-terminated; false when it does not fit. */
AT_EXPORT Boolean ATCFURLGetFileSystemRepresentation(CFURLRef url, Boolean resolveAgainstBase, UInt8 *buffer,
                                                   CFIndex maxBufLen);

/* CFRunLoop.h */
typedef CF_ENUM(SInt32) {
    kCFRunLoopRunFinished = 1,
    kCFRunLoopRunStopped = 2,
    kCFRunLoopRunTimedOut = 3,
    kCFRunLoopRunHandledSource = 4,
} CFRunLoopRunResult;

/** The run loop mode most code runs in. */
AT_EXPORT const CFRunLoopMode ATkCFRunLoopDefaultMode;
/** The set of common modes (the default mode among them). */
AT_EXPORT const CFStringRef ATkCFRunLoopCommonModes;

/** The calling thread's run loop, made on first use (not retained for the caller). */
AT_EXPORT CFRunLoopRef ATCFRunLoopGetCurrent(void);
/** The main thread's run loop. */
AT_EXPORT CFRunLoopRef ATCFRunLoopGetMain(void);
/** Runs the current thread's run loop until CFRunLoopStop (or until it has no sources). */
AT_EXPORT void ATCFRunLoopRun(void);
/** Runs the current thread's run loop in `mode` for at most `seconds`, delivering the
    callbacks of the audio queues created on it; returns after one if
    `returnAfterSourceHandled`. kCFRunLoopRunFinished at once when nothing is attached. */
AT_EXPORT CFRunLoopRunResult ATCFRunLoopRunInMode(CFRunLoopMode mode, CFTimeInterval seconds,
                                                Boolean returnAfterSourceHandled);
/** Makes the run loop's current (or next) run return kCFRunLoopRunStopped. */
AT_EXPORT void ATCFRunLoopStop(CFRunLoopRef rl);
/** Wakes a waiting run loop. */
AT_EXPORT void ATCFRunLoopWakeUp(CFRunLoopRef rl);
/** Whether the run loop is waiting for something to deliver. */
AT_EXPORT Boolean ATCFRunLoopIsWaiting(CFRunLoopRef rl);

/** Whether the caller runs on the process's main thread: the thread CFRunLoopGetMain's run
    loop belongs to. */
AT_EXPORT Boolean __ATIsMainThread(void);

AT_ASSUME_NONNULL_END

/* Apple's names for C and C++ (Swift gets them from the AudioToolbox module). */
#if !defined(__swift__)
    #define CFRetain ATCFRetain
    #define CFRelease ATCFRelease
    #define CFGetRetainCount ATCFGetRetainCount
    #define CFStringCreateWithCString ATCFStringCreateWithCString
    #define CFStringGetCString ATCFStringGetCString
    #define CFStringGetCStringPtr ATCFStringGetCStringPtr
    #define CFStringGetLength ATCFStringGetLength
    #define CFURLCreateFromFileSystemRepresentation ATCFURLCreateFromFileSystemRepresentation
    #define CFURLCreateWithFileSystemPath ATCFURLCreateWithFileSystemPath
    #define CFURLGetFileSystemRepresentation ATCFURLGetFileSystemRepresentation
    #define CFRunLoopGetCurrent ATCFRunLoopGetCurrent
    #define CFRunLoopGetMain ATCFRunLoopGetMain
    #define CFRunLoopRun ATCFRunLoopRun
    #define CFRunLoopRunInMode ATCFRunLoopRunInMode
    #define CFRunLoopStop ATCFRunLoopStop
    #define CFRunLoopWakeUp ATCFRunLoopWakeUp
    #define CFRunLoopIsWaiting ATCFRunLoopIsWaiting
    #define kCFAllocatorDefault ((CFAllocatorRef)NULL)
    #define kCFRunLoopDefaultMode ATkCFRunLoopDefaultMode
    #define kCFRunLoopCommonModes ATkCFRunLoopCommonModes
#endif

AT_EXTERN_C_END

#endif /* AudioToolbox_ATBase_h */
