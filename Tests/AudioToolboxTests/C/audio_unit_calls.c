/*
 * audio_unit_calls.c — every function of the audio unit headers (AudioComponent.h, AUComponent.h,
 * AudioOutputUnit.h), of AUGraph.h and the Component Manager calls of Components.h, first declared
 * again here with the prototypes of Apple's 64-bit SDK headers (a declaration of the headers that
 * differs in a type makes the two conflict, a compile error in C and, both being extern "C", in
 * C++), then called as a Mac program calls them: a default output unit found, opened, given a
 * render callback and started; a graph of a mixer and an output; the Component Manager's
 * search. Compiled to an object file only (the test reads its undefined symbols): it is not
 * linked or run. AudioComponentInstantiate is declared and called where the compiler has blocks.
 *
 * swift-audio-queue. Apache License 2.0.
 */
#include <AudioToolbox/AudioToolbox.h>
#include <AudioUnit/AudioUnit.h>
#include <AudioUnit/AUGraph.h>
#include <CoreServices/CoreServices.h>

#include <string.h>

#if defined(__cplusplus)
extern "C" {
#endif

/* AudioComponent.h. */
extern AudioComponent AudioComponentFindNext(AudioComponent inComponent, const AudioComponentDescription *inDesc);
extern UInt32 AudioComponentCount(const AudioComponentDescription *inDesc);
extern OSStatus AudioComponentCopyName(AudioComponent inComponent, CFStringRef *outName);
extern OSStatus AudioComponentGetDescription(AudioComponent inComponent, AudioComponentDescription *outDesc);
extern OSStatus AudioComponentGetVersion(AudioComponent inComponent, UInt32 *outVersion);
extern OSStatus AudioComponentInstanceNew(AudioComponent inComponent, AudioComponentInstance *outInstance);
#if defined(__BLOCKS__)
extern void AudioComponentInstantiate(AudioComponent inComponent, AudioComponentInstantiationOptions inOptions,
                                      void (^inCompletionHandler)(AudioComponentInstance, OSStatus));
#endif
extern OSStatus AudioComponentInstanceDispose(AudioComponentInstance inInstance);
extern AudioComponent AudioComponentInstanceGetComponent(AudioComponentInstance inInstance);
extern Boolean AudioComponentInstanceCanDo(AudioComponentInstance inInstance, SInt16 inSelectorID);
extern AudioComponent AudioComponentRegister(const AudioComponentDescription *inDesc, CFStringRef inName,
                                             UInt32 inVersion, AudioComponentFactoryFunction inFactory);
extern OSStatus AudioComponentCopyConfigurationInfo(AudioComponent inComponent, CFDictionaryRef *outConfigurationInfo);

/* AUComponent.h. */
extern OSStatus AudioUnitInitialize(AudioUnit inUnit);
extern OSStatus AudioUnitUninitialize(AudioUnit inUnit);
extern OSStatus AudioUnitGetPropertyInfo(AudioUnit inUnit, AudioUnitPropertyID inID, AudioUnitScope inScope,
                                         AudioUnitElement inElement, UInt32 *outDataSize, Boolean *outWritable);
extern OSStatus AudioUnitGetProperty(AudioUnit inUnit, AudioUnitPropertyID inID, AudioUnitScope inScope,
                                     AudioUnitElement inElement, void *outData, UInt32 *ioDataSize);
extern OSStatus AudioUnitSetProperty(AudioUnit inUnit, AudioUnitPropertyID inID, AudioUnitScope inScope,
                                     AudioUnitElement inElement, const void *inData, UInt32 inDataSize);
extern OSStatus AudioUnitAddPropertyListener(AudioUnit inUnit, AudioUnitPropertyID inID,
                                             AudioUnitPropertyListenerProc inProc, void *inProcUserData);
extern OSStatus AudioUnitRemovePropertyListenerWithUserData(AudioUnit inUnit, AudioUnitPropertyID inID,
                                                            AudioUnitPropertyListenerProc inProc, void *inProcUserData);
extern OSStatus AudioUnitAddRenderNotify(AudioUnit inUnit, AURenderCallback inProc, void *inProcUserData);
extern OSStatus AudioUnitRemoveRenderNotify(AudioUnit inUnit, AURenderCallback inProc, void *inProcUserData);
extern OSStatus AudioUnitGetParameter(AudioUnit inUnit, AudioUnitParameterID inID, AudioUnitScope inScope,
                                      AudioUnitElement inElement, AudioUnitParameterValue *outValue);
extern OSStatus AudioUnitSetParameter(AudioUnit inUnit, AudioUnitParameterID inID, AudioUnitScope inScope,
                                      AudioUnitElement inElement, AudioUnitParameterValue inValue,
                                      UInt32 inBufferOffsetInFrames);
extern OSStatus AudioUnitScheduleParameters(AudioUnit inUnit, const AudioUnitParameterEvent *inParameterEvent,
                                            UInt32 inNumParamEvents);
extern OSStatus AudioUnitRender(AudioUnit inUnit, AudioUnitRenderActionFlags *ioActionFlags,
                                const AudioTimeStamp *inTimeStamp, UInt32 inOutputBusNumber, UInt32 inNumberFrames,
                                AudioBufferList *ioData);
extern OSStatus AudioUnitProcess(AudioUnit inUnit, AudioUnitRenderActionFlags *ioActionFlags,
                                 const AudioTimeStamp *inTimeStamp, UInt32 inNumberFrames, AudioBufferList *ioData);
extern OSStatus AudioUnitProcessMultiple(AudioUnit inUnit, AudioUnitRenderActionFlags *ioActionFlags,
                                         const AudioTimeStamp *inTimeStamp, UInt32 inNumberFrames,
                                         UInt32 inNumberInputBufferLists, const AudioBufferList **inInputBufferLists,
                                         UInt32 inNumberOutputBufferLists, AudioBufferList **ioOutputBufferLists);
extern OSStatus AudioUnitReset(AudioUnit inUnit, AudioUnitScope inScope, AudioUnitElement inElement);

/* AudioOutputUnit.h. */
extern OSStatus AudioOutputUnitStart(AudioUnit ci);
extern OSStatus AudioOutputUnitStop(AudioUnit ci);

/* AUGraph.h. */
extern OSStatus NewAUGraph(AUGraph *outGraph);
extern OSStatus DisposeAUGraph(AUGraph inGraph);
extern OSStatus AUGraphAddNode(AUGraph inGraph, const AudioComponentDescription *inDescription, AUNode *outNode);
extern OSStatus AUGraphRemoveNode(AUGraph inGraph, AUNode inNode);
extern OSStatus AUGraphGetNodeCount(AUGraph inGraph, UInt32 *outNumberOfNodes);
extern OSStatus AUGraphGetIndNode(AUGraph inGraph, UInt32 inIndex, AUNode *outNode);
extern OSStatus AUGraphNodeInfo(AUGraph inGraph, AUNode inNode, AudioComponentDescription *outDescription,
                                AudioUnit *outAudioUnit);
extern OSStatus AUGraphConnectNodeInput(AUGraph inGraph, AUNode inSourceNode, UInt32 inSourceOutputNumber,
                                        AUNode inDestNode, UInt32 inDestInputNumber);
extern OSStatus AUGraphSetNodeInputCallback(AUGraph inGraph, AUNode inDestNode, UInt32 inDestInputNumber,
                                            const AURenderCallbackStruct *inInputCallback);
extern OSStatus AUGraphDisconnectNodeInput(AUGraph inGraph, AUNode inDestNode, UInt32 inDestInputNumber);
extern OSStatus AUGraphClearConnections(AUGraph inGraph);
extern OSStatus AUGraphGetNumberOfInteractions(AUGraph inGraph, UInt32 *outNumInteractions);
extern OSStatus AUGraphGetInteractionInfo(AUGraph inGraph, UInt32 inInteractionIndex, AUNodeInteraction *outInteraction);
extern OSStatus AUGraphCountNodeInteractions(AUGraph inGraph, AUNode inNode, UInt32 *outNumInteractions);
extern OSStatus AUGraphGetNodeInteractions(AUGraph inGraph, AUNode inNode, UInt32 *ioNumInteractions,
                                           AUNodeInteraction *outInteractions);
extern OSStatus AUGraphUpdate(AUGraph inGraph, Boolean *outIsUpdated);
extern OSStatus AUGraphOpen(AUGraph inGraph);
extern OSStatus AUGraphClose(AUGraph inGraph);
extern OSStatus AUGraphInitialize(AUGraph inGraph);
extern OSStatus AUGraphUninitialize(AUGraph inGraph);
extern OSStatus AUGraphStart(AUGraph inGraph);
extern OSStatus AUGraphStop(AUGraph inGraph);
extern OSStatus AUGraphIsOpen(AUGraph inGraph, Boolean *outIsOpen);
extern OSStatus AUGraphIsInitialized(AUGraph inGraph, Boolean *outIsInitialized);
extern OSStatus AUGraphIsRunning(AUGraph inGraph, Boolean *outIsRunning);
extern OSStatus AUGraphGetCPULoad(AUGraph inGraph, Float32 *outAverageCPULoad);
extern OSStatus AUGraphGetMaxCPULoad(AUGraph inGraph, Float32 *outMaxLoad);
extern OSStatus AUGraphAddRenderNotify(AUGraph inGraph, AURenderCallback inCallback, void *inRefCon);
extern OSStatus AUGraphRemoveRenderNotify(AUGraph inGraph, AURenderCallback inCallback, void *inRefCon);

/* Components.h (the 64-bit names). */
extern Component FindNextComponent(Component aComponent, ComponentDescription *looking);
extern long CountComponents(ComponentDescription *looking);
extern OSErr GetComponentInfo(Component aComponent, ComponentDescription *cd, Handle componentName,
                              Handle componentInfo, Handle componentIcon);
extern OSErr OpenAComponent(Component aComponent, ComponentInstance *ci);
extern ComponentInstance OpenComponent(Component aComponent);
extern OSErr OpenADefaultComponent(OSType componentType, OSType componentSubType, ComponentInstance *ci);
extern OSErr CloseComponent(ComponentInstance aComponentInstance);
extern ComponentResult CallComponentVersion(ComponentInstance ci);

#if defined(__cplusplus)
}
#endif

