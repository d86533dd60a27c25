/*
 * TargetConditionals.h — Apple's TARGET_ conditionals with macOS's values: this library
 * implements macOS's audio API, and programs include this header (after seeing __APPLE__, or
 * through CoreFoundation) to choose between macOS and iOS code. TARGET_OS_MAC and TARGET_OS_OSX
 * are 1, every other OS 0 (TARGET_OS_UNIX and TARGET_OS_LINUX too, as on a Mac); the CPU and
 * runtime conditionals describe the machine compiled for.
 *
 * This header is in a directory of its own, which `audiotoolbox-config --cflags` adds for C and
 * C++ programs and Swift targets never see: Swift's Foundation includes <TargetConditionals.h>
 * when one is on the include path and would take macOS's values for its own.
 *
 * swift-audio-queue. Apache License 2.0.
 */
#ifndef __TARGETCONDITIONALS__
#define __TARGETCONDITIONALS__

/* Operating systems. */
#define TARGET_OS_MAC 1
#define TARGET_OS_OSX 1
#define TARGET_OS_IPHONE 0
#define TARGET_OS_IOS 0
#define TARGET_OS_WATCH 0
#define TARGET_OS_TV 0
#define TARGET_OS_VISION 0
#define TARGET_OS_XR 0
#define TARGET_OS_BRIDGE 0
#define TARGET_OS_MACCATALYST 0
#define TARGET_OS_UIKITFORMAC 0
#define TARGET_OS_SIMULATOR 0
#define TARGET_OS_EMBEDDED 0
#define TARGET_OS_RTKIT 0
#define TARGET_OS_DRIVERKIT 0
#define TARGET_OS_NANO 0
#define TARGET_OS_EXCLAVECORE 0
#define TARGET_OS_EXCLAVEKIT 0
#define TARGET_OS_WIN32 0
#define TARGET_OS_WINDOWS 0
#define TARGET_OS_UNIX 0
#define TARGET_OS_LINUX 0
#define TARGET_IPHONE_SIMULATOR 0
#define TARGET_ABI_USES_IOS_VALUES 0

/* Processors. */
#if defined(__x86_64__)
    #define TARGET_CPU_X86_64 1
#else
    #define TARGET_CPU_X86_64 0
#endif
#if defined(__i386__)
    #define TARGET_CPU_X86 1
#else
    #define TARGET_CPU_X86 0
#endif
#if defined(__aarch64__) || defined(__arm64__)
    #define TARGET_CPU_ARM64 1
#else
    #define TARGET_CPU_ARM64 0
#endif
#if defined(__arm__)
    #define TARGET_CPU_ARM 1
#else
    #define TARGET_CPU_ARM 0
#endif
#define TARGET_CPU_PPC 0
#define TARGET_CPU_PPC64 0
#define TARGET_CPU_68K 0
#define TARGET_CPU_MIPS 0
#define TARGET_CPU_SPARC 0
#define TARGET_CPU_ALPHA 0

/* Runtime. */
#define TARGET_RT_MAC_CFM 0
#define TARGET_RT_MAC_MACHO 1
#if defined(__BYTE_ORDER__) && defined(__ORDER_BIG_ENDIAN__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    #define TARGET_RT_LITTLE_ENDIAN 0
    #define TARGET_RT_BIG_ENDIAN 1
#else
    #define TARGET_RT_LITTLE_ENDIAN 1
    #define TARGET_RT_BIG_ENDIAN 0
#endif
#if defined(__LP64__)
    #define TARGET_RT_64_BIT 1
#else
    #define TARGET_RT_64_BIT 0
#endif

#endif /* __TARGETCONDITIONALS__ */
