/*
 * AudioComponent.h — Apple's Audio Component Services: AudioComponent, AudioComponentInstance (on
 * a Mac the Component Manager's ComponentInstance, so that the two convert),
 * AudioComponentDescription, the component flags, instantiation options, validation results and
 * errors, and the plug-in interface a component implements; and the functions, with Apple's
 * signatures: finding and counting components (AudioComponentFindNext, AudioComponentCount), their
 * name, description and version, creating and disposing of instances (AudioComponentInstanceNew,
 * AudioComponentInstanceDispose, and AudioComponentInstantiate for compilers with blocks),
 * AudioComponentInstanceGetComponent, AudioComponentInstanceCanDo, registering a component of the
 * process's own (AudioComponentRegister) and AudioComponentCopyConfigurationInfo.
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

/* The next component after inComponent (NULL: the first) that matches inDesc: type, subtype and
   manufacturer, 0 matching any; NULL when there is none. */
AT_EXPORT AudioComponent _Nullable AudioComponentFindNext(AudioComponent _Nullable inComponent,
                                                          const AudioComponentDescription *inDesc);
/* How many components match inDesc. */
AT_EXPORT UInt32 AudioComponentCount(const AudioComponentDescription *inDesc);
/* The component's name ("manufacturer: unit"), which the caller releases. */
AT_EXPORT OSStatus AudioComponentCopyName(AudioComponent inComponent, CFStringRef _Nullable *_Nonnull outName);
/* The component's full description. */
AT_EXPORT OSStatus AudioComponentGetDescription(AudioComponent inComponent, AudioComponentDescription *outDesc);
/* The component's version, 0xMMMMmmDD. */
AT_EXPORT OSStatus AudioComponentGetVersion(AudioComponent inComponent, UInt32 *outVersion);

/* A new instance of the component (for an audio unit, the AudioUnit itself). */
AT_EXPORT OSStatus AudioComponentInstanceNew(AudioComponent inComponent,
                                             AudioComponentInstance _Nullable *_Nonnull outInstance);
#if defined(__BLOCKS__)
/* The asynchronous form of AudioComponentInstanceNew: inCompletionHandler receives the instance
   (or NULL) and the result, on a thread of the library's. Declared for compilers with blocks
   (clang -fblocks). */
AT_EXPORT void AudioComponentInstantiate(AudioComponent inComponent, AudioComponentInstantiationOptions inOptions,
                                         void (^inCompletionHandler)(AudioComponentInstance _Nullable, OSStatus));
#endif
/* Disposes of an instance and everything it holds. */
AT_EXPORT OSStatus AudioComponentInstanceDispose(AudioComponentInstance inInstance);
/* The component an instance was made from. */
AT_EXPORT AudioComponent AudioComponentInstanceGetComponent(AudioComponentInstance inInstance);
/* Whether the instance implements the method of selector inSelectorID (kAudioUnitRenderSelect, …). */
AT_EXPORT Boolean AudioComponentInstanceCanDo(AudioComponentInstance inInstance, SInt16 inSelectorID);

/* Registers a component of this process: instances are made by inFactory. */
AT_EXPORT AudioComponent AudioComponentRegister(const AudioComponentDescription *inDesc, CFStringRef inName,
                                                UInt32 inVersion, AudioComponentFactoryFunction inFactory);
/* A dictionary describing the component's capabilities, which the caller releases. */
AT_EXPORT OSStatus AudioComponentCopyConfigurationInfo(AudioComponent inComponent,
                                                       CFDictionaryRef _Nullable *_Nonnull outConfigurationInfo);

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
