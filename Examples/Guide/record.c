/*
 * record.c — the "Recording Audio" chapter of Apple's "Audio Queue Services Programming Guide"
 * (its listings, numbered 2.1 to 2.15 in the Chinese edition of the guide) assembled into one
 * program:
 *
 *     record FILE SECONDS
 *
 * records SECONDS of 44.1 kHz stereo 16-bit big-endian linear PCM from the default input
 * device into the AIFF file FILE. The input device is chosen as the library chooses it: the
 * sound server's default source, else ALSA; AUDIOQUEUE_INPUT_DEVICE names another (with
 * PulseAudio, a source name such as a sink's monitor).
 *
 * The listings are kept as the guide prints them. Every change is marked "Change:" and listed
 * in Examples/Guide/README.md; the few checks added so that a failure ends the program with a
 * message are marked "Added:".
 *
 *     cc Examples/Guide/record.c $(Scripts/audiotoolbox-config --cflags --libs) -o record
 */
/* Added: nanosleep (for the timed recording, see 2.14) is POSIX. */
#define _POSIX_C_SOURCE 200809L
#include <time.h>
#include <AudioToolbox/AudioToolbox.h>

/* 2.1  A custom structure for a recording audio queue */
/* Change: the guide's `static const int kNumberBuffers = 3;` is C++; in C a const int cannot
   size the array in the structure, so it is an enumerator (the same value). */
enum { kNumberBuffers = 3 };                                      // 1
struct AQRecorderState {
    AudioStreamBasicDescription  mDataFormat;                     // 2
    AudioQueueRef                mQueue;                          // 3
    AudioQueueBufferRef          mBuffers[kNumberBuffers];        // 4
    AudioFileID                  mAudioFile;                      // 5
    UInt32                       bufferByteSize;                  // 6
    SInt64                       mCurrentPacket;                  // 7
    bool                         mIsRunning;                      // 8
};
/* Change: C needs the typedef to write `AQRecorderState` without `struct`. */
typedef struct AQRecorderState AQRecorderState;

/* 2.5  A recording audio queue callback function (2.2 to 2.4 are its parts) */
static void HandleInputBuffer (
    void                                *aqData,
    AudioQueueRef                       inAQ,
    AudioQueueBufferRef                 inBuffer,
    const AudioTimeStamp                *inStartTime,
    UInt32                              inNumPackets,
    const AudioStreamPacketDescription  *inPacketDesc
) {
    /* Change: unused, as in the guide; silences -Wextra. */
    (void) inAQ;
    (void) inStartTime;
    AQRecorderState *pAqData = (AQRecorderState *) aqData;               // 1

    if (inNumPackets == 0 &&                                             // 2
          pAqData->mDataFormat.mBytesPerPacket != 0)
        inNumPackets =
            inBuffer->mAudioDataByteSize / pAqData->mDataFormat.mBytesPerPacket;

    if (AudioFileWritePackets (                                          // 3
            pAqData->mAudioFile,
            false,
            inBuffer->mAudioDataByteSize,
            inPacketDesc,
            pAqData->mCurrentPacket,
            &inNumPackets,
            inBuffer->mAudioData
        ) == noErr) {
            pAqData->mCurrentPacket += inNumPackets;                     // 4
    }
    if (pAqData->mIsRunning == 0)                                        // 5
        return;

    AudioQueueEnqueueBuffer (                                            // 6
        pAqData->mQueue,
        inBuffer,
        0,
        NULL
    );
}

/* 2.6  Deriving a recording audio queue buffer size */
/* Change: the guide's second parameter, `AudioStreamBasicDescription &ASBDescription`, is a
   C++ reference; it is a pointer here and the body reads ASBDescription->. */
/* Change: the guide's `UInt32 (...)` at step 9 is a C++ functional cast; `(UInt32) (...)`
   here. */
/* Erratum (kept): step 8 multiplies the sample rate by the packet size, which is the number
   of bytes per second only when a packet holds one frame (linear PCM, as recorded here). For
   a compressed format it should be divided by mFramesPerPacket. */
static void DeriveBufferSize (
    AudioQueueRef                      audioQueue,                  // 1
    const AudioStreamBasicDescription  *ASBDescription,             // 2
    Float64                            seconds,                     // 3
    UInt32                             *outBufferSize               // 4
) {
    static const int maxBufferSize = 0x50000;                       // 5

    int maxPacketSize = ASBDescription->mBytesPerPacket;            // 6
    if (maxPacketSize == 0) {                                       // 7
        UInt32 maxVBRPacketSize = sizeof(maxPacketSize);
        AudioQueueGetProperty (
                audioQueue,
                kAudioQueueProperty_MaximumOutputPacketSize,
                // in Mac OS X v10.5, instead use
                //   kAudioConverterPropertyMaximumOutputPacketSize
                &maxPacketSize,
                &maxVBRPacketSize
        );
    }

    Float64 numBytesForTime =
        ASBDescription->mSampleRate * maxPacketSize * seconds;      // 8
    *outBufferSize =
        (UInt32) (numBytesForTime < maxBufferSize ?
        numBytesForTime : maxBufferSize);                           // 9
}

