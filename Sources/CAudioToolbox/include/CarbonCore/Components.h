/*
 * <CarbonCore/Components.h> — the classic Component Manager, with Apple's definitions, which audio
 * programs written before AudioComponent still use: Component, ComponentInstance (the same type
 * as AudioComponentInstance and AudioUnit on a Mac), ComponentResult, ComponentDescription,
 * ComponentParameters, the kAny… wildcards and the standard selectors; and the calls that find
 * and open audio units through it, with Apple's 64-bit signatures: FindNextComponent,
 * CountComponents, GetComponentInfo, OpenAComponent, OpenComponent, OpenADefaultComponent,
 * CloseComponent and CallComponentVersion (GetComponentVersion is a Mac's 32-bit name for it, and
 * is declared for 32-bit programs only, as there). Its structs are packed to 2 bytes, as Apple's
 * header packs them.
 *
 * swift-audio-queue. Apache License 2.0.
 */
#ifndef __COMPONENTS__
#define __COMPONENTS__

#include <MacTypes.h>

#if defined(__cplusplus)
extern "C" {
#endif

#pragma pack(push, 2)

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

/* The next component after aComponent (NULL: the first) that matches looking (a zero type,
   subtype or manufacturer matches any); NULL when there is none. */
extern Component FindNextComponent(Component aComponent, ComponentDescription *looking);
/* How many components match looking. */
extern long CountComponents(ComponentDescription *looking);
/* The component's description, and its name and information strings (Pascal strings) into the
   handles given (each may be NULL). */
extern OSErr GetComponentInfo(Component aComponent, ComponentDescription *cd, Handle componentName,
                              Handle componentInfo, Handle componentIcon);
/* Opens an instance of the component into *ci. */
extern OSErr OpenAComponent(Component aComponent, ComponentInstance *ci);
/* Opens an instance of the component; NULL when it cannot. */
extern ComponentInstance OpenComponent(Component aComponent);
/* Opens an instance of the first component of the type and subtype into *ci. */
extern OSErr OpenADefaultComponent(OSType componentType, OSType componentSubType, ComponentInstance *ci);
/* Closes an instance. */
extern OSErr CloseComponent(ComponentInstance aComponentInstance);
/* The instance's component version, 0xMMMMmmDD. */
extern ComponentResult CallComponentVersion(ComponentInstance ci);
#if !defined(__LP64__)
extern ComponentResult GetComponentVersion(ComponentInstance ci);
#endif

#pragma pack(pop)

#if defined(__cplusplus)
}
#endif

#endif /* __COMPONENTS__ */
