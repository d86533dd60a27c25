/*
 * abi_check_units.h — Apple's 64-bit layouts of the audio unit, Component Manager and remaining
 * CoreAudioTypes structs (AUComponent.h, AudioComponent.h, AudioUnitProperties.h, MusicDevice.h,
 * Components.h, CoreAudioBaseTypes.h, os/workgroup.h), worked out from the field lists of Apple's
 * headers as abi_check.c's are; and the callbacks' signatures (a function of Apple's type
 * converts to the typedef without a cast). Included by abi_check.c.
 *
 * swift-audio-queue. Apache License 2.0.
 */
#include <AudioUnit/AudioUnit.h>
#include <os/workgroup.h>

/* Apple's AURenderCallback, parameter for parameter. */
static OSStatus abiRenderCallback(void *inRefCon, AudioUnitRenderActionFlags *ioActionFlags, const AudioTimeStamp *inTimeStamp,
                                  UInt32 inBusNumber, UInt32 inNumberFrames, AudioBufferList *ioData) {
    (void)inRefCon; (void)ioActionFlags; (void)inTimeStamp; (void)inBusNumber; (void)inNumberFrames; (void)ioData;
    return 0;
}

/* Apple's AudioUnitPropertyListenerProc. */
static void abiPropertyListener(void *inRefCon, AudioUnit inUnit, AudioUnitPropertyID inID, AudioUnitScope inScope,
                                AudioUnitElement inElement) {
    (void)inRefCon; (void)inUnit; (void)inID; (void)inScope; (void)inElement;
}

/* Apple's AUInputSamplesInOutputCallback. */
static void abiInputSamples(void *inRefCon, const AudioTimeStamp *inOutputTimeStamp, Float64 inInputSample,
                            Float64 inNumberInputSamples) {
    (void)inRefCon; (void)inOutputTimeStamp; (void)inInputSample; (void)inNumberInputSamples;
}

