/*
 * CFPreferences.h — preferences as this process keeps them: nothing is read from or written to
 * disk, so a read falls back to the program's default (NULL, false, 0) until the process sets
 * a value, which then holds until it exits. Apple's names, as macros for the ATCF… symbols (see
 * CFBase.h).
 *
 * swift-audio-queue. Apache License 2.0.
 */
#ifndef __COREFOUNDATION_CFPREFERENCES__
#define __COREFOUNDATION_CFPREFERENCES__ 1

#include <CoreFoundation/CFBase.h>
#include <CoreFoundation/CFArray.h>
#include <CoreFoundation/CFString.h>

CF_EXTERN_C_BEGIN

CF_ASSUME_NONNULL_BEGIN

/* The domains' names (strings, compared by value). */
CF_EXPORT const CFStringRef ATkCFPreferencesAnyApplication;
CF_EXPORT const CFStringRef ATkCFPreferencesCurrentApplication;
CF_EXPORT const CFStringRef ATkCFPreferencesAnyHost;
CF_EXPORT const CFStringRef ATkCFPreferencesCurrentHost;
CF_EXPORT const CFStringRef ATkCFPreferencesAnyUser;
CF_EXPORT const CFStringRef ATkCFPreferencesCurrentUser;

/** The value set for `key` in the application's domain (the current user, any host), else in
    kCFPreferencesAnyApplication's; NULL when none was set. The caller releases it. */
CF_EXPORT CFPropertyListRef _Nullable ATCFPreferencesCopyAppValue(CFStringRef key, CFStringRef applicationID);
/** The value as a boolean: a CFBoolean, a non-zero CFNumber, or the strings "true"/"YES"
    (false/"NO"); *keyExistsAndHasValidFormat false (and the result false) otherwise. */
CF_EXPORT Boolean ATCFPreferencesGetAppBooleanValue(CFStringRef key, CFStringRef applicationID,
                                                    Boolean *_Nullable keyExistsAndHasValidFormat);
/** The value as an integer: a CFNumber or a string of decimal digits;
    *keyExistsAndHasValidFormat false (and the result 0) otherwise. */
CF_EXPORT CFIndex ATCFPreferencesGetAppIntegerValue(CFStringRef key, CFStringRef applicationID,
                                                    Boolean *_Nullable keyExistsAndHasValidFormat);
/** Sets (a NULL value: removes) `key` in the application's domain, for this process. */
CF_EXPORT void ATCFPreferencesSetAppValue(CFStringRef key, CFPropertyListRef _Nullable value, CFStringRef applicationID);
/** Nothing to write: true. */
CF_EXPORT Boolean ATCFPreferencesAppSynchronize(CFStringRef applicationID);
/** The value set for `key` in exactly this domain; NULL when none was set. */
CF_EXPORT CFPropertyListRef _Nullable ATCFPreferencesCopyValue(CFStringRef key, CFStringRef applicationID,
                                                               CFStringRef userName, CFStringRef hostName);
/** Sets (NULL: removes) `key` in this domain, for this process. */
CF_EXPORT void ATCFPreferencesSetValue(CFStringRef key, CFPropertyListRef _Nullable value, CFStringRef applicationID,
                                       CFStringRef userName, CFStringRef hostName);
/** Nothing to write: true. */
CF_EXPORT Boolean ATCFPreferencesSynchronize(CFStringRef applicationID, CFStringRef userName, CFStringRef hostName);
/** Whether the key may not be changed: false. */
CF_EXPORT Boolean ATCFPreferencesAppValueIsForced(CFStringRef key, CFStringRef applicationID);
/** The keys set in this domain, a new array (NULL when none). */
CF_EXPORT CFArrayRef _Nullable ATCFPreferencesCopyKeyList(CFStringRef applicationID, CFStringRef userName,
                                                          CFStringRef hostName);

CF_ASSUME_NONNULL_END

#if !defined(__swift__)
    #define kCFPreferencesAnyApplication ATkCFPreferencesAnyApplication
    #define kCFPreferencesCurrentApplication ATkCFPreferencesCurrentApplication
    #define kCFPreferencesAnyHost ATkCFPreferencesAnyHost
    #define kCFPreferencesCurrentHost ATkCFPreferencesCurrentHost
    #define kCFPreferencesAnyUser ATkCFPreferencesAnyUser
    #define kCFPreferencesCurrentUser ATkCFPreferencesCurrentUser
    #define CFPreferencesCopyAppValue ATCFPreferencesCopyAppValue
    #define CFPreferencesGetAppBooleanValue ATCFPreferencesGetAppBooleanValue
    #define CFPreferencesGetAppIntegerValue ATCFPreferencesGetAppIntegerValue
    #define CFPreferencesSetAppValue ATCFPreferencesSetAppValue
    #define CFPreferencesAppSynchronize ATCFPreferencesAppSynchronize
    #define CFPreferencesCopyValue ATCFPreferencesCopyValue
    #define CFPreferencesSetValue ATCFPreferencesSetValue
    #define CFPreferencesSynchronize ATCFPreferencesSynchronize
    #define CFPreferencesAppValueIsForced ATCFPreferencesAppValueIsForced
    #define CFPreferencesCopyKeyList ATCFPreferencesCopyKeyList
#endif

CF_EXTERN_C_END

#endif /* __COREFOUNDATION_CFPREFERENCES__ */
