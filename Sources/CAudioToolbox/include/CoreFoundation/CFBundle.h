/*
 * CFBundle.h — the main bundle, as a Mac gives it to a program that is not in an application
 * bundle: the executable's directory, which is also where its resources are looked up. It
 * has no Info.plist, so its identifier and info dictionary keys are NULL; no other bundle is
 * known (CFBundleGetBundleWithIdentifier gives NULL). Apple's names, as macros for the ATCF…
 * symbols (see CFBase.h).
 *
 * swift-audio-queue. Apache License 2.0.
 */
#ifndef __COREFOUNDATION_CFBUNDLE__
#define __COREFOUNDATION_CFBUNDLE__ 1

#include <CoreFoundation/CFBase.h>
#include <CoreFoundation/CFDictionary.h>
#include <CoreFoundation/CFString.h>
#include <CoreFoundation/CFURL.h>

CF_EXTERN_C_BEGIN

typedef struct __CFBundle *ATBundlePointer;
typedef ATBundlePointer CFBundleRef;

CF_ASSUME_NONNULL_BEGIN

/* The info dictionary's standard keys. */
CF_EXPORT const CFStringRef ATkCFBundleInfoDictionaryVersionKey;
CF_EXPORT const CFStringRef ATkCFBundleExecutableKey;
CF_EXPORT const CFStringRef ATkCFBundleIdentifierKey;
CF_EXPORT const CFStringRef ATkCFBundleVersionKey;
CF_EXPORT const CFStringRef ATkCFBundleDevelopmentRegionKey;
CF_EXPORT const CFStringRef ATkCFBundleNameKey;
CF_EXPORT const CFStringRef ATkCFBundleLocalizationsKey;

CF_EXPORT CFTypeID ATCFBundleGetTypeID(void);
/** The main bundle: the directory of the running executable (not retained for the caller);
    NULL only when that cannot be found. */
CF_EXPORT CFBundleRef _Nullable ATCFBundleGetMainBundle(void);
/** NULL: no bundle has an identifier here. */
CF_EXPORT CFBundleRef _Nullable ATCFBundleGetBundleWithIdentifier(CFStringRef bundleID);
/** NULL: the main bundle has no Info.plist. */
CF_EXPORT CFStringRef _Nullable ATCFBundleGetIdentifier(CFBundleRef bundle);
/** The bundle's directory, a new URL. */
CF_EXPORT CFURLRef _Nullable ATCFBundleCopyBundleURL(CFBundleRef bundle);
/** The resources' directory (the bundle's directory), a new URL. */
CF_EXPORT CFURLRef _Nullable ATCFBundleCopyResourcesDirectoryURL(CFBundleRef bundle);
/** The executable, a new URL. */
CF_EXPORT CFURLRef _Nullable ATCFBundleCopyExecutableURL(CFBundleRef bundle);
/** The file `resourceName` (with `.resourceType` when that is neither NULL nor empty) in
    `subDirName` (or the resources' directory itself) when it exists, a new URL; else NULL. */
CF_EXPORT CFURLRef _Nullable ATCFBundleCopyResourceURL(CFBundleRef bundle, CFStringRef resourceName,
                                                       CFStringRef _Nullable resourceType,
                                                       CFStringRef _Nullable subDirName);
/** An empty dictionary owned by the bundle (no Info.plist). */
CF_EXPORT CFDictionaryRef _Nullable ATCFBundleGetInfoDictionary(CFBundleRef bundle);
/** NULL: the bundle has no Info.plist. */
CF_EXPORT CFTypeRef _Nullable ATCFBundleGetValueForInfoDictionaryKey(CFBundleRef bundle, CFStringRef key);

CF_ASSUME_NONNULL_END

#if !defined(__swift__)
    #define kCFBundleInfoDictionaryVersionKey ATkCFBundleInfoDictionaryVersionKey
    #define kCFBundleExecutableKey ATkCFBundleExecutableKey
    #define kCFBundleIdentifierKey ATkCFBundleIdentifierKey
    #define kCFBundleVersionKey ATkCFBundleVersionKey
    #define kCFBundleDevelopmentRegionKey ATkCFBundleDevelopmentRegionKey
    #define kCFBundleNameKey ATkCFBundleNameKey
    #define kCFBundleLocalizationsKey ATkCFBundleLocalizationsKey
    #define CFBundleGetTypeID ATCFBundleGetTypeID
    #define CFBundleGetMainBundle ATCFBundleGetMainBundle
    #define CFBundleGetBundleWithIdentifier ATCFBundleGetBundleWithIdentifier
    #define CFBundleGetIdentifier ATCFBundleGetIdentifier
    #define CFBundleCopyBundleURL ATCFBundleCopyBundleURL
    #define CFBundleCopyResourcesDirectoryURL ATCFBundleCopyResourcesDirectoryURL
    #define CFBundleCopyExecutableURL ATCFBundleCopyExecutableURL
    #define CFBundleCopyResourceURL ATCFBundleCopyResourceURL
    #define CFBundleGetInfoDictionary ATCFBundleGetInfoDictionary
    #define CFBundleGetValueForInfoDictionaryKey ATCFBundleGetValueForInfoDictionaryKey
#endif

CF_EXTERN_C_END

#endif /* __COREFOUNDATION_CFBUNDLE__ */
