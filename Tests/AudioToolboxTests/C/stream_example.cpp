// stream_example.cpp — a C++ program written the way Apple's AudioFileStreamExample is: the
// property listener takes `UInt32 *ioFlags` (in C++ AudioFileStreamPropertyFlags is UInt32, as
// CF_OPTIONS makes it on a Mac), bytes are parsed with flags `0` and with
// kAudioFileStreamParseFlag_Discontinuity passed as a UInt32. Streams the file named on the
// command line in 1000-byte pieces; prints the packet count and "ok".
//
// swift-audio-queue. Apache License 2.0.
#include <AudioToolbox/AudioToolbox.h>

struct MyData {
    bool readyToProducePackets;
    bool formatKnown;
    UInt32 packets;
    UInt32 cachedFlagsSeen;
};

static void MyPropertyListenerProc(void *inClientData, AudioFileStreamID inAudioFileStream,
                                   AudioFileStreamPropertyID inPropertyID, UInt32 *ioFlags) {
    MyData *myData = static_cast<MyData *>(inClientData);
    if (*ioFlags & kAudioFileStreamPropertyFlag_PropertyIsCached) myData->cachedFlagsSeen += 1;
    switch (inPropertyID) {
    case kAudioFileStreamProperty_ReadyToProducePackets:
        myData->readyToProducePackets = true;
        break;
    case kAudioFileStreamProperty_DataFormat: {
        AudioStreamBasicDescription asbd;
        UInt32 asbdSize = sizeof(asbd);
        if (AudioFileStreamGetProperty(inAudioFileStream, kAudioFileStreamProperty_DataFormat, &asbdSize, &asbd) == noErr)
            myData->formatKnown = asbd.mSampleRate > 0;
        *ioFlags |= kAudioFileStreamPropertyFlag_CacheProperty;
        break;
    }
    default:
        break;
    }
}

static void MyPacketsProc(void *inClientData, UInt32 inNumberBytes, UInt32 inNumberPackets, const void *inInputData,
                          AudioStreamPacketDescription *inPacketDescriptions) {
    (void)inNumberBytes;
    (void)inInputData;
    (void)inPacketDescriptions;
    static_cast<MyData *>(inClientData)->packets += inNumberPackets;
}

int main(int argc, char **argv) {
    if (argc != 2) return 2;
    FILE *file = fopen(argv[1], "rb");
    if (file == NULL) return 2;
    MyData myData;
    memset(&myData, 0, sizeof(myData));
    AudioFileStreamID audioFileStream = NULL;
    OSStatus err = AudioFileStreamOpen(&myData, MyPropertyListenerProc, MyPacketsProc, 0, &audioFileStream);
    if (err) {
        printf("AudioFileStreamOpen %d\n", (int)err);
        return 1;
    }
    char buf[1000];
    size_t bytesRecvd;
    while ((bytesRecvd = fread(buf, 1, sizeof(buf), file)) > 0) {
        err = AudioFileStreamParseBytes(audioFileStream, (UInt32)bytesRecvd, buf, 0);
        if (err) {
            printf("AudioFileStreamParseBytes %d\n", (int)err);
            return 1;
        }
    }
    fclose(file);
    // After a seek a program passes the discontinuity flag, here as a UInt32 and as the constant.
    UInt32 flags = kAudioFileStreamParseFlag_Discontinuity;
    err = AudioFileStreamParseBytes(audioFileStream, 0, NULL, flags);
    OSStatus err2 = AudioFileStreamParseBytes(audioFileStream, 0, NULL, kAudioFileStreamParseFlag_Discontinuity);
    UInt32 seekFlags = 0;
    SInt64 byteOffset = 0;
    OSStatus seekErr = AudioFileStreamSeek(audioFileStream, 0, &byteOffset, &seekFlags);
    AudioFileStreamClose(audioFileStream);
    printf("packets %u ready %d format %d cached %u discontinuity %d %d seek %d offset %lld\n", (unsigned)myData.packets,
           (int)myData.readyToProducePackets, (int)myData.formatKnown, (unsigned)myData.cachedFlagsSeen, (int)err,
           (int)err2, (int)seekErr, (long long)byteOffset);
    if (!myData.readyToProducePackets || !myData.formatKnown || err || err2 || seekErr) return 1;
    printf("ok\n");
    return 0;
}
