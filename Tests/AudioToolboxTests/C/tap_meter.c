/*
 * A level meter on a processing tap, in the style of the Audio Queue Services Programming
 * Guide's playback listings: an AQPlayerState, HandleOutputBuffer reading packets from the
 * file, DeriveBufferSize — and a post-effects siphon tap that sums the squares of what the queue
 * plays, channel by channel, and asks the queue how much of its time each chunk covered.
 *
 *   tap_meter FILE RATE offline|play
 *
 * RATE is the playback rate (kAudioQueueParam_PlayRate, 1 plays at normal speed). `offline`
 * renders the whole file with AudioQueueOfflineRender; `play` plays it on the default output.
 * Prints each channel's RMS level in dBFS, the frames the tap saw and the queue frames they
 * covered (GetQueueTime).
 */
#include <AudioToolbox/AudioToolbox.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define kNumberBuffers 3
#define kMaxChannels 8

typedef struct AQPlayerState {
    AudioStreamBasicDescription mDataFormat;
    AudioQueueRef mQueue;
    AudioQueueBufferRef mBuffers[kNumberBuffers];
    AudioFileID mAudioFile;
    UInt32 bufferByteSize;
    SInt64 mCurrentPacket;
    UInt32 mNumPacketsToRead;
    AudioStreamPacketDescription *mPacketDescs;
    volatile Boolean mIsRunning;
} AQPlayerState;

/* What the tap measures. It runs on the queue's render thread; main reads it once the queue
   has stopped. */
typedef struct LevelMeter {
    UInt32 channels;
    double sumOfSquares[kMaxChannels];
    UInt64 tapFrames;
    UInt64 queueFrames;
    UInt32 queueTimeErrors;
} LevelMeter;

static void Check(OSStatus status, const char *operation) {
    if (status == noErr) return;
    fprintf(stderr, "error: %s (%d)\n", operation, (int)status);
    exit(1);
}

static void HandleOutputBuffer(void *aqData, AudioQueueRef inAQ, AudioQueueBufferRef inBuffer) {
    AQPlayerState *pAqData = (AQPlayerState *)aqData;
    if (pAqData->mIsRunning == 0) return;
    UInt32 numBytesReadFromFile = pAqData->bufferByteSize;
    UInt32 numPackets = pAqData->mNumPacketsToRead;
    AudioFileReadPacketData(pAqData->mAudioFile, false, &numBytesReadFromFile, pAqData->mPacketDescs,
                            pAqData->mCurrentPacket, &numPackets, inBuffer->mAudioData);
    if (numPackets > 0) {
        inBuffer->mAudioDataByteSize = numBytesReadFromFile;
        AudioQueueEnqueueBuffer(inAQ, inBuffer, (pAqData->mPacketDescs ? numPackets : 0), pAqData->mPacketDescs);
        pAqData->mCurrentPacket += numPackets;
    } else {
        AudioQueueStop(inAQ, false);
        pAqData->mIsRunning = false;
    }
}

/* The siphon: ioData holds what the queue plays, one buffer per channel (Float32, not
   interleaved), to be read and left as it is. */
static void MeterTap(void *inClientData, AudioQueueProcessingTapRef inAQTap, UInt32 inNumberFrames,
                     AudioTimeStamp *ioTimeStamp, AudioQueueProcessingTapFlags *ioFlags, UInt32 *outNumberFrames,
                     AudioBufferList *ioData) {
    LevelMeter *meter = (LevelMeter *)inClientData;
    (void)ioTimeStamp;
    (void)ioFlags;
    (void)outNumberFrames;
    for (UInt32 c = 0; c < ioData->mNumberBuffers && c < kMaxChannels; c++) {
        const Float32 *samples = (const Float32 *)ioData->mBuffers[c].mData;
        double sum = 0;
        for (UInt32 i = 0; i < inNumberFrames; i++) sum += (double)samples[i] * samples[i];
        meter->sumOfSquares[c] += sum;
    }
    Float64 queueSampleTime;
    UInt32 queueFrameCount;
    if (AudioQueueProcessingTapGetQueueTime(inAQTap, &queueSampleTime, &queueFrameCount) == noErr)
        meter->queueFrames += queueFrameCount;
    else
        meter->queueTimeErrors++;
    meter->tapFrames += inNumberFrames;
}

