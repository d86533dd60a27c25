/*
 * AudioComponent.h — the types and constants of Apple's Audio Component Services: AudioComponent,
 * AudioComponentInstance (on a Mac the Component Manager's ComponentInstance, so that the two
 * convert), AudioComponentDescription, the component flags, instantiation options, validation
 * results and errors, and the plug-in interface a component implements. The functions
 * (AudioComponentFindNext, AudioComponentInstanceNew, …) are not declared: a program that calls
 * them fails to compile rather than to link.
 *
 * swift-audio-queue. Apache License 2.0.
 */
#ifndef AudioToolbox_AudioComponent_h
#define AudioToolbox_AudioComponent_h

#include <AudioToolbox/ATBase.h>
#include <AudioToolbox/CoreAudioTypes.h>

AT_EXTERN_C_BEGIN
AT_ASSUME_NONNULL_BEGIN

typedef CF_OPTIONS(UInt32, AudioComponentFlags) {
    kAudioComponentFlag_Unsearchable = 1,
    kAudioComponentFlag_SandboxSafe = 2,
    kAudioComponentFlag_IsV3AudioUnit = 4,
    kAudioComponentFlag_RequiresAsyncInstantiation = 8,
    kAudioComponentFlag_CanLoadInProcess = 0x10,
};

typedef CF_OPTIONS(UInt32, AudioComponentInstantiationOptions) {
    kAudioComponentInstantiation_LoadOutOfProcess = 1,
    kAudioComponentInstantiation_LoadInProcess = 2,
    kAudioComponentInstantiation_LoadedRemotely = 1U << 31,
};

/* Which components a search matches: type, subtype and manufacturer (0 matches any), and the
   flags under the mask. */
typedef struct AudioComponentDescription {
    OSType componentType;
    OSType componentSubType;
    OSType componentManufacturer;
    UInt32 componentFlags;
    UInt32 componentFlagsMask;
} AudioComponentDescription;

/* A component class, and an instance of one (on a Mac, a Component Manager instance). */
typedef struct OpaqueAudioComponent *AudioComponent;
typedef struct ComponentInstanceRecord *AudioComponentInstance;

/* A component's implementation: its methods, found by selector. */
typedef OSStatus (*AudioComponentMethod)(void *self, ...);

typedef struct AudioComponentPlugInInterface {
    OSStatus (*Open)(void *self, AudioComponentInstance mInstance);
    OSStatus (*Close)(void *self);
    AudioComponentMethod _Nullable (*_Nonnull Lookup)(SInt16 selector);
    void *_Nullable reserved;
} AudioComponentPlugInInterface;

typedef AudioComponentPlugInInterface *_Nullable (*AudioComponentFactoryFunction)(const AudioComponentDescription *inDesc);

CF_ENUM(OSStatus) {
    kAudioComponentErr_DuplicateDescription = -66752,
    kAudioComponentErr_UnsupportedType = -66751,
    kAudioComponentErr_TooManyInstances = -66750,
    kAudioComponentErr_NotPermitted = -66748,
    kAudioComponentErr_InitializationTimedOut = -66747,
    kAudioComponentErr_InvalidFormat = -66746,
};

typedef CF_ENUM(UInt32, AudioComponentValidationResult) {
    kAudioComponentValidationResult_Unknown = 0,
    kAudioComponentValidationResult_Passed,
    kAudioComponentValidationResult_Failed,
    kAudioComponentValidationResult_TimedOut,
    kAudioComponentValidationResult_UnauthorizedError_Open,
    kAudioComponentValidationResult_UnauthorizedError_Init,
};

#define kAudioComponentConfigurationInfo_ValidationResult "ValidationResult"
#define kAudioComponentValidationParameter_TimeOut "TimeOut"
#define kAudioComponentValidationParameter_ForceValidation "ForceValidation"

AT_ASSUME_NONNULL_END
AT_EXTERN_C_END

#endif /* AudioToolbox_AudioComponent_h */
