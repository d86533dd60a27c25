/*
 * stream_client.cpp — a stream player in the style of Apple's AudioFileStreamExample
 * (afsclient.cpp): bytes are pushed through AudioFileStreamParseBytes; the property listener
 * makes an output queue when the stream is ready to produce packets; the packets callback
 * copies packets into queue buffers and waits, on a condition variable, for a free one. Here the
 * bytes come from a file (or standard input) instead of a socket.
 *
 *   stream_client FILE|-
 *
 * Written the way C++ Mac code is: the listener takes `UInt32 *ioFlags`, the parse call passes
 * `0` for its flags, and the program relies on what <AudioToolbox/AudioToolbox.h> brings in.
 */
#include <AudioToolbox/AudioToolbox.h>
#include <pthread.h>

#define PRINTERROR(LABEL) printf("%s err %4.4s %d\n", LABEL, (char *)&err, (int)err)

const unsigned int kNumAQBufs = 3;
const size_t kAQBufSize = 128 * 1024;
const size_t kAQMaxPacketDescs = 512;

struct MyData {
    AudioFileStreamID audioFileStream;
    AudioQueueRef audioQueue;
    AudioQueueBufferRef audioQueueBuffer[kNumAQBufs];
    AudioStreamPacketDescription packetDescs[kAQMaxPacketDescs];

    unsigned int fillBufferIndex;
    size_t bytesFilled;
    size_t packetsFilled;

    bool inuse[kNumAQBufs];
    bool started;
    bool failed;

    pthread_mutex_t mutex;
    pthread_cond_t cond;
    pthread_cond_t done;
};

void MyAudioQueueOutputCallback(void *inClientData, AudioQueueRef inAQ, AudioQueueBufferRef inBuffer);
void MyAudioQueueIsRunningCallback(void *inUserData, AudioQueueRef inAQ, AudioQueuePropertyID inID);
void MyPropertyListenerProc(void *inClientData, AudioFileStreamID inAudioFileStream, AudioFileStreamPropertyID inPropertyID,
                            UInt32 *ioFlags);
void MyPacketsProc(void *inClientData, UInt32 inNumberBytes, UInt32 inNumberPackets, const void *inInputData,
                   AudioStreamPacketDescription *inPacketDescriptions);
OSStatus MyEnqueueBuffer(MyData *myData);
void WaitForFreeBuffer(MyData *myData);

int main(int argc, char *argv[]) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s FILE|-\n", argv[0]);
        return 1;
    }
    FILE *input = strcmp(argv[1], "-") == 0 ? stdin : fopen(argv[1], "rb");
    if (!input) {
        perror(argv[1]);
        return 1;
    }

    MyData *myData = (MyData *)calloc(1, sizeof(MyData));
    pthread_mutex_init(&myData->mutex, NULL);
    pthread_cond_init(&myData->cond, NULL);
    pthread_cond_init(&myData->done, NULL);

    OSStatus err = AudioFileStreamOpen(myData, MyPropertyListenerProc, MyPacketsProc, 0, &myData->audioFileStream);
    if (err) { PRINTERROR("AudioFileStreamOpen"); return 1; }

    char buf[2048];
    while (!myData->failed) {
        size_t bytesRecvd = fread(buf, 1, sizeof buf, input);
        if (bytesRecvd == 0) break;
        err = AudioFileStreamParseBytes(myData->audioFileStream, (UInt32)bytesRecvd, buf, 0);
        if (err) { PRINTERROR("AudioFileStreamParseBytes"); break; }
    }
    if (myData->failed || !myData->audioQueue) {
        fprintf(stderr, "no audio queue was made\n");
        return 1;
    }

    MyEnqueueBuffer(myData);

    printf("flushing\n");
    err = AudioQueueFlush(myData->audioQueue);
    if (err) { PRINTERROR("AudioQueueFlush"); return 1; }

    printf("stopping\n");
    err = AudioQueueStop(myData->audioQueue, false);
    if (err) { PRINTERROR("AudioQueueStop"); return 1; }

    printf("waiting until finished playing..\n");
    pthread_mutex_lock(&myData->mutex);
    pthread_cond_wait(&myData->done, &myData->mutex);
    pthread_mutex_unlock(&myData->mutex);

    printf("done\n");
    err = AudioFileStreamClose(myData->audioFileStream);
    err = AudioQueueDispose(myData->audioQueue, false);
    if (input != stdin) fclose(input);
    free(myData);
    return 0;
}

