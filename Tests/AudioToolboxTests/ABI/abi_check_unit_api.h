/*
 * abi_check_unit_api.h — Apple's 64-bit layouts of AUGraph.h's structs, worked out from the field
 * lists of Apple's header as abi_check.c's are, and the values of the constants programs pass to
 * and compare against from the audio unit calls (AUComponent.h, AudioComponent.h,
 * AudioUnitProperties.h, AudioOutputUnit.h, AUGraph.h), as Apple's headers give them. Included by
 * abi_check.c.
 *
 * swift-audio-queue. Apache License 2.0.
 */
#include <AudioToolbox/AUGraph.h>

static void checkAudioUnitAPI(void) {
    /* AUGraph.h: struct OpaqueAUGraph *AUGraph; SInt32 AUNode. */
    WIDTH(AUGraph, 8);
    WIDTH(AUNode, 4);
    SIGNEDNESS(AUNode, 1);

    /* AUNode sourceNode; UInt32 sourceOutputNumber; AUNode destNode; UInt32 destInputNumber
       (AUNodeConnection is the same struct). */
    STRUCT(AudioUnitNodeConnection, 16, 4);
    FIELD(AudioUnitNodeConnection, sourceNode, 0, 4);
    FIELD(AudioUnitNodeConnection, sourceOutputNumber, 4, 4);
    FIELD(AudioUnitNodeConnection, destNode, 8, 4);
    FIELD(AudioUnitNodeConnection, destInputNumber, 12, 4);
    STRUCT(AUNodeConnection, 16, 4);

    /* AUNode destNode; AudioUnitElement destInputNumber; AURenderCallbackStruct cback (two
       pointers). */
    STRUCT(AUNodeRenderCallback, 24, 8);
    FIELD(AUNodeRenderCallback, destNode, 0, 4);
    FIELD(AUNodeRenderCallback, destInputNumber, 4, 4);
    FIELD(AUNodeRenderCallback, cback, 8, 16);
    FIELD(AUNodeRenderCallback, cback.inputProc, 8, 8);
    FIELD(AUNodeRenderCallback, cback.inputProcRefCon, 16, 8);

    /* UInt32 nodeInteractionType; a union of AUNodeConnection and AUNodeRenderCallback (24
       bytes, aligned to 8). */
    STRUCT(AUNodeInteraction, 32, 8);
    FIELD(AUNodeInteraction, nodeInteractionType, 0, 4);
    FIELD(AUNodeInteraction, nodeInteraction, 8, 24);
    FIELD(AUNodeInteraction, nodeInteraction.connection.destNode, 16, 4);
    FIELD(AUNodeInteraction, nodeInteraction.inputCallback.cback.inputProcRefCon, 24, 8);

    /* AUGraph.h. */
    CONST_S32(kAUGraphErr_NodeNotFound, -10860);
    CONST_S32(kAUGraphErr_InvalidConnection, -10861);
    CONST_S32(kAUGraphErr_OutputNodeErr, -10862);
    CONST_S32(kAUGraphErr_CannotDoInCurrentContext, -10863);
    CONST_S32(kAUGraphErr_InvalidAudioUnit, -10864);
    CONST_U32(kAUNodeInteraction_Connection, 1);
    CONST_U32(kAUNodeInteraction_InputCallback, 2);

    /* AUComponent.h: result codes. */
    CONST_S32(kAudioUnitErr_InvalidProperty, -10879);
    CONST_S32(kAudioUnitErr_InvalidParameter, -10878);
    CONST_S32(kAudioUnitErr_InvalidElement, -10877);
    CONST_S32(kAudioUnitErr_NoConnection, -10876);
    CONST_S32(kAudioUnitErr_FailedInitialization, -10875);
    CONST_S32(kAudioUnitErr_TooManyFramesToProcess, -10874);
    CONST_S32(kAudioUnitErr_InvalidFile, -10871);
    CONST_S32(kAudioUnitErr_UnknownFileType, -10870);
    CONST_S32(kAudioUnitErr_FileNotSpecified, -10869);
    CONST_S32(kAudioUnitErr_FormatNotSupported, -10868);
    CONST_S32(kAudioUnitErr_Uninitialized, -10867);
    CONST_S32(kAudioUnitErr_InvalidScope, -10866);
    CONST_S32(kAudioUnitErr_PropertyNotWritable, -10865);
    CONST_S32(kAudioUnitErr_CannotDoInCurrentContext, -10863);
    CONST_S32(kAudioUnitErr_InvalidPropertyValue, -10851);
    CONST_S32(kAudioUnitErr_PropertyNotInUse, -10850);
    CONST_S32(kAudioUnitErr_Initialized, -10849);
    CONST_S32(kAudioUnitErr_InvalidOfflineRender, -10848);
    CONST_S32(kAudioUnitErr_Unauthorized, -10847);
    CONST_S32(kAudioUnitErr_MIDIOutputBufferFull, -66753);
    CONST_S32(kAudioUnitErr_RenderTimeout, -66745);
    CONST_S32(kAudioUnitErr_ExtensionNotFound, -66744);
    CONST_S32(kAudioUnitErr_InvalidParameterValue, -66743);
    CONST_S32(kAudioUnitErr_InvalidFilePath, -66742);
    CONST_S32(kAudioUnitErr_MissingKey, -66741);
    CONST_S32(kAudioUnitErr_IllegalInstrument, -10873);
    CONST_S32(kAudioUnitErr_InstrumentTypeNotFound, -10872);

    /* AUComponent.h and AudioComponent.h: the component errors. */
    CONST_S32(kAudioComponentErr_InstanceTimedOut, -66754);
    CONST_S32(kAudioComponentErr_DuplicateDescription, -66752);
    CONST_S32(kAudioComponentErr_UnsupportedType, -66751);
    CONST_S32(kAudioComponentErr_TooManyInstances, -66750);
    CONST_S32(kAudioComponentErr_InstanceInvalidated, -66749);
    CONST_S32(kAudioComponentErr_NotPermitted, -66748);
    CONST_S32(kAudioComponentErr_InitializationTimedOut, -66747);
    CONST_S32(kAudioComponentErr_InvalidFormat, -66746);

    /* AUComponent.h and AudioOutputUnit.h: the method selectors. */
    CONST_S32(kAudioUnitInitializeSelect, 0x0001);
    CONST_S32(kAudioUnitUninitializeSelect, 0x0002);
    CONST_S32(kAudioUnitGetPropertyInfoSelect, 0x0003);
    CONST_S32(kAudioUnitGetPropertySelect, 0x0004);
    CONST_S32(kAudioUnitSetPropertySelect, 0x0005);
    CONST_S32(kAudioUnitGetParameterSelect, 0x0006);
    CONST_S32(kAudioUnitSetParameterSelect, 0x0007);
    CONST_S32(kAudioUnitResetSelect, 0x0009);
    CONST_S32(kAudioUnitAddPropertyListenerSelect, 0x000A);
    CONST_S32(kAudioUnitRemovePropertyListenerSelect, 0x000B);
    CONST_S32(kAudioUnitRenderSelect, 0x000E);
    CONST_S32(kAudioUnitAddRenderNotifySelect, 0x000F);
    CONST_S32(kAudioUnitRemoveRenderNotifySelect, 0x0010);
    CONST_S32(kAudioUnitScheduleParametersSelect, 0x0011);
    CONST_S32(kAudioUnitRemovePropertyListenerWithUserDataSelect, 0x0012);
    CONST_S32(kAudioUnitComplexRenderSelect, 0x0013);
    CONST_S32(kAudioUnitProcessSelect, 0x0014);
    CONST_S32(kAudioUnitProcessMultipleSelect, 0x0015);
    CONST_S32(kAudioOutputUnitRange, 0x0200);
    CONST_S32(kAudioOutputUnitStartSelect, 0x0201);
    CONST_S32(kAudioOutputUnitStopSelect, 0x0202);

    /* AUComponent.h: render action flags and parameter events. */
    CONST_U32(kAudioUnitRenderAction_PreRender, 1U << 2);
    CONST_U32(kAudioUnitRenderAction_PostRender, 1U << 3);
    CONST_U32(kAudioUnitRenderAction_OutputIsSilence, 1U << 4);
    CONST_U32(kAudioUnitRenderAction_PostRenderError, 1U << 8);
    CONST_U32(kParameterEvent_Immediate, 1);
    CONST_U32(kParameterEvent_Ramped, 2);

    /* AudioUnitProperties.h: scopes and the properties a program sets on an output unit. */
    CONST_U32(kAudioUnitScope_Global, 0);
    CONST_U32(kAudioUnitScope_Input, 1);
    CONST_U32(kAudioUnitScope_Output, 2);
    CONST_U32(kAudioUnitProperty_ClassInfo, 0);
    CONST_U32(kAudioUnitProperty_MakeConnection, 1);
    CONST_U32(kAudioUnitProperty_SampleRate, 2);
    CONST_U32(kAudioUnitProperty_ParameterList, 3);
    CONST_U32(kAudioUnitProperty_ParameterInfo, 4);
    CONST_U32(kAudioUnitProperty_CPULoad, 6);
    CONST_U32(kAudioUnitProperty_StreamFormat, 8);
    CONST_U32(kAudioUnitProperty_ElementCount, 11);
    CONST_U32(kAudioUnitProperty_Latency, 12);
    CONST_U32(kAudioUnitProperty_SupportedNumChannels, 13);
    CONST_U32(kAudioUnitProperty_MaximumFramesPerSlice, 14);
    CONST_U32(kAudioUnitProperty_AudioChannelLayout, 19);
    CONST_U32(kAudioUnitProperty_TailTime, 20);
    CONST_U32(kAudioUnitProperty_BypassEffect, 21);
    CONST_U32(kAudioUnitProperty_LastRenderError, 22);
    CONST_U32(kAudioUnitProperty_SetRenderCallback, 23);
    CONST_U32(kAudioUnitProperty_RenderQuality, 26);
    CONST_U32(kAudioUnitProperty_ShouldAllocateBuffer, 51);
    CONST_U32(kAudioOutputUnitProperty_CurrentDevice, 2000);
    CONST_U32(kAudioOutputUnitProperty_IsRunning, 2001);
    CONST_U32(kAudioOutputUnitProperty_ChannelMap, 2002);
    CONST_U32(kAudioOutputUnitProperty_EnableIO, 2003);
    CONST_U32(kAudioOutputUnitProperty_StartTime, 2004);
    CONST_U32(kAudioOutputUnitProperty_SetInputCallback, 2005);
    CONST_U32(kAudioOutputUnitProperty_HasIO, 2006);
    CONST_U32(kAudioOutputUnitProperty_StartTimestampsAtZero, 2007);

    /* Components.h: the wildcards a search passes. */
    CONST_U32(kAnyComponentType, 0);
    CONST_U32(kAnyComponentSubType, 0);
    CONST_U32(kAnyComponentManufacturer, 0);
    CONST_U32(kAnyComponentFlagsMask, 0);
}
