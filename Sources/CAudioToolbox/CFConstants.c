/*
 * What the C API needs from C: the data symbols, which Swift cannot export, the CoreFoundation string
 * constants (immortal strings laid out as the library's CF objects are, see CFObjects.swift)
 * and kCFAllocatorDefault; and which thread is the main one.
 */
#define _GNU_SOURCE 1
#include <AudioToolbox/AudioToolbox.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Must match CFObjectHeader and CFStringObject in CFObjects.swift. */
struct ATConstantString {
    UInt32 typeID;        /* 1: string */
    SInt32 retainCount;   /* -1: immortal */
    const char *bytes;
    CFIndex length;
};

static const struct ATConstantString defaultMode = {1, -1, "kCFRunLoopDefaultMode", 21};
static const struct ATConstantString commonModes = {1, -1, "kCFRunLoopCommonModes", 21};

const CFRunLoopMode ATkCFRunLoopDefaultMode = (CFRunLoopMode)&defaultMode;
const CFStringRef ATkCFRunLoopCommonModes = (CFStringRef)&commonModes;
const CFAllocatorRef ATkCFAllocatorDefault = NULL;

#define AT_CONSTANT_STRING(symbol, text) \
    static const struct ATConstantString symbol##Object = {1, -1, text, sizeof(text) - 1}; \
    const CFStringRef symbol = (CFStringRef)&symbol##Object;

AT_CONSTANT_STRING(ATkCFPreferencesAnyApplication, "kCFPreferencesAnyApplication")
AT_CONSTANT_STRING(ATkCFPreferencesCurrentApplication, "kCFPreferencesCurrentApplication")
AT_CONSTANT_STRING(ATkCFPreferencesAnyHost, "kCFPreferencesAnyHost")
AT_CONSTANT_STRING(ATkCFPreferencesCurrentHost, "kCFPreferencesCurrentHost")
AT_CONSTANT_STRING(ATkCFPreferencesAnyUser, "kCFPreferencesAnyUser")
AT_CONSTANT_STRING(ATkCFPreferencesCurrentUser, "kCFPreferencesCurrentUser")
AT_CONSTANT_STRING(ATkCFBundleInfoDictionaryVersionKey, "CFBundleInfoDictionaryVersion")
AT_CONSTANT_STRING(ATkCFBundleExecutableKey, "CFBundleExecutable")
AT_CONSTANT_STRING(ATkCFBundleIdentifierKey, "CFBundleIdentifier")
AT_CONSTANT_STRING(ATkCFBundleVersionKey, "CFBundleVersion")
AT_CONSTANT_STRING(ATkCFBundleDevelopmentRegionKey, "CFBundleDevelopmentRegion")
AT_CONSTANT_STRING(ATkCFBundleNameKey, "CFBundleName")
AT_CONSTANT_STRING(ATkCFBundleLocalizationsKey, "CFBundleLocalizations")

const CFTimeInterval ATkCFAbsoluteTimeIntervalSince1970 = 978307200.0;
const CFTimeInterval ATkCFAbsoluteTimeIntervalSince1904 = 3061152000.0;

/* Must match CFObjectHeader and CFBooleanObject in CFObjects.swift. */
struct ATConstantBoolean {
    UInt32 typeID;        /* 4: boolean */
    SInt32 retainCount;   /* -1: immortal */
    UInt8 value;
};

static const struct ATConstantBoolean booleanTrue = {4, -1, 1};
static const struct ATConstantBoolean booleanFalse = {4, -1, 0};
const CFBooleanRef ATkCFBooleanTrue = (CFBooleanRef)&booleanTrue;
const CFBooleanRef ATkCFBooleanFalse = (CFBooleanRef)&booleanFalse;

/* The callbacks for collections of CF objects. */
static const void *typeRetain(CFAllocatorRef allocator, const void *value) {
    (void)allocator;
    return value ? ATCFRetain(value) : NULL;
}
static void typeRelease(CFAllocatorRef allocator, const void *value) {
    (void)allocator;
    if (value) ATCFRelease(value);
}
static const void *copyString(CFAllocatorRef allocator, const void *value) {
    if (!value) return NULL;
    if (ATCFGetTypeID(value) != ATCFStringGetTypeID()) return ATCFRetain(value);
    return ATCFStringCreateCopy(allocator, (CFStringRef)value);
}

const CFArrayCallBacks ATkCFTypeArrayCallBacks = {0, typeRetain, typeRelease, ATCFCopyDescription, ATCFEqual};
const CFDictionaryKeyCallBacks ATkCFTypeDictionaryKeyCallBacks = {
    0, typeRetain, typeRelease, ATCFCopyDescription, ATCFEqual, ATCFHash};
const CFDictionaryKeyCallBacks ATkCFCopyStringDictionaryKeyCallBacks = {
    0, copyString, typeRelease, ATCFCopyDescription, ATCFEqual, ATCFHash};
const CFDictionaryValueCallBacks ATkCFTypeDictionaryValueCallBacks = {
    0, typeRetain, typeRelease, ATCFCopyDescription, ATCFEqual};

/* The main thread is the one whose thread ID is the process ID (also when the library is
   loaded later, from another thread). */
Boolean __ATIsMainThread(void) { return syscall(SYS_gettid) == getpid() ? 1 : 0; }
