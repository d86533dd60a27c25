/*
 * CoreFoundation.h — the CoreFoundation subset of this library, and the C library headers
 * Apple's <CoreFoundation/CoreFoundation.h> includes, so that code written on a Mac (isprint,
 * bool, errno, va_list, PRIu32, assert, …) compiles as it is.
 *
 * swift-audio-queue. Apache License 2.0.
 */
#ifndef __COREFOUNDATION_COREFOUNDATION__
#define __COREFOUNDATION_COREFOUNDATION__ 1
#define __COREFOUNDATION__ 1

#if !defined(CF_EXCLUDE_CSTD_HEADERS)
    #include <sys/types.h>
    #include <stdarg.h>
    #include <assert.h>
    #include <ctype.h>
    #include <errno.h>
    #include <float.h>
    #include <limits.h>
    #include <locale.h>
    #include <math.h>
    #include <setjmp.h>
    #include <signal.h>
    #include <stddef.h>
    #include <stdio.h>
    #include <stdlib.h>
    #include <string.h>
    #include <time.h>
    /* Apple's includes these for C99 and later; they are included for C++ as well, where
       <stdbool.h> is empty and the others are C++11's. */
    #include <inttypes.h>
    #include <stdbool.h>
    #include <stdint.h>
#endif

#include <CoreFoundation/CFBase.h>
#include <CoreFoundation/CFByteOrder.h>
#include <CoreFoundation/CFString.h>
#include <CoreFoundation/CFURL.h>
#include <CoreFoundation/CFRunLoop.h>

/* The object types: type IDs, equality, descriptions, CFShow, CFData and the rest of the
   string and URL functions; numbers and booleans; arrays; dictionaries. */
#include <CoreFoundation/CFObjectsExtra.h>
#include <CoreFoundation/CFNumber.h>
#include <CoreFoundation/CFArray.h>
#include <CoreFoundation/CFDictionary.h>

/* Dates, notification centres, preferences (kept in memory for the process) and the main
   bundle. */
#include <CoreFoundation/CFDate.h>
#include <CoreFoundation/CFNotificationCenter.h>
#include <CoreFoundation/CFPreferences.h>
#include <CoreFoundation/CFBundle.h>

#endif /* __COREFOUNDATION_COREFOUNDATION__ */
