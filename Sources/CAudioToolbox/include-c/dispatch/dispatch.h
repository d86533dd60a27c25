/*
 * <dispatch/dispatch.h> — libdispatch, as the Swift toolchain ships it for Linux (the same API as
 * a Mac's, `audiotoolbox-config --cflags --libs` giving its include path and library). This file
 * includes the toolchain's header as Linux code: with TARGET_OS_MAC 0 while it is read (this
 * library's <TargetConditionals.h> says 1, and libdispatch would then name its symbols and
 * include Mach headers as on a Mac), and with __has_feature and friends answering 0 where the
 * compiler lacks them (GCC before 14), as libdispatch's headers test them.
 *
 * swift-audio-queue. Apache License 2.0.
 */
#ifndef __AT_DISPATCH_WRAPPER__
#define __AT_DISPATCH_WRAPPER__

#ifndef __has_feature
    #define __has_feature(x) 0
#endif
#ifndef __has_extension
    #define __has_extension(x) 0
#endif
#ifndef __has_attribute
    #define __has_attribute(x) 0
#endif
#ifndef __has_builtin
    #define __has_builtin(x) 0
#endif

#pragma push_macro("TARGET_OS_MAC")
#undef TARGET_OS_MAC
#define TARGET_OS_MAC 0
#include_next <dispatch/dispatch.h>
#pragma pop_macro("TARGET_OS_MAC")

#endif /* __AT_DISPATCH_WRAPPER__ */