static void checkAudioUnits(void) {
    WIDTH(AudioComponent, 8);
    WIDTH(AudioComponentInstance, 8);
    WIDTH(AudioUnit, 8);
    WIDTH(ComponentInstance, 8);
    WIDTH(ComponentResult, 4);
    WIDTH(AudioUnitPropertyID, 4);
    WIDTH(AudioUnitScope, 4);
    WIDTH(AudioUnitElement, 4);
    WIDTH(AudioUnitParameterID, 4);
    WIDTH(AudioUnitParameterValue, 4);
    WIDTH(AudioUnitRenderActionFlags, 4);
    WIDTH(AudioUnitParameterUnit, 4);
    WIDTH(AudioUnitParameterOptions, 4);
    WIDTH(MPEG4ObjectID, 8); /* CF_ENUM(long, MPEG4ObjectID) */
    WIDTH(AudioChannelCoordinateIndex, 4);

    /* AudioComponent.h: OSType componentType, componentSubType, componentManufacturer; UInt32
       componentFlags, componentFlagsMask. */
    STRUCT(AudioComponentDescription, 20, 4);
    FIELD(AudioComponentDescription, componentType, 0, 4);
    FIELD(AudioComponentDescription, componentSubType, 4, 4);
    FIELD(AudioComponentDescription, componentManufacturer, 8, 4);
    FIELD(AudioComponentDescription, componentFlags, 12, 4);
    FIELD(AudioComponentDescription, componentFlagsMask, 16, 4);

    /* Components.h, whose structs are under #pragma pack(push, 2): the same fields as
       AudioComponentDescription, aligned to 2 bytes. */
    STRUCT(ComponentDescription, 20, 2);
    FIELD(ComponentDescription, componentType, 0, 4);
    FIELD(ComponentDescription, componentSubType, 4, 4);
    FIELD(ComponentDescription, componentManufacturer, 8, 4);
    FIELD(ComponentDescription, componentFlags, 12, 4);
    FIELD(ComponentDescription, componentFlagsMask, 16, 4);

    /* Components.h (packed to 2): UInt8 flags, paramSize; SInt16 what; UInt32 padding (LP64);
       long params[1]. */
    STRUCT(ComponentParameters, 16, 2);
    FIELD(ComponentParameters, flags, 0, 1);
    FIELD(ComponentParameters, paramSize, 1, 1);
    FIELD(ComponentParameters, what, 2, 2);
    FIELD(ComponentParameters, padding, 4, 4);
    FIELD(ComponentParameters, params, 8, 8);

    /* AudioUnitProperties.h: AURenderCallback inputProc; void *inputProcRefCon. */
    STRUCT(AURenderCallbackStruct, 16, 8);
    FIELD(AURenderCallbackStruct, inputProc, 0, 8);
    FIELD(AURenderCallbackStruct, inputProcRefCon, 8, 8);

    /* AudioUnit sourceAudioUnit; UInt32 sourceOutputNumber, destInputNumber. */
    STRUCT(AudioUnitConnection, 16, 8);
    FIELD(AudioUnitConnection, sourceAudioUnit, 0, 8);
    FIELD(AudioUnitConnection, sourceOutputNumber, 8, 4);
    FIELD(AudioUnitConnection, destInputNumber, 12, 4);

    /* SInt16 inChannels, outChannels. */
    STRUCT(AUChannelInfo, 4, 2);
    FIELD(AUChannelInfo, inChannels, 0, 2);
    FIELD(AUChannelInfo, outChannels, 2, 2);
    STRUCT(AUPreset, 16, 8);
    FIELD(AUPreset, presetName, 8, 8);

    /* char name[52]; CFStringRef unitName; UInt32 clumpID; CFStringRef cfNameString;
       AudioUnitParameterUnit unit; Float32 minValue, maxValue, defaultValue; UInt32 flags. */
    STRUCT(AudioUnitParameterInfo, 104, 8);
    FIELD(AudioUnitParameterInfo, name, 0, 52);
    FIELD(AudioUnitParameterInfo, unitName, 56, 8);
    FIELD(AudioUnitParameterInfo, clumpID, 64, 4);
    FIELD(AudioUnitParameterInfo, cfNameString, 72, 8);
    FIELD(AudioUnitParameterInfo, unit, 80, 4);
    FIELD(AudioUnitParameterInfo, minValue, 84, 4);
    FIELD(AudioUnitParameterInfo, maxValue, 88, 4);
    FIELD(AudioUnitParameterInfo, defaultValue, 92, 4);
    FIELD(AudioUnitParameterInfo, flags, 96, 4);

    /* AUComponent.h: AudioUnitScope scope; AudioUnitElement element; AudioUnitParameterID
       parameter; AUParameterEventType eventType; a union of ramp (SInt32 startBufferOffset;
       UInt32 durationInFrames; Float32 startValue, endValue) and immediate (UInt32
       bufferOffset; Float32 value). */
    STRUCT(AudioUnitParameterEvent, 32, 4);
    FIELD(AudioUnitParameterEvent, scope, 0, 4);
    FIELD(AudioUnitParameterEvent, element, 4, 4);
    FIELD(AudioUnitParameterEvent, parameter, 8, 4);
    FIELD(AudioUnitParameterEvent, eventType, 12, 4);
    FIELD(AudioUnitParameterEvent, eventValues, 16, 16);
    FIELD(AudioUnitParameterEvent, eventValues.ramp.startBufferOffset, 16, 4);
    FIELD(AudioUnitParameterEvent, eventValues.ramp.durationInFrames, 20, 4);
    FIELD(AudioUnitParameterEvent, eventValues.ramp.startValue, 24, 4);
    FIELD(AudioUnitParameterEvent, eventValues.ramp.endValue, 28, 4);
    FIELD(AudioUnitParameterEvent, eventValues.immediate.bufferOffset, 16, 4);
    FIELD(AudioUnitParameterEvent, eventValues.immediate.value, 20, 4);

    /* AudioUnit mAudioUnit; UInt32 mParameterID (mPropertyID), mScope, mElement. */
    STRUCT(AudioUnitParameter, 24, 8);
    FIELD(AudioUnitParameter, mAudioUnit, 0, 8);
    FIELD(AudioUnitParameter, mParameterID, 8, 4);
    FIELD(AudioUnitParameter, mScope, 12, 4);
    FIELD(AudioUnitParameter, mElement, 16, 4);
    STRUCT(AudioUnitProperty, 24, 8);
    FIELD(AudioUnitProperty, mAudioUnit, 0, 8);
    FIELD(AudioUnitProperty, mPropertyID, 8, 4);
    FIELD(AudioUnitProperty, mScope, 12, 4);
    FIELD(AudioUnitProperty, mElement, 16, 4);

    /* AudioTimeStamp mTimestamp; UInt32 mFlags. */
    STRUCT(AudioOutputUnitStartAtTimeParams, 72, 8);
    FIELD(AudioOutputUnitStartAtTimeParams, mTimestamp, 0, 64);
    FIELD(AudioOutputUnitStartAtTimeParams, mFlags, 64, 4);

    STRUCT(HostCallbackInfo, 40, 8);
    STRUCT(AudioUnitFrequencyResponseBin, 16, 8);
    STRUCT(AUDependentParameter, 8, 4);
    STRUCT(AudioUnitParameterHistoryInfo, 8, 4);
    STRUCT(AudioUnitParameterValueFromString, 24, 8);
    FIELD(AudioUnitParameterValueFromString, outValue, 16, 4);

    /* AudioTimeStamp mTimeStamp; completion proc and user data; UInt32 mFlags, mReserved;
       void *mReserved2; UInt32 mNumberFrames; AudioBufferList *mBufferList. */
    STRUCT(ScheduledAudioSlice, 112, 8);
    FIELD(ScheduledAudioSlice, mFlags, 80, 4);
    FIELD(ScheduledAudioSlice, mNumberFrames, 96, 4);
    FIELD(ScheduledAudioSlice, mBufferList, 104, 8);

    /* MusicDevice.h: UInt32 argCount; Float32 mPitch, mVelocity; NoteParamsControlValue mControls[1]. */
    STRUCT(MusicDeviceNoteParams, 20, 4);
    STRUCT(MusicDeviceStdNoteParams, 12, 4);

    /* CoreAudioBaseTypes.h: void *mInputData; UInt32 mInputDataSize; void *mOutputData; UInt32
       mOutputDataSize. AudioStreamBasicDescription mASBD; AudioChannelLayoutTag mChannelLayoutTag. */
    STRUCT(AudioValueTranslation, 32, 8);
    FIELD(AudioValueTranslation, mOutputData, 16, 8);
    STRUCT(AudioFormatListItem, 48, 8);
    FIELD(AudioFormatListItem, mChannelLayoutTag, 40, 4);

    /* os/workgroup_object.h: uint32_t sig; char opaque[36]. */
    STRUCT(os_workgroup_join_token_s, 40, 4);

    CONST_U32(kAudioUnitType_Output, 0x61756F75);
    CONST_U32(kAudioUnitSubType_HALOutput, 0x6168616C);
    CONST_U32(kAudioUnitSubType_DefaultOutput, 0x64656620);
    CONST_U32(kAudioUnitManufacturer_Apple, 0x6170706C);
    CONST_U32(kAudioUnitProperty_StreamFormat, 8);
    CONST_U32(kAudioOutputUnitProperty_EnableIO, 2003);
    CONST_S32(kAudioUnitErr_InvalidProperty, -10879);
    CONST_S32(kAudioComponentErr_InstanceTimedOut, -66754);
    CONST_U32(kAudioUnitParameterFlag_IsWritable, 0x80000000);
    CONST_U32(kAudioChannelLayoutTag_DVD_20, 0x007A0006);
    CONST_U32(kAudioChannelLayoutTag_WAVE_7_1, 0x00BD0008);
    CONST_U32(kAudioChannelLayoutTag_Unknown, 0xFFFF0000);
    CONST_S32(eofErr, -39);
    CONST_S32(badComponentSelector, (SInt32)0x80008002);

    AURenderCallback render = abiRenderCallback;
    AudioUnitPropertyListenerProc listener = abiPropertyListener;
    AUInputSamplesInOutputCallback samples = abiInputSamples;
    check("AURenderCallback, AudioUnitPropertyListenerProc and AUInputSamplesInOutputCallback have Apple's signatures",
          render != 0 && listener != 0 && samples != 0, 1);
}
