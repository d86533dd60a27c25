/*
 * <CarbonCore/Components.h> — the types of the classic Component Manager, with Apple's
 * definitions, which audio programs written before AudioComponent still name: Component,
 * ComponentInstance (the same type as AudioComponentInstance and AudioUnit on a Mac),
 * ComponentResult, ComponentDescription, ComponentParameters, the kAny… wildcards and the
 * standard selectors. The Component Manager's functions (FindNextComponent, OpenAComponent, …) are
 * not provided: a program that calls them fails to compile.
 *
 * swift-audio-queue. Apache License 2.0.
 */
#ifndef __COMPONENTS__
#define __COMPONENTS__

#include <MacTypes.h>

#if defined(__cplusplus)
extern "C" {
#endif

enum {
    kAppleManufacturer = 0x6170706C,          /* 'appl' */
    kComponentResourceType = 0x74686E67,      /* 'thng' */
    kComponentAliasResourceType = 0x74686761  /* 'thga' */
};

enum {
    kAnyComponentType = 0,
    kAnyComponentSubType = 0,
    kAnyComponentManufacturer = 0,
    kAnyComponentFlagsMask = 0
};

enum {
    cmpThreadSafe = 1L << 28,
    cmpIsMissing = 1L << 29,
    cmpWantsRegisterMessage = (int)(1UL << 31)
};

/* The standard selectors every component answers. */
enum {
    kComponentOpenSelect = -1,
    kComponentCloseSelect = -2,
    kComponentCanDoSelect = -3,
    kComponentVersionSelect = -4,
    kComponentRegisterSelect = -5,
    kComponentTargetSelect = -6,
    kComponentUnregisterSelect = -7,
    kComponentGetMPWorkFunctionSelect = -8,
    kComponentExecuteWiredActionSelect = -9,
    kComponentGetPublicResourceSelect = -10
};

/* What FindNextComponent matched a component by: type, subtype, manufacturer and flags. */
typedef struct ComponentDescription {
    OSType componentType;
    OSType componentSubType;
    OSType componentManufacturer;
    UInt32 componentFlags;
    UInt32 componentFlagsMask;
} ComponentDescription;

/* The call a component's entry point receives. */
typedef struct ComponentParameters {
    UInt8 flags;
    UInt8 paramSize;
    SInt16 what;
#if defined(__LP64__)
    UInt32 padding;
#endif
    long params[1];
} ComponentParameters;

typedef struct ComponentRecord ComponentRecord;
typedef ComponentRecord *Component;
typedef struct ComponentInstanceRecord ComponentInstanceRecord;
typedef ComponentInstanceRecord *ComponentInstance;
typedef struct RegisteredComponentRecord RegisteredComponentRecord;
typedef RegisteredComponentRecord *RegisteredComponentRecordPtr;
typedef struct RegisteredComponentInstanceRecord RegisteredComponentInstanceRecord;
typedef RegisteredComponentInstanceRecord *RegisteredComponentInstanceRecordPtr;

#if defined(__LP64__)
typedef SInt32 ComponentResult;
#else
typedef long ComponentResult;
#endif

typedef ComponentResult (*ComponentRoutineProcPtr)(ComponentParameters *cp, Handle componentStorage);
typedef ComponentRoutineProcPtr ComponentRoutineUPP;

#if defined(__cplusplus)
}
#endif

#endif /* __COMPONENTS__ */
