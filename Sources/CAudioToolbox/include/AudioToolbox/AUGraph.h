/*
 * AUGraph.h — Apple's AUGraph: a graph of audio units, its nodes, their connections and input
 * callbacks, with Apple's types, values and signatures. AUGraph, AUNode, the kAUGraphErr_… codes,
 * the node interactions (AudioUnitNodeConnection, also named AUNodeConnection,
 * AUNodeRenderCallback, AUNodeInteraction) and the functions: making and disposing of a graph,
 * adding, removing and listing nodes (AUGraphAddNode, AUGraphNodeInfo, …), connecting them and
 * setting input callbacks, AUGraphUpdate, the graph's states (AUGraphOpen, AUGraphInitialize,
 * AUGraphStart and their inverses and queries), its CPU load and render notifications. The
 * sub-graph calls and the calls a Mac retired in 10.5 (AUGraphNewNode, AUGraphGetNodeInfo, …) are
 * not declared. <AudioToolbox/AudioToolbox.h> includes it, as on a Mac.
 *
 * swift-audio-queue. Apache License 2.0.
 */
#ifndef AudioToolbox_AUGraph_h
#define AudioToolbox_AUGraph_h

#include <AudioToolbox/AudioUnit.h>

AT_EXTERN_C_BEGIN
AT_ASSUME_NONNULL_BEGIN

/* A graph of audio units, and one of its nodes. */
typedef struct OpaqueAUGraph *AUGraph;
typedef SInt32 AUNode;

CF_ENUM(OSStatus) {
    kAUGraphErr_NodeNotFound = -10860,
    kAUGraphErr_InvalidConnection = -10861,
    kAUGraphErr_OutputNodeErr = -10862,
    kAUGraphErr_CannotDoInCurrentContext = -10863,
    kAUGraphErr_InvalidAudioUnit = -10864,
};

/* Makes an empty graph. */
AT_EXPORT OSStatus NewAUGraph(AUGraph _Nullable *_Nonnull outGraph);
/* Disposes of the graph, its nodes and their audio units. */
AT_EXPORT OSStatus DisposeAUGraph(AUGraph inGraph);

/* Adds a node for the audio unit inDescription finds (opened with the graph). */
AT_EXPORT OSStatus AUGraphAddNode(AUGraph inGraph, const AudioComponentDescription *inDescription, AUNode *outNode);
/* Removes a node (not the output node of a running graph). */
AT_EXPORT OSStatus AUGraphRemoveNode(AUGraph inGraph, AUNode inNode);
/* The number of nodes. */
AT_EXPORT OSStatus AUGraphGetNodeCount(AUGraph inGraph, UInt32 *outNumberOfNodes);
/* The node at inIndex (0 to the node count). */
AT_EXPORT OSStatus AUGraphGetIndNode(AUGraph inGraph, UInt32 inIndex, AUNode *outNode);
/* A node's description and audio unit (either may be NULL; the unit is NULL before AUGraphOpen). */
AT_EXPORT OSStatus AUGraphNodeInfo(AUGraph inGraph, AUNode inNode, AudioComponentDescription *_Nullable outDescription,
                                   AudioUnit _Nullable *_Nullable outAudioUnit);

/* What an interaction is: a connection between two nodes, or a callback feeding a node's input. */
CF_ENUM(UInt32) {
    kAUNodeInteraction_Connection = 1,
    kAUNodeInteraction_InputCallback = 2,
};

/* A source node's output connected to a destination node's input. */
typedef struct AudioUnitNodeConnection {
    AUNode sourceNode;
    UInt32 sourceOutputNumber;
    AUNode destNode;
    UInt32 destInputNumber;
} AudioUnitNodeConnection;
typedef struct AudioUnitNodeConnection AUNodeConnection;

/* A render callback feeding a node's input. */
typedef struct AUNodeRenderCallback {
    AUNode destNode;
    AudioUnitElement destInputNumber;
    AURenderCallbackStruct cback;
} AUNodeRenderCallback;

/* One interaction of the graph; nodeInteractionType says which member of the union holds it. */
typedef struct AUNodeInteraction {
    UInt32 nodeInteractionType;
    union {
        AUNodeConnection connection;
        AUNodeRenderCallback inputCallback;
    } nodeInteraction;
} AUNodeInteraction;

