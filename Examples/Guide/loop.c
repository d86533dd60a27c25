/*
 * loop.c — Apple's Technical Q&A QA1636, "Audio Queue - Looping Compressed Audio", as a
 * program:
 *
 *     loop FILE LOOPS [OUT.wav]
 *
 * plays FILE LOOPS times back to back without a gap: every packet is enqueued with
 * AudioQueueEnqueueBufferWithParameters, the priming frames of the file's packet table
 * (kAudioFilePropertyPacketTableInfo) trimmed from the start of each pass and its remainder
 * frames from the end, and the packet index reset to 0 at the end of the file.
 *
 * With OUT.wav, the queue renders offline instead (AudioQueueSetOfflineRenderFormat,
 * AudioQueueOfflineRender) and what it renders is written to OUT.wav as 32-bit float WAVE
 * with AudioFileCreateWithURL and AudioFileWritePackets. That part is not in QA1636; it is
 * how the loop can be checked sample by sample.
 *
 * QA1636's listings are kept as it prints them, its C++ class turned into a C structure
 * (THIS->GetCurrentPacket() is THIS->mCurrentPacket and so on). Every change is marked
 * "Change:" and listed in Examples/Guide/README.md; checks that were added are marked
 * "Added:". The set-up around the listings follows the guide's Playing Audio chapter
 * (Examples/Guide/playback.c).
 *
 *     cc Examples/Guide/loop.c $(Scripts/audiotoolbox-config --cflags --libs) -o loop
 */
#include <AudioToolbox/AudioToolbox.h>

/* Change: the state of QA1636's AQLooper class, as a C structure. */
enum { kNumberBuffers = 3 };
typedef struct AQLooper {
    AudioQueueRef       mQueue;
    AudioQueueBufferRef mBuffers[kNumberBuffers];
    AudioFileID         mAudioFileID;
    UInt32              mNumPacketsToRead;
    SInt64              mCurrentPacket;
    UInt64              mAudioFilePacketCount;
    SInt32              mPrimingFrames;
    SInt32              mRemainderFrames;
    bool                mIsDone;
    /* Change (added): QA1636 loops for ever; this program plays LOOPS passes. */
    int                 mLoopsLeft;
} AQLooper;

/* Listing 3  Example Of A Looping Output Callback */
/* Change: `void AQLooper::AQBufferCallback(...)`, a static member function, is a plain C
   function; `THIS->GetAudioFileID()`, `THIS->GetNumPacketsToRead()` and
   `THIS->GetCurrentPacket()` read the structure's fields. */
static void AQBufferCallback(void *inUserData, AudioQueueRef inAQ, AudioQueueBufferRef inCompleteAQBuffer)
{
    AQLooper *THIS = (AQLooper *)inUserData;

    if (THIS->mIsDone) return;

    UInt32 numBytes;
    UInt32 nPackets = THIS->mNumPacketsToRead; // generally enough for a half second of audio based on the
                                               // format -- see CalculateBytesForTime() from aqplay.cpp
                                               // (here: the guide's DeriveBufferSize, Listing 3-7)

    OSStatus result = AudioFileReadPackets(THIS->mAudioFileID,
                                           false,
                                           &numBytes,
                                           inCompleteAQBuffer->mPacketDescriptions,
                                           THIS->mCurrentPacket,
                                           &nPackets,
                                           inCompleteAQBuffer->mAudioData);
    if (result) printf("AudioFileReadPackets failed: %d", (int)result);

    if (nPackets > 0) {
        UInt32 trimFramesAtStart = 0;
        UInt32 trimFramesAtEnd = 0;

        inCompleteAQBuffer->mAudioDataByteSize = numBytes;
        inCompleteAQBuffer->mPacketDescriptionCount = nPackets;

        if (THIS->mCurrentPacket == 0) {
            // at the beginning -- need to trim priming frames
            trimFramesAtStart = THIS->mPrimingFrames;
        }

        THIS->mCurrentPacket = (THIS->mCurrentPacket + nPackets);

        /* Change: the cast; mAudioFilePacketCount is a UInt64, the packet index signed. */
        if ((UInt64)THIS->mCurrentPacket == THIS->mAudioFilePacketCount) {
            // at the end -- need to trim remainder frames
            /* Change (erratum): QA1636 assigns `inTrimFramesAtEnd`, which is not declared
               (the parameter of AudioQueueEnqueueBufferWithParameters has that name); the
               variable passed below is trimFramesAtEnd. */
            trimFramesAtEnd = THIS->mRemainderFrames;

            // reset read from the beginning again
            THIS->mCurrentPacket = 0;

            /* Change (added): after the last pass, nothing more is read; the queue plays what
               it has and stops (asynchronously, as the guide's Listing 3-5 stops). */
            if (--THIS->mLoopsLeft == 0)
                THIS->mIsDone = true;
        }

        result = AudioQueueEnqueueBufferWithParameters(inAQ,
                                                       inCompleteAQBuffer,
                                                       0,
                                                       NULL,
                                                       trimFramesAtStart,
                                                       trimFramesAtEnd,
                                                       0, NULL, NULL, NULL);
        if (result) printf("AudioQueueEnqueueBufferWithParameters failed: %d", (int)result);

        /* Change (added): see above. */
        if (THIS->mIsDone)
            AudioQueueStop(inAQ, false);
    } else {
        /* Change (added): QA1636 does nothing when no packet was read (it never happens while
           looping, except on a read error or an empty file); stop rather than wait for ever. */
        THIS->mIsDone = true;
        AudioQueueStop(inAQ, false);
    }
}