static OSStatus renderSine(void *inRefCon, AudioUnitRenderActionFlags *ioActionFlags, const AudioTimeStamp *inTimeStamp,
                           UInt32 inBusNumber, UInt32 inNumberFrames, AudioBufferList *ioData) {
    (void)inRefCon; (void)inTimeStamp; (void)inBusNumber; (void)inNumberFrames;
    if (ioData) {
        memset(ioData->mBuffers[0].mData, 0, ioData->mBuffers[0].mDataByteSize);
        *ioActionFlags |= kAudioUnitRenderAction_OutputIsSilence;
    }
    return noErr;
}

static void formatChanged(void *inRefCon, AudioUnit inUnit, AudioUnitPropertyID inID, AudioUnitScope inScope,
                          AudioUnitElement inElement) {
    (void)inRefCon; (void)inUnit; (void)inID; (void)inScope; (void)inElement;
}

static AudioComponentPlugInInterface *makeNothing(const AudioComponentDescription *inDesc) {
    (void)inDesc;
    return NULL;
}

/* A default output unit: found, described, opened, given a format and a render callback, started
   and stopped; and the rest of AudioComponent.h and AUComponent.h. */
OSStatus useOutputUnit(void) {
    AudioComponentDescription description;
    AudioComponentDescription found;
    AudioComponent component;
    AudioComponentInstance instance = NULL;
    AudioUnit unit;
    AudioStreamBasicDescription format;
    AURenderCallbackStruct callback;
    AudioUnitParameterEvent event;
    AudioUnitParameterValue volume = 0;
    AudioUnitRenderActionFlags flags = 0;
    AudioTimeStamp time;
    AudioBufferList buffers;
    const AudioBufferList *inputs[1];
    AudioBufferList *outputs[1];
    CFStringRef name = NULL;
    CFDictionaryRef info = NULL;
    UInt32 version = 0, size = sizeof format, count;
    Boolean writable = false;
    OSStatus status = noErr;

    memset(&description, 0, sizeof description);
    description.componentType = kAudioUnitType_Output;
    description.componentSubType = kAudioUnitSubType_DefaultOutput;
    description.componentManufacturer = kAudioUnitManufacturer_Apple;
    component = AudioComponentFindNext(NULL, &description);
    count = AudioComponentCount(&description);
    status |= AudioComponentCopyName(component, &name);
    status |= AudioComponentGetDescription(component, &found);
    status |= AudioComponentGetVersion(component, &version);
    status |= AudioComponentCopyConfigurationInfo(component, &info);
    status |= AudioComponentInstanceNew(component, &instance);
    unit = instance;
    status |= (AudioComponentInstanceGetComponent(unit) == component) ? (OSStatus)noErr : (OSStatus)paramErr;
    status |= AudioComponentInstanceCanDo(unit, kAudioUnitRenderSelect) ? (OSStatus)noErr : (OSStatus)paramErr;
    status |= AudioComponentRegister(&description, name, version, makeNothing) ? (OSStatus)noErr : (OSStatus)paramErr;
#if defined(__BLOCKS__)
    AudioComponentInstantiate(component, kAudioComponentInstantiation_LoadInProcess,
                              ^(AudioComponentInstance made, OSStatus result) {
                                  if (result == noErr) AudioComponentInstanceDispose(made);
                              });
#endif

    memset(&format, 0, sizeof format);
    status |= AudioUnitGetPropertyInfo(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &size, &writable);
    status |= AudioUnitGetProperty(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &format, &size);
    status |= AudioUnitSetProperty(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &format, sizeof format);
    callback.inputProc = renderSine;
    callback.inputProcRefCon = NULL;
    status |= AudioUnitSetProperty(unit, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0, &callback,
                                   sizeof callback);
    status |= AudioUnitAddPropertyListener(unit, kAudioUnitProperty_StreamFormat, formatChanged, NULL);
    status |= AudioUnitRemovePropertyListenerWithUserData(unit, kAudioUnitProperty_StreamFormat, formatChanged, NULL);
    status |= AudioUnitAddRenderNotify(unit, renderSine, NULL);
    status |= AudioUnitRemoveRenderNotify(unit, renderSine, NULL);
    status |= AudioUnitInitialize(unit);
    status |= AudioUnitGetParameter(unit, kHALOutputParam_Volume, kAudioUnitScope_Global, 0, &volume);
    status |= AudioUnitSetParameter(unit, kHALOutputParam_Volume, kAudioUnitScope_Global, 0, volume, 0);
    memset(&event, 0, sizeof event);
    event.scope = kAudioUnitScope_Global;
    event.parameter = kHALOutputParam_Volume;
    event.eventType = kParameterEvent_Immediate;
    event.eventValues.immediate.value = 0.5f;
    status |= AudioUnitScheduleParameters(unit, &event, 1);
    status |= AudioOutputUnitStart(unit);
    status |= AudioOutputUnitStop(unit);

    memset(&time, 0, sizeof time);
    time.mFlags = kAudioTimeStampSampleTimeValid;
    memset(&buffers, 0, sizeof buffers);
    buffers.mNumberBuffers = 1;
    inputs[0] = &buffers;
    outputs[0] = &buffers;
    status |= AudioUnitRender(unit, &flags, &time, 0, 512, &buffers);
    status |= AudioUnitProcess(unit, NULL, &time, 512, &buffers);
    status |= AudioUnitProcessMultiple(unit, NULL, &time, 512, 1, inputs, 1, outputs);
    status |= AudioUnitReset(unit, kAudioUnitScope_Global, 0);
    status |= AudioUnitUninitialize(unit);
    status |= AudioComponentInstanceDispose(unit);
    if (name) CFRelease(name);
    if (info) CFRelease(info);
    return count == 0 ? (OSStatus)kAudioUnitErr_NoConnection : status;
}

