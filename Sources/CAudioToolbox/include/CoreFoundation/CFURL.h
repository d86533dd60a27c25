/*
 * CFURL.h — file URLs made from POSIX paths and read back as paths. Apple's names, as macros
 * for the ATCF… symbols (see CFBase.h).
 *
 * swift-audio-queue. Apache License 2.0.
 */
#ifndef __COREFOUNDATION_CFURL__
#define __COREFOUNDATION_CFURL__ 1

#include <CoreFoundation/CFBase.h>
#include <CoreFoundation/CFString.h>

CF_EXTERN_C_BEGIN

typedef const struct __CFURL *ATURLPointer;
typedef ATURLPointer CFURLRef;

/* Only POSIX paths are supported; the others give NULL. */
typedef CF_ENUM(CFIndex, CFURLPathStyle) {
    kCFURLPOSIXPathStyle = 0,
    kCFURLHFSPathStyle = 1,
    kCFURLWindowsPathStyle = 2,
};

CF_ASSUME_NONNULL_BEGIN

/** A file URL for a path given as bytes (`bufLen` of them, no NUL needed). */
CF_EXPORT CFURLRef _Nullable ATCFURLCreateFromFileSystemRepresentation(CFAllocatorRef _Nullable allocator,
                                                                      const UInt8 *buffer, CFIndex bufLen,
                                                                      Boolean isDirectory);
/** A file URL for a path given as a string (POSIX style). */
CF_EXPORT CFURLRef _Nullable ATCFURLCreateWithFileSystemPath(CFAllocatorRef _Nullable allocator, CFStringRef filePath,
                                                            CFURLPathStyle pathStyle, Boolean isDirectory);
/** Copies the URL's path into `buffer`, NUL-terminated; false when it does not fit. */
CF_EXPORT Boolean ATCFURLGetFileSystemRepresentation(CFURLRef url, Boolean resolveAgainstBase, UInt8 *buffer,
                                                   CFIndex maxBufLen);

CF_ASSUME_NONNULL_END

#if !defined(__swift__)
    #define CFURLCreateFromFileSystemRepresentation ATCFURLCreateFromFileSystemRepresentation
    #define CFURLCreateWithFileSystemPath ATCFURLCreateWithFileSystemPath
    #define CFURLGetFileSystemRepresentation ATCFURLGetFileSystemRepresentation
#endif

CF_EXTERN_C_END

#endif /* __COREFOUNDATION_CFURL__ */