/* Listing 3-7 of the guide (see playback.c for the changes). */
static void DeriveBufferSize (
    const AudioStreamBasicDescription *ASBDesc,
    UInt32                      maxPacketSize,
    Float64                     seconds,
    UInt32                      *outBufferSize,
    UInt32                      *outNumPacketsToRead
) {
    static const UInt32 maxBufferSize = 0x50000;
    static const UInt32 minBufferSize = 0x4000;

    if (ASBDesc->mFramesPerPacket != 0) {
        Float64 numPacketsForTime =
            ASBDesc->mSampleRate / ASBDesc->mFramesPerPacket * seconds;
        *outBufferSize = numPacketsForTime * maxPacketSize;
    } else {
        *outBufferSize =
            maxBufferSize > maxPacketSize ?
                maxBufferSize : maxPacketSize;
    }

    if (
        *outBufferSize > maxBufferSize &&
        *outBufferSize > maxPacketSize
    )
        *outBufferSize = maxBufferSize;
    else {
        if (*outBufferSize < minBufferSize)
            *outBufferSize = minBufferSize;
    }

    *outNumPacketsToRead = *outBufferSize / maxPacketSize;
}

/* Not in QA1636: renders the queue offline into a 32-bit float WAVE file (at the file's rate
   and channel count) until the queue has played everything and stopped. */