static void DeriveBufferSize(AudioStreamBasicDescription ASBDesc, UInt32 maxPacketSize, Float64 seconds,
                             UInt32 *outBufferSize, UInt32 *outNumPacketsToRead) {
    static const UInt32 maxBufferSize = 0x50000;
    static const UInt32 minBufferSize = 0x4000;
    if (ASBDesc.mFramesPerPacket != 0) {
        Float64 numPacketsForTime = ASBDesc.mSampleRate / ASBDesc.mFramesPerPacket * seconds;
        *outBufferSize = (UInt32)(numPacketsForTime * maxPacketSize);
    } else {
        *outBufferSize = maxBufferSize > maxPacketSize ? maxBufferSize : maxPacketSize;
    }
    if (*outBufferSize > maxBufferSize && *outBufferSize > maxPacketSize) *outBufferSize = maxBufferSize;
    else if (*outBufferSize < minBufferSize) *outBufferSize = minBufferSize;
    *outNumPacketsToRead = *outBufferSize / maxPacketSize;
}

/* Sets the playback rate: the time/pitch unit on, then the rate. */
static void SetPlayRate(AudioQueueRef queue, Float32 rate) {
    if (rate == 1) return;
    UInt32 enable = 1;
    Check(AudioQueueSetProperty(queue, kAudioQueueProperty_EnableTimePitch, &enable, sizeof enable), "enable time/pitch");
    Check(AudioQueueSetParameter(queue, kAudioQueueParam_PlayRate, rate), "set the play rate");
}

