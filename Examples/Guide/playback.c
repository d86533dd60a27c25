/*
 * playback.c — the "Playing Audio" chapter of Apple's "Audio Queue Services Programming Guide"
 * (Listings 3-1 to 3-18) assembled into one program:
 *
 *     playback FILE [GAIN]
 *
 * plays FILE through an output audio queue on the default output device and returns when it
 * has played. GAIN (0 to 1, default 1) is the "optionally, allow user to override gain
 * setting here" of Listing 3-16. The device is chosen as the library chooses it: the sound
 * server, else ALSA; AUDIOQUEUE_BACKEND=file AUDIOQUEUE_DEVICE=out.wav plays into a 32-bit
 * float WAVE file instead.
 *
 * The listings are kept as the guide prints them. Every change is marked "Change:" and listed
 * in Examples/Guide/README.md. Like the guide's code, most calls go unchecked; the few checks
 * that were added (so that a file that cannot be played ends the program with a message
 * rather than a wait) are marked "Added:".
 *
 * The same source compiles as C (C11) and as C++.
 *
 *     cc Examples/Guide/playback.c $(Scripts/audiotoolbox-config --cflags --libs) -o playback
 */
#include <AudioToolbox/AudioToolbox.h>

/* Listing 3-1  A custom structure for a playback audio queue */
/* Change: the guide's `static const int kNumberBuffers = 3;` is C++; in C a const int is not
   a constant expression and cannot size the array in the structure, so it is an enumerator
   here (the same value in both languages). */
enum { kNumberBuffers = 3 };                                      // 1
struct AQPlayerState {
    AudioStreamBasicDescription   mDataFormat;                    // 2
    AudioQueueRef                 mQueue;                         // 3
    AudioQueueBufferRef           mBuffers[kNumberBuffers];       // 4
    AudioFileID                   mAudioFile;                     // 5
    UInt32                        bufferByteSize;                 // 6
    SInt64                        mCurrentPacket;                 // 7
    UInt32                        mNumPacketsToRead;              // 8
    AudioStreamPacketDescription  *mPacketDescs;                  // 9
    bool                          mIsRunning;                     // 10
};
/* Change: C needs the typedef to write `AQPlayerState` without `struct` (C++ does not). */
typedef struct AQPlayerState AQPlayerState;

/* Listing 3-6  A playback audio queue callback function (Listings 3-2 to 3-5 are its parts) */
static void HandleOutputBuffer (
    void                *aqData,
    AudioQueueRef       inAQ,
    AudioQueueBufferRef inBuffer
) {
    (void) inAQ; /* Change: unused, as in the guide (which uses pAqData->mQueue); silences -Wextra. */
    AQPlayerState *pAqData = (AQPlayerState *) aqData;        // 1
    if (pAqData->mIsRunning == 0) return;                     // 2
    UInt32 numBytesReadFromFile;                              // 3
    UInt32 numPackets = pAqData->mNumPacketsToRead;           // 4
    AudioFileReadPackets (
        pAqData->mAudioFile,
        false,
        &numBytesReadFromFile,
        pAqData->mPacketDescs,
        pAqData->mCurrentPacket,
        &numPackets,
        inBuffer->mAudioData
    );
    if (numPackets > 0) {                                     // 5
        inBuffer->mAudioDataByteSize = numBytesReadFromFile;  // 6
       AudioQueueEnqueueBuffer (
            pAqData->mQueue,
            inBuffer,
            (pAqData->mPacketDescs ? numPackets : 0),
            pAqData->mPacketDescs
        );
        pAqData->mCurrentPacket += numPackets;                // 7
    } else {
        AudioQueueStop (
            pAqData->mQueue,
            false
        );
        pAqData->mIsRunning = false;
    }
}

/* Listing 3-7  Deriving a playback audio queue buffer size */
/* Change: the guide's first parameter, `AudioStreamBasicDescription &ASBDesc`, is a C++
   reference; it is a pointer here (in both languages), and the body reads *ASBDesc. */
/* Change: the two bounds are `static const UInt32` instead of `static const int`, so that
   comparing them with the UInt32 sizes compiles without a signed/unsigned warning in C
   (the values are the guide's). */
static void DeriveBufferSize (
    const AudioStreamBasicDescription *ASBDesc,                      // 1
    UInt32                      maxPacketSize,                       // 2
    Float64                     seconds,                             // 3
    UInt32                      *outBufferSize,                      // 4
    UInt32                      *outNumPacketsToRead                 // 5
) {
    static const UInt32 maxBufferSize = 0x50000;                     // 6
    static const UInt32 minBufferSize = 0x4000;                      // 7

    if (ASBDesc->mFramesPerPacket != 0) {                            // 8
        Float64 numPacketsForTime =
            ASBDesc->mSampleRate / ASBDesc->mFramesPerPacket * seconds;
        *outBufferSize = numPacketsForTime * maxPacketSize;
    } else {                                                         // 9
        *outBufferSize =
            maxBufferSize > maxPacketSize ?
                maxBufferSize : maxPacketSize;
    }

    if (                                                             // 10
        *outBufferSize > maxBufferSize &&
        *outBufferSize > maxPacketSize
    )
        *outBufferSize = maxBufferSize;
    else {                                                           // 11
        if (*outBufferSize < minBufferSize)
            *outBufferSize = minBufferSize;
    }

    *outNumPacketsToRead = *outBufferSize / maxPacketSize;           // 12
}