static int RenderOffline(AQLooper *looper, const AudioStreamBasicDescription *fileFormat, const char *outPath)
{
    AudioStreamBasicDescription floatFormat;
    memset(&floatFormat, 0, sizeof(floatFormat));
    floatFormat.mSampleRate = fileFormat->mSampleRate;
    floatFormat.mFormatID = kAudioFormatLinearPCM;
    floatFormat.mFormatFlags = kAudioFormatFlagIsFloat | kAudioFormatFlagIsPacked;
    floatFormat.mChannelsPerFrame = fileFormat->mChannelsPerFrame;
    floatFormat.mBitsPerChannel = 32;
    floatFormat.mFramesPerPacket = 1;
    floatFormat.mBytesPerFrame = floatFormat.mBytesPerPacket = 4 * floatFormat.mChannelsPerFrame;

    OSStatus result = AudioQueueSetOfflineRenderFormat(looper->mQueue, &floatFormat, NULL);
    if (result) { fprintf(stderr, "AudioQueueSetOfflineRenderFormat failed: %d\n", (int)result); return 1; }

    CFURLRef url = CFURLCreateFromFileSystemRepresentation(NULL, (const UInt8 *)outPath, strlen(outPath), false);
    AudioFileID outFile = NULL;
    result = AudioFileCreateWithURL(url, kAudioFileWAVEType, &floatFormat, kAudioFileFlags_EraseFile, &outFile);
    CFRelease(url);
    if (result) { fprintf(stderr, "%s: AudioFileCreateWithURL failed: %d\n", outPath, (int)result); return 1; }

    // The buffers are primed through the callback before the start, as the guide's Listing 3-15 does.
    for (int i = 0; i < kNumberBuffers; ++i)
        AQBufferCallback(looper, looper->mQueue, looper->mBuffers[i]);
    result = AudioQueueStart(looper->mQueue, NULL);
    if (result) { fprintf(stderr, "AudioQueueStart failed: %d\n", (int)result); return 1; }

    const UInt32 chunkFrames = 4096;
    AudioQueueBufferRef capture = NULL;
    result = AudioQueueAllocateBuffer(looper->mQueue, chunkFrames * floatFormat.mBytesPerFrame, &capture);
    if (result) { fprintf(stderr, "AudioQueueAllocateBuffer failed: %d\n", (int)result); return 1; }

    AudioTimeStamp timeStamp;
    memset(&timeStamp, 0, sizeof(timeStamp));
    timeStamp.mFlags = kAudioTimeStampSampleTimeValid;
    SInt64 written = 0;
    for (;;) {
        timeStamp.mSampleTime = (Float64)written;
        result = AudioQueueOfflineRender(looper->mQueue, &timeStamp, capture, chunkFrames);
        if (result) { fprintf(stderr, "AudioQueueOfflineRender failed: %d\n", (int)result); return 1; }
        UInt32 frames = capture->mAudioDataByteSize / floatFormat.mBytesPerFrame;
        if (frames > 0) {
            UInt32 packets = frames;
            result = AudioFileWritePackets(outFile, false, capture->mAudioDataByteSize, NULL, written, &packets,
                                           capture->mAudioData);
            if (result) { fprintf(stderr, "%s: AudioFileWritePackets failed: %d\n", outPath, (int)result); return 1; }
            written += packets;
        }
        // Fewer frames than asked for: the queue has played everything enqueued and stopped.
        if (frames < chunkFrames) break;
    }
    result = AudioFileClose(outFile);
    if (result) { fprintf(stderr, "%s: AudioFileClose failed: %d\n", outPath, (int)result); return 1; }
    printf("rendered %lld frames\n", (long long)written);
    return 0;
}

