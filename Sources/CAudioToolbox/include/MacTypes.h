/*
 * MacTypes.h — the basic Mac types and constants with Apple's names and 64-bit widths: the
 * fixed-width integers, Float32/Float64, Boolean, OSStatus, OSErr, FourCharCode, OSType, Ptr,
 * Handle, Pascal strings, UniChar, noErr, and nil as Apple's header defines it (nullptr in C++
 * where Clang or GCC has it, a null pointer constant otherwise; Nil, which a Mac's programs get
 * from the Objective-C headers its frameworks include, the same). Not provided: the QuickDraw
 * structs (Point, Rect), Float80/Float96, and the debugging functions (Debugger, DebugStr).
 *
 * swift-audio-queue. Apache License 2.0.
 */
#ifndef __MACTYPES__
#define __MACTYPES__

#include <stdbool.h>
#include <stddef.h>

#if defined(__cplusplus)
extern "C" {
#endif

#ifndef NULL
    #define NULL 0
#endif
#ifndef TRUE
    #define TRUE 1
#endif
#ifndef FALSE
    #define FALSE 0
#endif

/* As Apple's MacTypes.h: nullptr where the C++ compiler has it, otherwise the system's null
   pointer constant (__null in C++, a null void pointer in C). Swift has nil of its own. */
#if !defined(__swift__)
    #if defined(__cplusplus)
        #define __AT_NULL_POINTER __null
    #else
        #define __AT_NULL_POINTER ((void *)0)
    #endif
    #ifndef nil
        #if defined(__has_feature)
            #if __has_feature(cxx_nullptr)
                #define nil nullptr
            #else
                #define nil __AT_NULL_POINTER
            #endif
        #else
            #define nil __AT_NULL_POINTER
        #endif
    #endif
    #ifndef Nil
        #define Nil __AT_NULL_POINTER
    #endif
#endif

typedef unsigned char UInt8;
typedef signed char SInt8;
typedef unsigned short UInt16;
typedef signed short SInt16;
typedef unsigned int UInt32;
typedef signed int SInt32;
typedef unsigned long long UInt64;
typedef signed long long SInt64;
typedef SInt32 Fixed;
typedef Fixed *FixedPtr;
typedef SInt32 Fract;
typedef Fract *FractPtr;
typedef UInt32 UnsignedFixed;
typedef UnsignedFixed *UnsignedFixedPtr;
typedef short ShortFixed;
typedef ShortFixed *ShortFixedPtr;
typedef float Float32;
typedef double Float64;

typedef char *Ptr;
typedef Ptr *Handle;
typedef long Size;
typedef SInt16 OSErr;
typedef SInt32 OSStatus;
typedef void *LogicalAddress;
typedef const void *ConstLogicalAddress;
typedef void *PhysicalAddress;
typedef UInt8 *BytePtr;
typedef unsigned long ByteCount;
typedef unsigned long ByteOffset;
typedef SInt32 Duration;
typedef UInt32 OptionBits;
typedef unsigned long ItemCount;
typedef UInt32 PBVersion;
typedef SInt16 ScriptCode;
typedef SInt16 LangCode;
typedef SInt16 RegionCode;
typedef UInt32 FourCharCode;
typedef FourCharCode OSType;
typedef FourCharCode ResType;
typedef OSType *OSTypePtr;
typedef ResType *ResTypePtr;

/* One byte, 0 or 1, as on Apple's systems; Swift sees it as Bool, as it does there. */
#if defined(__swift__)
typedef bool ATBooleanByte;
#else
typedef unsigned char ATBooleanByte;
#endif
typedef ATBooleanByte Boolean;

typedef UInt8 Byte;
typedef SInt8 SignedByte;
typedef long (*ProcPtr)(void);
typedef ProcPtr *ProcHandle;
typedef void *PRefCon;
typedef void *SRefCon;
typedef void *URefCon;

/* Unicode. */
typedef UInt32 UnicodeScalarValue;
typedef UInt32 UTF32Char;
typedef UInt16 UniChar;
typedef UInt16 UTF16Char;
typedef UInt8 UTF8Char;
typedef UniChar *UniCharPtr;
typedef unsigned long UniCharCount;
typedef UniCharCount *UniCharCountPtr;

/* Pascal strings: a length byte, then the characters. */
typedef unsigned char Str255[256];
typedef unsigned char Str63[64];
typedef unsigned char Str32[33];
typedef unsigned char Str31[32];
typedef unsigned char Str27[28];
typedef unsigned char Str15[16];
typedef unsigned char *StringPtr;
typedef StringPtr *StringHandle;
typedef const unsigned char *ConstStringPtr;
typedef const unsigned char *ConstStr255Param;
typedef const unsigned char *ConstStr63Param;
typedef const unsigned char *ConstStr32Param;
typedef const unsigned char *ConstStr31Param;
typedef const unsigned char *ConstStr27Param;
typedef const unsigned char *ConstStr15Param;

/* noErr is an OSStatus to Swift (and has the type's width in C++), as on a Mac. */
#if defined(__clang__) || (defined(__cplusplus) && __cplusplus >= 201103L)
__extension__ enum : OSStatus {
#else
enum {
#endif
    noErr = 0
};

enum {
    kNilOptions = 0
};

enum {
    kVariableLengthArray = 1
};

enum {
    kUnknownType = 0x3F3F3F3F /* '????' */
};

#if defined(__cplusplus)
}
#endif

#endif /* __MACTYPES__ */