void MyPropertyListenerProc(void *inClientData, AudioFileStreamID inAudioFileStream, AudioFileStreamPropertyID inPropertyID,
                            UInt32 *ioFlags) {
    MyData *myData = (MyData *)inClientData;
    OSStatus err = noErr;
    (void)ioFlags;

    printf("found property '%c%c%c%c'\n", (char)(inPropertyID >> 24) & 255, (char)(inPropertyID >> 16) & 255,
           (char)(inPropertyID >> 8) & 255, (char)inPropertyID & 255);

    switch (inPropertyID) {
    case kAudioFileStreamProperty_ReadyToProducePackets: {
        AudioStreamBasicDescription asbd;
        UInt32 asbdSize = sizeof(asbd);
        err = AudioFileStreamGetProperty(inAudioFileStream, kAudioFileStreamProperty_DataFormat, &asbdSize, &asbd);
        if (err) { PRINTERROR("get kAudioFileStreamProperty_DataFormat"); myData->failed = true; break; }

        err = AudioQueueNewOutput(&asbd, MyAudioQueueOutputCallback, myData, NULL, NULL, 0, &myData->audioQueue);
        if (err) { PRINTERROR("AudioQueueNewOutput"); myData->failed = true; break; }

        for (unsigned int i = 0; i < kNumAQBufs; ++i) {
            err = AudioQueueAllocateBuffer(myData->audioQueue, kAQBufSize, &myData->audioQueueBuffer[i]);
            if (err) { PRINTERROR("AudioQueueAllocateBuffer"); myData->failed = true; break; }
        }

        UInt32 cookieSize;
        Boolean writable;
        err = AudioFileStreamGetPropertyInfo(inAudioFileStream, kAudioFileStreamProperty_MagicCookieData, &cookieSize, &writable);
        if (err) { PRINTERROR("info kAudioFileStreamProperty_MagicCookieData"); break; }
        printf("cookieSize %d\n", (int)cookieSize);

        void *cookieData = calloc(1, cookieSize);
        err = AudioFileStreamGetProperty(inAudioFileStream, kAudioFileStreamProperty_MagicCookieData, &cookieSize, cookieData);
        if (err) { PRINTERROR("get kAudioFileStreamProperty_MagicCookieData"); free(cookieData); break; }

        err = AudioQueueSetProperty(myData->audioQueue, kAudioQueueProperty_MagicCookie, cookieData, cookieSize);
        free(cookieData);
        if (err) { PRINTERROR("set kAudioQueueProperty_MagicCookie"); break; }

        err = AudioQueueAddPropertyListener(myData->audioQueue, kAudioQueueProperty_IsRunning, MyAudioQueueIsRunningCallback, myData);
        if (err) { PRINTERROR("AudioQueueAddPropertyListener"); myData->failed = true; break; }
        break;
    }
    }
}

