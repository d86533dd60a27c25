/*
 * abi_check_ioproc.h — the IOProc part of <CoreAudio/AudioHardware.h> (included by abi_check.c):
 * the IOProc types' widths and the start-time flags, as Apple's SDK headers (MacOSX12.3.sdk)
 * give them. The IOProc's parameter types are checked by assigning a function of Apple's
 * signature to an AudioDeviceIOProc (a mismatch is an error under -Werror).
 *
 * swift-audio-queue. Apache License 2.0.
 */

static OSStatus abiIOProc(AudioObjectID inDevice, const AudioTimeStamp *inNow, const AudioBufferList *inInputData,
                          const AudioTimeStamp *inInputTime, AudioBufferList *outOutputData, const AudioTimeStamp *inOutputTime,
                          void *inClientData) {
    (void)inDevice; (void)inNow; (void)inInputData; (void)inInputTime; (void)outOutputData; (void)inOutputTime; (void)inClientData;
    return 0;
}

static void checkIOProcs(void) {
    AudioDeviceIOProc proc = abiIOProc;
    AudioDeviceIOProcID procID = proc;
    (void)procID;
    WIDTH(AudioDeviceIOProc, 8);
    WIDTH(AudioDeviceIOProcID, 8);
    CONST_U32(kAudioDeviceStartTimeIsInputFlag, 1);
    CONST_U32(kAudioDeviceStartTimeDontConsultDeviceFlag, 2);
    CONST_U32(kAudioDeviceStartTimeDontConsultHALFlag, 4);
}
