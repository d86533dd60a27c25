/*
 * target_conditionals.c — <TargetConditionals.h> has macOS's values for the machine compiled
 * for, and <AudioToolbox/AudioToolbox.h> brings it in as a Mac's does. Compiled as C and as C++;
 * prints "ok" and the CPU macro that is set.
 *
 * swift-audio-queue. Apache License 2.0.
 */
#include <AudioToolbox/AudioToolbox.h>

#if !defined(TARGET_OS_MAC) || TARGET_OS_MAC != 1 || TARGET_OS_OSX != 1
    #error "TARGET_OS_MAC and TARGET_OS_OSX must be 1"
#endif
#if TARGET_OS_IPHONE || TARGET_OS_IOS || TARGET_OS_TV || TARGET_OS_WATCH || TARGET_OS_VISION || TARGET_OS_BRIDGE \
    || TARGET_OS_MACCATALYST || TARGET_OS_SIMULATOR || TARGET_OS_EMBEDDED || TARGET_OS_DRIVERKIT \
    || TARGET_OS_WIN32 || TARGET_OS_UNIX || TARGET_IPHONE_SIMULATOR || TARGET_ABI_USES_IOS_VALUES
    #error "only macOS's conditionals may be 1"
#endif
#if TARGET_RT_MAC_MACHO != 1 || TARGET_RT_64_BIT != 1 || TARGET_RT_LITTLE_ENDIAN != 1 || TARGET_RT_BIG_ENDIAN != 0
    #error "runtime conditionals"
#endif
#if (TARGET_CPU_X86_64 + TARGET_CPU_ARM64) != 1
    #error "exactly one of TARGET_CPU_X86_64 and TARGET_CPU_ARM64"
#endif

int main(void) {
#if defined(__x86_64__)
    if (!TARGET_CPU_X86_64) return 1;
#elif defined(__aarch64__)
    if (!TARGET_CPU_ARM64) return 1;
#endif
    printf("ok %s\n", TARGET_CPU_X86_64 ? "TARGET_CPU_X86_64" : "TARGET_CPU_ARM64");
    return 0;
}
