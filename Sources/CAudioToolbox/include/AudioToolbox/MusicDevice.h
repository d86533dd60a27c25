/*
 * MusicDevice.h — the types and constants of Apple's music device (instrument) units:
 * MusicDeviceInstrumentID, MusicDeviceGroupID, NoteInstanceID, the note parameter structures, the
 * music device properties and the selectors of their methods. The functions
 * (MusicDeviceMIDIEvent, MusicDeviceStartNote, …) are not declared: a program that calls them
 * fails to compile rather than to link.
 *
 * swift-audio-queue. Apache License 2.0.
 */
#ifndef AudioToolbox_MusicDevice_h
#define AudioToolbox_MusicDevice_h

#include <AudioToolbox/AUComponent.h>

AT_EXTERN_C_BEGIN

typedef UInt32 MusicDeviceInstrumentID;
typedef UInt32 MusicDeviceGroupID;
typedef UInt32 NoteInstanceID;
typedef AudioComponentInstance MusicDeviceComponent;

typedef struct MusicDeviceStdNoteParams {
    UInt32 argCount;
    Float32 mPitch;
    Float32 mVelocity;
} MusicDeviceStdNoteParams;

typedef struct NoteParamsControlValue {
    AudioUnitParameterID mID;
    AudioUnitParameterValue mValue;
} NoteParamsControlValue;

typedef struct MusicDeviceNoteParams {
    UInt32 argCount;
    Float32 mPitch;
    Float32 mVelocity;
    NoteParamsControlValue mControls[1];
} MusicDeviceNoteParams;

CF_ENUM(UInt32) {
    kMusicNoteEvent_UseGroupInstrument = 0xFFFFFFFF,
    kMusicNoteEvent_Unused = 0xFFFFFFFF,
};

/* Music device properties. */
CF_ENUM(AudioUnitPropertyID) {
    kMusicDeviceProperty_InstrumentCount = 1000,
    kMusicDeviceProperty_InstrumentName = 1001,
    kMusicDeviceProperty_GroupOutputBus = 1002,
    kMusicDeviceProperty_SoundBankFSSpec = 1003,
    kMusicDeviceProperty_InstrumentNumber = 1004,
    kMusicDeviceProperty_MIDIXMLNames = 1006,
    kMusicDeviceProperty_BankName = 1007,
    kMusicDeviceProperty_SoundBankData = 1008,
    kMusicDeviceProperty_PartGroup = 1010,
    kMusicDeviceProperty_StreamFromDisk = 1011,
    kMusicDeviceProperty_SoundBankFSRef = 1012,
    kMusicDeviceProperty_SoundBankURL = 1100,
};

/* Selectors of the music device methods. */
enum {
    kMusicDeviceRange = 0x0100,
    kMusicDeviceMIDIEventSelect = 0x0101,
    kMusicDeviceSysExSelect = 0x0102,
    kMusicDevicePrepareInstrumentSelect = 0x0103,
    kMusicDeviceReleaseInstrumentSelect = 0x0104,
    kMusicDeviceStartNoteSelect = 0x0105,
    kMusicDeviceStopNoteSelect = 0x0106,
    kMusicDeviceMIDIEventListSelect = 0x0107,
};

typedef OSStatus (*MusicDeviceMIDIEventProc)(void *self, UInt32 inStatus, UInt32 inData1, UInt32 inData2, UInt32 inOffsetSampleFrame);
typedef OSStatus (*MusicDeviceSysExProc)(void *self, const UInt8 *inData, UInt32 inLength);
typedef OSStatus (*MusicDeviceStartNoteProc)(void *self, MusicDeviceInstrumentID inInstrument, MusicDeviceGroupID inGroupID,
                                             NoteInstanceID *outNoteInstanceID, UInt32 inOffsetSampleFrame,
                                             const MusicDeviceNoteParams *inParams);
typedef OSStatus (*MusicDeviceStopNoteProc)(void *self, MusicDeviceGroupID inGroupID, NoteInstanceID inNoteInstanceID,
                                            UInt32 inOffsetSampleFrame);

AT_EXTERN_C_END

#endif /* AudioToolbox_MusicDevice_h */