/* Connects a node's output to a node's input (applied to a running graph by AUGraphUpdate). */
AT_EXPORT OSStatus AUGraphConnectNodeInput(AUGraph inGraph, AUNode inSourceNode, UInt32 inSourceOutputNumber,
                                           AUNode inDestNode, UInt32 inDestInputNumber);
/* Feeds a node's input from a render callback. */
AT_EXPORT OSStatus AUGraphSetNodeInputCallback(AUGraph inGraph, AUNode inDestNode, UInt32 inDestInputNumber,
                                               const AURenderCallbackStruct *inInputCallback);
/* Removes the connection or callback of a node's input. */
AT_EXPORT OSStatus AUGraphDisconnectNodeInput(AUGraph inGraph, AUNode inDestNode, UInt32 inDestInputNumber);
/* Removes every connection and callback. */
AT_EXPORT OSStatus AUGraphClearConnections(AUGraph inGraph);
/* The number of interactions of the graph. */
AT_EXPORT OSStatus AUGraphGetNumberOfInteractions(AUGraph inGraph, UInt32 *outNumInteractions);
/* The interaction at inInteractionIndex. */
AT_EXPORT OSStatus AUGraphGetInteractionInfo(AUGraph inGraph, UInt32 inInteractionIndex,
                                             AUNodeInteraction *outInteraction);
/* The number of interactions a node takes part in. */
AT_EXPORT OSStatus AUGraphCountNodeInteractions(AUGraph inGraph, AUNode inNode, UInt32 *outNumInteractions);
/* A node's interactions: *ioNumInteractions is the room of outInteractions on entry, the count on
   return. */
AT_EXPORT OSStatus AUGraphGetNodeInteractions(AUGraph inGraph, AUNode inNode, UInt32 *ioNumInteractions,
                                              AUNodeInteraction *outInteractions);

/* Applies the edits made since the last update to a running graph: at once with outIsUpdated
   NULL, otherwise as soon as it can, *outIsUpdated saying whether all were applied. */
AT_EXPORT OSStatus AUGraphUpdate(AUGraph inGraph, Boolean *_Nullable outIsUpdated);

/* Opens the nodes' audio units. */
AT_EXPORT OSStatus AUGraphOpen(AUGraph inGraph);
/* Closes them, keeping the nodes. */
AT_EXPORT OSStatus AUGraphClose(AUGraph inGraph);
/* Initializes the audio units (AudioUnitInitialize) of an open graph. */
AT_EXPORT OSStatus AUGraphInitialize(AUGraph inGraph);
/* Uninitializes them. */
AT_EXPORT OSStatus AUGraphUninitialize(AUGraph inGraph);
/* Starts the graph's output unit (AudioOutputUnitStart). */
AT_EXPORT OSStatus AUGraphStart(AUGraph inGraph);
/* Stops it. */
AT_EXPORT OSStatus AUGraphStop(AUGraph inGraph);
/* Whether the graph is open, initialized, running. */
AT_EXPORT OSStatus AUGraphIsOpen(AUGraph inGraph, Boolean *outIsOpen);
AT_EXPORT OSStatus AUGraphIsInitialized(AUGraph inGraph, Boolean *outIsInitialized);
AT_EXPORT OSStatus AUGraphIsRunning(AUGraph inGraph, Boolean *outIsRunning);

/* The graph's recent average CPU load (0 to 1). */
AT_EXPORT OSStatus AUGraphGetCPULoad(AUGraph inGraph, Float32 *outAverageCPULoad);
/* Its highest CPU load since the last call or start. */
AT_EXPORT OSStatus AUGraphGetMaxCPULoad(AUGraph inGraph, Float32 *outMaxLoad);
/* Calls inCallback before and after each render of the graph. */
AT_EXPORT OSStatus AUGraphAddRenderNotify(AUGraph inGraph, AURenderCallback inCallback, void *_Nullable inRefCon);
/* Removes the notification added with the same callback and reference. */
AT_EXPORT OSStatus AUGraphRemoveRenderNotify(AUGraph inGraph, AURenderCallback inCallback, void *_Nullable inRefCon);

AT_ASSUME_NONNULL_END
AT_EXTERN_C_END

#endif /* AudioToolbox_AUGraph_h */