/* A mixer into the default output, fed by a callback. */
OSStatus useGraph(void) {
    AUGraph graph = NULL;
    AUNode mixer = 0, output = 0, node = 0;
    AudioComponentDescription description;
    AudioUnit mixerUnit = NULL;
    AURenderCallbackStruct callback;
    AUNodeInteraction interactions[4];
    UInt32 nodes = 0, interactionCount = 4;
    Boolean isOpen = false, isInitialized = false, isRunning = false, updated = false;
    Float32 load = 0, maxLoad = 0;
    OSStatus status = NewAUGraph(&graph);

    memset(&description, 0, sizeof description);
    description.componentType = kAudioUnitType_Mixer;
    description.componentSubType = kAudioUnitSubType_MultiChannelMixer;
    description.componentManufacturer = kAudioUnitManufacturer_Apple;
    status |= AUGraphAddNode(graph, &description, &mixer);
    description.componentType = kAudioUnitType_Output;
    description.componentSubType = kAudioUnitSubType_DefaultOutput;
    status |= AUGraphAddNode(graph, &description, &output);
    status |= AUGraphOpen(graph);
    status |= AUGraphIsOpen(graph, &isOpen);
    status |= AUGraphNodeInfo(graph, mixer, NULL, &mixerUnit);
    status |= AUGraphConnectNodeInput(graph, mixer, 0, output, 0);
    callback.inputProc = renderSine;
    callback.inputProcRefCon = NULL;
    status |= AUGraphSetNodeInputCallback(graph, mixer, 0, &callback);
    status |= AUGraphGetNodeCount(graph, &nodes);
    status |= AUGraphGetIndNode(graph, 0, &node);
    status |= AUGraphGetNumberOfInteractions(graph, &interactionCount);
    status |= AUGraphGetInteractionInfo(graph, 0, &interactions[0]);
    status |= AUGraphCountNodeInteractions(graph, mixer, &interactionCount);
    interactionCount = 4;
    status |= AUGraphGetNodeInteractions(graph, mixer, &interactionCount, interactions);
    status |= AUGraphAddRenderNotify(graph, renderSine, NULL);
    status |= AUGraphInitialize(graph);
    status |= AUGraphIsInitialized(graph, &isInitialized);
    status |= AUGraphStart(graph);
    status |= AUGraphIsRunning(graph, &isRunning);
    status |= AUGraphGetCPULoad(graph, &load);
    status |= AUGraphGetMaxCPULoad(graph, &maxLoad);
    status |= AUGraphDisconnectNodeInput(graph, mixer, 0);
    status |= AUGraphUpdate(graph, &updated);
    status |= AUGraphUpdate(graph, NULL);
    status |= AUGraphClearConnections(graph);
    status |= AUGraphRemoveRenderNotify(graph, renderSine, NULL);
    status |= AUGraphStop(graph);
    status |= AUGraphUninitialize(graph);
    status |= AUGraphRemoveNode(graph, mixer);
    status |= AUGraphClose(graph);
    status |= DisposeAUGraph(graph);
    if (interactions[0].nodeInteractionType == kAUNodeInteraction_Connection &&
        interactions[0].nodeInteraction.connection.destNode != output) status |= kAUGraphErr_InvalidConnection;
    if (!isOpen || !isInitialized || !isRunning || !mixerUnit || nodes != 2 || load < 0 || maxLoad < 0)
        status |= kAUGraphErr_NodeNotFound;
    return status;
}

/* The output unit as programs written before AudioComponent find it; an AudioUnit is a
   ComponentInstance. */
OSStatus useComponentManager(void) {
    ComponentDescription description;
    ComponentDescription found;
    Component component;
    AudioUnit unit = NULL;
    ComponentInstance other;
    ComponentInstance byType = NULL;
    long count;
    ComponentResult version;
    OSErr error;

    memset(&description, 0, sizeof description);
    description.componentType = kAudioUnitType_Output;
    description.componentSubType = kAudioUnitSubType_DefaultOutput;
    description.componentManufacturer = kAudioUnitManufacturer_Apple;
    component = FindNextComponent(NULL, &description);
    count = CountComponents(&description);
    error = GetComponentInfo(component, &found, NULL, NULL, NULL);
    error |= OpenAComponent(component, &unit);
    version = CallComponentVersion(unit);
    other = OpenComponent(component);
    error |= OpenADefaultComponent(kAudioUnitType_Output, kAudioUnitSubType_DefaultOutput, &byType);
    error |= CloseComponent(other);
    error |= CloseComponent(byType);
    error |= CloseComponent(unit);
    return (count > 0 && version > 0) ? error : (OSStatus)invalidComponentID;
}