int main(int argc, char **argv) {
    if (argc != 4 || (strcmp(argv[3], "offline") != 0 && strcmp(argv[3], "play") != 0)) {
        fprintf(stderr, "usage: tap_meter FILE RATE offline|play\n");
        return 2;
    }
    int offline = strcmp(argv[3], "offline") == 0;
    Float32 rate = (Float32)atof(argv[2]);
    AQPlayerState aqData;
    memset(&aqData, 0, sizeof aqData);
    LevelMeter meter;
    memset(&meter, 0, sizeof meter);

    CFURLRef audioFileURL = CFURLCreateFromFileSystemRepresentation(NULL, (const UInt8 *)argv[1], (CFIndex)strlen(argv[1]), false);
    Check(AudioFileOpenURL(audioFileURL, kAudioFileReadPermission, 0, &aqData.mAudioFile), "AudioFileOpenURL");
    CFRelease(audioFileURL);
    UInt32 dataFormatSize = sizeof(aqData.mDataFormat);
    Check(AudioFileGetProperty(aqData.mAudioFile, kAudioFilePropertyDataFormat, &dataFormatSize, &aqData.mDataFormat), "data format");
    Check(AudioQueueNewOutput(&aqData.mDataFormat, HandleOutputBuffer, &aqData, NULL, NULL, 0, &aqData.mQueue), "AudioQueueNewOutput");

    UInt32 maxPacketSize, propertySize = sizeof(maxPacketSize);
    Check(AudioFileGetProperty(aqData.mAudioFile, kAudioFilePropertyPacketSizeUpperBound, &propertySize, &maxPacketSize), "packet size");
    DeriveBufferSize(aqData.mDataFormat, maxPacketSize, 0.5, &aqData.bufferByteSize, &aqData.mNumPacketsToRead);
    if (aqData.mDataFormat.mBytesPerPacket == 0 || aqData.mDataFormat.mFramesPerPacket == 0)
        aqData.mPacketDescs = (AudioStreamPacketDescription *)malloc(aqData.mNumPacketsToRead * sizeof(AudioStreamPacketDescription));

    /* The offline format, then the rate and the tap: all while the queue is stopped. */
    AudioStreamBasicDescription renderFormat = {0};
    if (offline) {
        renderFormat.mSampleRate = aqData.mDataFormat.mSampleRate;
        renderFormat.mFormatID = kAudioFormatLinearPCM;
        renderFormat.mFormatFlags = kAudioFormatFlagIsFloat | kAudioFormatFlagIsPacked;
        renderFormat.mChannelsPerFrame = aqData.mDataFormat.mChannelsPerFrame;
        renderFormat.mBitsPerChannel = 32;
        renderFormat.mBytesPerFrame = renderFormat.mBytesPerPacket = 4 * renderFormat.mChannelsPerFrame;
        renderFormat.mFramesPerPacket = 1;
        Check(AudioQueueSetOfflineRenderFormat(aqData.mQueue, &renderFormat, NULL), "AudioQueueSetOfflineRenderFormat");
    }
    SetPlayRate(aqData.mQueue, rate);
    UInt32 maxFrames;
    AudioStreamBasicDescription processingFormat;
    AudioQueueProcessingTapRef tap;
    Check(AudioQueueProcessingTapNew(aqData.mQueue, MeterTap, &meter, kAudioQueueProcessingTap_PostEffects | kAudioQueueProcessingTap_Siphon,
                                     &maxFrames, &processingFormat, &tap), "AudioQueueProcessingTapNew");
    meter.channels = processingFormat.mChannelsPerFrame;
    printf("tap: %u frames at most, %u channels at %.0f Hz, format flags %#x\n", (unsigned)maxFrames,
           (unsigned)processingFormat.mChannelsPerFrame, processingFormat.mSampleRate, (unsigned)processingFormat.mFormatFlags);

    aqData.mCurrentPacket = 0;
    aqData.mIsRunning = true;
    for (int i = 0; i < kNumberBuffers; ++i) {
        Check(AudioQueueAllocateBuffer(aqData.mQueue, aqData.bufferByteSize, &aqData.mBuffers[i]), "AudioQueueAllocateBuffer");
        HandleOutputBuffer(&aqData, aqData.mQueue, aqData.mBuffers[i]);
    }
    Check(AudioQueueStart(aqData.mQueue, NULL), "AudioQueueStart");

    if (offline) {
        const UInt32 chunk = 4096;
        AudioQueueBufferRef out;
        Check(AudioQueueAllocateBuffer(aqData.mQueue, chunk * renderFormat.mBytesPerFrame, &out), "allocate the render buffer");
        AudioTimeStamp time = {0};
        time.mFlags = kAudioTimeStampSampleTimeValid;
        for (;;) {
            Check(AudioQueueOfflineRender(aqData.mQueue, &time, out, chunk), "AudioQueueOfflineRender");
            UInt32 frames = out->mAudioDataByteSize / renderFormat.mBytesPerFrame;
            time.mSampleTime += frames;
            if (frames < chunk) break;
        }
    } else {
        UInt32 running = 1, size = sizeof running;
        do {
            CFRunLoopRunInMode(kCFRunLoopDefaultMode, 0.25, false);
            AudioQueueGetProperty(aqData.mQueue, kAudioQueueProperty_IsRunning, &running, &size);
        } while (running);
    }

    Check(AudioQueueProcessingTapDispose(tap), "AudioQueueProcessingTapDispose");
    AudioQueueDispose(aqData.mQueue, true);
    AudioFileClose(aqData.mAudioFile);
    free(aqData.mPacketDescs);

    for (UInt32 c = 0; c < meter.channels && c < kMaxChannels; c++) {
        double rms = meter.tapFrames ? sqrt(meter.sumOfSquares[c] / (double)meter.tapFrames) : 0;
        printf("channel %u: RMS %.3f dBFS\n", (unsigned)c, rms > 0 ? 20 * log10(rms) : -INFINITY);
    }
    printf("tap frames %llu, queue frames %llu, queue time errors %u\n", (unsigned long long)meter.tapFrames,
           (unsigned long long)meter.queueFrames, (unsigned)meter.queueTimeErrors);
    return 0;
}