int main (int argc, char *argv[]) {
    /* Change (added): the command line. The guide leaves filePath and the gain to the
       application ("in production code, you would typically obtain a value for filePath
       from the user"). */
    if (argc < 2 || argc > 3) {
        fprintf (stderr, "usage: %s FILE [GAIN]\n", argv[0]);
        return 2;
    }
    const char *filePath = argv[1];

    /* Listing 3-8  Obtaining a CFURL object for an audio file */
    CFURLRef audioFileURL =
        CFURLCreateFromFileSystemRepresentation (           // 1
            NULL,                                           // 2
            (const UInt8 *) filePath,                       // 3
            strlen (filePath),                              // 4
            false                                           // 5
        );

    /* Listing 3-9  Opening an audio file for playback */
    AQPlayerState aqData;                                   // 1
    /* Change: the structure is zeroed; the guide leaves it uninitialized until each field is
       set (harmless in the guide's order, but a field read early holds garbage). */
    memset (&aqData, 0, sizeof (aqData));

    /* Change: `(AudioFilePermissions) fsRdPerm` for the guide's `fsRdPerm`. The guide was
       written when the parameter was an SInt8; it is now the enumeration AudioFilePermissions
       (in Apple's header as in this one), and C++ does not convert the File Manager's
       constant, an enumerator of another enumeration, to it. */
    OSStatus result =
        AudioFileOpenURL (                                  // 2
            audioFileURL,                                   // 3
            (AudioFilePermissions) fsRdPerm,                // 4
            0,                                              // 5
            &aqData.mAudioFile                              // 6
        );

    CFRelease (audioFileURL);                               // 7

    /* Added: a file that does not open ends the program. */
    if (result != noErr) {
        fprintf (stderr, "%s: AudioFileOpenURL failed: %d\n", filePath, (int) result);
        return 1;
    }

    /* Listing 3-10  Obtaining a file's audio data format */
    UInt32 dataFormatSize = sizeof (aqData.mDataFormat);    // 1

    /* Added: `result =` and the check after the call. */
    result = AudioFileGetProperty (                         // 2
        aqData.mAudioFile,                                  // 3
        kAudioFilePropertyDataFormat,                       // 4
        &dataFormatSize,                                    // 5
        &aqData.mDataFormat                                 // 6
    );
    if (result != noErr) {
        fprintf (stderr, "%s: kAudioFilePropertyDataFormat: %d\n", filePath, (int) result);
        return 1;
    }

    /* Listing 3-11  Creating a playback audio queue */
    /* Added: `result =` and the check after the call (an unsupported format or no output
       device ends the program). */
    result = AudioQueueNewOutput (                          // 1
        &aqData.mDataFormat,                                // 2
        HandleOutputBuffer,                                 // 3
        &aqData,                                            // 4
        CFRunLoopGetCurrent (),                             // 5
        kCFRunLoopCommonModes,                              // 6
        0,                                                  // 7
        &aqData.mQueue                                      // 8
    );
    if (result != noErr) {
        fprintf (stderr, "%s: AudioQueueNewOutput failed: %d\n", filePath, (int) result);
        return 1;
    }

    /* Listing 3-12  Setting playback audio queue buffer size and number of packets to read */
    UInt32 maxPacketSize;
    UInt32 propertySize = sizeof (maxPacketSize);
    AudioFileGetProperty (                               // 1
        aqData.mAudioFile,                               // 2
        kAudioFilePropertyPacketSizeUpperBound,          // 3
        &propertySize,                                   // 4
        &maxPacketSize                                   // 5
    );

    DeriveBufferSize (                                   // 6
        &aqData.mDataFormat,                             // 7  Change: a pointer (see DeriveBufferSize)
        maxPacketSize,                                   // 8
        0.5,                                             // 9
        &aqData.bufferByteSize,                          // 10
        &aqData.mNumPacketsToRead                        // 11
    );

    /* Listing 3-13  Allocating memory for a packet descriptions array */
    bool isFormatVBR = (                                       // 1
        aqData.mDataFormat.mBytesPerPacket == 0 ||
        aqData.mDataFormat.mFramesPerPacket == 0
    );

    if (isFormatVBR) {                                         // 2
        aqData.mPacketDescs =
          (AudioStreamPacketDescription*) malloc (
            aqData.mNumPacketsToRead * sizeof (AudioStreamPacketDescription)
          );
    } else {                                                   // 3
        aqData.mPacketDescs = NULL;
    }

    /* Listing 3-14  Setting a magic cookie for a playback audio queue */
    UInt32 cookieSize = sizeof (UInt32);                   // 1
    bool couldNotGetProperty =                             // 2
        AudioFileGetPropertyInfo (                         // 3
            aqData.mAudioFile,                             // 4
            kAudioFilePropertyMagicCookieData,             // 5
            &cookieSize,                                   // 6
            NULL                                           // 7
        );

    if (!couldNotGetProperty && cookieSize) {              // 8
        char* magicCookie =
            (char *) malloc (cookieSize);

        AudioFileGetProperty (                             // 9
            aqData.mAudioFile,                             // 10
            kAudioFilePropertyMagicCookieData,             // 11
            &cookieSize,                                   // 12
            magicCookie                                    // 13
        );

        AudioQueueSetProperty (                            // 14
            aqData.mQueue,                                 // 15
            kAudioQueueProperty_MagicCookie,               // 16
            magicCookie,                                   // 17
            cookieSize                                     // 18
        );

        free (magicCookie);                                // 19
    }

    /* Change (erratum): Listing 3-17 sets mIsRunning only after this priming loop, so the
       callback called here returns at its step 2 (`if (pAqData->mIsRunning == 0) return;`)
       and enqueues nothing: the queue would start with no buffers, and the program would
       wait for ever for a callback that never comes. The flag is set before priming, as
       Apple's own aqplay does. */
    aqData.mIsRunning = true;

    /* Listing 3-15  Allocating and priming audio queue buffers for playback */
    aqData.mCurrentPacket = 0;                                // 1

    for (int i = 0; i < kNumberBuffers; ++i) {                // 2
        AudioQueueAllocateBuffer (                            // 3
            aqData.mQueue,                                    // 4
            aqData.bufferByteSize,                            // 5
            &aqData.mBuffers[i]                               // 6
        );

        HandleOutputBuffer (                                  // 7
            &aqData,                                          // 8
            aqData.mQueue,                                    // 9
            aqData.mBuffers[i]                                // 10
        );
    }

    /* Listing 3-16  Setting an audio queue's playback gain */
    Float32 gain = 1.0;                                       // 1
        // Optionally, allow user to override gain setting here
    if (argc > 2) gain = (Float32) atof (argv[2]);            /* Added: the override. */
    AudioQueueSetParameter (                                  // 2
        aqData.mQueue,                                        // 3
        kAudioQueueParam_Volume,                              // 4
        gain                                                  // 5
    );

    /* Listing 3-17  Starting and running an audio queue */
    /* Change: `aqData.mIsRunning = true;` (step 1) moved before the priming loop (see there).
       Left here it would also undo the stop the priming calls make for a file shorter than
       the buffers (the callback reads 0 packets, stops the queue and clears the flag). */

    /* Added: `result =` and the check after the call. */
    result = AudioQueueStart (                         // 2
        aqData.mQueue,                                 // 3
        NULL                                           // 4
    );
    if (result != noErr) {
        fprintf (stderr, "%s: AudioQueueStart failed: %d\n", filePath, (int) result);
        return 1;
    }

    do {                                               // 5
        CFRunLoopRunInMode (                           // 6
            kCFRunLoopDefaultMode,                     // 7
            0.25,                                      // 8
            false                                      // 9
        );
    } while (aqData.mIsRunning);

    CFRunLoopRunInMode (                               // 10
        kCFRunLoopDefaultMode,
        1,
        false
    );

    /* Change (erratum): step 10's one second is not always "a bit longer". The callback that
       finds the end of the file runs when the first of the buffers still enqueued finishes,
       so up to kNumberBuffers - 1 buffers of 0.5 s (plus the device's own latency) are still
       to play when mIsRunning turns false; disposing of the queue after one second would cut
       them off. The run loop keeps running until the queue says it has stopped
       (kAudioQueueProperty_IsRunning turns 0 once an asynchronous stop has played
       everything). */
    for (;;) {
        UInt32 isRunning = 0;
        UInt32 size = sizeof (isRunning);
        if (AudioQueueGetProperty (aqData.mQueue, kAudioQueueProperty_IsRunning, &isRunning, &size) != noErr
            || !isRunning)
            break;
        CFRunLoopRunInMode (kCFRunLoopDefaultMode, 0.05, false);
    }

    /* Listing 3-18  Cleaning up after playing an audio file */
    AudioQueueDispose (                            // 1
        aqData.mQueue,                             // 2
        true                                       // 3
    );

    AudioFileClose (aqData.mAudioFile);            // 4

    free (aqData.mPacketDescs);                    // 5

    return 0;
}
