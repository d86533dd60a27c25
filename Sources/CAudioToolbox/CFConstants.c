/*
 * What the C API needs from C: the data symbols, which Swift cannot export, the CoreFoundation string
 * constants (immortal strings laid out as the library's CF objects are, see CFObjects.swift)
 * and kCFAllocatorDefault; and which thread is the main one.
 */
#include <AudioToolbox/AudioToolbox.h>
#include <pthread.h>

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

/* The thread that loads the library: for a program linked against it, its main thread. */
static pthread_t mainThread;
__attribute__((constructor)) static void ATRecordMainThread(void) { mainThread = pthread_self(); }
Boolean __ATIsMainThread(void) { return pthread_equal(mainThread, pthread_self()) ? 1 : 0; }
