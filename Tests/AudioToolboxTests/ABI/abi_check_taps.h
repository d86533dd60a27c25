/*
 * abi_check_taps.h — the processing taps of AudioQueue.h (macOS 10.7+): the flag values, the
 * widths of the types, and the callback's and functions' signatures as Apple declares them
 * (a function of exactly that type must convert to the typedef without a cast; a mismatch is an
 * error in C++ and a warning, made an error by -Werror, in C). Included by abi_check.c.
 *
 * swift-audio-queue. Apache License 2.0.
 */

/* Apple's AudioQueueProcessingTapCallback, parameter for parameter. */
static void abiTapCallback(void *inClientData, AudioQueueProcessingTapRef inAQTap, UInt32 inNumberFrames,
                           AudioTimeStamp *ioTimeStamp, AudioQueueProcessingTapFlags *ioFlags, UInt32 *outNumberFrames,
                           AudioBufferList *ioData) {
    (void)inClientData; (void)inAQTap; (void)inNumberFrames; (void)ioTimeStamp; (void)ioFlags;
    (void)outNumberFrames; (void)ioData;
}

static void checkProcessingTaps(void) {
    WIDTH(AudioQueueProcessingTapRef, 8);
    WIDTH(AudioQueueProcessingTapFlags, 4); /* CF_OPTIONS(UInt32, AudioQueueProcessingTapFlags) */
    WIDTH(AudioQueueProcessingTapCallback, 8);
    CONST_U32(kAudioQueueProcessingTap_PreEffects, 0x01);
    CONST_U32(kAudioQueueProcessingTap_PostEffects, 0x02);
    CONST_U32(kAudioQueueProcessingTap_Siphon, 0x04);
    CONST_U32(kAudioQueueProcessingTap_StartOfStream, 0x100);
    CONST_U32(kAudioQueueProcessingTap_EndOfStream, 0x200);
    CONST_S32(kAudioQueueErr_TooManyTaps, -66670);
    CONST_S32(kAudioQueueErr_InvalidTapContext, -66669);
    CONST_S32(kAudioQueueErr_InvalidTapType, -66667);

    AudioQueueProcessingTapCallback callback = abiTapCallback;
    OSStatus (*tapNew)(AudioQueueRef, AudioQueueProcessingTapCallback, void *, AudioQueueProcessingTapFlags, UInt32 *,
                       AudioStreamBasicDescription *, AudioQueueProcessingTapRef *) = AudioQueueProcessingTapNew;
    OSStatus (*tapDispose)(AudioQueueProcessingTapRef) = AudioQueueProcessingTapDispose;
    OSStatus (*getSource)(AudioQueueProcessingTapRef, UInt32, AudioTimeStamp *, AudioQueueProcessingTapFlags *, UInt32 *,
                          AudioBufferList *) = AudioQueueProcessingTapGetSourceAudio;
    OSStatus (*getQueueTime)(AudioQueueProcessingTapRef, Float64 *, UInt32 *) = AudioQueueProcessingTapGetQueueTime;
    check("AudioQueueProcessingTapCallback and the tap functions have Apple's signatures",
          callback != 0 && tapNew != 0 && tapDispose != 0 && getSource != 0 && getQueueTime != 0, 1);
}