int main(int argc, char *argv[])
{
    if (argc < 3 || argc > 4 || atoi(argv[2]) < 1) {
        fprintf(stderr, "usage: %s FILE LOOPS [OUT.wav]\n", argv[0]);
        return 2;
    }
    const char *filePath = argv[1];
    AQLooper looper;
    memset(&looper, 0, sizeof(looper));
    looper.mLoopsLeft = atoi(argv[2]);

    // The guide's Listings 3-8 to 3-10: open the file, get its data format.
    CFURLRef url = CFURLCreateFromFileSystemRepresentation(NULL, (const UInt8 *)filePath, strlen(filePath), false);
    OSStatus result = AudioFileOpenURL(url, kAudioFileReadPermission, 0, &looper.mAudioFileID);
    CFRelease(url);
    if (result) { fprintf(stderr, "%s: AudioFileOpenURL failed: %d\n", filePath, (int)result); return 1; }

    AudioStreamBasicDescription dataFormat;
    UInt32 size = sizeof(dataFormat);
    result = AudioFileGetProperty(looper.mAudioFileID, kAudioFilePropertyDataFormat, &size, &dataFormat);
    if (result) { fprintf(stderr, "%s: kAudioFilePropertyDataFormat: %d\n", filePath, (int)result); return 1; }

    /* Listing 1 */
    /* Change: `myAudioFileID` is looper.mAudioFileID and `myAudioLooper->` is `looper.`. */
    /* Change (added): a file without a packet table (linear PCM, say) has nothing to trim; the
       call fails for it and the frames stay 0. */
    {
        AudioFilePacketTableInfo thePacketTableInfo;

        UInt32 size = sizeof(thePacketTableInfo);
        if (AudioFileGetProperty(looper.mAudioFileID, kAudioFilePropertyPacketTableInfo, &size, &thePacketTableInfo) == noErr) {

            looper.mPrimingFrames = thePacketTableInfo.mPrimingFrames;
            looper.mRemainderFrames = thePacketTableInfo.mRemainderFrames;
        }
    }

    /* Listing 2 */
    /* Change: QA1636 names kAudioFileStreamProperty_AudioDataPacketCount, the Audio File
       Stream Services property; AudioFileGetProperty's own name for it (the same 'pcnt') is
       kAudioFilePropertyAudioDataPacketCount. */
    {
        UInt32 size = sizeof(looper.mAudioFilePacketCount);

        result = AudioFileGetProperty(looper.mAudioFileID, kAudioFilePropertyAudioDataPacketCount,
                                      &size, &looper.mAudioFilePacketCount);
        if (result) { fprintf(stderr, "%s: kAudioFilePropertyAudioDataPacketCount: %d\n", filePath, (int)result); return 1; }
    }

    // The guide's Listing 3-11, but with a run loop only for live playback: offline, the
    // callbacks run inside AudioQueueOfflineRender on this thread either way.
    result = AudioQueueNewOutput(&dataFormat, AQBufferCallback, &looper, CFRunLoopGetCurrent(), kCFRunLoopCommonModes, 0,
                                 &looper.mQueue);
    if (result) { fprintf(stderr, "%s: AudioQueueNewOutput failed: %d\n", filePath, (int)result); return 1; }

    // The guide's Listings 3-12 and 3-14: buffer sizes, magic cookie.
    UInt32 maxPacketSize = 0;
    size = sizeof(maxPacketSize);
    AudioFileGetProperty(looper.mAudioFileID, kAudioFilePropertyPacketSizeUpperBound, &size, &maxPacketSize);
    UInt32 bufferByteSize = 0;
    DeriveBufferSize(&dataFormat, maxPacketSize, 0.5, &bufferByteSize, &looper.mNumPacketsToRead);

    UInt32 cookieSize = 0;
    if (AudioFileGetPropertyInfo(looper.mAudioFileID, kAudioFilePropertyMagicCookieData, &cookieSize, NULL) == noErr
        && cookieSize) {
        char *magicCookie = (char *)malloc(cookieSize);
        AudioFileGetProperty(looper.mAudioFileID, kAudioFilePropertyMagicCookieData, &cookieSize, magicCookie);
        AudioQueueSetProperty(looper.mQueue, kAudioQueueProperty_MagicCookie, magicCookie, cookieSize);
        free(magicCookie);
    }

    // QA1636's callback reads packet descriptions into the buffer's own array
    // (inCompleteAQBuffer->mPacketDescriptions) and enqueues with none passed, so the buffers
    // are allocated with room for them (for variable-size packets), as aqplay.cpp does.
    bool isFormatVBR = dataFormat.mBytesPerPacket == 0 || dataFormat.mFramesPerPacket == 0;
    for (int i = 0; i < kNumberBuffers; ++i) {
        result = AudioQueueAllocateBufferWithPacketDescriptions(looper.mQueue, bufferByteSize,
                                                                isFormatVBR ? looper.mNumPacketsToRead : 0,
                                                                &looper.mBuffers[i]);
        if (result) { fprintf(stderr, "AudioQueueAllocateBufferWithPacketDescriptions failed: %d\n", (int)result); return 1; }
    }

    int status = 0;
    if (argc == 4) {
        status = RenderOffline(&looper, &dataFormat, argv[3]);
    } else {
        // The guide's Listings 3-15 and 3-17: prime, start, run the run loop until the queue
        // has played the last pass and stopped.
        for (int i = 0; i < kNumberBuffers; ++i)
            AQBufferCallback(&looper, looper.mQueue, looper.mBuffers[i]);
        result = AudioQueueStart(looper.mQueue, NULL);
        if (result) { fprintf(stderr, "AudioQueueStart failed: %d\n", (int)result); return 1; }
        for (;;) {
            CFRunLoopRunInMode(kCFRunLoopDefaultMode, 0.25, false);
            UInt32 isRunning = 0;
            size = sizeof(isRunning);
            if (AudioQueueGetProperty(looper.mQueue, kAudioQueueProperty_IsRunning, &isRunning, &size) != noErr
                || (looper.mIsDone && !isRunning))
                break;
        }
    }

    // The guide's Listing 3-18.
    AudioQueueDispose(looper.mQueue, true);
    AudioFileClose(looper.mAudioFileID);
    return status;
}