void MyPacketsProc(void *inClientData, UInt32 inNumberBytes, UInt32 inNumberPackets, const void *inInputData,
                   AudioStreamPacketDescription *inPacketDescriptions) {
    MyData *myData = (MyData *)inClientData;
    (void)inNumberBytes;
    if (!myData->audioQueue) return;

    for (int i = 0; i < (int)inNumberPackets; ++i) {
        SInt64 packetOffset = inPacketDescriptions[i].mStartOffset;
        SInt64 packetSize = inPacketDescriptions[i].mDataByteSize;

        size_t bufSpaceRemaining = kAQBufSize - myData->bytesFilled;
        if (bufSpaceRemaining < (size_t)packetSize) {
            MyEnqueueBuffer(myData);
            WaitForFreeBuffer(myData);
        }

        AudioQueueBufferRef fillBuf = myData->audioQueueBuffer[myData->fillBufferIndex];
        memcpy((char *)fillBuf->mAudioData + myData->bytesFilled, (const char *)inInputData + packetOffset, (size_t)packetSize);
        myData->packetDescs[myData->packetsFilled] = inPacketDescriptions[i];
        myData->packetDescs[myData->packetsFilled].mStartOffset = (SInt64)myData->bytesFilled;
        myData->bytesFilled += (size_t)packetSize;
        myData->packetsFilled += 1;

        size_t packetsDescsRemaining = kAQMaxPacketDescs - myData->packetsFilled;
        if (packetsDescsRemaining == 0) {
            MyEnqueueBuffer(myData);
            WaitForFreeBuffer(myData);
        }
    }
}

OSStatus StartQueueIfNeeded(MyData *myData) {
    OSStatus err = noErr;
    if (!myData->started) {
        err = AudioQueueStart(myData->audioQueue, NULL);
        if (err) { PRINTERROR("AudioQueueStart"); myData->failed = true; return err; }
        myData->started = true;
        printf("started\n");
    }
    return err;
}

OSStatus MyEnqueueBuffer(MyData *myData) {
    OSStatus err = noErr;
    myData->inuse[myData->fillBufferIndex] = true;

    AudioQueueBufferRef fillBuf = myData->audioQueueBuffer[myData->fillBufferIndex];
    fillBuf->mAudioDataByteSize = (UInt32)myData->bytesFilled;
    err = AudioQueueEnqueueBuffer(myData->audioQueue, fillBuf, (UInt32)myData->packetsFilled, myData->packetDescs);
    if (err) { PRINTERROR("AudioQueueEnqueueBuffer"); myData->failed = true; return err; }

    StartQueueIfNeeded(myData);
    return err;
}

void WaitForFreeBuffer(MyData *myData) {
    if (++myData->fillBufferIndex >= kNumAQBufs) myData->fillBufferIndex = 0;
    myData->bytesFilled = 0;
    myData->packetsFilled = 0;

    pthread_mutex_lock(&myData->mutex);
    while (myData->inuse[myData->fillBufferIndex]) {
        pthread_cond_wait(&myData->cond, &myData->mutex);
    }
    pthread_mutex_unlock(&myData->mutex);
}

int MyFindQueueBuffer(MyData *myData, AudioQueueBufferRef inBuffer) {
    for (unsigned int i = 0; i < kNumAQBufs; ++i) {
        if (inBuffer == myData->audioQueueBuffer[i]) return (int)i;
    }
    return -1;
}

void MyAudioQueueOutputCallback(void *inClientData, AudioQueueRef inAQ, AudioQueueBufferRef inBuffer) {
    MyData *myData = (MyData *)inClientData;
    (void)inAQ;
    int bufIndex = MyFindQueueBuffer(myData, inBuffer);
    if (bufIndex < 0) return;

    pthread_mutex_lock(&myData->mutex);
    myData->inuse[bufIndex] = false;
    pthread_cond_signal(&myData->cond);
    pthread_mutex_unlock(&myData->mutex);
}

void MyAudioQueueIsRunningCallback(void *inClientData, AudioQueueRef inAQ, AudioQueuePropertyID inID) {
    MyData *myData = (MyData *)inClientData;
    UInt32 running;
    UInt32 size = sizeof(running);
    OSStatus err = AudioQueueGetProperty(inAQ, kAudioQueueProperty_IsRunning, &running, &size);
    (void)inID;
    if (err) { PRINTERROR("get kAudioQueueProperty_IsRunning"); return; }
    if (!running) {
        pthread_mutex_lock(&myData->mutex);
        pthread_cond_signal(&myData->done);
        pthread_mutex_unlock(&myData->mutex);
    }
}