/* 2.7  Setting a magic cookie for an audio file */
static OSStatus SetMagicCookieForFile (
    AudioQueueRef inQueue,                                        // 1
    AudioFileID   inFile                                          // 2
) {
    OSStatus result = noErr;                                      // 3
    UInt32 cookieSize;                                            // 4

    if (
            AudioQueueGetPropertySize (                           // 5
                inQueue,
                kAudioQueueProperty_MagicCookie,
                &cookieSize
            ) == noErr
    ) {
        char* magicCookie =
            (char *) malloc (cookieSize);                         // 6
        if (
                AudioQueueGetProperty (                           // 7
                    inQueue,
                    kAudioQueueProperty_MagicCookie,
                    magicCookie,
                    &cookieSize
                ) == noErr
        )
            result =    AudioFileSetProperty (                    // 8
                            inFile,
                            kAudioFilePropertyMagicCookieData,
                            cookieSize,
                            magicCookie
                        );
        free (magicCookie);                                       // 9
    }
    return result;                                                // 10
}

int main (int argc, char *argv[]) {
    /* Change (added): the command line. The guide leaves the path to the application and
       records until the user stops (see 2.14). */
    if (argc != 3 || atof (argv[2]) <= 0) {
        fprintf (stderr, "usage: %s FILE SECONDS\n", argv[0]);
        return 2;
    }
    const char *filePath = argv[1];
    double seconds = atof (argv[2]);

    /* 2.8  Specifying an audio queue's audio data format */
    AQRecorderState aqData;                                       // 1
    /* Change: the structure is zeroed; the guide leaves the fields it does not set
       (mReserved among them) uninitialized. */
    memset (&aqData, 0, sizeof (aqData));

    aqData.mDataFormat.mFormatID         = kAudioFormatLinearPCM; // 2
    /* Change (note): the guide's 44.1 kHz is kept. Apple's sample code asks the Mac's audio
       hardware (the HAL: kAudioHardwarePropertyDefaultInputDevice, then the device's
       kAudioDevicePropertyNominalSampleRate) or the iOS audio session for the hardware rate,
       which has no counterpart here. The sound server converts from the device's rate; the
       rate the queue's device runs at is printed below from kAudioQueueDeviceProperty_SampleRate
       once the queue has started. */
    aqData.mDataFormat.mSampleRate       = 44100.0;               // 3
    aqData.mDataFormat.mChannelsPerFrame = 2;                     // 4
    aqData.mDataFormat.mBitsPerChannel   = 16;                    // 5
    aqData.mDataFormat.mBytesPerPacket   =                        // 6
       aqData.mDataFormat.mBytesPerFrame =
          aqData.mDataFormat.mChannelsPerFrame * sizeof (SInt16);
    aqData.mDataFormat.mFramesPerPacket  = 1;                     // 7

    AudioFileTypeID fileType             = kAudioFileAIFFType;    // 8
    aqData.mDataFormat.mFormatFlags =                             // 9
        kLinearPCMFormatFlagIsBigEndian
        | kLinearPCMFormatFlagIsSignedInteger
        | kLinearPCMFormatFlagIsPacked;

    /* 2.9  Creating a recording audio queue */
    /* Added: `OSStatus result =` and the check after the call (no input device, say). */
    OSStatus result = AudioQueueNewInput (                        // 1
        &aqData.mDataFormat,                                      // 2
        HandleInputBuffer,                                        // 3
        &aqData,                                                  // 4
        NULL,                                                     // 5
        kCFRunLoopCommonModes,                                    // 6
        0,                                                        // 7
        &aqData.mQueue                                            // 8
    );
    if (result != noErr) {
        fprintf (stderr, "AudioQueueNewInput failed: %d\n", (int) result);
        return 1;
    }

    /* 2.10  Getting the full audio format from an audio queue */
    UInt32 dataFormatSize = sizeof (aqData.mDataFormat);          // 1

    AudioQueueGetProperty (                                       // 2
        aqData.mQueue,                                            // 3
        kAudioQueueProperty_StreamDescription,                    // 4
        // in Mac OS X, instead use
        //    kAudioConverterCurrentInputStreamDescription
        &aqData.mDataFormat,                                      // 5
        &dataFormatSize                                           // 6
    );

    /* 2.11  Creating an audio file */
    CFURLRef audioFileURL =
        CFURLCreateFromFileSystemRepresentation (                 // 1
            NULL,                                                 // 2
            (const UInt8 *) filePath,                             // 3
            strlen (filePath),                                    // 4
            false                                                 // 5
        );

    /* Added: `result =` and the check after the call. */
    result = AudioFileCreateWithURL (                             // 6
        audioFileURL,                                             // 7
        fileType,                                                 // 8
        &aqData.mDataFormat,                                      // 9
        kAudioFileFlags_EraseFile,                                // 10
        &aqData.mAudioFile                                        // 11
    );
    /* Change: the guide never releases the URL it created. */
    CFRelease (audioFileURL);
    if (result != noErr) {
        fprintf (stderr, "%s: AudioFileCreateWithURL failed: %d\n", filePath, (int) result);
        return 1;
    }

    /* 2.12  Setting an audio queue buffer size */
    DeriveBufferSize (                                            // 1
        aqData.mQueue,                                            // 2
        &aqData.mDataFormat,                                      // 3  Change: a pointer (see DeriveBufferSize)
        0.5,                                                      // 4
        &aqData.bufferByteSize                                    // 5
    );

    /* 2.13  Preparing a set of audio queue buffers */
    for (int i = 0; i < kNumberBuffers; ++i) {                    // 1
        AudioQueueAllocateBuffer (                                // 2
            aqData.mQueue,                                        // 3
            aqData.bufferByteSize,                                // 4
            &aqData.mBuffers[i]                                   // 5
        );

        AudioQueueEnqueueBuffer (                                 // 6
            aqData.mQueue,                                        // 7
            aqData.mBuffers[i],                                   // 8
            0,                                                    // 9
            NULL                                                  // 10
        );
    }

    /* 2.7, as the guide says to use it: "before recording" (and again after stopping,
       below), for the encoders that have a magic cookie. Linear PCM has none. */
    SetMagicCookieForFile (aqData.mQueue, aqData.mAudioFile);

    /* 2.14  Recording audio */
    aqData.mCurrentPacket = 0;                                    // 1
    aqData.mIsRunning = true;                                     // 2

    /* Added: `result =` and the check after the call. */
    result = AudioQueueStart (                                    // 3
        aqData.mQueue,                                            // 4
        NULL                                                      // 5
    );
    if (result != noErr) {
        fprintf (stderr, "AudioQueueStart failed: %d\n", (int) result);
        return 1;
    }

    // Wait, on user interface thread, until user stops the recording
    /* Change: there is no user interface; the program records for the SECONDS given on the
       command line (this thread sleeps meanwhile; the callbacks run on the queue's own thread,
       as 2.9 passes NULL for the run loop). */
    struct timespec wait;
    wait.tv_sec = (time_t) seconds;
    wait.tv_nsec = (long) ((seconds - (double) wait.tv_sec) * 1e9);
    while (nanosleep (&wait, &wait) != 0) { }

    /* Added: report the rate the queue's device runs at (see 2.8, step 3). */
    Float64 deviceRate = 0;
    UInt32 deviceRateSize = sizeof (deviceRate);
    if (AudioQueueGetProperty (aqData.mQueue, kAudioQueueDeviceProperty_SampleRate, &deviceRate, &deviceRateSize) == noErr)
        printf ("device sample rate: %.0f Hz\n", deviceRate);

    /* Change: the guide stops synchronously (true, step 8). An immediate stop ends the
       recording at once and discards what the device has recorded but not yet handed over:
       a sound server hands audio on in fragments (here up to 50 ms), so a 2-second recording
       came out 55 ms short. The stop is asynchronous (false) instead: everything recorded up
       to the call still comes back through the callback, which writes it and, while
       mIsRunning is true, enqueues the buffer again; then the queue stops. The program waits
       for that (kAudioQueueProperty_IsRunning turns 0) before step 9. */
    AudioQueueStop (                                              // 6
        aqData.mQueue,                                            // 7
        false                                                     // 8  Change: see above
    );
    for (;;) {
        UInt32 isRunning = 0;
        UInt32 size = sizeof (isRunning);
        if (AudioQueueGetProperty (aqData.mQueue, kAudioQueueProperty_IsRunning, &isRunning, &size) != noErr
            || !isRunning)
            break;
        struct timespec poll = { 0, 10000000 };
        nanosleep (&poll, NULL);
    }

    aqData.mIsRunning = false;                                    // 9

    /* 2.7 again, after stopping: some encoders update their magic cookie at the end. */
    SetMagicCookieForFile (aqData.mQueue, aqData.mAudioFile);

    /* 2.15  Cleaning up after recording */
    AudioQueueDispose (                                           // 1
        aqData.mQueue,                                            // 2
        true                                                      // 3
    );

    /* Added: `result =`, the check after the call, and the report of what was recorded. */
    result = AudioFileClose (aqData.mAudioFile);                  // 4
    if (result != noErr) {
        fprintf (stderr, "%s: AudioFileClose failed: %d\n", filePath, (int) result);
        return 1;
    }
    printf ("recorded %lld packets\n", (long long) aqData.mCurrentPacket);

    return 0;
}
